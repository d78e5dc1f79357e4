package writer

import "testing"

// The first field of a group may have an empty name (DuckDB's UNION tag
// field); a column, and other fields of a group, may not.
func TestSchemaEmptyNames(t *testing.T) {
	if _, err := Elements("schema", Group("u", Integer("", 8, false), Int32("num"), String("str"))); err != nil {
		t.Errorf("a UNION's layout: %v", err)
	}
	if _, err := Elements("schema", Int32("")); err == nil {
		t.Error("a column with an empty name: no error")
	}
	if _, err := Elements("schema", Group("g", Int32("a"), Int32(""))); err == nil {
		t.Error("a second field with an empty name: no error")
	}
}

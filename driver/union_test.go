package driver

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
)

// A UNION column hands out its member's value, names its type as DuckDB
// does, and is stored as DuckDB writes a UNION: a struct of a UTINYINT
// tag field named "" and the members.
func TestUnionColumn(t *testing.T) {
	db, dir := openTest(t, "")
	mustExec(t, db, "CREATE TABLE u (id INTEGER, v UNION(num INTEGER, str VARCHAR))")
	mustExec(t, db, "INSERT INTO u VALUES (1, 7), (2, 'x'), (3, NULL)")
	rows, err := db.Query("SELECT v FROM u ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		t.Fatal(err)
	}
	if got := cts[0].DatabaseTypeName(); got != "UNION(num INTEGER, str VARCHAR)" {
		t.Errorf("type name %q", got)
	}
	var got []string
	for rows.Next() {
		var v any
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(v))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[7 x <nil>]" {
		t.Errorf("values %v, want [7 x <nil>]", got)
	}

	pf, err := file.OpenFile(filepath.Join(dir, "u.parquet"), file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	var names []string
	for _, e := range pf.Meta.Schema[1:] {
		names = append(names, fmt.Sprintf("%q", e.Name))
	}
	if got, want := fmt.Sprint(names), `["id" "v" "" "num" "str"]`; got != want {
		t.Errorf("schema %s, want %s", got, want)
	}
}

package sqlplan

import (
	"context"
	"testing"
)

// TestOuterJoinNullable: the columns of a null-extended side of an outer
// join are reported nullable even when the file declares them required.
func TestOuterJoinNullable(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE a (id BIGINT NOT NULL)")
	exec(t, e, "CREATE TABLE b (id BIGINT NOT NULL)")
	for q, want := range map[string][2]bool{
		"SELECT a.id, b.id FROM a JOIN b ON a.id = b.id":       {false, false},
		"SELECT a.id, b.id FROM a LEFT JOIN b ON a.id = b.id":  {false, true},
		"SELECT a.id, b.id FROM a RIGHT JOIN b ON a.id = b.id": {true, false},
		"SELECT a.id, b.id FROM a FULL JOIN b ON a.id = b.id":  {true, true},
	} {
		s, err := e.Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := s.Query(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		cols := rows.Columns()
		rows.Close()
		if cols[0].Nullable != want[0] || cols[1].Nullable != want[1] {
			t.Errorf("%s: nullable %v %v, want %v", q, cols[0].Nullable, cols[1].Nullable, want)
		}
	}
}

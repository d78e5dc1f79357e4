package interop

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestDuckDBUnion: a UNION column in Parquet both ways. DuckDB's COPY
// writes UNION(num INTEGER, str VARCHAR) as a STRUCT of a UTINYINT tag
// named "" and the members (and reads such a file back as that STRUCT);
// carquet writes the same layout and reads it, its own or DuckDB's, as
// the UNION.
func TestDuckDBUnion(t *testing.T) {
	dir := t.TempDir()
	duck := openDuckDB(t)
	const values = `SELECT k, u::UNION(num INTEGER, str VARCHAR) AS u FROM (VALUES
		(1, union_value(num := 7)::UNION(num INTEGER, str VARCHAR)),
		(2, union_value(str := 'x')::UNION(num INTEGER, str VARCHAR)),
		(3, NULL),
		(4, union_value(num := NULL)::UNION(num INTEGER, str VARCHAR))) v(k, u)`
	cq := copyAndOpen(t, duck, dir, values, "from_duckdb")
	const readBack = `SELECT k, u::VARCHAR, union_tag(u)::VARCHAR, typeof(u) FROM %s ORDER BY u, k`
	const want = "[[1 7 num UNION(num INTEGER, str VARCHAR)] [4 NULL num UNION(num INTEGER, str VARCHAR)] [2 x str UNION(num INTEGER, str VARCHAR)] [3 NULL NULL UNION(num INTEGER, str VARCHAR)]]"
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_duckdb"))); got != want {
		t.Errorf("carquet reads DuckDB's file: %s, want %s", got, want)
	}

	if _, err := cq.Exec(`CREATE TABLE from_carquet (k INTEGER, u UNION(num INTEGER, str VARCHAR))`); err != nil {
		t.Fatal(err)
	}
	if _, err := cq.Exec(`INSERT INTO from_carquet VALUES (1, 7), (2, 'x'), (3, NULL), (4, union_value(num := NULL))`); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_carquet"))); got != want {
		t.Errorf("carquet reads its own file: %s, want %s", got, want)
	}
	// DuckDB reads carquet's file as it reads its own: the same STRUCT.
	const duckRead = `SELECT k, u::VARCHAR, typeof(u) FROM %s ORDER BY k`
	duckFile := "'" + filepath.Join(dir, "from_duckdb.parquet") + "'"
	carquetFile := "'" + filepath.Join(dir, "from_carquet.parquet") + "'"
	theirs := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(duckRead, duckFile)))
	ours := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(duckRead, carquetFile)))
	if ours != theirs {
		t.Errorf("DuckDB reads carquet's file as %s, its own as %s", ours, theirs)
	}
	t.Logf("DuckDB reads both files as %s", ours)
}

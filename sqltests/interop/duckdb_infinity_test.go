package interop

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "github.com/carquet-go/carquet/driver"
)

// TestDuckDBInfiniteDates: DuckDB's infinite DATE, TIMESTAMP and
// TIMESTAMPTZ values in Parquet both ways. Both engines store them as the
// int32/int64 extremes (negated for -infinity), so each reads the other's
// file with the same values, order and text; a pushed-down bound on the
// column must keep the infinite rows it matches.
func TestDuckDBInfiniteDates(t *testing.T) {
	dir := t.TempDir()
	duck := openDuckDB(t)
	const values = `SELECT * FROM (VALUES
		(1, 'infinity'::DATE, 'infinity'::TIMESTAMP, 'infinity'::TIMESTAMPTZ),
		(2, DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', TIMESTAMPTZ '2024-01-02 03:04:05+00'),
		(3, '-infinity'::DATE, '-infinity'::TIMESTAMP, '-infinity'::TIMESTAMPTZ)) v(k, d, ts, tz)`
	fromDuck := filepath.Join(dir, "from_duckdb.parquet")
	if _, err := duck.Exec(fmt.Sprintf(`COPY (%s) TO '%s'`, values, fromDuck)); err != nil {
		t.Fatal(err)
	}
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	if _, err := cq.Exec(`SET TimeZone = 'UTC'`); err != nil {
		t.Fatal(err)
	}
	if _, err := duck.Exec(`SET TimeZone = 'UTC'`); err != nil {
		t.Fatal(err)
	}
	const readBack = `SELECT k, d::VARCHAR, ts::VARCHAR, tz::VARCHAR, isinf(d), isfinite(ts) FROM %s ORDER BY d`
	const want = "[[3 -infinity -infinity -infinity true false] [2 2024-01-02 2024-01-02 03:04:05 2024-01-02 03:04:05+00 false true] [1 infinity infinity infinity true false]]"
	const pruned = `SELECT k FROM %s WHERE d > DATE '3000-01-01' AND ts > TIMESTAMP '3000-01-01' ORDER BY k`

	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_duckdb"))); got != want {
		t.Errorf("carquet reads DuckDB's file: %s, want %s", got, want)
	}
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(pruned, "from_duckdb"))); got != "[[1]]" {
		t.Errorf("carquet's bounds on DuckDB's file: %s, want [[1]]", got)
	}

	if _, err := cq.Exec(`CREATE TABLE from_carquet AS ` + values); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_carquet"))); got != want {
		t.Errorf("carquet reads its own file: %s, want %s", got, want)
	}
	carquetFile := "'" + filepath.Join(dir, "from_carquet.parquet") + "'"
	if got := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(readBack, carquetFile))); got != want {
		t.Errorf("DuckDB reads carquet's file: %s, want %s", got, want)
	}
	if got := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(pruned, carquetFile))); got != "[[1]]" {
		t.Errorf("DuckDB's bounds on carquet's file: %s, want [[1]]", got)
	}
}

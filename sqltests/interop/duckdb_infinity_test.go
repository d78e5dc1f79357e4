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
	cq := copyAndOpen(t, duck, dir, values, "from_duckdb")
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

// TestDuckDBInfiniteCoarseStamps: TIMESTAMP_MS infinities in Parquet both
// ways. DuckDB writes one as the int64 extreme of a TIMESTAMP(MILLIS)
// column; carquet writes and reads the same, statistics too. DuckDB's COPY
// refuses an infinite TIMESTAMP_S ("Could not convert Timestamp(S) to
// Timestamp(US)"); carquet writes it as the TIMESTAMP infinity in
// microseconds (the unit it writes TIMESTAMP_S in, as DuckDB), which
// DuckDB reads as infinity.
func TestDuckDBInfiniteCoarseStamps(t *testing.T) {
	dir := t.TempDir()
	duck := openDuckDB(t)
	const values = `SELECT * FROM (VALUES
		(1, TIMESTAMP_S '1999-01-02 03:04:05', '-infinity'::TIMESTAMP_MS),
		(2, TIMESTAMP_S '2024-01-02 03:04:05', TIMESTAMP_MS '2024-01-02 03:04:05.678'),
		(3, TIMESTAMP_S '2000-01-02 03:04:05', 'infinity'::TIMESTAMP_MS)) v(k, s, m)`
	cq := copyAndOpen(t, duck, dir, values, "coarse_duckdb")
	const readBack = `SELECT k, s::VARCHAR, m::VARCHAR, isinf(m) FROM %s ORDER BY m`
	const want = "[[1 1999-01-02 03:04:05 -infinity true] [2 2024-01-02 03:04:05 2024-01-02 03:04:05.678 false] [3 2000-01-02 03:04:05 infinity true]]"
	const extremes = `SELECT min(m)::VARCHAR, max(m)::VARCHAR, count(*) FILTER (WHERE m > TIMESTAMP '3000-01-01') FROM %s`
	const wantExtremes = "[[-infinity infinity 1]]"

	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "coarse_duckdb"))); got != want {
		t.Errorf("carquet reads DuckDB's file: %s, want %s", got, want)
	}
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(extremes, "coarse_duckdb"))); got != wantExtremes {
		t.Errorf("carquet's min/max of DuckDB's file: %s, want %s", got, wantExtremes)
	}
	if _, err := cq.Exec(`CREATE TABLE coarse_carquet AS ` + values); err != nil {
		t.Fatal(err)
	}
	carquetFile := "'" + filepath.Join(dir, "coarse_carquet.parquet") + "'"
	if got := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(readBack, carquetFile))); got != want {
		t.Errorf("DuckDB reads carquet's file: %s, want %s", got, want)
	}
	if got := fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(extremes, carquetFile))); got != wantExtremes {
		t.Errorf("DuckDB's min/max of carquet's file: %s, want %s", got, wantExtremes)
	}
	if got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(extremes, "coarse_carquet"))); got != wantExtremes {
		t.Errorf("carquet's min/max of its own file: %s, want %s", got, wantExtremes)
	}

	if _, err := cq.Exec(`CREATE TABLE s_carquet AS SELECT * FROM (VALUES (1, 'infinity'::TIMESTAMP_S), (2, '-infinity'::TIMESTAMP_S)) v(k, s)`); err != nil {
		t.Fatal(err)
	}
	sFile := "'" + filepath.Join(dir, "s_carquet.parquet") + "'"
	const readS = `SELECT k, s::VARCHAR, isinf(s) FROM %s ORDER BY s`
	const wantS = "[[2 -infinity true] [1 infinity true]]"
	for name, db := range map[string]*sql.DB{"carquet": cq, "DuckDB": duck} {
		if got := fmt.Sprint(rowsOf(t, db, fmt.Sprintf(readS, sFile))); got != wantS {
			t.Errorf("%s reads carquet's TIMESTAMP_S infinities: %s, want %s", name, got, wantS)
		}
	}
}

// copyAndOpen writes the rows of query values with DuckDB's COPY to
// dir/name.parquet and opens carquet on dir (closed with the test).
func copyAndOpen(t *testing.T, duck *sql.DB, dir, values, name string) *sql.DB {
	t.Helper()
	file := filepath.Join(dir, name+".parquet")
	if _, err := duck.Exec(fmt.Sprintf(`COPY (%s) TO '%s'`, values, file)); err != nil {
		t.Fatal(err)
	}
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cq.Close() })
	return cq
}

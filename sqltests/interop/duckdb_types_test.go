package interop

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	_ "github.com/carquet-go/carquet/driver"
)

// TestDuckDBIssue34Types: HUGEINT, UHUGEINT, BIT and TIMETZ in Parquet
// both ways. DuckDB's COPY writes HUGEINT and UHUGEINT as DOUBLE, BIT as
// a UTF8 string and TIMETZ as the UTC time of day in a
// TIME(isAdjustedToUTC) column; carquet reads those as DuckDB does
// (DOUBLE, VARCHAR, TIMETZ at +00). carquet writes HUGEINT and UHUGEINT
// as DECIMAL(38,0) (losslessly to 38 digits), BIT and TIMETZ as DuckDB
// does, and DuckDB reads them back with the same values.
func TestDuckDBIssue34Types(t *testing.T) {
	dir := t.TempDir()
	duck := openDuckDB(t)
	fromDuck := filepath.Join(dir, "from_duckdb.parquet")
	copySQL := fmt.Sprintf(`COPY (SELECT 12345678901234567890::HUGEINT h, 2::UHUGEINT u, '0101'::BIT b, '12:34:56+02'::TIMETZ tz) TO '%s'`, fromDuck)
	if _, err := duck.Exec(copySQL); err != nil {
		t.Fatal(err)
	}
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	const readBack = "SELECT typeof(h), h::VARCHAR, typeof(u), u::VARCHAR, typeof(b), b::VARCHAR, typeof(tz), tz::VARCHAR FROM %s"
	got := fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_duckdb")))
	if want := "[[DOUBLE 1.2345678901234567e+19 DOUBLE 2.0 VARCHAR 0101 TIME WITH TIME ZONE 10:34:56+00]]"; got != want {
		t.Errorf("carquet reads DuckDB's file: %s, want %s", got, want)
	}

	if _, err := cq.Exec(`CREATE TABLE from_carquet AS SELECT 99999999999999999999999999999999999999::HUGEINT h, 18446744073709551616::UHUGEINT u, '0101'::BIT b, '12:34:56+02'::TIMETZ tz`); err != nil {
		t.Fatal(err)
	}
	got = fmt.Sprint(rowsOf(t, cq, fmt.Sprintf(readBack, "from_carquet")))
	if want := "[[HUGEINT 99999999999999999999999999999999999999 UHUGEINT 18446744073709551616 BIT 0101 TIME WITH TIME ZONE 10:34:56+00]]"; got != want {
		t.Errorf("carquet reads its own file: %s, want %s", got, want)
	}
	got = fmt.Sprint(rowsOf(t, duck, fmt.Sprintf(readBack, "'"+filepath.Join(dir, "from_carquet.parquet")+"'")))
	if want := "[[DECIMAL(38,0) 99999999999999999999999999999999999999 DECIMAL(38,0) 18446744073709551616 VARCHAR 0101 TIME WITH TIME ZONE 10:34:56+00]]"; got != want {
		t.Errorf("DuckDB reads carquet's file: %s, want %s", got, want)
	}
}

package conformance

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"github.com/carquet-go/carquet/sqltests/internal/testdata"
)

func dataFiles(t *testing.T) []string {
	dir := testdata.Dir(t, "data")
	var files []string
	for _, pat := range []string{"*.parquet", "geospatial/*.parquet"} {
		m, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) < 70 {
		t.Fatalf("only %d files under %s", len(files), dir)
	}
	return files
}

func openDuckDB(t *testing.T) *sql.DB {
	db, err := peers.OpenDuckDB(1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// compare reports every cell of got that differs from want, except in the
// columns of skipCols. It returns the number of cells compared.
func compare(t *testing.T, wantName string, want *peers.Table, gotName string, got *peers.Table, skipCols map[string]string) int {
	t.Helper()
	if fmt.Sprint(want.Columns) != fmt.Sprint(got.Columns) {
		t.Errorf("columns: %s %v, %s %v", wantName, want.Columns, gotName, got.Columns)
		return 0
	}
	if len(want.Rows) != len(got.Rows) {
		t.Errorf("rows: %s %d, %s %d", wantName, len(want.Rows), gotName, len(got.Rows))
		return 0
	}
	for c, name := range want.Columns {
		if reason, ok := skipCols[name]; ok {
			t.Logf("column %s not compared with %s: %s", name, gotName, reason)
			continue
		}
		bad := 0
		for r := range want.Rows {
			if want.Rows[r][c] != got.Rows[r][c] {
				if bad < 3 {
					t.Errorf("row %d column %s (%s %s, %s %s):\n  %s: %.300s\n  %s: %.300s", r, name, wantName, want.Types[c], gotName, got.Types[c],
						wantName, want.Rows[r][c], gotName, got.Rows[r][c])
				}
				bad++
			}
		}
		if bad > 3 {
			t.Errorf("column %s: %d differing cells in all", name, bad)
		}
	}
	return len(want.Rows) * len(want.Columns)
}

// expectErr checks a peer's or carquet's error against the record. It
// returns true when the table can be compared.
func expectErr(t *testing.T, who string, err error, want string) bool {
	t.Helper()
	switch {
	case err == nil && want == "":
		return true
	case err == nil:
		t.Logf("%s now reads the file (expected an error containing %q): update expectations.go", who, want)
		return true
	case want == "":
		t.Errorf("%s: %v", who, err)
		return false
	case !strings.Contains(err.Error(), want):
		t.Errorf("%s: want an error containing %q, got %v", who, want, err)
		return false
	}
	t.Logf("%s rejects the file as recorded: %v", who, err)
	return false
}

// TestDataFiles compares carquet with DuckDB and arrow-go on every file of
// parquet-testing/data.
func TestDataFiles(t *testing.T) {
	db := openDuckDB(t)
	dir := testdata.Dir(t, "data")
	seen := map[string]bool{}
	for _, path := range dataFiles(t) {
		name, _ := filepath.Rel(dir, path)
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			e := expectations[name]
			if e.skip != "" {
				t.Skip(e.skip)
			}
			ct, cerr := peers.ReadCarquet(path)
			dt, derr := peers.ReadDuckDB(db, "SELECT * FROM read_parquet(?)", path)
			at, aerr := peers.ReadArrow(path)
			carquetOK := expectErr(t, "carquet", cerr, e.carquet)
			if cerr != nil && e.carquetReason != "" {
				t.Logf("carquet: %s", e.carquetReason)
			}
			duckOK := expectErr(t, "duckdb", derr, e.duckdb)
			arrowOK := expectErr(t, "arrow-go", aerr, e.arrow)
			if !carquetOK && e.noChecksums {
				ct, cerr = peers.ReadCarquetWith(path, false, 1000)
				if cerr != nil {
					t.Fatalf("carquet without checksum verification: %v", cerr)
				}
				carquetOK = true
			}
			n := 0
			if carquetOK && !duckOK && !arrowOK && e.twin != "" {
				tt, err := peers.ReadDuckDB(db, "SELECT * FROM read_parquet(?)", filepath.Join(dir, e.twin))
				if err != nil {
					t.Fatal(err)
				}
				n += compare(t, "carquet", ct, "duckdb("+e.twin+")", tt, nil)
				t.Logf("compared with DuckDB's rows of %s, which holds the same rows", e.twin)
			}
			switch {
			case carquetOK:
				if duckOK {
					n += compare(t, "carquet", ct, "duckdb", dt, e.duckdbCols)
				}
				if arrowOK {
					n += compare(t, "carquet", ct, "arrow-go", at, e.arrowCols)
				}
			case duckOK && arrowOK:
				// carquet cannot read it: at least record that the peers agree.
				skip := map[string]string{}
				for k, v := range e.arrowCols {
					skip[k] = v
				}
				n += compare(t, "duckdb", dt, "arrow-go", at, skip)
				t.Logf("peers agree on %d cells that carquet cannot read", n)
			}
			if !t.Failed() && n == 0 && (carquetOK || e.carquet == "") && (duckOK || arrowOK) {
				if ct != nil && len(ct.Rows) > 0 {
					t.Errorf("no cells compared")
				}
			}
		})
	}
	for name := range expectations {
		if !seen[name] {
			t.Errorf("expectations.go names %s, which is not under %s", name, dir)
		}
	}
}

// TestInt96Rows: every row of int96_from_spark.parquet as DuckDB reads
// it, through carquet's row reader (value.Get) and through SQL (epoch_us,
// the text cast, a comparison). Row 5 is Julian day 4189105064 with
// negative nanoseconds (Spark wrote 290000-12-31 with wrapped arithmetic);
// DuckDB takes the day as unsigned and wraps the microseconds in 64 bits,
// giving 226414-01-07 (BC) 22:21:39.416064.
func TestInt96Rows(t *testing.T) {
	db := openDuckDB(t)
	path := filepath.Join(testdata.Dir(t, "data"), "int96_from_spark.parquet")
	ct, err := peers.ReadCarquet(path)
	if err != nil {
		t.Fatal(err)
	}
	dt, err := peers.ReadDuckDB(db, "SELECT * FROM read_parquet(?)", path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ct.Rows) != 6 {
		t.Fatalf("carquet reads %d rows", len(ct.Rows))
	}
	compare(t, "duckdb", dt, "carquet", ct, nil)

	car, err := driver.OpenDB(driver.Config{Path: filepath.Dir(path)})
	if err != nil {
		t.Fatal(err)
	}
	defer car.Close()
	q := fmt.Sprintf(`SELECT a AS a, epoch_us(a) AS us, CAST(a AS VARCHAR) AS s, a < TIMESTAMP '2000-01-01' AS early
		FROM read_parquet('%s')`, path)
	want, err := peers.ReadDuckDB(db, q)
	if err != nil {
		t.Fatal(err)
	}
	got, err := peers.ReadDuckDB(car, q)
	if err != nil {
		t.Fatal(err)
	}
	compare(t, "duckdb", want, "carquet SQL", got, nil)
	if len(got.Rows) == 6 && got.Rows[5][1] != "-7207070780300583936" {
		t.Errorf("row 5: epoch_us %s", got.Rows[5][1])
	}
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

//go:build duckdb

package sqltest

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
	_ "github.com/duckdb/duckdb-go/v2"
)

// JSON files written by one engine and read by the other (issue 34):
// carquet's COPY ... TO 'x.json' must be the bytes DuckDB's is, and each
// engine must read the other's file as it reads its own.

// jsonRoundTripQuery has a value of each kind COPY writes: integers,
// doubles, strings with escapes and non-ASCII text, NULLs, booleans,
// dates, timestamps, structs, lists.
const jsonRoundTripQuery = `SELECT range AS id, 'n"' || range || chr(9) || 'é' AS name, CASE WHEN range % 3 = 0 THEN NULL ELSE range * 0.5 END AS amount,
	range % 2 = 0 AS even, DATE '2024-01-01' + range::INTEGER AS day, TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (range) MINUTE AS ts,
	{'k': range, 's': 'x' || range} AS st, [range, range + 1] AS l FROM range(50)`

// jsonCopies are the COPY forms compared: file name and options.
var jsonCopies = []struct{ file, options string }{
	{"rt.json", ""},
	{"rt_array.json", "(FORMAT json, ARRAY true)"},
	{"rt_fmt.json", "(FORMAT json, DATEFORMAT '%d/%m/%Y', TIMESTAMPFORMAT '%Y-%m-%dT%H:%M:%S')"},
}

func TestJSONFilesMatchDuckDB(t *testing.T) {
	duckDir, carqDir := t.TempDir(), t.TempDir()
	t.Chdir(duckDir)
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	duck.SetMaxOpenConns(1)
	carq, err := driver.OpenDB(driver.Config{Path: carqDir})
	if err != nil {
		t.Fatal(err)
	}
	defer carq.Close()
	query := jsonRoundTripQuery
	for _, c := range jsonCopies {
		stmt := fmt.Sprintf("COPY (%s) TO '%s' %s", query, c.file, c.options)
		if _, err := duck.Exec(stmt); err != nil {
			t.Fatalf("duckdb: %s: %v", c.file, err)
		}
		if _, err := carq.Exec(stmt); err != nil {
			t.Fatalf("carquet: %s: %v", c.file, err)
		}
		want, err := os.ReadFile(filepath.Join(duckDir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(carqDir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: carquet wrote\n%.600s\nDuckDB wrote\n%.600s", c.file, got, want)
		}
		// Each engine reads the other's file as its own.
		cross := filepath.Join(carqDir, "duck_"+c.file)
		if err := os.WriteFile(cross, want, 0o644); err != nil {
			t.Fatal(err)
		}
		read := "SELECT id::VARCHAR, name, amount::VARCHAR, even::VARCHAR, day::VARCHAR, ts::VARCHAR, st.k::VARCHAR, st.s, l[1]::VARCHAR, l[2]::VARCHAR FROM read_json_auto('%s') ORDER BY id"
		duckRows := jsonRows(t, duck, fmt.Sprintf(read, filepath.Join(carqDir, c.file)))
		carqRows := jsonRows(t, carq, fmt.Sprintf(read, "duck_"+c.file))
		if duckRows != carqRows {
			t.Errorf("%s: DuckDB read carquet's file as\n%.800s\ncarquet read DuckDB's as\n%.800s", c.file, duckRows, carqRows)
		}
		duckTypes := jsonRows(t, duck, fmt.Sprintf("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_json_auto('%s'))", filepath.Join(carqDir, c.file)))
		carqTypes := jsonRows(t, carq, fmt.Sprintf("SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_json_auto('%s'))", "duck_"+c.file))
		if duckTypes != carqTypes {
			t.Errorf("%s: DuckDB's types\n%s\ncarquet's\n%s", c.file, duckTypes, carqTypes)
		}
	}
}

// jsonRows runs q, whose columns are VARCHAR, and renders its rows as
// tab-separated lines.
func jsonRows(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('\t')
			}
			if v.Valid {
				b.WriteString(v.String)
			} else {
				b.WriteString("NULL")
			}
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return b.String()
}

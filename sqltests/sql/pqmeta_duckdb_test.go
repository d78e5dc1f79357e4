//go:build duckdb

package sqltest

import (
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/sqltests/internal/testdata"
	_ "github.com/duckdb/duckdb-go/v2"
)

// metaQueries are the introspection queries compared on every file of
// parquet-testing's data folder: every column of each function, nested
// and binary ones as text. %s is the file's path.
var metaQueries = []string{
	"SELECT * FROM parquet_schema('%s')",
	"SELECT * EXCLUDE (key_value_metadata, geo_bbox, geo_types), key_value_metadata::VARCHAR, geo_bbox::VARCHAR, geo_types::VARCHAR FROM parquet_metadata('%s')",
	"SELECT * EXCLUDE (column_orders, encryption_algorithm), column_orders::VARCHAR FROM parquet_file_metadata('%s')",
	"SELECT file_name, key::VARCHAR, value::VARCHAR FROM parquet_kv_metadata('%s')",
}

// metaSkips are the files left out, and why.
var metaSkips = map[string]string{
	"large_string_map.brotli.parquet": "slow to open in DuckDB's reader",
}

// metaKnownDiffs are the answers known to differ, by file and function,
// and why: the footer says more than DuckDB's Thrift definitions know.
var metaKnownDiffs = map[string]string{
	"floating_orders_nan_count.parquet parquet_file_metadata": "IEEE_754_TOTAL_ORDER column orders: DuckDB's ColumnOrder has no such field and shows ColumnOrder(TYPE_ORDER=<null>)",
}

// duckIntType matches DuckDB's IntType text, whose 8-bit bitWidth its
// Thrift printTo writes as a raw character: the number is compared.
var duckIntType = regexp.MustCompile(`IntType\(bitWidth=(.), `)

// normalDuck rewrites DuckDB's IntType bit widths as numbers.
func normalDuck(s string) string {
	return duckIntType.ReplaceAllStringFunc(s, func(m string) string {
		return fmt.Sprintf("IntType(bitWidth=%d, ", duckIntType.FindStringSubmatch(m)[1][0])
	})
}

// TestParquetMetadataMatchesDuckDB runs the introspection functions on
// every Parquet file of parquet-testing in both engines and compares the
// rows: the footer is the same, so the answers must be.
func TestParquetMetadataMatchesDuckDB(t *testing.T) {
	dir := testdata.Dir(t, "data")
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".parquet") {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	t.Chdir(dir)
	duck, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	carq, err := driver.OpenDB(driver.Config{Path: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer carq.Close()
	compared, refused := 0, 0
	for _, f := range files {
		if _, skip := metaSkips[filepath.Base(f)]; skip {
			continue
		}
		for _, q := range metaQueries {
			q = fmt.Sprintf(q, f)
			want, werr := textRows(duck, q)
			got, gerr := textRows(carq, q)
			want = normalDuck(want)
			fn := q[strings.Index(q, "parquet_"):strings.Index(q, "('")]
			if why, ok := metaKnownDiffs[filepath.Base(f)+" "+fn]; ok && got != want {
				t.Logf("%s: differs as known: %s", q, why)
				continue
			}
			switch {
			case werr != nil && gerr != nil:
				refused++
			case werr != nil:
				t.Logf("%s: DuckDB refuses (%v), carquet answers", q, werr)
			case gerr != nil:
				t.Errorf("%s: carquet refuses: %v", q, gerr)
			case got != want:
				t.Errorf("%s:\ncarquet:\n%s\nDuckDB:\n%s", q, got, want)
			default:
				compared++
			}
		}
	}
	t.Logf("%d answers equal, %d refused by both", compared, refused)
}

// textRows runs q and renders its rows as text lines, NULL for NULL.
func textRows(db *sql.DB, q string) (string, error) {
	rows, err := db.Query(q)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
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
	return b.String(), rows.Err()
}

package deltalake

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// duckdbAgrees reads the latest snapshot of the local Delta table at root
// with DuckDB — read_parquet over its add actions' files, less the rows
// their deletion vectors (decoded by package delta/dv) mark, joined by
// file_row_number — and requires the aggregates aggs (one SELECT list
// both engines run) to equal carquet's over table of db.
func duckdbAgrees(t *testing.T, root string, db *sql.DB, table, aggs string) {
	t.Helper()
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	// The deleted positions go to a CSV file, not into the SQL text: a
	// large DELETE marks hundreds of thousands.
	dvs := filepath.Join(t.TempDir(), "deleted.csv")
	var csv strings.Builder
	csv.WriteString("file,pos\n")
	var files []string
	for _, f := range snap.Files {
		files = append(files, "'"+f.Path+"'")
		if f.DeletionVector == nil {
			continue
		}
		bm, err := dv.Load(root, *f.DeletionVector)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range bm.ToArray() {
			fmt.Fprintf(&csv, "%s,%d\n", f.Path, r)
		}
	}
	if err := os.WriteFile(dvs, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	duck, err := peers.OpenDuckDB(0)
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	from := fmt.Sprintf("read_parquet([%s], filename = true, file_row_number = true)", strings.Join(files, ", "))
	if len(snap.Metadata.PartitionColumns) > 0 || snap.ColumnMapping != "none" {
		from = duckdbFiles(t, snap)
	}
	q := fmt.Sprintf(`SELECT %s FROM %s p
		ANTI JOIN read_csv('%s', columns = {'file': 'VARCHAR', 'pos': 'BIGINT'}, header = true) d
		ON p.filename = d.file AND p.file_row_number = d.pos`, aggs, from, dvs)
	got, want := scanAll(t, duck, q), scanAll(t, db, fmt.Sprintf("SELECT %s FROM %s", aggs, table))
	if got != want {
		t.Errorf("DuckDB over the snapshot's files: %s\ncarquet:                      %s", got, want)
	}
}

// duckdbFiles is a DuckDB query over the snapshot's data files that
// gives the table's columns by their logical names: each file read
// alone, its columns renamed from their physical names (column mapping),
// its partition values from its add action as typed constants.
func duckdbFiles(t *testing.T, snap *delta.Snapshot) string {
	t.Helper()
	var parts []string
	for _, f := range snap.Files {
		var cols []string
		for _, fl := range snap.Schema.Fields {
			if !snap.IsPartition(fl.Name) {
				cols = append(cols, fmt.Sprintf("%q AS %q", fl.PhysicalName, fl.Name))
				continue
			}
			lit := "NULL"
			if v := f.PartitionValues[fl.PhysicalName]; v != nil {
				lit = "'" + strings.ReplaceAll(*v, "'", "''") + "'"
			}
			cols = append(cols, fmt.Sprintf("CAST(%s AS %s) AS %q", lit, duckdbType(t, fl.Type), fl.Name))
		}
		parts = append(parts, fmt.Sprintf("SELECT %s, filename, file_row_number FROM read_parquet('%s', filename = true, file_row_number = true)",
			strings.Join(cols, ", "), f.Path))
	}
	return "(" + strings.Join(parts, " UNION ALL ") + ")"
}

// duckdbType is DuckDB's name of a primitive Delta type.
func duckdbType(t *testing.T, dt *delta.Type) string {
	switch dt.Name {
	case "decimal":
		return fmt.Sprintf("DECIMAL(%d, %d)", dt.Precision, dt.Scale)
	case "timestamp":
		return "TIMESTAMPTZ"
	case "timestamp_ntz":
		return "TIMESTAMP"
	}
	names := map[string]string{"string": "VARCHAR", "binary": "BLOB", "boolean": "BOOLEAN", "byte": "TINYINT", "short": "SMALLINT",
		"integer": "INTEGER", "long": "BIGINT", "float": "FLOAT", "double": "DOUBLE", "date": "DATE"}
	if n, ok := names[dt.Name]; ok {
		return n
	}
	t.Fatalf("no DuckDB type for the Delta type %s", dt.Name)
	return ""
}

// scanAll runs a one-row query and prints its values.
func scanAll(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() {
		t.Fatalf("%s: no row (%v)", q, rows.Err())
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(normalize(vals))
}

// normalize prints integers alike whichever Go type a driver chose.
func normalize(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = fmt.Sprint(v)
	}
	return out
}

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
	q := fmt.Sprintf(`SELECT %s FROM read_parquet([%s], filename = true, file_row_number = true) p
		ANTI JOIN read_csv('%s', columns = {'file': 'VARCHAR', 'pos': 'BIGINT'}, header = true) d
		ON p.filename = d.file AND p.file_row_number = d.pos`, aggs, strings.Join(files, ", "), dvs)
	got, want := scanAll(t, duck, q), scanAll(t, db, fmt.Sprintf("SELECT %s FROM %s", aggs, table))
	if got != want {
		t.Errorf("DuckDB over the snapshot's files: %s\ncarquet:                      %s", got, want)
	}
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

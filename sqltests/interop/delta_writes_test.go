package interop

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	_ "github.com/carquet-go/carquet/driver"
)

// TestDeltaWritesReadByDuckDB writes a Delta table with carquet (CREATE
// TABLE ... USING delta, INSERTs) and reads it with DuckDB: with
// delta_scan when the delta extension loads without the network, else
// with read_parquet over the files of the snapshot's add actions. Rows
// must match carquet's own reading of the table.
func TestDeltaWritesReadByDuckDB(t *testing.T) {
	dir := t.TempDir()
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	for _, q := range []string{
		"CREATE TABLE ev (id BIGINT NOT NULL, name VARCHAR, amount DOUBLE, d DATE, price DECIMAL(12,3), n INTEGER) USING delta",
		"INSERT INTO ev VALUES (1, 'a', 1.5, DATE '2024-01-02', 12.345, 7), (2, NULL, NULL, NULL, NULL, NULL)",
		"INSERT INTO ev VALUES (3, 'ünï', -0.25, DATE '1999-12-31', -1.000, -3)",
		"CREATE TABLE cp USING delta AS SELECT id * 10 AS id, name FROM ev",
	} {
		if _, err := cq.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db := openDuckDB(t)
	useDeltaScan := false
	if _, err := db.Exec("LOAD delta"); err == nil {
		useDeltaScan = true
	} else {
		t.Logf("DuckDB's delta extension is not available offline (%v): reading the add actions' files with read_parquet", firstLine(err))
	}
	for _, c := range []struct{ table, cols string }{
		{"ev", "id, name, amount, CAST(d AS VARCHAR), CAST(price AS VARCHAR), n"},
		{"cp", "id, name"},
	} {
		root := filepath.Join(dir, c.table)
		want := rowsOf(t, cq, fmt.Sprintf("SELECT %s FROM %s ORDER BY id", c.cols, c.table))
		var from string
		if useDeltaScan {
			from = fmt.Sprintf("delta_scan('%s')", root)
		} else {
			snap, err := delta.Open(root, -1)
			if err != nil {
				t.Fatal(err)
			}
			var files []string
			for _, f := range snap.Files {
				files = append(files, "'"+f.Path+"'")
			}
			from = fmt.Sprintf("read_parquet([%s])", strings.Join(files, ", "))
		}
		got := rowsOf(t, db, fmt.Sprintf("SELECT %s FROM %s ORDER BY id", c.cols, from))
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\nduckdb  %v\ncarquet %v", c.table, got, want)
		}
		if len(want) == 0 {
			t.Errorf("%s: no rows", c.table)
		}
	}
}

// rowsOf runs a query and prints each value, so that drivers' Go types
// compare alike.
func rowsOf(t *testing.T, db *sql.DB, q string) [][]string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch x := v.(type) {
			case nil:
				row[i] = "NULL"
			case []byte:
				row[i] = string(x)
			default:
				row[i] = fmt.Sprint(x)
			}
		}
		out = append(out, row)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestDeltaDeletionVectorsReadByDuckDB deletes and updates rows of a
// carquet Delta table (deletion vectors) and checks the positions the
// vectors hold against DuckDB's own reading of the data files: DuckDB
// (without its delta extension, which cannot load offline) reads each add
// action's file with file_row_number, drops the rows at the positions of
// the file's deletion vector (decoded by package delta/dv), and must get
// the rows carquet reads. DuckDB also reads the checkpoint of version 10
// as a plain Parquet file: its add actions are the snapshot's.
func TestDeltaDeletionVectorsReadByDuckDB(t *testing.T) {
	dir := t.TempDir()
	cq, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cq.Close()
	qs := []string{"CREATE TABLE dv (id BIGINT NOT NULL, name VARCHAR, amount DOUBLE) USING delta"}
	for k := 0; k < 4; k++ {
		qs = append(qs, fmt.Sprintf("INSERT INTO dv SELECT range + %d, 'n' || range, range / 4.0 FROM range(3000)", k*3000))
	}
	qs = append(qs,
		"DELETE FROM dv WHERE id % 97 = 3",                                   // 5: deletion vectors in a file
		"DELETE FROM dv WHERE id = 4000 OR id = 11999",                       // 6: merged with them
		"UPDATE dv SET name = name || '!', amount = -1 WHERE id % 1000 = 17", // 7
		"DELETE FROM dv WHERE id BETWEEN 6000 AND 6004",                      // 8
		"INSERT INTO dv VALUES (100000, 'last', 0)",                          // 9
		"DELETE FROM dv WHERE id = 100000",                                   // 10: checkpoint
	)
	for _, q := range qs {
		if _, err := cq.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	root := filepath.Join(dir, "dv")
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != 10 {
		t.Fatalf("version %d", snap.Version)
	}
	db := openDuckDB(t)
	var parts []string
	withDV := 0
	for _, f := range snap.Files {
		q := fmt.Sprintf("SELECT id, name, amount FROM read_parquet('%s', file_row_number = true)", f.Path)
		if f.DeletionVector != nil {
			withDV++
			bm, err := dv.Load(root, *f.DeletionVector)
			if err != nil {
				t.Fatal(err)
			}
			var pos []string
			for _, r := range bm.ToArray() {
				pos = append(pos, fmt.Sprint(r))
			}
			q += " WHERE file_row_number NOT IN (" + strings.Join(pos, ", ") + ")"
		}
		parts = append(parts, q)
	}
	if withDV < 4 {
		t.Fatalf("%d files with deletion vectors", withDV)
	}
	want := rowsOf(t, cq, "SELECT id, name, amount FROM dv ORDER BY id")
	got := rowsOf(t, db, "SELECT * FROM ("+strings.Join(parts, " UNION ALL ")+") ORDER BY id")
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows differ: duckdb %d rows, carquet %d", len(got), len(want))
	}
	if len(want) != 12000-124-2-5 {
		t.Errorf("%d rows", len(want))
	}
	// The checkpoint of version 10, read by DuckDB.
	cp := filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.checkpoint.parquet", 10))
	gotCP := rowsOf(t, db, fmt.Sprintf("SELECT add.path, coalesce(add.deletionVector.storageType, ''), coalesce(add.deletionVector.cardinality, 0), add.stats IS NOT NULL FROM read_parquet('%s') WHERE add IS NOT NULL ORDER BY 1", cp))
	var wantCP [][]string
	for _, f := range snap.Files {
		st, card := "", int64(0)
		if f.DeletionVector != nil {
			st, card = f.DeletionVector.StorageType, f.DeletionVector.Cardinality
		}
		wantCP = append(wantCP, []string{f.URI, st, fmt.Sprint(card), "true"})
	}
	sort.Slice(wantCP, func(i, j int) bool { return wantCP[i][0] < wantCP[j][0] })
	if fmt.Sprint(gotCP) != fmt.Sprint(wantCP) {
		t.Errorf("checkpoint adds:\nduckdb %v\nwant   %v", gotCP, wantCP)
	}
	proto := rowsOf(t, db, fmt.Sprintf("SELECT protocol.minReaderVersion, protocol.minWriterVersion, list_contains(protocol.readerFeatures, 'deletionVectors') FROM read_parquet('%s') WHERE protocol IS NOT NULL", cp))
	if fmt.Sprint(proto) != "[[3 7 true]]" {
		t.Errorf("checkpoint protocol %v", proto)
	}
}

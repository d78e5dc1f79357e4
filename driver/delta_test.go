package driver

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/writer"
)

// A DSN naming a Delta table's folder opens that one table; delta_version
// picks the version (a name's @vN suffix still wins).
func TestDeltaDSN(t *testing.T) {
	root := filepath.Join(t.TempDir(), "sales")
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}, {Field: writer.Double("amount"), Name: "amount"}}
	schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("amount", "double", true, nil))
	a := tb.DataFile("a.parquet", cols, [][]any{{int64(1), 2.5}, {int64(2), 4.0}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil), a)
	b := tb.DataFile("b.parquet", cols, [][]any{{int64(3), 10.0}}, nil)
	tb.Commit(b, deltatest.RemoveOf(a))
	for _, c := range []struct {
		dsn, table string
		n          int64
		sum        float64
	}{
		{root, "sales", 1, 10},
		{root + "?delta_version=0", "sales", 2, 6.5},
		{root + "?delta_version=0", "`sales@v1`", 1, 10},
		{filepath.Dir(root), "`sales@v0`", 2, 6.5},
	} {
		db, err := sql.Open("carquet", c.dsn)
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		var sum float64
		if err := db.QueryRow("SELECT COUNT(*), SUM(amount) FROM "+c.table).Scan(&n, &sum); err != nil {
			t.Fatalf("%s %s: %v", c.dsn, c.table, err)
		}
		if n != c.n || sum != c.sum {
			t.Errorf("%s %s: %d rows, sum %g; want %d, %g", c.dsn, c.table, n, sum, c.n, c.sum)
		}
		db.Close()
	}
	if _, err := sql.Open("carquet", root+"?delta_version=x"); err == nil || !strings.Contains(err.Error(), "delta_version") {
		t.Fatalf("bad delta_version: %v", err)
	}
}

// TestDeltaWritesToBuiltTables: Delta tables laid out as the protocol
// describes by the test builder (deletion vectors in files, each kind of
// checkpoint) take carquet's INSERT, DELETE and UPDATE, and every version
// reads back right, before and after.
func TestDeltaWritesToBuiltTables(t *testing.T) {
	for _, kind := range []string{deltatest.Classic, deltatest.MultiPart} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "sales")
			tb := deltatest.New(t, root)
			cols := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}, {Field: writer.Double("amount"), Name: "amount"}}
			schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("amount", "double", true, nil))
			var rows [][]any
			for i := range 100 {
				rows = append(rows, []any{int64(i), float64(i)})
			}
			a := tb.DataFile("a.parquet", cols, rows, nil)
			tb.Commit(&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}, WriterFeatures: []string{"deletionVectors"}},
				deltatest.NewMetaData(schema, nil, nil), a)
			bm := dv.New()
			for i := range 10 {
				bm.Add(uint64(i)) // ids 0..9 deleted
			}
			tb.DeleteRows([]*deltatest.Add{a}, []*dv.Bitmap{bm})
			tb.Checkpoint(kind, 2)
			db := openDSN(t, dir)
			count := func(table string) (int64, float64) {
				var n int64
				var sum float64
				if err := db.QueryRow("SELECT count(*), coalesce(sum(amount), 0) FROM "+table).Scan(&n, &sum); err != nil {
					t.Fatalf("%s: %v", table, err)
				}
				return n, sum
			}
			if n, _ := count("sales"); n != 90 {
				t.Fatalf("before carquet's writes: %d rows", n)
			}
			mustExec(t, db, "INSERT INTO sales VALUES (100, 100), (101, 101)")
			if n, _ := mustExec(t, db, "DELETE FROM sales WHERE id IN (10, 11, 100)").RowsAffected(); n != 3 {
				t.Errorf("DELETE took %d rows", n)
			}
			if n, _ := mustExec(t, db, "UPDATE sales SET amount = -1 WHERE id = 50").RowsAffected(); n != 1 {
				t.Errorf("UPDATE took %d rows", n)
			}
			n, sum := count("sales")
			want := float64(99*100/2-45-10-11-50+101) - 1
			if n != 89 || sum != want {
				t.Errorf("after INSERT, DELETE, UPDATE: %d rows, sum %g; want 89, %g", n, sum, want)
			}
			for v, wantN := range map[int]int64{0: 100, 1: 90, 2: 92, 3: 89, 4: 89} {
				if n, _ := count(fmt.Sprintf("`sales@v%d`", v)); n != wantN {
					t.Errorf("version %d: %d rows, want %d", v, n, wantN)
				}
			}
		})
	}
}

package driver

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

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

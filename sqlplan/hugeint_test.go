package sqlplan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
)

// TestHugeintParquet: a HUGEINT column is a DECIMAL(38,0) column in the
// file (lossless where DuckDB's COPY writes a DOUBLE), named HUGEINT by
// the column-types entry so that it reads back as one; a value past 38
// digits, which no Parquet DECIMAL holds, is refused and the table keeps
// its rows.
func TestHugeintParquet(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE th (h HUGEINT)")
	exec(t, e, "INSERT INTO th VALUES (99999999999999999999999999999999999999), (-99999999999999999999999999999999999999), (7), (NULL)")
	path, _, _ := e.tablePath("th")
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	n := f.Schema.Root.Children[0]
	if d := n.Logical.Decimal; d == nil || d.Precision != 38 || d.Scale != 0 || n.SQLType != "HUGEINT" {
		t.Errorf("h: logical %+v, SQLType %q", n.Logical, n.SQLType)
	}
	if kv, _ := f.KeyValue(schema.ColumnTypesKey); kv != "h=HUGEINT" {
		t.Errorf("%s = %q", schema.ColumnTypesKey, kv)
	}
	f.Close()
	const want = "[[HUGEINT -99999999999999999999999999999999999999] [HUGEINT 7] [HUGEINT 99999999999999999999999999999999999999] [HUGEINT <nil>]]"
	q := "SELECT typeof(h), h::VARCHAR FROM th ORDER BY h NULLS LAST"
	if got := fmt.Sprint(queryAll(t, e, q)); got != want {
		t.Errorf("read back: %s", got)
	}
	err = execErr(e, "INSERT INTO th VALUES (100000000000000000000000000000000000000)", nil)
	if err == nil || !strings.Contains(err.Error(), "does not fit the file's DECIMAL(38,0)") {
		t.Errorf("39 digits: %v", err)
	}
	if got := fmt.Sprint(queryAll(t, e, q)); got != want {
		t.Errorf("after the refused INSERT: %s", got)
	}
}

// TestUhugeintParquet: a UHUGEINT column is a DECIMAL(38,0) column in the
// file too, named UHUGEINT by the column-types entry; its values read
// back in order, and one past 38 digits is refused.
func TestUhugeintParquet(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE tu (u UHUGEINT)")
	exec(t, e, "INSERT INTO tu VALUES (99999999999999999999999999999999999999), (0), (18446744073709551616), (NULL)")
	path, _, _ := e.tablePath("tu")
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if kv, _ := f.KeyValue(schema.ColumnTypesKey); kv != "u=UHUGEINT" {
		t.Errorf("%s = %q", schema.ColumnTypesKey, kv)
	}
	f.Close()
	const want = "[[UHUGEINT 0] [UHUGEINT 18446744073709551616] [UHUGEINT 99999999999999999999999999999999999999] [UHUGEINT <nil>]]"
	q := "SELECT typeof(u), u::VARCHAR FROM tu ORDER BY u NULLS LAST"
	if got := fmt.Sprint(queryAll(t, e, q)); got != want {
		t.Errorf("read back: %s", got)
	}
	err = execErr(e, "INSERT INTO tu VALUES (340282366920938463463374607431768211455)", nil)
	if err == nil || !strings.Contains(err.Error(), "does not fit the file's DECIMAL(38,0)") {
		t.Errorf("39 digits: %v", err)
	}
	if got := fmt.Sprint(queryAll(t, e, q)); got != want {
		t.Errorf("after the refused INSERT: %s", got)
	}
}

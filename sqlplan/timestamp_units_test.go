package sqlplan

import (
	"fmt"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
)

// TestTimestampUnitsParquet: a TIMESTAMP_S column is a TIMESTAMP(MICROS)
// column in the file (as DuckDB's COPY writes it) and TIMESTAMP_MS a
// TIMESTAMP(MILLIS) one; the footer's column-types entry names both, and
// lasts through INSERT and UPDATE, so the table reads back with its
// types. COPY writes no entry (DuckDB reads its own COPY output of a
// TIMESTAMP_S column as TIMESTAMP).
func TestTimestampUnitsParquet(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE tu (s TIMESTAMP_S, ms TIMESTAMP_MS, ns TIMESTAMP_NS, us TIMESTAMP)")
	exec(t, e, "INSERT INTO tu VALUES ('2024-02-29 12:34:56.789', '2024-02-29 12:34:56.789123', '2024-02-29 12:34:56.789123456', '2024-02-29 12:34:56.789123')")
	exec(t, e, "UPDATE tu SET us = us + INTERVAL 1 SECOND")
	exec(t, e, "COPY tu TO 'c.parquet' (FORMAT PARQUET)")
	check := func(name string, wantKV bool) {
		t.Helper()
		path, _, _ := e.tablePath(name)
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		units := map[string]string{}
		for _, c := range f.Schema.Root.Children {
			units[c.Name] = schema.UnitName(c.Logical.Timestamp.Unit)
		}
		if got := fmt.Sprint(units); got != "map[ms:MILLIS ns:NANOS s:MICROS us:MICROS]" {
			t.Errorf("%s: units %s", name, got)
		}
		kv, ok := f.KeyValue(schema.ColumnTypesKey)
		if ok != wantKV || wantKV && kv != "s=TIMESTAMP_S\nms=TIMESTAMP_MS" {
			t.Errorf("%s: %s = %q, %v", name, schema.ColumnTypesKey, kv, ok)
		}
		// The stored values: seconds rounded, in microseconds.
		if wantKV {
			got := queryAll(t, e, "SELECT epoch_us(s), epoch_ms(ms), typeof(s), typeof(ms) FROM "+name)
			if fmt.Sprint(got) != "[[1709210097000000 1709210096789 TIMESTAMP_S TIMESTAMP_MS]]" {
				t.Errorf("%s: %v", name, got)
			}
		}
	}
	check("tu", true)
	check("c.parquet", false)
}

// TestBitParquet: a BIT column is a UTF8 string column in the file (as
// DuckDB's COPY writes it), named BIT by the column-types entry.
func TestBitParquet(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE tb (b BIT, v VARCHAR)")
	exec(t, e, "INSERT INTO tb VALUES ('0101', 'x')")
	path, _, _ := e.tablePath("tb")
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := f.Schema.Root.Children[0]
	if n.Logical == nil || n.Logical.String == nil || n.SQLType != "BIT" {
		t.Errorf("b: logical %+v, SQLType %q", n.Logical, n.SQLType)
	}
	if kv, _ := f.KeyValue(schema.ColumnTypesKey); kv != "b=BIT" {
		t.Errorf("%s = %q", schema.ColumnTypesKey, kv)
	}
	if got := queryAll(t, e, "SELECT typeof(b), typeof(v), b::VARCHAR FROM tb"); fmt.Sprint(got) != "[[BIT VARCHAR 0101]]" {
		t.Errorf("read back: %v", got)
	}
}

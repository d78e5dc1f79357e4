package carrow_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	carrow "github.com/carquet-go/carquet/arrow"
	_ "github.com/carquet-go/carquet/driver"
)

const allTypes = `CREATE TABLE %s (
	i8 TINYINT, i16 SMALLINT, i32 INTEGER, i64 BIGINT NOT NULL,
	u8 UTINYINT, u16 USMALLINT, u32 UINTEGER, u64 UBIGINT,
	f32 FLOAT, f64 DOUBLE, b BOOLEAN, s VARCHAR, bl BLOB,
	d1 DECIMAL(10,2), d2 DECIMAL(30,5),
	dt DATE, tm TIME, ts TIMESTAMP, tz TIMESTAMPTZ, tn TIMESTAMP_NS,
	li INTEGER[], st STRUCT(a INTEGER, b VARCHAR))`

func openDB(t testing.TB) (*sql.DB, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, dir
}

func exec(t testing.TB, db *sql.DB, q string, args ...any) {
	t.Helper()
	if _, err := db.Exec(q, args...); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// fillAll makes table all with n rows of every type, every third row's
// nullable columns NULL.
func fillAll(t testing.TB, db *sql.DB, table string, n int) {
	exec(t, db, fmt.Sprintf(allTypes, table))
	for i := 0; i < n; i++ {
		if i%3 == 1 {
			exec(t, db, "INSERT INTO "+table+" (i64) VALUES (?)", int64(i))
			continue
		}
		exec(t, db, "INSERT INTO "+table+` VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
			DATE '2024-01-01' + CAST(? AS INTEGER), TIME '12:34:56.789012', TIMESTAMP '2024-03-04 05:06:07.123456' + INTERVAL (?) SECOND,
			TIMESTAMPTZ '2024-03-04 05:06:07.5+00', TIMESTAMP_NS '2024-03-04 05:06:07.123456789', [?, ?], {'a': ?, 'b': ?})`,
			-i%128, -i*100, -i*100000, int64(i)*1e12, i%256, i*7%65536, uint32(i)*60000, uint64(1)<<63+uint64(i),
			float32(i)/4, float64(i)/3, i%2 == 0, "s"+strconv.Itoa(i), []byte{byte(i), 0, 255},
			fmt.Sprintf("%d.%02d", i, i%100), fmt.Sprintf("-123456789012345678901.%05d", i),
			i, i, i, i+1, i, "x"+strconv.Itoa(i))
	}
}

// scanAll reads a query's rows through database/sql.
func scanAll(t testing.TB, db *sql.DB, q string) [][]any {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// arrowAll reads a query's result as Arrow and turns it into rows.
func arrowAll(t testing.TB, db *sql.DB, q string) ([][]any, *arrow.Schema) {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var out [][]any
	var sch *arrow.Schema
	err = conn.Raw(func(dc any) error {
		rr, err := carrow.Query(context.Background(), dc, q)
		if err != nil {
			return err
		}
		defer rr.Release()
		sch = rr.Schema()
		out = readerRows(rr)
		return rr.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return out, sch
}

func readerRows(rr array.RecordReader) [][]any {
	var out [][]any
	for rr.Next() {
		rec := rr.RecordBatch()
		for i := 0; i < int(rec.NumRows()); i++ {
			row := make([]any, rec.NumCols())
			for k := range row {
				row[k] = cell(rec.Column(k), i)
			}
			out = append(out, row)
		}
	}
	return out
}

// cell is an Arrow value in a canonical Go form (see canon).
func cell(a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	switch a := a.(type) {
	case *array.Int8:
		return int64(a.Value(i))
	case *array.Int16:
		return int64(a.Value(i))
	case *array.Int32:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Uint8:
		return int64(a.Value(i))
	case *array.Uint16:
		return int64(a.Value(i))
	case *array.Uint32:
		return int64(a.Value(i))
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	case *array.Float32:
		return float64(a.Value(i))
	case *array.Float64:
		return a.Value(i)
	case *array.Boolean:
		return a.Value(i)
	case *array.String:
		return a.Value(i)
	case *array.Binary:
		return string(a.Value(i))
	case *array.Decimal128:
		r := new(big.Rat).SetFrac(a.Value(i).BigInt(), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.DataType().(*arrow.Decimal128Type).Scale)), nil))
		return r.RatString()
	case *array.Date32:
		return a.Value(i).ToTime().UTC().Format(time.RFC3339Nano)
	case *array.Time64:
		return time.Duration(int64(a.Value(i)) * int64(a.DataType().(*arrow.Time64Type).Unit.Multiplier())).String()
	case *array.Timestamp:
		return a.Value(i).ToTime(a.DataType().(*arrow.TimestampType).Unit).UTC().Format(time.RFC3339Nano)
	case *array.List:
		s, e := a.ValueOffsets(i)
		l := []any{}
		for j := s; j < e; j++ {
			l = append(l, cell(a.ListValues(), int(j)))
		}
		return l
	case *array.Struct:
		m := map[string]any{}
		for k := 0; k < a.NumField(); k++ {
			m[a.DataType().(*arrow.StructType).Field(k).Name] = cell(a.Field(k), i)
		}
		return m
	}
	return fmt.Sprintf("unhandled %T", a)
}

// canon puts a value scanned from database/sql in cell's form, given
// the Arrow type of its column.
func canon(v any, t arrow.DataType) any {
	if v == nil {
		return nil
	}
	switch t := t.(type) {
	case *arrow.Uint64Type:
		return fmt.Sprint(v)
	case *arrow.Decimal128Type:
		r, _ := new(big.Rat).SetString(fmt.Sprint(v))
		return r.RatString()
	case *arrow.Time64Type:
		tm := v.(time.Time)
		return tm.Sub(time.Date(tm.Year(), tm.Month(), tm.Day(), 0, 0, 0, 0, time.UTC)).String()
	case *arrow.Date32Type, *arrow.TimestampType:
		return v.(time.Time).UTC().Format(time.RFC3339Nano)
	case *arrow.BinaryType:
		return string(v.([]byte))
	case *arrow.ListType:
		l := []any{}
		for _, e := range v.([]any) {
			l = append(l, canon(e, t.Elem()))
		}
		return l
	case *arrow.StructType:
		m := map[string]any{}
		src := v.(map[string]any)
		for _, f := range t.Fields() {
			m[f.Name] = canon(src[f.Name], f.Type)
		}
		return m
	}
	switch x := v.(type) {
	case int8, int16, int32, int:
		return reflect.ValueOf(x).Int()
	case uint8, uint16, uint32:
		return int64(reflect.ValueOf(x).Uint())
	case float32:
		return float64(x)
	}
	return v
}

func compareRows(t *testing.T, sch *arrow.Schema, got, want [][]any) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d", len(got), len(want))
	}
	for r := range want {
		for k, f := range sch.Fields() {
			w := canon(want[r][k], f.Type)
			if !reflect.DeepEqual(got[r][k], w) {
				t.Errorf("row %d column %s: Arrow %#v, rows.Next %#v", r, f.Name, got[r][k], w)
			}
		}
	}
}

// TestQueryTypes compares every type's Arrow result with rows.Next's.
func TestQueryTypes(t *testing.T) {
	db, _ := openDB(t)
	fillAll(t, db, "a", 30)
	q := "SELECT * FROM a ORDER BY i64"
	got, sch := arrowAll(t, db, q)
	want := scanAll(t, db, q)
	wantTypes := map[string]arrow.Type{"i8": arrow.INT8, "i16": arrow.INT16, "i32": arrow.INT32, "i64": arrow.INT64,
		"u8": arrow.UINT8, "u16": arrow.UINT16, "u32": arrow.UINT32, "u64": arrow.UINT64, "f32": arrow.FLOAT32,
		"f64": arrow.FLOAT64, "b": arrow.BOOL, "s": arrow.STRING, "bl": arrow.BINARY, "d1": arrow.DECIMAL128,
		"d2": arrow.DECIMAL128, "dt": arrow.DATE32, "tm": arrow.TIME64, "ts": arrow.TIMESTAMP, "tz": arrow.TIMESTAMP,
		"tn": arrow.TIMESTAMP, "li": arrow.LIST, "st": arrow.STRUCT}
	for _, f := range sch.Fields() {
		if f.Type.ID() != wantTypes[f.Name] {
			t.Errorf("column %s: Arrow type %s", f.Name, f.Type)
		}
	}
	if tz := sch.Field(18).Type.(*arrow.TimestampType); tz.TimeZone != "UTC" || tz.Unit != arrow.Microsecond {
		t.Errorf("TIMESTAMPTZ as %s", tz)
	}
	if tn := sch.Field(19).Type.(*arrow.TimestampType); tn.TimeZone != "" || tn.Unit != arrow.Nanosecond {
		t.Errorf("TIMESTAMP_NS as %s", tn)
	}
	compareRows(t, sch, got, want)

	// Computed columns, arguments, filters and NULLs of expressions.
	q2 := "SELECT i64 * 2 AS x, s || '!' AS y, CASE WHEN b THEN NULL ELSE f64 END AS z, d1 + 1 AS w FROM a WHERE i64 > 3000000000000 ORDER BY x"
	got, sch = arrowAll(t, db, q2)
	compareRows(t, sch, got, scanAll(t, db, q2))
	q3 := "SELECT count(*) AS n, sum(i32) AS s, min(s) AS m FROM a GROUP BY b ORDER BY n"
	got, sch = arrowAll(t, db, q3)
	compareRows(t, sch, got, scanAll(t, db, q3))
}

// tableFile compacts a table (folding in its journal) and returns its
// Parquet file.
func tableFile(t testing.TB, db *sql.DB, dir, table string) string {
	exec(t, db, "OPTIMIZE "+table)
	m, _ := filepath.Glob(filepath.Join(dir, table+".parquet"))
	if len(m) != 1 {
		t.Fatalf("files of table %s: %v", table, m)
	}
	return m[0]
}

// TestReadFile reads a table's file straight into Arrow: the same values
// as the query.
func TestReadFile(t *testing.T) {
	db, dir := openDB(t)
	fillAll(t, db, "a", 30)
	q := "SELECT * FROM a"
	want := scanAll(t, db, q)
	rr, err := carrow.ReadFile(tableFile(t, db, dir, "a"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	got := readerRows(rr)
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	compareRows(t, rr.Schema(), got, want)

	// A projection, with a field of a struct.
	rr2, err := carrow.ReadFile(tableFile(t, db, dir, "a"), []string{"s", "st.b"})
	if err != nil {
		t.Fatal(err)
	}
	defer rr2.Release()
	compareRows(t, rr2.Schema(), readerRows(rr2), scanAll(t, db, "SELECT s, st.b FROM a"))
}

// TestWriteTable appends a query's Arrow result to another table, and
// writes a file from a file's records: the rows come back the same.
func TestWriteTable(t *testing.T) {
	db, dir := openDB(t)
	fillAll(t, db, "a", 30)
	exec(t, db, fmt.Sprintf(allTypes, "b"))
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	err = conn.Raw(func(dc any) error {
		rr, err := carrow.Query(context.Background(), dc, "SELECT * FROM a")
		if err != nil {
			return err
		}
		defer rr.Release()
		n, err := carrow.WriteTable(dc, "b", rr)
		if err == nil && n != 30 {
			err = fmt.Errorf("%d rows appended", n)
		}
		return err
	})
	conn.Close()
	if err != nil {
		t.Fatal(err)
	}
	q := "SELECT * FROM %s ORDER BY i64"
	got, sch := arrowAll(t, db, fmt.Sprintf(q, "b"))
	compareRows(t, sch, got, scanAll(t, db, fmt.Sprintf(q, "a")))

	// File to file.
	rr, err := carrow.ReadFile(tableFile(t, db, dir, "a"), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "copy.parquet")
	if _, err := carrow.WriteFile(out, rr); err != nil {
		t.Fatal(err)
	}
	rr.Release()
	back, err := carrow.ReadFile(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer back.Release()
	compareRows(t, back.Schema(), readerRows(back), scanAll(t, db, "SELECT * FROM a"))
	got, sch = arrowAll(t, db, fmt.Sprintf("SELECT * FROM '%s'", out))
	compareRows(t, sch, got, scanAll(t, db, "SELECT * FROM a"))
}

func tempDir() (string, error) { return os.MkdirTemp("", "carrow-bench") }

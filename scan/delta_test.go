package scan

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// statsTable writes 10 files of 10 rows: file i holds ids 10i..10i+9,
// s = "k<id>" (zero-padded), day = 2024-01-01 + i days, and the file's
// partition g = i%2.
func statsTable(t testing.TB, root string) {
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{
		{Field: writer.Int64("id").Required(), Name: "id"},
		{Field: writer.String("s"), Name: "s"},
		{Field: writer.Date("day"), Name: "day"},
	}
	var adds []any
	for i := 0; i < 10; i++ {
		var rows [][]any
		for j := 0; j < 10; j++ {
			id := int64(10*i + j)
			rows = append(rows, []any{id, fmt.Sprintf("k%03d", id), time.Date(2024, 1, 1+i, 0, 0, 0, 0, time.UTC)})
		}
		g := fmt.Sprint(i % 2)
		adds = append(adds, tb.DataFile(fmt.Sprintf("g=%s/f%d.parquet", g, i), cols, rows, map[string]*string{"g": &g}))
	}
	schema := deltatest.Struct(
		deltatest.StructField("id", "long", false, nil),
		deltatest.StructField("s", "string", true, nil),
		deltatest.StructField("day", "date", true, nil),
		deltatest.StructField("g", "long", true, nil),
	)
	tb.Commit(append([]any{&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2},
		deltatest.NewMetaData(schema, []string{"g"}, nil)}, adds...)...)
}

// scanIDs runs a scan and returns the first column's values (int64),
// sorted, the number of rows, and the scan's statistics.
func scanIDs(t *testing.T, tbl *Table, req Request) ([]int64, Stats) {
	t.Helper()
	ids, _, st := drainScan(t, tbl, req)
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids, st
}

func drainScan(t *testing.T, tbl *Table, req Request) ([]int64, int, Stats) {
	t.Helper()
	s, err := tbl.Scan(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var ids []int64
	n := 0
	for {
		b, err := s.Next()
		if err == io.EOF {
			return ids, n, s.Stats()
		}
		if err != nil {
			t.Fatal(err)
		}
		n += b.NumRows
		if len(b.Columns) > 0 && b.Columns[0].Kind == vector.Int64 {
			ids = append(ids, b.Columns[0].Int64s[:b.NumRows]...)
		}
	}
}

func TestDeltaPruneByAddStatsBeforeFooters(t *testing.T) {
	root := filepath.Join(t.TempDir(), "st")
	statsTable(t, root)
	cases := []struct {
		filter Predicate
		want   string
		kept   int64
	}{
		{Compare{Column: "id", Op: Eq, Value: int64(42)}, "[42]", 1},
		{Compare{Column: "s", Op: Ge, Value: "k095"}, "[95 96 97 98 99]", 1},
		{Compare{Column: "day", Op: Eq, Value: "2024-01-03"}, "[20 21 22 23 24 25 26 27 28 29]", 1},
		{And{Terms: []Predicate{Compare{Column: "g", Op: Eq, Value: int64(1)}, Compare{Column: "id", Op: Lt, Value: int64(25)}}}, "[10 11 12 13 14 15 16 17 18 19]", 1},
		{In{Column: "id", Values: []any{int64(5), int64(77)}}, "[5 77]", 2},
		{IsNull{Column: "s"}, "[]", 0},
	}
	for _, c := range cases {
		tbl, err := Open(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ids, st := scanIDs(t, tbl, Request{Columns: []string{"id"}, Filter: c.filter})
		if fmt.Sprint(ids) != c.want && !(c.want == "[]" && ids == nil) {
			t.Errorf("%v: got %v, want %s", c.filter, ids, c.want)
		}
		if st.Files != 10 || st.FilesPruned != 10-c.kept {
			t.Errorf("%v: files %d pruned %d, want %d pruned", c.filter, st.Files, st.FilesPruned, 10-c.kept)
		}
		tbl.mu.Lock()
		opened := len(tbl.open)
		tbl.mu.Unlock()
		if int64(opened) != c.kept {
			t.Errorf("%v: %d footers opened, want %d", c.filter, opened, c.kept)
		}
		tbl.Close()
	}
}

// Writers truncate statistics: a string maximum may be a prefix of the
// real maximum, timestamps are cut to milliseconds. Neither may prune a
// file that holds the value.
func TestDeltaTruncatedStatsDoNotPrune(t *testing.T) {
	root := filepath.Join(t.TempDir(), "tr")
	tb := deltatest.New(t, root)
	ts := time.Date(2024, 5, 1, 12, 0, 0, 700_000, time.UTC) // .000700
	cols := []deltatest.Column{{Field: writer.String("s"), Name: "s"}, {Field: writer.Timestamp("ts", writer.Micros, true), Name: "ts"}}
	add := tb.DataFile("f.parquet", cols, [][]any{{"abzzz", ts}}, nil)
	add.Stats = `{"numRecords":1,"minValues":{"s":"ab","ts":"2024-05-01T12:00:00.000Z"},"maxValues":{"s":"ab","ts":"2024-05-01T12:00:00.000Z"},"nullCount":{"s":0,"ts":0}}`
	schema := deltatest.Struct(deltatest.StructField("s", "string", true, nil), deltatest.StructField("ts", "timestamp", true, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil), add)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	for _, f := range []Predicate{
		Compare{Column: "s", Op: Eq, Value: "abzzz"},
		Compare{Column: "s", Op: Gt, Value: "ab"},
		Compare{Column: "ts", Op: Eq, Value: ts},
		Compare{Column: "ts", Op: Gt, Value: ts.Add(-time.Microsecond)},
	} {
		if _, n, _ := drainScan(t, tbl, Request{Columns: []string{"s"}, Filter: f}); n != 1 {
			t.Errorf("%v: %d rows, want 1", f, n)
		}
	}
	// A value above the (widened) bounds is still pruned.
	if _, _, st := drainScan(t, tbl, Request{Columns: []string{"s"}, Filter: Compare{Column: "ts", Op: Gt, Value: ts.Add(time.Millisecond)}}); st.FilesPruned != 1 {
		t.Errorf("ts above the max: pruned %d files", st.FilesPruned)
	}
}

// dvFiles writes n files of 1000 rows (row groups of 250), each with an
// on-disk deletion vector removing one row, and returns the table root.
func dvFiles(t testing.TB, root string, n int) *deltatest.Table {
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Int64("id").Required(), Name: "id"}, {Field: writer.Double("x"), Name: "x"}}
	var adds []*deltatest.Add
	var bms []*dv.Bitmap
	for i := 0; i < n; i++ {
		var rows [][]any
		for j := 0; j < 1000; j++ {
			id := int64(i*1000 + j)
			rows = append(rows, []any{id, float64(id) * 0.5})
		}
		adds = append(adds, tb.DataFile(fmt.Sprintf("f%04d.parquet", i), cols, rows, nil, writer.WithRowGroupRows(250)))
		bm := dv.New()
		bm.Add(uint64(i % 1000))
		bms = append(bms, bm)
	}
	schema := deltatest.Struct(deltatest.StructField("id", "long", false, nil), deltatest.StructField("x", "double", true, nil))
	acts := []any{&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}},
		deltatest.NewMetaData(schema, nil, nil)}
	for _, a := range adds {
		acts = append(acts, a)
	}
	tb.Commit(acts...)
	tb.DeleteRows(adds, bms)
	return tb
}

func TestDeltaDeletionVectorsLoadLazily(t *testing.T) {
	root := filepath.Join(t.TempDir(), "dv")
	dvFiles(t, root, 30)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if n, err := tbl.NumRows(); err != nil || n != 30*999 {
		t.Fatalf("NumRows %d %v", n, err)
	}
	s, err := tbl.Scan(context.Background(), Request{Columns: []string{"id"}, Threads: 1, BatchSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Next()
	if err != nil {
		t.Fatal(err)
	}
	// File 0 deletes its row 0: the first live row is id 1.
	if b.Columns[0].Int64s[0] != 1 {
		t.Fatalf("first row %d", b.Columns[0].Int64s[0])
	}
	s.Close()
	tbl.delta.mu.Lock()
	loaded := len(tbl.delta.dvs)
	tbl.delta.mu.Unlock()
	if loaded == 0 || loaded > 3 {
		t.Fatalf("%d deletion vectors loaded for the first batch (of 30)", loaded)
	}
	// A full scan sees every file minus one row each.
	ids, _ := scanIDs(t, tbl, Request{Columns: []string{"id"}})
	if len(ids) != 30*999 {
		t.Fatalf("%d rows", len(ids))
	}
	for i := 0; i < 30; i++ {
		gone := int64(i*1000 + i%1000)
		k := sort.Search(len(ids), func(j int) bool { return ids[j] >= gone })
		if k < len(ids) && ids[k] == gone {
			t.Fatalf("deleted id %d returned", gone)
		}
	}
	// A filter whose page-level pruning leaves row ranges composes with
	// the deletions: file 3 deletes its row 3 (id 3003).
	ids, _ = scanIDs(t, tbl, Request{Columns: []string{"id"}, Filter: And{Terms: []Predicate{
		Compare{Column: "id", Op: Ge, Value: int64(3000)}, Compare{Column: "id", Op: Lt, Value: int64(3006)}}}})
	if fmt.Sprint(ids) != "[3000 3001 3002 3004 3005]" {
		t.Fatalf("filtered: %v", ids)
	}
}

// Many deletions in a row group are cleared from batch selections rather
// than cut out of the row ranges; both paths, with and without a filter,
// and a count that reads no column.
func TestDeltaManyDeletions(t *testing.T) {
	root := filepath.Join(t.TempDir(), "many")
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Int64("id").Required(), Name: "id"}}
	var rows [][]any
	for i := int64(0); i < 1000; i++ {
		rows = append(rows, []any{i})
	}
	add := tb.DataFile("f.parquet", cols, rows, nil, writer.WithRowGroupRows(250))
	bm := dv.New()
	deleted := map[int64]bool{}
	for i := int64(0); i < 1000; i++ {
		// Row group 0: every third row (84 rows, above maxCutRows); row
		// group 1: two rows (cut from the ranges); the others untouched.
		if i < 250 && i%3 == 0 || i == 300 || i == 301 {
			bm.Add(uint64(i))
			deleted[i] = true
		}
	}
	d, err := dv.Inline(bm)
	if err != nil {
		t.Fatal(err)
	}
	add.DeletionVector = &d
	schema := deltatest.Struct(deltatest.StructField("id", "long", false, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}},
		deltatest.NewMetaData(schema, nil, nil), add)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if f, err := tbl.File(0); err != nil || f.NumRowGroups() != 4 {
		t.Fatalf("the file should have 4 row groups: %v", err)
	}
	tbl.Close()
	want := func(keep func(int64) bool) string {
		var out []int64
		for i := int64(0); i < 1000; i++ {
			if !deleted[i] && keep(i) {
				out = append(out, i)
			}
		}
		return fmt.Sprint(out)
	}
	for _, batch := range []int{0, 7} {
		ids, _ := scanIDs(t, tbl, Request{Columns: []string{"id"}, BatchSize: batch})
		if fmt.Sprint(ids) != want(func(int64) bool { return true }) {
			t.Fatalf("batch %d: all rows wrong: %d rows", batch, len(ids))
		}
		f := Or{Terms: []Predicate{Compare{Column: "id", Op: Lt, Value: int64(20)}, In{Column: "id", Values: []any{int64(299), int64(300), int64(302)}}}}
		ids, _ = scanIDs(t, tbl, Request{Columns: []string{"id"}, Filter: f, BatchSize: batch})
		if g, w := fmt.Sprint(ids), want(func(i int64) bool { return i < 20 || i == 299 || i == 300 || i == 302 }); g != w {
			t.Fatalf("batch %d: filtered %s, want %s", batch, g, w)
		}
	}
	if _, n, _ := drainScan(t, tbl, Request{Columns: []string{}}); n != 1000-len(deleted) {
		t.Fatalf("count %d, want %d", n, 1000-len(deleted))
	}
}

// Statistics of struct fields are nested maps in the add action.
func TestDeltaPruneByNestedStats(t *testing.T) {
	root := filepath.Join(t.TempDir(), "ns")
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Group("info", writer.Int64("a")), Name: "info"}}
	f1 := tb.DataFile("f1.parquet", cols, [][]any{{map[string]any{"a": int64(5)}}, {map[string]any{"a": int64(9)}}}, nil)
	f1.Stats = `{"numRecords":2,"minValues":{"info":{"a":5}},"maxValues":{"info":{"a":9}},"nullCount":{"info":{"a":0}}}`
	f2 := tb.DataFile("f2.parquet", cols, [][]any{{map[string]any{"a": int64(50)}}, {map[string]any{"a": int64(60)}}}, nil)
	f2.Stats = `{"numRecords":2,"minValues":{"info":{"a":50}},"maxValues":{"info":{"a":60}},"nullCount":{"info":{"a":0}}}`
	info := deltatest.Struct(deltatest.StructField("a", "long", true, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2},
		deltatest.NewMetaData(deltatest.Struct(deltatest.StructField("info", info, true, nil)), nil, nil), f1, f2)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	ids, st := scanIDs(t, tbl, Request{Columns: []string{"info.a"}, Filter: Compare{Column: "info.a", Op: Ge, Value: int64(55)}})
	if fmt.Sprint(ids) != "[60]" || st.FilesPruned != 1 {
		t.Fatalf("got %v, %d files pruned", ids, st.FilesPruned)
	}
}

// A deletion vector that cannot be read fails the scan, naming the file.
func TestDeltaMissingDeletionVector(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gone")
	dvFiles(t, root, 2)
	m, err := filepath.Glob(filepath.Join(root, "deletion_vector_*.bin"))
	if err != nil || len(m) != 1 {
		t.Fatalf("deletion vector files: %v %v", m, err)
	}
	if err := os.Remove(m[0]); err != nil {
		t.Fatal(err)
	}
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	s, err := tbl.Scan(context.Background(), Request{Columns: []string{"id"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for {
		_, err = s.Next()
		if err != nil {
			break
		}
	}
	if err == io.EOF || !strings.Contains(err.Error(), "deletion vector of f000") {
		t.Fatalf("got %v", err)
	}
}

// In id mode a data file without field ids (written before the table
// mapped its columns) is matched by physical name.
func TestDeltaIDModeFileWithoutIDs(t *testing.T) {
	root := filepath.Join(t.TempDir(), "noid")
	tb := deltatest.New(t, root)
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}}, [][]any{{int64(7)}}, nil)
	md := map[string]any{"delta.columnMapping.id": 1, "delta.columnMapping.physicalName": "id"}
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 2, MinWriterVersion: 5},
		deltatest.NewMetaData(deltatest.Struct(deltatest.StructField("key", "long", true, md)), nil, map[string]string{"delta.columnMapping.mode": "id"}), f)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if ids, _ := scanIDs(t, tbl, Request{Columns: []string{"key"}}); fmt.Sprint(ids) != "[7]" {
		t.Fatalf("got %v", ids)
	}
}

// Statistics given as text where a number belongs ("NaN") prune nothing.
func TestDeltaTextStatsOfNumbers(t *testing.T) {
	root := filepath.Join(t.TempDir(), "nan")
	tb := deltatest.New(t, root)
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.Double("x"), Name: "x"}, {Field: writer.Int64("n"), Name: "n"}},
		[][]any{{1.5, int64(3)}}, nil)
	f.Stats = `{"numRecords":1,"minValues":{"x":"NaN","n":"three"},"maxValues":{"x":"NaN","n":"three"},"nullCount":{"x":0,"n":0}}`
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(deltatest.Struct(
		deltatest.StructField("x", "double", true, nil), deltatest.StructField("n", "long", true, nil)), nil, nil), f)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	for _, p := range []Predicate{Compare{Column: "x", Op: Eq, Value: 1.5}, Compare{Column: "n", Op: Lt, Value: int64(4)}} {
		if ids, _ := scanIDs(t, tbl, Request{Columns: []string{"n"}, Filter: p}); fmt.Sprint(ids) != "[3]" {
			t.Errorf("%v: got %v", p, ids)
		}
	}
}

// A deletion vector claiming more rows than its file holds is an error,
// not a negative count.
func TestDeltaDeletionVectorCardinalityChecked(t *testing.T) {
	root := filepath.Join(t.TempDir(), "card")
	tb := deltatest.New(t, root)
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}}, [][]any{{int64(1)}, {int64(2)}}, nil)
	d, err := dv.Inline(dv.Of(0))
	if err != nil {
		t.Fatal(err)
	}
	d.Cardinality = 5
	f.DeletionVector = &d
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}},
		deltatest.NewMetaData(deltatest.Struct(deltatest.StructField("id", "long", true, nil)), nil, nil), f)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	if n, err := tbl.NumRows(); err == nil || !strings.Contains(err.Error(), "removes 5 of 2 rows") {
		t.Fatalf("NumRows %d, %v", n, err)
	}
}

// A data file whose column has another type than the Delta schema says is
// an error naming the column and the file.
func TestDeltaFileTypeMismatch(t *testing.T) {
	root := filepath.Join(t.TempDir(), "mm")
	tb := deltatest.New(t, root)
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.String("n"), Name: "n"}}, [][]any{{"x"}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2},
		deltatest.NewMetaData(deltatest.Struct(deltatest.StructField("n", "long", true, nil)), nil, nil), f)
	tbl, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	s, err := tbl.Scan(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, err = s.Next()
	if err == nil || !strings.Contains(err.Error(), `column "n"`) || !strings.Contains(err.Error(), "f.parquet") || !strings.Contains(err.Error(), "BYTE_ARRAY where the Delta schema says INT64") {
		t.Fatalf("got %v", err)
	}
}

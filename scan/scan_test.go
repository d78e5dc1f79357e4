package scan

import (
	"context"
	"io"
	"math/rand"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

func collect(t *testing.T, tbl *Table, req Request) ([][]any, Stats) {
	t.Helper()
	s, err := tbl.Scan(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rows [][]any
	for {
		b, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			row := make([]any, len(b.Columns))
			for c, v := range b.Columns {
				col := s.Columns()[c]
				if col.Field != nil {
					row[c] = value.Get(col.Field, v, i)
				} else if !v.IsNull(i) {
					if v.Int64s != nil {
						row[c] = v.Int64s[i]
					} else {
						row[c] = string(v.Bytes(i))
					}
				}
			}
			rows = append(rows, row)
		}
	}
	return rows, s.Stats()
}

func TestScanSmoke(t *testing.T) {
	tbl, err := Open(testfiles.Path(t, "data/alltypes_tiny_pages_plain.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	all, _ := collect(t, tbl, Request{Columns: []string{"id", "int_col"}})
	if len(all) != 7300 {
		t.Fatalf("%d rows", len(all))
	}
	got, st := collect(t, tbl, Request{Columns: []string{"id"}, Filter: And{[]Predicate{Compare{"id", Ge, int64(100)}, Compare{"id", Lt, int64(200)}}}})
	if len(got) != 100 {
		t.Fatalf("%d rows, stats %v", len(got), st)
	}
	t.Logf("%v", st.String())
}

func TestSummarize(t *testing.T) {
	tbl, err := Open(testfiles.Path(t, "data/alltypes_tiny_pages_plain.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	all, _ := collect(t, tbl, Request{Columns: []string{"id", "int_col"}})
	sum, ok, err := tbl.Summarize("id")
	if err != nil || !ok {
		t.Fatalf("summary: %v %v", ok, err)
	}
	var mn, mx int32 = 1 << 30, -1 << 30
	for _, r := range all {
		v := r[0].(int32)
		mn, mx = min(mn, v), max(mx, v)
	}
	if sum.Rows != int64(len(all)) || sum.Nulls != 0 || !sum.MinMaxKnown || sum.Min != mn || sum.Max != mx {
		t.Fatalf("summary %+v, want min %d max %d rows %d", sum, mn, mx, len(all))
	}
}

// TestSplitRowGroup reads one large row group with several workers: the
// ordered output must equal a single worker's, with and without a filter.
func TestSplitRowGroup(t *testing.T) {
	path := writeEvents(t, 300_000, 1_000_000, 9)
	tbl, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	read := func(req Request) []int64 {
		s, err := tbl.Scan(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var ts []int64
		for {
			b, err := s.Next()
			if err == io.EOF {
				return ts
			}
			if err != nil {
				t.Fatal(err)
			}
			ts = append(ts, b.Columns[0].Int64s[:b.NumRows]...)
		}
	}
	for _, filter := range []Predicate{nil, Compare{"user_id", Lt, int64(50_000)}} {
		one := read(Request{Columns: []string{"ts", "category"}, Filter: filter, Threads: 1})
		many := read(Request{Columns: []string{"ts", "category"}, Filter: filter, Threads: 4})
		if len(one) == 0 || !reflect.DeepEqual(one, many) {
			t.Fatalf("filter %v: %d rows with one worker, %d with four (or different order)", filter, len(one), len(many))
		}
	}
}

// TestUntrustworthyColumnIndex: parquet-mr with statistics off writes a
// column index that marks every page null with null counts of -1; pruning
// by it would drop every row.
func TestUntrustworthyColumnIndex(t *testing.T) {
	for _, name := range []string{"datapage_v1-uncompressed-checksum.parquet", "datapage_v1-snappy-compressed-checksum.parquet"} {
		tbl, err := Open(testfiles.Path(t, "data/"+name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows, _ := collect(t, tbl, Request{Columns: []string{"a"}, Filter: Compare{"a", Gt, int64(-2147483648)}})
		all, _ := collect(t, tbl, Request{Columns: []string{"a"}, Filter: Compare{"a", Gt, int64(-2147483648)}, NoPruning: true})
		notNull, _ := collect(t, tbl, Request{Columns: []string{"a"}, Filter: IsNull{Column: "a", Not: true}})
		if len(rows) != 5120 || len(all) != 5120 || len(notNull) != 5120 {
			t.Fatalf("%s: %d rows with pruning, %d without, %d not null; want 5120", name, len(rows), len(all), len(notNull))
		}
		tbl.Close()
	}
}

// TestOnlyPartitionColumns scans a hive table asking for partition
// columns only: the rows come from the metadata.
func TestOnlyPartitionColumns(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	dir := t.TempDir()
	all := genTable(t, dir, rng, 6, 100)
	tbl, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	rows, _ := collect(t, tbl, Request{Columns: []string{"part"}})
	if len(rows) != len(all) {
		t.Fatalf("%d rows, want %d", len(rows), len(all))
	}
	rows, _ = collect(t, tbl, Request{Columns: []string{"part"}, Filter: Compare{"part", Eq, int64(1)}})
	want := 0
	for _, r := range all {
		if r["part"] == int64(1) {
			want++
		}
	}
	if len(rows) != want {
		t.Fatalf("part = 1: %d rows, want %d", len(rows), want)
	}
}

// writeEvents writes n rows of the events table (internal/events, seeded)
// in row groups of rgRows to a new file and returns its path.
func writeEvents(tb testing.TB, n, rgRows int, seed uint64) string {
	tb.Helper()
	sch, err := events.Schema()
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(tb.TempDir(), "events.parquet")
	w, err := writer.Create(path, sch, writer.WithRowGroupRows(int64(rgRows)))
	if err != nil {
		tb.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(n, seed)); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// WithFile reads the base table's files through it and the added file
// after them; the base is unaffected, and partitioned tables are refused.
func TestWithFile(t *testing.T) {
	base, err := Open(writeEvents(t, 300, 100, 1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer base.Close()
	u, err := base.WithFile(writeEvents(t, 50, 100, 2))
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := collect(t, u, Request{Columns: []string{"user_id"}})
	if len(rows) != 350 {
		t.Fatalf("%d rows, want 350", len(rows))
	}
	if err := u.Close(); err != nil {
		t.Fatal(err)
	}
	if rows, _ := collect(t, base, Request{Columns: []string{"user_id"}}); len(rows) != 300 {
		t.Fatalf("the base table after closing the new one: %d rows", len(rows))
	}
	dir := t.TempDir()
	genTable(t, dir, rand.New(rand.NewSource(3)), 2, 10)
	parted, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer parted.Close()
	if _, err := parted.WithFile(filepath.Join(dir, "x.parquet")); err == nil {
		t.Fatal("a table with partition columns took another file")
	}
}

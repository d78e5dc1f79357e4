package scan

import (
	"context"
	"io"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
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

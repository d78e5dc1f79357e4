package file

import (
	"io"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
)

func readRows(t *testing.T, f *File, opts ReaderOptions) [][]any {
	t.Helper()
	r, err := f.NewReader(opts)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for {
		b, err := r.Next()
		if err == io.EOF {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.NumRows; i++ {
			row := make([]any, len(b.Columns))
			for c, v := range b.Columns {
				row[c] = value.Get(b.Fields[c], v, i)
			}
			rows = append(rows, row)
		}
	}
}

func TestRowRanges(t *testing.T) {
	for _, name := range []string{"alltypes_tiny_pages.parquet", "alltypes_tiny_pages_plain.parquet", "alltypes_plain.parquet"} {
		t.Run(name, func(t *testing.T) {
			f, err := OpenFile(testfiles.Path(t, "data/"+name), Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			all := readRows(t, f, ReaderOptions{BatchSize: 100})
			n := int64(len(all))
			ranges := []RowRange{{1, 3}, {n / 2, min(n/2+17, n-3)}, {n - 2, n}}
			got := readRows(t, f, ReaderOptions{BatchSize: 5, Ranges: map[int][]RowRange{0: ranges}})
			var want [][]any
			for _, rg := range ranges {
				want = append(want, all[rg.Start:rg.End]...)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("ranges read %d rows, want %d; first %v vs %v", len(got), len(want), got[0], want[0])
			}
		})
	}
}

func TestPageIndexAndBloom(t *testing.T) {
	f, err := OpenFile(testfiles.Path(t, "data/data_index_bloom_encoding_stats.parquet"), Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := f.Chunk(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	ci, err := c.ColumnIndex()
	if err != nil || ci == nil {
		t.Fatalf("column index: %v %v", ci, err)
	}
	oi, err := c.OffsetIndex()
	if err != nil || oi == nil || len(oi.PageLocations) != len(ci.NullPages) {
		t.Fatalf("offset index: %v %v", oi, err)
	}
	bf, err := c.BloomFilter()
	if err != nil || bf == nil {
		t.Fatalf("bloom filter: %v %v", bf, err)
	}
	rows := readRows(t, f, ReaderOptions{})
	for _, r := range rows {
		if s, ok := r[0].(string); ok && !bf.Check(bloomHashString(s)) {
			t.Fatalf("value %q missing from the bloom filter", s)
		}
	}
}

func bloomHashString(s string) uint64 { return bloomHash([]byte(s)) }

package file_test

import (
	"bytes"
	"reflect"
	"runtime"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// TestReusedVectorsKeepNulls reads nullable lists in small batches: the
// validity of a reused vector must not keep bits from the batch before.
func TestReusedVectorsKeepNulls(t *testing.T) {
	sch, err := writer.NewSchema(writer.List("l", writer.Int32("element").Required()).Optional())
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]any{{[]any{int32(1)}}, {nil}, {[]any{}}, {[]any{}}, {nil}, {[]any{int32(2)}}, {[]any{}}, {[]any{}}, {nil}, {nil}, {[]any{int32(3), int32(4)}}}
	var buf writer.Buffer
	w, err := writer.New(&buf, sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRows(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, bs := range []int{1, 2, 3, 4, 5, 100} {
		f, err := file.Open(bytes.NewReader(buf.Bytes()), int64(len(buf.Bytes())), file.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := file.ReadRows(t, f, file.ReaderOptions{BatchSize: bs})
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("batch size %d: read %v, want %v", bs, got, rows)
		}
	}
}

// TestBigPagesReuseBuffers reads, twice, a file whose column chunks are one
// large compressed page each (as DuckDB writes them): the second read takes
// its page and decompression buffers from those the first gave back, so it
// allocates a small part of the pages' size, and reads the same values.
func TestBigPagesReuseBuffers(t *testing.T) {
	const n = 400_000
	sch, err := writer.NewSchema(writer.Int64("a").Required(), writer.Double("b").Required())
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/big.parquet"
	w, err := writer.Create(path, sch, writer.WithCompression(format.Zstd), writer.WithPageRowLimit(n), writer.WithDataPageSize(64<<20), writer.WithDictionary(false))
	if err != nil {
		t.Fatal(err)
	}
	a := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	b := &vector.Vector{Kind: vector.Float64, Len: n, Float64s: make([]float64, n)}
	for i := range n {
		a.Int64s[i] = int64(i*7919) % 1000003
		b.Float64s[i] = float64(i%9973) / 7
	}
	if err := w.WriteBatch([]*vector.Vector{a, b}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	read := func() (sum float64, alloc uint64) {
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := f.NewReader(file.ReaderOptions{})
		if err != nil {
			t.Fatal(err)
		}
		eachBatch(t, r, func(bt *file.Batch) {
			for i := 0; i < bt.NumRows; i++ {
				sum += float64(bt.Columns[0].Int64s[i]) + bt.Columns[1].Float64s[i]
			}
		})
		runtime.ReadMemStats(&m1)
		return sum, m1.TotalAlloc - m0.TotalAlloc
	}
	s1, _ := read()
	s2, alloc := read()
	if s1 != s2 {
		t.Fatalf("the second read's values differ: %v, %v", s1, s2)
	}
	// The pages hold 6.4 MB of values.
	if alloc > 3<<20 {
		t.Errorf("the second read allocated %d bytes", alloc)
	}
}

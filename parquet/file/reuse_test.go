package file_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"runtime"
	"sync"
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
	alloc := rereadAlloc(t, writeOnePagePerColumn(t, "big.parquet", 2, n))
	// The pages hold 6.4 MB of values.
	if alloc > 3<<20 {
		t.Errorf("the second read allocated %d bytes", alloc)
	}
}

// TestBigPagesReuseBuffersAfterOtherFiles reads a file of many smaller
// one-page chunks, whose decompression buffers fill the kept buffers'
// budget (made 8 MiB here), then twice a file of larger pages that none
// of them fits: the larger buffers given back after the first read must
// push out the old ones (not be dropped for lack of room), so that the
// second read allocates a small part of its pages' size again.
func TestBigPagesReuseBuffersAfterOtherFiles(t *testing.T) {
	defer file.SetScratchBudget(8 << 20)()
	small := writeOnePagePerColumn(t, "small.parquet", 10, 125_000) // 10 pages of 1 MB
	big := writeOnePagePerColumn(t, "big.parquet", 2, 300_000)      // 2 pages of 2.4 MB
	rereadAlloc(t, small)
	if alloc := rereadAlloc(t, big); alloc > 1<<20 {
		t.Errorf("the second read of the big file allocated %d bytes", alloc)
	}
}

// writeOnePagePerColumn writes a zstd file of cols INT64 columns of n
// rows, each column chunk one page, in a temporary folder. The pages
// compress well, so that only their decompression buffers are larger than
// a window; the values differ between files of names that start with
// different letters.
func writeOnePagePerColumn(t *testing.T, name string, cols, n int) string {
	t.Helper()
	fields := make([]writer.Field, cols)
	vecs := make([]*vector.Vector, cols)
	for c := range cols {
		fields[c] = writer.Int64(fmt.Sprintf("c%d", c)).Required()
		v := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
		for i := range n {
			v.Int64s[i] = int64(name[0])<<32 + int64(i/1000+c) // runs: a page compresses to less than a window
		}
		vecs[c] = v
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		t.Fatal(err)
	}
	path := t.TempDir() + "/" + name
	w, err := writer.Create(path, sch, writer.WithCompression(format.Zstd), writer.WithPageRowLimit(n), writer.WithDataPageSize(64<<20), writer.WithDictionary(false), writer.WithEncoding(format.Plain))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(vecs); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// rereadAlloc reads the file at path twice (sumAndAlloc), checks that both
// reads give the same values, and returns what the second allocated.
func rereadAlloc(t *testing.T, path string) uint64 {
	t.Helper()
	s1, _ := sumAndAlloc(t, path)
	s2, alloc := sumAndAlloc(t, path)
	if s1 != s2 {
		t.Fatalf("%s: the second read's values differ: %v, %v", path, s1, s2)
	}
	return alloc
}

// sumAndAlloc reads every INT64 column of the file at path and returns
// the sum of their values and the bytes the read allocated.
func sumAndAlloc(t *testing.T, path string) (sum int64, alloc uint64) {
	t.Helper()
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
		for _, col := range bt.Columns {
			for _, v := range col.Int64s[:bt.NumRows] {
				sum += v
			}
		}
	})
	runtime.ReadMemStats(&m1)
	return sum, m1.TotalAlloc - m0.TotalAlloc
}

// TestKeptBuffersConcurrentReaders reads files of different page sizes
// from several goroutines at once, with a budget of kept buffers small
// enough that they are pushed out and handed to other readers all along:
// every read must give its own file's values (run it with -race).
func TestKeptBuffersConcurrentReaders(t *testing.T) {
	defer file.SetScratchBudget(4 << 20)()
	paths := []string{
		writeOnePagePerColumn(t, "a.parquet", 3, 60_000),
		writeOnePagePerColumn(t, "b.parquet", 2, 150_000),
		writeOnePagePerColumn(t, "c.parquet", 5, 20_000),
	}
	want := make([]int64, len(paths))
	for i, p := range paths {
		want[i], _ = sumAndAlloc(t, p)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 4 {
				i := (g + k) % len(paths)
				if got := sumOnly(paths[i]); got != want[i] {
					errs <- fmt.Sprintf("%s: sum %d, want %d", paths[i], got, want[i])
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// sumOnly is sumAndAlloc's sum, for goroutines other than the test's:
// an error makes the sum -1.
func sumOnly(path string) int64 {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return -1
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{})
	if err != nil {
		return -1
	}
	var sum int64
	for {
		bt, err := r.Next()
		if err == io.EOF {
			return sum
		}
		if err != nil {
			return -1
		}
		for _, col := range bt.Columns {
			for _, v := range col.Int64s[:bt.NumRows] {
				sum += v
			}
		}
	}
}

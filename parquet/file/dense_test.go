package file_test

import (
	"fmt"
	"io"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// TestOptionalWithoutNulls reads OPTIONAL columns whose pages mostly hold
// no null (read as required ones, their levels not decoded) with batches
// that span pages with and without nulls, alone, in a struct, and with a
// leaf shared by two fields: every value and null must come back in place.
func TestOptionalWithoutNulls(t *testing.T) {
	sch, err := writer.NewSchema(writer.Int64("x"), writer.Group("s", writer.Int64("y")))
	if err != nil {
		t.Fatal(err)
	}
	const n = 10_000
	null := func(i int) bool { return i >= 3000 && i < 3500 || i == 7777 }
	x := &vector.Vector{Kind: vector.Int64, Len: n, Valid: vector.NewBitmap(n, true)}
	y := &vector.Vector{Kind: vector.Int64, Len: n}
	for i := 0; i < n; i++ {
		x.Int64s = append(x.Int64s, int64(i))
		y.Int64s = append(y.Int64s, int64(-i))
		if null(i) {
			x.Valid.Clear(i)
			x.Int64s[i] = 0
		}
	}
	s := &vector.Vector{Kind: vector.Struct, Len: n, Children: []*vector.Vector{y}}
	for _, version := range []int{1, 2} {
		for _, codec := range []format.CompressionCodec{format.Uncompressed, format.Snappy} {
			path := writeVectors(t, sch, []*vector.Vector{x, s}, writer.WithCompression(codec), writer.WithDictionary(false),
				writer.WithPageRowLimit(1000), writer.WithDataPageVersion(version))
			f, err := file.OpenFile(path, file.Options{}, false)
			if err != nil {
				t.Fatal(err)
			}
			for _, batch := range []int{700, 2500, n} {
				rows := file.ReadRows(t, f, file.ReaderOptions{Columns: []string{"x", "s", "s.y"}, BatchSize: batch})
				if len(rows) != n {
					t.Fatalf("%d rows, want %d", len(rows), n)
				}
				for k, got := range rows {
					wantX := any(int64(k))
					if null(k) {
						wantX = nil
					}
					if want := []any{wantX, map[string]any{"y": int64(-k)}, int64(-k)}; fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("v%d %v batch %d row %d: %v, want %v", version, codec, batch, k, got, want)
					}
				}
			}
			f.Close()
		}
	}
}

// TestLentFromReusedBuffers reads PLAIN columns (one REQUIRED, one
// OPTIONAL without nulls) from small reused windows and from decompressed
// pages: batches that are a window of one page borrow its bytes, and every
// value must be right; with ReaderOptions.Fresh nothing is lent from a
// buffer the next pages reuse, so batches kept to the end stay right.
func TestLentFromReusedBuffers(t *testing.T) {
	defer file.SetWindowSize(8 << 10)()
	sch, err := writer.NewSchema(writer.Int64("a").Required(), writer.Double("b"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 20_000
	a := &vector.Vector{Kind: vector.Int64, Len: n}
	b := &vector.Vector{Kind: vector.Float64, Len: n}
	for i := 0; i < n; i++ {
		a.Int64s = append(a.Int64s, int64(i)*3)
		b.Float64s = append(b.Float64s, float64(i)/2)
	}
	for _, codec := range []format.CompressionCodec{format.Uncompressed, format.Snappy} {
		path := writeVectors(t, sch, []*vector.Vector{a, b}, writer.WithCompression(codec), writer.WithDictionary(false),
			writer.WithEncoding(format.Plain), writer.WithPageRowLimit(1000))
		f, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, fresh := range []bool{false, true} {
			for _, batch := range []int{700, 1000, 2500} {
				r, err := f.NewReader(file.ReaderOptions{BatchSize: batch, Fresh: fresh})
				if err != nil {
					t.Fatal(err)
				}
				var kept []*file.Batch
				lent, row := 0, 0
				check := func(bt *file.Batch, first int) {
					for i := 0; i < bt.NumRows; i++ {
						k := first + i
						if x, y := bt.Columns[0].Int64s[i], bt.Columns[1].Float64s[i]; x != int64(k)*3 || y != float64(k)/2 {
							t.Fatalf("%v fresh=%v batch %d row %d: %d %v", codec, fresh, batch, k, x, y)
						}
					}
				}
				eachBatch(t, r, func(bt *file.Batch) {
					if bt.Columns[0].Borrowed && bt.Columns[1].Borrowed {
						lent++
					}
					check(bt, row)
					if fresh {
						kept = append(kept, bt)
					}
					row += bt.NumRows
				})
				for i, bt := range kept {
					check(bt, i*batch)
				}
				// Batches of more than a page's rows always span two pages.
				if fresh && lent > 0 || !fresh && batch <= 1000 && lent == 0 || row != n {
					t.Errorf("%v fresh=%v batch %d: %d rows, %d batches lent", codec, fresh, batch, row, lent)
				}
			}
		}
		f.Close()
	}
}

// writeVectors writes one batch of columns to a new file and returns its path.
func writeVectors(t *testing.T, sch *schema.Schema, cols []*vector.Vector, opts ...writer.Option) string {
	path := filepath.Join(t.TempDir(), "t.parquet")
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(cols); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// eachBatch calls fn on every batch r returns.
func eachBatch(t *testing.T, r *file.Reader, fn func(*file.Batch)) {
	for {
		b, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		fn(b)
	}
}

package file_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
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
			path := filepath.Join(t.TempDir(), "opt.parquet")
			w, err := writer.Create(path, sch, writer.WithCompression(codec), writer.WithDictionary(false),
				writer.WithPageRowLimit(1000), writer.WithDataPageVersion(version))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteBatch([]*vector.Vector{x, s}); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
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

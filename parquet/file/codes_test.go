package file_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// codesFile writes rows of an optional string column s (40 words, every
// seventh row null), a required string column r and an int id, in row groups
// of 700 rows and pages of 100 rows.
func codesFile(t *testing.T, rows int, opts ...writer.Option) []byte {
	t.Helper()
	sch, err := writer.NewSchema(writer.String("s"), writer.String("r").Required(), writer.Int64("id").Required())
	if err != nil {
		t.Fatal(err)
	}
	var buf writer.Buffer
	opts = append([]writer.Option{writer.WithRowGroupRows(700), writer.WithPageRowLimit(100)}, opts...)
	w, err := writer.New(&buf, sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	data := make([][]any, rows)
	for i := range data {
		var s any = fmt.Sprintf("word-%02d", (i*7919)%40)
		if i%7 == 3 {
			s = nil
		}
		data[i] = []any{s, fmt.Sprintf("r%d", i%5), int64(i)}
	}
	if err := w.WriteRows(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads columns s and r with the given options and returns every
// row's values ("<nil>" for null) and how many batches came back coded.
func readAll(t *testing.T, data []byte, opts file.ReaderOptions) (rows [][2]string, coded int) {
	t.Helper()
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Columns = []string{"s", "r"}
	r, err := f.NewReader(opts)
	if err != nil {
		t.Fatal(err)
	}
	str := func(v *vector.Vector, i int) string {
		if v.IsNull(i) {
			return "<nil>"
		}
		return string(v.Bytes(i))
	}
	for {
		b, err := r.Next()
		if err == io.EOF {
			return rows, coded
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range b.Columns {
			if v.Dict != nil {
				coded++
				if len(v.Data) != 0 || len(v.Codes) != v.Len {
					t.Fatalf("coded vector with %d data bytes and %d codes for %d rows", len(v.Data), len(v.Codes), v.Len)
				}
			}
		}
		for i := 0; i < b.NumRows; i++ {
			rows = append(rows, [2]string{str(b.Columns[0], i), str(b.Columns[1], i)})
		}
	}
}

// TestReadCodes reads dictionary-encoded string columns as codes and as
// values, with nulls, a dictionary that falls back to plain pages mid-chunk,
// every batch size and page-index row ranges: the values must agree.
func TestReadCodes(t *testing.T) {
	files := map[string][]byte{
		"dictionary": codesFile(t, 2000),
		// A 150-byte dictionary limit makes s fall back to PLAIN after a
		// few of its 40 words.
		"fallback": codesFile(t, 2000, writer.WithDictionaryPageSizeLimit(150)),
	}
	ranges := map[int][]file.RowRange{0: {{Start: 50, End: 130}, {Start: 400, End: 450}}, 2: {{Start: 10, End: 20}}}
	for name, data := range files {
		for _, bs := range []int{1, 7, 100, 333, 5000} {
			for _, rr := range []map[int][]file.RowRange{nil, ranges} {
				want, wantCoded := readAll(t, data, file.ReaderOptions{BatchSize: bs, Ranges: rr})
				got, coded := readAll(t, data, file.ReaderOptions{BatchSize: bs, Ranges: rr, Codes: []string{"s", "r"}})
				if wantCoded != 0 {
					t.Fatalf("%s: %d batches coded without asking", name, wantCoded)
				}
				if coded == 0 {
					t.Fatalf("%s, batch size %d: no batch came back coded", name, bs)
				}
				if len(got) != len(want) {
					t.Fatalf("%s, batch size %d: %d rows, want %d", name, bs, len(got), len(want))
				}
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s, batch size %d, ranges %v: row %d is %q, want %q", name, bs, rr != nil, i, got[i], want[i])
					}
				}
			}
		}
	}
}

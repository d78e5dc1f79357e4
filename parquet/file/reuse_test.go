package file_test

import (
	"bytes"
	"io"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/value"
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
		r, err := f.NewReader(file.ReaderOptions{BatchSize: bs})
		if err != nil {
			t.Fatal(err)
		}
		var got [][]any
		for {
			b, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < b.NumRows; i++ {
				got = append(got, []any{value.Get(b.Fields[0], b.Columns[0], i)})
			}
		}
		if !reflect.DeepEqual(got, rows) {
			t.Fatalf("batch size %d: read %v, want %v", bs, got, rows)
		}
	}
}

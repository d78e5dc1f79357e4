package file_test

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/writer"
)

// TestOptionalPagesWithoutNulls reads OPTIONAL columns whose pages mostly
// hold no null (their levels are not decoded) and a few that do, in
// batches that start and end inside pages of both kinds, and after skips:
// every value and every null must come back in its row.
func TestOptionalPagesWithoutNulls(t *testing.T) {
	const n = 1000
	sch, err := writer.NewSchema(writer.Int64("a").Optional(), writer.String("s").Optional())
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]any, n)
	for i := range rows {
		var a, s any = int64(i * 3), fmt.Sprintf("v%d", i%17)
		if i >= 300 && i < 310 || i == 905 || i == 999 {
			a, s = nil, nil
		}
		if i == 410 {
			s = nil
		}
		rows[i] = []any{a, s}
	}
	for _, version := range []int{1, 2} {
		for _, dict := range []bool{false, true} {
			var buf writer.Buffer
			w, err := writer.New(&buf, sch, writer.WithPageRowLimit(100), writer.WithDataPageVersion(version), writer.WithDictionary(dict))
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteRows(rows); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data := buf.Bytes()
			f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, bs := range []int{1, 7, 64, 250, 1000} {
				if got := file.ReadRows(t, f, file.ReaderOptions{BatchSize: bs}); !reflect.DeepEqual(got, rows) {
					t.Fatalf("v%d dictionary %v batch size %d: the rows read differ", version, dict, bs)
				}
			}
			// Skips that end inside pages with and without nulls, then reads.
			for _, skip := range []int{0, 50, 150, 295, 305, 404, 900} {
				c, err := f.Chunk(0, 0)
				if err != nil {
					t.Fatal(err)
				}
				cr, err := c.NewColumnReader()
				if err != nil {
					t.Fatal(err)
				}
				if err := cr.SkipRows(skip); err != nil {
					t.Fatal(err)
				}
				d := cr.NewLeafData()
				got, err := cr.ReadRows(d, 120)
				if err != nil {
					t.Fatal(err)
				}
				k := 0
				for i := range got {
					want := rows[skip+i][0]
					if d.Def[i] == 0 {
						if want != nil {
							t.Fatalf("v%d dictionary %v: after skipping %d, row %d is null, want %v", version, dict, skip, skip+i, want)
						}
						continue
					}
					if v := d.Values.Int64s[k]; want != v {
						t.Fatalf("v%d dictionary %v: after skipping %d, row %d is %d, want %v", version, dict, skip, skip+i, v, want)
					}
					k++
				}
				cr.Release()
			}
		}
	}
}

package writer

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
)

// flbaWidths are the FIXED_LEN_BYTE_ARRAY widths that matter: 1 to 8 bytes
// (odd ones included), FLOAT16 (2), INTERVAL (12), UUID and DECIMAL(38)
// (16), and widths past one and two 16-byte blocks (17, 33).
var flbaWidths = []int{1, 2, 3, 4, 7, 8, 12, 16, 17, 33}

// flbaFields are the columns of one width: plain bytes, a decimal as wide
// as the width allows, and the logical type of that width if it has one.
func flbaFields(width int) []Field {
	fields := []Field{FixedLen("bytes", width), DecimalAs("dec", maxDecimalDigits(width), 1, format.FixedLenByteArray, width)}
	switch width {
	case 2:
		fields = append(fields, Float16("f16"))
	case 12:
		fields = append(fields, Interval("iv"))
	case 16:
		fields = append(fields, UUID("uuid"))
	}
	return fields
}

// flbaVector makes n values of a width: 19 in 20 from a pool of 16 (so
// that a dictionary pays, even for one byte), the rest random; with nulls, a quarter of the rows
// at random and a run of 400 (whole pages of nulls).
func flbaVector(rng *rand.Rand, width, n int, nulls bool) *vector.Vector {
	pool := make([]byte, 16*width)
	for i := range pool {
		pool[i] = byte(rng.IntN(256))
	}
	v := &vector.Vector{Kind: vector.FixedLenByteArray, Width: width, Len: n, Data: make([]byte, n*width)}
	for i := range n {
		slot := v.Data[i*width : (i+1)*width]
		if rng.IntN(20) != 0 {
			k := rng.IntN(16)
			copy(slot, pool[k*width:(k+1)*width])
		} else {
			for j := range slot {
				slot[j] = byte(rng.IntN(256))
			}
		}
	}
	if nulls {
		v.Valid = vector.NewBitmap(n, true)
		for i := range n {
			if rng.IntN(4) == 0 || i >= n/2 && i < n/2+400 {
				v.Valid.Clear(i)
			}
		}
	}
	return v
}

// flbaEncodings are the writer options of each encoding valid for
// FIXED_LEN_BYTE_ARRAY, with the data page encoding they must give.
var flbaEncodings = []struct {
	name string
	opts []Option
	want format.Encoding
}{
	{"plain", []Option{WithDictionary(false)}, format.Plain},
	{"dict", []Option{WithDictionary(true)}, format.RLEDictionary},
	{"bss", []Option{WithDictionary(false), WithEncoding(format.ByteStreamSplit)}, format.ByteStreamSplit},
	{"delta", []Option{WithDictionary(false), WithEncoding(format.DeltaByteArray)}, format.DeltaByteArray},
}

// TestFixedLenByteArray writes FIXED_LEN_BYTE_ARRAY columns of every width
// that matters × each encoding valid for them × data page v1 and v2 (v2
// compressed, so its values are compressed apart from its levels) ×
// REQUIRED and OPTIONAL with nulls, and reads every value back: whole row
// groups, and in batches that end inside pages.
func TestFixedLenByteArray(t *testing.T) {
	const n = 3000
	for _, width := range flbaWidths {
		for _, optional := range []bool{false, true} {
			fields := flbaFields(width)
			for i := range fields {
				if !optional {
					fields[i] = fields[i].Required()
				}
			}
			sch, err := NewSchema(fields...)
			if err != nil {
				t.Fatal(err)
			}
			logical, err := sch.LogicalFields()
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(width), 28))
			cols := make([]*vector.Vector, len(fields))
			for i := range cols {
				cols[i] = flbaVector(rng, width, n, optional)
			}
			want := rowsOf(logical, cols)
			for _, enc := range flbaEncodings {
				for _, pv := range []int{1, 2} {
					name := fmt.Sprintf("w%d/%s/v%d/optional=%v", width, enc.name, pv, optional)
					t.Run(name, func(t *testing.T) {
						codec := format.Uncompressed
						if pv == 2 {
							codec = format.Snappy
						}
						opts := append([]Option{WithDataPageVersion(pv), WithCompression(codec), WithPageRowLimit(250)}, enc.opts...)
						f := openBuffer(t, writeBuffer(t, sch, cols, opts...))
						compareRows(t, want, readRows(t, f, 0))
						compareRows(t, want, readBatches(t, f, 97))
						verifyMetadata(t, f)
						for c := range fields {
							pageType := format.DataPage
							if pv == 2 {
								pageType = format.DataPageV2
							}
							found := false
							for _, es := range f.Meta.RowGroups[0].Columns[c].MetaData.EncodingStats {
								if es.PageType == pageType && es.Encoding == enc.want {
									found = true
								}
							}
							if !found {
								t.Errorf("column %s: no %v page encoded %v: %+v", fields[c].Name(), pageType, enc.want,
									f.Meta.RowGroups[0].Columns[c].MetaData.EncodingStats)
							}
						}
					})
				}
			}
		}
	}
}

// readBatches reads every row of a file with one Reader in batches of the
// given size, copying the rows out of each batch.
func readBatches(t testing.TB, f *file.File, batch int) [][]any {
	t.Helper()
	r, err := f.NewReader(file.ReaderOptions{BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]any
	for {
		b, err := r.Next()
		if errors.Is(err, io.EOF) {
			return rows
		}
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, rowsOf(b.Fields, b.Columns)...)
	}
}

package file_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

func eventsFile(b *testing.B, n int, codec format.CompressionCodec) []byte {
	sch, err := events.Schema()
	if err != nil {
		b.Fatal(err)
	}
	var buf writer.Buffer
	w, err := writer.New(&buf, sch, writer.WithCompression(codec), writer.WithRowGroupRows(1_000_000))
	if err != nil {
		b.Fatal(err)
	}
	if err := w.WriteBatch(events.Generate(n, 1)); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

var codecs = []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Zstd, format.Gzip, format.LZ4Raw}

// BenchmarkReadEvents reads the BENCHMARKS.md events table (1M rows) into
// columnar batches: every column, and the amount column alone.
func BenchmarkReadEvents(b *testing.B) {
	const n = 1_000_000
	for _, codec := range codecs {
		data := eventsFile(b, n, codec)
		for _, cols := range [][]string{nil, {"amount"}} {
			name := codec.String() + "/all"
			if cols != nil {
				name = codec.String() + "/amount"
			}
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				for b.Loop() {
					f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
					if err != nil {
						b.Fatal(err)
					}
					r, err := f.NewReader(file.ReaderOptions{Columns: cols, BatchSize: 64 << 10})
					if err != nil {
						b.Fatal(err)
					}
					rows := 0
					for {
						bt, err := r.Next()
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						rows += bt.NumRows
					}
					if rows != n {
						b.Fatalf("%d rows", rows)
					}
				}
			})
		}
	}
}

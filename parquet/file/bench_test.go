package file_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/internal/cputime"
	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// eventsFile writes n events rows in row groups of a million, with the
// codec and any other options.
func eventsFile(b *testing.B, n int, codec format.CompressionCodec, opts ...writer.Option) []byte {
	sch, err := events.Schema()
	if err != nil {
		b.Fatal(err)
	}
	var buf writer.Buffer
	opts = append([]writer.Option{writer.WithCompression(codec), writer.WithRowGroupRows(1_000_000)}, opts...)
	w, err := writer.New(&buf, sch, opts...)
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

// BenchmarkReadPageRows reads the 1M-row uncompressed and zstd events
// files written with pages of 20,000 rows (parquet-java's limit), 16,384
// and 24,576 (two and three default batches, the writer's default), with
// the default batch size: a batch that crosses a page's end is copied,
// one inside a page is lent. CPU time per read in cpu-ns/op.
func BenchmarkReadPageRows(b *testing.B) {
	const n = 1_000_000
	for _, codec := range []format.CompressionCodec{format.Uncompressed, format.Zstd} {
		for _, rows := range []int{20000, 16384, 24576} {
			data := eventsFile(b, n, codec, writer.WithPageRowLimit(rows))
			b.Run(fmt.Sprintf("%v/pages=%d", codec, rows), func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				cpu0 := cputime.Process()
				for b.Loop() {
					f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
					if err != nil {
						b.Fatal(err)
					}
					r, err := f.NewReader(file.ReaderOptions{})
					if err != nil {
						b.Fatal(err)
					}
					for {
						if _, err := r.Next(); err == io.EOF {
							break
						} else if err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// BenchmarkMmap reads every column of the uncompressed 1M-row events file
// through a new mapping each time (the kept one dropped after each read:
// a fault at the first touch of each page), through the mapping kept from
// the previous read, and with plain reads. CPU time per read in
// cpu-ns/op; run them alternately (-count 1, several times).
func BenchmarkMmap(b *testing.B) {
	path := filepath.Join(b.TempDir(), "events.parquet")
	if err := os.WriteFile(path, eventsFile(b, 1_000_000, format.Uncompressed), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []string{"fresh", "kept", "plain"} {
		b.Run(mode, func(b *testing.B) {
			cpu0 := cputime.Process()
			for b.Loop() {
				f, err := file.OpenFile(path, file.Options{}, mode != "plain")
				if err != nil {
					b.Fatal(err)
				}
				r, err := f.NewReader(file.ReaderOptions{})
				if err != nil {
					b.Fatal(err)
				}
				var sum float64
				for {
					bt, err := r.Next()
					if err == io.EOF {
						break
					} else if err != nil {
						b.Fatal(err)
					}
					for _, v := range bt.Columns[3].Float64s[:bt.NumRows] {
						sum += v // touch the values, lent or not
					}
				}
				f.Close()
				if mode == "fresh" {
					file.DropIdleMappings()
				}
				if sum <= 0 {
					b.Fatal("no amounts read")
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
			file.DropIdleMappings()
		})
	}
}

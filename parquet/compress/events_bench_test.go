package compress_test

import (
	"sync"
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// eventsPages are the gzip pages of the benchmark's events table (1M rows,
// BENCHMARKS.md §1) as carquet's writer stores them by default.
var eventsPages = sync.OnceValues(func() ([][]byte, []int) {
	sch, err := events.Schema()
	if err != nil {
		panic(err)
	}
	var buf writer.Buffer
	w, err := writer.New(&buf, sch, writer.WithCompression(format.Gzip), writer.WithRowGroupRows(1_000_000))
	if err != nil {
		panic(err)
	}
	if err := w.WriteBatch(events.Generate(1_000_000, 1)); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	bodies, sizes, err := compress.CodecPages(buf.Bytes(), format.Gzip)
	if err != nil {
		panic(err)
	}
	return bodies, sizes
})

// BenchmarkGzipEventsPages decodes every gzip page of the events table,
// with the codec carquet uses and with the klauspost reader it used before.
// MB/s counts decoded bytes; cpu-ns/op is the process's CPU time, steadier
// than wall time on a shared machine.
func BenchmarkGzipEventsPages(b *testing.B) {
	bodies, sizes := eventsPages()
	total := 0
	for _, n := range sizes {
		total += n
	}
	codec, err := compress.Lookup(format.Gzip)
	if err != nil {
		b.Fatal(err)
	}
	for _, dec := range []struct {
		name string
		fn   func(dst, src []byte, size int) ([]byte, error)
	}{
		{"codec", codec.Decode},
		{"klauspost", compress.KlauspostGunzip},
	} {
		b.Run(dec.name, func(b *testing.B) {
			b.SetBytes(int64(total))
			b.ReportAllocs()
			var out []byte
			cpu0 := compress.CPUTime()
			for b.Loop() {
				for i, body := range bodies {
					if out, err = dec.fn(out, body, sizes[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(compress.CPUTime()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(bodies)), "pages")
		})
	}
}

package compress_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/internal/cputime"
	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// eventsGzipPages returns the gzip pages of the benchmark's events table
// (BENCHMARKS.md §1) of n rows as carquet's writer stores them by default.
func eventsGzipPages(n int) ([][]byte, []int) {
	sch, err := events.Schema()
	if err != nil {
		panic(err)
	}
	var buf writer.Buffer
	w, err := writer.New(&buf, sch, writer.WithCompression(format.Gzip), writer.WithRowGroupRows(1_000_000))
	if err != nil {
		panic(err)
	}
	if err := w.WriteBatch(events.Generate(n, 1)); err != nil {
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
}

// eventsPages are the pages of the benchmark's 1M-row table.
var eventsPages = sync.OnceValues(func() ([][]byte, []int) { return eventsGzipPages(1_000_000) })

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
			cpu0 := cputime.Process()
			for b.Loop() {
				for i, body := range bodies {
					if out, err = dec.fn(out, body, sizes[i]); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(len(bodies)), "pages")
		})
	}
}

// TestGzipEventsPages checks the codec against the klauspost reader on
// every gzip page of a 100,000-row events table (pages of 24,576 rows, as in
// the 1M-row one).
func TestGzipEventsPages(t *testing.T) {
	bodies, sizes := eventsGzipPages(100_000)
	codec, err := compress.Lookup(format.Gzip)
	if err != nil {
		t.Fatal(err)
	}
	for i, body := range bodies {
		got, err := codec.Decode(nil, body, sizes[i])
		if err != nil {
			t.Fatalf("page %d: %v", i, err)
		}
		want, err := compress.KlauspostGunzip(nil, body, sizes[i])
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("page %d differs (%v)", i, err)
		}
	}
}

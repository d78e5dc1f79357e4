package writer

import (
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// splitmix64 is the benchmark tables' deterministic generator.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// eventsTable builds the events table of BENCHMARKS.md: ts sorted over
// about 90 days from 2023-11-10, user_id uniform in [1, 499997], category
// one of 10 words, amount in cents within [0.09, 3714.81], flag 50/50.
func eventsTable(n int) (*schema.Schema, []*vector.Vector, int64) {
	sch, err := NewSchema(
		Timestamp("ts", Micros, true).Required(),
		Int32("user_id").Required(),
		String("category").Required(),
		Double("amount").Required(),
		Bool("flag").Required(),
	)
	if err != nil {
		panic(err)
	}
	words := []string{"books", "music", "games", "garden", "tools", "toys", "food", "sports", "health", "travel"}
	rng := splitmix64(42)
	ts := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	user := &vector.Vector{Kind: vector.Int32, Len: n, Int32s: make([]int32, n)}
	cat := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: make([]int32, 1, n+1)}
	amount := &vector.Vector{Kind: vector.Float64, Len: n, Float64s: make([]float64, n)}
	flag := &vector.Vector{Kind: vector.Bool, Len: n, Bools: make([]bool, n)}
	start := time.Date(2023, 11, 10, 0, 0, 0, 0, time.UTC).UnixMicro()
	span := int64(90 * 24 * time.Hour / time.Microsecond)
	var raw int64
	for i := range n {
		ts.Int64s[i] = start + span*int64(i)/int64(n) + int64(rng.next()%1000)
		user.Int32s[i] = int32(1 + rng.next()%499997)
		w := words[rng.next()%10]
		cat.Data = append(cat.Data, w...)
		cat.Offsets = append(cat.Offsets, int32(len(cat.Data)))
		amount.Float64s[i] = float64(9+rng.next()%(371481-9+1)) / 100
		flag.Bools[i] = rng.next()&1 == 1
		raw += 8 + 4 + int64(len(w)) + 8 + 1
	}
	// Sorted: the jitter above may break ties out of order.
	for i := 1; i < n; i++ {
		if ts.Int64s[i] < ts.Int64s[i-1] {
			ts.Int64s[i] = ts.Int64s[i-1]
		}
	}
	return sch, []*vector.Vector{ts, user, cat, amount, flag}, raw
}

func BenchmarkWriteEvents(b *testing.B) {
	const rows = 1_000_000
	sch, cols, raw := eventsTable(rows)
	codecs := []struct {
		name  string
		codec format.CompressionCodec
		level int
	}{
		{"none", format.Uncompressed, 0},
		{"snappy", format.Snappy, 0},
		{"zstd", format.Zstd, 3},
		{"gzip", format.Gzip, 6},
		{"lz4_raw", format.LZ4Raw, 0},
	}
	for _, c := range codecs {
		b.Run(c.name, func(b *testing.B) {
			var buf Buffer
			opts := []Option{WithCompression(c.codec), WithRowGroupRows(rows)}
			if c.level != 0 {
				opts = append(opts, WithCompressionLevel(c.level))
			}
			write := func() {
				buf.Reset()
				w, err := New(&buf, sch, opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := w.WriteBatch(cols); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			write() // grows the in-memory sink once, outside the timing
			b.SetBytes(raw)
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				w, err := New(&buf, sch, opts...)
				if err != nil {
					b.Fatal(err)
				}
				if err := w.WriteBatch(cols); err != nil {
					b.Fatal(err)
				}
				if err := w.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(buf.Size()), "file-bytes")
		})
	}
}

package scan

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/events"
)

// BenchmarkFilteredCount counts the events (1M rows) with ts >= a cutoff
// that keeps about 5% of them: BENCHMARKS.md's filtered count.
func BenchmarkFilteredCount(b *testing.B) {
	path := writeEvents(b, 1_000_000, 1_000_000, 1)
	cutoff := time.UnixMicro(events.Start + int64(events.SpanDays)*86400e6*95/100).UTC()
	for _, threads := range []int{1, 2} {
		b.Run(map[int]string{1: "threads=1", 2: "threads=2"}[threads], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tbl, err := Open(path, Options{})
				if err != nil {
					b.Fatal(err)
				}
				s, err := tbl.Scan(context.Background(), Request{Columns: []string{}, Filter: Compare{"ts", Ge, cutoff}, Threads: threads})
				if err != nil {
					b.Fatal(err)
				}
				n := 0
				for {
					bt, err := s.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n += bt.NumRows
				}
				s.Close()
				tbl.Close()
				if n < 40_000 || n > 60_000 {
					b.Fatalf("%d rows", n)
				}
			}
		})
	}
}

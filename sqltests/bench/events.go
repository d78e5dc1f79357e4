// Package bench runs the workloads of BENCHMARKS.md against carquet and
// its peers (arrow-go, parquet-go, DuckDB through duckdb-go) in the same
// process and run, interleaved, and reports medians, ratios, file sizes,
// peak memory and charts. cmd/carquet-bench is its command line.
package bench

import (
	"math"
	"time"
)

// Categories are the ten words of the category column.
var Categories = []string{"books", "games", "music", "garden", "toys", "food", "tools", "sports", "travel", "health"}

// Start is 2023-11-10T00:00:00Z; timestamps span about 90 days.
var Start = time.Date(2023, 11, 10, 0, 0, 0, 0, time.UTC)

const spanDays = 90

// Events is the events table in columns.
type Events struct {
	N        int
	TS       []int64 // microseconds since the epoch, ascending
	UserID   []int32 // uniform in [1, 499997]
	Category []uint8 // index into Categories
	Amount   []float64
	Flag     []bool
}

// splitmix64 is the PRNG of BENCHMARKS.md.
type splitmix64 uint64

func (s *splitmix64) next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Generate builds n rows from a fixed seed.
func Generate(n int) *Events {
	e := &Events{N: n, TS: make([]int64, n), UserID: make([]int32, n), Category: make([]uint8, n),
		Amount: make([]float64, n), Flag: make([]bool, n)}
	r := splitmix64(20231110)
	start := Start.UnixMicro()
	span := int64(spanDays) * 86400 * 1e6
	step := span / int64(max(n, 1))
	for i := 0; i < n; i++ {
		// evenly spaced plus jitter below one step: sorted ascending
		e.TS[i] = start + int64(i)*step + int64(r.next()%uint64(max(step, 1)))
		e.UserID[i] = int32(1 + r.next()%499997)
		e.Category[i] = uint8(r.next() % uint64(len(Categories)))
		cents := 9 + r.next()%(371481-9+1)
		e.Amount[i] = float64(cents) / 100
		e.Flag[i] = r.next()&1 == 1
	}
	return e
}

// Cutoff is the ts threshold that about 5% of rows reach.
func (e *Events) Cutoff() int64 {
	if e.N == 0 {
		return 0
	}
	return e.TS[e.N-e.N/20]
}

// AmountSum is the sum of the amount column, for checking what readers return.
func (e *Events) AmountSum() float64 {
	s := 0.0
	for _, a := range e.Amount {
		s += a
	}
	return s
}

// Want is what a full read of the events must return.
func (e *Events) Want() Result {
	r := Result{Rows: int64(e.N), AmountSum: e.AmountSum()}
	for i := 0; i < e.N; i++ {
		r.TSSum += e.TS[i]
		r.UserSum += int64(e.UserID[i])
		r.CatBytes += int64(len(Categories[e.Category[i]]))
		if e.Flag[i] {
			r.Flags++
		}
	}
	return r
}

// close reports whether two float sums agree up to summation order.
func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-6*math.Max(1, math.Abs(a))
}

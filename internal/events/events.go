// Package events generates the events table of ../shared/BENCHMARKS.md:
// a deterministic table (splitmix64, fixed seed) used by benchmarks, the
// pqsql demo and tests.
package events

import (
	"math"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// Categories are the ten words of the category column.
var Categories = []string{"books", "games", "music", "garden", "toys", "food", "tools", "sports", "travel", "health"}

// Start is 2023-11-10T00:00:00Z in microseconds; timestamps span ~90 days.
const (
	Start    = int64(1699574400) * 1e6
	SpanDays = 90
)

// SplitMix64 is the PRNG the benchmarks agree on.
type SplitMix64 uint64

// Next returns the next 64 random bits.
func (s *SplitMix64) Next() uint64 {
	*s += 0x9e3779b97f4a7c15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Schema is the events table's schema.
func Schema() (*schema.Schema, error) {
	return writer.NewSchema(
		writer.Timestamp("ts", writer.Micros, true).Required(),
		writer.Int32("user_id").Required(),
		writer.String("category").Required(),
		writer.Double("amount").Required(),
		writer.Bool("flag").Required(),
	)
}

// Generate returns n rows as columns (ts, user_id, category, amount, flag).
func Generate(n int, seed uint64) []*vector.Vector {
	rng := SplitMix64(seed)
	ts := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	uid := &vector.Vector{Kind: vector.Int32, Len: n, Int32s: make([]int32, n)}
	cat := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: make([]int32, 1, n+1)}
	amt := &vector.Vector{Kind: vector.Float64, Len: n, Float64s: make([]float64, n)}
	flag := &vector.Vector{Kind: vector.Bool, Len: n, Bools: make([]bool, n)}
	span := int64(SpanDays) * 86400 * 1e6
	for i := 0; i < n; i++ {
		// Sorted ascending: evenly spaced plus jitter smaller than a step.
		step := span / int64(max(n, 1))
		ts.Int64s[i] = Start + int64(i)*step + int64(rng.Next()%uint64(max(step, 1)))
		uid.Int32s[i] = int32(1 + rng.Next()%499997)
		c := Categories[rng.Next()%uint64(len(Categories))]
		cat.Data = append(cat.Data, c...)
		cat.Offsets = append(cat.Offsets, int32(len(cat.Data)))
		cents := 9 + rng.Next()%(371481-9+1)
		amt.Float64s[i] = math.Round(float64(cents)) / 100
		flag.Bools[i] = rng.Next()&1 == 1
	}
	return []*vector.Vector{ts, uid, cat, amt, flag}
}

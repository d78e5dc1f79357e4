package exec

import (
	"testing"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// BenchmarkGroupStrings measures group-id assignment for a string key of
// ten values, the GROUP BY category of the events table.
func BenchmarkGroupStrings(b *testing.B) {
	n := 1 << 16
	c := &vec.Col{T: vec.Type{Kind: vec.KString}, Len: n, Off: make([]int32, n+1)}
	rng := events.SplitMix64(1)
	for i := 0; i < n; i++ {
		c.Data = append(c.Data, events.Categories[rng.Next()%10]...)
		c.Off[i+1] = int32(len(c.Data))
	}
	gids := make([]int32, n)
	g := NewGrouper([]vec.Type{{Kind: vec.KString}})
	b.SetBytes(int64(n))
	for b.Loop() {
		g.Assign([]*vec.Col{c}, n, gids)
	}
}

func BenchmarkGroupInts(b *testing.B) {
	n := 1 << 16
	c := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: n, I: make([]int64, n)}
	rng := events.SplitMix64(1)
	for i := range c.I {
		c.I[i] = int64(rng.Next() % 1000)
	}
	gids := make([]int32, n)
	g := NewGrouper([]vec.Type{{Kind: vec.KInt}})
	b.SetBytes(int64(n))
	for b.Loop() {
		g.Assign([]*vec.Col{c}, n, gids)
	}
}

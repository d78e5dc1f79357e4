package exec

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPairSet checks the set against a map over pairs that repeat, grow
// the table several times, and take extreme values.
func TestPairSet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	type pair struct {
		g int32
		v int64
	}
	var s PairSet
	want := map[pair]bool{}
	for i := range 50000 {
		p := pair{int32(r.IntN(300)), int64(r.IntN(400)) - 200}
		switch i % 97 {
		case 0:
			p.v = math.MinInt64
		case 1:
			p.v = math.MaxInt64
		case 2:
			p.g = -1
		}
		if got := s.Add(p.g, p.v); got != !want[p] {
			t.Fatalf("add(%d, %d) = %v after %d pairs", p.g, p.v, got, i)
		}
		want[p] = true
	}
	if s.n != len(want) {
		t.Errorf("%d pairs, want %d", s.n, len(want))
	}
}

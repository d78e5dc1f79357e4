package function

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPairSet checks the set against a map over pairs that repeat and
// grow the table several times: narrow pairs only, then pairs that
// move the set to general slots part way (extreme values, a negative
// group), with the narrow pairs it held still found.
func TestPairSet(t *testing.T) {
	type pair struct {
		g int32
		v int64
	}
	for _, widenAt := range []int{-1, 0, 3000, 40000} {
		r := rand.New(rand.NewPCG(5, uint64(widenAt+2)))
		var s PairSet
		want := map[pair]bool{}
		for i := range 60000 {
			p := pair{int32(r.IntN(3000)), int64(r.IntN(400)) - 200}
			if i%5 == 0 {
				p.v = int64(r.Uint32()) - math.MaxUint32/2 // all 32 bits
			}
			if widenAt >= 0 && i >= widenAt {
				switch i % 97 {
				case 0:
					p.v = math.MinInt64
				case 1:
					p.v = math.MaxInt64
				case 2:
					p.g = -1
				case 3:
					p.v = 1 << 40
				}
			}
			if got := s.Add(p.g, p.v); got != !want[p] {
				t.Fatalf("widen at %d: Add(%d, %d) = %v after %d pairs", widenAt, p.g, p.v, got, i)
			}
			want[p] = true
		}
		if s.Len() != len(want) {
			t.Errorf("widen at %d: %d pairs, want %d", widenAt, s.Len(), len(want))
		}
		if s.wide != (widenAt >= 0) {
			t.Errorf("widen at %d: wide %v", widenAt, s.wide)
		}
		for p := range want {
			if s.Add(p.g, p.v) {
				t.Fatalf("widen at %d: (%d, %d) lost", widenAt, p.g, p.v)
			}
		}
	}
}

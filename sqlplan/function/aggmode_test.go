package function

import (
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The typed mode answers as the general one (modeAcc) on random batches
// with many ties, groups and growth of the table: the most frequent
// value, the first seen of equally frequent ones, NULLs skipped, NULL for
// a group without values.
func TestModeIntsAsGeneral(t *testing.T) {
	tInt := vec.Type{Kind: vec.KInt}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, spread := range []int64{3, 50, 5000} {
		typed, general := NewAccumulator(&AggCall{Fn: "mode", T: tInt}), Accumulator(&modeAcc{t: tInt})
		if _, ok := typed.(*modeIntAcc); !ok {
			t.Fatalf("mode of BIGINT: %T", typed)
		}
		const ng = 40 // the last group gets no rows
		for range 5 {
			n := 1000
			c := &vec.Col{T: tInt, Len: n, I: make([]int64, n)}
			gids := make([]int32, n)
			for i := range n {
				gids[i] = int32(rng.IntN(ng - 1))
				c.I[i] = rng.Int64N(spread) - spread/2
				if rng.IntN(10) == 0 {
					c.SetNull(i)
				}
			}
			typed.Update(gids, ng-1, c)
			general.Update(gids, ng-1, c)
		}
		got, want := typed.Result(ng), general.Result(ng)
		for g := range ng {
			if got.Get(g) != want.Get(g) {
				t.Errorf("spread %d, group %d: %v, want %v", spread, g, got.Get(g), want.Get(g))
			}
		}
		if !got.IsNull(ng - 1) {
			t.Errorf("spread %d: a group without rows has %v", spread, got.Get(ng-1))
		}
	}
}

// The first seen of equally frequent values wins, across batches.
func TestModeIntsTies(t *testing.T) {
	tInt := vec.Type{Kind: vec.KInt}
	acc := NewAccumulator(&AggCall{Fn: "mode", T: tInt})
	acc.Update([]int32{0, 0, 1}, 2, &vec.Col{T: tInt, Len: 3, I: []int64{7, 5, 9}})
	acc.Update([]int32{0, 0, 1}, 2, &vec.Col{T: tInt, Len: 3, I: []int64{5, 7, 8}})
	r := acc.Result(2)
	if r.Get(0) != int64(7) || r.Get(1) != int64(9) {
		t.Errorf("ties: %v %v, want 7 9", r.Get(0), r.Get(1))
	}
}

// BenchmarkMode: mode of BIGINTs, 8192 rows in 1000 groups of about 50
// distinct values each, typed and general.
func BenchmarkMode(b *testing.B) {
	tInt := vec.Type{Kind: vec.KInt}
	gids, x := benchGroups(8192, 1000)
	for i := range x {
		x[i] %= 50
	}
	c := &vec.Col{T: tInt, Len: len(x), I: x}
	for name, acc := range map[string]Accumulator{"typed": &modeIntAcc{t: tInt}, "general": &modeAcc{t: tInt}} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				acc.Update(gids, 1000, c)
			}
		})
	}
}

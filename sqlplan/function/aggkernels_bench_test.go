package function

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

func benchGroups(n, ng int) ([]int32, []int64) {
	rng := rand.New(rand.NewPCG(1, 2))
	gids := make([]int32, n)
	x := make([]int64, n)
	for i := range gids {
		gids[i] = int32(rng.IntN(ng))
		x[i] = rng.Int64N(1e10)
	}
	return gids, x
}

func BenchmarkSumKernels(b *testing.B) {
	gids, x := benchGroups(8192, 4)
	sum := make([]num.Int128, 4)
	seen := make([]bool, 4)
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			for i, g := range gids {
				s := &sum[g]
				lo, c := bits.Add64(s.Lo, uint64(x[i]), 0)
				s.Hi += x[i]>>63 + int64(c)
				s.Lo = lo
				seen[g] = true
			}
		}
	})
	var part []int64
	b.Run("lanes", func(b *testing.B) {
		for b.Loop() {
			part, _ = LaneSums(part, seen, gids, x, 4)
		}
	})
	b.Run("seen", func(b *testing.B) {
		for b.Loop() {
			for _, g := range gids {
				seen[g] = true
			}
		}
	})
	b.Run("Sum128", func(b *testing.B) {
		for b.Loop() {
			Sum128(x)
		}
	})
}

// BenchmarkArgMax: arg_max(x, k) of BIGINTs over 8192 rows in 1000
// groups, keys random.
func BenchmarkArgMax(b *testing.B) {
	gids, k := benchGroups(8192, 1000)
	_, x := benchGroups(8192, 1)
	tInt := vec.Type{Kind: vec.KInt}
	kc, xc := &vec.Col{T: tInt, Len: len(k), I: k}, &vec.Col{T: tInt, Len: len(x), I: x}
	acc := NewAccumulator(&AggCall{Fn: "arg_max", T: tInt, Arg2T: tInt}).(PairAccumulator)
	for b.Loop() {
		acc.Update2(gids, 1000, xc, kc)
	}
}

// BenchmarkLast: last of BIGINTs over 8192 rows in 1000 groups, typed
// and general.
func BenchmarkLast(b *testing.B) {
	tInt := vec.Type{Kind: vec.KInt}
	gids, x := benchGroups(8192, 1000)
	c := &vec.Col{T: tInt, Len: len(x), I: x}
	for name, acc := range map[string]Accumulator{"typed": newLast(&AggCall{T: tInt}), "general": &lastAcc{t: tInt}} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				acc.Update(gids, 1000, c)
			}
		})
	}
}

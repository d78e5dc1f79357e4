package function

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/num"
)

// TestSumDecimalNarrowToWide checks that SUM of decimals, which keeps its
// sums in int64s until one would leave them, gets every sum right when the
// move to 128 bits happens: at the first batch, mid-batch (in the row
// loop, in the lane kernels and for one group), after reserve, and when a
// batch of 128-bit values follows int64 ones. The reference is big
// integers.
func TestSumDecimalNarrowToWide(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 18))
	wide := vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: 2}
	for iter := 0; iter < 400; iter++ {
		ng := []int{1, 3, 50, 3000}[rng.IntN(4)]
		sum := &sumDecAcc{t: wide}
		if rng.IntN(2) == 0 {
			sum.Reserve(rng.IntN(2 * ng))
		}
		want := make([]*big.Int, ng)
		add := func(g int32, x *big.Int) {
			if want[g] == nil {
				want[g] = new(big.Int)
			}
			want[g].Add(want[g], x)
		}
		for batch := 0; batch < 5; batch++ {
			n := rng.IntN(4000)
			gids := make([]int32, n)
			for i := range gids {
				gids[i] = int32(rng.IntN(ng))
			}
			if rng.IntN(6) == 0 {
				// 128-bit values: the sums are checked from here on.
				c := &vec.Col{T: wide, Len: n, H: make([]num.Int128, n)}
				for i := range c.H {
					c.H[i] = num.Int128{Hi: rng.Int64N(1<<40) - 1<<39, Lo: rng.Uint64()}
					add(gids[i], c.H[i].Big())
				}
				sum.Update(gids, ng, c)
				continue
			}
			c := &vec.Col{T: wide, Len: n, I: make([]int64, n)}
			if rng.IntN(3) == 0 {
				c.Null = make([]bool, n)
			}
			// Mostly small values, so that the sums stay narrow for a
			// while; now and then one near the int64 limit, which drives a
			// sum out of int64 at some row.
			for i := range c.I {
				c.I[i] = rng.Int64N(2000) - 1000
				if rng.IntN(2000) == 0 {
					c.I[i] = math.MaxInt64 - rng.Int64N(1000)
					if rng.IntN(2) == 0 {
						c.I[i] = math.MinInt64 + rng.Int64N(1000)
					}
				}
				if c.Null != nil && rng.IntN(4) == 0 {
					c.Null[i] = true
					continue
				}
				add(gids[i], big.NewInt(c.I[i]))
			}
			sum.Update(gids, ng, c)
		}
		got := sum.Result(ng)
		for g := 0; g < ng; g++ {
			switch {
			case want[g] == nil:
				if !got.IsNull(g) {
					t.Fatalf("iteration %d: group %d has no value but sums to %v", iter, g, got.Decimal(g))
				}
			case got.IsNull(g) || got.Decimal(g).Unscaled.Cmp(want[g]) != 0:
				t.Fatalf("iteration %d (%d groups, widened %v): group %d sums to %v, want %s", iter, ng, sum.widened, g, got.Decimal(g), want[g])
			}
		}
	}
}

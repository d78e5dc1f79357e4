package function

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestSumDecimalKernels checks SUM and AVG of decimals and COUNT(*), fed
// batches of every shape the kernels tell apart (one group, few groups,
// many groups; with and without nulls; magnitudes that fit a batch's
// int64 partial sums and magnitudes that do not; odd lengths), against
// sums kept in big integers.
func TestSumDecimalKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	dec := vec.Type{Kind: vec.KDecimal, Prec: 18, Scale: 2}
	for iter := 0; iter < 300; iter++ {
		ng := []int{1, 2, 3, 4, 37, 5000}[rng.IntN(6)]
		wide := vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: 2}
		sum := &sumDecAcc{t: wide}
		avg := &avgExactAcc{sum: sumDecAcc{t: wide}}
		cnt := &countAcc{star: true}
		want := make([]*big.Int, ng)
		counts := make([]int64, ng)
		perGroup := make([]int64, ng) // rows, NULL or not
		for batch := 0; batch < 4; batch++ {
			n := rng.IntN(9000)
			gids := make([]int32, n)
			c := &vec.Col{T: dec, Len: n, I: make([]int64, n)}
			nulls := rng.IntN(3) == 0
			if nulls {
				c.Null = make([]bool, n)
			}
			limit := []int64{1000, 1e15, math.MaxInt64}[rng.IntN(3)]
			for i := range gids {
				gids[i] = int32(rng.IntN(ng))
				perGroup[gids[i]]++
				c.I[i] = rng.Int64N(limit) - limit/2
				if nulls && rng.IntN(5) == 0 {
					c.Null[i] = true
					continue
				}
				g := gids[i]
				if want[g] == nil {
					want[g] = new(big.Int)
				}
				want[g].Add(want[g], big.NewInt(c.I[i]))
				counts[g]++
			}
			sum.Update(gids, ng, c)
			avg.Update(gids, ng, c)
			cnt.Update(gids, ng, c)
		}
		sums, avgs, rows := sum.Result(ng), avg.Result(ng), cnt.Result(ng)
		for g := 0; g < ng; g++ {
			if rows.I[g] != perGroup[g] {
				t.Fatalf("iteration %d: COUNT(*) of group %d is %d, want %d", iter, g, rows.I[g], perGroup[g])
			}
		}
		for g := 0; g < ng; g++ {
			if want[g] == nil {
				if !sums.IsNull(g) || !avgs.IsNull(g) {
					t.Fatalf("iteration %d: group %d has no value but its sum or average is not NULL", iter, g)
				}
				continue
			}
			got := sums.Decimal(g).Unscaled
			if got.Cmp(want[g]) != 0 {
				t.Fatalf("iteration %d: group %d sums to %s, want %s", iter, g, got, want[g])
			}
			q, _ := new(big.Rat).SetFrac(want[g], new(big.Int).Mul(big.NewInt(counts[g]), big.NewInt(100))).Float64()
			if avgs.F[g] != q {
				t.Fatalf("iteration %d: group %d averages %v, want %v", iter, g, avgs.F[g], q)
			}
		}
	}
}

// TestSumSeesEveryLane checks that a group whose only row is in the last
// of the lanes of LaneSums gets a sum, not NULL.
func TestSumSeesEveryLane(t *testing.T) {
	wide := vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: 2}
	for at := 0; at < 4; at++ {
		gids := make([]int32, 64)
		gids[at] = 1
		c := &vec.Col{T: wide, Len: 64, I: make([]int64, 64)}
		c.I[at] = 5
		sum := &sumDecAcc{t: wide}
		sum.Update(gids, 2, c)
		r := sum.Result(2)
		if r.IsNull(1) || r.Decimal(1).Unscaled.Int64() != 5 {
			t.Fatalf("a group whose one row is row %d sums to %v, want 5", at, r.Decimal(1))
		}
	}
}

package function

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/num"
)

// TestQuotient checks Quotient against big.Rat's correctly rounded
// quotient over sums, counts and scales of every size, the ones past 64
// bits (the big-number path) included.
func TestQuotient(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(sum num.Int128, n int64, scale int) {
		t.Helper()
		den := new(big.Int).Mul(big.NewInt(n), num.Pow10(scale).Big())
		want, _ := new(big.Rat).SetFrac(sum.Big(), den).Float64()
		if got := Quotient(sum, n, scale); got != want {
			t.Fatalf("Quotient(%s, %d, %d) = %v, want %v", sum, n, scale, got, want)
		}
	}
	for i := 0; i < 200000; i++ {
		var sum num.Int128
		switch i % 4 {
		case 0:
			sum = num.FromInt64(r.Int64N(1<<20) - 1<<19)
		case 1:
			sum = num.FromInt64(int64(r.Uint64()))
		case 2:
			sum = num.FromUint64(r.Uint64())
			if r.IntN(2) == 0 {
				sum = sum.Neg()
			}
		default:
			sum = num.Int128{Hi: int64(r.Uint64()) >> r.IntN(64), Lo: r.Uint64()}
		}
		n := r.Int64N(1<<uint(1+r.IntN(40))) + 1
		check(sum, n, r.IntN(25))
	}
	for _, n := range []int64{1, 3, 7, 1 << 40, 1<<62 + 1} {
		check(num.FromUint64(^uint64(0)), n, 0)
		check(num.FromUint64(^uint64(0)).Neg(), n, 2)
		check(num.FromInt64(1), n, 18)
		check(num.Int128{}, n, 4)
	}
}

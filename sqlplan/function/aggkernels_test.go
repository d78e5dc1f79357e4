package function

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestLaneSums: the lane kernels' sums and counts per group equal sums
// added row by row, over odd lengths (the rows past the last full set of
// lanes) and group counts; sums that could leave int64 are refused.
func TestLaneSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var part []int64
	for iter := 0; iter < 200; iter++ {
		ng, n := 1+rng.IntN(9), rng.IntN(300)
		gids, x := make([]int32, n), make([]int64, n)
		want, wantN := make([]int64, ng), make([]int64, ng)
		for i := range gids {
			gids[i], x[i] = int32(rng.IntN(ng)), rng.Int64N(1e12)-5e11
			want[gids[i]] += x[i]
			wantN[gids[i]]++
		}
		seen := make([]bool, ng)
		var ok bool
		part, ok = LaneSums(part, seen, gids, x, ng)
		if !ok {
			t.Fatalf("n=%d: sums of 40-bit values refused", n)
		}
		for g := range want {
			if part[g] != want[g] || seen[g] != (wantN[g] > 0) {
				t.Fatalf("n=%d ng=%d group %d: sum %d seen %v, want %d (%d rows)", n, ng, g, part[g], seen[g], want[g], wantN[g])
			}
		}
		counts := make([]int64, ng)
		CountRows(counts, nil, gids, ng)
		for g := range wantN {
			if counts[g] != wantN[g] {
				t.Fatalf("n=%d ng=%d group %d: count %d, want %d", n, ng, g, counts[g], wantN[g])
			}
		}
	}
	if _, ok := LaneSums(nil, make([]bool, 2), []int32{0, 1, 0}, []int64{math.MaxInt64 / 2, 1, math.MaxInt64 / 2}, 2); ok {
		t.Error("a sum past int64 was not refused")
	}
}

// TestSum128: the exact sum of int64s past int64's range, both signs.
func TestSum128(t *testing.T) {
	x := []int64{math.MaxInt64, math.MaxInt64, 5, math.MinInt64, math.MinInt64, math.MinInt64, -7}
	want := new(big.Int)
	for _, v := range x {
		want.Add(want, big.NewInt(v))
	}
	if got := Sum128(x).Big(); got.Cmp(want) != 0 {
		t.Errorf("Sum128 = %v, want %v", got, want)
	}
	if FewGroups(1, 1000) || !FewGroups(4, 1000) || FewGroups(100, 1000) {
		t.Error("FewGroups: one group, or more groups than the lanes pay for, chose the lanes")
	}
}

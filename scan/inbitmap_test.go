package scan

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/vector"
)

// TestInIntsBatchBitmap: a dense key set (kept as a bitmap) answers IN and
// NOT IN for INT32 and INT64 columns as Has does, at the ends of its range
// and far outside it (the extremes of int64, where a difference wraps).
func TestInIntsBatchBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var keys []int64
	for k := int64(1000); k < 5000; k++ {
		if rng.IntN(3) == 0 {
			keys = append(keys, k)
		}
	}
	for _, base := range []int64{0, math.MaxInt64 - 10_000, math.MinInt64 + 10} {
		shifted := make([]int64, len(keys))
		for i, k := range keys {
			shifted[i] = base + k
		}
		set := intset.New(shifted)
		if _, _, _, ok := set.Bitmap(); !ok {
			t.Fatalf("base %d: the set is not a bitmap", base)
		}
		lo, hi, _ := set.Range()
		vals := []int64{lo, hi, lo - 1, hi + 1, math.MinInt64, math.MaxInt64, 0, -1}
		for range 1000 {
			vals = append(vals, base+rng.Int64N(6000))
		}
		for _, not := range []bool{false, true} {
			v := &vector.Vector{Kind: vector.Int64, Int64s: vals}
			truth := make(vector.Bitmap, (len(vals)+63)/64)
			inIntsBatch(set, v, len(vals), truth, not)
			for i, x := range vals {
				if got, want := truth[i>>6]>>(i&63)&1 == 1, set.Has(x) != not; got != want {
					t.Fatalf("base %d, not %v: %d gives %v, want %v", base, not, x, got, want)
				}
			}
		}
	}
	// INT32 columns.
	set := intset.New(keys)
	var vals32 []int32
	for range 1000 {
		vals32 = append(vals32, int32(rng.IntN(6000))-500)
	}
	vals32 = append(vals32, math.MinInt32, math.MaxInt32)
	v := &vector.Vector{Kind: vector.Int32, Int32s: vals32}
	truth := make(vector.Bitmap, (len(vals32)+63)/64)
	inIntsBatch(set, v, len(vals32), truth, false)
	for i, x := range vals32 {
		if got, want := truth[i>>6]>>(i&63)&1 == 1, set.Has(int64(x)); got != want {
			t.Fatalf("INT32 %d gives %v, want %v", x, got, want)
		}
	}
}

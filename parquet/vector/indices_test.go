package vector

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIndices checks Indices against a bit-by-bit loop: bitmaps of odd
// lengths, sparse, dense and with whole words set, bits past n set (they
// must be ignored), appended after what dst holds.
func TestIndices(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 500; iter++ {
		n := rng.IntN(700)
		b := NewBitmap(n+64, false)
		density := rng.IntN(4)
		for i := 0; i < n+64; i++ {
			if density == 3 || rng.IntN(3) < density {
				b.Set(i)
			}
		}
		prefix := []int32{-7, -8}[:rng.IntN(3)]
		want := slices.Clone(prefix)
		for i := 0; i < n; i++ {
			if b.Get(i) {
				want = append(want, int32(i))
			}
		}
		if got := b.Indices(slices.Clone(prefix), n); !slices.Equal(got, want) {
			t.Fatalf("n %d: %v, want %v", n, got, want)
		}
	}
}

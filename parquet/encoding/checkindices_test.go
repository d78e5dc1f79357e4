package encoding

import "testing"

// TestCheckIndicesEveryPosition puts one index out of range (too large,
// or negative) at every position of batches of odd lengths, so that the
// range kernel's lanes and its tail must catch it; in-range batches must
// pass.
func TestCheckIndicesEveryPosition(t *testing.T) {
	for n := 1; n <= 13; n++ {
		ok := make([]int32, n)
		for i := range ok {
			ok[i] = int32(i % 5)
		}
		if err := CheckIndices(ok, 5); err != nil {
			t.Fatalf("length %d: %v", n, err)
		}
		for at := 0; at < n; at++ {
			for _, bad := range []int32{5, 1 << 30, -1} {
				x := append([]int32(nil), ok...)
				x[at] = bad
				if err := CheckIndices(x, 5); err == nil {
					t.Fatalf("length %d: index %d at %d passed", n, bad, at)
				}
			}
		}
	}
}

package vec

import (
	"cmp"
	"slices"
	"testing"
)

// TestCompareBits: bit strings order by their padding to whole bytes,
// then bit by bit with a prefix first (DuckDB's order, as its sort of
// these values gives it).
func TestCompareBits(t *testing.T) {
	ordered := []string{"00000000", "000", "111", "0000000011", "01", "10", "0", "1", "111111110"}
	for i := range ordered {
		for j := range ordered {
			want := cmp.Compare(i, j)
			if got := sign(CompareBits([]byte(ordered[i]), []byte(ordered[j]))); got != want {
				t.Errorf("CompareBits(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
			if got := sign(CompareBitText(ordered[i], ordered[j])); got != want {
				t.Errorf("CompareBitText(%s, %s) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
	if got := sign(CompareStrings(Type{Kind: KString}, []byte("0"), []byte("00000000"))); got != -1 {
		t.Errorf("a VARCHAR compares bytewise: got %d", got)
	}
	if got := sign(CompareStrings(Type{Kind: KString, Bit: true}, []byte("0"), []byte("00000000"))); got != 1 {
		t.Errorf("a BIT compares as CompareBits: got %d", got)
	}
	shuffled := slices.Clone(ordered)
	slices.Reverse(shuffled)
	slices.SortFunc(shuffled, CompareBitText)
	if !slices.Equal(shuffled, ordered) {
		t.Errorf("sorted %v, want %v", shuffled, ordered)
	}
}

func sign(c int) int { return cmp.Compare(c, 0) }

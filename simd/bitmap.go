package simd

import "math/bits"

// Selection bitmaps are []uint64 words, bit i of the bitmap being bit i%64
// of word i/64. The helpers below compile to POPCNT and plain 64-bit
// logic, which is already as fast as memory allows, so they have no
// assembly.

// CountOnes returns the number of set bits in bitmap.
func CountOnes(bitmap []uint64) int {
	n := 0
	for _, w := range bitmap {
		n += bits.OnesCount64(w)
	}
	return n
}

// And sets dst[i] = a[i] & b[i] for i < len(dst).
func And(dst, a, b []uint64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] & b[i]
	}
}

// Or sets dst[i] = a[i] | b[i] for i < len(dst).
func Or(dst, a, b []uint64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] | b[i]
	}
}

// AndNot sets dst[i] = a[i] &^ b[i] for i < len(dst).
func AndNot(dst, a, b []uint64) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := range dst {
		dst[i] = a[i] &^ b[i]
	}
}

// AppendSetBits appends to dst the positions of the set bits among the
// first n bits of bitmap, turning a selection bitmap into a selection
// vector.
func AppendSetBits(dst []int32, bitmap []uint64, n int) []int32 {
	for w := 0; w*64 < n; w++ {
		word := bitmap[w]
		if rem := n - w*64; rem < 64 {
			word &= 1<<uint(rem) - 1
		}
		for word != 0 {
			dst = append(dst, int32(w*64+bits.TrailingZeros64(word)))
			word &= word - 1
		}
	}
	return dst
}

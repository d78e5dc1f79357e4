package simd

import (
	"encoding/binary"
	"math"
)

// The portable versions of every kernel. They are the reference the
// assembly is tested against, and what runs under -tags purego or on other
// architectures. Callers have checked lengths already.

func unpackInt32Generic(dst []int32, src []byte, bitWidth uint) {
	if bitWidth == 0 {
		clear(dst)
		return
	}
	mask := uint64(1)<<bitWidth - 1
	i, bit := 0, uint(0)
	// While a whole 8-byte word is readable, one load covers any value of
	// up to 32 bits at any bit offset (shift <= 7, 7+32 <= 64).
	for ; i < len(dst); i++ {
		b := bit >> 3
		if b+8 > uint(len(src)) {
			break
		}
		w := binary.LittleEndian.Uint64(src[b:])
		dst[i] = int32(uint32((w >> (bit & 7)) & mask))
		bit += bitWidth
	}
	if i < len(dst) {
		// The last few values, from a zero-padded copy of the last bytes
		// (fewer than 8 remain, so the bit offset stays below 64).
		var pad [24]byte
		copy(pad[:], src[bit>>3:])
		bit &= 7
		for ; i < len(dst); i++ {
			w := binary.LittleEndian.Uint64(pad[(bit>>3)&15:])
			dst[i] = int32(uint32((w >> (bit & 7)) & mask))
			bit += bitWidth
		}
	}
}

func unpackInt64Generic(dst []int64, src []byte, bitWidth uint) {
	if bitWidth == 0 {
		clear(dst)
		return
	}
	mask := ^uint64(0) >> (64 - bitWidth)
	i, bit := 0, uint(0)
	for ; i < len(dst); i++ {
		b := bit >> 3
		if b+9 > uint(len(src)) {
			break
		}
		s := bit & 7
		w := binary.LittleEndian.Uint64(src[b:]) >> s
		if s+bitWidth > 64 {
			w |= uint64(src[b+8]) << (64 - s)
		}
		dst[i] = int64(w & mask)
		bit += bitWidth
	}
	if i < len(dst) {
		// Fewer than 9 bytes remain, so the bit offset stays below 80;
		// read them from a zero-padded copy.
		var pad [40]byte
		copy(pad[:], src[bit>>3:])
		bit &= 7
		for ; i < len(dst); i++ {
			b, s := (bit>>3)&31, bit&7
			w := binary.LittleEndian.Uint64(pad[b:]) >> s
			if s+bitWidth > 64 {
				w |= uint64(pad[b+8]) << (64 - s)
			}
			dst[i] = int64(w & mask)
			bit += bitWidth
		}
	}
}

func gatherUint32Generic(dst []uint32, dict []uint32, idx []int32) int {
	dst = dst[:len(idx)]
	for i, x := range idx {
		if uint(uint32(x)) >= uint(len(dict)) {
			return i
		}
		dst[i] = dict[x]
	}
	return len(idx)
}

func gatherUint64Generic(dst []uint64, dict []uint64, idx []int32) int {
	dst = dst[:len(idx)]
	for i, x := range idx {
		if uint(uint32(x)) >= uint(len(dict)) {
			return i
		}
		dst[i] = dict[x]
	}
	return len(idx)
}

func gatherUint128Generic(dst [][16]byte, dict [][16]byte, idx []int32) int {
	dst = dst[:len(idx)]
	for i, x := range idx {
		if uint(uint32(x)) >= uint(len(dict)) {
			return i
		}
		dst[i] = dict[x]
	}
	return len(idx)
}

func bssEncode4Generic(dst, src []byte) {
	n := len(src) / 4
	s0, s1, s2, s3 := dst[0:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
	src = src[:4*n]
	for i := range s0 {
		v := src[4*i : 4*i+4 : 4*i+4]
		s0[i], s1[i], s2[i], s3[i] = v[0], v[1], v[2], v[3]
	}
}

func bssDecode4Generic(dst, src []byte, stride int) {
	n := len(dst) / 4
	s0, s1, s2, s3 := src[0:n], src[stride:stride+n], src[2*stride:2*stride+n], src[3*stride:3*stride+n]
	dst = dst[:4*n]
	for i := range s0 {
		v := dst[4*i : 4*i+4 : 4*i+4]
		v[0], v[1], v[2], v[3] = s0[i], s1[i], s2[i], s3[i]
	}
}

func bssEncode8Generic(dst, src []byte) {
	n := len(src) / 8
	s0, s1, s2, s3 := dst[0:n], dst[n:2*n], dst[2*n:3*n], dst[3*n:4*n]
	s4, s5, s6, s7 := dst[4*n:5*n], dst[5*n:6*n], dst[6*n:7*n], dst[7*n:8*n]
	src = src[:8*n]
	for i := range s0 {
		v := src[8*i : 8*i+8 : 8*i+8]
		s0[i], s1[i], s2[i], s3[i] = v[0], v[1], v[2], v[3]
		s4[i], s5[i], s6[i], s7[i] = v[4], v[5], v[6], v[7]
	}
}

func bssDecode8Generic(dst, src []byte, stride int) {
	n := len(dst) / 8
	s0, s1, s2, s3 := src[0:n], src[stride:stride+n], src[2*stride:2*stride+n], src[3*stride:3*stride+n]
	s4, s5, s6, s7 := src[4*stride:4*stride+n], src[5*stride:5*stride+n], src[6*stride:6*stride+n], src[7*stride:7*stride+n]
	dst = dst[:8*n]
	for i := range s0 {
		v := dst[8*i : 8*i+8 : 8*i+8]
		v[0], v[1], v[2], v[3] = s0[i], s1[i], s2[i], s3[i]
		v[4], v[5], v[6], v[7] = s4[i], s5[i], s6[i], s7[i]
	}
}

func deltaInt32Generic(v []int32, last, minDelta int32) int32 {
	acc := uint32(last)
	md := uint32(minDelta)
	for i := range v {
		acc += uint32(v[i]) + md
		v[i] = int32(acc)
	}
	return int32(acc)
}

func deltaInt64Generic(v []int64, last, minDelta int64) int64 {
	acc := uint64(last)
	md := uint64(minDelta)
	for i := range v {
		acc += uint64(v[i]) + md
		v[i] = int64(acc)
	}
	return int64(acc)
}

func minmaxInt32Generic(v []int32) (lo, hi int32) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return lo, hi
}

func minmaxInt64Generic(v []int64) (lo, hi int64) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo = min(lo, x)
		hi = max(hi, x)
	}
	return lo, hi
}

func minmaxFloat32Generic(v []float32) (lo, hi float32, ok, hasNaN bool) {
	lo, hi = float32(math.Inf(1)), float32(math.Inf(-1))
	for _, x := range v {
		if x != x {
			hasNaN = true
			continue
		}
		ok = true
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	if !ok {
		return 0, 0, false, hasNaN
	}
	return lo, hi, ok, hasNaN
}

func minmaxFloat64Generic(v []float64) (lo, hi float64, ok, hasNaN bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if x != x {
			hasNaN = true
			continue
		}
		ok = true
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	if !ok {
		return 0, 0, false, hasNaN
	}
	return lo, hi, ok, hasNaN
}

// compareGeneric fills the selection words for v[i] op c. It is generic
// over the element type; the op switch sits outside the loops.
func compareGeneric[T int32 | int64 | float32 | float64](dst []uint64, v []T, op CmpOp, c T) {
	switch op {
	case Eq:
		cmpLoop(dst, v, func(x T) bool { return x == c })
	case Ne:
		cmpLoop(dst, v, func(x T) bool { return x != c })
	case Lt:
		cmpLoop(dst, v, func(x T) bool { return x < c })
	case Le:
		cmpLoop(dst, v, func(x T) bool { return x <= c })
	case Gt:
		cmpLoop(dst, v, func(x T) bool { return x > c })
	case Ge:
		cmpLoop(dst, v, func(x T) bool { return x >= c })
	}
}

func cmpLoop[T int32 | int64 | float32 | float64](dst []uint64, v []T, pred func(T) bool) {
	for w := 0; w*64 < len(v); w++ {
		chunk := v[w*64 : min(len(v), w*64+64)]
		var word uint64
		for j, x := range chunk {
			if pred(x) {
				word |= 1 << uint(j)
			}
		}
		dst[w] = word
	}
}

func compareInt32Generic(dst []uint64, v []int32, op CmpOp, c int32) { compareGeneric(dst, v, op, c) }
func compareInt64Generic(dst []uint64, v []int64, op CmpOp, c int64) { compareGeneric(dst, v, op, c) }
func compareFloat32Generic(dst []uint64, v []float32, op CmpOp, c float32) {
	compareGeneric(dst, v, op, c)
}
func compareFloat64Generic(dst []uint64, v []float64, op CmpOp, c float64) {
	compareGeneric(dst, v, op, c)
}

//go:build amd64 && gc && !purego && !noasm

package simd

import (
	"math"
	"unsafe"
)

// Min/max keep two accumulators per result over 16 values per iteration
// (int32: VPMINSD/VPMAXSD; int64: compare and blend, or VPMINSQ with
// AVX-512; floats: VMINPS/VMAXPS with the accumulator as the operand they
// return when the value is NaN, so NaNs never enter, and an unordered
// compare ORed into a NaN flag). The tail goes through the portable code.

//go:noescape
func minmaxInt32AVX2(v *int32, n int) (lo, hi int32)

//go:noescape
func minmaxInt64AVX2(v *int64, n int) (lo, hi int64)

//go:noescape
func minmaxInt64AVX512(v *int64, n int) (lo, hi int64)

//go:noescape
func minmaxFloat32AVX2(v *float32, n int) (lo, hi float32, nan bool)

//go:noescape
func minmaxFloat64AVX2(v *float64, n int) (lo, hi float64, nan bool)

func minmaxInt32Asm(v []int32) (int32, int32) {
	n := len(v) &^ 15
	if n == 0 {
		return minmaxInt32Generic(v)
	}
	lo, hi := minmaxInt32AVX2(unsafe.SliceData(v), n)
	if n < len(v) {
		l, h := minmaxInt32Generic(v[n:])
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi
}

func minmaxInt64With(kernel func(*int64, int) (int64, int64)) func([]int64) (int64, int64) {
	return func(v []int64) (int64, int64) {
		n := len(v) &^ 15
		if n == 0 {
			return minmaxInt64Generic(v)
		}
		lo, hi := kernel(unsafe.SliceData(v), n)
		if n < len(v) {
			l, h := minmaxInt64Generic(v[n:])
			lo, hi = min(lo, l), max(hi, h)
		}
		return lo, hi
	}
}

func minmaxFloat32Asm(v []float32) (float32, float32, bool, bool) {
	n := len(v) &^ 15
	if n == 0 {
		return minmaxFloat32Generic(v)
	}
	lo, hi, nan := minmaxFloat32AVX2(unsafe.SliceData(v), n)
	if n < len(v) {
		l, h, ok, nan2 := minmaxFloat32Generic(v[n:])
		if ok {
			if l < lo {
				lo = l
			}
			if h > hi {
				hi = h
			}
		}
		nan = nan || nan2
	}
	if lo > hi { // only NaNs: the accumulators kept their +Inf/-Inf start
		return 0, 0, false, nan
	}
	return lo, hi, true, nan
}

func minmaxFloat64Asm(v []float64) (float64, float64, bool, bool) {
	n := len(v) &^ 15
	if n == 0 {
		return minmaxFloat64Generic(v)
	}
	lo, hi, nan := minmaxFloat64AVX2(unsafe.SliceData(v), n)
	if n < len(v) {
		l, h, ok, nan2 := minmaxFloat64Generic(v[n:])
		if ok {
			if l < lo {
				lo = l
			}
			if h > hi {
				hi = h
			}
		}
		nan = nan || nan2
	}
	if lo > hi {
		return 0, 0, false, nan
	}
	return lo, hi, true, nan
}

var (
	posInf32 = float32(math.Inf(1))
	negInf32 = float32(math.Inf(-1))
	posInf64 = math.Inf(1)
	negInf64 = math.Inf(-1)
)

//go:build amd64 && gc && !purego && !noasm

package simd

import "unsafe"

// Delta prefix sums with AVX2: each register's own prefix sum is computed
// with in-lane byte shifts and a cross-half add, off the critical path;
// the running total then costs one add per register.

//go:noescape
func deltaInt32AVX2(v *int32, n int, last, minDelta int32) int32

//go:noescape
func deltaInt64AVX2(v *int64, n int, last, minDelta int64) int64

func deltaInt32Asm(v []int32, last, minDelta int32) int32 {
	n := len(v) &^ 7
	if n > 0 {
		last = deltaInt32AVX2(unsafe.SliceData(v), n, last, minDelta)
	}
	if n < len(v) {
		last = deltaInt32Generic(v[n:], last, minDelta)
	}
	return last
}

func deltaInt64Asm(v []int64, last, minDelta int64) int64 {
	n := len(v) &^ 3
	if n > 0 {
		last = deltaInt64AVX2(unsafe.SliceData(v), n, last, minDelta)
	}
	if n < len(v) {
		last = deltaInt64Generic(v[n:], last, minDelta)
	}
	return last
}

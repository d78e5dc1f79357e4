//go:build amd64 && gc && !purego && !noasm

package simd

import (
	"math"
	"unsafe"
)

// Dictionary gather: indices are checked 8 at a time against the
// dictionary size with vector compares, then gathered with VPGATHERDD /
// VPGATHERDQ (16-byte entries are copied with scalar loads). The assembly
// stops before the first group of 8 holding a bad index; the portable
// version then finds the exact position.

//go:noescape
func gather32AVX2(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int

//go:noescape
func gather64AVX2(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int

//go:noescape
func gather128AVX2(dst *[16]byte, dict *[16]byte, dictLen int, idx *int32, n int) int

func gatherUint32AVX2(dst, dict []uint32, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint32Generic(dst, dict, idx)
	}
	n := gather32AVX2(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint32Generic(dst[n:], dict, idx[n:])
}

func gatherUint64AVX2(dst, dict []uint64, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint64Generic(dst, dict, idx)
	}
	n := gather64AVX2(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint64Generic(dst[n:], dict, idx[n:])
}

func gatherUint128AVX2(dst, dict [][16]byte, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint128Generic(dst, dict, idx)
	}
	n := gather128AVX2(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint128Generic(dst[n:], dict, idx[n:])
}

//go:noescape
func gather32AVX512(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int

//go:noescape
func gather64AVX512(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int

func gatherUint32AVX512(dst, dict []uint32, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 16 {
		return gatherUint32AVX2(dst, dict, idx)
	}
	n := gather32AVX512(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint32AVX2(dst[n:], dict, idx[n:])
}

func gatherUint64AVX512(dst, dict []uint64, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 16 {
		return gatherUint64AVX2(dst, dict, idx)
	}
	n := gather64AVX512(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint64AVX2(dst[n:], dict, idx[n:])
}

//go:noescape
func gather64Scalar(dst *uint64, dict *uint64, dictLen int, idx *int32, n int) int

func gatherUint64Scalar(dst, dict []uint64, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint64Generic(dst, dict, idx)
	}
	n := gather64Scalar(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint64Generic(dst[n:], dict, idx[n:])
}

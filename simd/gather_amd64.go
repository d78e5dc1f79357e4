//go:build amd64 && gc && !purego && !noasm

package simd

import (
	"math"
	"unsafe"
)

// Dictionary gather: indices are checked 8 (or 16) at a time against the
// dictionary size with vector compares, then the values are copied with
// unrolled scalar loads and stores, which on the CPUs measured beat
// VPGATHERDD/VPGATHERDQ; with AVX-512, dictionaries small enough to sit in
// two registers are looked up with VPERMI2D/VPERMI2Q instead, and with
// AVX2 up to 32 four-byte or 16 eight-byte entries with VPERMD and
// blends. The assembly
// stops before the first group holding a bad index; the portable version
// then finds the exact position.

//go:noescape
func gather128AVX2(dst *[16]byte, dict *[16]byte, dictLen int, idx *int32, n int) int

func gatherUint128AVX2(dst, dict [][16]byte, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint128Generic(dst, dict, idx)
	}
	n := gather128AVX2(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint128Generic(dst[n:], dict, idx[n:])
}

//go:noescape
func gather32Perm512(dst *uint32, tab *[32]uint32, dictLen int, idx *int32, n int) int

//go:noescape
func gather64Perm512(dst *uint64, tab *[16]uint64, dictLen int, idx *int32, n int) int

// gatherUint32AVX512 keeps dictionaries of up to 32 entries in two
// registers and looks values up with VPERMI2D, no memory gather at all;
// larger ones go through the scalar kernel, which beats VPGATHERDD here.
func gatherUint32AVX512(dst, dict []uint32, idx []int32) int {
	return gatherUint32InRegisters(dst, dict, idx, 16, gather32Perm512)
}

// gatherUint32InRegisters runs kernel, which holds a dictionary of up to
// 32 entries in registers and takes indices step at a time, when the
// dictionary fits and there is at least a step of indices; otherwise the
// scalar kernel.
func gatherUint32InRegisters(dst, dict []uint32, idx []int32, step int, kernel func(dst *uint32, tab *[32]uint32, dictLen int, idx *int32, n int) int) int {
	if len(dict) == 0 || len(dict) > 32 || len(idx) < step {
		return gatherUint32Scalar(dst, dict, idx)
	}
	var tab [32]uint32
	copy(tab[:], dict)
	n := kernel(unsafe.SliceData(dst), &tab, len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint32Generic(dst[n:], dict, idx[n:])
}

// gatherUint64AVX512 is the same for up to 16 eight-byte entries.
func gatherUint64AVX512(dst, dict []uint64, idx []int32) int {
	if len(dict) == 0 || len(dict) > 16 || len(idx) < 16 {
		return gatherUint64Scalar(dst, dict, idx)
	}
	var tab [16]uint64
	copy(tab[:], dict)
	n := gather64Perm512(unsafe.SliceData(dst), &tab, len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint64Generic(dst[n:], dict, idx[n:])
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

//go:noescape
func gather32Scalar(dst *uint32, dict *uint32, dictLen int, idx *int32, n int) int

func gatherUint32Scalar(dst, dict []uint32, idx []int32) int {
	if len(dict) == 0 || len(dict) > math.MaxInt32 || len(idx) < 8 {
		return gatherUint32Generic(dst, dict, idx)
	}
	n := gather32Scalar(unsafe.SliceData(dst), unsafe.SliceData(dict), len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint32Generic(dst[n:], dict, idx[n:])
}

//go:noescape
func gather32PermAVX2(dst *uint32, tab *[32]uint32, dictLen int, idx *int32, n int) int

// gatherUint32AVX2 looks dictionaries of up to 32 entries up in registers
// (VPERMD and blends); larger ones go through the scalar kernel.
func gatherUint32AVX2(dst, dict []uint32, idx []int32) int {
	return gatherUint32InRegisters(dst, dict, idx, 8, gather32PermAVX2)
}

//go:noescape
func gather64PermAVX2(dst *uint64, tab *[32]uint32, dictLen int, idx *int32, n int) int

// gatherUint64AVX2 looks dictionaries of up to 16 eight-byte entries up in
// registers, as a table of their low halves and one of their high halves;
// larger ones go through the scalar kernel.
func gatherUint64AVX2(dst, dict []uint64, idx []int32) int {
	if len(dict) == 0 || len(dict) > 16 || len(idx) < 8 {
		return gatherUint64Scalar(dst, dict, idx)
	}
	var tab [32]uint32
	for i, v := range dict {
		tab[i], tab[16+i] = uint32(v), uint32(v>>32)
	}
	n := gather64PermAVX2(unsafe.SliceData(dst), &tab, len(dict), unsafe.SliceData(idx), len(idx))
	return n + gatherUint64Generic(dst[n:], dict, idx[n:])
}

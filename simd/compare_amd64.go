//go:build amd64 && gc && !purego && !noasm

package simd

import "unsafe"

// Compare kernels produce one 64-bit selection word per 64 values. AVX2
// compares 8 (or 4) lanes at a time and gathers the sign bits with
// VMOVMSKPS/PD; AVX-512 compares into mask registers and joins them with
// KUNPCK into one 64-bit mask. Integer <>, <= and >= are computed as the
// complement of =, > and < (the xor argument). Floats use the IEEE
// predicates directly, so NaN compares false except for <>. The last
// partial word goes through the portable code.

// Integer predicates the assembly knows.
const (
	asmEq = 0
	asmGt = 1
	asmLt = 2
)

func intPredicate(op CmpOp) (pred int, xor uint64) {
	switch op {
	case Eq:
		return asmEq, 0
	case Ne:
		return asmEq, ^uint64(0)
	case Lt:
		return asmLt, 0
	case Le:
		return asmGt, ^uint64(0)
	case Gt:
		return asmGt, 0
	default: // Ge
		return asmLt, ^uint64(0)
	}
}

//go:noescape
func cmpInt32AVX2(dst *uint64, v *int32, words int, c int32, pred int, xor uint64)

//go:noescape
func cmpInt64AVX2(dst *uint64, v *int64, words int, c int64, pred int, xor uint64)

//go:noescape
func cmpFloat32AVX2(dst *uint64, v *float32, words int, c float32, op int)

//go:noescape
func cmpFloat64AVX2(dst *uint64, v *float64, words int, c float64, op int)

//go:noescape
func cmpInt32AVX512(dst *uint64, v *int32, words int, c int32, op int)

//go:noescape
func cmpInt64AVX512(dst *uint64, v *int64, words int, c int64, op int)

//go:noescape
func cmpFloat32AVX512(dst *uint64, v *float32, words int, c float32, op int)

//go:noescape
func cmpFloat64AVX512(dst *uint64, v *float64, words int, c float64, op int)

func compareInt32Asm(dst []uint64, v []int32, op CmpOp, c int32) {
	words := len(v) / 64
	if words > 0 {
		pred, xor := intPredicate(op)
		cmpInt32AVX2(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, pred, xor)
	}
	if 64*words < len(v) {
		compareInt32Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareInt64Asm(dst []uint64, v []int64, op CmpOp, c int64) {
	words := len(v) / 64
	if words > 0 {
		pred, xor := intPredicate(op)
		cmpInt64AVX2(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, pred, xor)
	}
	if 64*words < len(v) {
		compareInt64Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareFloat32Asm(dst []uint64, v []float32, op CmpOp, c float32) {
	words := len(v) / 64
	if words > 0 {
		cmpFloat32AVX2(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareFloat32Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareFloat64Asm(dst []uint64, v []float64, op CmpOp, c float64) {
	words := len(v) / 64
	if words > 0 {
		cmpFloat64AVX2(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareFloat64Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareInt32AVX512(dst []uint64, v []int32, op CmpOp, c int32) {
	words := len(v) / 64
	if words > 0 {
		cmpInt32AVX512(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareInt32Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareInt64AVX512(dst []uint64, v []int64, op CmpOp, c int64) {
	words := len(v) / 64
	if words > 0 {
		cmpInt64AVX512(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareInt64Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareFloat32AVX512(dst []uint64, v []float32, op CmpOp, c float32) {
	words := len(v) / 64
	if words > 0 {
		cmpFloat32AVX512(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareFloat32Generic(dst[words:], v[64*words:], op, c)
	}
}

func compareFloat64AVX512(dst []uint64, v []float64, op CmpOp, c float64) {
	words := len(v) / 64
	if words > 0 {
		cmpFloat64AVX512(unsafe.SliceData(dst), unsafe.SliceData(v), words, c, int(op))
	}
	if 64*words < len(v) {
		compareFloat64Generic(dst[words:], v[64*words:], op, c)
	}
}

package simd

// CmpOp is a comparison operator for the Compare kernels.
type CmpOp uint8

const (
	Eq CmpOp = iota // ==
	Ne              // !=
	Lt              // <
	Le              // <=
	Gt              // >
	Ge              // >=
)

func (op CmpOp) String() string {
	switch op {
	case Eq:
		return "="
	case Ne:
		return "<>"
	case Lt:
		return "<"
	case Le:
		return "<="
	case Gt:
		return ">"
	case Ge:
		return ">="
	}
	return "CmpOp(?)"
}

// PackedLen is the number of bytes that n values of bitWidth bits occupy
// when bit-packed back to back.
func PackedLen(n int, bitWidth uint) int { return int((uint64(n)*uint64(bitWidth) + 7) / 8) }

func checkUnpack(n, srcLen int, bitWidth, max uint) {
	if bitWidth > max {
		panic("simd: bit width out of range")
	}
	if PackedLen(n, bitWidth) > srcLen {
		panic("simd: unpack source too short")
	}
}

// UnpackInt32 unpacks len(dst) values of bitWidth (0..32) bits each, packed
// LSB first as in Parquet's RLE/bit-packing hybrid, from the start of src.
// Values are zero-extended (a 32-bit value lands as its int32 bit pattern).
// src must hold at least PackedLen(len(dst), bitWidth) bytes.
func UnpackInt32(dst []int32, src []byte, bitWidth uint) {
	checkUnpack(len(dst), len(src), bitWidth, 32)
	if len(dst) == 0 {
		return
	}
	impl.unpackInt32(dst, src, bitWidth)
}

// UnpackInt64 is UnpackInt32 for bit widths 0..64 into int64.
func UnpackInt64(dst []int64, src []byte, bitWidth uint) {
	checkUnpack(len(dst), len(src), bitWidth, 64)
	if len(dst) == 0 {
		return
	}
	impl.unpackInt64(dst, src, bitWidth)
}

// GatherUint32 sets dst[i] = dict[idx[i]] for each i, stopping at the
// first index that is negative or not below len(dict). It returns the
// number of values gathered, len(idx) when every index was valid. len(dst)
// must be at least len(idx).
func GatherUint32(dst []uint32, dict []uint32, idx []int32) int {
	if len(dst) < len(idx) {
		panic("simd: gather destination too short")
	}
	if len(idx) == 0 {
		return 0
	}
	return impl.gatherUint32(dst[:len(idx)], dict, idx)
}

// GatherUint64 is GatherUint32 for 8-byte values.
func GatherUint64(dst []uint64, dict []uint64, idx []int32) int {
	if len(dst) < len(idx) {
		panic("simd: gather destination too short")
	}
	if len(idx) == 0 {
		return 0
	}
	return impl.gatherUint64(dst[:len(idx)], dict, idx)
}

// GatherUint128 is GatherUint32 for 16-byte values.
func GatherUint128(dst [][16]byte, dict [][16]byte, idx []int32) int {
	if len(dst) < len(idx) {
		panic("simd: gather destination too short")
	}
	if len(idx) == 0 {
		return 0
	}
	return impl.gatherUint128(dst[:len(idx)], dict, idx)
}

// ByteStreamSplitEncode4 scatters the n = len(src)/4 four-byte values of
// src into four streams: byte k of value i goes to dst[k*n+i]. len(src)
// must be a multiple of 4 and len(dst) at least len(src).
func ByteStreamSplitEncode4(dst, src []byte) {
	if len(src)%4 != 0 || len(dst) < len(src) {
		panic("simd: bad BYTE_STREAM_SPLIT lengths")
	}
	if len(src) == 0 {
		return
	}
	impl.bssEncode4(dst[:len(src)], src)
}

// ByteStreamSplitEncode8 is ByteStreamSplitEncode4 for 8-byte values.
func ByteStreamSplitEncode8(dst, src []byte) {
	if len(src)%8 != 0 || len(dst) < len(src) {
		panic("simd: bad BYTE_STREAM_SPLIT lengths")
	}
	if len(src) == 0 {
		return
	}
	impl.bssEncode8(dst[:len(src)], src)
}

// ByteStreamSplitDecode4 gathers n = len(dst)/4 four-byte values from four
// streams that start stride bytes apart: byte k of value i is
// src[k*stride+i]. It needs stride >= n and len(src) >= 3*stride+n.
func ByteStreamSplitDecode4(dst, src []byte, stride int) {
	n := len(dst) / 4
	if len(dst)%4 != 0 || stride < n || len(src) < 3*stride+n {
		panic("simd: bad BYTE_STREAM_SPLIT lengths")
	}
	if n == 0 {
		return
	}
	impl.bssDecode4(dst, src, stride)
}

// ByteStreamSplitDecode8 is ByteStreamSplitDecode4 for 8-byte values; it
// needs len(src) >= 7*stride+n.
func ByteStreamSplitDecode8(dst, src []byte, stride int) {
	n := len(dst) / 8
	if len(dst)%8 != 0 || stride < n || len(src) < 7*stride+n {
		panic("simd: bad BYTE_STREAM_SPLIT lengths")
	}
	if n == 0 {
		return
	}
	impl.bssDecode8(dst, src, stride)
}

// DeltaPrefixSumInt32 turns the unpacked deltas of a DELTA_BINARY_PACKED
// miniblock into values, in place: v[i] = last + sum over k<=i of
// (v[k] + minDelta), in wrapping 32-bit arithmetic. It returns the new last
// value (last itself when v is empty).
func DeltaPrefixSumInt32(v []int32, last, minDelta int32) int32 {
	if len(v) == 0 {
		return last
	}
	return impl.deltaInt32(v, last, minDelta)
}

// DeltaPrefixSumInt64 is DeltaPrefixSumInt32 in wrapping 64-bit arithmetic.
func DeltaPrefixSumInt64(v []int64, last, minDelta int64) int64 {
	if len(v) == 0 {
		return last
	}
	return impl.deltaInt64(v, last, minDelta)
}

// MinMaxInt32 returns the smallest and largest value of v; ok is false
// when v is empty.
func MinMaxInt32(v []int32) (min, max int32, ok bool) {
	if len(v) == 0 {
		return 0, 0, false
	}
	min, max = impl.minmaxInt32(v)
	return min, max, true
}

// MinMaxInt64 is MinMaxInt32 for int64.
func MinMaxInt64(v []int64) (min, max int64, ok bool) {
	if len(v) == 0 {
		return 0, 0, false
	}
	min, max = impl.minmaxInt64(v)
	return min, max, true
}

// MinMaxFloat32 returns the smallest and largest non-NaN value of v. ok is
// false when v holds no such value; hasNaN reports whether v holds a NaN.
// Zeros of either sign compare equal, so when the minimum or maximum is a
// zero its sign is unspecified (statistics writers normalise it anyway).
func MinMaxFloat32(v []float32) (min, max float32, ok, hasNaN bool) {
	if len(v) == 0 {
		return 0, 0, false, false
	}
	return impl.minmaxFloat32(v)
}

// MinMaxFloat64 is MinMaxFloat32 for float64.
func MinMaxFloat64(v []float64) (min, max float64, ok, hasNaN bool) {
	if len(v) == 0 {
		return 0, 0, false, false
	}
	return impl.minmaxFloat64(v)
}

func checkCompare(n, words int, op CmpOp) {
	if op > Ge {
		panic("simd: bad comparison operator")
	}
	if words < (n+63)/64 {
		panic("simd: selection bitmap too short")
	}
}

// CompareInt32 sets bit i of dst (bit i%64 of word i/64) to v[i] op c and
// clears the bits past len(v) in the last word it writes. dst must have at
// least (len(v)+63)/64 words; words after those are not touched.
func CompareInt32(dst []uint64, v []int32, op CmpOp, c int32) {
	checkCompare(len(v), len(dst), op)
	if len(v) == 0 {
		return
	}
	impl.compareInt32(dst, v, op, c)
}

// CompareInt64 is CompareInt32 for int64.
func CompareInt64(dst []uint64, v []int64, op CmpOp, c int64) {
	checkCompare(len(v), len(dst), op)
	if len(v) == 0 {
		return
	}
	impl.compareInt64(dst, v, op, c)
}

// CompareFloat32 is CompareInt32 for float32 with IEEE semantics: a NaN on
// either side makes every operator false except Ne, which is true.
func CompareFloat32(dst []uint64, v []float32, op CmpOp, c float32) {
	checkCompare(len(v), len(dst), op)
	if len(v) == 0 {
		return
	}
	impl.compareFloat32(dst, v, op, c)
}

// CompareFloat64 is CompareFloat32 for float64.
func CompareFloat64(dst []uint64, v []float64, op CmpOp, c float64) {
	checkCompare(len(v), len(dst), op)
	if len(v) == 0 {
		return
	}
	impl.compareFloat64(dst, v, op, c)
}

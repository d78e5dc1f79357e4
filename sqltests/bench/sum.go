package bench

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// The Go contenders' consumers fold the values they read with these, so
// that every one does the same work the same way: in order (the float
// sums are equal bit for bit), with the sum in a register rather than
// in the Result (a store and a load per value, which cost more than
// reading the value).

// sumInts returns acc plus the values of s.
func sumInts[T ~int32 | ~int64](acc int64, s []T) int64 {
	for _, v := range s {
		acc += int64(v)
	}
	return acc
}

// sumFloats returns acc plus the values of s, added in order.
func sumFloats(acc float64, s []float64) float64 {
	for _, v := range s {
		acc += v
	}
	return acc
}

// countTrue counts the true values of bs eight at a time: a Go bool is
// one byte holding 0 or 1, so the population count of eight of them read
// as a word is how many are true. (A branch per value mispredicts half
// the time on random flags; parquet-go's consumer counts its bit-packed
// page the same way, a word at a time.)
func countTrue(bs []bool) int64 {
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(bs))), len(bs))
	n := 0
	for ; len(b) >= 8; b = b[8:] {
		n += bits.OnesCount64(binary.LittleEndian.Uint64(b))
	}
	for _, x := range b {
		n += int(x)
	}
	return int64(n)
}

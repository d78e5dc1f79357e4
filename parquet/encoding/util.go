package encoding

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// nativeLittleEndian lets PLAIN data be copied as memory on little-endian
// machines (all the ones we care about) and decoded value by value on
// others.
var nativeLittleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// extend returns s with n more elements, growing its capacity if needed;
// the new elements are not cleared.
func extend[T any](s []T, n int) []T {
	if cap(s)-len(s) < n {
		ns := make([]T, len(s), len(s)+max(n, len(s)/2, 16))
		copy(ns, s)
		s = ns
	}
	return s[:len(s)+n]
}

// asBytes views the memory of a slice of fixed-size values as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// uvarint reads an unsigned LEB128 value of at most 64 bits.
func uvarint(src []byte, pos int) (v uint64, next int, ok bool) {
	var s uint
	for i := 0; i < 10; i++ {
		if pos >= len(src) {
			return 0, pos, false
		}
		b := src[pos]
		pos++
		if b < 0x80 {
			if i == 9 && b > 1 {
				return 0, pos, false
			}
			return v | uint64(b)<<s, pos, true
		}
		v |= uint64(b&0x7f) << s
		s += 7
	}
	return 0, pos, false
}

func appendUvarint(dst []byte, v uint64) []byte { return binary.AppendUvarint(dst, v) }

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// maxInt32 bounds byte-array offsets, which are int32.
const maxInt32 = math.MaxInt32

package encoding

import (
	"encoding/binary"
	"unsafe"
)

// AppendRLE appends the RLE/bit-packing hybrid encoding of values (each in
// 0..2^bitWidth-1, bitWidth 0..32) to dst, without a length prefix. A run
// of 8 or more equal values becomes an RLE run; everything else is
// bit-packed in groups of 8, the last group padded with zeros (readers stop
// at the value count they know).
func AppendRLE(dst []byte, values []int32, bitWidth int) []byte {
	return appendRLE(dst, values, uint(bitWidth))
}

// AppendRLELevels is AppendRLE for levels.
func AppendRLELevels(dst []byte, levels []int16, bitWidth int) []byte {
	return appendRLE(dst, levels, uint(bitWidth))
}

// AppendRLEBool appends booleans in RLE encoding as data pages store them:
// a 4-byte little-endian length, then the hybrid at bit width 1.
func AppendRLEBool(dst []byte, values []bool) []byte {
	at := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var bytes []uint8
	if len(values) > 0 {
		// A Go bool is one byte holding 0 or 1.
		bytes = unsafe.Slice((*uint8)(unsafe.Pointer(&values[0])), len(values))
	}
	dst = appendRLE(dst, bytes, 1)
	binary.LittleEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	return dst
}

func appendRLE[T int32 | int16 | uint8](dst []byte, vals []T, bw uint) []byte {
	lit := 0 // start of the pending bit-packed values
	i := 0
	for i < len(vals) {
		v := vals[i]
		j := i + 1
		for j < len(vals) && vals[j] == v && j-i < maxRunLength {
			j++
		}
		if j-i < 8 {
			i = j
			continue
		}
		// Complete the pending values to a whole group of 8 with values
		// from the run, so that the bit-packed run ends on a group.
		if n := i - lit; n%8 != 0 {
			i += 8 - n%8
		}
		if i > lit {
			dst = appendBitPackedRun(dst, vals[lit:i], bw)
		}
		lit = i
		if j-i >= 8 {
			dst = appendUvarint(dst, uint64(j-i)<<1)
			for k := uint(0); k < bw; k += 8 {
				dst = append(dst, byte(uint32(v)>>k))
			}
			lit = j
		}
		i = j
	}
	if lit < len(vals) {
		dst = appendBitPackedRun(dst, vals[lit:], bw)
	}
	return dst
}

// appendBitPackedRun appends one bit-packed run of vals, padded with zeros
// to a multiple of 8 values.
func appendBitPackedRun[T int32 | int16 | uint8](dst []byte, vals []T, bw uint) []byte {
	groups := (len(vals) + 7) / 8
	dst = appendUvarint(dst, uint64(groups)<<1|1)
	var buf [64]uint32
	for len(vals) > 0 {
		k := min(len(vals), len(buf))
		for i, v := range vals[:k] {
			buf[i] = uint32(v)
		}
		m := (k + 7) &^ 7
		clear(buf[k:m])
		dst = appendPacked32(dst, buf[:m], bw)
		vals = vals[k:]
	}
	return dst
}

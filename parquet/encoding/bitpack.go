package encoding

import (
	"math/bits"

	"github.com/carquet-go/carquet/simd"
)

// BitWidth is the number of bits needed to store v (0 for 0).
func BitWidth(v uint64) int { return bits.Len64(v) }

// MaxBitWidth is the bit width that levels up to maxLevel, or dictionary
// indices below a dictionary of maxLevel+1 entries, are packed with.
func MaxBitWidth(maxLevel int) int {
	if maxLevel <= 0 {
		return 0
	}
	return bits.Len64(uint64(maxLevel))
}

// DictIndexBitWidth is the bit width of indices into a dictionary of n
// entries.
func DictIndexBitWidth(n int) int { return MaxBitWidth(n - 1) }

// packedRun reads values bit-packed LSB first and can stop and resume at
// any value: data starts at the group of 8 values holding the next value
// (groups of 8 always start on a byte), off is that value's index in the
// group.
type packedRun struct {
	data []byte
	off  int
	bw   uint
	// tmp32 and tmp64 take the group of 8 a resumed read starts inside:
	// on the stack they escaped (the unpack kernels are function
	// variables) and cost an allocation per resumed read.
	tmp32 [8]int32
	tmp64 [8]int64
}

func (r *packedRun) reset(data []byte, bw uint) { r.data, r.off, r.bw = data, 0, bw }

// readInt32 fills dst; the caller guarantees the data holds the values.
func (r *packedRun) readInt32(dst []int32) {
	if len(dst) == 0 {
		return
	}
	if r.off != 0 {
		tmp := &r.tmp32
		k := min(8-r.off, len(dst))
		simd.UnpackInt32(tmp[:r.off+k], r.data, r.bw)
		copy(dst, tmp[r.off:r.off+k])
		dst = dst[k:]
		r.advance(k)
		if len(dst) == 0 {
			return
		}
	}
	simd.UnpackInt32(dst, r.data, r.bw)
	r.advance(len(dst))
}

// readInt64 fills dst; the caller guarantees the data holds the values.
func (r *packedRun) readInt64(dst []int64) {
	if len(dst) == 0 {
		return
	}
	if r.off != 0 {
		tmp := &r.tmp64
		k := min(8-r.off, len(dst))
		simd.UnpackInt64(tmp[:r.off+k], r.data, r.bw)
		copy(dst, tmp[r.off:r.off+k])
		dst = dst[k:]
		r.advance(k)
		if len(dst) == 0 {
			return
		}
	}
	simd.UnpackInt64(dst, r.data, r.bw)
	r.advance(len(dst))
}

// readBools fills dst from a run of bit width 1 (RLE booleans) without
// going through int32s; the caller guarantees the data holds the values.
func (r *packedRun) readBools(dst []bool) {
	unpackBools(dst, r.data, r.off)
	r.advance(len(dst))
}

// advance moves past n values.
func (r *packedRun) advance(n int) {
	n += r.off
	r.data = r.data[(n/8)*int(r.bw):]
	r.off = n % 8
}

// appendPacked appends vals bit-packed LSB first at width bw, padding the
// last byte with zeros. Values must fit in bw bits.
func appendPacked32(dst []byte, vals []uint32, bw uint) []byte {
	if bw == 0 || len(vals) == 0 {
		return dst
	}
	var acc uint64
	var n uint
	for _, v := range vals {
		acc |= uint64(v) << n
		n += bw
		for n >= 32 {
			dst = append(dst, byte(acc), byte(acc>>8), byte(acc>>16), byte(acc>>24))
			acc >>= 32
			n -= 32
		}
	}
	for n > 0 {
		dst = append(dst, byte(acc))
		acc >>= 8
		n -= min(n, 8)
	}
	return dst
}

// appendPacked64 is appendPacked32 for values of up to 64 bits.
func appendPacked64(dst []byte, vals []uint64, bw uint) []byte {
	if bw == 0 || len(vals) == 0 {
		return dst
	}
	var acc uint64 // holds n < 64 pending bits
	var n uint
	for _, v := range vals {
		acc |= v << n
		if n+bw >= 64 {
			dst = append(dst, byte(acc), byte(acc>>8), byte(acc>>16), byte(acc>>24),
				byte(acc>>32), byte(acc>>40), byte(acc>>48), byte(acc>>56))
			// The bits of v that did not fit.
			if n == 0 {
				acc = 0
			} else {
				acc = v >> (64 - n)
			}
			n = n + bw - 64
		} else {
			n += bw
		}
	}
	for n > 0 {
		dst = append(dst, byte(acc))
		acc >>= 8
		n -= min(n, 8)
	}
	return dst
}

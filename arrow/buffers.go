package carrow

import (
	"math/bits"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Arrow and carquet agree on the layout of fixed-width values, of byte
// strings (one data buffer plus int32 offsets) and of validity bitmaps
// (bit i of little-endian 64-bit words is byte i/8's bit i%8 on a
// little-endian machine): those buffers are handed over without copying.

// bytesOf views a slice of fixed-width values as bytes (no copy).
func bytesOf[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var z T
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

// buf wraps a slice of fixed-width values as an Arrow buffer (no copy).
func buf[T any](s []T) *memory.Buffer { return memory.NewBufferBytes(bytesOf(s)) }

// bigEndian reports a big-endian machine, where the 64-bit words of a
// vector.Bitmap are not Arrow's byte order.
var bigEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 0
}()

// nullsBitmap packs NULL flags into an Arrow validity bitmap; nil and 0
// when there are none.
func nullsBitmap(null []bool, n int) (*memory.Buffer, int) {
	if null == nil {
		return nil, 0
	}
	words := make([]uint64, (n+63)/64)
	nulls := 0
	for i, isNull := range null[:n] {
		if isNull {
			nulls++
		} else {
			words[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	if nulls == 0 {
		return nil, 0
	}
	return wordsBuf(words), nulls
}

// validBitmap is a vector's validity as an Arrow bitmap, shared where the
// byte order allows.
func validBitmap(v *vector.Vector, n int) (*memory.Buffer, int) {
	if len(v.Valid) == 0 {
		return nil, 0
	}
	valid := v.Valid[:(n+63)/64]
	nulls := n - valid.Count(n)
	if nulls == 0 {
		return nil, 0
	}
	return wordsBuf(valid), nulls
}

func wordsBuf(words []uint64) *memory.Buffer {
	if bigEndian {
		w := make([]uint64, len(words))
		for i, x := range words {
			w[i] = bits.ReverseBytes64(x)
		}
		words = w
	}
	return buf(words)
}

// boolsBitmap packs bools into an Arrow bit-packed buffer.
func boolsBitmap(b []bool) *memory.Buffer {
	words := make([]uint64, (len(b)+63)/64)
	for i, x := range b {
		if x {
			words[i>>6] |= 1 << (uint(i) & 63)
		}
	}
	return wordsBuf(words)
}

// narrow converts int64 values to a narrower integer type.
func narrow[T int8 | int16 | int32 | uint8 | uint16 | uint32](src []int64) []T {
	out := make([]T, len(src))
	for i, x := range src {
		out[i] = T(x)
	}
	return out
}

// convert converts between fixed-width number slices.
func convert[D, S int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64](src []S) []D {
	out := make([]D, len(src))
	for i, x := range src {
		out[i] = D(x)
	}
	return out
}

// rebase returns byte-string offsets that start at 0 and the data they
// cover (shared when they already start at 0).
func rebase(data []byte, off []int32) ([]byte, []int32) {
	if len(off) == 0 {
		return nil, []int32{0}
	}
	if off[0] == 0 {
		return data[:off[len(off)-1]], off
	}
	base := off[0]
	out := make([]int32, len(off))
	for i, o := range off {
		out[i] = o - base
	}
	return data[base:off[len(off)-1]], out
}

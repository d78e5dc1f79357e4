package encoding

import (
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/simd"
)

// bssDecoder decodes BYTE_STREAM_SPLIT INT32, INT64, FLOAT and DOUBLE
// values. The page holds K streams of N bytes, N = len(src)/K.
type bssDecoder[T int32 | int64 | float32 | float64] struct {
	src     []byte
	stride  int
	next    int
	left    int
	scratch []byte
}

func (d *bssDecoder[T]) Reset(src []byte, numValues int) error {
	d.src, d.stride, d.next, d.left = src, 0, 0, 0
	if numValues < 0 {
		return badCount(format.ByteStreamSplit, numValues)
	}
	size := sizeOf[T]()
	if len(src)%size != 0 {
		return corruptf(format.ByteStreamSplit, len(src), "page of %d bytes is not a whole number of %d-byte values", len(src), size)
	}
	if len(src)/size < numValues {
		return corruptf(format.ByteStreamSplit, len(src), "%d values need %d bytes, page has %d", numValues, numValues*size, len(src))
	}
	d.stride, d.left = len(src)/size, numValues
	return nil
}

func (d *bssDecoder[T]) Remaining() int { return d.left }

func (d *bssDecoder[T]) Decode(dst []T, n int) ([]T, error) {
	n = max(0, min(n, d.left))
	at := len(dst)
	dst = extend(dst, n)
	out := dst[at:]
	if nativeLittleEndian {
		bssDecodeInto(asBytes(out), d.src[d.next:], d.stride, sizeOf[T]())
	} else {
		d.scratch = extend(d.scratch[:0], n*sizeOf[T]())
		bssDecodeInto(d.scratch, d.src[d.next:], d.stride, sizeOf[T]())
		decodePlainFixed(out, d.scratch)
	}
	d.next += n
	d.left -= n
	return dst, nil
}

func (d *bssDecoder[T]) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.ByteStreamSplit, n, d.left)
	}
	d.next += n
	d.left -= n
	return nil
}

// bssDecodeInto gathers len(dst)/width values of width bytes from width
// streams stride bytes apart.
func bssDecodeInto(dst, src []byte, stride, width int) {
	switch width {
	case 4:
		simd.ByteStreamSplitDecode4(dst, src, stride)
	case 8:
		simd.ByteStreamSplitDecode8(dst, src, stride)
	default:
		n := len(dst) / width
		for k := 0; k < width; k++ {
			s := src[k*stride : k*stride+n]
			for i, b := range s {
				dst[i*width+k] = b
			}
		}
	}
}

// bssFixedDecoder decodes BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY values.
type bssFixedDecoder struct {
	width  int
	src    []byte
	stride int
	next   int
	left   int
}

func (d *bssFixedDecoder) Width() int { return d.width }

func (d *bssFixedDecoder) Reset(src []byte, numValues int) error {
	d.src, d.stride, d.next, d.left = src, 0, 0, 0
	if numValues < 0 {
		return badCount(format.ByteStreamSplit, numValues)
	}
	if len(src)%d.width != 0 {
		return corruptf(format.ByteStreamSplit, len(src), "page of %d bytes is not a whole number of %d-byte values", len(src), d.width)
	}
	if len(src)/d.width < numValues {
		return corruptf(format.ByteStreamSplit, len(src), "%d values of %d bytes do not fit in %d bytes", numValues, d.width, len(src))
	}
	d.stride, d.left = len(src)/d.width, numValues
	return nil
}

func (d *bssFixedDecoder) Remaining() int { return d.left }

func (d *bssFixedDecoder) Decode(dst []byte, n int) ([]byte, error) {
	n = max(0, min(n, d.left))
	at := len(dst)
	dst = extend(dst, n*d.width)
	bssDecodeInto(dst[at:], d.src[d.next:], d.stride, d.width)
	d.next += n
	d.left -= n
	return dst, nil
}

func (d *bssFixedDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.ByteStreamSplit, n, d.left)
	}
	d.next += n
	d.left -= n
	return nil
}

// appendBSS appends the BYTE_STREAM_SPLIT encoding of the width-byte
// values held back to back in values.
func appendBSS(dst, values []byte, width int) []byte {
	at := len(dst)
	dst = extend(dst, len(values))
	out := dst[at:]
	switch width {
	case 4:
		simd.ByteStreamSplitEncode4(out, values)
	case 8:
		simd.ByteStreamSplitEncode8(out, values)
	default:
		n := len(values) / width
		for k := 0; k < width; k++ {
			s := out[k*n : k*n+n]
			for i := range s {
				s[i] = values[i*width+k]
			}
		}
	}
	return dst
}

func appendBSSFixed[T int32 | int64 | float32 | float64](dst []byte, src []T) []byte {
	if nativeLittleEndian {
		return appendBSS(dst, asBytes(src), sizeOf[T]())
	}
	return appendBSS(dst, appendPlainFixed(nil, src), sizeOf[T]())
}

// AppendByteStreamSplitInt32 appends src in BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplitInt32(dst []byte, src []int32) []byte { return appendBSSFixed(dst, src) }

// AppendByteStreamSplitInt64 appends src in BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplitInt64(dst []byte, src []int64) []byte { return appendBSSFixed(dst, src) }

// AppendByteStreamSplitFloat32 appends src in BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplitFloat32(dst []byte, src []float32) []byte {
	return appendBSSFixed(dst, src)
}

// AppendByteStreamSplitFloat64 appends src in BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplitFloat64(dst []byte, src []float64) []byte {
	return appendBSSFixed(dst, src)
}

// AppendByteStreamSplitFixedLen appends the width-byte values held back to
// back in values in BYTE_STREAM_SPLIT encoding.
func AppendByteStreamSplitFixedLen(dst, values []byte, width int) []byte {
	if width <= 0 {
		return dst
	}
	return appendBSS(dst, values[:len(values)/width*width], width)
}

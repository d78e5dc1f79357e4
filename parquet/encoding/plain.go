package encoding

import (
	"encoding/binary"
	"math"
	"slices"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/format"
)

// fixed is the set of fixed-width physical value types kept in typed
// slices.
type fixed interface {
	int32 | int64 | float32 | float64 | [12]byte
}

func sizeOf[T any]() int {
	var z T
	return int(unsafe.Sizeof(z))
}

// plainDecoder decodes PLAIN INT32, INT64, FLOAT, DOUBLE and INT96 values.
type plainDecoder[T fixed] struct {
	enc  format.Encoding
	src  []byte
	pos  int
	left int
}

func (d *plainDecoder[T]) Reset(src []byte, numValues int) error {
	d.src, d.pos, d.left = src, 0, 0
	if numValues < 0 {
		return badCount(format.Plain, numValues)
	}
	if size := sizeOf[T](); len(src)/size < numValues {
		return corruptf(format.Plain, len(src), "%d values of %d bytes need %d bytes, page has %d", numValues, size, numValues*size, len(src))
	}
	d.left = numValues
	return nil
}

func (d *plainDecoder[T]) Remaining() int { return d.left }

func (d *plainDecoder[T]) Decode(dst []T, n int) ([]T, error) {
	n = max(0, min(n, d.left))
	size := sizeOf[T]()
	at := len(dst)
	dst = extend(dst, n)
	decodePlainFixed(dst[at:], d.src[d.pos:d.pos+n*size])
	d.pos += n * size
	d.left -= n
	return dst, nil
}

func (d *plainDecoder[T]) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.Plain, n, d.left)
	}
	d.pos += n * sizeOf[T]()
	d.left -= n
	return nil
}

// decodePlainFixed fills dst from exactly len(dst)*size little-endian bytes.
func decodePlainFixed[T fixed](dst []T, src []byte) {
	if nativeLittleEndian {
		copy(asBytes(dst), src)
		return
	}
	switch d := any(dst).(type) {
	case []int32:
		for i := range d {
			d[i] = int32(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case []int64:
		for i := range d {
			d[i] = int64(binary.LittleEndian.Uint64(src[8*i:]))
		}
	case []float32:
		for i := range d {
			d[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case []float64:
		for i := range d {
			d[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
		}
	case [][12]byte:
		copy(asBytes(d), src)
	}
}

func appendPlainFixed[T fixed](dst []byte, src []T) []byte {
	if nativeLittleEndian {
		return append(dst, asBytes(src)...)
	}
	switch s := any(src).(type) {
	case []int32:
		for _, v := range s {
			dst = binary.LittleEndian.AppendUint32(dst, uint32(v))
		}
	case []int64:
		for _, v := range s {
			dst = binary.LittleEndian.AppendUint64(dst, uint64(v))
		}
	case []float32:
		for _, v := range s {
			dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(v))
		}
	case []float64:
		for _, v := range s {
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v))
		}
	case [][12]byte:
		dst = append(dst, asBytes(s)...)
	}
	return dst
}

// AppendPlainInt32 appends the PLAIN encoding of src to dst.
func AppendPlainInt32(dst []byte, src []int32) []byte { return appendPlainFixed(dst, src) }

// AppendPlainInt64 appends the PLAIN encoding of src to dst.
func AppendPlainInt64(dst []byte, src []int64) []byte { return appendPlainFixed(dst, src) }

// AppendPlainFloat32 appends the PLAIN encoding of src to dst.
func AppendPlainFloat32(dst []byte, src []float32) []byte { return appendPlainFixed(dst, src) }

// AppendPlainFloat64 appends the PLAIN encoding of src to dst.
func AppendPlainFloat64(dst []byte, src []float64) []byte { return appendPlainFixed(dst, src) }

// AppendPlainInt96 appends the PLAIN encoding of src to dst.
func AppendPlainInt96(dst []byte, src [][12]byte) []byte { return appendPlainFixed(dst, src) }

// AppendPlainFixedLen appends the PLAIN encoding of FIXED_LEN_BYTE_ARRAY
// values, which is the values themselves back to back.
func AppendPlainFixedLen(dst []byte, values []byte) []byte { return append(dst, values...) }

// AppendPlainByteArray appends the PLAIN encoding of the byte arrays
// data[offsets[i]:offsets[i+1]]: each as a 4-byte little-endian length and
// its bytes.
func AppendPlainByteArray(dst []byte, data []byte, offsets []int32) []byte {
	if len(offsets) < 2 {
		return dst
	}
	dst = extend(dst, 4*(len(offsets)-1)+int(offsets[len(offsets)-1]-offsets[0]))[:len(dst)]
	for i := 0; i+1 < len(offsets); i++ {
		v := data[offsets[i]:offsets[i+1]]
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	return dst
}

// AppendPlainBool appends the PLAIN encoding of src: bit-packed, LSB first,
// the last byte padded with zeros.
func AppendPlainBool(dst []byte, src []bool) []byte {
	// Eight booleans (bytes of 0 or 1) at a time: the multiply gathers
	// byte k's low bit into bit k of the top byte — no branch per value,
	// which random flags would mispredict half the time.
	raw := asBytes(src)
	full := len(src) &^ 7
	for i := 0; i < full; i += 8 {
		x := binary.LittleEndian.Uint64(raw[i : i+8])
		dst = append(dst, byte((x*0x0102040810204080)>>56))
	}
	for i := full; i < len(src); i += 8 {
		var b byte
		for j, v := range src[i:min(i+8, len(src))] {
			if v {
				b |= 1 << uint(j)
			}
		}
		dst = append(dst, b)
	}
	return dst
}

// plainBoolDecoder decodes PLAIN BOOLEAN values.
type plainBoolDecoder struct {
	src  []byte
	bit  int
	left int
}

func (d *plainBoolDecoder) Reset(src []byte, numValues int) error {
	d.src, d.bit, d.left = src, 0, 0
	if numValues < 0 {
		return badCount(format.Plain, numValues)
	}
	if (numValues+7)/8 > len(src) {
		return corruptf(format.Plain, len(src), "%d booleans need %d bytes, page has %d", numValues, (numValues+7)/8, len(src))
	}
	d.left = numValues
	return nil
}

func (d *plainBoolDecoder) Remaining() int { return d.left }

func (d *plainBoolDecoder) Decode(dst []bool, n int) ([]bool, error) {
	n = max(0, min(n, d.left))
	at := len(dst)
	dst = extend(dst, n)
	unpackBools(dst[at:], d.src, d.bit)
	d.bit += n
	d.left -= n
	return dst, nil
}

// unpackBools sets out[i] to bit bit+i of src, bits numbered LSB first;
// src holds them. Whole bytes go through spreadBits.
func unpackBools(out []bool, src []byte, bit int) {
	i := 0
	for ; i < len(out) && (bit+i)&7 != 0; i++ {
		out[i] = src[(bit+i)>>3]>>((bit+i)&7)&1 != 0
	}
	if whole := (len(out) - i) / 8; whole > 0 {
		at := (bit + i) >> 3
		spreadBits(out[i:i+8*whole], src[at:at+whole])
		i += 8 * whole
	}
	for ; i < len(out); i++ {
		out[i] = src[(bit+i)>>3]>>((bit+i)&7)&1 != 0
	}
}

// boolBytes[b] is the eight booleans of byte b (bit 0 first) as the bytes
// of a little-endian word: one load and one 8-byte store per input byte
// instead of eight shifts, tests and byte stores.
var boolBytes = func() (t [256]uint64) {
	for b := range t {
		for j := range 8 {
			t[b] |= uint64(b>>j&1) << (8 * j)
		}
	}
	return t
}()

// spreadBits sets out[8k+j] to bit j of src[k]; len(out) is 8*len(src).
// A Go bool is one byte holding 0 or 1, so out is written as bytes.
func spreadBits(out []bool, src []byte) {
	ob := castSlice[byte](out)
	ob = ob[:8*len(src)]
	for k, b := range src {
		binary.LittleEndian.PutUint64(ob[8*k:8*k+8], boolBytes[b])
	}
}

func (d *plainBoolDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.Plain, n, d.left)
	}
	d.bit += n
	d.left -= n
	return nil
}

// plainByteArrayDecoder decodes PLAIN BYTE_ARRAY values.
type plainByteArrayDecoder struct {
	src  []byte
	pos  int
	left int
}

func (d *plainByteArrayDecoder) Reset(src []byte, numValues int) error {
	d.src, d.pos, d.left = src, 0, 0
	if numValues < 0 {
		return badCount(format.Plain, numValues)
	}
	if numValues > len(src)/4 {
		return corruptf(format.Plain, len(src), "%d byte arrays need at least %d bytes, page has %d", numValues, 4*numValues, len(src))
	}
	d.left = numValues
	return nil
}

func (d *plainByteArrayDecoder) Remaining() int { return d.left }

// next returns the bounds of the next value's bytes.
func (d *plainByteArrayDecoder) next() (start, end int, err error) {
	if len(d.src)-d.pos < 4 {
		return 0, 0, corruptf(format.Plain, d.pos, "truncated byte array length")
	}
	l := binary.LittleEndian.Uint32(d.src[d.pos:])
	start = d.pos + 4
	if uint64(l) > uint64(len(d.src)-start) {
		return 0, 0, corruptf(format.Plain, d.pos, "byte array length %d exceeds the %d bytes left", l, len(d.src)-start)
	}
	return start, start + int(l), nil
}

func (d *plainByteArrayDecoder) Decode(data []byte, offsets []int32, n int) ([]byte, []int32, error) {
	n = max(0, min(n, d.left))
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	offsets = extend(offsets, n)[:len(offsets)]
	if n > 0 && d.left > 0 {
		// Room for the values' bytes at once, by their share of what is
		// left of the page (which holds them, with their lengths).
		data = slices.Grow(data, (len(d.src)-d.pos)/d.left*n)
	}
	for i := 0; i < n; i++ {
		start, end, err := d.next()
		if err != nil {
			return data, offsets, err
		}
		if len(data)+end-start > maxInt32 {
			return data, offsets, corruptf(format.Plain, d.pos, "byte array data exceeds 2 GiB")
		}
		data = append(data, d.src[start:end]...)
		offsets = append(offsets, int32(len(data)))
		d.pos = end
		d.left--
	}
	return data, offsets, nil
}

func (d *plainByteArrayDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.Plain, n, d.left)
	}
	for ; n > 0; n-- {
		_, end, err := d.next()
		if err != nil {
			return err
		}
		d.pos = end
		d.left--
	}
	return nil
}

// plainFixedDecoder decodes PLAIN FIXED_LEN_BYTE_ARRAY values.
type plainFixedDecoder struct {
	width int
	src   []byte
	pos   int
	left  int
}

func (d *plainFixedDecoder) Width() int { return d.width }

func (d *plainFixedDecoder) Reset(src []byte, numValues int) error {
	d.src, d.pos, d.left = src, 0, 0
	if numValues < 0 {
		return badCount(format.Plain, numValues)
	}
	if len(src)/d.width < numValues {
		return corruptf(format.Plain, len(src), "%d values of %d bytes do not fit in %d bytes", numValues, d.width, len(src))
	}
	d.left = numValues
	return nil
}

func (d *plainFixedDecoder) Remaining() int { return d.left }

func (d *plainFixedDecoder) Decode(dst []byte, n int) ([]byte, error) {
	n = max(0, min(n, d.left))
	dst = append(dst, d.src[d.pos:d.pos+n*d.width]...)
	d.pos += n * d.width
	d.left -= n
	return dst, nil
}

func (d *plainFixedDecoder) Skip(n int) error {
	if n < 0 || n > d.left {
		return errSkip(format.Plain, n, d.left)
	}
	d.pos += n * d.width
	d.left -= n
	return nil
}

package encoding

import (
	"github.com/carquet-go/carquet/parquet/format"
)

// DeltaLengthByteArrayDecoder decodes DELTA_LENGTH_BYTE_ARRAY values: the
// lengths, DELTA_BINARY_PACKED, then the bytes of all values back to back.
type DeltaLengthByteArrayDecoder struct {
	enc   format.Encoding
	lens  DeltaInt32Decoder
	data  []byte // the values' bytes
	dpos  int
	dbase int // offset of data in the caller's buffer
	lbuf  []int32
}

// Reset locates the lengths and the data; the lengths header must state
// exactly numValues values.
func (d *DeltaLengthByteArrayDecoder) Reset(src []byte, numValues int) error {
	return d.reset(format.DeltaLengthByteArray, src, 0, numValues)
}

func (d *DeltaLengthByteArrayDecoder) reset(enc format.Encoding, src []byte, base, numValues int) error {
	d.enc, d.data, d.dpos, d.dbase = enc, nil, 0, base
	if err := d.lens.c.reset(enc, src, base, numValues, 32, true); err != nil {
		return err
	}
	end, err := d.lens.c.end()
	if err != nil {
		d.lens.c.left = 0
		return err
	}
	d.data, d.dbase = src[end:], base+end
	return nil
}

// Remaining is the number of values not yet read.
func (d *DeltaLengthByteArrayDecoder) Remaining() int { return d.lens.c.left }

// lengths decodes the next k lengths into d.lbuf and checks them; it
// returns their sum.
func (d *DeltaLengthByteArrayDecoder) lengths(k int) (int, error) {
	var err error
	d.lbuf, err = d.lens.Decode(d.lbuf[:0], k)
	if err != nil {
		return 0, err
	}
	sum := 0
	avail := len(d.data) - d.dpos
	for _, l := range d.lbuf {
		if l < 0 {
			return 0, corruptf(d.enc, d.dbase+d.dpos, "negative byte array length %d", l)
		}
		sum += int(l)
		if sum > avail {
			return 0, corruptf(d.enc, d.dbase+d.dpos, "byte array lengths exceed the %d data bytes left", avail)
		}
	}
	return sum, nil
}

// Decode appends up to n values to data and offsets.
func (d *DeltaLengthByteArrayDecoder) Decode(data []byte, offsets []int32, n int) ([]byte, []int32, error) {
	n = max(0, min(n, d.Remaining()))
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	for n > 0 {
		k := min(n, dictBatch)
		sum, err := d.lengths(k)
		if err != nil {
			return data, offsets, err
		}
		if len(data)+sum > maxInt32 {
			return data, offsets, corruptf(d.enc, d.dbase+d.dpos, "byte array data exceeds 2 GiB")
		}
		end := int32(len(data))
		data = append(data, d.data[d.dpos:d.dpos+sum]...)
		d.dpos += sum
		at := len(offsets)
		offsets = extend(offsets, k)
		out := offsets[at:]
		for i, l := range d.lbuf {
			end += l
			out[i] = end
		}
		n -= k
	}
	return data, offsets, nil
}

// Skip passes over n values; only their lengths are decoded.
func (d *DeltaLengthByteArrayDecoder) Skip(n int) error {
	if n < 0 || n > d.Remaining() {
		return errSkip(d.enc, n, d.Remaining())
	}
	for n > 0 {
		k := min(n, dictBatch)
		sum, err := d.lengths(k)
		if err != nil {
			return err
		}
		d.dpos += sum
		n -= k
	}
	return nil
}

// DeltaByteArrayDecoder decodes DELTA_BYTE_ARRAY values: prefix lengths
// (DELTA_BINARY_PACKED), then suffixes (DELTA_LENGTH_BYTE_ARRAY); each
// value is the previous value's prefix followed by its suffix.
type DeltaByteArrayDecoder struct {
	prefix   DeltaInt32Decoder
	suffix   DeltaLengthByteArrayDecoder
	prev     []byte
	pbuf     []int32
	sdata    []byte
	soffsets []int32
}

// Reset locates the prefix lengths and the suffixes; both must hold
// exactly numValues values.
func (d *DeltaByteArrayDecoder) Reset(src []byte, numValues int) error {
	d.prev = d.prev[:0]
	d.suffix.lens.c.left = 0
	if err := d.prefix.c.reset(format.DeltaByteArray, src, 0, numValues, 32, true); err != nil {
		return err
	}
	end, err := d.prefix.c.end()
	if err != nil {
		d.prefix.c.left = 0
		return err
	}
	if err := d.suffix.reset(format.DeltaByteArray, src[end:], end, numValues); err != nil {
		d.prefix.c.left = 0
		return err
	}
	return nil
}

// Remaining is the number of values not yet read.
func (d *DeltaByteArrayDecoder) Remaining() int { return min(d.prefix.c.left, d.suffix.Remaining()) }

// next decodes up to k values' prefix lengths and suffixes into scratch.
func (d *DeltaByteArrayDecoder) next(k int) error {
	var err error
	if d.pbuf, err = d.prefix.Decode(d.pbuf[:0], k); err != nil {
		return err
	}
	d.sdata, d.soffsets, err = d.suffix.Decode(d.sdata[:0], d.soffsets[:0], k)
	return err
}

// each calls fn with every value of the batch in d.pbuf/d.soffsets, built
// in d.prev.
func (d *DeltaByteArrayDecoder) build(i int) error {
	p := d.pbuf[i]
	if p < 0 || int(p) > len(d.prev) {
		return corruptf(format.DeltaByteArray, -1, "prefix length %d longer than the previous value (%d bytes)", p, len(d.prev))
	}
	d.prev = append(d.prev[:p], d.sdata[d.soffsets[i]:d.soffsets[i+1]]...)
	return nil
}

// Decode appends up to n values to data and offsets.
func (d *DeltaByteArrayDecoder) Decode(data []byte, offsets []int32, n int) ([]byte, []int32, error) {
	n = max(0, min(n, d.Remaining()))
	if len(offsets) == 0 {
		offsets = append(offsets, int32(len(data)))
	}
	for n > 0 {
		k := min(n, dictBatch)
		if err := d.next(k); err != nil {
			return data, offsets, err
		}
		for i := 0; i < k; i++ {
			if err := d.build(i); err != nil {
				return data, offsets, err
			}
			if len(data)+len(d.prev) > maxInt32 {
				return data, offsets, corruptf(format.DeltaByteArray, -1, "byte array data exceeds 2 GiB")
			}
			data = append(data, d.prev...)
			offsets = append(offsets, int32(len(data)))
		}
		n -= k
	}
	return data, offsets, nil
}

// Skip passes over n values; they are still rebuilt one by one, since each
// value's prefix comes from the one before.
func (d *DeltaByteArrayDecoder) Skip(n int) error {
	if n < 0 || n > d.Remaining() {
		return errSkip(format.DeltaByteArray, n, d.Remaining())
	}
	for n > 0 {
		k := min(n, dictBatch)
		if err := d.next(k); err != nil {
			return err
		}
		for i := 0; i < k; i++ {
			if err := d.build(i); err != nil {
				return err
			}
		}
		n -= k
	}
	return nil
}

// deltaByteArrayFixedDecoder decodes DELTA_BYTE_ARRAY
// FIXED_LEN_BYTE_ARRAY values, checking every value has the width.
type deltaByteArrayFixedDecoder struct {
	d       DeltaByteArrayDecoder
	width   int
	offsets []int32
}

func (f *deltaByteArrayFixedDecoder) Width() int { return f.width }
func (f *deltaByteArrayFixedDecoder) Reset(src []byte, numValues int) error {
	return f.d.Reset(src, numValues)
}
func (f *deltaByteArrayFixedDecoder) Remaining() int { return f.d.Remaining() }
func (f *deltaByteArrayFixedDecoder) Skip(n int) error {
	return f.d.Skip(n)
}

func (f *deltaByteArrayFixedDecoder) Decode(dst []byte, n int) ([]byte, error) {
	at := len(dst)
	var err error
	dst, f.offsets, err = f.d.Decode(dst, f.offsets[:0], n)
	for i := 1; i < len(f.offsets); i++ {
		if int(f.offsets[i]-f.offsets[i-1]) != f.width {
			return dst[:at+(i-1)*f.width], corruptf(format.DeltaByteArray, -1, "value of %d bytes in a FIXED_LEN_BYTE_ARRAY(%d) column", f.offsets[i]-f.offsets[i-1], f.width)
		}
	}
	return dst, err
}

// DeltaLengthByteArrayEncoder encodes BYTE_ARRAY values as
// DELTA_LENGTH_BYTE_ARRAY, reusing its scratch memory across calls.
type DeltaLengthByteArrayEncoder struct {
	Delta DeltaBinaryPackedEncoder
	lens  []int32
}

// Append appends the encoding of the values data[offsets[i]:offsets[i+1]].
func (e *DeltaLengthByteArrayEncoder) Append(dst []byte, data []byte, offsets []int32) []byte {
	e.lens = e.lens[:0]
	for i := 0; i+1 < len(offsets); i++ {
		e.lens = append(e.lens, offsets[i+1]-offsets[i])
	}
	dst = e.Delta.AppendInt32(dst, e.lens)
	if len(offsets) > 1 {
		dst = append(dst, data[offsets[0]:offsets[len(offsets)-1]]...)
	}
	return dst
}

// DeltaByteArrayEncoder encodes BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values
// as DELTA_BYTE_ARRAY, reusing its scratch memory across calls.
type DeltaByteArrayEncoder struct {
	Delta    DeltaBinaryPackedEncoder
	prefixes []int32
	suffixes []byte
	soffsets []int32
	dlba     DeltaLengthByteArrayEncoder
}

// Append appends the encoding of the values data[offsets[i]:offsets[i+1]].
func (e *DeltaByteArrayEncoder) Append(dst []byte, data []byte, offsets []int32) []byte {
	e.prefixes, e.suffixes, e.soffsets = e.prefixes[:0], e.suffixes[:0], append(e.soffsets[:0], 0)
	var prev []byte
	for i := 0; i+1 < len(offsets); i++ {
		v := data[offsets[i]:offsets[i+1]]
		p := commonPrefix(prev, v)
		e.prefixes = append(e.prefixes, int32(p))
		e.suffixes = append(e.suffixes, v[p:]...)
		e.soffsets = append(e.soffsets, int32(len(e.suffixes)))
		prev = v
	}
	dst = e.Delta.AppendInt32(dst, e.prefixes)
	e.dlba.Delta = e.Delta
	return e.dlba.Append(dst, e.suffixes, e.soffsets)
}

// AppendFixedLen appends the encoding of the width-byte values held back
// to back in values.
func (e *DeltaByteArrayEncoder) AppendFixedLen(dst []byte, values []byte, width int) []byte {
	e.prefixes, e.suffixes, e.soffsets = e.prefixes[:0], e.suffixes[:0], append(e.soffsets[:0], 0)
	var prev []byte
	for i := 0; i+width <= len(values) && width > 0; i += width {
		v := values[i : i+width]
		p := commonPrefix(prev, v)
		e.prefixes = append(e.prefixes, int32(p))
		e.suffixes = append(e.suffixes, v[p:]...)
		e.soffsets = append(e.soffsets, int32(len(e.suffixes)))
		prev = v
	}
	dst = e.Delta.AppendInt32(dst, e.prefixes)
	e.dlba.Delta = e.Delta
	return e.dlba.Append(dst, e.suffixes, e.soffsets)
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// AppendDeltaLengthByteArray appends the DELTA_LENGTH_BYTE_ARRAY encoding
// of data/offsets (allocating scratch; use the encoder type to reuse it).
func AppendDeltaLengthByteArray(dst []byte, data []byte, offsets []int32) []byte {
	var e DeltaLengthByteArrayEncoder
	return e.Append(dst, data, offsets)
}

// AppendDeltaByteArray appends the DELTA_BYTE_ARRAY encoding of
// data/offsets (allocating scratch; use the encoder type to reuse it).
func AppendDeltaByteArray(dst []byte, data []byte, offsets []int32) []byte {
	var e DeltaByteArrayEncoder
	return e.Append(dst, data, offsets)
}

package thrift

import (
	"encoding/binary"
	"math"
)

// Writer appends compact-protocol values to a byte slice.
type Writer struct {
	buf []byte
}

// NewWriter returns a Writer that appends to buf.
func NewWriter(buf []byte) *Writer { return &Writer{buf: buf} }

// Bytes returns everything written so far.
func (w *Writer) Bytes() []byte { return w.buf }

// Len is the number of bytes written so far.
func (w *Writer) Len() int { return len(w.buf) }

// Reset discards what was written and appends to buf from now on.
func (w *Writer) Reset(buf []byte) { w.buf = buf }

// Uvarint appends an unsigned LEB128 varint.
func (w *Writer) Uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }

// Varint appends a zigzag varint.
func (w *Writer) Varint(v int64) { w.Uvarint(uint64(v<<1) ^ uint64(v>>63)) }

// I16, I32 and I64 append zigzag varints.
func (w *Writer) I16(v int16) { w.Varint(int64(v)) }
func (w *Writer) I32(v int32) { w.Varint(int64(v)) }
func (w *Writer) I64(v int64) { w.Varint(v) }

// Byte appends one raw byte.
func (w *Writer) Byte(v int8) { w.buf = append(w.buf, byte(v)) }

// Double appends an 8-byte little-endian IEEE 754 value.
func (w *Writer) Double(v float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
}

// BoolElem appends a boolean as a collection element.
func (w *Writer) BoolElem(v bool) {
	if v {
		w.buf = append(w.buf, 1)
	} else {
		w.buf = append(w.buf, 2)
	}
}

// Binary appends a length-prefixed byte string.
func (w *Writer) Binary(b []byte) {
	w.Uvarint(uint64(len(b)))
	w.buf = append(w.buf, b...)
}

// String appends a length-prefixed string.
func (w *Writer) String(s string) {
	w.Uvarint(uint64(len(s)))
	w.buf = append(w.buf, s...)
}

// FieldHeader appends a field header, short form when the id delta allows.
func (w *Writer) FieldHeader(t Type, id int16, last *int16) {
	if d := id - *last; d > 0 && d <= 15 {
		w.buf = append(w.buf, byte(d)<<4|byte(t))
	} else {
		w.buf = append(w.buf, byte(t))
		w.I16(id)
	}
	*last = id
}

// BoolField appends a boolean field: the value is folded into the header.
func (w *Writer) BoolField(id int16, last *int16, v bool) {
	t := BoolFalse
	if v {
		t = BoolTrue
	}
	w.FieldHeader(t, id, last)
}

// FieldStop ends a struct.
func (w *Writer) FieldStop() { w.buf = append(w.buf, 0) }

// ListHeader appends a list header.
func (w *Writer) ListHeader(elem Type, n int) {
	if n < 15 {
		w.buf = append(w.buf, byte(n)<<4|byte(elem))
		return
	}
	w.buf = append(w.buf, 0xf0|byte(elem))
	w.Uvarint(uint64(n))
}

// MapHeader appends a map header.
func (w *Writer) MapHeader(k, v Type, n int) {
	w.Uvarint(uint64(n))
	if n > 0 {
		w.buf = append(w.buf, byte(k)<<4|byte(v))
	}
}

// Raw appends bytes as they are (e.g. an already encoded struct).
func (w *Writer) Raw(b []byte) { w.buf = append(w.buf, b...) }

// ExtensionField appends the extension field of BinaryProtocolExtensions.md
// with the exact header bytes the spec gives (08 FF FF 01). It must be the
// last field before FieldStop.
func (w *Writer) ExtensionField(ext []byte) {
	w.buf = append(w.buf, byte(Binary), 0xff, 0xff, 0x01)
	w.Uvarint(uint64(len(ext)))
	w.buf = append(w.buf, ext...)
}

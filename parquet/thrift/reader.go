package thrift

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"unsafe"

	"github.com/carquet-go/carquet/parquet/errs"
)

// Reader decodes compact-protocol values from a byte slice held in memory.
// Binary values it returns alias that slice.
type Reader struct {
	buf   []byte
	pos   int
	depth int
	// AliasStrings makes String return strings that share the input's
	// memory instead of copying it. Only for inputs that are never
	// modified afterwards (a file's footer, kept for the file's life).
	AliasStrings bool
	// Arena, when set, is an allocator the decoding code may use to carve
	// many small objects out of a few large blocks (parquet/format uses it
	// for wide footers).
	Arena any
	// SkipLazy makes decoders leave the fields they know as lazy (a row
	// group's column chunks) undecoded, keeping their raw bytes.
	SkipLazy bool
	// MaxAlloc, when positive, bounds the memory the input's lists may
	// take once decoded. ListHeader charges each list its element count
	// times an element size (StructSize for structs) and fails, before the
	// caller allocates the list, when the total would pass MaxAlloc: a
	// list of empty structs costs one byte each in the input and a whole
	// Go struct each decoded.
	MaxAlloc int64
	// StructSize is what a struct element is charged (default 128).
	StructSize int64
	charged    int64
}

// ErrAllocLimit is wrapped by the error of a list that would take the
// decoded input above Reader.MaxAlloc. It is a kind of errs.ErrLimit.
var ErrAllocLimit = errs.New("thrift: decoded lists above the reader's memory limit", errs.ErrLimit)

// Charge counts a list of n elements of type t against MaxAlloc (for
// decoders that read list headers themselves); without a limit it does
// nothing.
func (r *Reader) Charge(t Type, n int) error {
	if r.MaxAlloc <= 0 {
		return nil
	}
	size := int64(8)
	switch t {
	case Binary:
		size = 24
	case Struct:
		size = r.StructSize
		if size <= 0 {
			size = 128
		}
	}
	r.charged += int64(n) * size
	if r.charged > r.MaxAlloc {
		return fmt.Errorf("%w (%d bytes) at byte %d: a list of %d elements", ErrAllocLimit, r.MaxAlloc, r.pos, n)
	}
	return nil
}

// ChargeBytes counts n bytes of decoded memory against MaxAlloc, for
// decoders whose decoded form is not one of Charge's element sizes.
func (r *Reader) ChargeBytes(n int64) error {
	if r.MaxAlloc <= 0 {
		return nil
	}
	r.charged += n
	if r.charged > r.MaxAlloc {
		return fmt.Errorf("%w (%d bytes) at byte %d: %d bytes", ErrAllocLimit, r.MaxAlloc, r.pos, n)
	}
	return nil
}

// NewReader returns a Reader over buf.
func NewReader(buf []byte) *Reader { return &Reader{buf: buf} }

// Reset makes r read buf from its start.
func (r *Reader) Reset(buf []byte) { r.buf, r.pos, r.depth, r.charged = buf, 0, 0, 0 }

// Offset is the number of bytes consumed so far.
func (r *Reader) Offset() int { return r.pos }

// Remaining is the number of bytes not yet consumed.
func (r *Reader) Remaining() int { return len(r.buf) - r.pos }

// Bytes returns the input slice.
func (r *Reader) Bytes() []byte { return r.buf }

// Depth is the current nesting depth (see Enter).
func (r *Reader) Depth() int { return r.depth }

// SetPosition moves r to byte offset pos of its input at nesting depth
// depth. It is for decoders that read Bytes() directly on a fast path and
// hand back to r (pos and depth must come from Offset and Depth).
func (r *Reader) SetPosition(pos, depth int) { r.pos, r.depth = pos, depth }

func (r *Reader) errorf(msg string) error { return &Error{Offset: r.pos, Msg: msg} }

func (r *Reader) truncated() error { return &Error{Offset: r.pos, Msg: "truncated input"} }

// Uvarint reads an unsigned LEB128 varint of at most 10 bytes. The
// one-byte case, the most common by far in metadata, is inlined.
func (r *Reader) Uvarint() (uint64, error) {
	buf, p := r.buf, r.pos
	if uint(p) < uint(len(buf)) && buf[p] < 0x80 {
		r.pos = p + 1
		return uint64(buf[p]), nil
	}
	return r.uvarintSlow()
}

func (r *Reader) uvarintSlow() (uint64, error) {
	if x, q := UvarintAt(r.buf, r.pos); q >= 0 {
		r.pos = q
		return x, nil
	}
	// Malformed: the loop below finds the error and where it is.
	var x uint64
	var s uint
	for i := 0; i < 10; i++ {
		if r.pos >= len(r.buf) {
			return 0, r.truncated()
		}
		b := r.buf[r.pos]
		r.pos++
		if b < 0x80 {
			if i == 9 && b > 1 {
				return 0, r.errorf("varint overflows 64 bits")
			}
			return x | uint64(b)<<s, nil
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	return 0, r.errorf("varint longer than 10 bytes")
}

// Varint reads a zigzag-encoded signed varint.
func (r *Reader) Varint() (int64, error) {
	u, err := r.Uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// I16 reads a zigzag varint and checks that it fits 16 bits.
func (r *Reader) I16() (int16, error) {
	v, err := r.Varint()
	if err != nil {
		return 0, err
	}
	if v < math.MinInt16 || v > math.MaxInt16 {
		return 0, r.errorf("i16 out of range")
	}
	return int16(v), nil
}

// I32 reads a zigzag varint and checks that it fits 32 bits.
func (r *Reader) I32() (int32, error) {
	u, err := r.Uvarint()
	if err != nil || u > math.MaxUint32 {
		return 0, r.i32Error(err)
	}
	return int32(u>>1) ^ -int32(u&1), nil
}

func (r *Reader) i32Error(err error) error {
	if err != nil {
		return err
	}
	return r.errorf("i32 out of range")
}

// I64 reads a zigzag varint.
func (r *Reader) I64() (int64, error) {
	u, err := r.Uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// Byte reads one raw byte (the compact protocol's i8).
func (r *Reader) Byte() (int8, error) {
	if r.pos >= len(r.buf) {
		return 0, r.truncated()
	}
	b := r.buf[r.pos]
	r.pos++
	return int8(b), nil
}

// Double reads an 8-byte little-endian IEEE 754 value.
func (r *Reader) Double() (float64, error) {
	if len(r.buf)-r.pos < 8 {
		return 0, r.truncated()
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.buf[r.pos:]))
	r.pos += 8
	return v, nil
}

// BoolElem reads a boolean stored as a collection element (one byte).
func (r *Reader) BoolElem() (bool, error) {
	b, err := r.Byte()
	return b == 1, err
}

// Binary reads a length-prefixed byte string. The result aliases the input
// and is never nil, so that a present-but-empty value stays distinguishable
// from an absent one.
func (r *Reader) Binary() ([]byte, error) {
	n, err := r.Uvarint()
	if err != nil || n > uint64(len(r.buf)-r.pos) {
		return nil, r.binaryError(err)
	}
	b := r.buf[r.pos : r.pos+int(n) : r.pos+int(n)]
	r.pos += int(n)
	return b, nil
}

func (r *Reader) binaryError(err error) error {
	if err != nil {
		return err
	}
	return r.errorf("binary length exceeds input")
}

// String reads a length-prefixed byte string and copies it into a string.
func (r *Reader) String() (string, error) {
	b, err := r.Binary()
	if r.AliasStrings && err == nil {
		if len(b) == 0 {
			return "", nil
		}
		return unsafe.String(&b[0], len(b)), nil
	}
	return string(b), err
}

// FieldHeader reads the next field header of the struct being decoded. last
// holds the previous field id of that struct and is updated. A Stop type
// ends the struct. For booleans the type carries the value.
func (r *Reader) FieldHeader(last *int16) (Type, int16, error) {
	// Short form (an id delta of 1-15 and a valid type): inlined.
	buf, p := r.buf, r.pos
	if uint(p) < uint(len(buf)) {
		b := buf[p]
		if t := b & 0x0f; b >= 0x10 && t-1 < uint8(Struct) {
			r.pos = p + 1
			*last += int16(b >> 4)
			return Type(t), *last, nil
		}
	}
	return r.fieldHeaderSlow(last)
}

func (r *Reader) fieldHeaderSlow(last *int16) (Type, int16, error) {
	if r.pos >= len(r.buf) {
		return 0, 0, r.truncated()
	}
	b := r.buf[r.pos]
	r.pos++
	t := Type(b & 0x0f)
	if t == Stop {
		return Stop, 0, nil
	}
	if t > Struct {
		r.pos--
		return 0, 0, r.errorf("invalid field type " + t.String())
	}
	var id int16
	if delta := int16(b >> 4); delta != 0 {
		id = *last + delta
	} else {
		v, err := r.I16()
		if err != nil {
			return 0, 0, err
		}
		id = v
	}
	*last = id
	return t, id, nil
}

// ListHeader reads the header of a list or set: the element type and count.
// The count is checked against the bytes left: every element takes at
// least one byte, so a hostile count cannot make callers over-allocate.
func (r *Reader) ListHeader() (Type, int, error) {
	if r.pos >= len(r.buf) {
		return 0, 0, r.truncated()
	}
	b := r.buf[r.pos]
	r.pos++
	t := Type(b & 0x0f)
	n := uint64(b >> 4)
	if n == 15 {
		var err error
		if n, err = r.Uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if t == BoolFalse {
		// Some writers name booleans 2 in collection headers.
		t = BoolTrue
	}
	if t == Stop || t > Struct {
		return 0, 0, r.errorf("invalid list element type " + t.String())
	}
	if n > uint64(len(r.buf)-r.pos) {
		return 0, 0, r.errorf("list size exceeds input")
	}
	if r.MaxAlloc > 0 {
		if err := r.Charge(t, int(n)); err != nil {
			return 0, 0, err
		}
	}
	return t, int(n), nil
}

// MapHeader reads the header of a map: key type, value type and count.
func (r *Reader) MapHeader() (Type, Type, int, error) {
	n, err := r.Uvarint()
	if err != nil {
		return 0, 0, 0, err
	}
	if n == 0 {
		return 0, 0, 0, nil
	}
	if n > uint64(len(r.buf)-r.pos)/2 {
		return 0, 0, 0, r.errorf("map size exceeds input")
	}
	if r.pos >= len(r.buf) {
		return 0, 0, 0, r.truncated()
	}
	b := r.buf[r.pos]
	r.pos++
	k, v := Type(b>>4), Type(b&0x0f)
	if k == BoolFalse {
		k = BoolTrue
	}
	if v == BoolFalse {
		v = BoolTrue
	}
	if k == Stop || k > Struct || v == Stop || v > Struct {
		return 0, 0, 0, r.errorf("invalid map element types")
	}
	return k, v, int(n), nil
}

// Enter marks the start of a nested struct or collection, enforcing MaxDepth.
func (r *Reader) Enter() error {
	r.depth++
	if r.depth > MaxDepth {
		return r.errorf("nesting deeper than the limit")
	}
	return nil
}

// Leave marks the end of a nested struct or collection.
func (r *Reader) Leave() { r.depth-- }

// Skip consumes one value of type t without decoding it, so that fields a
// newer writer added (of any type) do not stop older code.
func (r *Reader) Skip(t Type) error {
	if t == Struct || t == List || t == Set {
		// The common case without a call per value; anything unusual
		// (a map, a long-form field header, malformed input) is left
		// to the code below, from the start, for its exact error.
		if p := skipFast(r.buf, r.pos, r.depth, t); p >= 0 {
			r.pos = p
			return nil
		}
	}
	return r.skipSlow(t)
}

// skipSlow is Skip without the fast path: one call per value.
func (r *Reader) skipSlow(t Type) error {
	switch t {
	case BoolTrue, BoolFalse:
		// As a field, the value is in the header and nothing follows.
		return nil
	case Byte:
		_, err := r.Byte()
		return err
	case I16, I32, I64:
		_, err := r.Uvarint()
		return err
	case Double:
		if len(r.buf)-r.pos < 8 {
			return r.truncated()
		}
		r.pos += 8
		return nil
	case Binary:
		_, err := r.Binary()
		return err
	case List, Set:
		if err := r.Enter(); err != nil {
			return err
		}
		et, n, err := r.ListHeader()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := r.skipElem(et); err != nil {
				return err
			}
		}
		r.Leave()
		return nil
	case Map:
		if err := r.Enter(); err != nil {
			return err
		}
		kt, vt, n, err := r.MapHeader()
		if err != nil {
			return err
		}
		for i := 0; i < n; i++ {
			if err := r.skipElem(kt); err != nil {
				return err
			}
			if err := r.skipElem(vt); err != nil {
				return err
			}
		}
		r.Leave()
		return nil
	case Struct:
		if err := r.Enter(); err != nil {
			return err
		}
		var last int16
		for {
			ft, _, err := r.FieldHeader(&last)
			if err != nil {
				return err
			}
			if ft == Stop {
				break
			}
			if err := r.Skip(ft); err != nil {
				return err
			}
		}
		r.Leave()
		return nil
	}
	return r.errorf("cannot skip type " + t.String())
}

// skipElem skips a collection element; booleans there take one byte.
func (r *Reader) skipElem(t Type) error {
	if t == BoolTrue || t == BoolFalse {
		_, err := r.Byte()
		return err
	}
	return r.Skip(t)
}

// skipFast skips a value of type t (a struct, list or set) at buf[p],
// entered at nesting depth depth, and returns the position after it, or
// -1 where Skip's general code must decide.
func skipFast(buf []byte, p, depth int, t Type) int {
	if depth++; depth > MaxDepth {
		return -1
	}
	if t != Struct {
		if p >= len(buf) {
			return -1
		}
		b := buf[p]
		p++
		et, n := Type(b&0x0f), int(b>>4)
		if n == 15 {
			u, q := UvarintAt(buf, p)
			if q < 0 || u > uint64(len(buf)) {
				return -1
			}
			n, p = int(u), q
		}
		if et == Stop || et > Struct || et == Map || n > len(buf)-p {
			return -1
		}
		for i := 0; i < n && p >= 0; i++ {
			switch et {
			case BoolTrue, BoolFalse, Byte:
				p++ // one byte each as elements
			default:
				p = skipValue(buf, p, depth, et)
			}
		}
		if p > len(buf) {
			return -1
		}
		return p
	}
	for {
		if p >= len(buf) {
			return -1
		}
		b := buf[p]
		ft := Type(b & 0x0f)
		if ft == Stop {
			return p + 1
		}
		if b < 0x10 || ft > Struct {
			return -1 // long-form header or invalid type
		}
		if p = skipValue(buf, p+1, depth, ft); p < 0 {
			return -1
		}
	}
}

// skipValue skips one field value of type ft at buf[p] (booleans as
// fields: nothing follows the header).
func skipValue(buf []byte, p, depth int, ft Type) int {
	switch ft {
	case BoolTrue, BoolFalse:
		return p
	case Byte:
		if p >= len(buf) {
			return -1
		}
		return p + 1
	case I16, I32, I64:
		_, p = UvarintAt(buf, p)
		return p
	case Double:
		if len(buf)-p < 8 {
			return -1
		}
		return p + 8
	case Binary:
		n, q := UvarintAt(buf, p)
		if q < 0 || n > uint64(len(buf)-q) {
			return -1
		}
		return q + int(n)
	case Struct, List, Set:
		return skipFast(buf, p, depth, ft)
	}
	return -1
}

// Uvarint4At reads a varint of up to 4 bytes at buf[p] (p >= 0) with one
// load and no loop: the lowest byte with its top bit clear ends it
// (offsets and sizes in footers take 2 to 4 bytes below 128 MiB). q is -1
// where fewer than 4 bytes follow p or the varint is longer: UvarintAt
// reads those. Small enough for the compiler to inline.
func Uvarint4At(buf []byte, p int) (x uint64, q int) {
	if p > len(buf)-4 {
		return 0, -1
	}
	w := binary.LittleEndian.Uint32(buf[p:])
	stop := ^w & 0x80808080
	if stop == 0 {
		return 0, -1
	}
	w &= stop ^ (stop - 1) // the bytes up to the last one
	// Squeeze the 7-bit groups together: pairs, then both.
	w = w&0x007f007f | w>>1&0x3f803f80
	w = w&0x00003fff | w>>2&0x0fffc000
	return uint64(w), p + bits.TrailingZeros32(stop)/8 + 1
}

// UvarintAt reads an unsigned varint at buf[p] as Uvarint does, returning
// it and the position after it, or -1 as the position where Uvarint would
// fail (also for a negative p): for decoders that keep their own cursor.
func UvarintAt(buf []byte, p int) (uint64, int) {
	if p < 0 {
		return 0, -1
	}
	if p < len(buf) && buf[p] < 0x80 {
		return uint64(buf[p]), p + 1
	}
	if x, q := Uvarint4At(buf, p); q >= 0 {
		return x, q
	}
	var x uint64
	var s uint
	for i := 0; i < 10; i++ {
		if p >= len(buf) {
			return 0, -1
		}
		b := buf[p]
		p++
		if b < 0x80 {
			if i == 9 && b > 1 {
				return 0, -1
			}
			return x | uint64(b)<<s, p
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	return 0, -1
}

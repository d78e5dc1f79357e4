package variant

import (
	"encoding/binary"
	"math"
	"sort"
)

// MaxDepth bounds the nesting of arrays and objects Decode, ToJSON, Encode
// and Unshred accept, so that hostile input cannot exhaust the stack.
const MaxDepth = 256

const (
	basicPrimitive   = 0
	basicShortString = 1
	basicObject      = 2
	basicArray       = 3
)

// Primitive type ids (VariantEncoding.md, "Variant primitive types").
const (
	primNull              = 0
	primTrue              = 1
	primFalse             = 2
	primInt8              = 3
	primInt16             = 4
	primInt32             = 5
	primInt64             = 6
	primDouble            = 7
	primDecimal4          = 8
	primDecimal8          = 9
	primDecimal16         = 10
	primDate              = 11
	primTimestamp         = 12
	primTimestampNTZ      = 13
	primFloat             = 14
	primBinary            = 15
	primString            = 16
	primTime              = 17
	primTimestampNanos    = 18
	primTimestampNTZNanos = 19
	primUUID              = 20
)

// primitiveSize is the size of each fixed-size primitive's data, -1 for the
// length-prefixed ones (binary, string).
var primitiveSize = [...]int{
	primNull: 0, primTrue: 0, primFalse: 0, primInt8: 1, primInt16: 2, primInt32: 4, primInt64: 8,
	primDouble: 8, primDecimal4: 5, primDecimal8: 9, primDecimal16: 17, primDate: 4, primTimestamp: 8,
	primTimestampNTZ: 8, primFloat: 4, primBinary: -1, primString: -1, primTime: 8,
	primTimestampNanos: 8, primTimestampNTZNanos: 8, primUUID: 16,
}

// container is the parsed header of an object or array value.
type container struct {
	n       int
	idSize  int // objects only
	offSize int
	ids     int // position of the field ids (objects)
	offs    int // position of the offsets
	data    int // position of the first value
	end     int // data + last offset: the end of the whole value
}

func parseContainer(v []byte) (container, error) {
	h := v[0] >> 2
	object := v[0]&3 == basicObject
	var c container
	c.offSize = int(h&3) + 1
	large := h>>2&1 != 0
	if object {
		c.idSize = int(h>>2&3) + 1
		large = h>>4&1 != 0
	}
	nsz := 1
	if large {
		nsz = 4
	}
	if len(v) < 1+nsz {
		return c, invalid("truncated element count")
	}
	n := readUint(v[1:], nsz)
	// Every element needs at least an id, an offset and one value byte:
	// counts the bytes cannot hold are rejected before any arithmetic.
	if n > uint64(len(v)) {
		return c, invalid("%d elements in %d bytes", n, len(v))
	}
	c.n = int(n)
	c.ids = 1 + nsz
	c.offs = c.ids + c.n*c.idSize
	c.data = c.offs + (c.n+1)*c.offSize
	if c.data > len(v) {
		return c, invalid("%d elements need %d header bytes, have %d", c.n, c.data, len(v))
	}
	last := readUint(v[c.offs+c.n*c.offSize:], c.offSize)
	if last > uint64(len(v)-c.data) {
		return c, invalid("values end at %d, past the %d bytes there are", last, len(v)-c.data)
	}
	c.end = c.data + int(last)
	return c, nil
}

// elem returns the bytes from element i's start to the end of the
// container's values; the element's own header says where it ends.
func (c container) elem(v []byte, i int) ([]byte, error) {
	start := readUint(v[c.offs+i*c.offSize:], c.offSize)
	if start >= uint64(c.end-c.data) {
		return nil, invalid("element %d starts at %d, past the values' %d bytes", i, start, c.end-c.data)
	}
	return v[c.data+int(start) : c.end], nil
}

func (c container) fieldID(v []byte, i int) int {
	return int(readUint(v[c.ids+i*c.idSize:], c.idSize))
}

// valueSize returns the encoded size of the value at the start of v.
func valueSize(v []byte) (int, error) {
	if len(v) == 0 {
		return 0, invalid("empty value")
	}
	switch v[0] & 3 {
	case basicShortString:
		n := 1 + int(v[0]>>2)
		if n > len(v) {
			return 0, invalid("short string of %d bytes in %d", n-1, len(v)-1)
		}
		return n, nil
	case basicObject, basicArray:
		c, err := parseContainer(v)
		return c.end, err
	}
	t := int(v[0] >> 2)
	if t >= len(primitiveSize) {
		return 0, invalid("unknown primitive type %d", t)
	}
	n := 1 + primitiveSize[t]
	if primitiveSize[t] < 0 {
		if len(v) < 5 {
			return 0, invalid("truncated length")
		}
		l := uint64(binary.LittleEndian.Uint32(v[1:]))
		if l > uint64(len(v)-5) {
			return 0, invalid("%d-byte value in %d bytes", l, len(v)-5)
		}
		n = 5 + int(l)
	}
	if n > len(v) {
		return 0, invalid("primitive type %d needs %d bytes, have %d", t, n, len(v))
	}
	return n, nil
}

// Decode decodes a Variant (its metadata and value bytes) into Go values;
// see the table in types.go. Strings and byte slices are copies: the
// result does not refer to the input.
func Decode(metadata, value []byte) (any, error) {
	m, err := ParseMetadata(metadata)
	if err != nil {
		return nil, err
	}
	return m.Decode(value)
}

// Decode decodes a value encoded against m.
func (m Metadata) Decode(value []byte) (any, error) {
	d := decoder{meta: m, budget: len(value)}
	return d.value(value, 0)
}

// decoder carries a work budget: a well-formed value never decodes more
// values and payload bytes than it has bytes, so offsets that make elements
// share bytes (and would multiply the work exponentially) run out of budget
// instead.
type decoder struct {
	meta   Metadata
	budget int
}

func (d *decoder) spend(n int) error {
	d.budget -= n
	if d.budget < 0 {
		return invalid("elements overlap: more decoded than encoded")
	}
	return nil
}

func (d *decoder) value(v []byte, depth int) (any, error) {
	if len(v) == 0 {
		return nil, invalid("empty value")
	}
	if err := d.spend(1); err != nil {
		return nil, err
	}
	switch v[0] & 3 {
	case basicShortString:
		n := int(v[0] >> 2)
		if n+1 > len(v) {
			return nil, invalid("short string of %d bytes in %d", n, len(v)-1)
		}
		if err := d.spend(n); err != nil {
			return nil, err
		}
		return string(v[1 : 1+n]), nil
	case basicObject:
		return d.object(v, depth)
	case basicArray:
		return d.array(v, depth)
	}
	return d.primitive(v)
}

func (d *decoder) array(v []byte, depth int) (any, error) {
	if depth >= MaxDepth {
		return nil, invalid("nesting deeper than %d", MaxDepth)
	}
	c, err := parseContainer(v)
	if err != nil {
		return nil, err
	}
	if err := d.spend(c.n); err != nil {
		return nil, err
	}
	out := make([]any, c.n)
	for i := range c.n {
		e, err := c.elem(v, i)
		if err != nil {
			return nil, err
		}
		if out[i], err = d.value(e, depth+1); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) object(v []byte, depth int) (any, error) {
	if depth >= MaxDepth {
		return nil, invalid("nesting deeper than %d", MaxDepth)
	}
	c, err := parseContainer(v)
	if err != nil {
		return nil, err
	}
	if err := d.spend(c.n); err != nil {
		return nil, err
	}
	out := make(Object, c.n)
	sorted := true
	for i := range c.n {
		name, err := d.meta.keyBytes(c.fieldID(v, i))
		if err != nil {
			return nil, err
		}
		e, err := c.elem(v, i)
		if err != nil {
			return nil, err
		}
		val, err := d.value(e, depth+1)
		if err != nil {
			return nil, err
		}
		out[i] = Field{Name: string(name), Value: val}
		if i > 0 && out[i-1].Name >= out[i].Name {
			sorted = false
		}
	}
	if !sorted {
		// Writers must order fields by name; accept those that did not, but
		// hand out the canonical order and refuse duplicates.
		sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		for i := 1; i < len(out); i++ {
			if out[i-1].Name == out[i].Name {
				return nil, invalid("duplicate field %q", out[i].Name)
			}
		}
	}
	return out, nil
}

func (d *decoder) primitive(v []byte) (any, error) {
	n, err := valueSize(v)
	if err != nil {
		return nil, err
	}
	if err := d.spend(n - 1); err != nil {
		return nil, err
	}
	p := v[1:n]
	le := binary.LittleEndian
	switch t := v[0] >> 2; t {
	case primNull:
		return nil, nil
	case primTrue:
		return true, nil
	case primFalse:
		return false, nil
	case primInt8:
		return int8(p[0]), nil
	case primInt16:
		return int16(le.Uint16(p)), nil
	case primInt32:
		return int32(le.Uint32(p)), nil
	case primInt64:
		return int64(le.Uint64(p)), nil
	case primDouble:
		return math.Float64frombits(le.Uint64(p)), nil
	case primFloat:
		return math.Float32frombits(le.Uint32(p)), nil
	case primDecimal4, primDecimal8, primDecimal16:
		return decodeDecimal(p)
	case primDate:
		return Date(int32(le.Uint32(p))), nil
	case primTime:
		return Time(int64(le.Uint64(p))), nil
	case primTimestamp, primTimestampNTZ, primTimestampNanos, primTimestampNTZNanos:
		return Timestamp{Value: int64(le.Uint64(p)),
			Nanos: t == primTimestampNanos || t == primTimestampNTZNanos,
			NTZ:   t == primTimestampNTZ || t == primTimestampNTZNanos}, nil
	case primBinary:
		return append([]byte{}, p[4:]...), nil
	case primString:
		return string(p[4:]), nil
	case primUUID:
		return UUID(p), nil
	}
	return nil, invalid("unknown primitive type %d", v[0]>>2)
}

// decodeDecimal reads the scale byte and 4, 8 or 16 little-endian bytes.
func decodeDecimal(p []byte) (Decimal, error) {
	scale := p[0]
	if scale > MaxDecimalScale {
		return Decimal{}, invalid("decimal scale %d above %d", scale, MaxDecimalScale)
	}
	u := p[1:]
	le := binary.LittleEndian
	d := Decimal{Scale: scale, Width: uint8(len(u))}
	switch len(u) {
	case 4:
		v := int64(int32(le.Uint32(u)))
		d.Hi, d.Lo = v>>63, uint64(v)
	case 8:
		v := int64(le.Uint64(u))
		d.Hi, d.Lo = v>>63, uint64(v)
	default:
		d.Lo = le.Uint64(u)
		d.Hi = int64(le.Uint64(u[8:]))
		if _, ok := d.Int64(); !ok && d.Big().CmpAbs(bigTen38) >= 0 {
			return Decimal{}, invalid("decimal16 with more than 38 digits")
		}
	}
	return d, nil
}

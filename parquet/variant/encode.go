package variant

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"
	"time"
)

// Encode encodes a Go value (see the table in types.go) as a Variant with a
// sorted metadata dictionary holding every object key in v. Beyond the
// decoded types it accepts:
//
//	int, int64-like Go ints   int64 is kept as int64; int, uint8..uint64 and
//	                           uint get the smallest integer width that holds
//	                           them (uint64 above MaxInt64 becomes decimal16)
//	time.Time                  timestamp with time zone, microseconds, or
//	                           nanoseconds when it has sub-microsecond digits
//	map[string]any             object (keys sorted)
//	json.Number                integer, else exact decimal, else double
//
// Strings shorter than 64 bytes use the short-string encoding.
func Encode(v any) (metadata, value []byte, err error) {
	return encode(v, true)
}

// EncodeUnsorted is Encode with the dictionary in order of first use and
// not flagged as sorted, as streaming writers produce it.
func EncodeUnsorted(v any) (metadata, value []byte, err error) {
	return encode(v, false)
}

func encode(v any, sorted bool) ([]byte, []byte, error) {
	var b MetadataBuilder
	if err := collectKeys(&b, v, 0); err != nil {
		return nil, nil, err
	}
	meta, remap := b.Build(sorted)
	e := valueEncoder{lookup: func(name string) (int, bool) {
		id, ok := b.ids[name]
		if ok && remap != nil {
			id = remap[id]
		}
		return id, ok
	}}
	value, err := e.append(nil, v, 0)
	if err != nil {
		return nil, nil, err
	}
	return meta, value, nil
}

// AppendValue appends the encoding of v to dst using m's dictionary, which
// must hold every object key in v.
func AppendValue(dst []byte, m Metadata, v any) ([]byte, error) {
	e := valueEncoder{lookup: m.Find}
	return e.append(dst, v, 0)
}

func collectKeys(b *MetadataBuilder, v any, depth int) error {
	if depth >= MaxDepth {
		return fmt.Errorf("variant: nesting deeper than %d", MaxDepth)
	}
	switch v := v.(type) {
	case Object:
		for _, f := range v {
			b.Add(f.Name)
			if err := collectKeys(b, f.Value, depth+1); err != nil {
				return err
			}
		}
	case map[string]any:
		for k, x := range v {
			b.Add(k)
			if err := collectKeys(b, x, depth+1); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range v {
			if err := collectKeys(b, x, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}

type valueEncoder struct {
	lookup func(name string) (int, bool)
}

func (e *valueEncoder) append(dst []byte, v any, depth int) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(dst, primNull<<2), nil
	case bool:
		if v {
			return append(dst, primTrue<<2), nil
		}
		return append(dst, primFalse<<2), nil
	case int8:
		return append(dst, primInt8<<2, byte(v)), nil
	case int16:
		return binary.LittleEndian.AppendUint16(append(dst, primInt16<<2), uint16(v)), nil
	case int32:
		return binary.LittleEndian.AppendUint32(append(dst, primInt32<<2), uint32(v)), nil
	case int64:
		return binary.LittleEndian.AppendUint64(append(dst, primInt64<<2), uint64(v)), nil
	case int:
		return appendInt(dst, int64(v)), nil
	case uint8:
		return appendInt(dst, int64(v)), nil
	case uint16:
		return appendInt(dst, int64(v)), nil
	case uint32:
		return appendInt(dst, int64(v)), nil
	case uint:
		return appendUintValue(dst, uint64(v))
	case uint64:
		return appendUintValue(dst, v)
	case float32:
		return binary.LittleEndian.AppendUint32(append(dst, primFloat<<2), math.Float32bits(v)), nil
	case float64:
		return binary.LittleEndian.AppendUint64(append(dst, primDouble<<2), math.Float64bits(v)), nil
	case Decimal:
		return appendDecimal(dst, v)
	case Date:
		return binary.LittleEndian.AppendUint32(append(dst, primDate<<2), uint32(v)), nil
	case Time:
		return binary.LittleEndian.AppendUint64(append(dst, primTime<<2), uint64(v)), nil
	case Timestamp:
		return appendTimestamp(dst, v), nil
	case time.Time:
		ts := Timestamp{Value: v.UnixMicro()}
		if v.Nanosecond()%1000 != 0 {
			if y := v.Year(); y < 1678 || y > 2261 {
				return dst, fmt.Errorf("variant: time %v with nanoseconds is out of the nanosecond timestamp range", v)
			}
			ts = Timestamp{Value: v.UnixNano(), Nanos: true}
		}
		return appendTimestamp(dst, ts), nil
	case UUID:
		return append(append(dst, primUUID<<2), v[:]...), nil
	case []byte:
		if uint64(len(v)) > math.MaxUint32 {
			return dst, fmt.Errorf("variant: binary of %d bytes is too long", len(v))
		}
		dst = binary.LittleEndian.AppendUint32(append(dst, primBinary<<2), uint32(len(v)))
		return append(dst, v...), nil
	case string:
		return appendString(dst, v)
	case json.Number:
		return appendNumber(dst, v)
	case []any:
		return e.array(dst, v, depth)
	case Object:
		return e.object(dst, v, depth)
	case map[string]any:
		obj := make(Object, 0, len(v))
		for k, x := range v {
			obj = append(obj, Field{Name: k, Value: x})
		}
		return e.object(dst, obj, depth)
	}
	return dst, fmt.Errorf("variant: cannot encode a %T", v)
}

func appendInt(dst []byte, v int64) []byte {
	switch {
	case v == int64(int8(v)):
		return append(dst, primInt8<<2, byte(v))
	case v == int64(int16(v)):
		return binary.LittleEndian.AppendUint16(append(dst, primInt16<<2), uint16(v))
	case v == int64(int32(v)):
		return binary.LittleEndian.AppendUint32(append(dst, primInt32<<2), uint32(v))
	}
	return binary.LittleEndian.AppendUint64(append(dst, primInt64<<2), uint64(v))
}

func appendUintValue(dst []byte, v uint64) ([]byte, error) {
	if v <= math.MaxInt64 {
		return appendInt(dst, int64(v)), nil
	}
	return appendDecimal(dst, Decimal{Lo: v, Width: 16})
}

func appendString(dst []byte, s string) ([]byte, error) {
	if len(s) < 64 {
		return append(append(dst, byte(len(s))<<2|basicShortString), s...), nil
	}
	if uint64(len(s)) > math.MaxUint32 {
		return dst, fmt.Errorf("variant: string of %d bytes is too long", len(s))
	}
	dst = binary.LittleEndian.AppendUint32(append(dst, primString<<2), uint32(len(s)))
	return append(dst, s...), nil
}

func appendTimestamp(dst []byte, t Timestamp) []byte {
	var id byte
	switch {
	case t.Nanos && t.NTZ:
		id = primTimestampNTZNanos
	case t.Nanos:
		id = primTimestampNanos
	case t.NTZ:
		id = primTimestampNTZ
	default:
		id = primTimestamp
	}
	return binary.LittleEndian.AppendUint64(append(dst, id<<2), uint64(t.Value))
}

// bigTen38 bounds decimal16 magnitudes: at most 38 digits.
var bigTen38 = new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)

func appendDecimal(dst []byte, d Decimal) ([]byte, error) {
	if d.Scale > MaxDecimalScale {
		return dst, fmt.Errorf("variant: decimal scale %d above %d", d.Scale, MaxDecimalScale)
	}
	width := int(d.Width)
	if width == 0 {
		// The smallest type for the value's precision (VariantEncoding.md's
		// decimal table).
		v, ok := d.Int64()
		switch {
		case ok && v > -1e9 && v < 1e9:
			width = 4
		case ok && v > -1e18 && v < 1e18:
			width = 8
		default:
			width = 16
		}
	}
	if width != 4 && width != 8 && width != 16 {
		return dst, fmt.Errorf("variant: decimal width %d is not 4, 8 or 16", width)
	}
	if !d.fits(width) {
		return dst, fmt.Errorf("variant: decimal %v does not fit in %d bytes", d, width)
	}
	if width == 16 {
		if _, ok := d.Int64(); !ok {
			if b := d.Big(); b.CmpAbs(bigTen38) >= 0 {
				return dst, fmt.Errorf("variant: decimal %v has more than 38 digits", d)
			}
		}
	}
	le := binary.LittleEndian
	switch width {
	case 4:
		return le.AppendUint32(append(dst, primDecimal4<<2, d.Scale), uint32(d.Lo)), nil
	case 8:
		return le.AppendUint64(append(dst, primDecimal8<<2, d.Scale), d.Lo), nil
	}
	dst = append(dst, primDecimal16<<2, d.Scale)
	return le.AppendUint64(le.AppendUint64(dst, d.Lo), uint64(d.Hi)), nil
}

// appendNumber encodes a JSON number exactly when it can: as an integer,
// else as a decimal of at most 38 digits, else as a double.
func appendNumber(dst []byte, n json.Number) ([]byte, error) {
	s := string(n)
	if i, err := n.Int64(); err == nil {
		return appendInt(dst, i), nil
	}
	if d, ok := parseDecimal(s); ok {
		return appendDecimal(dst, d)
	}
	f, err := n.Float64()
	if err != nil && !strings.Contains(err.Error(), "range") {
		return dst, fmt.Errorf("variant: bad number %q", s)
	}
	return binary.LittleEndian.AppendUint64(append(dst, primDouble<<2), math.Float64bits(f)), nil
}

// parseDecimal parses a plain decimal literal ("-12.50", no exponent) of at
// most 38 digits.
func parseDecimal(s string) (Decimal, bool) {
	if strings.ContainsAny(s, "eE") {
		return Decimal{}, false
	}
	intPart, frac, _ := strings.Cut(s, ".")
	digits := strings.TrimLeft(strings.TrimPrefix(intPart, "-"), "0") + frac
	if len(strings.TrimLeft(digits, "0")) > MaxDecimalScale || len(frac) > MaxDecimalScale {
		return Decimal{}, false
	}
	var b big.Int
	if _, ok := b.SetString(intPart+frac, 10); !ok {
		return Decimal{}, false
	}
	d, ok := DecimalFromBig(&b, len(frac))
	return d, ok
}

func (e *valueEncoder) array(dst []byte, v []any, depth int) ([]byte, error) {
	if depth >= MaxDepth {
		return dst, fmt.Errorf("variant: nesting deeper than %d", MaxDepth)
	}
	start := len(dst)
	offs := make([]int, len(v))
	var err error
	for i, x := range v {
		offs[i] = len(dst) - start
		if dst, err = e.append(dst, x, depth+1); err != nil {
			return dst, err
		}
	}
	return finishContainer(dst, start, nil, offs), nil
}

func (e *valueEncoder) object(dst []byte, v Object, depth int) ([]byte, error) {
	if depth >= MaxDepth {
		return dst, fmt.Errorf("variant: nesting deeper than %d", MaxDepth)
	}
	fields := v
	if !slices.IsSortedFunc(v, func(a, b Field) int { return strings.Compare(a.Name, b.Name) }) {
		fields = slices.Clone(v)
		slices.SortStableFunc(fields, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	}
	start := len(dst)
	offs := make([]int, len(fields))
	ids := make([]int, len(fields))
	var err error
	for i, f := range fields {
		if i > 0 && fields[i-1].Name == f.Name {
			return dst, fmt.Errorf("variant: duplicate field %q", f.Name)
		}
		id, ok := e.lookup(f.Name)
		if !ok {
			return dst, fmt.Errorf("variant: field %q is not in the metadata dictionary", f.Name)
		}
		ids[i] = id
		offs[i] = len(dst) - start
		if dst, err = e.append(dst, f.Value, depth+1); err != nil {
			return dst, err
		}
	}
	return finishContainer(dst, start, ids, offs), nil
}

// finishContainer turns dst[start:], the concatenated element values whose
// starts (relative to start) are offs, into an array (ids == nil) or an
// object, by moving the values up and writing the header in front.
func finishContainer(dst []byte, start int, ids []int, offs []int) []byte {
	n := len(offs)
	total := len(dst) - start
	offSize := sizeFor(uint64(total))
	idSize, maxID := 1, 0
	for _, id := range ids {
		maxID = max(maxID, id)
	}
	idSize = sizeFor(uint64(maxID))
	nsz := 1
	if n > 255 {
		nsz = 4
	}
	hdr := 1 + nsz + (n+1)*offSize
	if ids != nil {
		hdr += n * idSize
	}
	dst = slices.Grow(dst, hdr)[:len(dst)+hdr]
	copy(dst[start+hdr:], dst[start:start+total])
	h := dst[start:start]
	if ids != nil {
		meta := byte(offSize-1) | byte(idSize-1)<<2
		if nsz == 4 {
			meta |= 1 << 4
		}
		h = append(h, meta<<2|basicObject)
	} else {
		meta := byte(offSize - 1)
		if nsz == 4 {
			meta |= 1 << 2
		}
		h = append(h, meta<<2|basicArray)
	}
	h = appendUint(h, uint64(n), nsz)
	for _, id := range ids {
		h = appendUint(h, uint64(id), idSize)
	}
	for _, o := range offs {
		h = appendUint(h, uint64(o), offSize)
	}
	appendUint(h, uint64(total), offSize)
	return dst
}

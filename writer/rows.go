package writer

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// rowBatchSize is how many rows WriteRows gathers before writing them as a
// columnar batch.
const rowBatchSize = 4096

// WriteRows writes rows of Go values, one []any per row with one value per
// top-level field, of the kinds parquet/value's Get returns: nil for null;
// bool; int32/int64 and the sized Go integers (int8 ... uint64, int) for
// integer columns; float32/float64; string or []byte for byte arrays;
// time.Time for DATE, TIME (the time of day), TIMESTAMP and INT96;
// time.Duration for TIME; value.Decimal or its text ("12.34") for
// DECIMAL; a UUID string or
// [16]byte for UUID; float32 for FLOAT16; value.Interval for INTERVAL;
// map[string]any for groups; []any (or any slice) for lists; Go maps for
// maps. Rows are gathered into columnar batches; Flush and Close write
// what is pending.
func (w *Writer) WriteRows(rows [][]any) error {
	if w.closed {
		return ErrClosed
	}
	if w.err != nil {
		return w.err
	}
	if w.rowBuf == nil {
		w.rowBuf = make([]*builder, len(w.fields))
		for i, f := range w.fields {
			w.rowBuf[i] = newBuilder(f)
		}
	}
	for _, row := range rows {
		if len(row) != len(w.fields) {
			return fmt.Errorf("writer: row %d has %d values for %d fields", w.NumRows(), len(row), len(w.fields))
		}
		for _, b := range w.rowBuf {
			b.mark()
		}
		for i, b := range w.rowBuf {
			if err := b.add(row[i]); err != nil {
				// Take back what the row added: the rows before it stay.
				for _, b := range w.rowBuf {
					b.rollback()
				}
				return fmt.Errorf("writer: row %d: %w", w.NumRows(), err)
			}
		}
		w.pendingRows++
		if w.pendingRows >= rowBatchSize {
			if err := w.flushRows(); err != nil {
				return err
			}
		}
	}
	return nil
}

// WriteRow writes one row of Go values (see WriteRows).
func (w *Writer) WriteRow(row ...any) error { return w.WriteRows([][]any{row}) }

func (w *Writer) flushRows() error {
	if w.pendingRows == 0 {
		return nil
	}
	cols := make([]*vector.Vector, len(w.rowBuf))
	for i, b := range w.rowBuf {
		cols[i] = b.finish()
	}
	w.pendingRows = 0
	err := w.WriteBatch(cols)
	for _, b := range w.rowBuf {
		b.reset()
	}
	return err
}

// builder appends Go values to the vector of one logical field.
type builder struct {
	f        *schema.Field
	v        vector.Vector
	valid    vector.Bitmap
	hasNull  bool
	children []*builder
	lt       *format.LogicalType
	unitNs   int64 // TIME and TIMESTAMP
	scale    int32 // DECIMAL
	width    int
	saved    [3]int // lengths at the start of the row: slots, values, offsets
}

// mark remembers the builder's lengths before a row.
func (b *builder) mark() {
	b.saved = [3]int{b.v.Len, b.valueLen(), len(b.v.Offsets)}
	for _, c := range b.children {
		c.mark()
	}
}

// rollback returns to the lengths of the last mark.
func (b *builder) rollback() {
	b.v.Len = b.saved[0]
	n := b.saved[1]
	switch b.v.Kind {
	case vector.Bool:
		b.v.Bools = b.v.Bools[:n]
	case vector.Int32:
		b.v.Int32s = b.v.Int32s[:n]
	case vector.Int64:
		b.v.Int64s = b.v.Int64s[:n]
	case vector.Int96:
		b.v.Int96s = b.v.Int96s[:n]
	case vector.Float32:
		b.v.Float32s = b.v.Float32s[:n]
	case vector.Float64:
		b.v.Float64s = b.v.Float64s[:n]
	case vector.ByteArray, vector.FixedLenByteArray:
		b.v.Data = b.v.Data[:n]
	}
	b.v.Offsets = b.v.Offsets[:b.saved[2]]
	b.valid = b.valid[:(b.v.Len+63)/64]
	for _, c := range b.children {
		c.rollback()
	}
}

func (b *builder) valueLen() int {
	switch b.v.Kind {
	case vector.Bool:
		return len(b.v.Bools)
	case vector.Int32:
		return len(b.v.Int32s)
	case vector.Int64:
		return len(b.v.Int64s)
	case vector.Int96:
		return len(b.v.Int96s)
	case vector.Float32:
		return len(b.v.Float32s)
	case vector.Float64:
		return len(b.v.Float64s)
	case vector.ByteArray, vector.FixedLenByteArray:
		return len(b.v.Data)
	}
	return 0
}

func newBuilder(f *schema.Field) *builder {
	b := &builder{f: f}
	switch f.Kind {
	case schema.Struct:
		b.v.Kind = vector.Struct
	case schema.List:
		b.v.Kind = vector.List
	case schema.Map:
		b.v.Kind = vector.Map
	default:
		n := f.Node
		b.v.Kind, b.v.Width, b.width = kindOf(n.Physical), n.TypeLength, n.TypeLength
		b.lt = n.Logical
		if lt := b.lt; lt != nil {
			switch {
			case lt.Time != nil:
				b.unitNs = schema.UnitNanos(lt.Time.Unit)
			case lt.Timestamp != nil:
				b.unitNs = schema.UnitNanos(lt.Timestamp.Unit)
			case lt.Decimal != nil:
				b.scale = lt.Decimal.Scale
			}
		}
	}
	for _, c := range f.Children {
		b.children = append(b.children, newBuilder(c))
	}
	b.reset()
	return b
}

func (b *builder) reset() {
	b.v.Reset()
	b.v.Valid = nil
	b.valid = b.valid[:0]
	b.hasNull = false
	if b.v.Kind == vector.ByteArray || b.v.Kind == vector.List || b.v.Kind == vector.Map {
		b.v.Offsets = append(b.v.Offsets[:0], 0)
	}
	for _, c := range b.children {
		c.reset()
	}
}

// finish returns the built vector (valid until the next reset).
func (b *builder) finish() *vector.Vector {
	b.v.Valid = nil
	if b.hasNull {
		b.v.Valid = b.valid
	}
	b.v.Children = b.v.Children[:0]
	for _, c := range b.children {
		b.v.Children = append(b.v.Children, c.finish())
	}
	return &b.v
}

func (b *builder) setValid(ok bool) {
	i := b.v.Len
	if i>>6 >= len(b.valid) {
		b.valid = append(b.valid, 0)
	}
	if ok {
		b.valid[i>>6] |= 1 << (uint(i) & 63)
	} else {
		b.valid[i>>6] &^= 1 << (uint(i) & 63)
		b.hasNull = true
	}
}

func (b *builder) path() string { return b.f.Node.PathString() }

// add appends one value.
func (b *builder) add(x any) error {
	if x == nil {
		if !b.f.Nullable {
			return fmt.Errorf("column %s: null in a required field", b.path())
		}
		b.addNull()
		return nil
	}
	var err error
	switch b.f.Kind {
	case schema.Struct:
		err = b.addStruct(x)
	case schema.List:
		err = b.addList(x)
	case schema.Map:
		err = b.addMap(x)
	default:
		err = b.addPrimitive(x)
	}
	if err != nil {
		return err
	}
	b.setValid(true)
	b.v.Len++
	return nil
}

// addNull appends a null slot: zero values below it, so that required
// children keep a slot too.
func (b *builder) addNull() {
	b.setValid(false)
	b.addZero()
	b.v.Len++
}

// addZero appends the zero value of the slot's storage (not Len).
func (b *builder) addZero() {
	switch b.v.Kind {
	case vector.Struct:
		for _, c := range b.children {
			if c.f.Nullable {
				c.addNull()
			} else {
				c.setValid(true)
				c.addZero()
				c.v.Len++
			}
		}
	case vector.List, vector.Map:
		b.v.Offsets = append(b.v.Offsets, b.v.Offsets[len(b.v.Offsets)-1])
	case vector.Bool:
		b.v.Bools = append(b.v.Bools, false)
	case vector.Int32:
		b.v.Int32s = append(b.v.Int32s, 0)
	case vector.Int64:
		b.v.Int64s = append(b.v.Int64s, 0)
	case vector.Int96:
		b.v.Int96s = append(b.v.Int96s, [12]byte{})
	case vector.Float32:
		b.v.Float32s = append(b.v.Float32s, 0)
	case vector.Float64:
		b.v.Float64s = append(b.v.Float64s, 0)
	case vector.ByteArray:
		b.v.Offsets = append(b.v.Offsets, int32(len(b.v.Data)))
	case vector.FixedLenByteArray:
		b.v.Data = append(b.v.Data, make([]byte, b.width)...)
	}
}

func (b *builder) addStruct(x any) error {
	m, ok := x.(map[string]any)
	if !ok {
		return fmt.Errorf("column %s: a group takes a map[string]any, not %T", b.path(), x)
	}
	for k := range m {
		found := false
		for _, c := range b.children {
			if c.f.Name == k {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("column %s: the group has no field %q", b.path(), k)
		}
	}
	for _, c := range b.children {
		if err := c.add(m[c.f.Name]); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) addList(x any) error {
	elem := b.children[0]
	switch s := x.(type) {
	case []any:
		for _, e := range s {
			if err := elem.add(e); err != nil {
				return err
			}
		}
	default:
		rv := reflect.ValueOf(x)
		if rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array {
			return fmt.Errorf("column %s: a list takes a slice, not %T", b.path(), x)
		}
		for i := range rv.Len() {
			if err := elem.add(rv.Index(i).Interface()); err != nil {
				return err
			}
		}
	}
	b.v.Offsets = append(b.v.Offsets, int32(elem.v.Len))
	return nil
}

func (b *builder) addMap(x any) error {
	rv := reflect.ValueOf(x)
	if rv.Kind() != reflect.Map {
		return fmt.Errorf("column %s: a map takes a Go map, not %T", b.path(), x)
	}
	keys := rv.MapKeys()
	// A stable entry order makes files reproducible.
	slices.SortFunc(keys, func(a, c reflect.Value) int { return compareKeys(a.Interface(), c.Interface()) })
	key := b.children[0]
	for _, k := range keys {
		if err := key.add(k.Interface()); err != nil {
			return err
		}
		if len(b.children) > 1 {
			if err := b.children[1].add(rv.MapIndex(k).Interface()); err != nil {
				return err
			}
		}
	}
	b.v.Offsets = append(b.v.Offsets, int32(key.v.Len))
	return nil
}

func compareKeys(a, c any) int {
	switch x := a.(type) {
	case string:
		if y, ok := c.(string); ok {
			return strings.Compare(x, y)
		}
	case int32:
		if y, ok := c.(int32); ok {
			return cmp.Compare(x, y)
		}
	case int64:
		if y, ok := c.(int64); ok {
			return cmp.Compare(x, y)
		}
	case int:
		if y, ok := c.(int); ok {
			return cmp.Compare(x, y)
		}
	}
	return strings.Compare(fmt.Sprint(a), fmt.Sprint(c))
}

func (b *builder) typeErr(x any) error {
	return fmt.Errorf("column %s: %T does not fit %s", b.path(), x, describeLeaf(b.f.Node))
}

func (b *builder) addPrimitive(x any) error {
	lt := b.lt
	if str, ok := x.(string); ok && lt != nil && lt.Decimal != nil {
		// A decimal written out: exact, unlike a float64.
		d, err := value.ParseDecimal(str)
		if err != nil {
			return fmt.Errorf("column %s: %w", b.path(), err)
		}
		x = d
	}
	switch b.v.Kind {
	case vector.Bool:
		v, ok := x.(bool)
		if !ok {
			return b.typeErr(x)
		}
		b.v.Bools = append(b.v.Bools, v)
	case vector.Int32:
		v, err := b.intValue(x, 32)
		if err != nil {
			return err
		}
		b.v.Int32s = append(b.v.Int32s, int32(v))
	case vector.Int64:
		v, err := b.intValue(x, 64)
		if err != nil {
			return err
		}
		b.v.Int64s = append(b.v.Int64s, v)
	case vector.Int96:
		switch v := x.(type) {
		case time.Time:
			b.v.Int96s = append(b.v.Int96s, value.Int96Of(v))
		case [12]byte:
			b.v.Int96s = append(b.v.Int96s, v)
		default:
			return b.typeErr(x)
		}
	case vector.Float32:
		switch v := x.(type) {
		case float32:
			b.v.Float32s = append(b.v.Float32s, v)
		case float64:
			b.v.Float32s = append(b.v.Float32s, float32(v))
		default:
			return b.typeErr(x)
		}
	case vector.Float64:
		switch v := x.(type) {
		case float64:
			b.v.Float64s = append(b.v.Float64s, v)
		case float32:
			b.v.Float64s = append(b.v.Float64s, float64(v))
		default:
			return b.typeErr(x)
		}
	case vector.ByteArray:
		switch v := x.(type) {
		case string:
			b.v.Data = append(b.v.Data, v...)
		case []byte:
			b.v.Data = append(b.v.Data, v...)
		case value.Decimal:
			if lt == nil || lt.Decimal == nil {
				return b.typeErr(x)
			}
			u, err := b.unscaled(v)
			if err != nil {
				return err
			}
			b.v.Data = appendTwosComplement(b.v.Data, u, 0)
		default:
			return b.typeErr(x)
		}
		b.v.Offsets = append(b.v.Offsets, int32(len(b.v.Data)))
	case vector.FixedLenByteArray:
		out, err := b.fixedValue(x)
		if err != nil {
			return err
		}
		if len(out) != b.width {
			return fmt.Errorf("column %s: %d bytes for a FIXED_LEN_BYTE_ARRAY(%d)", b.path(), len(out), b.width)
		}
		b.v.Data = append(b.v.Data, out...)
	}
	return nil
}

// intValue converts integers, times and decimals for INT32 and INT64.
func (b *builder) intValue(x any, bits int) (int64, error) {
	lt := b.lt
	var v int64
	switch t := x.(type) {
	case int32:
		v = int64(t)
	case int64:
		v = t
	case int:
		v = int64(t)
	case int8:
		v = int64(t)
	case int16:
		v = int64(t)
	case uint8:
		v = int64(t)
	case uint16:
		v = int64(t)
	case uint32:
		v = int64(t)
	case uint64:
		if bits == 32 && t > math.MaxUint32 {
			return 0, fmt.Errorf("column %s: %d does not fit 32 bits", b.path(), t)
		}
		return int64(t), nil // UINT_64 keeps its bit pattern
	case time.Time:
		switch {
		case lt != nil && lt.Date != nil:
			return floorDiv(t.Unix(), 86400), nil
		case lt != nil && lt.Timestamp != nil:
			return timestampOf(t, b.unitNs)
		case lt != nil && lt.Time != nil:
			d := time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute +
				time.Duration(t.Second())*time.Second + time.Duration(t.Nanosecond())
			return int64(d) / b.unitNs, nil
		}
		return 0, b.typeErr(x)
	case time.Duration:
		if lt == nil || lt.Time == nil {
			return 0, b.typeErr(x)
		}
		return int64(t) / b.unitNs, nil
	case value.Decimal:
		if lt == nil || lt.Decimal == nil {
			return 0, b.typeErr(x)
		}
		u, err := b.unscaled(t)
		if err != nil {
			return 0, err
		}
		if !u.IsInt64() || bits == 32 && (u.Int64() > math.MaxInt32 || u.Int64() < math.MinInt32) {
			return 0, fmt.Errorf("column %s: %s does not fit %d bits", b.path(), t, bits)
		}
		return u.Int64(), nil
	default:
		return 0, b.typeErr(x)
	}
	if bits == 32 {
		unsigned := lt != nil && lt.Integer != nil && !lt.Integer.IsSigned
		lo, hi := int64(math.MinInt32), int64(math.MaxInt32)
		if lt != nil && lt.Integer != nil {
			w := lt.Integer.BitWidth
			if unsigned {
				lo, hi = 0, 1<<w-1
			} else {
				lo, hi = -1<<(w-1), 1<<(w-1)-1
			}
		}
		if v < lo || v > hi {
			return 0, fmt.Errorf("column %s: %d does not fit %s", b.path(), v, describeLeaf(b.f.Node))
		}
		if unsigned {
			v = int64(int32(uint32(v)))
		}
	}
	return v, nil
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func timestampOf(t time.Time, unitNs int64) (int64, error) {
	switch unitNs {
	case 1:
		n := t.UnixNano()
		if !time.Unix(0, n).Equal(t) {
			return 0, fmt.Errorf("%v is out of the range of nanosecond timestamps", t)
		}
		return n, nil
	case 1e3:
		return t.UnixMicro(), nil
	}
	return t.UnixMilli(), nil
}

// unscaled returns d's unscaled value at the column's scale, refusing to
// drop digits.
func (b *builder) unscaled(d value.Decimal) (*big.Int, error) {
	u := d.Unscaled
	if u == nil {
		u = new(big.Int)
	}
	switch diff := b.scale - d.Scale; {
	case diff > 0:
		u = new(big.Int).Mul(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(diff)), nil))
	case diff < 0:
		q, r := new(big.Int).QuoRem(u, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-diff)), nil), new(big.Int))
		if r.Sign() != 0 {
			return nil, fmt.Errorf("column %s: %s has more than %d decimal places", b.path(), d, b.scale)
		}
		u = q
	}
	return u, nil
}

// appendTwosComplement appends u big-endian in two's complement: the
// fewest bytes (width 0), or exactly width bytes.
func appendTwosComplement(dst []byte, u *big.Int, width int) []byte {
	n := u.BitLen()/8 + 1 // room for the sign bit
	if width > 0 {
		n = width
	}
	buf := make([]byte, n)
	if u.Sign() >= 0 {
		u.FillBytes(buf)
	} else {
		// 2^(8n) + u
		m := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
		m.Add(m, u)
		m.FillBytes(buf)
	}
	if width == 0 {
		// Drop redundant sign bytes.
		for len(buf) > 1 && (buf[0] == 0 && buf[1]&0x80 == 0 || buf[0] == 0xff && buf[1]&0x80 != 0) {
			buf = buf[1:]
		}
	}
	return append(dst, buf...)
}

func (b *builder) fixedValue(x any) ([]byte, error) {
	lt := b.lt
	n := b.f.Node
	switch v := x.(type) {
	case []byte:
		return v, nil
	case string:
		if lt != nil && lt.UUID != nil {
			s := strings.ReplaceAll(v, "-", "")
			u, err := hex.DecodeString(s)
			if err != nil || len(u) != 16 {
				return nil, fmt.Errorf("column %s: %q is not a UUID", b.path(), v)
			}
			return u, nil
		}
		return []byte(v), nil
	case [16]byte:
		return v[:], nil
	case value.Decimal:
		if lt == nil || lt.Decimal == nil {
			return nil, b.typeErr(x)
		}
		u, err := b.unscaled(v)
		if err != nil {
			return nil, err
		}
		if (u.BitLen()+8)/8 > b.width {
			return nil, fmt.Errorf("column %s: %s does not fit %d bytes", b.path(), v, b.width)
		}
		return appendTwosComplement(nil, u, b.width), nil
	case value.Interval:
		if !(n.Converted.Set && n.Converted.Value == format.Interval) {
			return nil, b.typeErr(x)
		}
		out := binary.LittleEndian.AppendUint32(nil, v.Months)
		out = binary.LittleEndian.AppendUint32(out, v.Days)
		return binary.LittleEndian.AppendUint32(out, v.Millis), nil
	case float32:
		if lt == nil || lt.Float16 == nil {
			return nil, b.typeErr(x)
		}
		return float16Bytes(v), nil
	case float64:
		if lt == nil || lt.Float16 == nil {
			return nil, b.typeErr(x)
		}
		return float16Bytes(float32(v)), nil
	}
	return nil, b.typeErr(x)
}

// float16Bytes rounds f to the nearest IEEE half (ties to even) and
// returns its little-endian bytes.
func float16Bytes(f float32) []byte {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int(bits>>23) & 0xff
	mant := bits & 0x7fffff
	var h uint16
	switch {
	case exp == 0xff: // Inf, NaN
		h = sign | 0x7c00
		if mant != 0 {
			h |= 0x200 | uint16(mant>>13)
		}
	case exp-127 > 15: // overflow
		h = sign | 0x7c00
	case exp-127 >= -14: // normal
		e := uint32(exp - 127 + 15)
		m := mant >> 13
		rest := mant & 0x1fff
		v := e<<10 | m
		if rest > 0x1000 || rest == 0x1000 && m&1 == 1 {
			v++ // may carry into the exponent, up to Inf: still right
		}
		h = sign | uint16(v)
	case exp-127 >= -25: // subnormal
		m := mant | 0x800000
		shift := uint(-(exp - 127) - 14 + 13)
		v := m >> shift
		rest := m & (1<<shift - 1)
		half := uint32(1) << (shift - 1)
		if rest > half || rest == half && v&1 == 1 {
			v++
		}
		h = sign | uint16(v)
	default:
		h = sign
	}
	return []byte{byte(h), byte(h >> 8)}
}

package writer

import (
	"fmt"
	"math"
	"math/big"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// TimeUnit is the unit of a TIME or TIMESTAMP field.
type TimeUnit uint8

const (
	Millis TimeUnit = iota
	Micros
	Nanos
)

func (u TimeUnit) format() format.TimeUnit {
	switch u {
	case Millis:
		return format.TimeUnit{Millis: &format.MilliSeconds{}}
	case Micros:
		return format.TimeUnit{Micros: &format.MicroSeconds{}}
	default:
		return format.TimeUnit{Nanos: &format.NanoSeconds{}}
	}
}

type fieldKind uint8

const (
	leafField fieldKind = iota
	groupField
	listField
	mapField
)

// Field describes one field of a schema under construction. Build fields
// with the constructors (Int64, String, Timestamp, List, Map, Group, ...)
// and adjust them with the methods (Required, Optional, Repeated, ID), which
// return modified copies. Fields are optional unless made Required.
type Field struct {
	name       string
	kind       fieldKind
	repetition format.FieldRepetitionType
	repSet     bool
	physical   format.Type
	typeLength int
	logical    *format.LogicalType
	converted  format.Opt[format.ConvertedType]
	fieldID    format.Opt[int32]
	children   []Field
	err        error
}

func leaf(name string, t format.Type, lt *format.LogicalType) Field {
	return Field{name: name, repetition: format.Optional, physical: t, logical: lt}
}

// Name is the field's name.
func (f Field) Name() string { return f.name }

// Required makes the field non-nullable.
func (f Field) Required() Field { f.repetition, f.repSet = format.Required, true; return f }

// Optional makes the field nullable (the default).
func (f Field) Optional() Field { f.repetition, f.repSet = format.Optional, true; return f }

// Repeated makes the field a bare repeated field (a required list of
// required values without a LIST annotation). Prefer List, which writers
// should produce; Repeated exists for schemas that must match old files.
func (f Field) Repeated() Field { f.repetition, f.repSet = format.Repeated, true; return f }

// ID sets the field id (the Iceberg-style field_id of the SchemaElement).
func (f Field) ID(id int32) Field { f.fieldID = format.Some(id); return f }

// WithLogical replaces the logical type annotation. The matching converted
// type is derived when the elements are built.
func (f Field) WithLogical(lt *format.LogicalType) Field { f.logical = lt; return f }

// EdgeAlgorithm sets the edge interpolation algorithm of a GEOGRAPHY field.
func (f Field) EdgeAlgorithm(a format.EdgeInterpolationAlgorithm) Field {
	if f.logical == nil || f.logical.Geography == nil {
		f.err = fmt.Errorf("field %q: EdgeAlgorithm applies to GEOGRAPHY fields only", f.name)
		return f
	}
	g := *f.logical.Geography
	g.Algorithm = format.Some(a)
	f.logical = &format.LogicalType{Geography: &g}
	return f
}

// Leaf is a primitive field of physical type t (length is the byte width
// of FIXED_LEN_BYTE_ARRAY, ignored otherwise) with an optional logical type.
func Leaf(name string, t format.Type, length int, lt *format.LogicalType) Field {
	f := leaf(name, t, lt)
	f.typeLength = length
	return f
}

// Bool is a BOOLEAN field.
func Bool(name string) Field { return leaf(name, format.Boolean, nil) }

// Int32 is an INT32 field.
func Int32(name string) Field { return leaf(name, format.Int32, nil) }

// Int64 is an INT64 field.
func Int64(name string) Field { return leaf(name, format.Int64, nil) }

// Int96 is a (deprecated) INT96 timestamp field.
func Int96(name string) Field { return leaf(name, format.Int96, nil) }

// Float is a FLOAT field.
func Float(name string) Field { return leaf(name, format.Float, nil) }

// Double is a DOUBLE field.
func Double(name string) Field { return leaf(name, format.Double, nil) }

// Binary is an unannotated BYTE_ARRAY field.
func Binary(name string) Field { return leaf(name, format.ByteArray, nil) }

// FixedLen is an unannotated FIXED_LEN_BYTE_ARRAY field of n bytes.
func FixedLen(name string, n int) Field {
	f := leaf(name, format.FixedLenByteArray, nil)
	f.typeLength = n
	return f
}

// String is a BYTE_ARRAY field annotated STRING (UTF8).
func String(name string) Field {
	return leaf(name, format.ByteArray, &format.LogicalType{String: &format.StringType{}})
}

// Enum is a BYTE_ARRAY field annotated ENUM.
func Enum(name string) Field {
	return leaf(name, format.ByteArray, &format.LogicalType{Enum: &format.EnumType{}})
}

// JSON is a BYTE_ARRAY field annotated JSON.
func JSON(name string) Field {
	return leaf(name, format.ByteArray, &format.LogicalType{JSON: &format.JsonType{}})
}

// BSON is a BYTE_ARRAY field annotated BSON.
func BSON(name string) Field {
	return leaf(name, format.ByteArray, &format.LogicalType{BSON: &format.BsonType{}})
}

// UUID is a 16-byte FIXED_LEN_BYTE_ARRAY field annotated UUID.
func UUID(name string) Field {
	f := leaf(name, format.FixedLenByteArray, &format.LogicalType{UUID: &format.UUIDType{}})
	f.typeLength = 16
	return f
}

// Float16 is a 2-byte FIXED_LEN_BYTE_ARRAY field annotated FLOAT16.
func Float16(name string) Field {
	f := leaf(name, format.FixedLenByteArray, &format.LogicalType{Float16: &format.Float16Type{}})
	f.typeLength = 2
	return f
}

// Date is an INT32 field annotated DATE (days since the Unix epoch).
func Date(name string) Field {
	return leaf(name, format.Int32, &format.LogicalType{Date: &format.DateType{}})
}

// Interval is a 12-byte FIXED_LEN_BYTE_ARRAY field with the INTERVAL
// converted type (months, days, milliseconds; there is no logical type).
func Interval(name string) Field {
	f := leaf(name, format.FixedLenByteArray, nil)
	f.typeLength = 12
	f.converted = format.Some(format.Interval)
	return f
}

// Time is a TIME field: INT32 for milliseconds, INT64 for micro- and
// nanoseconds since midnight.
func Time(name string, unit TimeUnit, adjustedToUTC bool) Field {
	t := format.Int64
	if unit == Millis {
		t = format.Int32
	}
	return leaf(name, t, &format.LogicalType{Time: &format.TimeType{IsAdjustedToUTC: adjustedToUTC, Unit: unit.format()}})
}

// Timestamp is an INT64 TIMESTAMP field.
func Timestamp(name string, unit TimeUnit, adjustedToUTC bool) Field {
	return leaf(name, format.Int64, &format.LogicalType{Timestamp: &format.TimestampType{IsAdjustedToUTC: adjustedToUTC, Unit: unit.format()}})
}

// Integer is an INT field of 8, 16, 32 or 64 bits, signed or not: INT32
// for widths up to 32, INT64 for 64.
func Integer(name string, bits int, signed bool) Field {
	t := format.Int32
	if bits == 64 {
		t = format.Int64
	}
	f := leaf(name, t, &format.LogicalType{Integer: &format.IntType{BitWidth: int8(bits), IsSigned: signed}})
	if bits != 8 && bits != 16 && bits != 32 && bits != 64 {
		f.err = fmt.Errorf("field %q: integer width %d is not 8, 16, 32 or 64", name, bits)
	}
	return f
}

// Decimal is a DECIMAL(precision, scale) field stored in the smallest
// physical type that holds the precision: INT32 up to 9 digits, INT64 up to
// 18, FIXED_LEN_BYTE_ARRAY of the minimal width beyond.
func Decimal(name string, precision, scale int) Field {
	switch {
	case precision <= 9:
		return DecimalAs(name, precision, scale, format.Int32, 0)
	case precision <= 18:
		return DecimalAs(name, precision, scale, format.Int64, 0)
	}
	return DecimalAs(name, precision, scale, format.FixedLenByteArray, DecimalWidth(precision))
}

// DecimalAs is a DECIMAL(precision, scale) field stored as physical type t
// (INT32, INT64, FIXED_LEN_BYTE_ARRAY of length bytes, or BYTE_ARRAY).
func DecimalAs(name string, precision, scale int, t format.Type, length int) Field {
	f := leaf(name, t, &format.LogicalType{Decimal: &format.DecimalType{Precision: int32(precision), Scale: int32(scale)}})
	f.typeLength = length
	return f
}

// DecimalWidth is the smallest FIXED_LEN_BYTE_ARRAY width holding
// precision decimal digits.
func DecimalWidth(precision int) int {
	for n := 1; ; n++ {
		if maxDecimalDigits(n) >= precision {
			return n
		}
	}
}

// maxDecimalDigits is floor(log10(2^(8n-1) - 1)).
func maxDecimalDigits(n int) int {
	if n <= 0 {
		return 0
	}
	if n <= 7 {
		v := int64(1)<<(8*n-1) - 1
		return int(math.Floor(math.Log10(float64(v))))
	}
	v := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(8*n-1)), big.NewInt(1))
	return len(v.String()) - 1
}

// Geometry is a BYTE_ARRAY (WKB) field annotated GEOMETRY; crs "" leaves
// the CRS unset (OGC:CRS84).
func Geometry(name, crs string) Field {
	g := &format.GeometryType{}
	if crs != "" {
		g.CRS = format.Some(crs)
	}
	return leaf(name, format.ByteArray, &format.LogicalType{Geometry: g})
}

// Geography is a BYTE_ARRAY (WKB) field annotated GEOGRAPHY; crs "" leaves
// the CRS unset. Set the edge algorithm with EdgeAlgorithm.
func Geography(name, crs string) Field {
	g := &format.GeographyType{}
	if crs != "" {
		g.CRS = format.Some(crs)
	}
	return leaf(name, format.ByteArray, &format.LogicalType{Geography: g})
}

// Unknown is an always-null field annotated UNKNOWN (stored as INT32).
func Unknown(name string) Field {
	return leaf(name, format.Int32, &format.LogicalType{Unknown: &format.NullType{}})
}

// Variant is an unshredded VARIANT(1) group: required binary metadata and
// required binary value.
func Variant(name string) Field {
	f := Group(name, Binary("metadata").Required(), Binary("value").Required())
	f.logical = &format.LogicalType{Variant: &format.VariantType{SpecificationVersion: format.Some(int8(1))}}
	return f
}

// Group is a struct of fields.
func Group(name string, fields ...Field) Field {
	return Field{name: name, kind: groupField, repetition: format.Optional, children: fields}
}

// List is a LIST of element, written in the standard 3-level form
// (<list> / repeated group list / element). The element keeps its
// repetition (optional unless made Required); its name becomes "element".
func List(name string, element Field) Field {
	return Field{name: name, kind: listField, repetition: format.Optional,
		logical: &format.LogicalType{List: &format.ListType{}}, children: []Field{element}}
}

// Map is a MAP from key to value, written as <map> / repeated group
// key_value / (key, value). Keys are always required. Without a value the
// map is a set of keys.
func Map(name string, key Field, value ...Field) Field {
	f := Field{name: name, kind: mapField, repetition: format.Optional,
		logical: &format.LogicalType{Map: &format.MapType{}}, children: []Field{key}}
	switch len(value) {
	case 0:
	case 1:
		f.children = append(f.children, value[0])
	default:
		f.err = fmt.Errorf("map %q: more than one value field", name)
	}
	return f
}

// NewSchema builds the schema tree of the fields under a root named "schema".
func NewSchema(fields ...Field) (*schema.Schema, error) {
	elems, err := Elements("schema", fields...)
	if err != nil {
		return nil, err
	}
	s, err := schema.FromElements(elems)
	if err != nil {
		return nil, err
	}
	if _, err := s.LogicalFields(); err != nil {
		return nil, err
	}
	return s, nil
}

// Elements flattens the fields into the depth-first SchemaElement list of a
// footer, under a root group named root. Logical types get their matching
// ConvertedType (LogicalTypes.md, forward compatibility), and decimals
// their scale and precision.
func Elements(root string, fields ...Field) ([]format.SchemaElement, error) {
	if len(fields) == 0 {
		return nil, fmt.Errorf("schema %q: no fields", root)
	}
	elems := []format.SchemaElement{{Name: root, NumChildren: format.Some(int32(len(fields)))}}
	if err := checkNames(root, fields, false); err != nil {
		return nil, err
	}
	for _, f := range fields {
		var err error
		if elems, err = f.appendElements(elems, ""); err != nil {
			return nil, err
		}
	}
	return elems, nil
}

// checkNames refuses empty and repeated names among fields. The first
// field of a group may have an empty name: DuckDB names a UNION's tag
// field "" in the struct it writes the UNION as.
func checkNames(parent string, fields []Field, group bool) error {
	seen := make(map[string]bool, len(fields))
	for i, f := range fields {
		if f.name == "" && !(group && i == 0) {
			return fmt.Errorf("%s: a field has an empty name", parent)
		}
		if seen[f.name] {
			return fmt.Errorf("%s: two fields are named %q", parent, f.name)
		}
		seen[f.name] = true
	}
	return nil
}

func (f Field) appendElements(elems []format.SchemaElement, parent string) ([]format.SchemaElement, error) {
	path := f.name
	if parent != "" {
		path = parent + "." + f.name
	}
	if f.err != nil {
		return nil, f.err
	}
	e := format.SchemaElement{Name: f.name, RepetitionType: format.Some(f.repetition), FieldID: f.fieldID}
	switch f.kind {
	case leafField:
		if err := f.checkLeaf(path); err != nil {
			return nil, err
		}
		e.Type = format.Some(f.physical)
		if f.physical == format.FixedLenByteArray {
			e.TypeLength = format.Some(int32(f.typeLength))
		}
		e.LogicalType = f.logical
		if err := setConverted(&e, f.logical); err != nil {
			return nil, fmt.Errorf("column %s: %w", path, err)
		}
		if f.converted.Set {
			e.ConvertedType = f.converted
		}
		return append(elems, e), nil
	case groupField:
		if len(f.children) == 0 {
			return nil, fmt.Errorf("group %s has no fields", path)
		}
		if err := checkNames(path, f.children, true); err != nil {
			return nil, err
		}
		if f.logical != nil {
			if f.logical.Variant != nil {
				if err := checkVariant(path, f.children); err != nil {
					return nil, err
				}
			} else if f.logical.List != nil || f.logical.Map != nil {
				return nil, fmt.Errorf("group %s: use List or Map for LIST and MAP groups", path)
			}
		}
		e.LogicalType = f.logical
		e.NumChildren = format.Some(int32(len(f.children)))
		elems = append(elems, e)
		for _, c := range f.children {
			var err error
			if elems, err = c.appendElements(elems, path); err != nil {
				return nil, err
			}
		}
		return elems, nil
	case listField:
		if f.repetition == format.Repeated {
			return nil, fmt.Errorf("list %s: a LIST group must be optional or required", path)
		}
		el := f.children[0]
		if el.repetition == format.Repeated {
			return nil, fmt.Errorf("list %s: the element must be optional or required", path)
		}
		el.name = "element"
		e.LogicalType = f.logical
		e.ConvertedType = format.Some(format.List)
		e.NumChildren = format.Some(int32(1))
		elems = append(elems, e, format.SchemaElement{Name: "list", RepetitionType: format.Some(format.Repeated), NumChildren: format.Some(int32(1))})
		return el.appendElements(elems, path+".list")
	default: // map
		if f.repetition == format.Repeated {
			return nil, fmt.Errorf("map %s: a MAP group must be optional or required", path)
		}
		key := f.children[0]
		if key.repSet && key.repetition != format.Required {
			return nil, fmt.Errorf("map %s: the key must be required", path)
		}
		key.repetition, key.name = format.Required, "key"
		e.LogicalType = f.logical
		e.ConvertedType = format.Some(format.Map)
		e.NumChildren = format.Some(int32(1))
		kv := format.SchemaElement{Name: "key_value", RepetitionType: format.Some(format.Repeated), NumChildren: format.Some(int32(len(f.children)))}
		elems = append(elems, e, kv)
		var err error
		if elems, err = key.appendElements(elems, path+".key_value"); err != nil {
			return nil, err
		}
		if len(f.children) > 1 {
			val := f.children[1]
			if val.repetition == format.Repeated {
				return nil, fmt.Errorf("map %s: the value must be optional or required", path)
			}
			val.name = "value"
			return val.appendElements(elems, path+".key_value")
		}
		return elems, nil
	}
}

func checkVariant(path string, children []Field) error {
	var meta, val bool
	for _, c := range children {
		switch c.name {
		case "metadata":
			if c.kind != leafField || c.physical != format.ByteArray || c.repetition != format.Required {
				return fmt.Errorf("variant %s: metadata must be a required BYTE_ARRAY", path)
			}
			meta = true
		case "value":
			if c.kind != leafField || c.physical != format.ByteArray || c.repetition == format.Repeated {
				return fmt.Errorf("variant %s: value must be a BYTE_ARRAY", path)
			}
			val = true
		}
	}
	if !meta || !val {
		return fmt.Errorf("variant %s: needs a metadata and a value field", path)
	}
	return nil
}

// checkLeaf validates the physical type against the logical one.
func (f Field) checkLeaf(path string) error {
	t := f.physical
	if t < format.Boolean || t > format.FixedLenByteArray {
		return fmt.Errorf("column %s: unknown physical type %v", path, t)
	}
	if t == format.FixedLenByteArray && (f.typeLength <= 0 || f.typeLength > math.MaxInt32) {
		return fmt.Errorf("column %s: FIXED_LEN_BYTE_ARRAY needs a positive length, not %d", path, f.typeLength)
	}
	bad := func(what string) error {
		return fmt.Errorf("column %s: %s cannot annotate %v", path, what, t)
	}
	if f.converted.Set && f.converted.Value == format.Interval && (t != format.FixedLenByteArray || f.typeLength != 12) {
		return fmt.Errorf("column %s: INTERVAL must be a FIXED_LEN_BYTE_ARRAY(12)", path)
	}
	lt := f.logical
	if lt == nil {
		return nil
	}
	switch {
	case lt.String != nil || lt.Enum != nil || lt.JSON != nil || lt.BSON != nil || lt.Geometry != nil || lt.Geography != nil:
		if t != format.ByteArray {
			return bad(schema.LogicalString(lt))
		}
	case lt.UUID != nil:
		if t != format.FixedLenByteArray || f.typeLength != 16 {
			return fmt.Errorf("column %s: UUID must be a FIXED_LEN_BYTE_ARRAY(16)", path)
		}
	case lt.Float16 != nil:
		if t != format.FixedLenByteArray || f.typeLength != 2 {
			return fmt.Errorf("column %s: FLOAT16 must be a FIXED_LEN_BYTE_ARRAY(2)", path)
		}
	case lt.Date != nil:
		if t != format.Int32 {
			return bad("DATE")
		}
	case lt.Time != nil:
		want := format.Int64
		if lt.Time.Unit.Millis != nil {
			want = format.Int32
		}
		if t != want {
			return fmt.Errorf("column %s: TIME(%s) must be %v, not %v", path, schema.UnitName(lt.Time.Unit), want, t)
		}
	case lt.Timestamp != nil:
		if t != format.Int64 {
			return bad("TIMESTAMP")
		}
	case lt.Integer != nil:
		w := lt.Integer.BitWidth
		if w != 8 && w != 16 && w != 32 && w != 64 {
			return fmt.Errorf("column %s: integer width %d is not 8, 16, 32 or 64", path, w)
		}
		if (w == 64) != (t == format.Int64) || (t != format.Int32 && t != format.Int64) {
			return fmt.Errorf("column %s: %s cannot annotate %v", path, schema.LogicalString(lt), t)
		}
	case lt.Decimal != nil:
		p, s := int(lt.Decimal.Precision), int(lt.Decimal.Scale)
		if p <= 0 || s < 0 || s > p {
			return fmt.Errorf("column %s: DECIMAL(%d,%d) needs 0 < precision and 0 <= scale <= precision", path, p, s)
		}
		limit := 0
		switch t {
		case format.Int32:
			limit = 9
		case format.Int64:
			limit = 18
		case format.FixedLenByteArray:
			limit = maxDecimalDigits(f.typeLength)
		case format.ByteArray:
			limit = math.MaxInt32
		default:
			return bad("DECIMAL")
		}
		if p > limit {
			return fmt.Errorf("column %s: DECIMAL precision %d does not fit %v (at most %d digits)", path, p, t, limit)
		}
	case lt.Unknown != nil:
	case lt.List != nil, lt.Map != nil, lt.Variant != nil:
		return fmt.Errorf("column %s: %s annotates groups, not primitive columns", path, schema.LogicalString(lt))
	case lt.Vector != nil:
		return fmt.Errorf("column %s: VECTOR is not supported", path)
	}
	return nil
}

// setConverted fills the ConvertedType (and decimal scale and precision)
// that corresponds to a logical type, as LogicalTypes.md asks writers to.
func setConverted(e *format.SchemaElement, lt *format.LogicalType) error {
	if lt == nil {
		return nil
	}
	ct := func(c format.ConvertedType) { e.ConvertedType = format.Some(c) }
	switch {
	case lt.String != nil:
		ct(format.UTF8)
	case lt.Enum != nil:
		ct(format.Enum)
	case lt.JSON != nil:
		ct(format.JSON)
	case lt.BSON != nil:
		ct(format.BSON)
	case lt.Date != nil:
		ct(format.Date)
	case lt.Decimal != nil:
		ct(format.Decimal)
		e.Scale = format.Some(lt.Decimal.Scale)
		e.Precision = format.Some(lt.Decimal.Precision)
	case lt.Time != nil:
		switch {
		case lt.Time.Unit.Millis != nil:
			ct(format.TimeMillis)
		case lt.Time.Unit.Micros != nil:
			ct(format.TimeMicros)
		}
	case lt.Timestamp != nil:
		switch {
		case lt.Timestamp.Unit.Millis != nil:
			ct(format.TimestampMillis)
		case lt.Timestamp.Unit.Micros != nil:
			ct(format.TimestampMicros)
		}
	case lt.Integer != nil:
		signed := map[int8]format.ConvertedType{8: format.Int8, 16: format.Int16, 32: format.Int32CT, 64: format.Int64CT}
		unsigned := map[int8]format.ConvertedType{8: format.Uint8, 16: format.Uint16, 32: format.Uint32, 64: format.Uint64}
		if lt.Integer.IsSigned {
			ct(signed[lt.Integer.BitWidth])
		} else {
			ct(unsigned[lt.Integer.BitWidth])
		}
	}
	return nil
}

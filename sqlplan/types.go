package sqlplan

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
)

// Kind is the SQL type family of a value. Each kind has one in-memory
// representation in a Col (see Col).
type Kind uint8

const (
	KNull      Kind = iota // the type of a bare NULL
	KBool                  // Col.B
	KInt                   // Col.I, signed integers of every width
	KUint                  // Col.I holding uint64 bits (UBIGINT)
	KFloat                 // Col.F (FLOAT is widened)
	KDecimal               // Col.I unscaled when Prec <= 18, else Col.A of value.Decimal
	KString                // Col.Data/Off
	KBytes                 // Col.Data/Off
	KDate                  // Col.I days since 1970-01-01
	KTime                  // Col.I microseconds since midnight
	KTimestamp             // Col.I microseconds since 1970-01-01 UTC
	KUUID                  // Col.Data/Off holding the 36-character text form
	KInterval              // Col.A of interval: months, days, microseconds (see interval)
	KNested                // Col.A: []any, map[string]any, map[any]any (lists, structs, maps)
	KTimeTZ                // Col.I a key of the time of day and its UTC offset (see timetzKey)
	KUHuge                 // Col.H: UHUGEINT, the bits with the top one flipped (see uhugeint.go)
)

var kindNames = [...]string{"NULL", "BOOLEAN", "BIGINT", "UBIGINT", "DOUBLE", "DECIMAL", "VARCHAR", "BLOB", "DATE", "TIME", "TIMESTAMP", "UUID", "INTERVAL", "NESTED", "TIME WITH TIME ZONE", "UHUGEINT"}

func (k Kind) String() string { return kindNames[k] }

// Type is the type of a column or expression.
type Type struct {
	Kind Kind
	// Prec and Scale of a DECIMAL.
	Prec, Scale int
	// Bits is the integer width (8..64) of a KInt/KUint from a schema or a
	// CREATE TABLE; 0 means 64.
	Bits int
	// Float32 marks a FLOAT/REAL column (values are widened to float64).
	Float32 bool
	// TZ marks TIMESTAMP WITH TIME ZONE (adjusted to UTC).
	TZ bool
	// Coarse is 1000 for TIMESTAMP_MS and 1e6 for TIMESTAMP_S: a
	// TIMESTAMP (microseconds) whose values a cast rounds to that many
	// microseconds, written in milliseconds (microseconds for seconds, as
	// DuckDB); 0 otherwise.
	Coarse int64
	// Huge marks a HUGEINT: a DECIMAL(38,0) that carries DuckDB's name
	// for its 128-bit integer (SUM of integers, integer literals past
	// BIGINT); its values are those of the decimal.
	Huge bool
	// Nanos marks a TIMESTAMP_NS or TIME_NS: Col.I counts nanoseconds
	// instead of microseconds. Operators that compute on times see the
	// microsecond value (as DuckDB's do); comparisons, sorting, grouping,
	// min/max, casts and output keep every digit.
	Nanos bool
	// JSON marks a JSON string column.
	JSON bool
	// Bit marks DuckDB's BIT (BITSTRING): a string of the characters 0
	// and 1, written as one (UTF8) as DuckDB's COPY writes it.
	Bit bool
	// Field is the Parquet field of a column of a table (nil for computed
	// values); nested types need it.
	Field *schema.Field
	// Elem is the element type of a LIST and Fields the fields of a STRUCT
	// declared in CREATE TABLE.
	Elem   *Type
	Fields []NamedType
	// MapOf marks a MAP(Key, Value) in CREATE TABLE (Fields[0], Fields[1]).
	MapOf bool
}

// NamedType is a struct field in CREATE TABLE.
type NamedType struct {
	Name string
	Type Type
}

// Op is the kind that operators and functions see: UTINYINT..UINTEGER
// values fit int64 exactly and compute as BIGINT.
func (t Type) Op() Kind {
	if t.Kind == KUint && t.Bits != 0 && t.Bits < 64 {
		return KInt
	}
	return t.Kind
}

func (t Type) IsStringy() bool { return t.Kind == KString || t.Kind == KUUID || t.Kind == KBytes }
func (t Type) IsNumeric() bool {
	return t.Kind == KInt || t.Kind == KUint || t.Kind == KFloat || t.Kind == KDecimal || t.Kind == KUHuge
}
func (t Type) IsIntLike() bool {
	switch t.Kind {
	case KInt, KUint, KDate, KTime, KTimeTZ, KTimestamp, KBool:
		return true
	case KDecimal:
		return t.Prec <= 18
	}
	return false
}

// BigDecimal reports a decimal too wide for int64 unscaled values.
func (t Type) BigDecimal() bool { return t.Kind == KDecimal && t.Prec > 18 }

// SQLName is the type's name as DESCRIBE and DatabaseTypeName show it.
func (t Type) SQLName() string {
	switch t.Kind {
	case KInt:
		switch t.Bits {
		case 8:
			return "TINYINT"
		case 16:
			return "SMALLINT"
		case 32:
			return "INTEGER"
		}
		return "BIGINT"
	case KUint:
		switch t.Bits {
		case 8:
			return "UTINYINT"
		case 16:
			return "USMALLINT"
		case 32:
			return "UINTEGER"
		}
		return "UBIGINT"
	case KFloat:
		if t.Float32 {
			return "FLOAT"
		}
		return "DOUBLE"
	case KDecimal:
		if t.Huge {
			return "HUGEINT"
		}
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Prec, t.Scale)
	case KTimestamp:
		switch {
		case t.TZ:
			return "TIMESTAMPTZ"
		case t.Nanos:
			return "TIMESTAMP_NS"
		case t.Coarse == 1000:
			return "TIMESTAMP_MS"
		case t.Coarse == 1e6:
			return "TIMESTAMP_S"
		}
		return "TIMESTAMP"
	case KTime:
		if t.Nanos {
			return "TIME_NS"
		}
		return "TIME"
	case KString:
		if t.JSON {
			return "JSON"
		}
		if t.Bit {
			return "BIT"
		}
		return "VARCHAR"
	case KNested:
		return nestedName(t)
	}
	return t.Kind.String()
}

func nestedName(t Type) string {
	if t.Field != nil {
		return fieldSQLName(t.Field)
	}
	switch {
	case t.Elem != nil:
		return t.Elem.SQLName() + "[]"
	case t.MapOf:
		return "MAP(" + t.Fields[0].Type.SQLName() + ", " + t.Fields[1].Type.SQLName() + ")"
	case t.Fields != nil:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Name + " " + f.Type.SQLName()
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	}
	return "NESTED"
}

func fieldSQLName(f *schema.Field) string {
	switch f.Kind {
	case schema.Struct:
		parts := make([]string, len(f.Children))
		for i, c := range f.Children {
			parts[i] = c.Name + " " + fieldSQLName(c)
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	case schema.List:
		return fieldSQLName(f.Children[0]) + "[]"
	case schema.Map:
		v := "NULL"
		if len(f.Children) > 1 {
			v = fieldSQLName(f.Children[1])
		}
		return "MAP(" + fieldSQLName(f.Children[0]) + ", " + v + ")"
	}
	return typeOfField(f).SQLName()
}

// typeOfField maps a Parquet field to its SQL type.
func typeOfField(f *schema.Field) Type {
	if f.Kind != schema.Primitive {
		return Type{Kind: KNested, Field: f}
	}
	n := f.Node
	lt := n.Logical
	t := Type{Field: f}
	switch n.Physical {
	case format.Boolean:
		t.Kind = KBool
	case format.Int32, format.Int64:
		t.Kind, t.Bits = KInt, 32
		if n.Physical == format.Int64 {
			t.Bits = 64
		}
		if lt != nil {
			switch {
			case lt.Integer != nil:
				t.Bits = int(lt.Integer.BitWidth)
				if !lt.Integer.IsSigned {
					t.Kind = KUint
				}
			case lt.Date != nil:
				t.Kind, t.Bits = KDate, 0
			case lt.Time != nil && lt.Time.IsAdjustedToUTC:
				// TIME WITH TIME ZONE, as DuckDB writes and reads it: the
				// UTC time of day, read back with the offset +00.
				t.Kind, t.Bits = KTimeTZ, 0
			case lt.Time != nil:
				t.Kind, t.Bits, t.Nanos = KTime, 0, lt.Time.Unit.Nanos != nil
			case lt.Timestamp != nil:
				t.Kind, t.Bits, t.TZ = KTimestamp, 0, lt.Timestamp.IsAdjustedToUTC
				t.Nanos = lt.Timestamp.Unit.Nanos != nil
				switch {
				case t.TZ || t.Nanos:
				case n.SQLType == "TIMESTAMP_S":
					t.Coarse = 1e6
				case n.SQLType == "TIMESTAMP_MS":
					t.Coarse = 1000
				}
			case lt.Decimal != nil:
				t.Kind, t.Bits, t.Prec, t.Scale = KDecimal, 0, int(lt.Decimal.Precision), int(lt.Decimal.Scale)
			}
		}
	case format.Int96:
		t.Kind = KTimestamp
	case format.Float:
		t.Kind, t.Float32 = KFloat, true
	case format.Double:
		t.Kind = KFloat
	case format.ByteArray, format.FixedLenByteArray:
		t.Kind = KBytes
		if lt != nil {
			switch {
			case lt.String != nil, lt.Enum != nil:
				t.Kind = KString
				t.Bit = n.SQLType == "BIT"
			case lt.JSON != nil:
				t.Kind, t.JSON = KString, true
			case lt.Decimal != nil:
				t.Kind, t.Prec, t.Scale = KDecimal, int(lt.Decimal.Precision), int(lt.Decimal.Scale)
				t.Huge = n.SQLType == "HUGEINT" && t.Prec == 38 && t.Scale == 0
				if n.SQLType == "UHUGEINT" && t.Prec == 38 && t.Scale == 0 {
					t = Type{Kind: KUHuge, Field: f}
				}
			case lt.UUID != nil:
				t.Kind = KUUID
			case lt.Float16 != nil:
				t.Kind, t.Float32 = KFloat, true
			}
		}
		if n.Converted.Set && n.Converted.Value == format.Interval {
			t.Kind = KInterval
		}
	}
	return t
}

// physicalName describes a field's Parquet type for DESCRIBE.
func physicalName(f *schema.Field) string {
	if f == nil {
		return "partition"
	}
	rep := "OPTIONAL"
	if !f.Nullable {
		rep = "REQUIRED"
	}
	if f.Kind != schema.Primitive {
		return rep + " " + strings.ToUpper(f.Kind.String())
	}
	n := f.Node
	s := n.Physical.String()
	if n.Physical == format.FixedLenByteArray {
		s += "(" + strconv.Itoa(n.TypeLength) + ")"
	}
	if lt := n.Logical; lt != nil {
		switch {
		case lt.String != nil:
			s += " STRING"
		case lt.Enum != nil:
			s += " ENUM"
		case lt.JSON != nil:
			s += " JSON"
		case lt.UUID != nil:
			s += " UUID"
		case lt.Date != nil:
			s += " DATE"
		case lt.Float16 != nil:
			s += " FLOAT16"
		case lt.Decimal != nil:
			s += fmt.Sprintf(" DECIMAL(%d,%d)", lt.Decimal.Precision, lt.Decimal.Scale)
		case lt.Integer != nil:
			s += fmt.Sprintf(" INT(%d,%v)", lt.Integer.BitWidth, lt.Integer.IsSigned)
		case lt.Time != nil:
			s += fmt.Sprintf(" TIME(%s,%v)", schema.UnitName(lt.Time.Unit), lt.Time.IsAdjustedToUTC)
		case lt.Timestamp != nil:
			s += fmt.Sprintf(" TIMESTAMP(%s,%v)", schema.UnitName(lt.Timestamp.Unit), lt.Timestamp.IsAdjustedToUTC)
		}
	}
	return rep + " " + s
}

// parseTypeName parses a SQL type written in CREATE TABLE or CAST: the
// words of its name and its parenthesized parameters.
func parseTypeName(name string, params []int) (Type, error) {
	n := strings.ToUpper(strings.Join(strings.Fields(name), " "))
	switch n {
	case "BOOLEAN", "BOOL", "LOGICAL":
		return Type{Kind: KBool}, nil
	case "TINYINT", "INT1":
		return Type{Kind: KInt, Bits: 8}, nil
	case "SMALLINT", "INT2", "SHORT":
		return Type{Kind: KInt, Bits: 16}, nil
	case "INTEGER", "INT", "INT4", "MEDIUMINT", "SIGNED":
		return Type{Kind: KInt, Bits: 32}, nil
	case "BIGINT", "INT8", "LONG", "SIGNED INTEGER":
		return Type{Kind: KInt, Bits: 64}, nil
	case "UTINYINT", "TINYINT UNSIGNED":
		return Type{Kind: KUint, Bits: 8}, nil
	case "USMALLINT", "SMALLINT UNSIGNED":
		return Type{Kind: KUint, Bits: 16}, nil
	case "UINTEGER", "INTEGER UNSIGNED", "INT UNSIGNED", "UNSIGNED":
		return Type{Kind: KUint, Bits: 32}, nil
	case "UBIGINT", "BIGINT UNSIGNED", "UNSIGNED INTEGER":
		return Type{Kind: KUint, Bits: 64}, nil
	case "FLOAT", "REAL", "FLOAT4":
		if len(params) == 1 && params[0] > 24 {
			return Type{Kind: KFloat}, nil
		}
		return Type{Kind: KFloat, Float32: true}, nil
	case "DOUBLE", "FLOAT8", "DOUBLE PRECISION":
		return Type{Kind: KFloat}, nil
	case "DECIMAL", "NUMERIC", "DEC":
		p, s := 18, 3
		if len(params) >= 1 {
			p, s = params[0], 0
		}
		if len(params) >= 2 {
			s = params[1]
		}
		if p < 1 || p > 38 || s < 0 || s > p {
			return Type{}, fmt.Errorf("DECIMAL(%d,%d): precision must be 1..38 and scale 0..precision", p, s)
		}
		return Type{Kind: KDecimal, Prec: p, Scale: s}, nil
	case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "NVARCHAR", "NCHAR", "CHARACTER VARYING", "CHARACTER", "LONGTEXT", "MEDIUMTEXT", "TINYTEXT":
		return Type{Kind: KString}, nil
	case "BLOB", "BYTEA", "BINARY", "VARBINARY", "LONGBLOB", "BYTES":
		return Type{Kind: KBytes}, nil
	case "DATE":
		return Type{Kind: KDate}, nil
	case "TIME":
		return Type{Kind: KTime}, nil
	case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE":
		return Type{Kind: KTimestamp}, nil
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return Type{Kind: KTimestamp, TZ: true}, nil
	case "TIMESTAMP_NS":
		return Type{Kind: KTimestamp, Nanos: true}, nil
	case "TIME_NS":
		return Type{Kind: KTime, Nanos: true}, nil
	case "TIMETZ", "TIME WITH TIME ZONE":
		return tTimeTZ, nil
	case "TIMESTAMP_MS":
		return Type{Kind: KTimestamp, Coarse: 1000}, nil
	case "TIMESTAMP_S":
		return Type{Kind: KTimestamp, Coarse: 1e6}, nil
	case "UUID":
		return Type{Kind: KUUID}, nil
	case "JSON":
		return Type{Kind: KString, JSON: true}, nil
	case "BIT", "BITSTRING":
		return tBit, nil
	case "HUGEINT", "INT128":
		return tHuge, nil
	case "UHUGEINT", "UINT128":
		return tUHuge, nil
	case "INTERVAL":
		return Type{Kind: KInterval}, nil
	}
	return Type{}, fmt.Errorf("unknown type %s", name)
}

// castTypes are the types CAST and :: may name; the rewrite layer passes
// them to the parser as CHAR(castCodeBase+i).
var castTypes = []string{"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER",
	"UBIGINT", "FLOAT", "DOUBLE", "VARCHAR", "BLOB", "DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ", "UUID", "JSON", "INTERVAL",
	"TIMESTAMP_NS", "TIME_NS", "HUGEINT", "TIMESTAMP_MS", "TIMESTAMP_S", "BIT", "TIME WITH TIME ZONE", "UHUGEINT"}

// tBit is BIT (see Type.Bit).
var tBit = Type{Kind: KString, Bit: true}

// tHuge is HUGEINT (see Type.Huge).
var tHuge = Type{Kind: KDecimal, Prec: 38, Huge: true}

// Fits reports whether the unscaled v is a value of the DECIMAL t: at
// most t.Prec digits, or any 128-bit integer for a HUGEINT (whose range
// is that of num.Int128, the arithmetic reporting what leaves it).
func (t Type) Fits(v num.Int128) bool { return t.Huge || v.FitsDigits(t.Prec) }

// FitsBig is fits for a value as a big integer.
func (t Type) FitsBig(v *big.Int) bool {
	if t.Huge {
		_, ok := num.FromBig(v)
		return ok
	}
	return v.CmpAbs(pow10Big(t.Prec)) < 0
}

// pow10Big is 10^k as a big integer.
func pow10Big(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

const castCodeBase = 900000

// A cast to a list of a castTypes type (readType: T[], T[][], ...) is
// CHAR(castCodeBase + depth*castListStep + i).
const (
	castListStep     = 1000
	maxCastListDepth = 3
)

// castCodeType returns the type of a CAST code, false for a code that is
// not one.
func castCodeType(n int) (Type, bool) {
	n -= castCodeBase
	depth, i := n/castListStep, n%castListStep
	if n < 0 || depth > maxCastListDepth || i >= len(castTypes) {
		return Type{}, false
	}
	t, err := parseTypeName(castTypes[i], nil)
	if err != nil {
		return Type{}, false
	}
	for range depth {
		elem := t
		t = Type{Kind: KNested, Elem: &elem}
	}
	return t, true
}

// Field returns the Parquet field of a table column's type (nil for
// computed values).
func (t Type) ParquetField() *schema.Field { return t.Field }

// sameUnit reports whether a value of type from needs no conversion to be
// one of type to as far as time units go.
func sameUnit(from, to Type) bool {
	return from.Nanos == to.Nanos && (to.Coarse == 0 || from.Coarse == to.Coarse)
}

// roundToUnit rounds microseconds to a multiple of unit (half away from
// zero, as DuckDB's casts to TIMESTAMP_MS and TIMESTAMP_S).
func roundToUnit(us, unit int64) int64 {
	q, r := us/unit, us%unit
	switch {
	case 2*r >= unit:
		q++
	case -2*r >= unit:
		q--
	}
	return q * unit
}

// coarseCastError is DuckDB's refusal to cast a TIMESTAMP_NS to
// TIMESTAMP_MS or TIMESTAMP_S, or a TIMESTAMP_MS to TIMESTAMP_S (a
// TIMESTAMP goes to all three); nil for every other cast.
func coarseCastError(from, to Type) error {
	if from.Kind != KTimestamp || to.Kind != KTimestamp || to.Coarse == 0 || from.TZ || to.TZ {
		return nil
	}
	if from.Nanos || from.Coarse != 0 && from.Coarse < to.Coarse {
		return fmt.Errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
	}
	return nil
}

// bitCastError checks a cast to or from BIT: from VARCHAR (each value
// only 0s and 1s, and not empty, checked by checkBits), to VARCHAR, and
// between BIT and the integer types (see castIntBits); nil when neither
// side is a BIT.
func bitCastError(from, to Type) error {
	switch {
	case from.Bit == to.Bit || from.Kind == KNull:
		return nil
	case to.Bit && from.Kind == KString:
		return nil
	case from.Bit && (to.Kind == KString && !to.JSON):
		return nil
	case bitIntCast(from, to), bitBlobCast(from, to):
		return nil
	}
	return unsupported("cast from " + from.SQLName() + " to " + to.SQLName())
}

// bitBlobCast reports a cast between BIT and BLOB (see castBitBlob).
func bitBlobCast(from, to Type) bool {
	return from.Bit && to.Kind == KBytes || to.Bit && from.Kind == KBytes
}

// bitIntCast reports a cast between BIT and a number type: an integer,
// a BOOLEAN or a float (see castIntBits).
func bitIntCast(from, to Type) bool {
	return to.Bit && bitWidth(from) > 0 || from.Bit && bitWidth(to) > 0
}

// bitWidth is the number of bits of a type in a cast to or from BIT (0
// for a type that has none): an integer's or a float's width, 8 for a
// BOOLEAN, as DuckDB's.
func bitWidth(t Type) int {
	switch {
	case t.Huge || t.Kind == KUHuge:
		return 128
	case t.Kind == KInt || t.Kind == KUint:
		if t.Bits == 0 {
			return 64
		}
		return t.Bits
	case t.Kind == KBool:
		return 8
	case t.Kind == KFloat:
		if t.Float32 {
			return 32
		}
		return 64
	}
	return 0
}

// castIntBits casts between BIT and a number type as DuckDB does: a
// number becomes the bits of its type's width (two's complement, or
// IEEE 754 for a float), first bit first; a BIT of at most the target's
// width is the number whose low bits it is, its first bit the sign when
// it fills a signed integer type.
func castIntBits(v any, from, to Type, try bool) (any, error) {
	if to.Bit {
		x, err := numberBits(v, from, try)
		if err != nil {
			return nil, err
		}
		out := make([]byte, bitWidth(from))
		for j := range out {
			out[j] = '0' + x.Bit(len(out)-1-j)
		}
		return string(out), nil
	}
	s, _ := v.(string)
	w := bitWidth(to)
	if len(s) > w {
		name := "INT"
		switch to.Kind {
		case KUint:
			name = "UINT"
		case KBool:
			name = "BOOL"
		case KFloat:
			name = "FLOAT"
		}
		return nil, fmt.Errorf("Bitstring doesn't fit inside of %s%d", name, w) // DuckDB's words
	}
	var x num.Int128
	for j := 0; j < len(s); j++ {
		x = x.Shl1(s[j] - '0')
	}
	switch {
	case to.Kind == KBool:
		return x.Sign() != 0, nil
	case to.Kind == KFloat && to.Float32:
		return float64(math.Float32frombits(uint32(x.Lo))), nil
	case to.Kind == KFloat:
		return math.Float64frombits(x.Lo), nil
	case to.Kind == KUHuge:
		return value.Decimal{Unscaled: num.UBig(x)}, nil
	case len(s) == w && w < 128 && to.Kind != KUint && s[0] == '1':
		// The sign bit: as a two's complement integer of w bits.
		x = num.FromInt64(int64(x.Lo<<(64-w)) >> (64 - w))
	}
	return castScalarTry(value.Decimal{Unscaled: x.Big()}, tHuge, to, try)
}

// numberBits is the two's complement (or IEEE 754) bits of a number
// scalar of type t.
func numberBits(v any, t Type, try bool) (num.Int128, error) {
	switch x := v.(type) {
	case bool:
		if x {
			return num.FromInt64(1), nil
		}
		return num.Int128{}, nil
	case float64:
		if t.Float32 {
			return num.FromUint64(uint64(math.Float32bits(float32(x)))), nil
		}
		return num.FromUint64(math.Float64bits(x)), nil
	case value.Decimal:
		if t.Kind == KUHuge {
			return uhugeSlot(x).FlipSign(), nil
		}
	}
	h, err := castScalarTry(v, t, tHuge, try)
	if err != nil {
		return num.Int128{}, err
	}
	x, _ := num.FromBig(h.(value.Decimal).Unscaled)
	return x, nil
}

// checkBits reports a text that is not a BIT, as DuckDB's cast does.
func checkBits(s []byte) error {
	if len(s) == 0 {
		return fmt.Errorf("Cannot cast empty string to BIT")
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '0' && s[i] != '1' {
			_, n := utf8.DecodeRune(s[i:])
			return fmt.Errorf("Invalid character encountered in string -> bit conversion: '%s'", s[i:i+n])
		}
	}
	return nil
}

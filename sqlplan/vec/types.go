// Package vec holds the engine's typed column vectors: Col, Batch, their
// types (Type, Kind) and storage classes, scalars of a column (Col.Get,
// Builder), the pooled scratch vectors of arithmetic, and the order and
// key encoding of values of every type (order.go: CompareScalars,
// CompareAt, AppendKey) that sorting, grouping, joins and aggregates use.
package vec

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
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
	KInterval              // Col.A of interval: months, days, microseconds (the engine's interval)
	KNested                // Col.A: []any, map[string]any, map[any]any (lists, structs, maps)
	KTimeTZ                // Col.I a key of the time of day and its UTC offset (the engine's timetzKey)
	KUHuge                 // Col.H: UHUGEINT, the bits with the top one flipped (see UHugeSlot)
	KEnum                  // Col.I the code of the value in Type.Enum (its declared position)
)

var kindNames = [...]string{"NULL", "BOOLEAN", "BIGINT", "UBIGINT", "DOUBLE", "DECIMAL", "VARCHAR", "BLOB", "DATE", "TIME", "TIMESTAMP", "UUID", "INTERVAL", "NESTED", "TIME WITH TIME ZONE", "UHUGEINT", "ENUM"}

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
	// Unnamed marks DuckDB's unnamed STRUCT(INTEGER, VARCHAR) of row(...)
	// and (a, b): its fields carry the names v1, v2, ... inside the engine
	// (values are map[string]any as for every struct), but SQL reaches
	// them by position only and the type and text show no names.
	Unnamed bool
	// Enum is the value set of an ENUM (KEnum).
	Enum *Enum
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
	case KEnum:
		return t.Enum.SQLName()
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
		if name, ok := fieldsUnionName(t.Fields); ok {
			return name
		}
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = f.Type.SQLName()
			if f.Type.Kind == KNull {
				parts[i] = `"NULL"` // DuckDB's name of the type of a bare NULL, quoted as a keyword
			}
			if !t.Unnamed {
				parts[i] = fieldNameSQL(f.Name) + " " + parts[i]
			}
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")"
	}
	return "NESTED"
}

// fieldNameSQL is a struct field's name in a type's name: bare when it
// is a plain identifier, else in double quotes (DuckDB's STRUCT("a b" INTEGER)).
func fieldNameSQL(name string) string {
	plain := name != ""
	for i := 0; i < len(name) && plain; i++ {
		c := name[i]
		plain = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9'
	}
	if plain {
		return name
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

func fieldSQLName(f *schema.Field) string {
	switch f.Kind {
	case schema.Struct:
		if name, ok := schemaUnionName(f); ok {
			return name
		}
		parts := make([]string, len(f.Children))
		for i, c := range f.Children {
			parts[i] = fieldNameSQL(c.Name) + " " + fieldSQLName(c)
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
	return TypeOfField(f).SQLName()
}

// TypeOfField maps a Parquet field to its SQL type.
func TypeOfField(f *schema.Field) Type {
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
			case lt.Enum != nil && strings.HasPrefix(n.SQLType, "ENUM("):
				// An ENUM column of this engine's writing: its value set
				// is in the footer (schema.ColumnTypesKey). Other writers'
				// ENUM columns read as VARCHAR, as DuckDB reads them.
				t.Kind = KString
				if e, err := ParseEnumName(n.SQLType); err == nil {
					t.Kind, t.Enum = KEnum, e
				}
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

// PhysicalName describes a field's Parquet type for DESCRIBE.
func PhysicalName(f *schema.Field) string {
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
	return v.CmpAbs(Pow10Big(t.Prec)) < 0
}

// Pow10Big is 10^k as a big integer.
func Pow10Big(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// Field returns the Parquet field of a table column's type (nil for
// computed values).
func (t Type) ParquetField() *schema.Field { return t.Field }

// MapType is the type of a MAP from keys of type kt to values of type vt.
func MapType(kt, vt Type) Type {
	return Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: kt}, {Name: "value", Type: vt}}}
}

// Plain is t without its Parquet field, as values computed from a
// column have it; nested types keep theirs (it knows their elements).
func (t Type) Plain() Type {
	if t.Kind != KNested {
		t.Field = nil
	}
	return t
}

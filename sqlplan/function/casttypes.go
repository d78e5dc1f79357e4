package function

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// ParseTypeName parses a SQL type written in CREATE TABLE or CAST: the
// words of its name and its parenthesized parameters.
func ParseTypeName(name string, params []int) (vec.Type, error) {
	n := strings.ToUpper(strings.Join(strings.Fields(name), " "))
	switch n {
	case "BOOLEAN", "BOOL", "LOGICAL":
		return vec.Type{Kind: vec.KBool}, nil
	case "TINYINT", "INT1":
		return vec.Type{Kind: vec.KInt, Bits: 8}, nil
	case "SMALLINT", "INT2", "SHORT":
		return vec.Type{Kind: vec.KInt, Bits: 16}, nil
	case "INTEGER", "INT", "INT4", "MEDIUMINT", "SIGNED":
		return vec.Type{Kind: vec.KInt, Bits: 32}, nil
	case "BIGINT", "INT8", "LONG", "SIGNED INTEGER":
		return vec.Type{Kind: vec.KInt, Bits: 64}, nil
	case "UTINYINT", "TINYINT UNSIGNED":
		return vec.Type{Kind: vec.KUint, Bits: 8}, nil
	case "USMALLINT", "SMALLINT UNSIGNED":
		return vec.Type{Kind: vec.KUint, Bits: 16}, nil
	case "UINTEGER", "INTEGER UNSIGNED", "INT UNSIGNED", "UNSIGNED":
		return vec.Type{Kind: vec.KUint, Bits: 32}, nil
	case "UBIGINT", "BIGINT UNSIGNED", "UNSIGNED INTEGER":
		return vec.Type{Kind: vec.KUint, Bits: 64}, nil
	case "FLOAT", "REAL", "FLOAT4":
		if len(params) == 1 && params[0] > 24 {
			return vec.Type{Kind: vec.KFloat}, nil
		}
		return vec.Type{Kind: vec.KFloat, Float32: true}, nil
	case "DOUBLE", "FLOAT8", "DOUBLE PRECISION":
		return vec.Type{Kind: vec.KFloat}, nil
	case "DECIMAL", "NUMERIC", "DEC":
		p, s := 18, 3
		if len(params) >= 1 {
			p, s = params[0], 0
		}
		if len(params) >= 2 {
			s = params[1]
		}
		if p < 1 || p > 38 || s < 0 || s > p {
			return vec.Type{}, fmt.Errorf("DECIMAL(%d,%d): precision must be 1..38 and scale 0..precision", p, s)
		}
		return vec.Type{Kind: vec.KDecimal, Prec: p, Scale: s}, nil
	case "VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "NVARCHAR", "NCHAR", "CHARACTER VARYING", "CHARACTER", "LONGTEXT", "MEDIUMTEXT", "TINYTEXT":
		return vec.Type{Kind: vec.KString}, nil
	case "BLOB", "BYTEA", "BINARY", "VARBINARY", "LONGBLOB", "BYTES":
		return vec.Type{Kind: vec.KBytes}, nil
	case "DATE":
		return vec.Type{Kind: vec.KDate}, nil
	case "TIME":
		return vec.Type{Kind: vec.KTime}, nil
	case "TIMESTAMP", "DATETIME", "TIMESTAMP WITHOUT TIME ZONE":
		return vec.Type{Kind: vec.KTimestamp}, nil
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return vec.Type{Kind: vec.KTimestamp, TZ: true}, nil
	case "TIMESTAMP_NS":
		return vec.Type{Kind: vec.KTimestamp, Nanos: true}, nil
	case "TIME_NS":
		return vec.Type{Kind: vec.KTime, Nanos: true}, nil
	case "TIMETZ", "TIME WITH TIME ZONE":
		return TTimeTZ, nil
	case "TIMESTAMP_MS":
		return vec.Type{Kind: vec.KTimestamp, Coarse: 1000}, nil
	case "TIMESTAMP_S":
		return vec.Type{Kind: vec.KTimestamp, Coarse: 1e6}, nil
	case "UUID":
		return vec.Type{Kind: vec.KUUID}, nil
	case "JSON":
		return vec.Type{Kind: vec.KString, JSON: true}, nil
	case "BIT", "BITSTRING":
		return TBit, nil
	case "HUGEINT", "INT128":
		return THuge, nil
	case "UHUGEINT", "UINT128":
		return TUHuge, nil
	case "INTERVAL":
		return vec.Type{Kind: vec.KInterval}, nil
	}
	return vec.Type{}, fmt.Errorf("unknown type %s", name)
}

// CastTypes are the types CAST and :: may name; the rewrite layer passes
// them to the parser as CHAR(CastCodeBase+i).
var CastTypes = []string{"BOOLEAN", "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT", "USMALLINT", "UINTEGER",
	"UBIGINT", "FLOAT", "DOUBLE", "VARCHAR", "BLOB", "DATE", "TIME", "TIMESTAMP", "TIMESTAMPTZ", "UUID", "JSON", "INTERVAL",
	"TIMESTAMP_NS", "TIME_NS", "HUGEINT", "TIMESTAMP_MS", "TIMESTAMP_S", "BIT", "TIME WITH TIME ZONE", "UHUGEINT"}

// TBit is BIT (see Type.Bit).
var TBit = vec.Type{Kind: vec.KString, Bit: true}

// THuge is HUGEINT (see Type.Huge).
var THuge = vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}

const CastCodeBase = 900000

// A cast to a list of a CastTypes type (readType: T[], T[][], ...) is
// CHAR(CastCodeBase + depth*CastListStep + i).
const (
	CastListStep     = 1000
	MaxCastListDepth = 3
)

// CastCodeType returns the type of a CAST code, false for a code that is
// not one.
func CastCodeType(n int) (vec.Type, bool) {
	n -= CastCodeBase
	depth, i := n/CastListStep, n%CastListStep
	if n < 0 || depth > MaxCastListDepth || i >= len(CastTypes) {
		return vec.Type{}, false
	}
	t, err := ParseTypeName(CastTypes[i], nil)
	if err != nil {
		return vec.Type{}, false
	}
	for range depth {
		elem := t
		t = vec.Type{Kind: vec.KNested, Elem: &elem}
	}
	return t, true
}

// SameUnit reports whether a value of type from needs no conversion to be
// one of type to as far as time units go.
func SameUnit(from, to vec.Type) bool {
	return from.Nanos == to.Nanos && (to.Coarse == 0 || from.Coarse == to.Coarse)
}

// RoundToUnit rounds microseconds to a multiple of unit (half away from
// zero, as DuckDB's casts to TIMESTAMP_MS and TIMESTAMP_S).
func RoundToUnit(us, unit int64) int64 {
	q, r := us/unit, us%unit
	switch {
	case 2*r >= unit:
		q++
	case -2*r >= unit:
		q--
	}
	return q * unit
}

// coarseStamp is TIMESTAMP microseconds us as a value of the coarse type
// to. The infinities stay: they are the same int64 extremes in every
// unit, as DuckDB's (the writer keeps them when it writes milliseconds).
func coarseStamp(us int64, to vec.Type) (int64, error) {
	if vec.InfiniteStamp(us) {
		return us, nil
	}
	return RoundToUnit(us, to.Coarse), nil
}

// infiniteStampError is DuckDB's error for a cast of an infinite
// timestamp v that has no infinity to go to: the time of day of any, the
// date of a TIMESTAMP_MS (DuckDB's cast goes through microseconds and
// fails there); nil for every other cast.
func infiniteStampError(v any, from, to vec.Type) error {
	x, ok := v.(int64)
	if !ok || from.Kind != vec.KTimestamp || !vec.InfiniteStamp(x) {
		return nil
	}
	ms := from.Coarse == 1000 && !from.TZ && !from.Nanos
	switch {
	case to.Kind == vec.KDate && ms, (to.Kind == vec.KTime || to.Kind == vec.KTimeTZ) && ms:
		return fmt.Errorf("Could not convert Timestamp(MS) to Timestamp(US)")
	case to.Kind != vec.KTime && to.Kind != vec.KTimeTZ:
		return nil
	case from.Coarse == 0 && !from.Nanos && !from.TZ:
		return fmt.Errorf("Type INT64 with value %s can't be cast to the destination type INT64", vec.FormatTemporal(vec.Type{Kind: vec.KTimestamp}, x))
	}
	return fmt.Errorf("Can't get TIME of infinite TIMESTAMP")
}

// infiniteDate is the DATE infinity of the TIMESTAMP infinity us.
func infiniteDate(us int64) int64 {
	if us < 0 {
		return vec.DateNegInf
	}
	return vec.DateInf
}

// coarseCastError is DuckDB's refusal to cast a TIMESTAMP_NS to
// TIMESTAMP_MS or TIMESTAMP_S, or a TIMESTAMP_MS to TIMESTAMP_S (a
// TIMESTAMP goes to all three); nil for every other cast.
func coarseCastError(from, to vec.Type) error {
	if from.Kind != vec.KTimestamp || to.Kind != vec.KTimestamp || to.Coarse == 0 || from.TZ || to.TZ {
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
func bitCastError(from, to vec.Type) error {
	switch {
	case from.Bit == to.Bit || from.Kind == vec.KNull:
		return nil
	case to.Bit && from.Kind == vec.KString:
		return nil
	case from.Bit && (to.Kind == vec.KString && !to.JSON):
		return nil
	case bitIntCast(from, to), BitBlobCast(from, to):
		return nil
	}
	return Unsupported("cast from " + from.SQLName() + " to " + to.SQLName())
}

// BitBlobCast reports a cast between BIT and BLOB (see castBitBlob).
func BitBlobCast(from, to vec.Type) bool {
	return from.Bit && to.Kind == vec.KBytes || to.Bit && from.Kind == vec.KBytes
}

// bitIntCast reports a cast between BIT and a number type: an integer,
// a BOOLEAN or a float (see castIntBits).
func bitIntCast(from, to vec.Type) bool {
	return to.Bit && bitWidth(from) > 0 || from.Bit && bitWidth(to) > 0
}

// bitWidth is the number of bits of a type in a cast to or from BIT (0
// for a type that has none): an integer's or a float's width, 8 for a
// BOOLEAN, as DuckDB's.
func bitWidth(t vec.Type) int {
	switch {
	case t.Huge || t.Kind == vec.KUHuge:
		return 128
	case t.Kind == vec.KInt || t.Kind == vec.KUint:
		if t.Bits == 0 {
			return 64
		}
		return t.Bits
	case t.Kind == vec.KBool:
		return 8
	case t.Kind == vec.KFloat:
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
func castIntBits(v any, from, to vec.Type, try bool) (any, error) {
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
		case vec.KUint:
			name = "UINT"
		case vec.KBool:
			name = "BOOL"
		case vec.KFloat:
			name = "FLOAT"
		}
		return nil, fmt.Errorf("Bitstring doesn't fit inside of %s%d", name, w) // DuckDB's words
	}
	var x num.Int128
	for j := 0; j < len(s); j++ {
		x = x.Shl1(s[j] - '0')
	}
	switch {
	case to.Kind == vec.KBool:
		return x.Sign() != 0, nil
	case to.Kind == vec.KFloat && to.Float32:
		return float64(math.Float32frombits(uint32(x.Lo))), nil
	case to.Kind == vec.KFloat:
		return math.Float64frombits(x.Lo), nil
	case to.Kind == vec.KUHuge:
		return value.Decimal{Unscaled: num.UBig(x)}, nil
	case len(s) == w && w < 128 && to.Kind != vec.KUint && s[0] == '1':
		// The sign bit: as a two's complement integer of w bits.
		x = num.FromInt64(int64(x.Lo<<(64-w)) >> (64 - w))
	}
	return CastScalar(value.Decimal{Unscaled: x.Big()}, THuge, to, try)
}

// numberBits is the two's complement (or IEEE 754) bits of a number
// scalar of type t.
func numberBits(v any, t vec.Type, try bool) (num.Int128, error) {
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
		if t.Kind == vec.KUHuge {
			return vec.UHugeSlot(x).FlipSign(), nil
		}
	}
	h, err := CastScalar(v, t, THuge, try)
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

// SameNested reports whether two types are not two different nested types
// (a cast between them changes nothing).
func SameNested(a, b vec.Type) bool {
	return a.Kind != vec.KNested || b.Kind != vec.KNested || a.SQLName() == b.SQLName()
}

package sqlplan

import (
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"
)

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

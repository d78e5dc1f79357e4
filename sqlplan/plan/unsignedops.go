package plan

import "github.com/carquet-go/carquet/sqlplan/function"

// The result types of integer arithmetic with unsigned operands, as
// DuckDB gives them: two unsigned integers compute in the wider unsigned
// type; an unsigned and a signed one in the signed type when it is wider,
// else in BIGINT (UTINYINT..UINTEGER) or HUGEINT (UBIGINT). An integer
// literal that fits the unsigned operand's type takes it (UTINYINT + 1 is
// a UTINYINT, UTINYINT + 300 an INTEGER). UHUGEINT and / are elsewhere
// (arith).

// intBits is the width of an integer type: 128 for HUGEINT, 64 for
// BIGINT and UBIGINT.
func intBits(t Type) int {
	switch {
	case t.Huge:
		return 128
	case t.Bits == 0:
		return 64
	}
	return t.Bits
}

// unsignedInts reports integer operands one of which at least is an
// unsigned integer below UHUGEINT.
func unsignedInts(a, b Type) bool {
	isInt := func(t Type) bool { return t.Kind == KInt || t.Kind == KUint || t.Huge }
	return isInt(a) && isInt(b) && (a.Kind == KUint || b.Kind == KUint)
}

// unsignedCommon is the type integer arithmetic on a and b computes in
// when one at least is unsigned (unsignedInts).
func unsignedCommon(a, b Type) Type {
	if a.Kind == KUint && b.Kind == KUint {
		w := max(intBits(a), intBits(b))
		if w == 64 {
			w = 0
		}
		return Type{Kind: KUint, Bits: w}
	}
	s, u := a, b
	if a.Kind == KUint {
		s, u = b, a
	}
	switch ws, wu := intBits(s), intBits(u); {
	case ws == 128 || wu == 64:
		return tHuge
	case ws > wu:
		return Type{Kind: KInt, Bits: ws}
	}
	return Type{Kind: KInt, Bits: 64}
}

// fitsUnsigned reports whether an integer literal's value is one of the
// unsigned type t.
func fitsUnsigned(v int64, t Type) bool {
	return v >= 0 && uint64(v) <= function.UintMax(t.Bits)
}

// unsignedOperands types integer arithmetic with an unsigned operand:
// literals take the unsigned type they fit, then both operands are cast
// to the common type, which it returns.
func (p *Planner) unsignedOperands(l, r Expr) (Type, Expr, Expr, error) {
	lt, rt := l.Type(), r.Type()
	if v, ok := intLiteral(l); ok && rt.Kind == KUint && fitsUnsigned(v, rt) {
		lt = rt
	} else if v, ok := intLiteral(r); ok && lt.Kind == KUint && fitsUnsigned(v, lt) {
		rt = lt
	}
	t := unsignedCommon(lt, rt)
	var err error
	if l, err = p.cast(l, t); err != nil {
		return Type{}, nil, nil, err
	}
	if r, err = p.cast(r, t); err != nil {
		return Type{}, nil, nil, err
	}
	if t.Kind == KInt && t.Bits == 64 {
		t.Bits = 0
	}
	return t, l, r, nil
}

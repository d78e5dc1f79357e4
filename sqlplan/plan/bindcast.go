package plan

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/xwb1989/sqlparser"
)

// Types meeting: unification of operand types, implicit and explicit casts
// (CAST, TRY_CAST, ::) at bind time.

// unifyTypes returns the type two operands are compared or combined in.
// commonInt is the common type of two integer types of at most 64 bits
// (UBIGINT aside), as DuckDB's: unsigned ones meet in the wider unsigned
// type; an unsigned one with a signed one in a signed type that holds
// both (UTINYINT with TINYINT is a SMALLINT).
func commonInt(a, b Type) Type {
	bits := func(t Type) int {
		if t.Bits == 0 {
			return 64
		}
		return t.Bits
	}
	switch {
	case a.Kind == KUint && b.Kind == KUint:
		return Type{Kind: KUint, Bits: max(a.Bits, b.Bits)}
	case a.Kind == KUint || b.Kind == KUint:
		u, s := a, b
		if b.Kind == KUint {
			u, s = b, a
		}
		if w := max(bits(s), 2*bits(u)); w < 64 {
			return Type{Kind: KInt, Bits: w}
		}
		return Type{Kind: KInt}
	}
	return Type{Kind: KInt, Bits: intWidth(a, b)}
}

func UnifyTypes(a, b Type) (Type, error) {
	ak, bk := a.Op(), b.Op()
	switch {
	case isUnionWithScalar(a, b): // uniontype.go
		return a, nil
	case isUnionWithScalar(b, a):
		return b, nil
	case ak == KEnum || bk == KEnum:
		return unifyEnum(a, b), nil
	case hugeint(a, b):
		return tHuge, nil
	case ak == bk:
		if ak == KNested {
			return commonNested(a, b) // nestedcast.go
		}
		if ak == KDecimal {
			scale := max(a.Scale, b.Scale)
			prec := max(a.Prec-a.Scale, b.Prec-b.Scale) + scale
			return Type{Kind: KDecimal, Prec: min(prec, 38), Scale: scale}, nil
		}
		if ak == KInt {
			return commonInt(a, b), nil
		}
		if ak == KFloat {
			return function.Float32Result(a, b), nil
		}
		if ak == KString {
			return Type{Kind: KString, Bit: a.Bit && b.Bit}, nil
		}
		if a.Nanos != b.Nanos {
			// TIMESTAMP_NS with TIMESTAMP (TIME_NS with TIME): compared
			// exactly, in nanoseconds.
			a.Nanos = true
		}
		if a.Coarse != b.Coarse {
			// TIMESTAMP_S, TIMESTAMP_MS and TIMESTAMP meet in the finer
			// unit (DuckDB's rule); all count microseconds.
			a.Coarse = min(a.Coarse, b.Coarse)
			if a.Coarse == 0 || b.Coarse == 0 {
				a.Coarse = 0
			}
		}
		if a.Nanos {
			a.Coarse = 0
		}
		a.TZ = a.TZ || b.TZ // with a TIMESTAMPTZ, instants (DuckDB casts the wall time)
		return a, nil
	case ak == KNull:
		return b, nil
	case bk == KNull:
		return a, nil
	case a.IsNumeric() && b.IsNumeric():
		switch {
		case ak == KUHuge || bk == KUHuge:
			// With unsigned and signed integers (a negative one fails
			// the cast), a UHUGEINT; with other numbers, a DOUBLE.
			o := b
			if bk == KUHuge {
				o = a
			}
			if o.Op() == KInt || o.Kind == KUint {
				return tUHuge, nil
			}
			return Type{Kind: KFloat}, nil
		case ak == KFloat || bk == KFloat:
			return function.Float32Result(a, b), nil
		case ak == KDecimal || bk == KDecimal:
			d, o := a, b
			if bk == KDecimal {
				d, o = b, a
			}
			// The integer's own digits (DuckDB: DECIMAL(4,1) with a
			// TINYINT is a DECIMAL(4,1)), UBIGINT's 20.
			digits := precOf(o)
			if o.Op() == KUint {
				digits = 20
			}
			scale := d.Scale
			prec := max(d.Prec-d.Scale, digits) + scale
			if prec > 38 {
				return Type{Kind: KFloat}, nil
			}
			return Type{Kind: KDecimal, Prec: prec, Scale: scale}, nil
		case a.Kind == KUint && b.Kind == KUint: // a narrow unsigned one with UBIGINT
			if ak == KUint {
				return a, nil
			}
			return b, nil
		default: // a signed integer with UBIGINT: a HUGEINT, as DuckDB
			return tHuge, nil
		}
	case ak == KString && b.Kind != KNested:
		return WithoutField(b), nil
	case bk == KString && a.Kind != KNested:
		return WithoutField(a), nil
	case ak == KDate && bk == KTimestamp || ak == KTimestamp && bk == KDate:
		// A DATE meets TIMESTAMP_S and TIMESTAMP_MS in their own type.
		return Type{Kind: KTimestamp, Coarse: a.Coarse + b.Coarse, TZ: a.TZ || b.TZ}, nil
	}
	return Type{}, errorf("cannot compare %s with %s", a.SQLName(), b.SQLName())
}

func WithoutField(t Type) Type { t.Field = nil; return t }

// withoutScalarField is withoutField of a scalar type; a table column's
// nested type (MAP, STRUCT, list) is described by its field and keeps it.
func withoutScalarField(t Type) Type {
	if t.Kind == KNested {
		return t
	}
	return WithoutField(t)
}

// unify casts two operands to their common type.
func (p *Planner) unify(l, r Expr) (Expr, Expr, error) {
	lt, rt := l.Type(), r.Type()
	if lt.Kind == KEnum || rt.Kind == KEnum {
		t := unifyEnum(lt, rt)
		l, err := p.cast(l, t)
		if err != nil {
			return nil, nil, err
		}
		r, err := p.cast(r, t)
		return l, r, err
	}
	if lt.Kind == KNested && rt.Kind == KNested && !function.SameNested(lt, rt) {
		return p.unifyNestedExprs(l, r) // nestedcast.go
	}
	if lt.Op() == KInt && rt.Op() == KInt && lt.Kind != rt.Kind {
		// A narrow unsigned integer with a signed one: both as BIGINT
		// (Col.Get gives the unsigned one's values as uint64s).
		var err error
		if lt.Kind == KUint {
			l, err = p.cast(l, TBigint)
		} else {
			r, err = p.cast(r, TBigint)
		}
		return l, r, err
	}
	// TIMESTAMP with TIMESTAMPTZ: the same microseconds in UTC, compared
	// as they are (the column keeps its pruning); in another zone, as
	// TIMESTAMPTZ.
	if lt.Op() == rt.Op() && lt.Op() != KDecimal && lt.Nanos == rt.Nanos && (lt.TZ == rt.TZ || p.Set.TZ == nil) {
		return l, r, nil
	}
	if lt.Op() == KDecimal && rt.Op() == KDecimal && lt.Scale == rt.Scale && lt.Prec <= 18 == (rt.Prec <= 18) {
		return l, r, nil
	}
	t, err := UnifyTypes(lt, rt)
	if err != nil {
		return nil, nil, err
	}
	// Compare a column with a constant in the column's own type when the
	// constant converts exactly (keeps the typed fast path and pushdown).
	if k, ok := IsConst(r); ok && k.V != nil && lt.Kind != KNested {
		if lt.Op() == KInt && rt.Kind == KDecimal || lt.Op() == KInt && rt.Kind == KFloat {
			// 3 = 3.0 compares as integers; 3 = 3.5 must not.
			if v, err := CastScalar(k.V, rt, lt); err == nil {
				if back, err := CastScalar(v, lt, rt); err == nil && vec.CompareScalars(rt, back, k.V) == 0 {
					return l, &ConstExpr{T: lt, V: v}, nil
				}
			}
		} else if rt.Op() == KString {
			if _, lc := IsConst(l); !lc {
				c, err := p.cast(r, WithoutField(lt))
				return l, c, err
			}
		}
	}
	if k, ok := IsConst(l); ok && k.V != nil && lt.Op() == KString && rt.Kind != KNested {
		c, err := p.cast(l, WithoutField(rt))
		return c, r, err
	}
	if l, err = p.cast(l, t); err != nil {
		return nil, nil, err
	}
	if r, err = p.cast(r, t); err != nil {
		return nil, nil, err
	}
	return l, r, nil
}

// coerce casts e to t implicitly.
func (p *Planner) coerce(e Expr, t Type) (Expr, error) {
	et := e.Type()
	if (et.Op() == t.Op() && vec.SameEnum(et.Enum, t.Enum)) || et.Kind == KNull {
		if et.Kind == KNull {
			return p.cast(e, t)
		}
		return e, nil
	}
	if t.Kind == KBool && et.Op() != KString && et.Op() != KInt {
		return nil, errorf("%s is %s, not BOOLEAN", e.String(), et.SQLName())
	}
	return p.cast(e, t)
}

// cast converts e to t, folding constants.
func (p *Planner) cast(e Expr, t Type) (Expr, error) {
	et := e.Type()
	if loc := p.Set.TZ; loc != nil && (et.TZ || t.TZ) {
		// TIMESTAMPTZ and wall times meet in the TimeZone (timezone.go).
		if out, ok, err := p.zoneCast(e, t, loc); ok {
			return out, err
		}
	}
	if et.Kind == t.Kind && et.Kind != KDecimal && !(t.Op() == KInt && t.Bits != 0 && t.Bits < 64) && function.SameNested(et, t) && function.SameUnit(et, t) &&
		!(t.Kind == KInt && et.Bits != 0 && et.Bits < 64) && !(t.Kind == KUint && et.Bits != t.Bits) && et.Coarse == t.Coarse && et.TZ == t.TZ && et.Bit == t.Bit &&
		vec.SameEnum(et.Enum, t.Enum) && et.Float32 == t.Float32 && et.JSON == t.JSON {
		return e, nil
	}
	if et.Kind == KDecimal && t.Kind == KDecimal && et.Scale == t.Scale && et.Prec <= 18 == (t.Prec <= 18) && t.Prec >= et.Prec {
		return e, nil
	}
	if k, ok := IsConst(e); ok {
		v, err := CastScalar(k.V, k.T, t)
		if err == nil {
			return &ConstExpr{named: named{text: k.text, node: k.node, parts: k.parts}, T: t, V: v}, nil
		}
		// Not folded: the cast fails when a row is evaluated, as in DuckDB
		// (SELECT CAST('x' AS INTEGER) FROM t WHERE false is no error).
	}
	c := &castExpr{e: e, to: t}
	c.setParts("CAST(", e, " AS "+t.SQLName()+")")
	return c, nil
}

// bindConvert binds the operand and the target type of CAST(x AS t).
func (p *Planner) bindConvert(x *sqlparser.ConvertExpr, sc *Scope, agg *aggCtx) (Expr, Type, error) {
	e, err := p.BindExpr(x.Expr, sc, agg)
	if err != nil {
		return nil, Type{}, err
	}
	t, err := convertType(x.Type)
	return e, t, err
}

// bindTryCast binds TRY_CAST(x AS t) (rewritten as parse.TryMarker(CAST(x AS
// t))): a CAST whose values that do not convert are NULL instead of an
// error.
func (p *Planner) bindTryCast(x *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	var conv *sqlparser.ConvertExpr
	if len(x.Exprs) == 1 {
		if ae, ok := x.Exprs[0].(*sqlparser.AliasedExpr); ok {
			if f, isNested := ae.Expr.(*sqlparser.FuncExpr); isNested && f.Name.Lowered() == parse.CastMarker {
				return p.bindNestedCast(f, sc, agg, true)
			}
			conv, _ = ae.Expr.(*sqlparser.ConvertExpr)
		}
	}
	if conv == nil {
		return nil, errorf("bad TRY_CAST")
	}
	e, t, err := p.bindConvert(conv, sc, agg)
	if err != nil {
		return nil, err
	}
	if k, ok := IsConst(e); ok {
		if _, isList := listElem(t); isList {
			v, err := function.CastScalar(k.V, k.T, t, true)
			if err != nil {
				v = nil
			}
			return &ConstExpr{T: t, V: v}, nil
		}
	}
	c, err := p.cast(e, t)
	if err == nil {
		if ce, ok := c.(*castExpr); ok {
			ce.try = true
			ce.setText("TRY_" + ce.String())
		}
		return c, nil
	}
	if _, ok := IsConst(e); ok && !function.BitBlobCast(e.Type(), t) {
		// A constant that does not convert; DuckDB's TRY_CAST of an
		// empty BLOB to BIT is an error all the same.
		return &ConstExpr{T: t}, nil
	}
	return nil, err
}

// arith types and builds an arithmetic expression.
// isIntKind reports whether t is a signed or unsigned integer type.
func isIntKind(t Type) bool { return t.Kind == KInt || t.Kind == KUint }

// convertType decodes the type of a CAST as the rewrite layer spelled it.
func convertType(ct *sqlparser.ConvertType) (Type, error) {
	name := strings.ToLower(ct.Type)
	var params []int
	for _, v := range []*sqlparser.SQLVal{ct.Length, ct.Scale} {
		if v != nil {
			n, _ := strconv.Atoi(string(v.Val))
			params = append(params, n)
		}
	}
	if name == "char" && len(params) == 1 {
		if t, ok := function.CastCodeType(params[0]); ok {
			return t, nil
		}
	}
	switch name {
	case "char", "nchar":
		return Type{Kind: KString}, nil
	case "binary":
		return Type{Kind: KBytes}, nil
	case "datetime":
		return Type{Kind: KTimestamp}, nil
	case "unsigned":
		return Type{Kind: KUint, Bits: 64}, nil
	case "signed":
		return Type{Kind: KInt, Bits: 64}, nil
	}
	t, err := function.ParseTypeName(name, params)
	if err != nil {
		return Type{}, AsError(err)
	}
	return t, nil
}

// argScalar converts an argument value into a typed scalar.
func argScalar(v any) (Type, any, error) {
	switch x := v.(type) {
	case nil:
		return Type{Kind: KNull}, nil, nil
	case int64:
		return Type{Kind: KInt}, x, nil
	case int:
		return Type{Kind: KInt}, int64(x), nil
	case int32:
		return Type{Kind: KInt}, int64(x), nil
	case int16:
		return Type{Kind: KInt}, int64(x), nil
	case int8:
		return Type{Kind: KInt}, int64(x), nil
	case uint8:
		return Type{Kind: KInt}, int64(x), nil
	case uint16:
		return Type{Kind: KInt}, int64(x), nil
	case uint32:
		return Type{Kind: KInt}, int64(x), nil
	case uint:
		return argScalar(uint64(x))
	case uint64:
		if x <= math.MaxInt64 {
			return Type{Kind: KInt}, int64(x), nil
		}
		return Type{Kind: KUint, Bits: 64}, x, nil
	case float64:
		return Type{Kind: KFloat}, x, nil
	case float32:
		return Type{Kind: KFloat}, float64(x), nil
	case bool:
		return Type{Kind: KBool}, x, nil
	case string:
		return Type{Kind: KString}, x, nil
	case []byte:
		return Type{Kind: KBytes}, append([]byte(nil), x...), nil
	case value.Decimal:
		s := int(x.Scale)
		if s < 0 {
			s = 0
		}
		p := len(strings.TrimLeft(strings.ReplaceAll(strings.TrimPrefix(x.String(), "-"), ".", ""), "0"))
		if s == 0 && p > 38 && x.Unscaled != nil {
			// An integer past 38 digits: a HUGEINT or UHUGEINT when it fits.
			switch {
			case tHuge.FitsBig(x.Unscaled):
				return tHuge, value.Decimal{Unscaled: x.Unscaled}, nil
			case x.Unscaled.Sign() > 0 && x.Unscaled.Cmp(maxUHuge) <= 0:
				return tUHuge, value.Decimal{Unscaled: x.Unscaled}, nil
			}
		}
		t := Type{Kind: KDecimal, Prec: min(38, max(p, s+1)), Scale: s}
		out, err := function.FitDecimal(x, t)
		if err != nil {
			return Type{}, nil, AsError(err)
		}
		return t, out, nil
	}
	if t, ok := v.(time.Time); ok && t.Nanosecond()%1000 != 0 {
		// Nanosecond digits: kept, so a TIMESTAMP_NS compares exactly.
		if ns, err := function.TimeToNanos(t); err == nil {
			return Type{Kind: KTimestamp, TZ: true, Nanos: true}, ns, nil
		}
	}
	if t, ok := v.(interface{ UnixMicro() int64 }); ok {
		return Type{Kind: KTimestamp, TZ: true}, t.UnixMicro(), nil
	}
	return Type{}, nil, errorf("unsupported argument type %T", v)
}

// macroArgMarker(value, 'macro', CAST(NULL AS type)) is the argument of a
// typed parameter: the binder checks that the value casts to the type
// implicitly and casts it (bindMacroArg).
const MacroArgMarker = "__carquet_macro_arg__"

// bindMacroArg binds macroArgMarker(value, signature, typed NULL): DuckDB
// takes an argument of a typed parameter only when it casts to the type
// implicitly (a SMALLINT to an INTEGER, not a BIGINT or a string).
func (p *Planner) bindMacroArg(args []Expr) (Expr, error) {
	sig, _ := IsConst(args[1])
	name, _ := sig.V.(string)
	if i := strings.IndexByte(name, '('); i > 0 {
		name = name[:i]
	}
	to := args[2].Type()
	if !castsImplicitly(args[0].Type(), to) {
		return nil, errorf("Macro %s() does not support the supplied arguments. You might need to add explicit type casts. (%s is %s; the macro is %s)", name, args[0].String(), args[0].Type().SQLName(), sig.V)
	}
	return p.cast(args[0], to)
}

// castsImplicitly reports whether DuckDB casts a value of type from to
// type to without being asked: NULL to anything, an integer to a wider
// integer, a decimal or a float, decimals to decimals, FLOAT to DOUBLE,
// DATE to TIMESTAMP.
func castsImplicitly(from, to Type) bool {
	if from.Kind == KNull || from.SQLName() == to.SQLName() {
		return true
	}
	bits := func(t Type) int {
		if t.Bits == 0 {
			return 64
		}
		return t.Bits
	}
	switch from.Kind {
	case KInt, KUint:
		switch to.Kind {
		case KInt:
			if from.Kind == KUint {
				return bits(from) < bits(to)
			}
			return bits(from) <= bits(to)
		case KUint:
			return from.Kind == KUint && bits(from) <= bits(to)
		case KFloat:
			return true
		case KDecimal:
			digits := map[int]int{8: 3, 16: 5, 32: 10, 64: 19}[bits(from)]
			return to.Prec-to.Scale >= digits
		}
	case KDecimal:
		return to.Kind == KDecimal || to.Kind == KFloat
	case KFloat:
		return to.Kind == KFloat && !to.Float32
	case KDate:
		return to.Kind == KTimestamp
	}
	return false
}

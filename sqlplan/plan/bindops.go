package plan

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Binding operators: comparisons, IN, arithmetic with DuckDB's result types
// and overflow rules, CASE, intervals, LIKE/GLOB and operator chains.

func (p *Planner) bindLogic(and bool, parts []sqlparser.Expr, sc *Scope, agg *aggCtx) (Expr, error) {
	var terms []Expr
	for _, part := range parts {
		e, err := p.BindBool(part, sc, agg)
		if err != nil {
			return nil, err
		}
		// Flatten nested ANDs / ORs. The first part's terms are taken over,
		// not copied: a left-deep chain of n ORs would copy O(n²) terms.
		var nested []Expr
		switch x := e.(type) {
		case *AndExpr:
			if and {
				nested = x.Terms
			}
		case *orExpr:
			if !and {
				nested = x.terms
			}
		}
		if nested != nil {
			if terms == nil {
				terms = nested
			} else {
				terms = append(terms, nested...)
			}
			continue
		}
		terms = append(terms, e)
	}
	var e Expr
	if and {
		e = &AndExpr{Terms: terms}
	} else {
		e = &orExpr{terms: terms}
	}
	return p.fold(e, terms...)
}

func (p *Planner) BindBool(n sqlparser.Expr, sc *Scope, agg *aggCtx) (Expr, error) {
	e, err := p.BindExpr(n, sc, agg)
	if err != nil {
		return nil, err
	}
	return p.coerce(e, Type{Kind: KBool})
}

func (p *Planner) bindComparison(x *sqlparser.ComparisonExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	if t, ok := x.Left.(sqlparser.ValTuple); ok && len(t) > 1 {
		return p.bindRowComparison(x, t, sc, agg)
	}
	if f, ok := x.Right.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.GlobMarker || f.Name.Lowered() == parse.SimilarMarker) {
		return p.bindPatternMatch(x, f, sc, agg)
	}
	l, err := p.BindExpr(x.Left, sc, agg)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.InStr, sqlparser.NotInStr:
		not := x.Operator == sqlparser.NotInStr
		e, err := p.bindIn(l, x.Right, not, sc, agg)
		if sub, ok := x.Right.(*sqlparser.Subquery); ok && isCorrelated(err) {
			return p.bindCorrelated(corrIn, sub, x.Left, not, sc, agg)
		}
		return e, err
	}
	if f, ok := x.Right.(*sqlparser.FuncExpr); ok && (f.Name.Lowered() == parse.AnyMarker || f.Name.Lowered() == parse.AllMarker) {
		return p.bindQuantified(x, l, f, sc, agg)
	}
	r, err := p.BindExpr(x.Right, sc, agg)
	if err != nil {
		return nil, err
	}
	switch x.Operator {
	case sqlparser.LikeStr, sqlparser.NotLikeStr, sqlparser.RegexpStr, sqlparser.NotRegexpStr:
		fold := x.Operator == sqlparser.RegexpStr || x.Operator == sqlparser.NotRegexpStr
		not := x.Operator == sqlparser.NotLikeStr || x.Operator == sqlparser.NotRegexpStr
		if l, err = p.coerce(l, Type{Kind: KString}); err != nil {
			return nil, err
		}
		if r, err = p.coerce(r, Type{Kind: KString}); err != nil {
			return nil, err
		}
		e := &likeExpr{e: l, pat: r, not: not, fold: fold}
		if x.Escape != nil {
			esc, err := p.BindExpr(x.Escape, sc, agg)
			if err != nil {
				return nil, err
			}
			k, ok := IsConst(esc)
			s, _ := k.V.(string)
			if !ok || len(s) != 1 {
				return nil, errorf("ESCAPE must be a single character")
			}
			e.esc = s[0]
		}
		if k, ok := IsConst(r); ok {
			if k.V == nil {
				return &ConstExpr{T: Type{Kind: KBool}}, nil
			}
			e.m = function.CompileLike(k.V.(string), e.esc, fold)
		}
		return p.fold(e, l, r)
	case sqlparser.JSONExtractOp, sqlparser.JSONUnquoteExtractOp:
		return nil, unsupported("the " + x.Operator + " operator") // the rewrite makes calls of them
	}
	op, ok := cmpOps[x.Operator]
	if !ok {
		return nil, unsupported("the " + x.Operator + " operator")
	}
	return p.compare(op, l, r)
}

// compare builds `l op r` after bringing both sides to one type, with
// constants on the right where possible.
func (p *Planner) compare(op cmpOp, l, r Expr) (Expr, error) {
	if _, lc := IsConst(l); lc {
		if _, rc := IsConst(r); !rc {
			l, r, op = r, l, flipCmp(op)
		}
	}
	if k, ok := IsConst(r); ok {
		if _, lc := IsConst(l); !lc {
			if k2, ok := constInColumnType(op, l.Type(), k); ok {
				r = k2
			} else if k2, ok := enumEqualityConst(op, l.Type(), k); ok {
				r = k2
			}
		}
	}
	l, r, err := p.unify(l, r)
	if err != nil {
		return nil, err
	}
	if _, lc := IsConst(l); lc {
		if _, rc := IsConst(r); !rc {
			l, r, op = r, l, flipCmp(op)
		}
	}
	e := &cmpExpr{op: op, l: l, r: r}
	e.setParts(l, " "+cmpNames[op]+" ", r)
	return p.fold(e, l, r)
}

func (p *Planner) bindIn(l Expr, right sqlparser.Expr, not bool, sc *Scope, agg *aggCtx) (Expr, error) {
	var items []Expr
	switch rt := right.(type) {
	case sqlparser.ValTuple:
		for _, it := range rt {
			e, err := p.BindExpr(it, sc, agg)
			if err != nil {
				return nil, err
			}
			items = append(items, e)
		}
	case *sqlparser.Subquery:
		b, err := p.runSubquery(rt.Select, sc, -1)
		if err != nil {
			return nil, err
		}
		if len(b.Cols) != 1 {
			return nil, errorf("the subquery of IN returns %d columns, not 1", len(b.Cols))
		}
		// Each distinct value once: the test (and a scan's IN list) is
		// as long as the subquery's distinct values, not its rows.
		c := b.Cols[0]
		seen := make(map[string]struct{}, b.N)
		var key []byte
		for i := 0; i < b.N; i++ {
			key = vec.AppendKey(key[:0], c, i)
			if _, dup := seen[string(key)]; dup {
				continue
			}
			seen[string(key)] = struct{}{}
			items = append(items, &ConstExpr{T: c.T, V: c.Get(i)})
		}
		if b.N == 0 {
			// x IN (empty) is false, even for NULL x.
			return &ConstExpr{T: Type{Kind: KBool}, V: not}, nil
		}
	case sqlparser.ListArg:
		return nil, unsupported("list arguments")
	default:
		return nil, unsupported("IN with " + sqlparser.String(right))
	}
	allConst := true
	for _, it := range items {
		if _, ok := IsConst(it); !ok {
			allConst = false
		}
	}
	if !allConst {
		// x IN (a, b) with expressions: a disjunction of equalities.
		var terms []Expr
		for _, it := range items {
			c, err := p.compare(opEq, l, it)
			if err != nil {
				return nil, err
			}
			terms = append(terms, c)
		}
		var e Expr = &orExpr{terms: terms}
		if not {
			e = &notExpr{e: e}
		}
		return e, nil
	}
	// Constants: cast them to the column's type.
	target := l.Type()
	for _, it := range items {
		t := it.Type()
		if t.Kind == KNull {
			continue
		}
		u, err := UnifyTypes(target, t)
		if err != nil {
			return nil, err
		}
		target = u
	}
	// Integers of any width compare as int64s: the column is not cast
	// (which would check every row for overflow, and keep the scan from
	// evaluating the list).
	if l.Type().Kind != KInt || target.Kind != KInt {
		var err error
		if l, err = p.cast(l, target); err != nil {
			return nil, err
		}
	}
	e := &inExpr{e: l, not: not}
	for _, it := range items {
		k := it.(*ConstExpr)
		if k.V == nil {
			e.hasNull = true
			continue
		}
		if zoned, ok, err := p.zonedInItem(k, target); ok || err != nil {
			if err != nil {
				return nil, err
			}
			e.vals = append(e.vals, zoned)
			continue
		}
		v, err := CastScalar(k.V, k.T, target)
		if err != nil {
			return nil, AsError(err)
		}
		e.vals = append(e.vals, v)
	}
	e.prepare()
	return p.fold(e, l)
}

// zonedInItem casts an IN list's constant to a TIMESTAMPTZ target in a
// TimeZone other than UTC, where a TIMESTAMP, DATE or text without an
// offset is a wall time in that zone (the planner's cast knows the zone,
// CastScalar does not); ok is false where the zone plays no part.
func (p *Planner) zonedInItem(k *ConstExpr, target Type) (any, bool, error) {
	if p.Set.TZ == nil || target.Kind != KTimestamp || !target.TZ || k.T.Kind == KTimestamp && k.T.TZ {
		return nil, false, nil
	}
	c, err := p.cast(k, target)
	if err != nil {
		return nil, false, err
	}
	folded, ok := IsConst(c)
	if !ok {
		return nil, false, nil // a cast that fails: CastScalar says why
	}
	return folded.V, true, nil
}

func (p *Planner) arith(op byte, l, r Expr) (Expr, error) {
	var err error
	if l, err = p.micros(l); err != nil {
		return nil, err
	}
	if r, err = p.micros(r); err != nil {
		return nil, err
	}
	lt, rt := l.Type(), r.Type()
	if lt.Kind == KNull || rt.Kind == KNull {
		t := lt
		if lt.Kind == KNull {
			t = rt
		}
		if t.Kind == KNull {
			t = Type{Kind: KInt}
		}
		return &ConstExpr{T: t}, nil
	}
	// Strings in arithmetic are numbers (or dates) given as text.
	if lt.Op() == KString {
		if _, ok := IsConst(l); ok {
			if rt.IsNumeric() {
				// Text that is not a number is an error ('' + 1 dereferenced
				// the nil the failed cast returned — found by FuzzQuery).
				var err error
				if l, err = p.cast(l, Type{Kind: KFloat}); err != nil {
					return nil, err
				}
			}
		}
	}
	if rt.Op() == KString {
		if _, ok := IsConst(r); ok {
			switch {
			case rt.Op() == KString && (lt.Kind == KTimestamp || lt.Kind == KDate):
				var err error
				if r, err = p.cast(r, Type{Kind: KInterval}); err != nil {
					return nil, err
				}
			case lt.IsNumeric():
				var err error
				if r, err = p.cast(r, Type{Kind: KFloat}); err != nil {
					return nil, err
				}
			}
		}
	}
	lt, rt = l.Type(), r.Type()
	if op == '*' && (lt.Kind == KInterval) != (rt.Kind == KInterval) {
		// n * INTERVAL of constants: each part times n.
		iv, n := l, r
		if rt.Kind == KInterval {
			iv, n = r, l
		}
		ik, ok1 := IsConst(iv)
		nk, ok2 := IsConst(n)
		if ok1 && ok2 && nk.T.Op() == KInt {
			x, isIv := ik.V.(Interval)
			m, isInt := nk.V.(int64)
			if isIv && isInt {
				return &ConstExpr{T: Type{Kind: KInterval}, V: x.MulInt(m)}, nil
			}
		}
		if ok1 {
			if x, isIv := ik.V.(Interval); isIv && n.Type().IsNumeric() {
				return p.scaledInterval(n, x, n.String()+" * "+iv.String())
			}
		}
		if n.Type().IsNumeric() {
			return scaleIntervalCol(iv, n, false), nil
		}
		return nil, errorf("cannot compute %s * %s", lt.SQLName(), rt.SQLName())
	}
	if op == '/' && lt.Kind == KInterval && rt.IsNumeric() {
		return scaleIntervalCol(l, r, true), nil
	}
	if lt.Kind == KInterval && rt.Kind == KInterval && (op == '+' || op == '-') {
		lv, lIv := constInterval(l)
		rv, rIv := constInterval(r)
		if lIv && rIv {
			// Constants keep their months (for date arithmetic).
			if op == '-' {
				rv = rv.Neg()
			}
			return &ConstExpr{T: lt, V: lv.Add(rv)}, nil
		}
	}
	if op == '+' && (lt.Kind == KDate && rt.Kind == KTime || lt.Kind == KTime && rt.Kind == KDate) {
		return p.dateAtTime(l, r)
	}
	var t Type
	lk, rk := lt.Op(), rt.Op()
	switch {
	case lk == KDate && (rk == KInt) && (op == '+' || op == '-'):
		t = Type{Kind: KDate}
	case lk == KInt && rk == KDate && op == '+':
		t = Type{Kind: KDate}
	case lk == KDate && rk == KDate && op == '-':
		t = Type{Kind: KInt}
	case (lk == KTimestamp || lk == KDate) && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KTimestamp, TZ: lt.TZ} // TIMESTAMPTZ ± INTERVAL stays TIMESTAMPTZ
	case lk == KTime && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KTime}
	case lk == KTimeTZ && rk == KInterval && (op == '+' || op == '-'):
		t = tTimeTZ
	case lk == KInterval && (rk == KTimestamp || rk == KDate) && op == '+':
		l, r = r, l
		t = Type{Kind: KTimestamp, TZ: rt.TZ}
	case lk == KTimestamp && rk == KTimestamp && op == '-':
		t = Type{Kind: KInterval}
		if lt.TZ || rt.TZ { // with a TIMESTAMPTZ, DuckDB subtracts instants in the TimeZone
			var err error
			if l, err = p.cast(l, Type{Kind: KTimestamp, TZ: true}); err == nil {
				r, err = p.cast(r, Type{Kind: KTimestamp, TZ: true})
			}
			if err != nil {
				return nil, err
			}
		}
	case lk == KInterval && rk == KInterval && (op == '+' || op == '-'):
		t = Type{Kind: KInterval}
	case (lk == KUHuge || rk == KUHuge) && lt.IsNumeric() && rt.IsNumeric():
		if (op == '+' || op == '-' || op == '*') && (lk == KDecimal && !lt.Huge || rk == KDecimal && !rt.Huge) {
			// With a DECIMAL, as DuckDB: the UHUGEINT as a DECIMAL(38,0).
			dec := Type{Kind: KDecimal, Prec: 38}
			var err error
			if lk == KUHuge {
				l, err = p.cast(l, dec)
			} else {
				r, err = p.cast(r, dec)
			}
			if err != nil {
				return nil, err
			}
			return p.arith(op, l, r)
		}
		t = Type{Kind: KFloat}
		if op != '/' && uhugeOperand(l) && uhugeOperand(r) {
			t = tUHuge
			var err error
			if l, err = p.cast(l, tUHuge); err != nil {
				return nil, err
			}
			if r, err = p.cast(r, tUHuge); err != nil {
				return nil, err
			}
			break
		}
		var err error
		if l, err = p.cast(l, t); err != nil {
			return nil, err
		}
		if r, err = p.cast(r, t); err != nil {
			return nil, err
		}
	case op != '/' && unsignedInts(lt, rt): // unsignedops.go
		var err error
		if t, l, r, err = p.unsignedOperands(l, r); err != nil {
			return nil, err
		}
	case lt.IsNumeric() && rt.IsNumeric():
		switch {
		case op == '/':
			t = Type{Kind: KFloat}
		case op == 'd':
			// x // y (DIV): integer division, truncating; on other
			// numbers DuckDB's // divides (7.5 // 2 is 3.75).
			if hugeint(lt, rt) {
				t = tHuge
				break
			}
			if lk == KFloat || rk == KFloat || lk == KDecimal || rk == KDecimal || lk == KUint || rk == KUint {
				return p.arith('/', l, r)
			}
			t = Type{Kind: KInt, Bits: literalWidth(l, r)}
		case lk == KFloat || rk == KFloat:
			t = Type{Kind: KFloat}
		case lk == KDecimal || rk == KDecimal:
			ls, rs := function.ScaleOf(lt), function.ScaleOf(rt)
			lp, rp := operandPrec(l, lt), operandPrec(r, rt)
			switch op {
			case '*':
				// DuckDB's rule: two operands of at most 18 digits multiply
				// in 64 bits as DECIMAL(18, s1+s2), an overflow being an
				// error; wider ones as DECIMAL(min(38, p1+p2), s1+s2).
				prec := lp + rp
				if prec > 18 && lp <= 18 && rp <= 18 && ls+rs < 18 {
					prec = 18
				}
				t = Type{Kind: KDecimal, Scale: ls + rs, Prec: min(38, prec)}
			case '%':
				// DuckDB's modulo: the digits of the wider operand, no
				// carry digit.
				s := max(ls, rs)
				t = Type{Kind: KDecimal, Scale: s, Prec: min(38, max(max(lp-ls, rp-rs)+s, lp, rp))}
			default:
				// + and -: a carry digit; operands of at most 18 digits
				// stay in 64 bits as DECIMAL(18, s), an overflow being an
				// error (DuckDB's rule, as for *).
				s := max(ls, rs)
				prec := max(max(lp-ls, rp-rs)+s, lp, rp) + 1
				if prec > 18 && lp <= 18 && rp <= 18 {
					prec = 18
				}
				t = Type{Kind: KDecimal, Scale: s, Prec: min(38, prec)}
			}
			if hugeint(lt, rt) {
				t = tHuge // HUGEINT with integers stays HUGEINT
			}
			if t.Prec <= 18 {
				var err error
				if l, err = p.cast(l, decType(lt)); err != nil {
					return nil, err
				}
				if r, err = p.cast(r, decType(rt)); err != nil {
					return nil, err
				}
			}
		case lk == KUint || rk == KUint:
			t = Type{Kind: KFloat}
		default:
			t = Type{Kind: KInt, Bits: literalWidth(l, r)}
		}
		if t.Kind == KFloat {
			// FLOAT with an integer or a decimal is a FLOAT, the other
			// operand rounded to one first (function/float32.go).
			t = function.Float32Result(lt, rt)
			var err error
			if l, err = p.cast(l, t); err != nil {
				return nil, err
			}
			if r, err = p.cast(r, t); err != nil {
				return nil, err
			}
		}
	default:
		return nil, errorf("cannot compute %s %c %s", lt.SQLName(), op, rt.SQLName())
	}
	e := &arithExpr{op: op, l: l, r: r, t: t}
	if t.Kind == KTimestamp && t.TZ || t.Kind == KInterval && l.Type().Kind == KTimestamp && l.Type().TZ {
		e.zone = p.zone()
	}
	parts := append(operandParts(l, op, false), " "+function.OpSymbol(op)+" ")
	e.setParts(append(parts, operandParts(r, op, true)...)...)
	return p.fold(e, l, r)
}

// dateAtTime is DATE + TIME (either order), DuckDB's TIMESTAMP of that
// day at that time: the day's midnight in microseconds plus the time's.
func (p *Planner) dateAtTime(l, r Expr) (Expr, error) {
	if l.Type().Kind == KTime {
		l, r = r, l
	}
	text := []any{l, " + ", r}
	day, err := p.cast(l, Type{Kind: KTimestamp})
	if err != nil {
		return nil, err
	}
	clock, err := p.cast(r, Type{Kind: KTime})
	if err != nil {
		return nil, err
	}
	e := &arithExpr{op: '+', l: day, r: clock, t: Type{Kind: KTimestamp}}
	e.setParts(text...)
	return p.fold(e, day, clock)
}

// arithPrec is the precedence of an arithmetic operator in SQL text.
func arithPrec(op byte) int {
	switch op {
	case '*', '/', '%', 'd':
		return 2
	case '+', '-':
		return 1
	}
	return 0
}

// operandParts is an operand of op in the text of an arithmetic
// expression: in parentheses when it is itself an operation that binds
// looser (a * (b - c)), or as tight on the right of a - or / (a - (b - c)).
// The parser's ParenExpr binds to its inner expression, so the text has
// to put them back.
func operandParts(e Expr, op byte, right bool) []any {
	if a, ok := e.(*arithExpr); ok && a.parts != nil {
		po, pa := arithPrec(op), arithPrec(a.op)
		if pa < po || right && pa == po && op != '+' && op != '*' {
			return []any{"(", e, ")"}
		}
	}
	return []any{e}
}

// intWidth is the width in bits of integer arithmetic on a and b (0 for
// 64): the wider operand's, as DuckDB (INTEGER + INTEGER is an INTEGER
// that overflows past 2^31); unsigned narrow integers count as 64.
func intWidth(a, b Type) int {
	w := func(t Type) int {
		if t.Kind != KInt || t.Bits == 0 {
			return 64
		}
		return t.Bits
	}
	if bits := max(w(a), w(b)); bits < 64 {
		return bits
	}
	return 0
}

// literalWidth is intWidth of l and r, where an integer literal takes the
// other operand's narrower width when it fits it (DuckDB lets a literal
// cast implicitly: SMALLINT * 2 is a SMALLINT, TINYINT + 1000 an INTEGER).
func literalWidth(l, r Expr) int {
	lt, rt := l.Type(), r.Type()
	lv, lLit := intLiteral(l)
	rv, rLit := intLiteral(r)
	fits := func(v int64, t Type) bool {
		if t.Kind != KInt || t.Bits == 0 || t.Bits >= 32 {
			return false
		}
		lim := int64(1) << (t.Bits - 1)
		return v >= -lim && v < lim
	}
	switch {
	case lLit && !rLit && fits(lv, rt):
		lt = rt
	case rLit && !lLit && fits(rv, lt):
		rt = lt
	}
	return intWidth(lt, rt)
}

// intLiteral reports an integer literal as written (not a CAST) and its
// value.
func intLiteral(e Expr) (int64, bool) {
	k, ok := IsConst(e)
	if !ok || k.T.Kind != KInt || k.T.Bits != 0 && k.T.Bits < 32 {
		return 0, false // a CAST to a narrow type is no literal
	}
	v, ok := k.V.(int64)
	if !ok {
		return 0, false
	}
	text, ok := shortText(&k.named)
	return v, ok && text == strconv.FormatInt(v, 10)
}

// literalsCommonType is the common type of vals where some are integer
// literals and the others meet in an integer type: a literal that fits
// that type takes it, as DuckDB casts one implicitly (coalesce(u32,
// 1000000) is a UINTEGER, CASE ... THEN i8 ELSE 5 END a TINYINT); ok is
// false when vals are not of that kind.
func literalsCommonType(vals []Expr) (Type, bool, error) {
	var typed, lits []Expr
	for _, v := range vals {
		if _, ok := intLiteral(v); ok {
			lits = append(lits, v)
		} else if v.Type().Kind != KNull {
			typed = append(typed, v)
		}
	}
	if len(lits) == 0 || len(typed) == 0 {
		return Type{}, false, nil
	}
	t, err := commonType(typed)
	if err != nil || t.Huge || t.Kind != KInt && t.Kind != KUint {
		return Type{}, false, err
	}
	for _, l := range lits {
		v, _ := intLiteral(l)
		fits := t.Kind == KUint && v >= 0 && uint64(v) <= function.UintMax(t.Bits) ||
			t.Kind == KInt && (t.Bits == 0 || t.Bits >= 64 || v >= -(1<<(t.Bits-1)) && v < 1<<(t.Bits-1))
		if !fits {
			if t, err = UnifyTypes(t, l.Type()); err != nil {
				return Type{}, true, err
			}
		}
	}
	return t, true, nil
}

// hugeint reports operands of which one is a HUGEINT and the other a
// HUGEINT or an integer (UBIGINT too): DuckDB computes them as HUGEINT.
func hugeint(a, b Type) bool {
	intLike := func(t Type) bool { return t.Huge || t.Op() == KInt || t.Kind == KUint }
	return (a.Huge || b.Huge) && intLike(a) && intLike(b)
}

func mustArith(p *Planner, op byte, l, r Expr) Expr {
	e, err := p.arith(op, l, r)
	if err != nil {
		return &ConstExpr{T: Type{Kind: KFloat}}
	}
	return e
}

func precOf(t Type) int {
	switch t.Op() {
	case KDecimal:
		return t.Prec
	case KInt:
		switch t.Bits {
		case 8:
			return 3
		case 16:
			return 5
		case 32:
			return 10
		}
		return 19
	}
	return 20
}

// operandPrec is the precision an operand of decimal arithmetic counts
// with: its type's, an integer constant's being DuckDB's type of the
// literal, INTEGER (10 digits) when it fits 32 bits, else BIGINT (19), as
// DuckDB's DECIMAL(5,2) * 2 is a DECIMAL(15,2).
func operandPrec(e Expr, t Type) int {
	if k, ok := IsConst(e); ok && t.Kind == KInt && t.Bits == 0 {
		if v, ok := k.V.(int64); ok && v >= math.MinInt32 && v <= math.MaxInt32 {
			return 10
		}
	}
	return precOf(t)
}

// decType is the decimal type an integer or decimal operand computes in.
func decType(t Type) Type {
	if t.Kind == KDecimal {
		return t
	}
	return Type{Kind: KDecimal, Prec: 18, Scale: 0}
}

func (p *Planner) bindCase(x *sqlparser.CaseExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	var subject Expr
	if x.Expr != nil {
		var err error
		if subject, err = p.BindExpr(x.Expr, sc, agg); err != nil {
			return nil, err
		}
	}
	e := &caseExpr{}
	var vals []Expr
	for _, w := range x.Whens {
		var cond Expr
		var err error
		if subject != nil {
			v, err := p.BindExpr(w.Cond, sc, agg)
			if err != nil {
				return nil, err
			}
			if cond, err = p.compare(opEq, subject, v); err != nil {
				return nil, err
			}
		} else if cond, err = p.BindBool(w.Cond, sc, agg); err != nil {
			return nil, err
		}
		v, err := p.BindExpr(w.Val, sc, agg)
		if err != nil {
			return nil, err
		}
		e.conds = append(e.conds, cond)
		vals = append(vals, v)
	}
	if x.Else != nil {
		v, err := p.BindExpr(x.Else, sc, agg)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	t, err := commonType(vals)
	if err != nil {
		return nil, err
	}
	for i := range vals {
		if vals[i], err = p.cast(vals[i], t); err != nil {
			return nil, err
		}
	}
	e.t = t
	e.vals = vals[:len(e.conds)]
	if x.Else != nil {
		e.els = vals[len(vals)-1]
	}
	return e, nil
}

// commonType is the type several values (CASE branches, COALESCE
// arguments) are brought to.
func commonType(vals []Expr) (Type, error) {
	if t, ok, err := literalsCommonType(vals); ok || err != nil {
		return t, err
	}
	t := Type{Kind: KNull}
	for _, v := range vals {
		vt := v.Type()
		if t.Kind == KNull {
			t = WithoutField(vt)
			if vt.Kind == KNested {
				t = vt
			}
			continue
		}
		if vt.Kind == KNull {
			continue
		}
		if vt.Kind == KEnum || t.Kind == KEnum {
			t = unifyEnum(t, vt) // text with an ENUM is text (enumtypes.go)
			continue
		}
		if vt.Op() == KString && t.Op() != KString {
			if _, ok := IsConst(v); ok {
				continue
			}
			t = Type{Kind: KString}
			continue
		}
		if t.Op() == KString && vt.Op() != KString {
			t = Type{Kind: KString}
			continue
		}
		u, err := UnifyTypes(t, vt)
		if err != nil {
			return Type{}, err
		}
		t = u
	}
	if t.Kind == KNull {
		t = Type{Kind: KInt}
	}
	return t, nil
}

func (p *Planner) bindInterval(x *sqlparser.IntervalExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	e, err := p.BindExpr(x.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	k, ok := IsConst(e)
	if !ok {
		unit, err := function.MakeInterval(1, x.Unit)
		if err != nil {
			return nil, err
		}
		return p.scaledInterval(e, unit, "INTERVAL ("+e.String()+") "+strings.ToUpper(x.Unit))
	}
	f, err := CastScalar(k.V, k.T, Type{Kind: KFloat})
	if err != nil {
		return nil, AsError(err)
	}
	n, _ := f.(float64)
	iv, err := function.MakeInterval(n, x.Unit)
	if err != nil {
		return nil, err
	}
	return &ConstExpr{T: Type{Kind: KInterval}, V: iv}, nil
}

// scaledInterval is n times the interval unit, n an expression, as
// interval.scale (a fraction of a month carries into days).
func (p *Planner) scaledInterval(n Expr, unit Interval, text string) (Expr, error) {
	f, err := p.cast(n, tFloat)
	if err != nil {
		return nil, err
	}
	e := &funcExpr{name: "interval", args: []Expr{f}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		iv, ok := unit.Scale(a[0].F[i])
		if !ok {
			return nil, errorf("the interval is out of range")
		}
		return iv, nil
	}}
	e.setText(text)
	return e, nil
}

// bindPatternMatch binds x [NOT] GLOB p and x [NOT] SIMILAR TO p, which
// the rewrite made x [NOT] LIKE marker(p): regexp_full_match(x, p), the
// GLOB pattern first made a regular expression (by the function of the
// marker's name, folded for a constant).
func (p *Planner) bindPatternMatch(x *sqlparser.ComparisonExpr, f *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	if len(f.Exprs) != 1 || x.Escape != nil {
		return nil, errorf("GLOB and SIMILAR TO take one pattern")
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf("GLOB and SIMILAR TO take one pattern")
	}
	pat := ae.Expr
	if f.Name.Lowered() == parse.GlobMarker {
		pat = f // the marker is also the function from GLOB pattern to regular expression
	}
	var e sqlparser.Expr = &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("regexp_full_match"),
		Exprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: x.Left}, &sqlparser.AliasedExpr{Expr: pat}}}
	if x.Operator == sqlparser.NotLikeStr {
		e = &sqlparser.NotExpr{Expr: e}
	}
	return p.BindExpr(e, sc, agg)
}

// globRegexp returns the regular expression of a GLOB pattern: * any
// characters, ? one, [abc] [a-z] [!abc] a class, anything else itself.
func globRegexp(g string) string {
	var b strings.Builder
	b.WriteString("(?s)")
	for i := 0; i < len(g); {
		switch c := g[i]; c {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end == 0 && i+2 < len(g) { // []...] : ] first is a member
				if e := strings.IndexByte(g[i+2:], ']'); e >= 0 {
					end = e + 1
				}
			}
			if end < 0 {
				b.WriteString(`\[`)
				break
			}
			class := g[i+1 : i+1+end]
			b.WriteByte('[')
			if strings.HasPrefix(class, "!") {
				b.WriteByte('^')
				class = class[1:]
			}
			b.WriteString(strings.ReplaceAll(strings.ReplaceAll(class, `\`, `\\`), "[", `\[`))
			b.WriteByte(']')
			i += end + 2
			continue
		default:
			r, n := utf8.DecodeRuneInString(g[i:])
			b.WriteString(regexp.QuoteMeta(string(r)))
			i += n
			continue
		}
		i++
	}
	return b.String()
}

// opChainOperator maps the operators that DuckDB, like PostgreSQL, gives
// one precedence, below + and *, applied left to right (||, |, &, << and
// >>), to the functions that apply them. The parser gives them MySQL's
// precedences instead; bindOpChain applies them in DuckDB's order. Bitwise
// OR is found by bitOrOperand.
var opChainOperator = map[string]string{
	sqlparser.BitOrStr:      "concat_op",
	sqlparser.BitAndStr:     "bit_and_op",
	sqlparser.ShiftLeftStr:  "shift_left",
	sqlparser.ShiftRightStr: "shift_right",
}

// bindOpChain binds a chain of opChainOperator operators, as parsed from
// left to right, folding it from the left.
func (p *Planner) bindOpChain(x *sqlparser.BinaryExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	var operands []sqlparser.Expr
	var ops []string
	var flatten func(e sqlparser.Expr)
	flatten = func(e sqlparser.Expr) {
		if b, ok := e.(*sqlparser.BinaryExpr); ok && opChainOperator[b.Operator] != "" {
			flatten(b.Left)
			ops = append(ops, b.Operator)
			flatten(b.Right)
			return
		}
		operands = append(operands, e)
	}
	flatten(x)
	acc, err := p.BindExpr(operands[0], sc, agg)
	if err != nil {
		return nil, err
	}
	for i, op := range ops {
		fn, operand := opChainOperator[op], operands[i+1]
		if op == sqlparser.BitOrStr {
			var bitOr bool
			if operand, bitOr = bitOrOperand(operand); bitOr {
				fn = "bit_or_op"
			}
		}
		r, err := p.BindExpr(operand, sc, agg)
		if err != nil {
			return nil, err
		}
		if fn == "concat_op" && isListConcat(acc, r) {
			if acc, err = p.bindListConcatOp(acc, r); err != nil {
				return nil, err
			}
			continue
		}
		if acc, err = p.bindFunc(fn, []Expr{acc, r}); err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// bitOrOperand tells a bitwise OR from a concatenation, which the parser
// reads as the same | operator: the rewrite marks the right operand of a
// single | by putting BINARY before its first term. Operators that bind
// tighter than | leave that term at the end of the left spine of the
// right operand; bitOrOperand returns the operand without the marker, and
// whether it was there.
func bitOrOperand(e sqlparser.Expr) (sqlparser.Expr, bool) {
	switch x := e.(type) {
	case *sqlparser.UnaryExpr:
		if x.Operator == sqlparser.BinaryStr {
			return x.Expr, true
		}
	case *sqlparser.BinaryExpr:
		if l, ok := bitOrOperand(x.Left); ok {
			c := *x
			c.Left = l
			return &c, true
		}
	}
	return e, false
}

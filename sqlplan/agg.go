package sqlplan

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/num"

	"github.com/xwb1989/sqlparser"
)

// aggSpec is one aggregate of a GROUP BY.
type aggSpec struct {
	fn  string // count_star, count, sum, avg, min, max, any_value, string_agg, bool_and, bool_or, stddev_samp, ...
	arg expr
	// arg2 is the second argument of arg_max/arg_min (the value ordered by).
	arg2 expr
	// q is the fraction of quantile_cont/quantile_disc (median: 0.5); qs
	// the fractions when given as a list (the result is then a list).
	q  float64
	qs []float64
	// qdesc: the quantile is taken in descending order (WITHIN GROUP
	// (ORDER BY x DESC)).
	qdesc    bool
	sep      string
	distinct bool
	t        Type
	text     string
	// exactT is set for AVG of integers and decimals: the argument keeps
	// this type and is summed exactly; only the quotient is a DOUBLE.
	exactT *Type
	// order is agg(x ORDER BY ...): the keys (evaluated on the input) and
	// their directions; set only where the order changes the result.
	order     []expr
	orderKeys []sortKey
	// grouping lists the keys of GROUPING(...) (by index).
	grouping []int
	k        int       // approx_top_k's k
	bins     *histBins // histogram(x, bins), histogram_exact
}

// bindAggregate binds an aggregate call above a GROUP BY.
func (p *planner) bindAggregate(n sqlparser.Expr, agg *aggCtx) (expr, error) {
	text := sqlparser.String(n)
	for i, a := range agg.aggs {
		if a.text == text {
			return &colExpr{s: agg.slots[len(agg.keys)+i], t: a.t}, nil
		}
	}
	spec := &aggSpec{text: text}
	avgInterval := false // AVG of an INTERVAL: its result turns back into one
	var args []sqlparser.SelectExpr
	switch x := n.(type) {
	case *sqlparser.FuncExpr:
		spec.fn = x.Name.Lowered()
		if spec.fn == "grouping" || spec.fn == "grouping_id" {
			if err := p.bindGrouping(x, spec, agg); err != nil {
				return nil, err
			}
			agg.aggs = append(agg.aggs, spec)
			s := &slot{}
			agg.slots = append(agg.slots, s)
			return &colExpr{s: s, t: spec.t}, nil
		}
		spec.distinct = x.Distinct
		args = x.Exprs
	case *sqlparser.GroupConcatExpr:
		spec.fn = "string_agg"
		spec.distinct = x.Distinct != ""
		spec.sep = ","
		if x.Separator != "" {
			spec.sep = x.Separator
		}
		if len(x.OrderBy) > 0 {
			return nil, unsupported("ORDER BY inside GROUP_CONCAT")
		}
		args = x.Exprs
	}
	median := false
	switch spec.fn {
	case "mean":
		spec.fn = "avg"
	case "first", "arbitrary":
		spec.fn = "any_value"
	case "fsum", "sumkahan", "kahan_sum":
		spec.fn = "sum"
	case "favg":
		spec.fn = "avg"
	case "geometric_mean":
		spec.fn = "geomean"
	case "group_concat", "listagg":
		spec.fn = "string_agg"
	case "stddev":
		spec.fn = "stddev_samp"
	case "variance":
		spec.fn = "var_samp"
	case "countif":
		spec.fn = "count_if"
	case "every":
		spec.fn = "bool_and"
	case "approx_count_distinct":
		spec.fn, spec.distinct = "count", true // exact is a fine approximation
	case "median":
		spec.fn, spec.q, median = "quantile_cont", 0.5, true
	case "quantile":
		spec.fn = "quantile_disc"
	case "max_by", "argmax":
		spec.fn = "arg_max"
	case "min_by", "argmin":
		spec.fn = "arg_min"
	case "array_agg":
		spec.fn = "list"
	}
	args, orderArgs := splitAggOrder(args)
	var bound []expr
	for _, a := range args {
		switch ae := a.(type) {
		case *sqlparser.StarExpr:
			if spec.fn != "count" {
				return nil, errorf("%s(*) is not allowed", spec.fn)
			}
		case *sqlparser.AliasedExpr:
			if containsAggregate(ae.Expr) {
				return nil, errorf("aggregate function calls cannot be nested: %s", text)
			}
			e, err := p.bindExpr(ae.Expr, agg.inScope, nil)
			if err != nil {
				return nil, err
			}
			bound = append(bound, e)
		}
	}
	if err := p.bindAggOrder(spec, orderArgs, agg); err != nil {
		return nil, err
	}
	if spec.fn == "count" && len(bound) == 0 {
		spec.fn = "count_star"
		if spec.distinct {
			return nil, errorf("COUNT(DISTINCT *) is not allowed")
		}
	} else if len(bound) == 0 {
		return nil, errorf("%s needs an argument", spec.fn)
	}
	if spec.fn == "string_agg" && len(bound) == 2 {
		k, ok := isConst(bound[1])
		if !ok || k.t.op() != KString {
			return nil, errorf("the separator of string_agg must be a constant string")
		}
		spec.sep = k.v.(string)
		bound = bound[:1]
	} else if spec.fn == "string_agg" && spec.sep == "" && len(bound) == 1 {
		spec.sep = ","
	}
	if spec.fn == "quantile_cont" || spec.fn == "quantile_disc" {
		if n := len(bound); n == 3 {
			if k, ok := isConst(bound[2]); ok && k.v == descMarker {
				spec.qdesc, bound = true, bound[:2]
			}
		}
		switch {
		case len(bound) == 2:
			if qs, ok := quantileFractions(bound[1]); ok {
				spec.qs, bound = qs, bound[:1]
				break
			}
			q, ok := quantileFraction(bound[1])
			if !ok {
				return nil, errorf("the fraction of %s must be a constant between 0 and 1, or a list of them", spec.fn)
			}
			spec.q, bound = q, bound[:1]
		case len(bound) != 1 || !median:
			return nil, errorf("%s takes a value and a fraction", spec.fn)
		}
	}
	if spec.fn == "arg_max" || spec.fn == "arg_min" {
		if len(bound) != 2 {
			return nil, errorf("%s takes two arguments: the value returned and the value ordered by", spec.fn)
		}
		spec.arg2, bound = bound[1], bound[:1]
	}
	bound, err := p.bindCountingArgs(spec, bound)
	if err != nil {
		return nil, err
	}
	if pairStats[spec.fn] {
		if len(bound) != 2 {
			return nil, errorf("%s takes two arguments (y, x)", spec.fn)
		}
		for _, b := range bound {
			if t := b.typ(); !t.isNumeric() && t.Kind != KNull {
				return nil, errorf("%s of %s is not defined", spec.fn, t.SQLName())
			}
		}
		y, err := p.cast(bound[0], tFloat)
		if err != nil {
			return nil, err
		}
		x, err := p.cast(bound[1], tFloat)
		if err != nil {
			return nil, err
		}
		spec.arg, spec.arg2, bound = y, x, nil
	}
	if len(bound) > 1 {
		return nil, errorf("%s takes one argument", spec.fn)
	}
	if len(bound) == 1 {
		spec.arg = bound[0]
	}
	if pairStats[spec.fn] {
		spec.t = tFloat
		if spec.fn == "regr_count" {
			spec.t = tInt
		}
		if spec.distinct {
			return nil, unsupported(strings.ToUpper(spec.fn) + "(DISTINCT ...)")
		}
		agg.aggs = append(agg.aggs, spec)
		s := &slot{}
		agg.slots = append(agg.slots, s)
		return &colExpr{s: s, t: spec.t}, nil
	}
	at := Type{}
	if spec.arg != nil {
		at = spec.arg.typ()
	}
	switch spec.fn {
	case "count_star", "count":
		spec.t = tInt
	case "count_if":
		if spec.arg, err = p.coerce(spec.arg, tBool); err != nil {
			return nil, err
		}
		spec.t = tInt
	case "sum":
		switch {
		case at.op() == KInt || at.Kind == KBool:
			// HUGEINT, as DuckDB: a sum of integers never overflows
			// below 38 digits.
			if at.Kind == KBool {
				spec.arg, _ = p.cast(spec.arg, tInt)
			}
			spec.t = tHuge
		case at.op() == KUint:
			spec.arg, err = p.cast(spec.arg, Type{Kind: KDecimal, Prec: 20})
			spec.t = tHuge
		case at.Huge:
			spec.t = tHuge // as DuckDB; a sum past 128 bits is an error
		case at.Kind == KUHuge:
			spec.arg, err = p.cast(spec.arg, tFloat) // a DOUBLE, as DuckDB
			spec.t = tFloat
		case at.Kind == KDecimal:
			// Exact, as DuckDB: DECIMAL(38, s) whatever the input width.
			spec.t = Type{Kind: KDecimal, Prec: 38, Scale: at.Scale}
		case at.Kind == KFloat:
			spec.arg, err = p.cast(spec.arg, tFloat)
			spec.t = tFloat
		case at.Kind == KNull:
			spec.t = tInt
		case at.op() == KString:
			spec.arg, err = p.cast(spec.arg, tFloat)
			spec.t = tFloat
		default:
			return nil, errorf("sum of %s is not defined", at.SQLName())
		}
	case "avg", "stddev_samp", "stddev_pop", "var_samp", "var_pop":
		if spec.fn == "avg" && at.Kind == KInterval {
			// The mean of the microseconds, back as an INTERVAL (below).
			spec.arg, at, avgInterval = asBigint(spec.arg), tInt, true
		}
		if !at.isNumeric() && at.Kind != KNull && at.op() != KString {
			return nil, errorf("%s of %s is not defined", spec.fn, at.SQLName())
		}
		if spec.fn == "avg" && (at.op() == KInt || at.Kind == KDecimal) {
			// Exact sum, one division: a float running sum loses digits
			// (and DuckDB's AVG of integers and decimals does not).
			st := Type{Kind: KDecimal, Prec: 38}
			if at.Kind == KDecimal {
				st.Scale = at.Scale
			}
			spec.exactT = &st
			spec.t = tFloat
			break
		}
		spec.arg, err = p.cast(spec.arg, tFloat)
		spec.t = tFloat
	case "min", "max", "any_value":
		spec.t = withoutField(at)
		if at.Kind == KNested {
			spec.t = at
		}
		if at.Kind == KNull {
			spec.t = tInt
		}
	case "string_agg":
		spec.arg, err = p.cast(spec.arg, tString)
		spec.t = tString
	case "quantile_cont":
		// As DuckDB: DECIMAL stays DECIMAL, DATE and TIMESTAMP give a
		// TIMESTAMP (interpolated in integers, truncated), other numbers
		// a DOUBLE.
		switch {
		case at.Kind == KDecimal:
			spec.t = withoutField(at)
		case at.Kind == KDate || at.Kind == KTimestamp:
			spec.t = Type{Kind: KTimestamp, TZ: at.TZ}
			spec.arg, err = p.cast(spec.arg, spec.t)
		case at.isNumeric() || at.Kind == KNull:
			spec.t = tFloat
			spec.arg, err = p.cast(spec.arg, tFloat)
		default:
			return nil, errorf("%s of %s is not defined", spec.fn, at.SQLName())
		}
		if spec.qs != nil {
			elem := spec.t
			spec.t = Type{Kind: KNested, Elem: &elem}
		}
	case "quantile_disc", "mode", "arg_max", "arg_min":
		if at.Kind == KNested || spec.arg2 != nil && spec.arg2.typ().Kind == KNested {
			return nil, errorf("%s of a nested value is not supported", spec.fn)
		}
		spec.t = withoutField(at)
		if at.Kind == KNull {
			spec.t = tInt
		}
		if spec.qs != nil {
			elem := spec.t
			spec.t = Type{Kind: KNested, Elem: &elem}
		}
	case "bool_and", "bool_or":
		// As DuckDB, only a BOOLEAN (or a bare NULL): bool_or(0) or
		// bool_or('true') is a binder error there, not a cast.
		if at.Kind != KBool && at.Kind != KNull {
			return nil, errorf("%s(%s) is not defined: %s takes a BOOLEAN", spec.fn, at.SQLName(), spec.fn)
		}
		spec.arg, err = p.coerce(spec.arg, tBool)
		spec.t = tBool
	case "product", "skewness", "kurtosis", "kurtosis_pop", "geomean":
		if !at.isNumeric() && at.Kind != KNull {
			return nil, errorf("%s of %s is not defined", spec.fn, at.SQLName())
		}
		spec.arg, err = p.cast(spec.arg, tFloat)
		spec.t = tFloat
	case "last":
		spec.t = withoutField(at)
		if at.Kind == KNested {
			spec.t = at
		}
		if at.Kind == KNull {
			spec.t = tInt
		}
	case "entropy":
		if at.Kind == KNested {
			return nil, errorf("entropy of a nested value is not supported")
		}
		spec.t = tFloat
	case "list":
		elem := withoutField(at)
		if at.Kind == KNested {
			elem = at
		}
		if at.Kind == KNull {
			elem = tInt
		}
		spec.t = Type{Kind: KNested, Elem: &elem}
	case "bit_and", "bit_or", "bit_xor":
		if at.op() != KInt && at.Kind != KNull && !at.Bit {
			return nil, errorf("%s of %s is not defined", spec.fn, at.SQLName())
		}
		spec.t = at
		if at.Kind == KNull {
			spec.t = tInt
		}
	default:
		if ok, cerr := countingType(spec, at); ok {
			err = cerr
			break
		}
		return nil, unsupported("the aggregate function " + spec.fn)
	}
	if err != nil {
		return nil, err
	}
	if spec.distinct && spec.fn != "count" && spec.fn != "sum" && spec.fn != "avg" && spec.fn != "min" && spec.fn != "max" && spec.fn != "string_agg" && spec.fn != "list" && spec.fn != "histogram" && spec.fn != "histogram_exact" && spec.fn != "approx_top_k" {
		return nil, unsupported(strings.ToUpper(spec.fn) + "(DISTINCT ...)")
	}
	agg.aggs = append(agg.aggs, spec)
	s := &slot{}
	agg.slots = append(agg.slots, s)
	if avgInterval {
		return microsInterval(&colExpr{s: s, t: spec.t}, text), nil
	}
	return &colExpr{s: s, t: spec.t}, nil
}

// asBigint reads an INTERVAL expression as its microseconds, a BIGINT (a
// month counting 30 days, see interval.flatMicros).
func asBigint(e expr) expr {
	f := &funcExpr{name: "micros", args: []expr{e}, t: tInt, strict: true, row: func(a []*Col, i int) (any, error) {
		return a[0].get(i).(interval).flatMicros(), nil
	}}
	f.setText(e.String())
	return f
}

// microsInterval turns a DOUBLE of microseconds into an INTERVAL of days
// and microseconds.
func microsInterval(e expr, text string) expr {
	f := &funcExpr{name: "interval", args: []expr{e}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		return splitMicros(int64(math.Round(a[0].F[i]))), nil
	}}
	f.setText(text)
	return f
}

// accumulator keeps the state of one aggregate for every group.
type accumulator interface {
	update(gids []int32, ngroups int, c *Col)
	result(ngroups int) *Col
}

func newAccumulator(a *aggSpec) accumulator {
	if a.order != nil {
		inner := *a
		inner.order, inner.orderKeys = nil, nil
		return &orderedAcc{keys: a.orderKeys, inner: newAccumulator(&inner)}
	}
	if a.distinct {
		return &distinctAcc{spec: a, inner: newAccumulator(&aggSpec{fn: a.fn, t: a.t, sep: a.sep, arg: a.arg, exactT: a.exactT, k: a.k, bins: a.bins})}
	}
	if a.exactT != nil {
		return &avgExactAcc{sum: sumDecAcc{t: *a.exactT}}
	}
	switch a.fn {
	case "count_star":
		return &countAcc{star: true}
	case "count":
		return &countAcc{}
	case "count_if":
		return &countAcc{ifTrue: true}
	case "sum":
		switch a.t.Kind {
		case KFloat:
			return &sumFloatAcc{}
		case KDecimal:
			return &sumDecAcc{t: a.t}
		}
		return &sumIntAcc{t: a.t}
	case "avg", "stddev_samp", "stddev_pop", "var_samp", "var_pop":
		return &momentAcc{fn: a.fn}
	case "min", "max":
		sign := 1
		if a.fn == "min" {
			sign = -1
		}
		if storage(a.t) == stInt {
			return &extremeIntAcc{sign: sign, t: a.t}
		}
		if storage(a.t) == stFloat {
			return &extremeFloatAcc{sign: sign}
		}
		return &extremeAcc{sign: sign, t: a.t}
	case "any_value":
		return &extremeAcc{t: a.t}
	case "string_agg":
		return &stringAggAcc{sep: a.sep}
	case "bool_and", "bool_or":
		return &boolAcc{and: a.fn == "bool_and"}
	case "product", "skewness", "kurtosis", "kurtosis_pop", "geomean":
		return &shapeAcc{fn: a.fn}
	case "last":
		return &lastAcc{t: a.t}
	case "entropy":
		return &entropyAcc{t: a.t}
	case "quantile_cont", "quantile_disc":
		if a.qs != nil {
			return &quantileAcc{t: *a.t.Elem, qs: a.qs, cont: a.fn == "quantile_cont", desc: a.qdesc}
		}
		return &quantileAcc{t: a.t, q: a.q, cont: a.fn == "quantile_cont", desc: a.qdesc}
	case "mode":
		return &modeAcc{t: a.t}
	case "arg_max", "arg_min":
		sign := 1
		if a.fn == "arg_min" {
			sign = -1
		}
		return &argAcc{t: a.t, kt: a.arg2.typ(), sign: sign}
	case "bit_and", "bit_or", "bit_xor":
		if a.t.Bit {
			return &bitStringAcc{op: strings.ToUpper(strings.TrimPrefix(a.fn, "bit_")), t: a.t}
		}
		return &bitAcc{fn: a.fn, t: a.t}
	case "list":
		return &listAcc{t: a.t}
	}
	if pairStats[a.fn] {
		return &pairAcc{fn: a.fn}
	}
	if acc := newCountingAcc(a); acc != nil {
		return acc
	}
	return &countAcc{}
}

// quantileFraction is the constant fraction of a quantile, in [0, 1].
func quantileFraction(e expr) (float64, bool) {
	k, ok := isConst(e)
	if !ok {
		return 0, false
	}
	var q float64
	switch v := k.v.(type) {
	case float64:
		q = v
	case int64:
		q = float64(v)
		if k.t.Kind == KDecimal {
			q = decFloat(v, k.t.Scale) // a short decimal's unscaled value
		}
	case value.Decimal:
		q, _ = decRat(v).Float64()
	default:
		return 0, false
	}
	return q, q >= 0 && q <= 1
}

// quantileFractions is a constant list of fractions in [0, 1].
func quantileFractions(e expr) ([]float64, bool) {
	t := e.typ()
	if t.Kind != KNested || t.Elem == nil || !constantTree(e) {
		return nil, false
	}
	k, err := constantValue(e)
	if err != nil || k == nil || k.v == nil {
		return nil, false
	}
	vs, ok := k.v.([]any)
	if !ok || len(vs) == 0 {
		return nil, false
	}
	qs := make([]float64, len(vs))
	for i, v := range vs {
		if s, isText := v.(string); isText {
			// Nested values keep decimals as their text.
			f, err := strconv.ParseFloat(s, 64)
			if err != nil || f < 0 || f > 1 {
				return nil, false
			}
			qs[i] = f
			continue
		}
		q, ok := quantileFraction(&constExpr{v: v, t: *k.t.Elem})
		if !ok {
			return nil, false
		}
		qs[i] = q
	}
	return qs, true
}

// constantTree reports whether every leaf of e is a constant.
func constantTree(e expr) bool {
	ch := children(e)
	if len(ch) == 0 {
		_, ok := isConst(e)
		return ok
	}
	for _, c := range ch {
		if !constantTree(c) {
			return false
		}
	}
	return true
}

// quantileAcc collects each group's non-NULL values and picks the
// quantile at the end: quantile_cont interpolates between the two values
// around position (n-1)*q, quantile_disc takes the ceil(n*q)-th value.
// With a list of fractions (qs) each group's result is the list of its
// quantiles.
type quantileAcc struct {
	t    Type
	q    float64
	qs   []float64
	cont bool
	desc bool // the values are ranked in descending order
	vals [][]any
}

func (a *quantileAcc) update(gids []int32, ng int, c *Col) {
	a.vals = growTo(a.vals, ng)
	for i, g := range gids {
		if !c.isNull(i) {
			a.vals[g] = append(a.vals[g], c.get(i))
		}
	}
}

func (a *quantileAcc) result(ng int) *Col {
	a.vals = growTo(a.vals, ng)
	t := a.t
	if a.qs != nil {
		t = Type{Kind: KNested, Elem: &a.t}
	}
	b := newBuilder(t, ng)
	for _, vs := range a.vals[:ng] {
		if len(vs) == 0 {
			b.add(nil)
			continue
		}
		slices.SortFunc(vs, func(x, y any) int {
			if a.desc {
				x, y = y, x
			}
			return compareScalars(a.t, x, y)
		})
		if a.qs == nil {
			b.add(a.pick(vs, a.q))
			continue
		}
		list := make([]any, len(a.qs))
		for i, q := range a.qs {
			list[i] = toGo(a.t, a.pick(vs, q))
		}
		b.add(list)
	}
	return b.c
}

// pick is the quantile q of the sorted values vs.
func (a *quantileAcc) pick(vs []any, q float64) any {
	if !a.cont {
		// DuckDB's discrete quantile: the ceil(n*q)-th value.
		return vs[max(1, int(math.Ceil(float64(len(vs))*q)))-1]
	}
	pos := float64(len(vs)-1) * q
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(vs)-1)
	frac := pos - float64(lo)
	switch x := vs[lo].(type) {
	case int64: // a DECIMAL's unscaled value, or microseconds
		return x + int64(float64(vs[hi].(int64)-x)*frac)
	case value.Decimal:
		d := new(big.Int).Sub(vs[hi].(value.Decimal).Unscaled, x.Unscaled)
		step, _ := new(big.Float).Mul(new(big.Float).SetInt(d), big.NewFloat(frac)).Int(nil) // truncated
		return value.Decimal{Unscaled: step.Add(step, x.Unscaled), Scale: x.Scale}
	}
	x, y := vs[lo].(float64), vs[hi].(float64)
	return x + frac*(y-x)
}

// modeAcc counts each group's values; the most frequent wins, the first
// seen among equally frequent ones.
type modeAcc struct {
	t      Type
	counts []map[string]*modeEntry
	buf    []byte
}

type modeEntry struct {
	v     any
	n     int
	first int
}

func (a *modeAcc) update(gids []int32, ng int, c *Col) {
	a.counts = growTo(a.counts, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		if a.counts[g] == nil {
			a.counts[g] = map[string]*modeEntry{}
		}
		a.buf = appendKey(a.buf[:0], c, i)
		e := a.counts[g][string(a.buf)]
		if e == nil {
			e = &modeEntry{v: c.get(i), first: len(a.counts[g])}
			a.counts[g][string(a.buf)] = e
		}
		e.n++
	}
}

func (a *modeAcc) result(ng int) *Col {
	a.counts = growTo(a.counts, ng)
	b := newBuilder(a.t, ng)
	for _, m := range a.counts[:ng] {
		var best *modeEntry
		for _, e := range m {
			if best == nil || e.n > best.n || e.n == best.n && e.first < best.first {
				best = e
			}
		}
		if best == nil {
			b.add(nil)
		} else {
			b.add(best.v)
		}
	}
	return b.c
}

// argAcc is arg_max/arg_min: per group, the first argument of the row
// whose second argument is the largest (smallest); rows where either is
// NULL do not count, and the first of equal ones wins.
type argAcc struct {
	t, kt Type
	sign  int
	best  []any
	res   []any
	seen  []bool
}

func (a *argAcc) update(gids []int32, ng int, c *Col) {
	panic("argAcc: update2 takes both arguments")
}

func (a *argAcc) update2(gids []int32, ng int, c, k *Col) {
	a.best, a.res, a.seen = growTo(a.best, ng), growTo(a.res, ng), growTo(a.seen, ng)
	for i, g := range gids {
		if k.isNull(i) || c.isNull(i) {
			continue // as DuckDB's arg_max: rows with either NULL do not count
		}
		kv := k.get(i)
		if a.seen[g] && a.sign*compareScalars(a.kt, kv, a.best[g]) <= 0 {
			continue
		}
		a.best[g], a.res[g], a.seen[g] = kv, c.get(i), true
	}
}

func (a *argAcc) result(ng int) *Col {
	a.res = growTo(a.res, ng)
	b := newBuilder(a.t, ng)
	for _, v := range a.res[:ng] {
		b.add(v)
	}
	return b.c
}

// growTo extends s with zero values to length n, doubling its capacity
// when it must grow (group counts rise a batch at a time).
func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	if cap(s) >= n {
		old := len(s)
		s = s[:n]
		clear(s[old:])
		return s
	}
	ns := make([]T, n, max(n, 2*cap(s)))
	copy(ns, s)
	return ns
}

type countAcc struct {
	star, ifTrue bool
	n            []int64
	part         []int64 // per-batch partial counts (countRows)
}

func (a *countAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	switch {
	case a.star || c.Null == nil && !a.ifTrue:
		a.part = countRows(a.n, a.part, gids, ng)
	case a.ifTrue:
		for i, g := range gids {
			if c.B[i] && !c.isNull(i) {
				a.n[g]++
			}
		}
	default:
		for i, g := range gids {
			if !c.Null[i] {
				a.n[g]++
			}
		}
	}
}

func (a *countAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	return &Col{T: tInt, Len: ng, I: a.n[:ng]}
}

type sumIntAcc struct {
	t        Type
	sum      []int64
	seen     []bool
	overflow bool
}

func (a *sumIntAcc) update(gids []int32, ng int, c *Col) {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	x := c.I
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		s, o := addInt64(a.sum[g], x[i])
		a.overflow = a.overflow || o
		a.sum[g] = s
		a.seen[g] = true
	}
}

func (a *sumIntAcc) result(ng int) *Col {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	c := &Col{T: a.t, Len: ng, I: a.sum[:ng]}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

type sumFloatAcc struct {
	sum  []float64
	seen []bool
}

func (a *sumFloatAcc) update(gids []int32, ng int, c *Col) {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	x := c.F
	if c.Null == nil {
		for i, g := range gids {
			a.sum[g] += x[i]
			a.seen[g] = true
		}
		return
	}
	for i, g := range gids {
		if !c.Null[i] {
			a.sum[g] += x[i]
			a.seen[g] = true
		}
	}
}

func (a *sumFloatAcc) result(ng int) *Col {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	c := &Col{T: tFloat, Len: ng, F: a.sum[:ng]}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

// momentAcc computes AVG, variances and standard deviations (Welford).
type momentAcc struct {
	fn   string
	n    []int64
	mean []float64
	m2   []float64
	sum  []float64
}

func (a *momentAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	a.sum = growTo(a.sum, ng)
	x := c.F
	if a.fn == "avg" {
		for i, g := range gids {
			if c.Null == nil || !c.Null[i] {
				a.n[g]++
				a.sum[g] += x[i]
			}
		}
		return
	}
	a.mean = growTo(a.mean, ng)
	a.m2 = growTo(a.m2, ng)
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		a.n[g]++
		d := x[i] - a.mean[g]
		a.mean[g] += d / float64(a.n[g])
		a.m2[g] += d * (x[i] - a.mean[g])
	}
}

func (a *momentAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	a.sum = growTo(a.sum, ng)
	a.mean = growTo(a.mean, ng)
	a.m2 = growTo(a.m2, ng)
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		switch a.fn {
		case "avg":
			if a.n[g] == 0 {
				c.setNull(g)
			} else {
				c.F[g] = a.sum[g] / n
			}
		case "var_pop", "stddev_pop":
			if a.n[g] == 0 {
				c.setNull(g)
				continue
			}
			c.F[g] = a.m2[g] / n
		default:
			if a.n[g] < 2 {
				c.setNull(g)
				continue
			}
			c.F[g] = a.m2[g] / (n - 1)
		}
		if strings.HasPrefix(a.fn, "stddev") && !c.isNull(g) {
			c.F[g] = math.Sqrt(c.F[g])
		}
	}
	return c
}

type extremeIntAcc struct {
	sign int
	t    Type
	v    []int64
	seen []bool
}

func (a *extremeIntAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	x := c.I
	uns := c.T.Kind == KUint
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		if !a.seen[g] {
			a.v[g], a.seen[g] = x[i], true
			continue
		}
		var cmp int
		if uns {
			cmp = cmpOrdered(uint64(x[i]), uint64(a.v[g]))
		} else {
			cmp = cmpOrdered(x[i], a.v[g])
		}
		if cmp*a.sign > 0 {
			a.v[g] = x[i]
		}
	}
}

func (a *extremeIntAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	c := &Col{T: a.t, Len: ng, I: a.v[:ng]}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

type extremeFloatAcc struct {
	sign int
	v    []float64
	seen []bool
}

func (a *extremeFloatAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		x := c.F[i]
		if !a.seen[g] || cmpFloat(x, a.v[g])*a.sign > 0 {
			a.v[g], a.seen[g] = x, true
		}
	}
}

func (a *extremeFloatAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	c := &Col{T: tFloat, Len: ng, F: a.v[:ng]}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

// extremeAcc is MIN/MAX on any type (and ANY_VALUE when sign is 0).
type extremeAcc struct {
	sign int
	t    Type
	v    []any
}

func (a *extremeAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		if a.v[g] == nil {
			a.v[g] = c.get(i)
			continue
		}
		if a.sign == 0 {
			continue
		}
		if c.Off != nil {
			cur := a.v[g]
			var cb []byte
			switch s := cur.(type) {
			case string:
				cb = []byte(s)
			case []byte:
				cb = s
			}
			if bytes.Compare(c.str(i), cb)*a.sign > 0 {
				a.v[g] = c.get(i)
			}
			continue
		}
		if x := c.get(i); compareScalars(c.T, x, a.v[g])*a.sign > 0 {
			a.v[g] = x
		}
	}
}

func (a *extremeAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	return valuesCol(a.t, a.v[:ng])
}

// valuesCol is the column of type t holding vals.
func valuesCol(t Type, vals []any) *Col {
	b := newBuilder(t, len(vals))
	for _, v := range vals {
		b.add(v)
	}
	return b.c
}

type stringAggAcc struct {
	sep  string
	v    []*strings.Builder
	seen []bool
}

func (a *stringAggAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		if a.v[g] == nil {
			a.v[g] = &strings.Builder{}
		} else {
			a.v[g].WriteString(a.sep)
		}
		a.v[g].Write(c.str(i))
	}
}

func (a *stringAggAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	b := newBuilder(tString, ng)
	for _, v := range a.v[:ng] {
		if v == nil {
			b.add(nil)
		} else {
			b.add(v.String())
		}
	}
	return b.c
}

type boolAcc struct {
	and  bool
	v    []bool
	seen []bool
}

func (a *boolAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		if !a.seen[g] {
			a.v[g], a.seen[g] = c.B[i], true
		} else if a.and {
			a.v[g] = a.v[g] && c.B[i]
		} else {
			a.v[g] = a.v[g] || c.B[i]
		}
	}
}

func (a *boolAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	a.seen = growTo(a.seen, ng)
	c := &Col{T: tBool, Len: ng, B: a.v[:ng]}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

// distinctAcc feeds each group's distinct values once to an inner
// accumulator.
type distinctAcc struct {
	spec  *aggSpec
	inner accumulator
	seen  map[string]struct{}
	buf   []byte
	// seenInts holds the (group, value) pairs of integer-stored values,
	// without encoding them (TPC-H Q16's count(DISTINCT ps_suppkey)).
	seenInts pairSet
}

func (a *distinctAcc) update(gids []int32, ng int, c *Col) {
	var keep []int32
	var kg []int32
	if storage(c.T) == stInt && c.Dict == nil {
		// Integer-stored values (the column's type fixes the storage for
		// every batch): pairs of group and value, not encoded bytes. A
		// batch without int64s holds only NULLs.
		for i, g := range gids {
			if c.I == nil || c.isNull(i) || !a.seenInts.add(g, c.I[i]) {
				continue
			}
			keep = append(keep, int32(i))
			kg = append(kg, g)
		}
		a.inner.update(kg, ng, c.take(keep))
		return
	}
	if a.seen == nil {
		a.seen = map[string]struct{}{}
	}
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		a.buf = a.buf[:0]
		a.buf = append(a.buf, byte(g), byte(g>>8), byte(g>>16), byte(g>>24))
		a.buf = appendKey(a.buf, c, i)
		if _, ok := a.seen[string(a.buf)]; ok {
			continue
		}
		a.seen[string(a.buf)] = struct{}{}
		keep = append(keep, int32(i))
		kg = append(kg, g)
	}
	a.inner.update(kg, ng, c.take(keep))
}

func (a *distinctAcc) result(ng int) *Col { return a.inner.result(ng) }

// grouper assigns group ids to rows by their key values.
type grouper struct {
	keyTypes []Type
	keys     []*colBuilder // the key values of each group, in id order
	n        int
	ints     map[int64]int32
	strs     map[string]int32
	nullID   int32
	buf      []byte
	intCache []intCacheEntry
	// dense holds the group id + 1 of small non-negative integer keys
	// (placeDense), ahead of ints; intsLo..intsHi is the range of the keys
	// in ints, and intsMoved the groups when ints was last moved into
	// dense (addInt).
	dense          []int32
	intsLo, intsHi int64
	intsMoved      int
	// multi groups by two to four integer-like or string keys
	// (multiKey); interns numbers the strings of each string key.
	multi   map[multiKey]int32
	interns []*stringIDs
	// multiVals holds a batch's key values column by column (string ids
	// for string keys); multiCache is a direct-mapped cache of recent
	// keys in front of multi.
	multiVals  [][]int64
	multiCache *[multiCacheSize]multiCacheEntry
	// multiDense indexes keys in small ranges directly (densekeys.go).
	multiDense denseKeys
	// codeIDs maps the codes of a dictionary (a coded key column's Dict)
	// to group ids, -1 until seen.
	codeIDs map[*Col][]int32
}

// intCacheEntry caches one key's group id (id+1; 0 is empty).
type intCacheEntry struct {
	key int64
	id  int32
}

func newGrouper(types []Type) *grouper {
	g := &grouper{keyTypes: types, nullID: -1}
	for _, t := range types {
		g.keys = append(g.keys, newBuilder(t, 16))
	}
	switch {
	case len(types) == 1 && storage(types[0]) == stInt:
		g.ints = map[int64]int32{}
	case multiKeyTypes(types):
		g.multi = map[multiKey]int32{}
		g.interns = make([]*stringIDs, len(types))
		for j, t := range types {
			if storage(t) == stBytes {
				g.interns[j] = &stringIDs{ids: map[string]int64{}}
			}
		}
	default:
		g.strs = map[string]int32{}
	}
	return g
}

func (g *grouper) newGroup(cols []*Col, i int) int32 {
	id := int32(g.n)
	g.n++
	for k, c := range cols {
		g.keys[k].addRow(c, i)
	}
	return id
}

// assign fills gids with the group of every row.
func (g *grouper) assign(cols []*Col, n int, gids []int32) {
	if len(cols) == 1 && cols[0].Dict != nil && g.strs != nil && storage(cols[0].Dict.T) == stBytes {
		g.assignCodes(cols[0], n, gids)
		return
	}
	if g.multi != nil && g.multiCols(cols) {
		g.assignMulti(cols, n, gids) // coded string keys too
		return
	}
	for k, c := range cols {
		cols[k] = c.decoded()
	}
	if len(cols) == 0 {
		if g.n == 0 {
			g.n = 1
		}
		for i := range gids[:n] {
			gids[i] = 0
		}
		return
	}
	if g.ints != nil {
		c := cols[0]
		x := c.I
		// Direct-mapped cache in front of the map, as for strings.
		if g.intCache == nil {
			g.intCache = make([]intCacheEntry, 4096)
		}
		cache := g.intCache
		for i := 0; i < n; i++ {
			if c.Null != nil && c.Null[i] {
				if g.nullID < 0 {
					g.nullID = g.newGroup(cols, i)
				}
				gids[i] = g.nullID
				continue
			}
			k := x[i]
			if uint64(k) < uint64(len(g.dense)) && g.dense[k] != 0 {
				gids[i] = g.dense[k] - 1
				continue
			}
			e := &cache[uint64(k)*0x9e3779b97f4a7c15>>52]
			if e.id > 0 && e.key == k {
				gids[i] = e.id - 1
				continue
			}
			id, ok := int32(0), false
			if len(g.ints) > 0 && k >= g.intsLo && k <= g.intsHi {
				id, ok = g.ints[k]
			}
			if !ok {
				id = g.newGroup(cols, i)
				if !g.placeDense(k, id) {
					g.addInt(k, id)
				} else if len(g.ints) > 0 && g.n >= 2*g.intsMoved {
					g.moveInts()
				}
			}
			e.key, e.id = k, id+1
			gids[i] = id
		}
		return
	}
	if len(cols) == 1 && cols[0].Off != nil {
		c := cols[0]
		// A direct-mapped cache in front of the map: low-cardinality keys
		// (the common GROUP BY category) skip hashing the map's way.
		var cache [256]struct {
			key []byte
			id  int32
			ok  bool
		}
		for i := 0; i < n; i++ {
			if c.Null != nil && c.Null[i] {
				if g.nullID < 0 {
					g.nullID = g.newGroup(cols, i)
				}
				gids[i] = g.nullID
				continue
			}
			s := c.Data[c.Off[i]:c.Off[i+1]]
			h := uint(len(s))
			if len(s) > 0 {
				h = h*31 + uint(s[0])*7 + uint(s[len(s)-1])*131 + uint(s[len(s)/2])*17
			}
			e := &cache[h&255]
			if e.ok && string(e.key) == string(s) {
				gids[i] = e.id
				continue
			}
			id, ok := g.strs[string(s)]
			if !ok {
				id = g.newGroup(cols, i)
				g.strs[string(s)] = id
			}
			e.key, e.id, e.ok = s, id, true
			gids[i] = id
		}
		return
	}
	if g.multi != nil && g.multiCols(cols) {
		g.assignMulti(cols, n, gids)
		return
	}
	if g.multi != nil {
		// A key column came in another storage: regroup the groups so far
		// under the general byte keys, from their recorded keys.
		g.strs = map[string]int32{}
		for id := 0; id < g.n; id++ {
			g.buf = g.buf[:0]
			for j := range g.keys {
				g.buf = appendKey(g.buf, g.keys[j].c, id)
			}
			g.strs[string(g.buf)] = int32(id)
		}
		g.multi, g.interns = nil, nil
	}
	for i := 0; i < n; i++ {
		g.buf = g.buf[:0]
		for _, c := range cols {
			g.buf = appendKey(g.buf, c, i)
		}
		id, ok := g.strs[string(g.buf)]
		if !ok {
			id = g.newGroup(cols, i)
			g.strs[string(g.buf)] = id
		}
		gids[i] = id
	}
}

// placeDense records a new group of integer key k in the dense slice
// when k is a small non-negative number (at most a few times the groups
// so far, so that sparse keys do not allocate); false leaves it to the
// map. A key found in neither is new, whichever holds the others.
func (g *grouper) placeDense(k int64, id int32) bool {
	if k >= 0 && k < int64(len(g.dense)) {
		g.dense[k] = id + 1 // within the room made already
		return true
	}
	limit := int64(max(1<<16, 8*g.n))
	if k < 0 || k >= limit || k >= 1<<26 {
		return false
	}
	if k >= int64(len(g.dense)) {
		g.dense = growTo(g.dense, int(k)+1)
	}
	g.dense[k] = id + 1
	return true
}

// addInt keys group id by k in the map. Every time the groups have
// doubled, the map's keys that the dense array now takes move into it
// (moveInts): keys met before the groups were many enough for them (an
// unordered scan's first batch of a high key range) would otherwise stay
// in the map for good.
func (g *grouper) addInt(k int64, id int32) {
	if len(g.ints) == 0 || k < g.intsLo {
		g.intsLo = k
	}
	if len(g.ints) == 0 || k > g.intsHi {
		g.intsHi = k
	}
	g.ints[k] = id
	if g.n >= 2*g.intsMoved {
		g.moveInts()
	}
}

// moveInts moves the map's keys that the dense array now takes into it.
func (g *grouper) moveInts() {
	g.intsMoved = g.n
	for mk, mid := range g.ints {
		if g.placeDense(mk, mid) {
			delete(g.ints, mk)
		}
	}
	if g.intsLo, g.intsHi = 0, -1; len(g.ints) > 0 {
		first := true
		for mk := range g.ints {
			if first || mk < g.intsLo {
				g.intsLo = mk
			}
			if first || mk > g.intsHi {
				g.intsHi = mk
			}
			first = false
		}
	}
}

// multiKey is the key of a group of two to four keys, integer-like
// (dates, timestamps, decimals of at most 18 digits: their int64s) or
// strings (an id per distinct string, see stringIDs), with a bit per
// NULL key.
type multiKey struct {
	v     [4]int64
	nulls uint8
}

// multiKeyTypes reports whether keys of these types group by multiKeys.
func multiKeyTypes(types []Type) bool {
	if len(types) < 2 || len(types) > len(multiKey{}.v) {
		return false
	}
	for _, t := range types {
		if st := storage(t); st != stInt && st != stBytes {
			return false
		}
	}
	return true
}

// multiCols reports whether every key column holds its values as the
// multiKey path reads them (int64s, or strings for a string key).
func (g *grouper) multiCols(cols []*Col) bool {
	for j, c := range cols {
		if c.Dict != nil {
			if g.interns[j] == nil || c.Dict.Off == nil {
				return false
			}
			continue
		}
		if g.interns[j] != nil {
			if c.Off == nil {
				return false
			}
		} else if c.I == nil {
			return false
		}
	}
	return true
}

// stringIDs numbers the distinct strings of one key column, with a small
// direct-mapped cache in front of the map for repeated values.
type stringIDs struct {
	ids map[string]int64
	// dicts maps a few dictionaries' codes to ids (-1: not yet looked up).
	dicts map[*Col][]int64
	cache [256]struct {
		key []byte
		id  int64
		ok  bool
	}
}

// dictIDs returns the ids of a dictionary's entries, looked up once per
// dictionary.
func (s *stringIDs) dictIDs(d *Col) []int64 {
	if ids, ok := s.dicts[d]; ok {
		return ids
	}
	ids := make([]int64, d.Len)
	for i := range ids {
		ids[i] = s.id(d.str(i))
	}
	if s.dicts == nil || len(s.dicts) >= 16 {
		s.dicts = map[*Col][]int64{}
	}
	s.dicts[d] = ids
	return ids
}

func (s *stringIDs) id(b []byte) int64 {
	h := uint(len(b))
	if len(b) > 0 {
		h = h*31 + uint(b[0])*7 + uint(b[len(b)-1])*131 + uint(b[len(b)/2])*17
	}
	e := &s.cache[h&255]
	if e.ok && string(e.key) == string(b) {
		return e.id
	}
	id, ok := s.ids[string(b)]
	if !ok {
		id = int64(len(s.ids))
		s.ids[string(b)] = id
	}
	e.key, e.id, e.ok = append(e.key[:0], b...), id, true
	return id
}

// assignMulti groups rows by multiKeys.
func (g *grouper) assignMulti(cols []*Col, n int, gids []int32) {
	// Key values column by column: string keys become their ids (a coded
	// column's once per dictionary entry).
	if len(g.multiVals) < len(cols) {
		g.multiVals = make([][]int64, len(cols))
	}
	vals := g.multiVals[:len(cols)]
	for j, c := range cols {
		s := g.interns[j]
		if s == nil {
			vals[j] = c.I[:n]
			continue
		}
		if cap(vals[j]) < n {
			vals[j] = make([]int64, n, max(n, scratchCap))
		}
		v := vals[j][:n]
		if c.Dict != nil {
			ids := s.dictIDs(c.Dict)
			for i, code := range c.Codes[:n] {
				if c.Null == nil || !c.Null[i] {
					v[i] = ids[code]
				}
			}
		} else {
			for i := range v {
				if c.Null == nil || !c.Null[i] {
					v[i] = s.id(c.Data[c.Off[i]:c.Off[i+1]])
				}
			}
		}
		vals[j] = v
	}
	if g.assignDense(cols, vals, n, gids) {
		return
	}
	for i := 0; i < n; i++ {
		gids[i] = g.multiID(cols, vals, i)
	}
}

// multiID is the group of row i, whose key values are vals[.][i]: from
// the cache of recent keys, else the map (a new group if need be).
func (g *grouper) multiID(cols []*Col, vals [][]int64, i int) int32 {
	if g.multiCache == nil {
		g.multiCache = new([multiCacheSize]multiCacheEntry)
	}
	var k multiKey
	for j, c := range cols {
		if c.Null != nil && c.Null[i] {
			k.nulls |= 1 << j
			continue
		}
		k.v[j] = vals[j][i]
	}
	e := &g.multiCache[k.slot()]
	if e.ok && e.k == k {
		return e.id
	}
	id, ok := g.multi[k]
	if !ok {
		id = g.newGroup(cols, i)
		g.multi[k] = id
	}
	e.k, e.id, e.ok = k, id, true
	return id
}

// multiCacheSize is the number of recent keys assignMulti remembers.
const multiCacheSize = 1024

type multiCacheEntry struct {
	k  multiKey
	id int32
	ok bool
}

// slot is the key's place in the direct-mapped cache.
func (k *multiKey) slot() int {
	h := uint64(k.v[0])*0x9E3779B97F4A7C15 ^ uint64(k.v[1])*0xC2B2AE3D27D4EB4F ^
		uint64(k.v[2])*0x165667B19E3779F9 ^ uint64(k.v[3])*0x27D4EB2F165667C5 ^ uint64(k.nulls)
	return int((h ^ h>>29) % multiCacheSize)
}

// assignCodes groups by a coded string column: each dictionary entry is
// looked up once, then rows map code to group through a slice.
func (g *grouper) assignCodes(c *Col, n int, gids []int32) {
	ids, ok := g.codeIDs[c.Dict]
	if !ok {
		if g.codeIDs == nil || len(g.codeIDs) >= 16 {
			g.codeIDs = map[*Col][]int32{}
		}
		ids = make([]int32, c.Dict.Len)
		for i := range ids {
			ids[i] = -1
		}
		g.codeIDs[c.Dict] = ids
	}
	dict := []*Col{c.Dict}
	for i, code := range c.Codes[:n] {
		if c.Null != nil && c.Null[i] {
			if g.nullID < 0 {
				g.nullID = g.newGroup([]*Col{c}, i)
			}
			gids[i] = g.nullID
			continue
		}
		id := ids[code]
		if id < 0 {
			s := c.Dict.str(int(code))
			if id, ok = g.strs[string(s)]; !ok {
				id = g.newGroup(dict, int(code))
				g.strs[string(s)] = id
			}
			ids[code] = id
		}
		gids[i] = id
	}
}

// useCodes asks the scan below an aggregation for its GROUP BY keys that
// are string columns as dictionary codes, when the aggregates do not read
// them: grouping then looks each dictionary entry up once instead of
// copying and hashing every row's bytes (assignCodes, assignMulti).
func useCodes(sn *scanNode, keys []expr, aggs []*aggSpec) {
	if len(keys) > 1 && !multiKeyTypes(exprTypes(keys)) {
		return // grouped by byte keys: decoded anyway
	}
	read := map[*scopeCol]bool{}
	for _, a := range aggs {
		for _, e := range append([]expr{a.arg, a.arg2}, a.order...) {
			if e != nil {
				columnsOf(e, read)
			}
		}
	}
	for _, key := range keys {
		k, ok := key.(*colExpr)
		if !ok || k.col == nil || storage(k.t) != stBytes || read[k.col] {
			continue
		}
		for i, c := range sn.rel.used {
			if c == k.col && k.s.idx == i && !slices.Contains(sn.req.Codes, sn.req.Columns[i]) {
				sn.req.Codes = append(sn.req.Codes, sn.req.Columns[i])
			}
		}
	}
}

// aggNode is a hash aggregation: GROUP BY keys and aggregates.
type aggNode struct {
	in   node
	keys []expr
	aggs []*aggSpec
	// sets are the grouping sets (key indices) of GROUPING SETS, ROLLUP
	// and CUBE; nil for a plain GROUP BY (one set of every key).
	sets [][]int
	done bool
	// evaluated: the input's batches are inputs(b) already (a pipeline
	// computed them).
	evaluated bool
	// determined marks the keys that the others determined in the run
	// (groupdeps.go), for EXPLAIN ANALYZE.
	determined []bool
	// overScan: the input is a scan (or the pipeline that evaluates the
	// inputs on its batches), whose batches nothing else holds.
	overScan bool
}

// recycles reports whether the aggregation may give each input batch's
// buffers back to the scan once it has added the batch in: it reads a
// scan's batches directly, and neither its accumulators nor its grouper
// keep anything of them (keys are copied into the grouper unless they
// are nested values).
func (n *aggNode) recycles(states []*groupingState) bool {
	if _, direct := n.in.(*scanNode); !direct && !n.overScan {
		return false
	}
	for _, st := range states {
		for _, a := range st.accs {
			if !copiesValues(a) {
				return false
			}
		}
	}
	for _, k := range n.keys {
		switch storage(k.typ()) {
		case stInt, stFloat, stBytes, stBool:
		default:
			return false
		}
	}
	return true
}

// copiesValues reports whether an accumulator keeps nothing of the
// columns it is given (their numbers are added or compared into its own
// state), so that a scratch column can be released after update.
func copiesValues(a accumulator) bool {
	switch a.(type) {
	case *countAcc, *sumIntAcc, *sumFloatAcc, *momentAcc, *extremeIntAcc, *extremeFloatAcc, *sumDecAcc, *avgExactAcc:
		return true
	}
	return false
}

// inputs evaluates the keys and the aggregates' arguments on b: a batch
// of the keys, then the first and the second arguments (nil where an
// aggregate has none).
func (n *aggNode) inputs(b *Batch) (*Batch, error) {
	nk, na := len(n.keys), len(n.aggs)
	out := &Batch{N: b.N, Cols: make([]*Col, nk+2*na), recycle: b.recycle}
	var err error
	for i, k := range n.keys {
		if out.Cols[i], err = k.eval(b); err != nil {
			return nil, err
		}
	}
	for i, a := range n.aggs {
		if a.arg != nil {
			if out.Cols[nk+i], err = a.arg.eval(b); err != nil {
				return nil, err
			}
		}
		if a.arg2 != nil {
			if out.Cols[nk+na+i], err = a.arg2.eval(b); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// parallelInputs makes n's input a pipeline that also evaluates n's keys
// and arguments, when n's input is a scan with filters and every
// expression can run concurrently; it reports whether it did.
func (n *aggNode) parallelInputs(workers int) bool {
	if n.evaluated {
		return false
	}
	// Plain columns need no evaluation: over a bare scan there would be
	// nothing to run in parallel.
	_, computes := n.in.(*scanNode)
	computes = !computes
	for _, k := range n.keys {
		if !concurrentSafe(k) {
			return false
		}
		computes = computes || !isColumn(k)
	}
	for _, a := range n.aggs {
		if a.order != nil || a.arg != nil && !concurrentSafe(a.arg) || a.arg2 != nil && !concurrentSafe(a.arg2) {
			return false
		}
		computes = computes || a.arg != nil && !isColumn(a.arg) || a.arg2 != nil && !isColumn(a.arg2)
	}
	if !computes {
		return false
	}
	p := parallel(n.in, workers, n.inputs)
	if p == nil {
		return false
	}
	_, n.overScan = n.in.(*scanNode)
	n.in, n.evaluated = p, true
	return true
}

// groupingState aggregates the rows of one grouping set.
type groupingState struct {
	set  []int // the keys grouped by
	g    *grouper
	accs []accumulator
	// With keys that others determine (groupdeps.go), g groups by the
	// keys at positions hashed of set, and carry holds the keys at
	// positions carried, taken from each group's first row.
	hashed, carried []int
	carry           []*colBuilder
	hcols           []*Col
	first           []int32
}

// newGroupingState makes the state of grouping set set (keys of types),
// det marking the keys that the others determine (nil: none).
func newGroupingState(set []int, types []Type, det []bool, aggs int) *groupingState {
	st := &groupingState{set: set, accs: make([]accumulator, aggs)}
	var hashedTypes []Type
	for j, k := range set {
		if det != nil && det[k] {
			st.carried = append(st.carried, j)
			st.carry = append(st.carry, newBuilder(types[k], 16))
			continue
		}
		st.hashed = append(st.hashed, j)
		hashedTypes = append(hashedTypes, types[k])
	}
	st.g = newGrouper(hashedTypes)
	return st
}

// assign fills gids with the groups of n rows whose keys (of the set)
// are cols, and records the carried keys of the groups new in them.
func (st *groupingState) assign(cols []*Col, n int, gids []int32) {
	if st.carried == nil {
		st.g.assign(cols, n, gids)
		return
	}
	st.hcols = st.hcols[:0]
	for _, j := range st.hashed {
		st.hcols = append(st.hcols, cols[j])
	}
	from := int32(st.g.n)
	st.g.assign(st.hcols, n, gids)
	added := int32(st.g.n) - from
	if added == 0 {
		return
	}
	st.first = st.first[:0]
	for range added {
		st.first = append(st.first, -1)
	}
	for i, g := range gids[:n] {
		if g >= from && st.first[g-from] < 0 {
			st.first[g-from] = int32(i)
		}
	}
	for _, i := range st.first {
		for c, j := range st.carried {
			st.carry[c].addRow(cols[j], int(i))
		}
	}
}

// keyCol is the column of the groups' values of the key at position j of
// the set.
func (st *groupingState) keyCol(j int) *Col {
	for h, x := range st.hashed {
		if x == j {
			return st.g.keys[h].c
		}
	}
	for c, x := range st.carried {
		if x == j {
			return st.carry[c].c
		}
	}
	return nil
}

func (n *aggNode) next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	n.done = true
	types := make([]Type, len(n.keys))
	for i, k := range n.keys {
		types[i] = withoutField(k.typ())
		if k.typ().Kind == KNested {
			types[i] = k.typ()
		}
	}
	if len(n.keys) == 0 && allCountStar(n.aggs) {
		// COUNT(*) only: count rows without touching them.
		var total int64
		for {
			b, err := n.in.next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			total += int64(b.N)
		}
		out := &Batch{N: 1}
		for range n.aggs {
			out.Cols = append(out.Cols, &Col{T: tInt, Len: 1, I: []int64{total}})
		}
		return out, nil
	}
	sets := n.sets
	if sets == nil {
		all := make([]int, len(n.keys))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	}
	// The first batch comes before the groupers are made: the joins below
	// have built their tables by then, and which keys determine the others
	// is known (groupdeps.go).
	first, err := n.in.next(ctx)
	if err != nil && err != io.EOF {
		return nil, err
	}
	var det []bool
	if err == nil && n.sets == nil {
		det = determinedKeys(n.in, n.keys)
		n.determined = det
	}
	states := make([]*groupingState, len(sets))
	for s, set := range sets {
		st := newGroupingState(set, types, det, len(n.aggs))
		for i, a := range n.aggs {
			if a.fn == "grouping" {
				st.accs[i] = &groupingAcc{v: groupingValue(a.grouping, set)}
				continue
			}
			st.accs[i] = newAccumulator(a)
		}
		states[s] = st
	}
	if groups, denseHi := groupsHint(n.in, n.keys); groups > 0 && len(states) == 1 {
		states[0].g.reserve(groups, denseHi)
		for _, a := range states[0].accs {
			if r, ok := a.(reserver); ok {
				r.reserve(groups)
			}
		}
	}
	var gids []int32
	keyCols := make([]*Col, len(n.keys))
	var setCols []*Col
	recycles := n.recycles(states)
	for b := first; err != io.EOF; b, err = n.in.next(ctx) {
		if err != nil {
			return nil, err
		}
		in := b // ordered aggregates read the input batch itself
		if !n.evaluated {
			if in, err = n.inputs(b); err != nil {
				return nil, err
			}
		}
		nk, na := len(n.keys), len(n.aggs)
		copy(keyCols, in.Cols[:nk])
		args, args2 := in.Cols[nk:nk+na], in.Cols[nk+na:]
		if cap(gids) < b.N {
			gids = make([]int32, b.N)
		}
		gids = gids[:b.N]
		for _, st := range states {
			setCols = setCols[:0]
			for _, k := range st.set {
				setCols = append(setCols, keyCols[k])
			}
			st.assign(setCols, b.N, gids)
			for i, a := range n.aggs {
				if o, ok := st.accs[i].(*orderedAcc); ok {
					if err := o.add(b, a.order, gids, args[i], args2[i]); err != nil {
						return nil, err
					}
					continue
				}
				if args2[i] != nil {
					st.accs[i].(pairAccumulator).update2(gids, st.g.n, args[i], args2[i])
					continue
				}
				st.accs[i].update(gids, st.g.n, args[i])
			}
		}
		// Arithmetic results that only these aggregates read go back to
		// the pool (a column read by two grouping sets is released after
		// both).
		for i, a := range args {
			if a != nil && a.scratch && copiesValues(states[0].accs[i]) && (args2[i] == nil || args2[i] != a) {
				release(a)
			}
		}
		if recycles && in.recycle != nil {
			in.recycle()
		}
	}
	var out *Batch
	for _, st := range states {
		b, err := n.setResult(st, types)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = b
			continue
		}
		for i := range out.Cols {
			appendCol(out.Cols[i], b.Cols[i])
		}
		out.N += b.N
	}
	if out.N == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// setResult is the output of one grouping set: the keys (NULL where the
// set does not group by them) and the aggregates.
func (n *aggNode) setResult(st *groupingState, types []Type) (*Batch, error) {
	ng := st.g.n
	if len(st.set) == 0 && ng == 0 {
		ng = 1 // an aggregate without GROUP BY (or the empty set) has one row
	}
	out := &Batch{N: ng}
	for i, t := range types {
		c := nullCol(t, ng)
		for j, k := range st.set {
			if k == i {
				c = st.keyCol(j)
				c.Len = ng
				if c.T.Kind == KNull {
					c = nullCol(t, ng)
				}
			}
		}
		out.Cols = append(out.Cols, c)
	}
	for i, a := range st.accs {
		if err := accError(a); err != nil {
			return nil, errorf("%s: %s", n.aggs[i].text, err)
		}
		out.Cols = append(out.Cols, a.result(ng))
	}
	return out, nil
}

func (n *aggNode) close() { n.in.close() }

func (n *aggNode) explain(x *explainer, depth int) {
	var aggs []string
	for _, a := range n.aggs {
		aggs = append(aggs, a.text)
	}
	switch {
	case n.sets != nil:
		x.line(depth, "HASH AGGREGATE group by: %s in %d grouping sets aggregates: %s", exprList(n.keys), len(n.sets), strings.Join(aggs, ", "))
	case len(n.keys) > 0:
		x.line(depth, "HASH AGGREGATE group by: %s aggregates: %s", exprList(n.keys), strings.Join(aggs, ", "))
		var follow []expr
		for i, d := range n.determined {
			if d {
				follow = append(follow, n.keys[i])
			}
		}
		if len(follow) > 0 {
			x.line(depth+1, "keys that the others determine through unique join keys: %s", exprList(follow))
		}
	default:
		x.line(depth, "AGGREGATE %s", strings.Join(aggs, ", "))
	}
	n.in.explain(x, depth+1)
}

// decSum is an exact running sum of decimals at one scale: a 128-bit
// integer of unscaled units while it fits, carried into a big integer
// past that.
type decSum struct {
	small num.Int128
	big   *big.Int
}

// addUnscaled adds x units of the sum's scale.
func (s *decSum) addUnscaled(x int64) {
	s.addHuge(num.FromInt64(x))
}

// addHuge adds x units of the sum's scale.
func (s *decSum) addHuge(x num.Int128) {
	if t, ok := s.small.Add(x); ok {
		s.small = t
		return
	}
	s.carry(s.small.Big())
	s.small = x
}

// addDecimal adds d, rescaled to scale.
func (s *decSum) addDecimal(d value.Decimal, scale int) {
	if u, ok := decimalToInt64(d, scale); ok {
		s.addUnscaled(u)
		return
	}
	s.carry(ratDecimal(decRat(d), scale).Unscaled)
}

func (s *decSum) carry(u *big.Int) {
	if s.big == nil {
		s.big = new(big.Int)
	}
	s.big.Add(s.big, u)
}

// value is the sum as a decimal of the given scale.
func (s *decSum) value(scale int) value.Decimal {
	u := s.small.Big()
	if s.big != nil {
		u.Add(u, s.big)
	}
	return value.Decimal{Unscaled: u, Scale: int32(scale)}
}

// sumDecAcc sums decimals exactly, per group, as decSum does: 128-bit
// sums, with what overflows them kept apart in big integers (rare), so
// that the per-group slice holds no pointers for the collector to scan.
type sumDecAcc struct {
	t    Type
	sum  []num.Int128
	over map[int32]*big.Int
	seen []bool
	// wide: some value came as more than an int64, so a sum may near the
	// 128-bit limit and every addition is checked.
	wide bool
	part []int64 // per-batch partial sums (laneSums)
}

// addInts adds int64 unscaled values to their groups' sums without an
// overflow check: while only int64s are added, a sum needs more than 2^64
// additions to leave 128 bits. Without nulls the additions go through the
// kernels of aggkernels.go.
func (a *sumDecAcc) addInts(gids []int32, ng int, c *Col) {
	x := c.I[:len(gids)]
	switch {
	case c.Null != nil:
		for i, g := range gids {
			if !c.Null[i] {
				a.addInt(g, x[i])
			}
		}
	case ng == 1:
		if len(gids) > 0 {
			a.sum[0], _ = a.sum[0].Add(sum128(x)) // sums of int64s: no overflow, as above
			a.seen[0] = true
		}
	default:
		if fewGroups(ng, len(gids)) {
			var ok bool
			if a.part, ok = laneSums(a.part, a.seen, gids, x, ng); ok {
				for g, v := range a.part {
					a.sum[g] = a.sum[g].AddInt64(v)
				}
				return
			}
		}
		for i, g := range gids {
			a.addInt(g, x[i])
		}
	}
}

// addInt adds v to group g's sum and marks the group seen.
func (a *sumDecAcc) addInt(g int32, v int64) {
	a.sum[g] = a.sum[g].AddInt64(v)
	a.seen[g] = true
}

func (a *sumDecAcc) update(gids []int32, ng int, c *Col) {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	if c.I != nil && c.Dict == nil && !a.wide {
		a.addInts(gids, ng, c)
		return
	}
	a.wide = true
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		a.seen[g] = true
		switch {
		case c.I != nil:
			a.addHuge(g, num.FromInt64(c.I[i]))
		case c.H != nil && c.T.Scale == a.t.Scale:
			a.addHuge(g, c.H[i])
		default:
			d := c.decimal(i)
			if u, ok := decimalToInt64(d, a.t.Scale); ok {
				a.addHuge(g, num.FromInt64(u))
			} else {
				a.carry(g, ratDecimal(decRat(d), a.t.Scale).Unscaled)
			}
		}
	}
}

// addHuge adds x units of the sum's scale to group g.
func (a *sumDecAcc) addHuge(g int32, x num.Int128) {
	if t, ok := a.sum[g].Add(x); ok {
		a.sum[g] = t
		return
	}
	a.carry(g, a.sum[g].Big())
	a.sum[g] = x
}

// carry adds u to group g's overflow.
func (a *sumDecAcc) carry(g int32, u *big.Int) {
	if a.over == nil {
		a.over = map[int32]*big.Int{}
	}
	b := a.over[g]
	if b == nil {
		b = new(big.Int)
		a.over[g] = b
	}
	b.Add(b, u)
}

// wideSum is group g's sum when part of it was kept apart in a big
// integer (wide is false otherwise): a sum past 128 bits, which the
// result column cannot hold but an average of it may still be.
func (a *sumDecAcc) wideSum(g int32) (d value.Decimal, wide bool) {
	o := a.over[g]
	if o == nil {
		return value.Decimal{}, false
	}
	return value.Decimal{Unscaled: new(big.Int).Add(a.sum[g].Big(), o), Scale: int32(a.t.Scale)}, true
}

// hugeOverflow is DuckDB's error for a HUGEINT sum past 128 bits (only
// a group with an overflow kept apart can be one); nil otherwise.
func (a *sumDecAcc) hugeOverflow() error {
	if !a.t.Huge {
		return nil
	}
	for g := range a.over {
		if d, _ := a.wideSum(g); !a.t.fitsBig(d.Unscaled) {
			return errorf("Overflow in HUGEINT addition: the sum %s leaves INT128", d.Unscaled)
		}
	}
	return nil
}

func (a *sumDecAcc) result(ng int) *Col {
	a.sum = growTo(a.sum, ng)
	a.seen = growTo(a.seen, ng)
	if storage(a.t) == stHuge {
		// The common case: every sum fits 128 bits, no big integers.
		c := &Col{T: a.t, Len: ng, H: make([]num.Int128, ng)}
		fits := true
		for g := 0; g < ng && fits; g++ {
			switch {
			case !a.seen[g]:
				c.setNull(g)
			case a.over[int32(g)] != nil || !a.t.fits(a.sum[g]):
				fits = false
			default:
				c.H[g] = a.sum[g]
			}
		}
		if fits {
			return c
		}
	}
	b := newBuilder(a.t, ng)
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			b.add(nil)
			continue
		}
		u := a.sum[g].Big()
		if o := a.over[int32(g)]; o != nil {
			u.Add(u, o)
		}
		b.add(value.Decimal{Unscaled: u, Scale: int32(a.t.Scale)})
	}
	return b.c
}

// avgExactAcc is AVG of integers or decimals: an exact sum (carried into
// big integers past int64) and a count, divided once at the end.
type avgExactAcc struct {
	sum  sumDecAcc
	n    []int64
	part []int64 // per-batch partial counts (countRows)
}

func (a *avgExactAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	if c.Null == nil {
		a.part = countRows(a.n, a.part, gids, ng)
	} else {
		for i, g := range gids {
			if !c.Null[i] {
				a.n[g]++
			}
		}
	}
	a.sum.update(gids, ng, c)
}

func (a *avgExactAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	sums := a.sum.result(ng)
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		if a.n[g] == 0 || sums.isNull(g) {
			c.setNull(g)
			continue
		}
		d, wide := a.sum.wideSum(int32(g))
		if !wide {
			if f, ok := exactQuotient(sums, g, a.n[g]); ok {
				c.F[g] = f
				continue
			}
			d = sums.decimal(g)
		}
		q := new(big.Rat).Quo(decRat(d), new(big.Rat).SetInt64(a.n[g]))
		c.F[g], _ = q.Float64()
	}
	return c
}

// exactQuotient is sum g / n as the nearest float64, when the unscaled
// sum and n * 10^scale are integers below 2^53: both convert exactly and
// IEEE division rounds the quotient once, as big.Rat would.
func exactQuotient(sums *Col, g int, n int64) (float64, bool) {
	const limit = 1 << 53
	var u int64
	switch {
	case sums.H != nil:
		h := sums.H[g]
		if h.Hi != int64(h.Lo)>>63 {
			return 0, false
		}
		u = int64(h.Lo)
	case sums.I != nil:
		u = sums.I[g]
	default:
		return 0, false
	}
	scale := sums.T.Scale
	if u <= -limit || u >= limit || scale >= len(pow10) || n <= 0 || n >= limit/pow10[scale] {
		return 0, false
	}
	return float64(u) / float64(n*pow10[scale]), true
}

// accError is the error an accumulator met in its values, also under
// DISTINCT: an integer SUM that left int64, the logarithm of a value of
// geomean that is not positive.
func accError(a accumulator) error {
	switch x := a.(type) {
	case *sumIntAcc:
		if x.overflow {
			return errorf("integer overflow")
		}
	case *shapeAcc:
		return x.err
	case *sumDecAcc:
		return x.hugeOverflow()
	case *bitStringAcc:
		return x.err
	case *distinctAcc:
		return accError(x.inner)
	case *orderedAcc:
		return accError(x.inner)
	}
	return nil
}

// pairAccumulator is an accumulator of two arguments (arg, arg2).
type pairAccumulator interface {
	accumulator
	update2(gids []int32, ng int, c, k *Col)
}

// pairStats are the aggregates of (y, x) pairs that pairAcc computes.
var pairStats = map[string]bool{
	"corr": true, "covar_pop": true, "covar_samp": true, "regr_slope": true, "regr_intercept": true, "regr_r2": true,
	"regr_count": true, "regr_avgx": true, "regr_avgy": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
}

// pairAcc keeps, per group, the count, means and co-moments of the (y, x)
// pairs where neither is NULL (Welford's updates, stable for large means).
type pairAcc struct {
	fn                    string
	n                     []int64
	mx, my, sxx, syy, sxy []float64
}

func (a *pairAcc) update(gids []int32, ng int, c *Col) {
	panic("pairAcc: update2 takes both arguments")
}

func (a *pairAcc) grow(ng int) {
	a.n = growTo(a.n, ng)
	a.mx, a.my = growTo(a.mx, ng), growTo(a.my, ng)
	a.sxx, a.syy, a.sxy = growTo(a.sxx, ng), growTo(a.syy, ng), growTo(a.sxy, ng)
}

func (a *pairAcc) update2(gids []int32, ng int, yc, xc *Col) {
	a.grow(ng)
	for i, g := range gids {
		if yc.isNull(i) || xc.isNull(i) {
			continue
		}
		x, y := xc.F[i], yc.F[i]
		a.n[g]++
		n := float64(a.n[g])
		dx, dy := x-a.mx[g], y-a.my[g]
		a.mx[g] += dx / n
		a.my[g] += dy / n
		a.sxx[g] += dx * (x - a.mx[g])
		a.syy[g] += dy * (y - a.my[g])
		a.sxy[g] += dx * (y - a.my[g])
	}
}

func (a *pairAcc) result(ng int) *Col {
	a.grow(ng)
	if a.fn == "regr_count" {
		return &Col{T: tInt, Len: ng, I: append([]int64(nil), a.n[:ng]...)}
	}
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		sxx, syy, sxy := a.sxx[g], a.syy[g], a.sxy[g]
		v, ok := 0.0, a.n[g] > 0
		switch a.fn {
		case "covar_pop":
			v = sxy / n
		case "covar_samp":
			v, ok = sxy/(n-1), a.n[g] > 1
		case "corr": // NaN without variance, as DuckDB
			v = sxy / math.Sqrt(sxx*syy)
		case "regr_slope": // NaN without variance of x, as DuckDB
			v = sxy / sxx
		case "regr_intercept":
			v, ok = a.my[g]-sxy/sxx*a.mx[g], ok && sxx != 0
		case "regr_r2":
			switch {
			case !ok || sxx == 0:
				ok = false
			case syy == 0:
				v = 1
			default:
				v = sxy * sxy / (sxx * syy)
			}
		case "regr_avgx":
			v = a.mx[g]
		case "regr_avgy":
			v = a.my[g]
		case "regr_sxx":
			v = sxx
		case "regr_syy":
			v = syy
		case "regr_sxy":
			v = sxy
		}
		if ok {
			c.F[g] = v
		} else {
			c.setNull(g)
		}
	}
	return c
}

// bitAcc is bit_and, bit_or or bit_xor of integers.
type bitAcc struct {
	fn   string
	t    Type
	v    []int64
	seen []bool
}

func (a *bitAcc) update(gids []int32, ng int, c *Col) {
	a.v, a.seen = growTo(a.v, ng), growTo(a.seen, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		x := c.I[i]
		switch {
		case !a.seen[g]:
			a.v[g] = x
		case a.fn == "bit_and":
			a.v[g] &= x
		case a.fn == "bit_or":
			a.v[g] |= x
		default:
			a.v[g] ^= x
		}
		a.seen[g] = true
	}
}

func (a *bitAcc) result(ng int) *Col {
	a.v, a.seen = growTo(a.v, ng), growTo(a.seen, ng)
	c := &Col{T: a.t, Len: ng, I: append([]int64(nil), a.v[:ng]...)}
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			c.setNull(g)
		}
	}
	return c
}

// listAcc is list (array_agg): every value of the group, NULLs included, in
// input order; NULL for a group without rows.
type listAcc struct {
	t    Type
	vals [][]any
	seen []bool
}

func (a *listAcc) update(gids []int32, ng int, c *Col) {
	a.vals, a.seen = growTo(a.vals, ng), growTo(a.seen, ng)
	for i, g := range gids {
		// Elements as nested values read from files hold them (time.Time
		// for dates and times, strings for decimals).
		a.vals[g] = append(a.vals[g], toGo(*a.t.Elem, c.get(i)))
		a.seen[g] = true
	}
}

func (a *listAcc) result(ng int) *Col {
	a.vals, a.seen = growTo(a.vals, ng), growTo(a.seen, ng)
	b := newBuilder(a.t, ng)
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			b.add(nil)
			continue
		}
		b.add(a.vals[g])
	}
	return b.c
}

// shapeAcc computes the float aggregates of per-group sums: product,
// geomean (the exponential of the mean logarithm), and from the sums of
// x, x², x³ and x⁴ the sample skewness and the excess kurtosis, sample
// (bias-corrected, kurtosis) or population (kurtosis_pop), as DuckDB
// defines them; a group too small has none (NULL), nor has the kurtosis
// of equal values.
type shapeAcc struct {
	fn  string
	n   []int64
	sum [4][]float64
	err error
}

func (a *shapeAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = growTo(a.sum[k], ng)
	}
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		x := c.F[i]
		switch a.fn {
		case "product":
			if a.n[g] == 0 {
				a.sum[0][g] = 1
			}
			a.sum[0][g] *= x
		case "geomean":
			if x <= 0 && a.err == nil {
				a.err = errorf("cannot take the logarithm of %g", x)
			}
			a.sum[0][g] += math.Log(x)
		default:
			x2 := x * x
			a.sum[0][g] += x
			a.sum[1][g] += x2
			a.sum[2][g] += x2 * x
			a.sum[3][g] += x2 * x2
		}
		a.n[g]++
	}
}

func (a *shapeAcc) result(ng int) *Col {
	a.n = growTo(a.n, ng)
	for k := range a.sum {
		a.sum[k] = growTo(a.sum[k], ng)
	}
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		v, ok := a.value(g)
		if !ok {
			c.setNull(g)
			continue
		}
		c.F[g] = v
	}
	return c
}

func (a *shapeAcc) value(g int) (float64, bool) {
	n := float64(a.n[g])
	switch a.fn {
	case "product":
		return a.sum[0][g], a.n[g] > 0
	case "geomean":
		return math.Exp(a.sum[0][g] / n), a.n[g] > 0
	}
	// Central moments from the power sums.
	mean := a.sum[0][g] / n
	m2 := a.sum[1][g]/n - mean*mean
	m3 := a.sum[2][g]/n - 3*mean*a.sum[1][g]/n + 2*mean*mean*mean
	m4 := a.sum[3][g]/n - 4*mean*a.sum[2][g]/n + 6*mean*mean*a.sum[1][g]/n - 3*mean*mean*mean*mean
	switch a.fn {
	case "skewness":
		if a.n[g] < 3 {
			return 0, false
		}
		// Equal values give 0/0: NaN, as in DuckDB (kurtosis is NULL).
		return math.Sqrt(n*(n-1)) / (n - 2) * m3 / math.Pow(m2, 1.5), true
	case "kurtosis":
		if a.n[g] < 4 || m2 <= 0 {
			return 0, false
		}
		return (n - 1) * ((n+1)*m4/(m2*m2) - 3*(n-1)) / ((n - 2) * (n - 3)), true
	default: // kurtosis_pop
		if a.n[g] < 1 || m2 <= 0 {
			return 0, false
		}
		return m4/(m2*m2) - 3, true
	}
}

// lastAcc keeps each group's last value in input order, NULL included
// (first's counterpart; order-dependent without ORDER BY).
type lastAcc struct {
	t    Type
	vals []any
}

func (a *lastAcc) update(gids []int32, ng int, c *Col) {
	a.vals = growTo(a.vals, ng)
	for i, g := range gids {
		a.vals[g] = c.get(i)
	}
}

func (a *lastAcc) result(ng int) *Col {
	a.vals = growTo(a.vals, ng)
	return valuesCol(a.t, a.vals[:ng])
}

// entropyAcc is the Shannon entropy, in bits, of each group's distribution
// of non-NULL values.
type entropyAcc struct {
	t      Type
	counts []map[string]int64
	n      []int64
	buf    []byte
}

func (a *entropyAcc) update(gids []int32, ng int, c *Col) {
	a.counts = growTo(a.counts, ng)
	a.n = growTo(a.n, ng)
	for i, g := range gids {
		if c.isNull(i) {
			continue
		}
		if a.counts[g] == nil {
			a.counts[g] = map[string]int64{}
		}
		a.buf = appendKey(a.buf[:0], c, i)
		a.counts[g][string(a.buf)]++
		a.n[g]++
	}
}

func (a *entropyAcc) result(ng int) *Col {
	a.counts = growTo(a.counts, ng)
	a.n = growTo(a.n, ng)
	c := &Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		h := 0.0
		for _, k := range a.counts[g] {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
		c.F[g] = h
	}
	return c
}

// exprTypes lists the expressions' types.
func exprTypes(es []expr) []Type {
	out := make([]Type, len(es))
	for i, e := range es {
		out[i] = e.typ()
	}
	return out
}

// Reserving room for the groups an aggregation will have. Growing a
// group-indexed slice by doubling copies it and touches fresh memory at
// every step; an aggregation of a whole table by a key whose footer range
// says how many groups it has (TPC-H Q18's 1.5M orders of lineitem)
// allocates its grouper's and accumulators' slices once instead.

// reserver is an accumulator that can make room for n groups.
type reserver interface{ reserve(n int) }

func (a *countAcc) reserve(n int)        { a.n = make([]int64, 0, n) }
func (a *sumIntAcc) reserve(n int)       { a.sum, a.seen = make([]int64, 0, n), make([]bool, 0, n) }
func (a *sumFloatAcc) reserve(n int)     { a.sum, a.seen = make([]float64, 0, n), make([]bool, 0, n) }
func (a *extremeIntAcc) reserve(n int)   { a.v, a.seen = make([]int64, 0, n), make([]bool, 0, n) }
func (a *extremeFloatAcc) reserve(n int) { a.v, a.seen = make([]float64, 0, n), make([]bool, 0, n) }
func (a *sumDecAcc) reserve(n int)       { a.sum, a.seen = make([]num.Int128, 0, n), make([]bool, 0, n) }
func (a *avgExactAcc) reserve(n int)     { a.sum.reserve(n); a.n = make([]int64, 0, n) }

// reserve makes room for n groups of a single integer key whose values
// lie in [0, denseHi] (denseHi < 0: not known to).
func (g *grouper) reserve(n int, denseHi int64) {
	if g.n != 0 {
		return
	}
	for j, t := range g.keyTypes {
		g.keys[j] = newBuilder(t, n)
	}
	if g.ints != nil && denseHi >= 0 {
		g.dense = make([]int32, denseHi+1)
	}
}

// groupsHint estimates the groups of an aggregation of a whole table by
// one integer column, from the footers: at most the rows, and at most the
// width of the column's range (denseHi is the range's top when the values
// are small non-negative integers, else -1). 0 when not known or small.
func groupsHint(in node, keys []expr) (groups int, denseHi int64) {
	if len(keys) != 1 || !wholeTable(in) {
		return 0, -1
	}
	k, ok := keys[0].(*colExpr)
	if !ok || k.col == nil || k.col.rel == nil || k.col.rel.table == nil || k.col.t.Kind != KInt {
		return 0, -1
	}
	rows, err := k.col.rel.table.NumRows()
	lo, hi, ok := footerRange(k.col)
	if err != nil || !ok || rows <= 0 {
		return 0, -1
	}
	est := min(float64(rows), hi-lo+1)
	if est < 1<<16 || est > 1<<26 {
		return 0, -1
	}
	denseHi = -1
	if lo >= 0 && hi < 1<<26 && hi < 8*est {
		denseHi = int64(hi)
	}
	return int(est), denseHi
}

package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"math"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"

	"github.com/xwb1989/sqlparser"
)

// bindAggregate binds an aggregate call above a GROUP BY: its name is
// resolved in function's registry of aggregates, whose entry types the
// call (its rule) and makes its accumulator; the binder binds the
// arguments and takes the constant ones (separator, fractions, k, bins)
// off the call.
func (p *Planner) bindAggregate(n sqlparser.Expr, agg *aggCtx) (Expr, error) {
	text := sqlparser.String(n)
	for i, a := range agg.aggs {
		if a.Text == text {
			return &ColExpr{S: agg.slots[len(agg.keys)+i], T: a.T}, nil
		}
	}
	spec := &aggSpec{Text: text}
	var args []sqlparser.SelectExpr
	switch x := n.(type) {
	case *sqlparser.FuncExpr:
		spec.Fn = x.Name.Lowered()
		if spec.Fn == "grouping" || spec.Fn == "grouping_id" {
			if err := p.bindGrouping(x, spec, agg); err != nil {
				return nil, err
			}
			return agg.add(spec), nil
		}
		spec.Distinct = x.Distinct
		args = x.Exprs
	case *sqlparser.GroupConcatExpr:
		spec.Fn = "string_agg"
		spec.Distinct = x.Distinct != ""
		spec.Sep = ","
		if x.Separator != "" {
			spec.Sep = x.Separator
		}
		if len(x.OrderBy) > 0 {
			return nil, unsupported("ORDER BY inside GROUP_CONCAT")
		}
		args = x.Exprs
	}
	median := false
	switch spec.Fn {
	case "approx_count_distinct":
		spec.Fn, spec.Distinct = "count", true // exact is a fine approximation
	case "median":
		spec.Fn, spec.Q, median = "quantile_cont", 0.5, true
	}
	fn, def := function.LookupAggregate(spec.Fn)
	spec.Fn = fn
	bound, err := p.bindAggArgs(spec, args, agg)
	if err != nil {
		return nil, err
	}
	if bound, err = p.bindConstArgs(spec, bound, median); err != nil {
		return nil, err
	}
	if def != nil && def.Pair {
		return p.bindPairStat(spec, bound, def, agg)
	}
	if len(bound) > 1 {
		return nil, errorf("%s takes one argument", spec.Fn)
	}
	var arg Expr
	at := Type{}
	if len(bound) == 1 {
		arg = bound[0]
		at = arg.Type()
	}
	avgInterval := spec.Fn == "avg" && at.Kind == KInterval // its result turns back into one
	if avgInterval {
		// The mean of the microseconds, back as an INTERVAL (below).
		arg, at = asBigint(arg), TInt
	}
	if def == nil {
		return nil, unsupported("the aggregate function " + spec.Fn)
	}
	if spec.Arg2 != nil {
		spec.Arg2T = spec.Arg2.Type()
	}
	cast, err := def.Rule(&spec.AggCall, at)
	if err != nil {
		return nil, err
	}
	if cast != nil {
		if def.Coerce {
			arg, err = p.coerce(arg, *cast)
		} else {
			arg, err = p.cast(arg, *cast)
		}
		if err != nil {
			return nil, err
		}
	}
	if arg != nil {
		spec.Arg = arg
	}
	if spec.Distinct && !def.Distinct {
		return nil, unsupported(strings.ToUpper(spec.Fn) + "(DISTINCT ...)")
	}
	out := agg.add(spec)
	if avgInterval {
		return microsInterval(out, text), nil
	}
	return out, nil
}

// add appends an aggregate to the context: the column of its result.
func (a *aggCtx) add(spec *aggSpec) *ColExpr {
	a.aggs = append(a.aggs, spec)
	s := &Slot{}
	a.slots = append(a.slots, s)
	return &ColExpr{S: s, T: spec.T}
}

// bindAggArgs binds an aggregate's arguments and its ORDER BY; count()
// becomes count(*).
func (p *Planner) bindAggArgs(spec *aggSpec, args []sqlparser.SelectExpr, agg *aggCtx) ([]Expr, error) {
	args, orderArgs := splitAggOrder(args)
	var bound []Expr
	for _, a := range args {
		switch ae := a.(type) {
		case *sqlparser.StarExpr:
			if spec.Fn != "count" {
				return nil, errorf("%s(*) is not allowed", spec.Fn)
			}
		case *sqlparser.AliasedExpr:
			if ContainsAggregate(ae.Expr) {
				return nil, errorf("aggregate function calls cannot be nested: %s", spec.Text)
			}
			e, err := p.BindExpr(ae.Expr, agg.inScope, nil)
			if err != nil {
				return nil, err
			}
			bound = append(bound, e)
		}
	}
	if err := p.bindAggOrder(spec, orderArgs, agg); err != nil {
		return nil, err
	}
	switch {
	case spec.Fn == "count" && len(bound) == 0:
		spec.Fn = "count_star"
		if spec.Distinct {
			return nil, errorf("COUNT(DISTINCT *) is not allowed")
		}
	case spec.Fn == "count_star": // DuckDB's name of count(*)
		if len(bound) > 0 || spec.Distinct {
			return nil, errorf("count_star takes no arguments")
		}
	case len(bound) == 0:
		return nil, errorf("%s needs an argument", spec.Fn)
	}
	return bound, nil
}

// bindConstArgs takes the constant arguments off an aggregate's bound
// ones: string_agg's separator, the fractions of a quantile, the value
// arg_max orders by, approx_top_k's k, histogram's bins, bitstring_agg's
// range.
func (p *Planner) bindConstArgs(spec *aggSpec, bound []Expr, median bool) ([]Expr, error) {
	if spec.Fn == "string_agg" && len(bound) == 2 {
		k, ok := IsConst(bound[1])
		if !ok || k.T.Op() != KString {
			return nil, errorf("the separator of string_agg must be a constant string")
		}
		spec.Sep = k.V.(string)
		bound = bound[:1]
	} else if spec.Fn == "string_agg" && spec.Sep == "" && len(bound) == 1 {
		spec.Sep = ","
	}
	if spec.Fn == "quantile_cont" || spec.Fn == "quantile_disc" {
		if n := len(bound); n == 3 {
			if k, ok := IsConst(bound[2]); ok && k.V == parse.DescMarker {
				spec.QDesc, bound = true, bound[:2]
			}
		}
		switch {
		case len(bound) == 2:
			if qs, ok := quantileFractions(bound[1]); ok {
				spec.Qs, bound = qs, bound[:1]
				break
			}
			q, ok := quantileFraction(bound[1])
			if !ok {
				return nil, errorf("the fraction of %s must be a constant between 0 and 1, or a list of them", spec.Fn)
			}
			spec.Q, bound = q, bound[:1]
		case len(bound) != 1 || !median:
			return nil, errorf("%s takes a value and a fraction", spec.Fn)
		}
	}
	if function.Keyed(spec.Fn) {
		if len(bound) != 2 {
			return nil, errorf("%s takes two arguments: the value returned and the value ordered by", spec.Fn)
		}
		spec.Arg2, bound = bound[1], bound[:1]
	}
	return p.bindCountingArgs(spec, bound)
}

// bindPairStat binds a statistic of (y, x) pairs: both DOUBLE.
func (p *Planner) bindPairStat(spec *aggSpec, bound []Expr, def *function.Aggregate, agg *aggCtx) (Expr, error) {
	if len(bound) != 2 {
		return nil, errorf("%s takes two arguments (y, x)", spec.Fn)
	}
	for _, b := range bound {
		if t := b.Type(); !t.IsNumeric() && t.Kind != KNull {
			return nil, errorf("%s of %s is not defined", spec.Fn, t.SQLName())
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
	spec.Arg, spec.Arg2 = y, x
	if _, err := def.Rule(&spec.AggCall, tFloat); err != nil {
		return nil, err
	}
	if spec.Distinct {
		return nil, unsupported(strings.ToUpper(spec.Fn) + "(DISTINCT ...)")
	}
	return agg.add(spec), nil
}

// asBigint reads an INTERVAL expression as its microseconds, a BIGINT (a
// month counting 30 days, see interval.flatMicros).
func asBigint(e Expr) Expr {
	f := &funcExpr{name: "micros", args: []Expr{e}, t: TInt, strict: true, row: func(a []*Col, i int) (any, error) {
		return a[0].Get(i).(Interval).FlatMicros(), nil
	}}
	f.setText(e.String())
	return f
}

// microsInterval turns a DOUBLE of microseconds into an INTERVAL of days
// and microseconds.
func microsInterval(e Expr, text string) Expr {
	f := &funcExpr{name: "interval", args: []Expr{e}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		return vec.SplitMicros(int64(math.Round(a[0].F[i]))), nil
	}}
	f.setText(text)
	return f
}

// quantileFraction is the constant fraction of a quantile, in [0, 1].
func quantileFraction(e Expr) (float64, bool) {
	k, ok := IsConst(e)
	if !ok {
		return 0, false
	}
	var q float64
	switch v := k.V.(type) {
	case float64:
		q = v
	case int64:
		q = float64(v)
		if k.T.Kind == KDecimal {
			q = function.DecFloat(v, k.T.Scale) // a short decimal's unscaled value
		}
	case value.Decimal:
		q, _ = decRat(v).Float64()
	default:
		return 0, false
	}
	return q, q >= 0 && q <= 1
}

// quantileFractions is a constant list of fractions in [0, 1].
func quantileFractions(e Expr) ([]float64, bool) {
	t := e.Type()
	if t.Kind != KNested || t.Elem == nil || !constantTree(e) {
		return nil, false
	}
	k, err := constantValue(e)
	if err != nil || k == nil || k.V == nil {
		return nil, false
	}
	vs, ok := k.V.([]any)
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
		q, ok := quantileFraction(&ConstExpr{V: v, T: *k.T.Elem})
		if !ok {
			return nil, false
		}
		qs[i] = q
	}
	return qs, true
}

// constantTree reports whether every leaf of e is a constant.
func constantTree(e Expr) bool {
	ch := children(e)
	if len(ch) == 0 {
		_, ok := IsConst(e)
		return ok
	}
	for _, c := range ch {
		if !constantTree(c) {
			return false
		}
	}
	return true
}

// exprTypes lists the expressions' types.
func exprTypes(es []Expr) []Type {
	out := make([]Type, len(es))
	for i, e := range es {
		out[i] = e.Type()
	}
	return out
}

// Reserving room for the groups an aggregation will have. Growing a
// group-indexed slice by doubling copies it and touches fresh memory at
// every step; an aggregation of a whole table by a key whose footer range
// says how many groups it has (TPC-H Q18's 1.5M orders of lineitem)
// allocates its grouper's and accumulators' slices once instead.

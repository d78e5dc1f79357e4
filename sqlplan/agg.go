package sqlplan

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
	bitRange *bitRange // bitstring_agg(x, min, max)
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
		if !ok || k.t.Op() != KString {
			return nil, errorf("the separator of string_agg must be a constant string")
		}
		spec.sep = k.v.(string)
		bound = bound[:1]
	} else if spec.fn == "string_agg" && spec.sep == "" && len(bound) == 1 {
		spec.sep = ","
	}
	if spec.fn == "quantile_cont" || spec.fn == "quantile_disc" {
		if n := len(bound); n == 3 {
			if k, ok := isConst(bound[2]); ok && k.v == parse.DescMarker {
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
			if t := b.Type(); !t.IsNumeric() && t.Kind != KNull {
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
		at = spec.arg.Type()
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
		case at.Op() == KInt || at.Kind == KBool:
			// HUGEINT, as DuckDB: a sum of integers never overflows
			// below 38 digits.
			if at.Kind == KBool {
				spec.arg, _ = p.cast(spec.arg, tInt)
			}
			spec.t = tHuge
		case at.Op() == KUint:
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
		case at.Op() == KString:
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
		if !at.IsNumeric() && at.Kind != KNull && at.Op() != KString {
			return nil, errorf("%s of %s is not defined", spec.fn, at.SQLName())
		}
		if spec.fn == "avg" && (at.Op() == KInt || at.Kind == KDecimal) {
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
		case at.IsNumeric() || at.Kind == KNull:
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
		if at.Kind == KNested || spec.arg2 != nil && spec.arg2.Type().Kind == KNested {
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
		if !at.IsNumeric() && at.Kind != KNull {
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
	case "bitstring_agg":
		spec.t = tBit
	case "bit_and", "bit_or", "bit_xor":
		if at.Op() != KInt && at.Kind != KNull && !at.Bit {
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
		return a[0].Get(i).(interval).FlatMicros(), nil
	}}
	f.setText(e.String())
	return f
}

// microsInterval turns a DOUBLE of microseconds into an INTERVAL of days
// and microseconds.
func microsInterval(e expr, text string) expr {
	f := &funcExpr{name: "interval", args: []expr{e}, t: Type{Kind: KInterval}, strict: true, row: func(a []*Col, i int) (any, error) {
		return vec.SplitMicros(int64(math.Round(a[0].F[i]))), nil
	}}
	f.setText(text)
	return f
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
			q = function.DecFloat(v, k.t.Scale) // a short decimal's unscaled value
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
	t := e.Type()
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

// exprTypes lists the expressions' types.
func exprTypes(es []expr) []Type {
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

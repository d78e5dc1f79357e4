package function

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Aggregate is an aggregate function of the library.
type Aggregate struct {
	// Rule types a call from the type of its (first) argument: it sets
	// the call's result type T (and ExactT), and says what the binder
	// casts the argument to (nil: nothing).
	Rule AggRule
	// New makes the accumulator of a typed call.
	New func(a *AggCall) Accumulator
	// Coerce: the argument is coerced to the rule's type as a condition
	// is (a BOOLEAN from an integer or text, an error from others), not
	// cast.
	Coerce bool
	// Distinct: agg(DISTINCT x) is defined.
	Distinct bool
	// Ordered: the result depends on the order of the input rows, so
	// agg(x ORDER BY ...) sorts them (for the others the ORDER BY is
	// dropped).
	Ordered bool
	// Pair: a statistic of (y, x) pairs, both cast to DOUBLE.
	Pair bool
	// Keyed: the call takes the value returned and the key it is ranked
	// by (arg_max); the binder binds the key as the call's Arg2.
	Keyed bool
}

// AggRule types an aggregate call whose argument has type at (KNull for
// a bare NULL, the zero Type for count(*)): it sets a.T and, for an
// exact average, a.ExactT, and returns the type the argument is cast to
// (nil: it stays as it is). An error says the call does not fit.
type AggRule func(a *AggCall, at vec.Type) (cast *vec.Type, err error)

var aggregates = map[string]*Aggregate{}

// aggAliases maps the other names of aggregates to their canonical one.
var aggAliases = map[string]string{
	"mean": "avg", "favg": "avg",
	"arbitrary": "first",
	"fsum":      "sum", "sumkahan": "sum", "kahan_sum": "sum",
	"geometric_mean": "geomean",
	"group_concat":   "string_agg", "listagg": "string_agg",
	"stddev": "stddev_samp", "variance": "var_samp",
	"countif":  "count_if",
	"every":    "bool_and",
	"quantile": "quantile_disc",
	// DuckDB's approximations, computed exactly (an exact answer is a
	// fine approximation, as approx_count_distinct's).
	"approx_quantile": "quantile_disc", "reservoir_quantile": "quantile_disc",
	"max_by": "arg_max", "argmax": "arg_max",
	"min_by": "arg_min", "argmin": "arg_min",
	"array_agg": "list",
	// DuckDB's sum without its overflow check, which it keeps for its
	// own plans; carquet's sum is exact (HUGEINT for integers) and never
	// overflows, so it is that sum.
	"sum_no_overflow": "sum",
}

// registerAggregates adds aggregate functions to the library; a name
// defined twice is a bug of the library.
func registerAggregates(m map[string]*Aggregate) {
	for name, f := range m {
		if _, dup := aggregates[name]; dup {
			panic("function: aggregate " + name + " is defined twice")
		}
		aggregates[name] = f
	}
}

// LookupAggregate resolves an aggregate's name (lower case) through its
// aliases: the canonical name and the function; nil when there is none
// of that name.
func LookupAggregate(name string) (string, *Aggregate) {
	if c, ok := aggAliases[name]; ok {
		name = c
	}
	return name, aggregates[name]
}

// boundForms are aggregates the binder makes of others: median
// (quantile_cont at 0.5), approx_count_distinct (an exact count of the
// distinct values, a fine approximation), GROUPING and grouping_id
// (constants of each grouping set).
var boundForms = []string{"median", "approx_count_distinct", "grouping", "grouping_id"}

// AggregateNames are the names an aggregate call may have: the
// library's aggregates (count_star() is DuckDB's name of count(*)),
// their aliases and the binder's own forms.
func AggregateNames() map[string]bool {
	names := map[string]bool{}
	for n := range aggregates {
		names[n] = true
	}
	for n := range aggAliases {
		names[n] = true
	}
	for _, n := range boundForms {
		names[n] = true
	}
	return names
}

// Ordered reports whether the aggregate named fn (canonical) depends on
// the order of its input.
func Ordered(fn string) bool {
	a := aggregates[fn]
	return a != nil && a.Ordered
}

// Keyed reports whether the aggregate named fn (canonical) ranks its
// values by a second argument, as arg_max does.
func Keyed(fn string) bool {
	a := aggregates[fn]
	return a != nil && a.Keyed
}

// valueType is the result type of an aggregate that returns one of its
// values (min, max, any_value, last): the argument's type, BIGINT for a
// bare NULL.
func valueType(at vec.Type) vec.Type {
	if at.Kind == vec.KNull {
		return tInt
	}
	return at.Plain()
}

// castTo is the cast of a rule.
func castTo(t vec.Type) *vec.Type { return &t }

// tUbigint is UBIGINT, the counts of histogram.
var tUbigint = vec.Type{Kind: vec.KUint}

func init() {
	registerAggregates(map[string]*Aggregate{
		"count_star": {Rule: fixed(tInt), New: func(*AggCall) Accumulator { return &countAcc{star: true} }},
		"count":      {Rule: fixed(tInt), New: func(*AggCall) Accumulator { return &countAcc{} }, Distinct: true},
		"count_if": {Rule: func(a *AggCall, at vec.Type) (*vec.Type, error) {
			a.T = tInt
			return castTo(tBool), nil
		}, Coerce: true, New: func(*AggCall) Accumulator { return &countAcc{ifTrue: true} }},
		"sum":         {Rule: sumRule, New: newSum, Distinct: true},
		"avg":         {Rule: momentRule, New: newMoment, Distinct: true},
		"stddev_samp": {Rule: momentRule, New: newMoment}, "stddev_pop": {Rule: momentRule, New: newMoment},
		"var_samp": {Rule: momentRule, New: newMoment}, "var_pop": {Rule: momentRule, New: newMoment},
		"sem":       {Rule: shapeRule, New: newMoment}, // numbers only, as DuckDB's
		"min":       {Rule: extremeRule, New: func(a *AggCall) Accumulator { return newExtreme(a, -1) }, Distinct: true},
		"max":       {Rule: extremeRule, New: func(a *AggCall) Accumulator { return newExtreme(a, 1) }, Distinct: true},
		"any_value": {Rule: extremeRule, New: func(a *AggCall) Accumulator { return &extremeAcc{t: a.T} }, Ordered: true},
		"last":      {Rule: extremeRule, New: newLast, Ordered: true},
		// first keeps a NULL first value, as DuckDB's; any_value skips NULLs.
		"first": {Rule: extremeRule, New: func(a *AggCall) Accumulator { return &firstAcc{lastAcc: lastAcc{t: a.T}} }, Ordered: true},
		"string_agg": {Rule: func(a *AggCall, at vec.Type) (*vec.Type, error) {
			a.T = tString
			return castTo(tString), nil
		}, New: func(a *AggCall) Accumulator { return &stringAggAcc{sep: a.Sep} }, Distinct: true, Ordered: true},
		"quantile_cont": {Rule: quantileContRule, New: newQuantile},
		"quantile_disc": {Rule: valuesRule, New: newQuantile},
		"mode":          {Rule: valuesRule, New: newMode, Ordered: true},
		"arg_max":       {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		"arg_min":       {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		// DuckDB's: a NULL argument is a value; and a NULL key ranks last.
		"arg_max_null":       {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		"arg_min_null":       {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		"arg_max_nulls_last": {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		"arg_min_nulls_last": {Rule: valuesRule, New: newArg, Ordered: true, Keyed: true},
		"bool_and":           {Rule: boolRule, Coerce: true, New: func(*AggCall) Accumulator { return &boolAcc{and: true} }},
		"bool_or":            {Rule: boolRule, Coerce: true, New: func(*AggCall) Accumulator { return &boolAcc{} }},
		"product":            {Rule: shapeRule, New: newShape}, "skewness": {Rule: shapeRule, New: newShape},
		"kurtosis": {Rule: shapeRule, New: newShape}, "kurtosis_pop": {Rule: shapeRule, New: newShape},
		"geomean": {Rule: shapeRule, New: newShape},
		"mad":     {Rule: shapeRule, New: func(*AggCall) Accumulator { return &madAcc{} }},
		"entropy": {Rule: func(a *AggCall, at vec.Type) (*vec.Type, error) {
			if at.Kind == vec.KNested {
				return nil, errorf("entropy of a nested value is not supported")
			}
			a.T = tFloat
			return nil, nil
		}, New: func(a *AggCall) Accumulator { return &entropyAcc{t: a.T} }},
		"list": {Rule: func(a *AggCall, at vec.Type) (*vec.Type, error) {
			elem := valueType(at)
			a.T = vec.Type{Kind: vec.KNested, Elem: &elem}
			return nil, nil
		}, New: func(a *AggCall) Accumulator { return &listAcc{t: a.T} }, Distinct: true, Ordered: true},
		"bitstring_agg": {Rule: fixed(TBit), New: func(a *AggCall) Accumulator { return &bitstringAggAcc{r: *a.BitRange} }},
		"bit_and":       {Rule: bitRule, New: newBitAgg}, "bit_or": {Rule: bitRule, New: newBitAgg}, "bit_xor": {Rule: bitRule, New: newBitAgg},
		"histogram":       {Rule: countingRule, New: newCounting, Distinct: true},
		"histogram_exact": {Rule: countingRule, New: newCounting, Distinct: true},
		"approx_top_k":    {Rule: countingRule, New: newCounting, Distinct: true},
	})
	pairs := map[string]*Aggregate{}
	for _, fn := range pairStats {
		t := tFloat
		if fn == "regr_count" {
			t = tInt
		}
		pairs[fn] = &Aggregate{Rule: fixed(t), Pair: true, New: func(a *AggCall) Accumulator { return &pairAcc{fn: a.Fn} }}
	}
	registerAggregates(pairs)
}

// pairStats are the aggregates of (y, x) pairs that pairAcc computes.
var pairStats = []string{
	"corr", "covar_pop", "covar_samp", "regr_slope", "regr_intercept", "regr_r2",
	"regr_count", "regr_avgx", "regr_avgy", "regr_sxx", "regr_syy", "regr_sxy",
}

// fixed is the rule of an aggregate of one result type whatever its
// argument, which stays as it is.
func fixed(t vec.Type) AggRule {
	return func(a *AggCall, _ vec.Type) (*vec.Type, error) {
		a.T = t
		return nil, nil
	}
}

// sumRule types sum as DuckDB does: HUGEINT for integers (a sum of them
// never overflows below 38 digits), DECIMAL(38, s) for decimals, DOUBLE
// for floats and text.
func sumRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	switch {
	case at.Op() == vec.KInt || at.Kind == vec.KBool:
		a.T = THuge
		if at.Kind == vec.KBool {
			return castTo(tInt), nil
		}
	case at.Op() == vec.KUint:
		a.T = THuge
		return castTo(vec.Type{Kind: vec.KDecimal, Prec: 20}), nil
	case at.Huge:
		a.T = THuge // as DuckDB; a sum past 128 bits is an error
	case at.Kind == vec.KUHuge:
		a.T = tFloat // a DOUBLE, as DuckDB
		return castTo(tFloat), nil
	case at.Kind == vec.KDecimal:
		// Exact, as DuckDB: DECIMAL(38, s) whatever the input width.
		a.T = vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: at.Scale}
	case at.Kind == vec.KFloat, at.Op() == vec.KString:
		a.T = tFloat
		return castTo(tFloat), nil
	case at.Kind == vec.KNull:
		a.T = tInt
	default:
		return nil, errorf("sum of %s is not defined", at.SQLName())
	}
	return nil, nil
}

func newSum(a *AggCall) Accumulator {
	switch a.T.Kind {
	case vec.KFloat:
		return &sumFloatAcc{}
	case vec.KDecimal:
		return &sumDecAcc{t: a.T}
	}
	return &sumIntAcc{t: a.T}
}

// momentRule types avg and the variances: DOUBLE. AVG of integers and
// decimals sums them exactly and divides once (a float running sum loses
// digits, and DuckDB's AVG of them does not).
func momentRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if !at.IsNumeric() && at.Kind != vec.KNull && at.Op() != vec.KString {
		return nil, errorf("%s of %s is not defined", a.Fn, at.SQLName())
	}
	a.T = tFloat
	if a.Fn == "avg" && (at.Op() == vec.KInt || at.Kind == vec.KDecimal) {
		st := vec.Type{Kind: vec.KDecimal, Prec: 38}
		if at.Kind == vec.KDecimal {
			st.Scale = at.Scale
		}
		a.ExactT = &st
		return nil, nil
	}
	return castTo(tFloat), nil
}

func newMoment(a *AggCall) Accumulator { return &momentAcc{fn: a.Fn} }

// newArg is the accumulator of arg_max, arg_min and their NULL-handling
// variants (named by suffix: _null, _nulls_last).
func newArg(a *AggCall) Accumulator {
	acc := &argAcc{t: a.T, kt: a.Arg2T, sign: 1}
	if strings.HasPrefix(a.Fn, "arg_min") {
		acc.sign = -1
	}
	acc.nullsLast = strings.HasSuffix(a.Fn, "_nulls_last")
	acc.keepNulls = acc.nullsLast || strings.HasSuffix(a.Fn, "_null")
	return acc
}

// extremeRule types min, max, any_value and last: the argument's type.
func extremeRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	a.T = valueType(at)
	return nil, nil
}

// quantileContRule types quantile_cont as DuckDB: DECIMAL stays DECIMAL,
// DATE and TIMESTAMP give a TIMESTAMP (interpolated in integers,
// truncated), other numbers a DOUBLE; a list of fractions a list.
func quantileContRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	var cast *vec.Type
	switch {
	case at.Kind == vec.KDecimal:
		a.T = at.Plain()
	case at.Kind == vec.KDate || at.Kind == vec.KTimestamp:
		a.T = vec.Type{Kind: vec.KTimestamp, TZ: at.TZ}
		cast = castTo(a.T)
	case at.IsNumeric() || at.Kind == vec.KNull:
		a.T = tFloat
		cast = castTo(tFloat)
	default:
		return nil, errorf("%s of %s is not defined", a.Fn, at.SQLName())
	}
	listOfQuantiles(a)
	return cast, nil
}

// valuesRule types quantile_disc, mode, arg_max and arg_min: the
// argument's type (a list of it for a list of fractions).
func valuesRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if at.Kind == vec.KNested || a.Arg2T.Kind == vec.KNested {
		return nil, errorf("%s of a nested value is not supported", a.Fn)
	}
	a.T = valueType(at)
	listOfQuantiles(a)
	return nil, nil
}

// listOfQuantiles makes a quantile's result type a list of it when the
// call asked for a list of fractions.
func listOfQuantiles(a *AggCall) {
	if a.Qs != nil {
		elem := a.T
		a.T = vec.Type{Kind: vec.KNested, Elem: &elem}
	}
}

// boolRule types bool_and and bool_or: as DuckDB, only a BOOLEAN (or a
// bare NULL); bool_or(0) or bool_or('true') is a binder error there, not
// a cast.
func boolRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if at.Kind != vec.KBool && at.Kind != vec.KNull {
		return nil, errorf("%s(%s) is not defined: %s takes a BOOLEAN", a.Fn, at.SQLName(), a.Fn)
	}
	a.T = tBool
	return castTo(tBool), nil
}

// shapeRule types product, skewness, kurtosis, geomean, mad and sem:
// numbers, as DOUBLE.
func shapeRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if !at.IsNumeric() && at.Kind != vec.KNull {
		return nil, errorf("%s of %s is not defined", a.Fn, at.SQLName())
	}
	a.T = tFloat
	return castTo(tFloat), nil
}

func newShape(a *AggCall) Accumulator { return &shapeAcc{fn: a.Fn} }

// bitRule types bit_and, bit_or and bit_xor: integers or BITs, the
// argument's type.
func bitRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if at.Op() != vec.KInt && at.Kind != vec.KNull && !at.Bit {
		return nil, errorf("%s of %s is not defined", a.Fn, at.SQLName())
	}
	a.T = at
	if at.Kind == vec.KNull {
		a.T = tInt
	}
	return nil, nil
}

// countingRule types histogram (a MAP of each value to its UBIGINT
// count) and approx_top_k (a LIST of values).
func countingRule(a *AggCall, at vec.Type) (*vec.Type, error) {
	if at.Kind == vec.KNested {
		return nil, errorf("%s of a nested value is not supported", a.Fn)
	}
	et := at.Plain()
	if at.Kind == vec.KNull {
		et = tInt
	}
	if a.Fn != "approx_top_k" {
		a.T = vec.MapType(et, tUbigint)
	} else {
		a.T = vec.Type{Kind: vec.KNested, Elem: &et}
	}
	return nil, nil
}

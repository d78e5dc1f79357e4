package function

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Aggregates: one accumulator per aggregate call, fed a batch at a time
// with each row's group id; typed, no value boxed per row where the
// type allows.

// Accumulator keeps the state of one aggregate for every group.
type Accumulator interface {
	// Update adds the rows of c, row i to group gids[i], the groups
	// numbering ng so far (c is nil for count(*)).
	Update(gids []int32, ng int, c *vec.Col)
	// Result is the aggregate of each of the ng groups.
	Result(ng int) *vec.Col
}

// PairAccumulator is an accumulator of two arguments (arg_max, the
// statistics of (y, x) pairs): the engine calls Update2, never Update.
type PairAccumulator interface {
	Accumulator
	Update2(gids []int32, ng int, c, k *vec.Col)
}

// Reserver is an accumulator that can make room for n groups ahead of
// time (an aggregation whose groups the footers bound).
type Reserver interface{ Reserve(n int) }

// AggCall is a bound aggregate call, as its accumulator needs it: the
// canonical name (aliases resolved), the result type, and the constant
// arguments the binder took off the call.
type AggCall struct {
	// Fn is the canonical name: count_star, count, sum, avg, min, ...
	Fn string
	// T is the result type.
	T vec.Type
	// Arg2T is the type of the second argument of arg_max/arg_min (the
	// value ordered by).
	Arg2T vec.Type
	// Q is the fraction of quantile_cont/quantile_disc (median: 0.5);
	// Qs the fractions when given as a list (the result is then a list).
	Q  float64
	Qs []float64
	// QDesc: the quantile is taken in descending order (WITHIN GROUP
	// (ORDER BY x DESC)).
	QDesc    bool
	Sep      string // string_agg's separator
	Distinct bool
	// ExactT is set for AVG of integers and decimals: the argument keeps
	// this type and is summed exactly; only the quotient is a DOUBLE.
	ExactT *vec.Type
	// Grouping lists the keys of GROUPING(...) (by index).
	Grouping []int
	K        int       // approx_top_k's k
	Bins     *HistBins // histogram(x, bins), histogram_exact
	BitRange *BitRange // bitstring_agg(x, min, max)
}

// NewAccumulator makes the accumulator of call a (GROUPING(...) aside,
// whose value depends on the grouping set: GroupingAcc).
func NewAccumulator(a *AggCall) Accumulator {
	if a.Distinct {
		inner := *a
		inner.Distinct = false
		return &distinctAcc{inner: NewAccumulator(&inner)}
	}
	if a.ExactT != nil {
		return &avgExactAcc{sum: sumDecAcc{t: *a.ExactT}}
	}
	if agg := aggregates[a.Fn]; agg != nil && agg.New != nil {
		return agg.New(a)
	}
	return &countAcc{}
}

// newExtreme is min's or max's accumulator (sign -1 or 1), typed when
// the values are integers, floats or bytes.
func newExtreme(a *AggCall, sign int) Accumulator {
	switch vec.Storage(a.T) {
	case vec.StInt:
		return &extremeIntAcc{sign: sign, t: a.T}
	case vec.StFloat:
		return &extremeFloatAcc{sign: sign}
	case vec.StBytes:
		return &extremeBytesAcc{sign: sign, t: a.T}
	}
	return &extremeAcc{sign: sign, t: a.T}
}

// newQuantile is quantile_cont's or quantile_disc's accumulator.
func newQuantile(a *AggCall) Accumulator {
	if a.Qs != nil {
		return &quantileAcc{t: *a.T.Elem, qs: a.Qs, cont: a.Fn == "quantile_cont", desc: a.QDesc}
	}
	return &quantileAcc{t: a.T, q: a.Q, cont: a.Fn == "quantile_cont", desc: a.QDesc}
}

// newMode is mode's accumulator: typed for values stored as integers.
func newMode(a *AggCall) Accumulator {
	if vec.Storage(a.T) == vec.StInt {
		return &modeIntAcc{t: a.T}
	}
	return &modeAcc{t: a.T}
}

// newBitAgg is bit_and's, bit_or's or bit_xor's accumulator, of integers
// or of BITs.
func newBitAgg(a *AggCall) Accumulator {
	if a.T.Bit {
		return &bitStringAcc{op: strings.ToUpper(strings.TrimPrefix(a.Fn, "bit_")), t: a.T}
	}
	return &bitAcc{fn: a.Fn, t: a.T}
}

// AccError is the error an accumulator met in its values, also under
// DISTINCT or ORDER BY: an integer SUM that left int64, the logarithm of
// a value of geomean that is not positive.
func AccError(a Accumulator) error {
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
	case *countingAcc:
		return x.overflowError()
	case *bitstringAggAcc:
		return x.err
	case *distinctAcc:
		return AccError(x.inner)
	case interface{ Inner() Accumulator }:
		return AccError(x.Inner())
	}
	return nil
}

// CallError is the error of the aggregate call text whose accumulator
// met err (AccError).
func CallError(text string, err error) error { return errorf("%s: %s", text, err) }

// CopiesValues reports whether an accumulator keeps nothing of the
// columns it is given (their numbers are added or compared into its own
// state), so that a scratch column can be released after Update.
func CopiesValues(a Accumulator) bool {
	switch a.(type) {
	case *countAcc, *sumIntAcc, *sumFloatAcc, *momentAcc, *extremeIntAcc, *extremeFloatAcc, *extremeBytesAcc, *sumDecAcc, *avgExactAcc:
		return true
	}
	return false
}

// GroupingAcc is GROUPING(...) for the rows of one grouping set: a
// constant, GroupingValue.
type GroupingAcc struct{ V int64 }

func (a *GroupingAcc) Update(gids []int32, ng int, c *vec.Col) {}

func (a *GroupingAcc) Result(ng int) *vec.Col {
	c := &vec.Col{T: tInt, Len: ng, I: make([]int64, ng)}
	for g := range c.I {
		c.I[g] = a.V
	}
	return c
}

// GroupingValue is GROUPING(keys...) for the rows of a grouping set: a bit
// per key, the first leftmost, 1 where the set does not group by it.
func GroupingValue(keys []int, set []int) int64 {
	var v int64
	for _, k := range keys {
		v <<= 1
		in := false
		for _, s := range set {
			in = in || s == k
		}
		if !in {
			v |= 1
		}
	}
	return v
}

package sqlplan

import (
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"slices"
	"sort"
)

// DuckDB's counting aggregates: histogram(x), a MAP from each distinct
// non-NULL value to its count (UBIGINT), and approx_top_k(x, k), the LIST
// of the k most frequent values, most frequent first. approx_top_k is
// exact here (DuckDB's is too on inputs as small as its sketch); equal
// counts keep the order in which the values first came. A group with no
// non-NULL value has NULL for either.

var tUbigint = Type{Kind: KUint}

// bindCountingArgs takes approx_top_k's k, or the bins of histogram(x,
// bins) and histogram_exact, off the bound arguments.
func (p *planner) bindCountingArgs(spec *aggSpec, bound []expr) ([]expr, error) {
	switch {
	case spec.fn == "histogram" && len(bound) == 2 || spec.fn == "histogram_exact":
		return p.bindHistogramBins(spec, bound)
	case spec.fn == "bitstring_agg":
		return p.bindBitstringAggArgs(spec, bound) // aggbitstring.go
	case spec.fn != "approx_top_k":
		return bound, nil
	}
	if len(bound) != 2 {
		return nil, errorf("approx_top_k takes a value and a count k")
	}
	k, ok := isConst(bound[1])
	if !ok {
		return nil, unsupported("approx_top_k with a k that is not a constant")
	}
	if k.v == nil {
		return nil, errorf("Invalid input for approx_top_k: k value cannot be NULL")
	}
	if k.t.Op() != KInt && k.t.Kind != KUint {
		return nil, errorf("approx_top_k(%s, %s) is not defined: k is a BIGINT", bound[0].Type().SQLName(), k.t.SQLName())
	}
	n, _ := k.v.(int64)
	if n <= 0 {
		return nil, errorf("Invalid input for approx_top_k: k value must be > 0")
	}
	spec.k = int(n)
	return bound[:1], nil
}

// countingType sets the result type of histogram and approx_top_k for an
// argument of type at; ok is false for other aggregates.
func countingType(spec *aggSpec, at Type) (ok bool, err error) {
	if spec.fn != "histogram" && spec.fn != "histogram_exact" && spec.fn != "approx_top_k" {
		return false, nil
	}
	if at.Kind == KNested {
		return true, errorf("%s of a nested value is not supported", spec.fn)
	}
	et := plainType(withoutField(at))
	if at.Kind == KNull {
		et = tInt
	}
	if spec.fn != "approx_top_k" {
		spec.t = mapType(et, tUbigint)
	} else {
		spec.t = Type{Kind: KNested, Elem: &et}
	}
	return true, nil
}

// newCountingAcc is the accumulator of histogram or approx_top_k (nil for
// other aggregates).
func newCountingAcc(a *aggSpec) accumulator {
	switch a.fn {
	case "histogram", "histogram_exact":
		return &countingAcc{modeAcc: modeAcc{t: a.t.Fields[0].Type}, bins: a.bins}
	case "approx_top_k":
		return &countingAcc{modeAcc: modeAcc{t: *a.t.Elem}, top: a.k}
	}
	return nil
}

// countingAcc counts each group's distinct values as mode does, and
// gives them all (histogram, top == 0) or the top most frequent.
type countingAcc struct {
	modeAcc
	top  int
	bins *histBins // histogram(x, bins): the counts go to bins
}

func (a *countingAcc) result(ng int) *Col {
	a.counts = growTo(a.counts, ng)
	rt := mapType(a.t, tUbigint)
	if a.top > 0 {
		rt = Type{Kind: KNested, Elem: &a.t}
	}
	b := newBuilder(rt, ng)
	for _, m := range a.counts[:ng] {
		b.Add(a.value(m))
	}
	return b.C
}

// value is one group's map (histogram) or list (approx_top_k); nil when
// it counted no value.
func (a *countingAcc) value(m map[string]*modeEntry) any {
	if len(m) == 0 {
		return nil
	}
	if a.bins != nil {
		return a.binned(m)
	}
	es := make([]*modeEntry, 0, len(m))
	for _, e := range m {
		es = append(es, e)
	}
	if a.top == 0 {
		slices.SortFunc(es, func(x, y *modeEntry) int { return vec.CompareScalars(a.t, x.v, y.v) })
		keys, vals := make([]any, len(es)), make([]any, len(es))
		for i, e := range es {
			keys[i], vals[i] = e.v, int64(e.n)
		}
		v, err := buildMap(a.t, tUbigint, keys, vals)
		if err != nil {
			return nil // cannot happen: the keys are distinct and not NULL
		}
		return v
	}
	slices.SortFunc(es, func(x, y *modeEntry) int {
		if x.n != y.n {
			return y.n - x.n
		}
		return x.first - y.first
	})
	list := make([]any, min(a.top, len(es)))
	for i := range list {
		list[i] = toGo(a.t, es[i].v)
	}
	return list
}

// histBins are the bins of histogram(x, bins) and histogram_exact(x,
// bins), in the type of x: sorted, without duplicates. Each value counts
// in the first bin at or above it (histogram) or in the bin equal to it
// (histogram_exact); the others count in an overflow bin, keyed by the
// largest value of the type (+inf, ” for strings), shown only when not
// empty — as DuckDB does.
type histBins struct {
	keys  []any
	exact bool
	over  any
}

// bindHistogramBins checks and converts the bins of histogram(x, bins):
// a constant list without NULLs. Decimals are binned as DOUBLEs, as in
// DuckDB.
func (p *planner) bindHistogramBins(spec *aggSpec, bound []expr) ([]expr, error) {
	if len(bound) != 2 {
		return nil, errorf("%s takes a value and a list of bins", spec.fn)
	}
	x := bound[0]
	if x.Type().Kind == KDecimal {
		var err error
		if x, err = p.cast(x, tFloat); err != nil {
			return nil, err
		}
	}
	kt := plainType(withoutField(x.Type()))
	if kt.Kind == KNull {
		kt = tInt
	}
	over, ok := histOverflowKey(kt)
	if !ok {
		return nil, unsupported(spec.fn + " with bins of a " + kt.SQLName())
	}
	k, err := constantValue(bound[1])
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, unsupported(spec.fn + " with bins that are not a constant list")
	}
	if k.v == nil {
		return nil, errorf("Histogram bin list cannot be NULL")
	}
	et, isList := listElem(k.t)
	list, _ := k.v.([]any)
	if !isList {
		return nil, errorf("%s(%s, %s) is not defined: the bins are a list", spec.fn, x.Type().SQLName(), k.t.SQLName())
	}
	bins := &histBins{exact: spec.fn == "histogram_exact", over: over}
	for _, el := range list {
		if el == nil {
			return nil, errorf("Histogram bin entry cannot be NULL")
		}
		v, err := fromGo(et, el)
		if err != nil {
			return nil, err
		}
		c, err := castCol(constCol(plainType(et), v, 1), kt)
		if err != nil {
			return nil, err
		}
		bins.keys = append(bins.keys, c.Get(0))
	}
	slices.SortFunc(bins.keys, func(a, b any) int { return vec.CompareScalars(kt, a, b) })
	bins.keys = slices.CompactFunc(bins.keys, func(a, b any) bool { return vec.CompareScalars(kt, a, b) == 0 })
	spec.bins = bins
	return []expr{x}, nil
}

// histOverflowKey is the key of histogram's overflow bin for values of
// type t; ok is false for the types where carquet does not have it.
func histOverflowKey(t Type) (any, bool) {
	switch t.Kind {
	case KInt:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		return int64(1)<<(bits-1) - 1, true
	case KUint:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		return uint64(math.MaxUint64) >> (64 - bits), true
	case KFloat:
		return math.Inf(1), true
	case KString:
		if !t.Bit && !t.JSON {
			return "", true
		}
	case KTime:
		return vec.UnitsPerDay(t), true // 24:00:00
	case KDate, KTimestamp:
		// DuckDB's is infinity, which carquet's dates and timestamps do
		// not have: a value above the last bin is refused (overflowError).
		return nil, true
	}
	return nil, false
}

// overflowError is the error of a histogram of DATEs or TIMESTAMPs that
// has a value above its last bin: its overflow bin would be keyed by
// infinity.
func (a *countingAcc) overflowError() error {
	b := a.bins
	if b == nil || b.over != nil {
		return nil
	}
	for _, m := range a.counts {
		for _, e := range m {
			i := sort.Search(len(b.keys), func(i int) bool { return vec.CompareScalars(a.t, b.keys[i], e.v) >= 0 })
			if i == len(b.keys) || b.exact && vec.CompareScalars(a.t, b.keys[i], e.v) != 0 {
				return unsupported(fmt.Sprintf("the overflow bin of a histogram of %s values (DuckDB keys it infinity, which carquet's %s does not have: give a last bin above every value)", a.t.SQLName(), a.t.SQLName()))
			}
		}
	}
	return nil
}

// binned is one group's histogram over the bins: every bin, with its
// count (0 too), then the overflow bin if a value fell in it.
func (a *countingAcc) binned(m map[string]*modeEntry) any {
	b := a.bins
	counts := make([]int64, len(b.keys)+1)
	for _, e := range m {
		i := sort.Search(len(b.keys), func(i int) bool { return vec.CompareScalars(a.t, b.keys[i], e.v) >= 0 })
		if b.exact && i < len(b.keys) && vec.CompareScalars(a.t, b.keys[i], e.v) != 0 {
			i = len(b.keys)
		}
		counts[i] += int64(e.n)
	}
	keys := append([]any{}, b.keys...)
	vals := make([]any, len(keys), len(keys)+1)
	for i := range keys {
		vals[i] = counts[i]
	}
	if n := counts[len(b.keys)]; n > 0 {
		keys, vals = append(keys, b.over), append(vals, n)
	}
	v, err := buildMap(a.t, tUbigint, keys, vals)
	if err != nil {
		return nil // cannot happen: the keys are distinct and not NULL
	}
	return v
}

// constantValue evaluates e if it reads no column (nil if it does).
func constantValue(e expr) (*constExpr, error) {
	if k, ok := isConst(e); ok {
		return k, nil
	}
	if !constantTree(e) {
		return nil, nil
	}
	c, err := e.Eval(&Batch{N: 1})
	if err != nil {
		return nil, err
	}
	return &constExpr{t: e.Type(), v: c.Get(0)}, nil
}

package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"slices"
)

// DuckDB's counting aggregates: histogram(x), a MAP from each distinct
// non-NULL value to its count (UBIGINT), and approx_top_k(x, k), the LIST
// of the k most frequent values, most frequent first. approx_top_k is
// exact here (DuckDB's is too on inputs as small as its sketch); equal
// counts keep the order in which the values first came. A group with no
// non-NULL value has NULL for either.

// bindCountingArgs takes approx_top_k's k, or the bins of histogram(x,
// bins) and histogram_exact, off the bound arguments.
func (p *Planner) bindCountingArgs(spec *aggSpec, bound []Expr) ([]Expr, error) {
	switch {
	case spec.Fn == "histogram" && len(bound) == 2 || spec.Fn == "histogram_exact":
		return p.bindHistogramBins(spec, bound)
	case spec.Fn == "bitstring_agg":
		return p.bindBitstringAggArgs(spec, bound) // aggbitstring.go
	case spec.Fn != "approx_top_k":
		return bound, nil
	}
	if len(bound) != 2 {
		return nil, errorf("approx_top_k takes a value and a count k")
	}
	k, ok := IsConst(bound[1])
	if !ok {
		return nil, unsupported("approx_top_k with a k that is not a constant")
	}
	if k.V == nil {
		return nil, errorf("Invalid input for approx_top_k: k value cannot be NULL")
	}
	if k.T.Op() != KInt && k.T.Kind != KUint {
		return nil, errorf("approx_top_k(%s, %s) is not defined: k is a BIGINT", bound[0].Type().SQLName(), k.T.SQLName())
	}
	n, _ := k.V.(int64)
	if n <= 0 {
		return nil, errorf("Invalid input for approx_top_k: k value must be > 0")
	}
	spec.K = int(n)
	return bound[:1], nil
}

// bindHistogramBins checks and converts the bins of histogram(x, bins):
// a constant list without NULLs. Decimals are binned as DOUBLEs, as in
// DuckDB.
func (p *Planner) bindHistogramBins(spec *aggSpec, bound []Expr) ([]Expr, error) {
	if len(bound) != 2 {
		return nil, errorf("%s takes a value and a list of bins", spec.Fn)
	}
	x := bound[0]
	if x.Type().Kind == KDecimal {
		var err error
		if x, err = p.cast(x, tFloat); err != nil {
			return nil, err
		}
	}
	kt := plainType(WithoutField(x.Type()))
	if kt.Kind == KNull {
		kt = TInt
	}
	over, ok := function.HistOverflowKey(kt)
	if !ok {
		return nil, unsupported(spec.Fn + " with bins of a " + kt.SQLName())
	}
	k, err := constantValue(bound[1])
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, unsupported(spec.Fn + " with bins that are not a constant list")
	}
	if k.V == nil {
		return nil, errorf("Histogram bin list cannot be NULL")
	}
	et, isList := listElem(k.T)
	list, _ := k.V.([]any)
	if !isList {
		return nil, errorf("%s(%s, %s) is not defined: the bins are a list", spec.Fn, x.Type().SQLName(), k.T.SQLName())
	}
	bins := &function.HistBins{Exact: spec.Fn == "histogram_exact", Over: over}
	for _, el := range list {
		if el == nil {
			return nil, errorf("Histogram bin entry cannot be NULL")
		}
		v, err := fromGo(et, el)
		if err != nil {
			return nil, err
		}
		c, err := CastCol(ConstCol(plainType(et), v, 1), kt)
		if err != nil {
			return nil, err
		}
		bins.Keys = append(bins.Keys, c.Get(0))
	}
	slices.SortFunc(bins.Keys, func(a, b any) int { return vec.CompareScalars(kt, a, b) })
	bins.Keys = slices.CompactFunc(bins.Keys, func(a, b any) bool { return vec.CompareScalars(kt, a, b) == 0 })
	spec.Bins = bins
	return []Expr{x}, nil
}

// constantValue evaluates e if it reads no column (nil if it does).
func constantValue(e Expr) (*ConstExpr, error) {
	if k, ok := IsConst(e); ok {
		return k, nil
	}
	if !constantTree(e) {
		return nil, nil
	}
	c, err := e.Eval(&Batch{N: 1})
	if err != nil {
		return nil, err
	}
	return &ConstExpr{T: e.Type(), V: c.Get(0)}, nil
}

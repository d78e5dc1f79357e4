package sqlplan

import "slices"

// DuckDB's counting aggregates: histogram(x), a MAP from each distinct
// non-NULL value to its count (UBIGINT), and approx_top_k(x, k), the LIST
// of the k most frequent values, most frequent first. approx_top_k is
// exact here (DuckDB's is too on inputs as small as its sketch); equal
// counts keep the order in which the values first came. A group with no
// non-NULL value has NULL for either.

var tUbigint = Type{Kind: KUint}

// bindCountingArgs takes approx_top_k's k off the bound arguments: a
// constant integer, neither NULL nor below 1 (DuckDB's messages).
func bindCountingArgs(spec *aggSpec, bound []expr) ([]expr, error) {
	if spec.fn != "approx_top_k" {
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
	if k.t.op() != KInt && k.t.Kind != KUint {
		return nil, errorf("approx_top_k(%s, %s) is not defined: k is a BIGINT", bound[0].typ().SQLName(), k.t.SQLName())
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
	if spec.fn != "histogram" && spec.fn != "approx_top_k" {
		return false, nil
	}
	if at.Kind == KNested {
		return true, errorf("%s of a nested value is not supported", spec.fn)
	}
	et := plainType(withoutField(at))
	if at.Kind == KNull {
		et = tInt
	}
	if spec.fn == "histogram" {
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
	case "histogram":
		return &countingAcc{modeAcc: modeAcc{t: a.t.Fields[0].Type}}
	case "approx_top_k":
		return &countingAcc{modeAcc: modeAcc{t: *a.t.Elem}, top: a.k}
	}
	return nil
}

// countingAcc counts each group's distinct values as mode does, and
// gives them all (histogram, top == 0) or the top most frequent.
type countingAcc struct {
	modeAcc
	top int
}

func (a *countingAcc) result(ng int) *Col {
	a.counts = growTo(a.counts, ng)
	rt := mapType(a.t, tUbigint)
	if a.top > 0 {
		rt = Type{Kind: KNested, Elem: &a.t}
	}
	b := newBuilder(rt, ng)
	for _, m := range a.counts[:ng] {
		b.add(a.value(m))
	}
	return b.c
}

// value is one group's map (histogram) or list (approx_top_k); nil when
// it counted no value.
func (a *countingAcc) value(m map[string]*modeEntry) any {
	if len(m) == 0 {
		return nil
	}
	es := make([]*modeEntry, 0, len(m))
	for _, e := range m {
		es = append(es, e)
	}
	if a.top == 0 {
		slices.SortFunc(es, func(x, y *modeEntry) int { return compareScalars(a.t, x.v, y.v) })
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

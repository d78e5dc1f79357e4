package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
)

// Accumulators: one per aggregate call, fed a batch at a time with each
// row's group id; typed, no value boxed per row.

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
		return &argAcc{t: a.t, kt: a.arg2.Type(), sign: sign}
	case "bitstring_agg":
		return &bitstringAggAcc{r: *a.bitRange}
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
		if !c.IsNull(i) {
			a.vals[g] = append(a.vals[g], c.Get(i))
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
			b.Add(nil)
			continue
		}
		slices.SortFunc(vs, func(x, y any) int {
			if a.desc {
				x, y = y, x
			}
			return vec.CompareScalars(a.t, x, y)
		})
		if a.qs == nil {
			b.Add(a.pick(vs, a.q))
			continue
		}
		list := make([]any, len(a.qs))
		for i, q := range a.qs {
			list[i] = toGo(a.t, a.pick(vs, q))
		}
		b.Add(list)
	}
	return b.C
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
		if c.IsNull(i) {
			continue
		}
		if a.counts[g] == nil {
			a.counts[g] = map[string]*modeEntry{}
		}
		a.buf = vec.AppendKey(a.buf[:0], c, i)
		e := a.counts[g][string(a.buf)]
		if e == nil {
			e = &modeEntry{v: c.Get(i), first: len(a.counts[g])}
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
			b.Add(nil)
		} else {
			b.Add(best.v)
		}
	}
	return b.C
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
		if k.IsNull(i) || c.IsNull(i) {
			continue // as DuckDB's arg_max: rows with either NULL do not count
		}
		kv := k.Get(i)
		if a.seen[g] && a.sign*extremeCmp(a.kt, kv, a.best[g]) <= 0 {
			continue
		}
		a.best[g], a.res[g], a.seen[g] = kv, c.Get(i), true
	}
}

func (a *argAcc) result(ng int) *Col {
	a.res = growTo(a.res, ng)
	b := newBuilder(a.t, ng)
	for _, v := range a.res[:ng] {
		b.Add(v)
	}
	return b.C
}

type countAcc struct {
	star, ifTrue bool
	n            []int64
	part         []int64 // per-batch partial counts (function.CountRows)
}

func (a *countAcc) update(gids []int32, ng int, c *Col) {
	a.n = growTo(a.n, ng)
	switch {
	case a.star || c.Null == nil && !a.ifTrue:
		a.part = function.CountRows(a.n, a.part, gids, ng)
	case a.ifTrue:
		for i, g := range gids {
			if c.B[i] && !c.IsNull(i) {
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
		s, o := function.AddInt64(a.sum[g], x[i])
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
			c.SetNull(g)
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
			c.SetNull(g)
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
				c.SetNull(g)
			} else {
				c.F[g] = a.sum[g] / n
			}
		case "var_pop", "stddev_pop":
			if a.n[g] == 0 {
				c.SetNull(g)
				continue
			}
			c.F[g] = a.m2[g] / n
		default:
			if a.n[g] < 2 {
				c.SetNull(g)
				continue
			}
			c.F[g] = a.m2[g] / (n - 1)
		}
		if strings.HasPrefix(a.fn, "stddev") && !c.IsNull(g) {
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
	tz := c.T.Kind == KTimeTZ // by local time, as DuckDB (extremeCmp)
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		if !a.seen[g] {
			a.v[g], a.seen[g] = x[i], true
			continue
		}
		var cmp int
		switch {
		case tz:
			cmp = cmpOrdered(timetzLocalKey(x[i]), timetzLocalKey(a.v[g]))
		case uns:
			cmp = cmpOrdered(uint64(x[i]), uint64(a.v[g]))
		default:
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
			c.SetNull(g)
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
		if !a.seen[g] || vec.CmpFloat(x, a.v[g])*a.sign > 0 {
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
			c.SetNull(g)
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
		if c.IsNull(i) {
			continue
		}
		if a.v[g] == nil {
			a.v[g] = c.Get(i)
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
			if compareStrings(c.T, c.Str(i), cb)*a.sign > 0 {
				a.v[g] = c.Get(i)
			}
			continue
		}
		if x := c.Get(i); vec.CompareScalars(c.T, x, a.v[g])*a.sign > 0 {
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
		b.Add(v)
	}
	return b.C
}

type stringAggAcc struct {
	sep  string
	v    []*strings.Builder
	seen []bool
}

func (a *stringAggAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		if a.v[g] == nil {
			a.v[g] = &strings.Builder{}
		} else {
			a.v[g].WriteString(a.sep)
		}
		a.v[g].Write(c.Str(i))
	}
}

func (a *stringAggAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	b := newBuilder(tString, ng)
	for _, v := range a.v[:ng] {
		if v == nil {
			b.Add(nil)
		} else {
			b.Add(v.String())
		}
	}
	return b.C
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
		if c.IsNull(i) {
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
			c.SetNull(g)
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
			if c.I == nil || c.IsNull(i) || !a.seenInts.Add(g, c.I[i]) {
				continue
			}
			keep = append(keep, int32(i))
			kg = append(kg, g)
		}
		a.inner.update(kg, ng, c.Take(keep))
		return
	}
	if a.seen == nil {
		a.seen = map[string]struct{}{}
	}
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		a.buf = a.buf[:0]
		a.buf = append(a.buf, byte(g), byte(g>>8), byte(g>>16), byte(g>>24))
		a.buf = vec.AppendKey(a.buf, c, i)
		if _, ok := a.seen[string(a.buf)]; ok {
			continue
		}
		a.seen[string(a.buf)] = struct{}{}
		keep = append(keep, int32(i))
		kg = append(kg, g)
	}
	a.inner.update(kg, ng, c.Take(keep))
}

func (a *distinctAcc) result(ng int) *Col { return a.inner.result(ng) }

func (a *countAcc) reserve(n int) { a.n = make([]int64, 0, n) }

func (a *sumIntAcc) reserve(n int) { a.sum, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *sumFloatAcc) reserve(n int) { a.sum, a.seen = make([]float64, 0, n), make([]bool, 0, n) }

func (a *extremeIntAcc) reserve(n int) { a.v, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *extremeFloatAcc) reserve(n int) { a.v, a.seen = make([]float64, 0, n), make([]bool, 0, n) }

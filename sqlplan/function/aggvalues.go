package function

import (
	"bytes"
	"cmp"
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The accumulators that keep values per group: quantiles, mode, arg_max
// and arg_min, last, entropy, list, histogram and approx_top_k,
// bitstring_agg and the bit aggregates of BITs.

// quantileAcc collects each group's non-NULL values and picks the
// quantile at the end: quantile_cont interpolates between the two values
// around position (n-1)*q, quantile_disc takes the ceil(n*q)-th value.
// With a list of fractions (qs) each group's result is the list of its
// quantiles. Values stored as integers (short decimals, dates, times,
// integers) or floats are kept and sorted typed; others as scalars.
type quantileAcc struct {
	t      vec.Type
	q      float64
	qs     []float64
	cont   bool
	desc   bool // the values are ranked in descending order
	ints   [][]int64
	floats [][]float64
	vals   [][]any
}

func (a *quantileAcc) Update(gids []int32, ng int, c *vec.Col) {
	switch vec.Storage(a.t) {
	case vec.StInt:
		a.ints = vec.GrowTo(a.ints, ng)
		for i, g := range gids {
			if !c.IsNull(i) {
				a.ints[g] = append(a.ints[g], c.I[i])
			}
		}
	case vec.StFloat:
		a.floats = vec.GrowTo(a.floats, ng)
		for i, g := range gids {
			if !c.IsNull(i) {
				a.floats[g] = append(a.floats[g], c.F[i])
			}
		}
	default:
		a.vals = vec.GrowTo(a.vals, ng)
		for i, g := range gids {
			if !c.IsNull(i) {
				a.vals[g] = append(a.vals[g], c.Get(i))
			}
		}
	}
}

func (a *quantileAcc) Result(ng int) *vec.Col {
	switch vec.Storage(a.t) {
	case vec.StInt:
		a.ints = vec.GrowTo(a.ints, ng)
		if a.qs == nil {
			return a.intResult(ng)
		}
	case vec.StFloat:
		a.floats = vec.GrowTo(a.floats, ng)
		if a.qs == nil {
			return a.floatResult(ng)
		}
	default:
		a.vals = vec.GrowTo(a.vals, ng)
	}
	t := a.t
	if a.qs != nil {
		t = vec.Type{Kind: vec.KNested, Elem: &a.t}
	}
	b := vec.NewBuilder(t, ng)
	for g := range ng {
		n := a.sortGroup(g)
		if n == 0 {
			b.Add(nil)
			continue
		}
		if a.qs == nil {
			b.Add(a.pickScalar(g, n, a.q))
			continue
		}
		list := make([]any, len(a.qs))
		for i, q := range a.qs {
			list[i] = vec.GoValue(a.t, a.pickScalar(g, n, q))
		}
		b.Add(list)
	}
	return b.C
}

// intResult is each group's quantile of integer-stored values.
func (a *quantileAcc) intResult(ng int) *vec.Col {
	c := &vec.Col{T: a.t, Len: ng, I: make([]int64, ng)}
	return quantileCol(a, c, c.I, a.ints, a.pickInt)
}

// floatResult is each group's quantile of floats.
func (a *quantileAcc) floatResult(ng int) *vec.Col {
	c := &vec.Col{T: a.t, Len: ng, F: make([]float64, ng)}
	return quantileCol(a, c, c.F, a.floats, a.pickFloat)
}

// quantileCol fills c, whose values are out, with each group's quantile
// of its values vals (NULL for a group without any).
func quantileCol[T int64 | float64](a *quantileAcc, c *vec.Col, out []T, vals [][]T, pick func([]T, float64) T) *vec.Col {
	for g := range out {
		if a.sortGroup(g) == 0 {
			c.SetNull(g)
			continue
		}
		out[g] = pick(vals[g], a.q)
	}
	return c
}

// sortGroup ranks group g's values (ascending, or descending with desc)
// and returns how many there are.
func (a *quantileAcc) sortGroup(g int) int {
	switch vec.Storage(a.t) {
	case vec.StInt:
		vs := a.ints[g]
		if a.t.Kind == vec.KUint {
			slices.SortFunc(vs, func(x, y int64) int { return cmp.Compare(uint64(x), uint64(y)) })
		} else {
			slices.Sort(vs)
		}
		if a.desc {
			slices.Reverse(vs)
		}
		return len(vs)
	case vec.StFloat:
		vs := a.floats[g]
		slices.SortFunc(vs, vec.CmpFloat)
		if a.desc {
			slices.Reverse(vs)
		}
		return len(vs)
	}
	vs := a.vals[g]
	slices.SortFunc(vs, func(x, y any) int {
		if a.desc {
			x, y = y, x
		}
		return vec.CompareScalars(a.t, x, y)
	})
	return len(vs)
}

// index is the position of quantile_disc's value among n sorted ones
// (DuckDB's discrete quantile: the ceil(n*q)-th value), or of the lower
// of quantile_cont's two.
func (a *quantileAcc) index(n int, q float64) int {
	if !a.cont {
		return max(1, int(math.Ceil(float64(n)*q))) - 1
	}
	return int(math.Floor(float64(n-1) * q))
}

// around is quantile_cont's two positions around (n-1)*q and the
// fraction of the way from the lower to the upper.
func around(n int, q float64) (lo, hi int, frac float64) {
	pos := float64(n-1) * q
	lo = int(math.Floor(pos))
	return lo, min(lo+1, n-1), pos - float64(lo)
}

// madAcc is mad, the median absolute deviation: each group's values (as
// DOUBLE), and at the end the median of their distances to their median,
// both medians interpolated as quantile_cont's.
type madAcc struct {
	vals [][]float64
}

func (a *madAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.vals = vec.GrowTo(a.vals, ng)
	for i, g := range gids {
		if !c.IsNull(i) {
			a.vals[g] = append(a.vals[g], c.F[i])
		}
	}
}

// Result does not change the values kept (a window's running frame reads
// it again as rows are added): the distances go to a scratch slice.
func (a *madAcc) Result(ng int) *vec.Col {
	a.vals = vec.GrowTo(a.vals, ng)
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	var dist []float64
	for g, vs := range a.vals[:ng] {
		if len(vs) == 0 {
			c.SetNull(g)
			continue
		}
		slices.Sort(vs)
		m := medianSorted(vs)
		dist = dist[:0]
		for _, v := range vs {
			dist = append(dist, math.Abs(v-m))
		}
		slices.Sort(dist)
		c.F[g] = medianSorted(dist)
	}
	return c
}

// medianSorted is the interpolated median of sorted values.
func medianSorted(vs []float64) float64 {
	lo, hi, frac := around(len(vs), 0.5)
	return vs[lo] + frac*(vs[hi]-vs[lo])
}

// pickInt is the quantile q of the sorted integer-stored values vs (a
// DECIMAL's unscaled values, or microseconds: interpolated in integers,
// truncated).
func (a *quantileAcc) pickInt(vs []int64, q float64) int64 {
	if !a.cont {
		return vs[a.index(len(vs), q)]
	}
	lo, hi, frac := around(len(vs), q)
	return vs[lo] + int64(float64(vs[hi]-vs[lo])*frac)
}

// pickFloat is the quantile q of the sorted floats vs.
func (a *quantileAcc) pickFloat(vs []float64, q float64) float64 {
	if !a.cont {
		return vs[a.index(len(vs), q)]
	}
	lo, hi, frac := around(len(vs), q)
	return vs[lo] + frac*(vs[hi]-vs[lo])
}

// pickScalar is the quantile q of group g's n sorted values, as the
// column's scalar (Col.Get's form).
func (a *quantileAcc) pickScalar(g, n int, q float64) any {
	switch vec.Storage(a.t) {
	case vec.StInt:
		v := a.pickInt(a.ints[g], q)
		if a.t.Kind == vec.KUint {
			return uint64(v)
		}
		return v
	case vec.StFloat:
		return a.pickFloat(a.floats[g], q)
	}
	vs := a.vals[g]
	if !a.cont {
		return vs[a.index(n, q)]
	}
	lo, hi, frac := around(n, q)
	x, ok := vs[lo].(value.Decimal)
	if !ok {
		return vs[lo] // only decimals are interpolated as scalars
	}
	d := new(big.Int).Sub(vs[hi].(value.Decimal).Unscaled, x.Unscaled)
	step, _ := new(big.Float).Mul(new(big.Float).SetInt(d), big.NewFloat(frac)).Int(nil) // truncated
	return value.Decimal{Unscaled: step.Add(step, x.Unscaled), Scale: x.Scale}
}

// modeAcc counts each group's values; the most frequent wins, the first
// seen among equally frequent ones.
type modeAcc struct {
	t      vec.Type
	counts []map[string]*modeEntry
	buf    []byte
}

type modeEntry struct {
	v     any
	n     int
	first int
}

func (a *modeAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.counts = vec.GrowTo(a.counts, ng)
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

func (a *modeAcc) Result(ng int) *vec.Col {
	a.counts = vec.GrowTo(a.counts, ng)
	b := vec.NewBuilder(a.t, ng)
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
// whose second argument (the key) is the largest (smallest); rows where
// either is NULL do not count, and the first of equal ones wins. Keys
// stored as integers or floats are kept and compared typed (bestI,
// bestF), others as scalars (best); the first argument is read only from
// a row that wins.
//
// DuckDB's variants change only the NULLs: with keepNulls (arg_max_null,
// arg_max_nulls_last) a NULL argument is a value like any other; with
// nullsLast (arg_max_nulls_last) a row with a NULL key counts too, ranked
// below every other key, so it wins only in a group without a non-NULL
// key. Those rows never enter the typed loops: the first of each group
// is kept aside (nullKeyRes) and taken at the end by a group that saw no
// other.
type argAcc struct {
	t, kt     vec.Type
	sign      int
	keepNulls bool
	nullsLast bool
	bestI     []int64
	bestF     []float64
	best      []any
	res       []any
	seen      []bool
	// nullKeyRes is the argument of each group's first row with a NULL
	// key (nullsLast), nullKeySeen whether there was one.
	nullKeyRes  []any
	nullKeySeen []bool
}

func (a *argAcc) Update(gids []int32, ng int, c *vec.Col) {
	panic("argAcc: update2 takes both arguments")
}

func (a *argAcc) Update2(gids []int32, ng int, c, k *vec.Col) {
	a.res, a.seen = vec.GrowTo(a.res, ng), vec.GrowTo(a.seen, ng)
	switch vec.Storage(a.kt) {
	case vec.StInt:
		a.updateInts(gids, ng, c, k)
	case vec.StFloat:
		a.updateFloats(gids, ng, c, k)
	default:
		a.updateScalars(gids, ng, c, k)
	}
	if a.nullsLast {
		a.updateNullKeys(gids, ng, c, k)
	}
}

// skippedArgs is the NULL mask of the arguments whose rows do not take
// part in the ranking: c's, nil when a NULL argument is a value. Taken
// once per batch, it costs the typed loops no more than c.IsNull.
func (a *argAcc) skippedArgs(c *vec.Col) []bool {
	if a.keepNulls {
		return nil
	}
	return c.Null
}

// updateNullKeys keeps the argument of each group's first row with a
// NULL key, the group's result if it has no other key (nullsLast).
func (a *argAcc) updateNullKeys(gids []int32, ng int, c, k *vec.Col) {
	if k.Null == nil {
		return
	}
	a.nullKeyRes, a.nullKeySeen = vec.GrowTo(a.nullKeyRes, ng), vec.GrowTo(a.nullKeySeen, ng)
	for i, g := range gids {
		if k.Null[i] && !a.nullKeySeen[g] {
			a.nullKeyRes[g], a.nullKeySeen[g] = c.Get(i), true
		}
	}
}

// updateInts is Update2 with keys stored as int64: signed, unsigned
// (UBIGINT) or TIMETZ by local time, as ExtremeCmp orders them.
func (a *argAcc) updateInts(gids []int32, ng int, c, k *vec.Col) {
	a.bestI = vec.GrowTo(a.bestI, ng)
	ord := intOrderOf(a.kt)
	cn := a.skippedArgs(c)
	for i, g := range gids {
		if k.IsNull(i) || cn != nil && cn[i] {
			continue // as DuckDB's arg_max: rows with either NULL do not count (but see keepNulls)
		}
		kv := k.I[i]
		if a.seen[g] && a.sign*cmp.Compare(ord.key(kv), ord.key(a.bestI[g])) <= 0 {
			continue
		}
		a.bestI[g], a.res[g], a.seen[g] = kv, c.Get(i), true
	}
}

// updateFloats is Update2 with keys stored as float64 (NaN above all).
func (a *argAcc) updateFloats(gids []int32, ng int, c, k *vec.Col) {
	a.bestF = vec.GrowTo(a.bestF, ng)
	cn := a.skippedArgs(c)
	for i, g := range gids {
		if k.IsNull(i) || cn != nil && cn[i] {
			continue
		}
		kv := k.F[i]
		if a.seen[g] && a.sign*vec.CmpFloat(kv, a.bestF[g]) <= 0 {
			continue
		}
		a.bestF[g], a.res[g], a.seen[g] = kv, c.Get(i), true
	}
}

// updateScalars is Update2 with keys of the other types, compared as
// scalars.
func (a *argAcc) updateScalars(gids []int32, ng int, c, k *vec.Col) {
	a.best = vec.GrowTo(a.best, ng)
	cn := a.skippedArgs(c)
	for i, g := range gids {
		if k.IsNull(i) || cn != nil && cn[i] {
			continue
		}
		kv := k.Get(i)
		if a.seen[g] && a.sign*ExtremeCmp(a.kt, kv, a.best[g]) <= 0 {
			continue
		}
		a.best[g], a.res[g], a.seen[g] = kv, c.Get(i), true
	}
}

func (a *argAcc) Result(ng int) *vec.Col {
	a.res = vec.GrowTo(a.res, ng)
	if a.nullsLast {
		a.takeNullKeys(ng)
	}
	b := vec.NewBuilder(a.t, ng)
	for _, v := range a.res[:ng] {
		b.Add(v)
	}
	return b.C
}

// takeNullKeys gives each group that saw only NULL keys the argument of
// its first such row: NULL keys rank last, below every other.
func (a *argAcc) takeNullKeys(ng int) {
	a.seen = vec.GrowTo(a.seen, ng)
	a.nullKeySeen = vec.GrowTo(a.nullKeySeen, ng)
	for g, ok := range a.nullKeySeen[:ng] {
		if ok && !a.seen[g] {
			a.res[g] = a.nullKeyRes[g] // seen stays false: a later key still wins
		}
	}
}

// listAcc is list (array_agg): every value of the group, NULLs included, in
// input order; NULL for a group without rows.
type listAcc struct {
	t    vec.Type
	vals [][]any
	seen []bool
}

func (a *listAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.vals, a.seen = vec.GrowTo(a.vals, ng), vec.GrowTo(a.seen, ng)
	for i, g := range gids {
		// Elements as nested values read from files hold them (time.Time
		// for dates and times, strings for decimals).
		a.vals[g] = append(a.vals[g], vec.GoValue(*a.t.Elem, c.Get(i)))
		a.seen[g] = true
	}
}

func (a *listAcc) Result(ng int) *vec.Col {
	a.vals, a.seen = vec.GrowTo(a.vals, ng), vec.GrowTo(a.seen, ng)
	b := vec.NewBuilder(a.t, ng)
	for g := 0; g < ng; g++ {
		if !a.seen[g] {
			b.Add(nil)
			continue
		}
		b.Add(a.vals[g])
	}
	return b.C
}

// lastAcc keeps each group's last value in input order, NULL included
// (first's counterpart; order-dependent without ORDER BY).
type lastAcc struct {
	t    vec.Type
	vals []any
}

func (a *lastAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.vals = vec.GrowTo(a.vals, ng)
	for i, g := range gids {
		a.vals[g] = c.Get(i)
	}
}

func (a *lastAcc) Result(ng int) *vec.Col {
	a.vals = vec.GrowTo(a.vals, ng)
	return valuesCol(a.t, a.vals[:ng])
}

// firstAcc is first (arbitrary): each group's first row's value, NULL
// included; lastAcc's values and Result with rows after a group's first
// ignored. Only the first row of a group is boxed.
type firstAcc struct {
	lastAcc
	seen []bool
}

func (a *firstAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.vals = vec.GrowTo(a.vals, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	for i, g := range gids {
		if !a.seen[g] {
			a.seen[g], a.vals[g] = true, c.Get(i)
		}
	}
}

// lastTypedAcc is last of values stored as int64 or float64 (of reads
// a column's slice of them): each group's last value kept typed, set
// false where it is NULL or the group has no row yet.
type lastTypedAcc[T int64 | float64] struct {
	t   vec.Type
	of  func(c *vec.Col) []T
	v   []T
	set []bool
}

func (a *lastTypedAcc[T]) Update(gids []int32, ng int, c *vec.Col) {
	a.v, a.set = vec.GrowTo(a.v, ng), vec.GrowTo(a.set, ng)
	x := a.of(c)
	for i, g := range gids {
		if x == nil || c.IsNull(i) { // a batch without values holds only NULLs
			a.set[g] = false
			continue
		}
		a.v[g], a.set[g] = x[i], true
	}
}

func (a *lastTypedAcc[T]) Result(ng int) *vec.Col {
	a.v, a.set = vec.GrowTo(a.v, ng), vec.GrowTo(a.set, ng)
	c := &vec.Col{T: a.t, Len: ng}
	switch v := any(a.v[:ng]).(type) {
	case []int64:
		c.I = v
	case []float64:
		c.F = v
	}
	for g, ok := range a.set[:ng] {
		if !ok {
			c.SetNull(g)
		}
	}
	return c
}

// newLast is last's accumulator: typed for values stored as int64 or
// float64.
func newLast(a *AggCall) Accumulator {
	switch vec.Storage(a.T) {
	case vec.StInt:
		return &lastTypedAcc[int64]{t: a.T, of: func(c *vec.Col) []int64 { return c.I }}
	case vec.StFloat:
		return &lastTypedAcc[float64]{t: a.T, of: func(c *vec.Col) []float64 { return c.F }}
	}
	return &lastAcc{t: a.T}
}

// entropyAcc is the Shannon entropy, in bits, of each group's distribution
// of non-NULL values.
type entropyAcc struct {
	t      vec.Type
	counts []map[string]int64
	n      []int64
	buf    []byte
}

func (a *entropyAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.counts = vec.GrowTo(a.counts, ng)
	a.n = vec.GrowTo(a.n, ng)
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		if a.counts[g] == nil {
			a.counts[g] = map[string]int64{}
		}
		a.buf = vec.AppendKey(a.buf[:0], c, i)
		a.counts[g][string(a.buf)]++
		a.n[g]++
	}
}

func (a *entropyAcc) Result(ng int) *vec.Col {
	a.counts = vec.GrowTo(a.counts, ng)
	a.n = vec.GrowTo(a.n, ng)
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
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

// newCounting is the accumulator of histogram or approx_top_k.
func newCounting(a *AggCall) Accumulator {
	if a.Fn == "approx_top_k" {
		return &countingAcc{modeAcc: modeAcc{t: *a.T.Elem}, top: a.K}
	}
	return &countingAcc{modeAcc: modeAcc{t: a.T.Fields[0].Type}, bins: a.Bins}
}

// countingAcc counts each group's distinct values as mode does, and
// gives them all (histogram, top == 0) or the top most frequent.
type countingAcc struct {
	modeAcc
	top  int
	bins *HistBins // histogram(x, bins): the counts go to bins
}

func (a *countingAcc) Result(ng int) *vec.Col {
	a.counts = vec.GrowTo(a.counts, ng)
	rt := vec.MapType(a.t, tUbigint)
	if a.top > 0 {
		rt = vec.Type{Kind: vec.KNested, Elem: &a.t}
	}
	b := vec.NewBuilder(rt, ng)
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
		v, err := Nested.Map(a.t, tUbigint, keys, vals)
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
		list[i] = vec.GoValue(a.t, es[i].v)
	}
	return list
}

// HistBins are the bins of histogram(x, bins) and histogram_exact(x,
// bins), in the type of x: sorted, without duplicates. Each value counts
// in the first bin at or above it (histogram) or in the bin equal to it
// (histogram_exact); the others count in an overflow bin, keyed by the
// largest value of the type (+inf, ” for strings), shown only when not
// empty — as DuckDB does.
type HistBins struct {
	Keys  []any
	Exact bool
	Over  any
}

// HistOverflowKey is the key of histogram's overflow bin for values of
// type t; ok is false for the types where carquet does not have it.
func HistOverflowKey(t vec.Type) (any, bool) {
	switch t.Kind {
	case vec.KInt:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		return int64(1)<<(bits-1) - 1, true
	case vec.KUint:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		return uint64(math.MaxUint64) >> (64 - bits), true
	case vec.KFloat:
		return math.Inf(1), true
	case vec.KString:
		if !t.Bit && !t.JSON {
			return "", true
		}
	case vec.KTime:
		return vec.UnitsPerDay(t), true // 24:00:00
	case vec.KDate, vec.KTimestamp:
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
	if b == nil || b.Over != nil {
		return nil
	}
	for _, m := range a.counts {
		for _, e := range m {
			i := sort.Search(len(b.Keys), func(i int) bool { return vec.CompareScalars(a.t, b.Keys[i], e.v) >= 0 })
			if i == len(b.Keys) || b.Exact && vec.CompareScalars(a.t, b.Keys[i], e.v) != 0 {
				return Unsupported(fmt.Sprintf("the overflow bin of a histogram of %s values (DuckDB keys it infinity, which carquet's %s does not have: give a last bin above every value)", a.t.SQLName(), a.t.SQLName()))
			}
		}
	}
	return nil
}

// binned is one group's histogram over the bins: every bin, with its
// count (0 too), then the overflow bin if a value fell in it.
func (a *countingAcc) binned(m map[string]*modeEntry) any {
	b := a.bins
	counts := make([]int64, len(b.Keys)+1)
	for _, e := range m {
		i := sort.Search(len(b.Keys), func(i int) bool { return vec.CompareScalars(a.t, b.Keys[i], e.v) >= 0 })
		if b.Exact && i < len(b.Keys) && vec.CompareScalars(a.t, b.Keys[i], e.v) != 0 {
			i = len(b.Keys)
		}
		counts[i] += int64(e.n)
	}
	keys := append([]any{}, b.Keys...)
	vals := make([]any, len(keys), len(keys)+1)
	for i := range keys {
		vals[i] = counts[i]
	}
	if n := counts[len(b.Keys)]; n > 0 {
		keys, vals = append(keys, b.Over), append(vals, n)
	}
	v, err := Nested.Map(a.t, tUbigint, keys, vals)
	if err != nil {
		return nil // cannot happen: the keys are distinct and not NULL
	}
	return v
}

// MaxBitstringAggBits bounds the range of bitstring_agg, whose BIT each
// group holds (a byte a bit).
const MaxBitstringAggBits = 1 << 24

// BitRange is bitstring_agg's min and max.
type BitRange struct{ Lo, Hi int64 }

// bitstringAggAcc is bitstring_agg's Accumulator: each group's bits as
// '0' and '1' bytes (vec.Type.Bit), made at its first value.
type bitstringAggAcc struct {
	r   BitRange
	v   [][]byte
	err error
}

func (a *bitstringAggAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
	for i, g := range gids {
		if c.IsNull(i) || a.err != nil {
			continue
		}
		x := c.I[i]
		// An unsigned value above MaxInt64 reads negative: out of range
		// unless the range is too, which UBIGINT's never is.
		if x < a.r.Lo || x > a.r.Hi || c.T.Kind == vec.KUint && x < 0 {
			a.err = errorf("Value %s is outside of provided min and max range (%d <-> %d)", vec.ScalarText(c.T, c.Get(i)), a.r.Lo, a.r.Hi)
			return
		}
		if a.v[g] == nil {
			a.v[g] = bytes.Repeat([]byte{'0'}, int(a.r.Hi-a.r.Lo+1))
		}
		a.v[g][x-a.r.Lo] = '1'
	}
}

func (a *bitstringAggAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	return BitsCol(TBit, a.v[:ng])
}

// bitStringAcc is bit_and, bit_or or bit_xor of BITs: per group, the bits
// so far (nil before the first value).
type bitStringAcc struct {
	op  string // AND, OR or XOR
	t   vec.Type
	v   [][]byte
	err error
}

func (a *bitStringAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
	for i, g := range gids {
		if c.IsNull(i) || a.err != nil {
			continue
		}
		s := c.Str(i)
		if a.v[g] == nil {
			a.v[g] = append([]byte{}, s...)
			continue
		}
		a.err = CombineBits(a.op, a.v[g], s)
	}
}

func (a *bitStringAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	return BitsCol(a.t, a.v[:ng])
}

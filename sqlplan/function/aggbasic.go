package function

import (
	"cmp"
	"math"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The accumulators of the common aggregates: counts, sums, averages and
// moments, extremes, string_agg, bool_and/bool_or, and DISTINCT.

type countAcc struct {
	star, ifTrue bool
	n            []int64
	part         []int64 // per-batch partial counts (CountRows)
}

func (a *countAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.n = vec.GrowTo(a.n, ng)
	switch {
	case a.star || c.Null == nil && !a.ifTrue:
		a.part = CountRows(a.n, a.part, gids, ng)
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

func (a *countAcc) Result(ng int) *vec.Col {
	a.n = vec.GrowTo(a.n, ng)
	return &vec.Col{T: tInt, Len: ng, I: a.n[:ng]}
}

type sumIntAcc struct {
	t        vec.Type
	sum      []int64
	seen     []bool
	overflow bool
}

func (a *sumIntAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.sum = vec.GrowTo(a.sum, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	x := c.I
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		s, o := AddInt64(a.sum[g], x[i])
		a.overflow = a.overflow || o
		a.sum[g] = s
		a.seen[g] = true
	}
}

func (a *sumIntAcc) Result(ng int) *vec.Col {
	a.sum = vec.GrowTo(a.sum, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: a.t, Len: ng, I: a.sum[:ng]}
	nullUnseen(c, a.seen[:ng])
	return c
}

type sumFloatAcc struct {
	sum  []float64
	seen []bool
}

func (a *sumFloatAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.sum = vec.GrowTo(a.sum, ng)
	a.seen = vec.GrowTo(a.seen, ng)
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

func (a *sumFloatAcc) Result(ng int) *vec.Col {
	a.sum = vec.GrowTo(a.sum, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: tFloat, Len: ng, F: a.sum[:ng]}
	nullUnseen(c, a.seen[:ng])
	return c
}

// momentAcc computes AVG, variances, standard deviations and sem
// (Welford).
type momentAcc struct {
	fn   string
	n    []int64
	mean []float64
	m2   []float64
	sum  []float64
}

func (a *momentAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.n = vec.GrowTo(a.n, ng)
	a.sum = vec.GrowTo(a.sum, ng)
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
	a.mean = vec.GrowTo(a.mean, ng)
	a.m2 = vec.GrowTo(a.m2, ng)
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

func (a *momentAcc) Result(ng int) *vec.Col {
	a.n = vec.GrowTo(a.n, ng)
	a.sum = vec.GrowTo(a.sum, ng)
	a.mean = vec.GrowTo(a.mean, ng)
	a.m2 = vec.GrowTo(a.m2, ng)
	c := &vec.Col{T: tFloat, Len: ng, F: make([]float64, ng)}
	for g := 0; g < ng; g++ {
		n := float64(a.n[g])
		switch a.fn {
		case "avg":
			if a.n[g] == 0 {
				c.SetNull(g)
			} else {
				c.F[g] = a.sum[g] / n
			}
		case "var_pop", "stddev_pop", "sem":
			if a.n[g] == 0 {
				c.SetNull(g)
				continue
			}
			c.F[g] = a.m2[g] / n
			if a.fn == "sem" { // the standard error of the mean: stddev_pop / sqrt(n)
				c.F[g] = math.Sqrt(c.F[g] / n)
			}
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
	t    vec.Type
	v    []int64
	seen []bool
}

func (a *extremeIntAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	x := c.I
	ord := intOrderOf(c.T)
	for i, g := range gids {
		if c.Null != nil && c.Null[i] {
			continue
		}
		if !a.seen[g] {
			a.v[g], a.seen[g] = x[i], true
			continue
		}
		if cmp.Compare(ord.key(x[i]), ord.key(a.v[g]))*a.sign > 0 {
			a.v[g] = x[i]
		}
	}
}

// intOrder is how the extremes of a type stored as int64 compare
// (ExtremeCmp): signed, unsigned (UBIGINT), or a TIMETZ by its local
// time, as DuckDB.
type intOrder uint8

const (
	intSigned intOrder = iota
	intUnsigned
	intTimeTZ
)

func intOrderOf(t vec.Type) intOrder {
	switch t.Kind {
	case vec.KUint:
		return intUnsigned
	case vec.KTimeTZ:
		return intTimeTZ
	}
	return intSigned
}

// key maps x to an int64 whose signed order is o's order of x.
func (o intOrder) key(x int64) int64 {
	switch o {
	case intUnsigned:
		return x ^ math.MinInt64
	case intTimeTZ:
		return vec.TimeTZLocalKey(x)
	}
	return x
}

func (a *extremeIntAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: a.t, Len: ng, I: a.v[:ng]}
	nullUnseen(c, a.seen[:ng])
	return c
}

type extremeFloatAcc struct {
	sign int
	v    []float64
	seen []bool
}

func (a *extremeFloatAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
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

func (a *extremeFloatAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: tFloat, Len: ng, F: a.v[:ng]}
	nullUnseen(c, a.seen[:ng])
	return c
}

// extremeAcc is MIN/MAX of the types that have no typed accumulator
// (wide decimals, booleans, intervals, nested values), and ANY_VALUE of
// every type (sign 0).
type extremeAcc struct {
	sign int
	t    vec.Type
	v    []any
}

func (a *extremeAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
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
		if x := c.Get(i); vec.CompareScalars(c.T, x, a.v[g])*a.sign > 0 {
			a.v[g] = x
		}
	}
}

func (a *extremeAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	return valuesCol(a.t, a.v[:ng])
}

// extremeBytesAcc is MIN/MAX of text and blobs: each group's extreme
// kept as its own copy of the bytes (reused when a larger one replaces
// it) and compared in place, with no value boxed or converted per row.
type extremeBytesAcc struct {
	sign int
	t    vec.Type
	v    [][]byte
	seen []bool
}

func (a *extremeBytesAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	for i, g := range gids {
		if c.IsNull(i) {
			continue
		}
		s := bytesAt(c, i)
		if !a.seen[g] || vec.CompareStrings(c.T, s, a.v[g])*a.sign > 0 {
			a.v[g], a.seen[g] = append(a.v[g][:0], s...), true
		}
	}
}

func (a *extremeBytesAcc) Result(ng int) *vec.Col {
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	b := vec.NewBuilder(a.t, ng)
	for g := range ng {
		if a.seen[g] {
			b.Add(a.v[g])
		} else {
			b.Add(nil)
		}
	}
	return b.C
}

// bytesAt is the bytes of row i of a text or blob column (its scalar's
// when the column does not hold them as bytes).
func bytesAt(c *vec.Col, i int) []byte {
	if c.Off != nil {
		return c.Str(i)
	}
	switch v := c.Get(i).(type) {
	case string:
		return []byte(v)
	case []byte:
		return v
	}
	return nil
}

// valuesCol is the column of type t holding vals.
func valuesCol(t vec.Type, vals []any) *vec.Col {
	b := vec.NewBuilder(t, len(vals))
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

func (a *stringAggAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
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

func (a *stringAggAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	b := vec.NewBuilder(tString, ng)
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

func (a *boolAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
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

func (a *boolAcc) Result(ng int) *vec.Col {
	a.v = vec.GrowTo(a.v, ng)
	a.seen = vec.GrowTo(a.seen, ng)
	c := &vec.Col{T: tBool, Len: ng, B: a.v[:ng]}
	nullUnseen(c, a.seen[:ng])
	return c
}

// distinctAcc feeds each group's distinct values once to an inner
// Accumulator.
type distinctAcc struct {
	inner Accumulator
	seen  map[string]struct{}
	buf   []byte
	// seenInts holds the (group, value) pairs of integer-stored values,
	// without encoding them (TPC-H Q16's count(DISTINCT ps_suppkey)).
	seenInts PairSet
	// partial (MarkPartial): kept and keptG hold the values let through
	// and their groups, for Combine.
	partial bool
	kept    *vec.Col
	keptG   []int32
}

func (a *distinctAcc) Update(gids []int32, ng int, c *vec.Col) {
	var keep []int32
	var kg []int32
	if vec.Storage(c.T) == vec.StInt && c.Dict == nil {
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
		a.pass(kg, ng, c.Take(keep))
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
	a.pass(kg, ng, c.Take(keep))
}

// pass hands the values seen for the first time to the inner accumulator
// (and keeps them when partial).
func (a *distinctAcc) pass(kg []int32, ng int, c *vec.Col) {
	if a.partial {
		a.keep(kg, c)
	}
	a.inner.Update(kg, ng, c)
}

func (a *distinctAcc) Result(ng int) *vec.Col { return a.inner.Result(ng) }

func (a *countAcc) Reserve(n int) { a.n = make([]int64, 0, n) }

func (a *sumIntAcc) Reserve(n int) { a.sum, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *sumFloatAcc) Reserve(n int) { a.sum, a.seen = make([]float64, 0, n), make([]bool, 0, n) }

func (a *extremeIntAcc) Reserve(n int) { a.v, a.seen = make([]int64, 0, n), make([]bool, 0, n) }

func (a *extremeFloatAcc) Reserve(n int) { a.v, a.seen = make([]float64, 0, n), make([]bool, 0, n) }

// nullUnseen sets NULL the groups of c that saw no value (the result of an
// aggregate over no rows, or only NULLs).
func nullUnseen(c *vec.Col, seen []bool) {
	for g, ok := range seen {
		if !ok {
			c.SetNull(g)
		}
	}
}

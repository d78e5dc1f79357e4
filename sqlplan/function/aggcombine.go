package function

import (
	"cmp"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Combining partial states: a parallel aggregation gives each worker its
// own accumulators over part of the rows, then adds every worker's groups
// into one final accumulator. Only the aggregates whose result does not
// depend on the order the rows came in combine (counts, exact sums and
// averages, integer and byte extremes, bool_and/bool_or, and DISTINCT
// over one of them): a float sum's rounding and a tie between extremes
// that compare equal but differ (TIMETZ, -0.0) would make a parallel
// result differ from the serial one.

// Combiner is an accumulator that merges another one's partial state of
// the same call: other's group g is added into group into[g] of the
// receiver, whose groups number ng.
type Combiner interface {
	Combine(other Accumulator, into []int32, ng int)
}

// Combines reports whether a's partial states combine into the result a
// serial run gives.
func Combines(a Accumulator) bool {
	switch x := a.(type) {
	case *countAcc, *sumIntAcc, *sumDecAcc, *avgExactAcc, *boolAcc, *extremeBytesAcc, *GroupingAcc:
		return true
	case *extremeIntAcc:
		return intOrderOf(x.t) != intTimeTZ
	case *distinctAcc:
		return Combines(x.inner)
	}
	return false
}

// MarkPartial tells a that it holds a worker's share of the rows, to be
// combined later: a DISTINCT aggregate then also keeps the values it let
// through, which the combination feeds to the final one.
func MarkPartial(a Accumulator) {
	if d, ok := a.(*distinctAcc); ok {
		d.partial = true
	}
}

// PartialValues is the number of values a partial accumulator keeps
// apart from its groups' states (a DISTINCT one's values let through).
func PartialValues(a Accumulator) int {
	if d, ok := a.(*distinctAcc); ok {
		return len(d.keptG)
	}
	return 0
}

// eachSeen calls f for every group g of a partial state that saw a
// value, with the group t of the receiver it goes into.
func eachSeen(seen []bool, into []int32, f func(t int32, g int)) {
	for g, ok := range seen[:min(len(seen), len(into))] {
		if ok {
			f(into[g], g)
		}
	}
}

func (a *GroupingAcc) Combine(Accumulator, []int32, int) {}

func (a *countAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*countAcc)
	a.n = vec.GrowTo(a.n, ng)
	for g, v := range o.n[:min(len(o.n), len(into))] {
		a.n[into[g]] += v
	}
}

func (a *sumIntAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*sumIntAcc)
	a.sum, a.seen = vec.GrowTo(a.sum, ng), vec.GrowTo(a.seen, ng)
	a.overflow = a.overflow || o.overflow
	eachSeen(o.seen, into, func(t int32, g int) {
		s, over := AddInt64(a.sum[t], o.sum[g])
		a.overflow = a.overflow || over
		a.sum[t], a.seen[t] = s, true
	})
}

func (a *sumDecAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*sumDecAcc)
	a.seen = vec.GrowTo(a.seen, ng)
	if a.widened || o.widened || o.wide {
		a.widen()
	}
	if a.widened {
		a.sum = vec.GrowTo(a.sum, ng)
	} else {
		a.narrow = vec.GrowTo(a.narrow, ng)
	}
	a.wide = a.wide || o.wide
	eachSeen(o.seen, into, func(t int32, g int) {
		a.seen[t] = true
		if !a.widened {
			if s, over := AddInt64(a.narrow[t], o.narrow[g]); !over {
				a.narrow[t] = s
				return
			}
			a.widen()
		}
		a.addHuge(t, o.at(g))
	})
	for g, u := range o.over {
		a.carry(into[g], u)
	}
}

func (a *avgExactAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*avgExactAcc)
	a.n = vec.GrowTo(a.n, ng)
	for g, v := range o.n[:min(len(o.n), len(into))] {
		a.n[into[g]] += v
	}
	a.sum.Combine(&o.sum, into, ng)
}

func (a *boolAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*boolAcc)
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	eachSeen(o.seen, into, func(t int32, g int) {
		switch v := o.v[g]; {
		case !a.seen[t]:
			a.v[t], a.seen[t] = v, true
		case a.and:
			a.v[t] = a.v[t] && v
		default:
			a.v[t] = a.v[t] || v
		}
	})
}

func (a *extremeIntAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*extremeIntAcc)
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	ord := intOrderOf(a.t)
	eachSeen(o.seen, into, func(t int32, g int) {
		if v := o.v[g]; !a.seen[t] || cmp.Compare(ord.key(v), ord.key(a.v[t]))*a.sign > 0 {
			a.v[t], a.seen[t] = v, true
		}
	})
}

func (a *extremeBytesAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*extremeBytesAcc)
	a.v, a.seen = vec.GrowTo(a.v, ng), vec.GrowTo(a.seen, ng)
	eachSeen(o.seen, into, func(t int32, g int) {
		if v := o.v[g]; !a.seen[t] || vec.CompareStrings(a.t, v, a.v[t])*a.sign > 0 {
			a.v[t], a.seen[t] = append(a.v[t][:0], v...), true
		}
	})
}

// Combine feeds the values other let through (each distinct in its
// share of the rows, kept because it was MarkPartial) to a as rows of
// their groups: a lets through those no other share had.
func (a *distinctAcc) Combine(other Accumulator, into []int32, ng int) {
	o := other.(*distinctAcc)
	if o.kept == nil {
		return
	}
	gids := make([]int32, len(o.keptG))
	for i, g := range o.keptG {
		gids[i] = into[g]
	}
	a.Update(gids, ng, o.kept)
}

// keep records the values a partial DISTINCT let through, and their
// groups.
func (a *distinctAcc) keep(kg []int32, c *vec.Col) {
	if c.Len == 0 {
		return
	}
	c = c.Decoded()
	a.keptG = append(a.keptG, kg...)
	if a.kept == nil {
		a.kept = vec.EmptyCol(c.T)
	}
	vec.AppendCol(a.kept, c)
}

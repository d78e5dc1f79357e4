package exec

import (
	"slices"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// NewAccumulator makes the accumulator of aggregate a: the library's
// (function.NewAccumulator), behind one that sorts its input first when
// the call has an ORDER BY.
func NewAccumulator(a *AggSpec) function.Accumulator {
	if a.Order != nil {
		return &orderedAcc{keys: a.OrderKeys, inner: function.NewAccumulator(&a.AggCall)}
	}
	return function.NewAccumulator(&a.AggCall)
}

// orderedAcc buffers the input of an aggregate with ORDER BY, and feeds
// it to the inner accumulator sorted by group and keys.
type orderedAcc struct {
	keys  []SortKey
	inner function.Accumulator
	gids  []int32
	args  *vec.Col // the argument values, in input order
	args2 *vec.Col // the second argument (arg_max/arg_min, pair statistics)
	cols  []*vec.Col
	n     int
}

// Inner is the accumulator fed in order (for function.AccError).
func (a *orderedAcc) Inner() function.Accumulator { return a.inner }

// add buffers one batch: its group ids, argument values and keys.
func (a *orderedAcc) add(b *vec.Batch, order []Expr, gids []int32, c, c2 *vec.Col) error {
	keys := make([]*vec.Col, len(order))
	for i, o := range order {
		k, err := o.Eval(b)
		if err != nil {
			return err
		}
		keys[i] = k.Decoded()
	}
	if a.cols == nil {
		a.cols = make([]*vec.Col, len(order))
		for i, k := range keys {
			a.cols[i] = vec.EmptyCol(k.T)
		}
	}
	for i, k := range keys {
		vec.AppendCol(a.cols[i], k)
	}
	if c != nil {
		if a.args == nil {
			a.args = vec.EmptyCol(c.T)
		}
		vec.AppendCol(a.args, c.Decoded())
	}
	if c2 != nil {
		if a.args2 == nil {
			a.args2 = vec.EmptyCol(c2.T)
		}
		vec.AppendCol(a.args2, c2.Decoded())
	}
	a.gids = append(a.gids, gids[:b.N]...)
	a.n += b.N
	return nil
}

func (a *orderedAcc) Update(gids []int32, ng int, c *vec.Col) {} // fed through add

func (a *orderedAcc) Result(ng int) *vec.Col {
	if a.n > 0 {
		idx := make([]int32, a.n)
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortStableFunc(idx, func(x, y int32) int {
			if gx, gy := a.gids[x], a.gids[y]; gx != gy {
				return int(gx - gy)
			}
			return CompareRows(a.keys, a.cols, int(x), a.cols, int(y))
		})
		gids := make([]int32, a.n)
		for i, r := range idx {
			gids[i] = a.gids[r]
		}
		var c, c2 *vec.Col
		if a.args != nil {
			c = a.args.Take(idx)
		}
		if a.args2 != nil {
			c2 = a.args2.Take(idx)
			a.inner.(function.PairAccumulator).Update2(gids, ng, c, c2)
		} else {
			a.inner.Update(gids, ng, c)
		}
	}
	return a.inner.Result(ng)
}

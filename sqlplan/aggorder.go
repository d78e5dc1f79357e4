package sqlplan

import (
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Aggregates with ORDER BY: agg(x ORDER BY k [DESC] [NULLS FIRST], ...).
// The rewrite passes the keys as trailing arguments after parse.AggOrderMarker,
// each followed by its direction. For the aggregates whose result depends
// on the order of their input (string_agg, list, any_value, arg_max/min on
// ties, mode on ties), the rows of every group are buffered with their
// keys, sorted, and fed to the aggregate in that order; for the others
// the ORDER BY changes nothing and is dropped.

// orderSensitive names the aggregates whose result depends on the order
// of their input.
var orderSensitive = map[string]bool{"string_agg": true, "list": true, "any_value": true, "arg_max": true, "arg_min": true, "mode": true, "last": true}

// splitAggOrder splits an aggregate's arguments at parse.AggOrderMarker.
func splitAggOrder(args []sqlparser.SelectExpr) (plain, order []sqlparser.SelectExpr) {
	for i, a := range args {
		if ae, ok := a.(*sqlparser.AliasedExpr); ok {
			if v, ok := ae.Expr.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal && string(v.Val) == parse.AggOrderMarker {
				return args[:i], args[i+1:]
			}
		}
	}
	return args, nil
}

// bindAggOrder binds the ORDER BY keys of an aggregate (key, direction
// pairs) into spec.
func (p *planner) bindAggOrder(spec *aggSpec, order []sqlparser.SelectExpr, agg *aggCtx) error {
	if len(order) == 0 {
		return nil
	}
	if len(order)%2 != 0 {
		return errorf("internal error: malformed ORDER BY in %s", spec.text)
	}
	var keys []expr
	var dirs []sortKey
	for i := 0; i < len(order); i += 2 {
		ae, ok1 := order[i].(*sqlparser.AliasedExpr)
		de, ok2 := order[i+1].(*sqlparser.AliasedExpr)
		if !ok1 || !ok2 {
			return errorf("internal error: malformed ORDER BY in %s", spec.text)
		}
		if containsAggregate(ae.Expr) {
			return errorf("aggregate function calls cannot be nested: %s", spec.text)
		}
		e, err := p.bindExpr(ae.Expr, agg.inScope, nil)
		if err != nil {
			return err
		}
		var dir parse.OrderDir
		if v, ok := de.Expr.(*sqlparser.SQLVal); ok {
			dir, _ = parse.ParseOrderDir(string(v.Val))
		}
		desc, nullsFirst := p.set.resolveOrder(dir.Dir, dir.Nulls)
		keys = append(keys, e)
		dirs = append(dirs, sortKey{Col: len(dirs), Desc: desc, NullsFirst: nullsFirst, Text: sqlparser.String(ae.Expr)})
	}
	if orderSensitive[spec.fn] || spec.fn == "first" || spec.fn == "array_agg" || spec.fn == "group_concat" || spec.fn == "listagg" {
		spec.order, spec.orderKeys = keys, dirs
	}
	return nil
}

// orderedAcc buffers the input of an aggregate with ORDER BY, and feeds
// it to the inner accumulator sorted by group and keys.
type orderedAcc struct {
	keys  []sortKey
	inner accumulator
	gids  []int32
	args  *Col // the argument values, in input order
	args2 *Col // the second argument (arg_max/arg_min, pair statistics)
	cols  []*Col
	n     int
}

// add buffers one batch: its group ids, argument values and keys.
func (a *orderedAcc) add(b *Batch, order []expr, gids []int32, c, c2 *Col) error {
	keys := make([]*Col, len(order))
	for i, o := range order {
		k, err := o.Eval(b)
		if err != nil {
			return err
		}
		keys[i] = k.Decoded()
	}
	if a.cols == nil {
		a.cols = make([]*Col, len(order))
		for i, k := range keys {
			a.cols[i] = emptyCol(k.T)
		}
	}
	for i, k := range keys {
		appendCol(a.cols[i], k)
	}
	if c != nil {
		if a.args == nil {
			a.args = emptyCol(c.T)
		}
		appendCol(a.args, c.Decoded())
	}
	if c2 != nil {
		if a.args2 == nil {
			a.args2 = emptyCol(c2.T)
		}
		appendCol(a.args2, c2.Decoded())
	}
	a.gids = append(a.gids, gids[:b.N]...)
	a.n += b.N
	return nil
}

func (a *orderedAcc) update(gids []int32, ng int, c *Col) {} // fed through add

func (a *orderedAcc) result(ng int) *Col {
	if a.n > 0 {
		idx := make([]int32, a.n)
		for i := range idx {
			idx[i] = int32(i)
		}
		slices.SortStableFunc(idx, func(x, y int32) int {
			if gx, gy := a.gids[x], a.gids[y]; gx != gy {
				return int(gx - gy)
			}
			return kernels.CompareRows(a.keys, a.cols, int(x), a.cols, int(y))
		})
		gids := make([]int32, a.n)
		for i, r := range idx {
			gids[i] = a.gids[r]
		}
		var c, c2 *Col
		if a.args != nil {
			c = a.args.Take(idx)
		}
		if a.args2 != nil {
			c2 = a.args2.Take(idx)
			a.inner.(pairAccumulator).update2(gids, ng, c, c2)
		} else {
			a.inner.update(gids, ng, c)
		}
	}
	return a.inner.result(ng)
}

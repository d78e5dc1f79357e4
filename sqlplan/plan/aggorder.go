package plan

import (
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/function"

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
func (p *Planner) bindAggOrder(spec *aggSpec, order []sqlparser.SelectExpr, agg *aggCtx) error {
	keys, dirs, err := p.bindOrderItems(order, agg.inScope, spec.Text)
	if err != nil {
		return err
	}
	if len(keys) > 0 && function.Ordered(spec.Fn) {
		spec.Order, spec.OrderKeys = keys, dirs
	}
	return nil
}

// bindOrderItems binds the ORDER BY inside a call (key, direction pairs
// after parse.AggOrderMarker) in scope sc: the keys and their directions,
// each key's Col its position. text is the call, for errors.
func (p *Planner) bindOrderItems(order []sqlparser.SelectExpr, sc *Scope, text string) ([]kernels.Expr, []sortKey, error) {
	if len(order)%2 != 0 {
		return nil, nil, errorf("internal error: malformed ORDER BY in %s", text)
	}
	var keys []kernels.Expr
	var dirs []sortKey
	for i := 0; i < len(order); i += 2 {
		ae, ok1 := order[i].(*sqlparser.AliasedExpr)
		de, ok2 := order[i+1].(*sqlparser.AliasedExpr)
		if !ok1 || !ok2 {
			return nil, nil, errorf("internal error: malformed ORDER BY in %s", text)
		}
		if ContainsAggregate(ae.Expr) {
			return nil, nil, errorf("aggregate function calls cannot be nested: %s", text)
		}
		e, err := p.BindExpr(ae.Expr, sc, nil)
		if err != nil {
			return nil, nil, err
		}
		var dir parse.OrderDir
		if v, ok := de.Expr.(*sqlparser.SQLVal); ok {
			dir, _ = parse.ParseOrderDir(string(v.Val))
		}
		desc, nullsFirst := p.Set.resolveOrder(dir.Dir, dir.Nulls)
		keys = append(keys, e)
		dirs = append(dirs, sortKey{Col: len(dirs), Desc: desc, NullsFirst: nullsFirst, Text: sqlparser.String(ae.Expr)})
	}
	return keys, dirs, nil
}

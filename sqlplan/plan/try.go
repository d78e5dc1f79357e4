package plan

import (
	"github.com/xwb1989/sqlparser"

	"github.com/carquet-go/carquet/sqlplan/vec"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// tryExpr is DuckDB's try(e): e's values, NULL for a row whose value
// raises an error. A batch is evaluated whole; only when that fails is
// it evaluated again row by row, to find the rows that fail.
type tryExpr struct {
	named
	e Expr
}

func (t *tryExpr) Type() Type { return t.e.Type() }

func (t *tryExpr) Eval(b *Batch) (*Col, error) {
	c, err := t.e.Eval(b)
	if err == nil {
		return c, nil
	}
	out := NewBuilder(t.e.Type(), b.N)
	one := []int32{0}
	for i := range b.N {
		one[0] = int32(i)
		c, err := t.e.Eval(kernels.TakeBatch(b, one))
		if err != nil || c.Len < 1 {
			out.Add(nil)
			continue
		}
		if vec.Storage(c.T) != vec.Storage(out.C.T) {
			out.Add(c.Get(0))
			continue
		}
		out.AddRow(c, 0)
	}
	return out.C, nil
}

// bindTry binds try(e): one argument, not an aggregate (DuckDB refuses
// those too: an aggregate's error is the query's).
func (p *Planner) bindTry(x *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
	if len(x.Exprs) != 1 || x.Distinct {
		return nil, errorf("try takes one expression")
	}
	ae, ok := x.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf("try takes one expression")
	}
	if ContainsAggregate(ae.Expr) {
		return nil, errorf("aggregate functions are not allowed inside try")
	}
	e, err := p.BindExpr(ae.Expr, sc, agg)
	if err != nil {
		return nil, err
	}
	if _, ok := IsConst(e); ok {
		// Folded now: a constant that fails is NULL.
		c, err := e.Eval(&Batch{N: 1})
		if err != nil {
			return &ConstExpr{T: e.Type()}, nil
		}
		return &ConstExpr{T: e.Type(), V: c.Get(0)}, nil
	}
	return &tryExpr{e: e}, nil
}

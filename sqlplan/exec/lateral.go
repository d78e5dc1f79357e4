package exec

import (
	"context"
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// LateralJoin joins each left batch with the rows of a lateral subquery
// for its rows' outer values: the subquery runs once per distinct
// combination of those values in the batch, its runs' rows are gathered
// into one right batch, and the pairs go through J's condition and
// outer-join handling (finish). Planning and running the subquery is the
// planner's: Run.
type LateralJoin struct {
	J     *HashJoin  // left input, layout, condition, LEFT; Right unused
	Outer []Expr     // the outer columns the subquery names, on left batches
	Types []vec.Type // the subquery's column types
	// Run runs the subquery for one set of outer values (one per Outer)
	// and returns its rows, of Types.
	Run func(vals []any) (*vec.Batch, error)
}

func (n *LateralJoin) Next(ctx context.Context) (*vec.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.J.Left.Next(ctx)
		if err != nil {
			return nil, err
		}
		li, ri, err := n.pairs(b)
		if err != nil {
			return nil, err
		}
		out, err := n.J.finish(b, li, ri)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// pairs runs the subquery once per distinct outer values in b, gathers
// the rows into the join's right batch, and pairs each left row with the
// rows of its run.
func (n *LateralJoin) pairs(b *vec.Batch) (li, ri []int32, err error) {
	outer, err := evalAll(n.Outer, b)
	if err != nil {
		return nil, nil, err
	}
	right := &vec.Batch{Cols: make([]*vec.Col, len(n.Types))}
	for k, t := range n.Types {
		right.Cols[k] = vec.NewBuilder(t, 0).C
	}
	type span struct{ from, to int32 }
	runs := map[string]span{}
	var buf []byte
	vals := make([]any, len(outer))
	for i := 0; i < b.N; i++ {
		buf = buf[:0]
		for j, c := range outer {
			vals[j] = c.Get(i)
			buf = AppendOuterKey(buf, vals[j])
		}
		sp, ok := runs[string(buf)]
		if !ok {
			rows, err := n.Run(vals)
			if err != nil {
				return nil, nil, err
			}
			sp = span{int32(right.N), int32(right.N + rows.N)}
			for k := range right.Cols {
				vec.AppendCol(right.Cols[k], rows.Cols[k])
			}
			right.N += rows.N
			runs[string(buf)] = sp
		}
		for r := sp.from; r < sp.to; r++ {
			li, ri = append(li, int32(i)), append(ri, r)
		}
	}
	n.J.rall = right
	return li, ri, nil
}

// AppendOuterKey appends to a key of outer values the value v, told
// apart by its Go type (a correlated subquery or a lateral join runs once
// per distinct key).
func AppendOuterKey(buf []byte, v any) []byte { return fmt.Appendf(buf, "%T\x00%v\x01", v, v) }

func (n *LateralJoin) Close() { n.J.Left.Close() }

func (n *LateralJoin) WrapInputs(wrap func(Node) Node) { n.J.Left = wrap(n.J.Left) }

func (n *LateralJoin) Explain(x *Explainer, depth int) {
	kind := "INNER"
	if n.J.LeftOuter {
		kind = "LEFT"
	}
	x.Line(depth, "LATERAL JOIN %s (the subquery runs per distinct %s)", kind, ExprList(n.Outer))
	if n.J.Cond != nil {
		x.Line(depth+1, "join condition: %s", n.J.Cond)
	}
	n.J.Left.Explain(x, depth+1)
}

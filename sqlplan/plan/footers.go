package plan

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// Aggregates answered from the files' footers: COUNT(*) from their row
// counts, and COUNT, MIN and MAX of plain columns from their statistics
// when those are exact, so that no page is read.

// orderFree reports whether aggregates give the same result whatever the
// order of their input rows, so that the scan may deliver batches as
// they are decoded. (Float sums can differ in the last bits.)
func orderFree(aggs []*aggSpec) bool {
	for _, a := range aggs {
		switch a.Fn {
		case "string_agg", "any_value", "first", "last", "mode", "approx_top_k":
			return false
		}
		if function.Keyed(a.Fn) { // arg_max and its kin: the first of equal keys wins
			return false
		}
	}
	return true
}

// footerCountNode answers COUNT(*) from the files' footers: one batch of
// NumRows rows and no columns, which the aggregation counts.
type footerCountNode struct {
	rel  *Relation
	done bool
}

func (n *footerCountNode) Next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	n.done = true
	rows, err := n.rel.table.NumRows()
	if err != nil {
		return nil, err
	}
	return &Batch{N: int(rows)}, nil
}

func (n *footerCountNode) Close() {}

func (n *footerCountNode) Explain(x *Explainer, depth int) {
	if snap := n.rel.table.Snapshot(); snap != nil {
		// numRecords of the add actions, less rows deletion vectors remove.
		x.Line(depth, "COUNT(*) FROM DELTA LOG (version %d) %s [%s]", snap.Version, n.rel.Alias, x.Rel(n.rel.path))
		return
	}
	x.Line(depth, "COUNT(*) FROM FOOTERS %s [%s]", n.rel.Alias, x.Rel(n.rel.path))
}

// fromFooters answers COUNT, MIN and MAX of plain columns without a
// filter from the files' statistics, when they are exact.
func (p *Planner) fromFooters(r *Relation, aggs []*aggSpec) (*Batch, string, bool) {
	if r.table == nil || len(r.pushed) > 0 {
		return nil, "", false
	}
	out := &Batch{N: 1}
	var names []string
	for _, a := range aggs {
		if a.Distinct {
			return nil, "", false
		}
		var col *ScopeCol
		if a.Arg != nil {
			c, ok := a.Arg.(*ColExpr)
			if !ok || c.col == nil || c.col.Rel != r || strings.Contains(c.col.Name, ".") || c.col.T.Kind == KNested {
				return nil, "", false
			}
			if (c.col.T.Bit || c.col.T.Kind == KEnum) && a.Fn != "count" {
				// The file's statistics order the text bytewise, not in
				// DuckDB's order of bit strings (vec.CompareBits) or
				// an ENUM's declared order.
				return nil, "", false
			}
			col = c.col
		}
		var v any
		switch a.Fn {
		case "count_star":
			n, err := r.table.NumRows()
			if err != nil {
				return nil, "", false
			}
			v = n
		case "count", "min", "max":
			sum, ok, err := r.table.Summarize(col.Name)
			if err != nil || !ok {
				return nil, "", false
			}
			switch a.Fn {
			case "count":
				v = sum.Rows - sum.Nulls
			case "min", "max":
				if !sum.MinMaxKnown {
					return nil, "", false
				}
				x := sum.Min
				if a.Fn == "max" {
					x = sum.Max
				}
				sv, err := goScalar(x, a.T)
				if err != nil {
					return nil, "", false
				}
				v = sv
			}
		default:
			return nil, "", false
		}
		b := NewBuilder(a.T, 1)
		b.Add(v)
		out.Cols = append(out.Cols, b.C)
		names = append(names, a.Text)
	}
	return out, "AGGREGATE FROM FOOTERS " + strings.Join(names, ", ") + " of " + r.Alias, true
}

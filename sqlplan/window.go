package sqlplan

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/xwb1989/sqlparser"
)

// Window functions. The rewrite layer turns fn(args) OVER (PARTITION BY
// p ORDER BY o) into a marker call; the binder collects each into a
// winSpec whose result is a column appended to the batches by windowNode,
// which runs after WHERE, GROUP BY and HAVING and before the projection.

// winCtx collects the window functions of one SELECT.
type winCtx struct{ specs []*winSpec }

type winSpec struct {
	fn    string
	args  []expr
	star  bool
	part  []expr
	order []expr
	desc  []bool
	t     Type
	slot  *slot
	text  string
}

var windowFns = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "percent_rank": true, "cume_dist": true, "ntile": true,
	"lag": true, "lead": true, "first_value": true, "last_value": true,
	"count": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true,
}

func (p *planner) bindWindow(x *sqlparser.FuncExpr, sc *scope, agg *aggCtx) (expr, error) {
	if p.win == nil {
		return nil, errorf("window functions are only allowed in the select list and ORDER BY")
	}
	if len(x.Exprs) == 0 {
		return nil, errorf("bad window call")
	}
	first, _ := x.Exprs[0].(*sqlparser.AliasedExpr)
	lit, ok := first.Expr.(*sqlparser.SQLVal)
	if !ok {
		return nil, errorf("bad window call")
	}
	spec := &winSpec{fn: strings.ToLower(string(lit.Val)), text: sqlparser.String(x)}
	if spec.fn == "mean" {
		spec.fn = "avg"
	}
	if !windowFns[spec.fn] {
		return nil, unsupported("the window function " + spec.fn)
	}
	mode := 'a'
	for _, it := range x.Exprs[1:] {
		switch it := it.(type) {
		case *sqlparser.StarExpr:
			spec.star = true
		case *sqlparser.AliasedExpr:
			if v, ok := it.Expr.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
				switch string(v.Val) {
				case "|p":
					mode = 'p'
					continue
				case "|o":
					mode = 'o'
					continue
				case "|asc", "|desc":
					if mode == 'o' && len(spec.desc) > 0 {
						spec.desc[len(spec.desc)-1] = string(v.Val) == "|desc"
						continue
					}
				}
			}
			e, err := p.bindExpr(it.Expr, sc, agg)
			if err != nil {
				return nil, err
			}
			switch mode {
			case 'a':
				spec.args = append(spec.args, e)
			case 'p':
				spec.part = append(spec.part, e)
			default:
				spec.order = append(spec.order, e)
				spec.desc = append(spec.desc, false)
			}
		}
	}
	var at Type
	if len(spec.args) > 0 {
		at = spec.args[0].typ()
	}
	need := func(n int) error {
		if len(spec.args) < n {
			return errorf("%s needs %d argument(s)", spec.fn, n)
		}
		return nil
	}
	switch spec.fn {
	case "row_number", "rank", "dense_rank", "count":
		spec.t = tInt
		if spec.fn == "count" && !spec.star {
			if err := need(1); err != nil {
				return nil, err
			}
		}
	case "ntile":
		if err := need(1); err != nil {
			return nil, err
		}
		if k, ok := isConst(spec.args[0]); !ok || k.t.op() != KInt {
			return nil, errorf("ntile takes a constant integer")
		}
		spec.t = tInt
	case "percent_rank", "cume_dist", "avg":
		spec.t = tFloat
		if spec.fn == "avg" {
			if err := need(1); err != nil {
				return nil, err
			}
			c, err := p.cast(spec.args[0], tFloat)
			if err != nil {
				return nil, err
			}
			spec.args[0] = c
		}
	case "sum":
		if err := need(1); err != nil {
			return nil, err
		}
		switch {
		case at.op() == KInt:
			spec.t = tInt
		case at.Kind == KDecimal:
			// Exact, as the aggregate and DuckDB: DECIMAL(38, s).
			spec.t = Type{Kind: KDecimal, Prec: 38, Scale: at.Scale}
		default:
			c, err := p.cast(spec.args[0], tFloat)
			if err != nil {
				return nil, err
			}
			spec.args[0] = c
			spec.t = tFloat
		}
	case "min", "max", "first_value", "last_value", "lag", "lead":
		if err := need(1); err != nil {
			return nil, err
		}
		spec.t = withoutField(at)
		if spec.fn == "lag" || spec.fn == "lead" {
			if len(spec.args) > 1 {
				if k, ok := isConst(spec.args[1]); !ok || k.t.op() != KInt {
					return nil, errorf("the offset of %s must be a constant integer", spec.fn)
				}
			}
			if len(spec.args) > 2 {
				c, err := p.cast(spec.args[2], spec.t)
				if err != nil {
					return nil, err
				}
				spec.args[2] = c
			}
		}
	}
	spec.slot = &slot{}
	p.win.specs = append(p.win.specs, spec)
	e := &colExpr{s: spec.slot, t: spec.t}
	e.setText(spec.fn + "(...) OVER (...)")
	return e, nil
}

// windowNode computes window functions over its whole input and appends
// their columns (at slots base, base+1, ...).
type windowNode struct {
	in    node
	specs []*winSpec
	out   *Batch
	pos   int
}

func (n *windowNode) next(ctx context.Context) (*Batch, error) {
	if n.out == nil {
		var all *Batch
		for {
			b, err := n.in.next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if all == nil {
				all = &Batch{Cols: make([]*Col, len(b.Cols))}
				for i, c := range b.Cols {
					if c != nil {
						all.Cols[i] = emptyCol(c.T)
					}
				}
			}
			for i, c := range b.Cols {
				if c != nil && all.Cols[i] != nil {
					appendCol(all.Cols[i], c)
				}
			}
			all.N += b.N
		}
		if all == nil {
			return nil, io.EOF
		}
		for _, w := range n.specs {
			c, err := computeWindow(all, w)
			if err != nil {
				return nil, err
			}
			for len(all.Cols) <= w.slot.idx {
				all.Cols = append(all.Cols, nil)
			}
			all.Cols[w.slot.idx] = c
		}
		n.out = all
	}
	if n.pos >= n.out.N {
		return nil, io.EOF
	}
	end := min(n.pos+outBatch, n.out.N)
	idx := make([]int32, 0, end-n.pos)
	for i := n.pos; i < end; i++ {
		idx = append(idx, int32(i))
	}
	n.pos = end
	if len(idx) == n.out.N {
		return n.out, nil
	}
	return takeBatch(n.out, idx), nil
}

func (n *windowNode) close() { n.in.close() }

func (n *windowNode) explain(x *explainer, depth int) {
	var parts []string
	for _, w := range n.specs {
		parts = append(parts, w.text)
	}
	x.line(depth, "WINDOW %s", strings.Join(parts, ", "))
	n.in.explain(x, depth+1)
}

func computeWindow(all *Batch, w *winSpec) (*Col, error) {
	nrows := all.N
	evalAll := func(es []expr) ([]*Col, error) {
		out := make([]*Col, len(es))
		for i, e := range es {
			c, err := e.eval(all)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	pc, err := evalAll(w.part)
	if err != nil {
		return nil, err
	}
	oc, err := evalAll(w.order)
	if err != nil {
		return nil, err
	}
	ac, err := evalAll(w.args)
	if err != nil {
		return nil, err
	}
	keyCols := append(append([]*Col(nil), pc...), oc...)
	var partKeys, allKeys []sortKey
	for i := range pc {
		partKeys = append(partKeys, sortKey{col: i})
	}
	allKeys = append(allKeys, partKeys...)
	for j := range oc {
		allKeys = append(allKeys, sortKey{col: len(pc) + j, desc: w.desc[j]})
	}
	idx := make([]int32, nrows)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		return compareRows(allKeys, keyCols, int(a), keyCols, int(b))
	})
	res := make([]any, nrows)
	for s := 0; s < nrows; {
		e := s + 1
		for e < nrows && compareRows(partKeys, keyCols, int(idx[s]), keyCols, int(idx[e])) == 0 {
			e++
		}
		if err := windowPartition(w, idx[s:e], keyCols, allKeys, ac, res, len(oc) > 0); err != nil {
			return nil, err
		}
		s = e
	}
	b := newBuilder(w.t, nrows)
	for _, v := range res {
		b.add(v)
	}
	return b.c, nil
}

// windowPartition fills res for the rows of one partition, in window order.
func windowPartition(w *winSpec, rows []int32, keyCols []*Col, allKeys []sortKey, ac []*Col, res []any, ordered bool) error {
	n := len(rows)
	// peerEnd[k] is one past the last row of k's peer group (rows equal in
	// the ORDER BY); without ORDER BY the whole partition is one group.
	peerEnd := make([]int, n)
	peerStart := make([]int, n)
	for s := 0; s < n; {
		e := s + 1
		if ordered {
			for e < n && compareRows(allKeys, keyCols, int(rows[s]), keyCols, int(rows[e])) == 0 {
				e++
			}
		} else {
			e = n
		}
		for k := s; k < e; k++ {
			peerStart[k], peerEnd[k] = s, e
		}
		s = e
	}
	arg := func(k int) any {
		if len(ac) == 0 {
			return nil
		}
		return ac[0].get(int(rows[k]))
	}
	switch w.fn {
	case "row_number":
		for k := range rows {
			res[rows[k]] = int64(k + 1)
		}
	case "rank":
		for k := range rows {
			res[rows[k]] = int64(peerStart[k] + 1)
		}
	case "dense_rank":
		rank := int64(0)
		for k := range rows {
			if k == peerStart[k] {
				rank++
			}
			res[rows[k]] = rank
		}
	case "percent_rank":
		for k := range rows {
			if n == 1 {
				res[rows[k]] = 0.0
			} else {
				res[rows[k]] = float64(peerStart[k]) / float64(n-1)
			}
		}
	case "cume_dist":
		for k := range rows {
			res[rows[k]] = float64(peerEnd[k]) / float64(n)
		}
	case "ntile":
		buckets := w.args[0].(*constExpr).v.(int64)
		if buckets < 1 {
			buckets = 1
		}
		for k := range rows {
			res[rows[k]] = int64(k)*buckets/int64(n) + 1
		}
	case "lag", "lead":
		off := int64(1)
		if len(ac) > 1 {
			off = w.args[1].(*constExpr).v.(int64)
		}
		if w.fn == "lag" {
			off = -off
		}
		for k := range rows {
			j := int64(k) + off
			switch {
			case j >= 0 && j < int64(n):
				res[rows[k]] = arg(int(j))
			case len(ac) > 2:
				res[rows[k]] = ac[2].get(int(rows[k]))
			}
		}
	case "first_value":
		for k := range rows {
			res[rows[k]] = arg(0)
		}
	case "last_value":
		for k := range rows {
			res[rows[k]] = arg(peerEnd[k] - 1)
		}
	default: // count, sum, avg, min, max over the frame start..peerEnd
		var cnt int64
		var sumI int64
		var sumF float64
		var sumD decSum
		var ext any
		done := 0
		for k := range rows {
			for ; done < peerEnd[k]; done++ {
				if w.star {
					cnt++
					continue
				}
				v := arg(done)
				if v == nil {
					continue
				}
				cnt++
				switch x := v.(type) {
				case int64:
					if w.t.Kind == KDecimal {
						sumD.addUnscaled(x) // a DECIMAL(p <= 18) in units of its scale
						break
					}
					t, o := addInt64(sumI, x)
					if o && w.fn == "sum" {
						return errorf("%s: integer overflow", w.text)
					}
					sumI = t
				case value.Decimal:
					sumD.addDecimal(x, w.t.Scale)
				case float64:
					sumF += x
				}
				if w.fn == "min" || w.fn == "max" {
					if ext == nil {
						ext = v
					} else if c := compareScalars(ac[0].T, v, ext); w.fn == "min" && c < 0 || w.fn == "max" && c > 0 {
						ext = v
					}
				}
			}
			var v any
			switch w.fn {
			case "count":
				v = cnt
			case "sum":
				if cnt > 0 {
					switch w.t.Kind {
					case KFloat:
						v = sumF
					case KDecimal:
						v = sumD.value(w.t.Scale)
					default:
						v = sumI
					}
				}
			case "avg":
				if cnt > 0 {
					v = sumF / float64(cnt)
				}
			default:
				v = ext
			}
			res[rows[k]] = v
		}
	}
	return nil
}

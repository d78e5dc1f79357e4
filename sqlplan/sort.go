package sqlplan

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// sortKey orders by one column of the batches; NULLs sort last in both
// directions (as in DuckDB) unless NULLS FIRST is asked.
type sortKey struct {
	col        int
	desc       bool
	nullsFirst bool // NULLs sort last unless asked
	text       string
}

// orderMods are what an ORDER BY item says of its direction and NULLs
// beyond the parser's ASC/DESC: written ASC (parse.AscMarker), NULLS FIRST (1)
// or NULLS LAST (-1) (the rewrite wraps the item in markers).
type orderMods struct {
	asc   bool
	nulls int8
}

// orderItem splits an ORDER BY item into its expression and what it
// says of its order (the rewrite wraps it in parse.NullsFirstMarker,
// parse.NullsLastMarker, parse.AscMarker).
func orderItem(o *sqlparser.Order) (sqlparser.Expr, orderMods) {
	var m orderMods
	e := o.Expr
	for {
		f, ok := e.(*sqlparser.FuncExpr)
		if !ok || len(f.Exprs) != 1 || !f.Qualifier.IsEmpty() {
			return e, m
		}
		ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
		if !ok {
			return e, m
		}
		switch f.Name.Lowered() {
		case parse.NullsFirstMarker:
			m.nulls = 1
		case parse.NullsLastMarker:
			m.nulls = -1
		case parse.AscMarker:
			m.asc = true
		default:
			return e, m
		}
		e = ae.Expr
	}
}

// orderKey is an ORDER BY item's expression, direction and NULL
// placement under the statement's settings (default_order,
// default_null_order).
func (p *planner) orderKey(o *sqlparser.Order) (item sqlparser.Expr, desc, nullsFirst bool) {
	item, m := orderItem(o)
	dir := int8(0)
	switch {
	case o.Direction == sqlparser.DescScr:
		dir = -1
	case m.asc:
		dir = 1
	}
	desc, nullsFirst = p.set.resolveOrder(dir, m.nulls)
	return item, desc, nullsFirst
}

// resolveOrder is the direction and NULL placement of an ORDER BY item
// that says dir (1 ASC, -1 DESC, 0 nothing) and nulls (1 NULLS FIRST, -1
// NULLS LAST, 0 nothing).
func (s *settings) resolveOrder(dir, nulls int8) (desc, nullsFirst bool) {
	desc = dir < 0 || dir == 0 && s.orderDesc
	return desc, s.nullsFirst(desc, nulls)
}

func firstOf(e sqlparser.Expr, _ orderMods) sqlparser.Expr { return e }

// compareRows orders row i of a against row j of b by the keys.
func compareRows(keys []sortKey, a []*Col, i int, b []*Col, j int) int {
	for _, k := range keys {
		ca, cb := a[k.col], b[k.col]
		an, bn := ca.IsNull(i), cb.IsNull(j)
		var c int
		switch {
		case an && bn:
			continue
		case an:
			if k.nullsFirst {
				return -1
			}
			return 1
		case bn:
			if k.nullsFirst {
				return 1
			}
			return -1
		default:
			c = compareAt(ca, i, cb, j)
		}
		if c != 0 {
			if k.desc {
				return -c
			}
			return c
		}
	}
	return 0
}

// sortNode sorts its input; with a limit it keeps only the top rows in a
// heap instead of materializing everything.
type sortNode struct {
	in    node
	keys  []sortKey
	limit int64 // rows needed (limit+offset), -1 for all
	types []Type
	out   *Batch
	pos   int
	mem   opMemory // the rows sorted (memory.go)
}

func (n *sortNode) memory() *opMemory { return &n.mem }

const outBatch = 4096

func (n *sortNode) next(ctx context.Context) (*Batch, error) {
	if n.out == nil {
		var err error
		if n.limit >= 0 && n.limit <= 100000 {
			n.out, err = n.topN(ctx)
		} else {
			n.out, err = n.sortAll(ctx)
		}
		if err != nil {
			return nil, err
		}
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

func (n *sortNode) sortAll(ctx context.Context) (*Batch, error) {
	all, err := drainHeld(ctx, n.in, n.types, &n.mem, func() string { return "sort" })
	if err != nil {
		return nil, err
	}
	idx := make([]int32, all.N)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int {
		return compareRows(n.keys, all.Cols, int(a), all.Cols, int(b))
	})
	return takeBatch(all, idx), nil
}

// topHeap is a max-heap (by sort order) of row indices into kept.
type topHeap struct {
	keys []sortKey
	kept []*Col
	idx  []int32
}

func (h *topHeap) Len() int { return len(h.idx) }
func (h *topHeap) Less(a, b int) bool {
	return compareRows(h.keys, h.kept, int(h.idx[a]), h.kept, int(h.idx[b])) > 0
}
func (h *topHeap) Swap(a, b int) { h.idx[a], h.idx[b] = h.idx[b], h.idx[a] }
func (h *topHeap) Push(x any)    { h.idx = append(h.idx, x.(int32)) }
func (h *topHeap) Pop() any {
	x := h.idx[len(h.idx)-1]
	h.idx = h.idx[:len(h.idx)-1]
	return x
}

func (n *sortNode) topN(ctx context.Context) (*Batch, error) {
	k := int(n.limit)
	h := &topHeap{keys: n.keys, kept: make([]*Col, len(n.types))}
	for i, t := range n.types {
		h.kept[i] = emptyCol(t)
	}
	keptN := 0
	for {
		b, err := n.in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			continue
		}
		// The batch's own top k rows that beat the current worst are
		// found with a heap over the batch, so at most k rows are copied.
		local := &topHeap{keys: n.keys, kept: b.Cols}
		for i := 0; i < b.N; i++ {
			if h.Len() >= k && compareRows(n.keys, b.Cols, i, h.kept, int(h.idx[0])) >= 0 {
				continue
			}
			if local.Len() < k {
				heap.Push(local, int32(i))
			} else if compareRows(n.keys, b.Cols, i, b.Cols, int(local.idx[0])) < 0 {
				local.idx[0] = int32(i)
				heap.Fix(local, 0)
			}
		}
		cand := local.idx
		slices.Sort(cand)
		if len(cand) == 0 {
			continue
		}
		sub := takeBatch(b, cand)
		for c := range h.kept {
			appendCol(h.kept[c], sub.Cols[c])
		}
		for i := 0; i < sub.N; i++ {
			row := int32(keptN + i)
			if h.Len() < k {
				heap.Push(h, row)
			} else if compareRows(n.keys, h.kept, int(row), h.kept, int(h.idx[0])) < 0 {
				h.idx[0] = row
				heap.Fix(h, 0)
			}
		}
		keptN += sub.N
		if keptN > 4*k+8192 {
			// Compact: keep only the heap's rows.
			kb := takeBatch(&Batch{Cols: h.kept, N: keptN}, h.idx)
			h.kept = kb.Cols
			for i := range h.idx {
				h.idx[i] = int32(i)
			}
			heap.Init(h)
			keptN = kb.N
		}
		if err := n.mem.set(ctx, batchBytes(&Batch{Cols: h.kept}), func() string { return "top-N" }); err != nil {
			return nil, err
		}
	}
	rows := append([]int32(nil), h.idx...)
	slices.SortStableFunc(rows, func(a, b int32) int {
		if c := compareRows(n.keys, h.kept, int(a), h.kept, int(b)); c != 0 {
			return c
		}
		return int(a - b)
	})
	return takeBatch(&Batch{Cols: h.kept, N: keptN}, rows), nil
}

func (n *sortNode) close() {
	n.mem.release()
	n.in.close()
}

func (n *sortNode) explain(x *explainer, depth int) {
	var parts []string
	for _, k := range n.keys {
		d := "ASC"
		if k.desc {
			d = "DESC"
		}
		if k.nullsFirst {
			d += " NULLS FIRST"
		}
		parts = append(parts, fmt.Sprintf("%s %s", k.text, d))
	}
	if n.limit >= 0 && n.limit <= 100000 {
		x.line(depth, "TOP-N %d (heap) by %s", n.limit, strings.Join(parts, ", "))
	} else {
		x.line(depth, "SORT by %s", strings.Join(parts, ", "))
	}
	n.in.explain(x, depth+1)
}

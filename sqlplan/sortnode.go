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
	return nextSlice(n.out, &n.pos)
}

func (n *sortNode) sortAll(ctx context.Context) (*Batch, error) {
	all, err := drainHeld(ctx, n.in, n.types, &n.mem, func() string { return "sort" })
	if err != nil {
		return nil, err
	}
	return takeBatch(all, sortRows(n.keys, all.Cols, all.N)), nil
}

func (n *sortNode) topN(ctx context.Context) (*Batch, error) {
	k := int(n.limit)
	h := &topHeap{Keys: n.keys, Kept: make([]*Col, len(n.types))}
	for i, t := range n.types {
		h.Kept[i] = emptyCol(t)
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
		local := &topHeap{Keys: n.keys, Kept: b.Cols}
		for i := 0; i < b.N; i++ {
			if h.Len() >= k && compareRows(n.keys, b.Cols, i, h.Kept, int(h.Idx[0])) >= 0 {
				continue
			}
			if local.Len() < k {
				heap.Push(local, int32(i))
			} else if compareRows(n.keys, b.Cols, i, b.Cols, int(local.Idx[0])) < 0 {
				local.Idx[0] = int32(i)
				heap.Fix(local, 0)
			}
		}
		cand := local.Idx
		slices.Sort(cand)
		if len(cand) == 0 {
			continue
		}
		sub := takeBatch(b, cand)
		for c := range h.Kept {
			appendCol(h.Kept[c], sub.Cols[c])
		}
		for i := 0; i < sub.N; i++ {
			row := int32(keptN + i)
			if h.Len() < k {
				heap.Push(h, row)
			} else if compareRows(n.keys, h.Kept, int(row), h.Kept, int(h.Idx[0])) < 0 {
				h.Idx[0] = row
				heap.Fix(h, 0)
			}
		}
		keptN += sub.N
		if keptN > 4*k+8192 {
			// Compact: keep only the heap's rows.
			kb := takeBatch(&Batch{Cols: h.Kept, N: keptN}, h.Idx)
			h.Kept = kb.Cols
			for i := range h.Idx {
				h.Idx[i] = int32(i)
			}
			heap.Init(h)
			keptN = kb.N
		}
		if err := n.mem.Set(ctx, batchBytes(&Batch{Cols: h.Kept}), func() string { return "top-N" }); err != nil {
			return nil, err
		}
	}
	rows := append([]int32(nil), h.Idx...)
	slices.SortStableFunc(rows, func(a, b int32) int {
		if c := compareRows(n.keys, h.Kept, int(a), h.Kept, int(b)); c != 0 {
			return c
		}
		return int(a - b)
	})
	return takeBatch(&Batch{Cols: h.Kept, N: keptN}, rows), nil
}

func (n *sortNode) close() {
	n.mem.Release()
	n.in.close()
}

func (n *sortNode) explain(x *explainer, depth int) {
	var parts []string
	for _, k := range n.keys {
		d := "ASC"
		if k.Desc {
			d = "DESC"
		}
		if k.NullsFirst {
			d += " NULLS FIRST"
		}
		parts = append(parts, fmt.Sprintf("%s %s", k.Text, d))
	}
	if n.limit >= 0 && n.limit <= 100000 {
		x.line(depth, "TOP-N %d (heap) by %s", n.limit, strings.Join(parts, ", "))
	} else {
		x.line(depth, "SORT by %s", strings.Join(parts, ", "))
	}
	n.in.explain(x, depth+1)
}

// nextSlice returns the rows of a materialized result from *pos on, at
// most outBatch of them, and moves *pos past them; io.EOF at the end.
func nextSlice(out *Batch, pos *int) (*Batch, error) {
	if *pos >= out.N {
		return nil, io.EOF
	}
	end := min(*pos+outBatch, out.N)
	idx := make([]int32, 0, end-*pos)
	for i := *pos; i < end; i++ {
		idx = append(idx, int32(i))
	}
	*pos = end
	if len(idx) == out.N {
		return out, nil
	}
	return takeBatch(out, idx), nil
}

package exec

import (
	"container/heap"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TopNMax is the largest number of rows a Sort keeps in a heap rather
// than sorting its whole input.
const TopNMax = 100000

// Sort sorts its input by Keys; with a limit it keeps only the top rows
// in a heap instead of materializing everything.
type Sort struct {
	In    Node
	Keys  []SortKey
	Limit int64 // rows needed (limit+offset), -1 for all
	Types []vec.Type
	Cast  CastFunc // for an input column of another storage than Types
	out   *vec.Batch
	pos   int
	mem   OpMemory // the rows sorted (memory.go)
}

func (n *Sort) Memory() *OpMemory { return &n.mem }

func (n *Sort) Next(ctx context.Context) (*vec.Batch, error) {
	if n.out == nil {
		var err error
		if n.topN() {
			n.out, err = n.top(ctx)
		} else {
			n.out, err = n.sortAll(ctx)
		}
		if err != nil {
			return nil, err
		}
	}
	return NextSlice(n.out, &n.pos)
}

// topN reports whether the sort keeps a heap of its top rows.
func (n *Sort) topN() bool { return n.Limit >= 0 && n.Limit <= TopNMax }

func (n *Sort) sortAll(ctx context.Context) (*vec.Batch, error) {
	all, err := DrainHeld(ctx, n.In, n.Types, n.Cast, &n.mem, func() string { return "sort" })
	if err != nil {
		return nil, err
	}
	return TakeBatch(all, SortRows(n.Keys, all.Cols, all.N)), nil
}

func (n *Sort) top(ctx context.Context) (*vec.Batch, error) {
	k := int(n.Limit)
	h := &TopHeap{Keys: n.Keys, Kept: make([]*vec.Col, len(n.Types))}
	for i, t := range n.Types {
		h.Kept[i] = vec.EmptyCol(t)
	}
	keptN := 0
	for {
		b, err := n.In.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if k == 0 {
			continue
		}
		sub := n.batchTop(h, b, k)
		if sub == nil {
			continue
		}
		for c := range h.Kept {
			vec.AppendCol(h.Kept[c], sub.Cols[c])
		}
		for i := 0; i < sub.N; i++ {
			row := int32(keptN + i)
			if h.Len() < k {
				heap.Push(h, row)
			} else if CompareRows(n.Keys, h.Kept, int(row), h.Kept, int(h.Idx[0])) < 0 {
				h.Idx[0] = row
				heap.Fix(h, 0)
			}
		}
		keptN += sub.N
		if keptN > 4*k+8192 {
			// Compact: keep only the heap's rows.
			kb := TakeBatch(&vec.Batch{Cols: h.Kept, N: keptN}, h.Idx)
			h.Kept = kb.Cols
			for i := range h.Idx {
				h.Idx[i] = int32(i)
			}
			heap.Init(h)
			keptN = kb.N
		}
		if err := n.mem.Set(ctx, BatchBytes(&vec.Batch{Cols: h.Kept}), func() string { return "top-N" }); err != nil {
			return nil, err
		}
	}
	rows := append([]int32(nil), h.Idx...)
	slices.SortStableFunc(rows, func(a, b int32) int {
		if c := CompareRows(n.Keys, h.Kept, int(a), h.Kept, int(b)); c != 0 {
			return c
		}
		return int(a - b)
	})
	return TakeBatch(&vec.Batch{Cols: h.Kept, N: keptN}, rows), nil
}

// batchTop is the batch's own top k rows that beat the current worst of
// h, found with a heap over the batch, so that at most k rows are copied
// (nil if none).
func (n *Sort) batchTop(h *TopHeap, b *vec.Batch, k int) *vec.Batch {
	local := &TopHeap{Keys: n.Keys, Kept: b.Cols}
	for i := 0; i < b.N; i++ {
		if h.Len() >= k && CompareRows(n.Keys, b.Cols, i, h.Kept, int(h.Idx[0])) >= 0 {
			continue
		}
		if local.Len() < k {
			heap.Push(local, int32(i))
		} else if CompareRows(n.Keys, b.Cols, i, b.Cols, int(local.Idx[0])) < 0 {
			local.Idx[0] = int32(i)
			heap.Fix(local, 0)
		}
	}
	cand := local.Idx
	slices.Sort(cand)
	if len(cand) == 0 {
		return nil
	}
	return TakeBatch(b, cand)
}

func (n *Sort) Close() {
	n.mem.Release()
	n.In.Close()
}

func (n *Sort) Explain(x *Explainer, depth int) {
	var parts []string
	for _, k := range n.Keys {
		d := "ASC"
		if k.Desc {
			d = "DESC"
		}
		if k.NullsFirst {
			d += " NULLS FIRST"
		}
		parts = append(parts, fmt.Sprintf("%s %s", k.Text, d))
	}
	if n.topN() {
		x.Line(depth, "TOP-N %d (heap) by %s", n.Limit, strings.Join(parts, ", "))
	} else {
		x.Line(depth, "SORT by %s", strings.Join(parts, ", "))
	}
	n.In.Explain(x, depth+1)
}

package exec

import (
	"slices"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Frames with EXCLUDE. A frame less the rows its EXCLUDE clause leaves
// out (the current row, its peer group, or its peers but not itself) is at
// most three runs of positions, in window order (frameSpans). The kernels
// read such frames as follows: count and the exact sums add their prefix
// differences over the runs (O(1) a row, as without EXCLUDE); float sums,
// min and max query a segment tree per run (O(log n) a row), since a
// frame less a hole is no longer one running or sliding window;
// first_value, last_value and nth_value walk the runs; the accumulator
// aggregates are fed the runs' rows, one accumulator per distinct frame.

// span is the run [s, e) of a partition's positions.
type span struct{ s, e int }

// excludes: the call's frame has an EXCLUDE clause that leaves rows out.
func (w *WindowCall) excludes() bool { return w.Frame != nil && w.Frame.Exclude != 0 }

// frameSpans returns position k's frame less the rows f's EXCLUDE leaves
// out, as non-empty runs in window order, written into buf (which has
// room for three). Without EXCLUDE it is the frame itself, one run or
// none.
func (p *winPart) frameSpans(f *WinFrame, k int, buf []span) []span {
	fs, fe := p.frame(f, k)
	var cuts [2]span
	nc := 0
	if f != nil {
		switch f.Exclude {
		case 'c':
			cuts[0], nc = span{k, k + 1}, 1
		case 'g':
			cuts[0], nc = span{p.start[k], p.end[k]}, 1
		case 't':
			cuts[0], cuts[1], nc = span{p.start[k], k}, span{k + 1, p.end[k]}, 2
		}
	}
	out := buf[:0]
	at := fs
	for _, c := range cuts[:nc] {
		if e := min(c.s, fe); e > at {
			out = append(out, span{at, e})
		}
		at = max(at, c.e)
	}
	if fe > at {
		out = append(out, span{at, fe})
	}
	return out
}

// spansCount is the number of positions of spans counted by the prefix
// counts cnt (cnt[k] for positions [0, k)).
func spansCount(spans []span, cnt []int64) int64 {
	var c int64
	for _, sp := range spans {
		c += cnt[sp.e] - cnt[sp.s]
	}
	return c
}

// pickInSpans is the position first_value, last_value or nth_value picks
// from the frame's runs (non-NULL values only under IGNORE NULLS), or -1.
func (w *WindowCall) pickInSpans(p *winPart, arg *vec.Col, spans []span) int {
	keep := func(j int) bool { return !w.IgnoreNulls || !arg.IsNull(int(p.rows[j])) }
	if w.Fn == "last_value" {
		for i := len(spans) - 1; i >= 0; i-- {
			for j := spans[i].e - 1; j >= spans[i].s; j-- {
				if keep(j) {
					return j
				}
			}
		}
		return -1
	}
	nth := int64(1)
	if w.Fn == "nth_value" {
		nth = w.Param
	}
	for _, sp := range spans {
		if !w.IgnoreNulls {
			// Every row counts: skip the whole run when it is too short.
			if n := int64(sp.e - sp.s); nth > n {
				nth -= n
				continue
			}
			return sp.s + int(nth) - 1
		}
		for j := sp.s; j < sp.e; j++ {
			if keep(j) {
				if nth--; nth == 0 {
					return j
				}
			}
		}
	}
	return -1
}

// frameValueExcluded picks first_value's, last_value's or nth_value's row
// of each row's frame less its excluded rows.
func (w *WindowCall) frameValueExcluded(p *winPart, arg *vec.Col, src []int32) {
	var buf [3]span
	for k, r := range p.rows {
		src[r] = srcNull
		if j := w.pickInSpans(p, arg, p.frameSpans(w.Frame, k, buf[:])); j >= 0 {
			src[r] = p.rows[j]
		}
	}
}

// segTree is a segment tree over a partition's positions: query joins the
// leaves of a run in position order in O(log n) (join need not commute).
type segTree[T any] struct {
	n    int
	node []T // node[n+i] is leaf i; node[i] joins node[2i] and node[2i+1]
	zero T
	join func(a, b T) T
}

func newSegTree[T any](leaves []T, zero T, join func(a, b T) T) *segTree[T] {
	n := len(leaves)
	t := &segTree[T]{n: n, node: make([]T, 2*n), zero: zero, join: join}
	copy(t.node[n:], leaves)
	for i := n - 1; i >= 1; i-- {
		t.node[i] = join(t.node[2*i], t.node[2*i+1])
	}
	return t
}

// query joins the leaves [l, r).
func (t *segTree[T]) query(l, r int) T {
	left, right := t.zero, t.zero
	for l, r = l+t.n, r+t.n; l < r; l, r = l>>1, r>>1 {
		if l&1 == 1 {
			left = t.join(left, t.node[l])
			l++
		}
		if r&1 == 1 {
			r--
			right = t.join(t.node[r], right)
		}
	}
	return t.join(left, right)
}

// spansQuery joins the tree's leaves over the runs, in order.
func spansQuery[T any](t *segTree[T], spans []span) T {
	acc := t.zero
	for _, sp := range spans {
		acc = t.join(acc, t.query(sp.s, sp.e))
	}
	return acc
}

// floatFramesExcluded writes sum or avg of floats over each row's frame
// less its excluded rows: a tree of partial sums (NULLs add nothing) and
// the prefix counts of values.
func (w *WindowCall) floatFramesExcluded(p *winPart, arg *vec.Col, o *winOutput) {
	cnt := o.counts(p, arg, false)
	leaves := make([]float64, len(p.rows))
	for k, r := range p.rows {
		if !arg.IsNull(int(r)) {
			leaves[k] = arg.F[r]
		}
	}
	tree := newSegTree(leaves, 0, func(a, b float64) float64 { return a + b })
	var buf [3]span
	for k, r := range p.rows {
		spans := p.frameSpans(w.Frame, k, buf[:])
		c := spansCount(spans, cnt)
		switch {
		case c == 0:
			o.out.SetNull(int(r))
		case w.Fn == "avg":
			o.out.F[r] = spansQuery(tree, spans) / float64(c)
		default:
			o.out.F[r] = spansQuery(tree, spans)
		}
	}
}

// frameExtremesExcluded picks min's or max's row of each row's frame less
// its excluded rows from a tree of each run's best row (the first of
// equal values, by the aggregate's order).
func (w *WindowCall) frameExtremesExcluded(p *winPart, arg *vec.Col, src []int32) {
	sign := 1
	if w.Fn == "min" {
		sign = -1
	}
	leaves := make([]int32, len(p.rows))
	for k, r := range p.rows {
		leaves[k] = r
		if arg.IsNull(int(r)) {
			leaves[k] = srcNull
		}
	}
	better := func(a, b int32) int32 {
		if a < 0 || b >= 0 && sign*function.ExtremeColCmp(arg, int(b), arg, int(a)) > 0 {
			return b
		}
		return a
	}
	tree := newSegTree(leaves, int32(srcNull), better)
	var buf [3]span
	for k, r := range p.rows {
		src[r] = spansQuery(tree, p.frameSpans(w.Frame, k, buf[:]))
	}
}

// accFramesSorted runs an aggregate's accumulator over each row's frame
// less its excluded rows, feeding the rows sorted by the aggregate's own
// ORDER BY when it has one (stably: rows of equal keys in window order).
// Neither such frame grows from the previous one, so each distinct frame
// gets a fresh accumulator: the frame's width (and a sort) per row, where
// the frame changes. Rows of one partition without ORDER BY share one
// frame, aggregated once.
func (w *WindowCall) accFramesSorted(p *winPart, in *WindowCols, res []*vec.Col) error {
	var buf [3]span
	var prevSpans []span
	var prev *vec.Col
	var sel []int32
	for k, r := range p.rows {
		spans := p.frameSpans(w.Frame, k, buf[:])
		if prev == nil || !slices.Equal(spans, prevSpans) {
			sel = sel[:0]
			for _, sp := range spans {
				sel = append(sel, p.rows[sp.s:sp.e]...)
			}
			if w.Agg.Order != nil {
				keys, cols := w.Agg.OrderKeys, in.AggOrder
				slices.SortStableFunc(sel, func(a, b int32) int { return CompareRows(keys, cols, int(a), cols, int(b)) })
			}
			acc := function.NewAccumulator(&w.Agg.AggCall)
			feedRows(acc, in, sel)
			if err := function.AccError(acc); err != nil {
				return err
			}
			// a copy: an accumulator may reuse its result's buffers
			prev = acc.Result(1).Take([]int32{0})
			prevSpans = append(prevSpans[:0], spans...)
		}
		res[r] = prev
	}
	return nil
}

package sqlplan

import (
	"context"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"io"
	"sync"
)

// joinNode is a hash join (inner, left, right or full outer) of a left
// input with a right relation, which it builds into a hash table; without
// equality keys it is a nested-loop (cross) join. Batches are laid out
// with the left columns first and the right relation's columns from
// offset leftWidth. A right or full outer join remembers the right rows
// that matched and, after the left input, adds the others with NULL left
// columns (of leftTypes).
type joinNode struct {
	left, right node
	leftWidth   int
	rightTypes  []Type
	lkeys       []expr // evaluated on left batches
	rkeys       []expr // evaluated on right batches placed at leftWidth
	cond        expr   // the rest of ON, evaluated on joined rows
	leftOuter   bool   // keeps the left rows without a partner
	rightOuter  bool   // keeps the right rows without a partner
	leftTypes   []Type // right outer join: the left columns' types

	// keep marks the joined columns read above the join (nil: all); the
	// others come out as dropped columns, not gathered (joinKeeps).
	keep []bool

	rmatched  []bool // right outer join: right rows that found a partner
	rightDone bool   // right outer join: the unmatched right rows were sent

	built    bool
	buildErr error
	condOnce sync.Once
	condCols []bool // the columns cond reads (condSlots; nil: all)
	rall     *Batch
	table    *rowTable  // the right rows by key
	intKey   bool       // table keys one integer column
	packer   *keyPacker // table keys several integer columns packed into one
	// reduced lists the outer values each correlated subquery of rkeys
	// was restricted to (reduceOnBuild), for EXPLAIN ANALYZE.
	reduced []int

	// pending is a left batch a nested-loop join probes in slices,
	// from row pendingAt on.
	pending   *Batch
	pendingAt int

	mem opMemory // the build side's rows and table (memory.go)
}

func (n *joinNode) Memory() *opMemory { return &n.mem }

// buildWhat names the build side in a memory_limit error.
func (n *joinNode) buildWhat() string {
	if len(n.rkeys) == 0 {
		return "nested-loop join's right side"
	}
	return "hash join build side on " + exprList(n.rkeys)
}

// crossChunk bounds the row pairs a nested-loop join builds at a time: a
// left batch whose cross product with the right side is larger is probed
// a slice of its rows at a time. A right side of more than maxCrossRight
// rows is refused (one left row would pair with all of them at once).
const (
	crossChunk    = 1 << 20
	maxCrossRight = 8 << 20
)

func (n *joinNode) build(ctx context.Context) error {
	all, err := drainHeld(ctx, n.right, n.rightTypes, &n.mem, n.buildWhat)
	if err != nil {
		return err
	}
	n.rall = all
	if len(n.rkeys) == 0 {
		return nil
	}
	padded := &Batch{N: all.N, Cols: make([]*Col, n.leftWidth+len(all.Cols))}
	copy(padded.Cols[n.leftWidth:], all.Cols)
	if n.reduced, err = reduceOnBuild(n.rkeys, padded); err != nil {
		return err
	}
	keys := make([]*Col, len(n.rkeys))
	for i, k := range n.rkeys {
		if keys[i], err = k.Eval(padded); err != nil {
			return err
		}
	}
	for j, k := range keys {
		n.filterProbe(j, k, all.N)
	}
	if len(keys) == 1 && keys[0].I != nil && keys[0].Dict == nil {
		n.table, n.intKey = kernels.BuildInts(keys[0], all.N), true
	} else if pk, ok := newKeyPacker(keys, n.lkeys, all.N); ok {
		n.table, n.packer, n.intKey = kernels.BuildInts(pk.Pack(keys, all.N), all.N), pk, true
	} else {
		n.table = kernels.BuildKeys(keys, all.N)
	}
	return n.mem.Add(ctx, n.table.Bytes(), n.buildWhat)
}

// prepare builds the hash table of the right side, once.
func (n *joinNode) prepare(ctx context.Context) error {
	if !n.built {
		n.built = true
		n.buildErr = n.build(ctx)
	}
	return n.buildErr
}

// probeConcurrently reports whether probe may run on several left batches
// at once: an equality join whose right side's unmatched rows need no
// bookkeeping, with expressions that can.
func (n *joinNode) probeConcurrently() bool {
	if len(n.lkeys) == 0 || n.rightOuter || n.cond != nil && !concurrentSafe(n.cond) {
		return false
	}
	for _, k := range n.lkeys {
		if !concurrentSafe(k) {
			return false
		}
	}
	return true
}

func (n *joinNode) Next(ctx context.Context) (*Batch, error) {
	if err := n.prepare(ctx); err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.nextLeft(ctx)
		if err == io.EOF && n.rightOuter && !n.rightDone {
			n.rightDone = true
			if out := n.unmatchedRight(); out.N > 0 {
				return out, nil
			}
		}
		if err != nil {
			return nil, err
		}
		out, err := n.probe(b)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// nextLeft returns the next left rows to probe: the next left batch, or
// for a nested-loop join whose pairs would exceed crossChunk, the next
// slice of it.
func (n *joinNode) nextLeft(ctx context.Context) (*Batch, error) {
	if len(n.lkeys) == 0 && n.rall.N > maxCrossRight {
		return nil, errorf("the nested-loop join's right side has %d rows, more than %d (give the join an equality condition, or put the larger input on the left)", n.rall.N, maxCrossRight)
	}
	if n.pending == nil {
		b, err := n.left.Next(ctx)
		if err != nil || len(n.lkeys) > 0 || int64(b.N)*int64(n.rall.N) <= crossChunk {
			return b, err
		}
		n.pending, n.pendingAt = b, 0
	}
	end := min(n.pending.N, n.pendingAt+max(1, crossChunk/max(n.rall.N, 1)))
	rows := make([]int32, 0, end-n.pendingAt)
	for i := n.pendingAt; i < end; i++ {
		rows = append(rows, int32(i))
	}
	part := kernels.TakeBatch(n.pending, rows)
	if n.pendingAt = end; end == n.pending.N {
		n.pending = nil
	}
	return part, nil
}

func (n *joinNode) probe(b *Batch) (*Batch, error) {
	li, ri, err := n.pairs(b)
	if err != nil {
		return nil, err
	}
	return n.finish(b, li, ri)
}

// pairs lists the (left row, right row) pairs whose keys match, or all of
// them without keys.
func (n *joinNode) pairs(b *Batch) (li, ri []int32, err error) {
	if len(n.lkeys) == 0 {
		li, ri = make([]int32, 0, b.N*n.rall.N), make([]int32, 0, b.N*n.rall.N)
		for i := 0; i < b.N; i++ {
			for j := 0; j < n.rall.N; j++ {
				li, ri = append(li, int32(i)), append(ri, int32(j))
			}
		}
	} else {
		keys := make([]*Col, len(n.lkeys))
		for i, k := range n.lkeys {
			c, err := k.Eval(b)
			if err != nil {
				return nil, nil, err
			}
			keys[i] = c
		}
		if n.packer != nil {
			keys[0] = n.packer.Pack(keys, b.N)
		}
		if n.intKey {
			k := keys[0].Decoded()
			if len(k.I) < b.N { // no int64s: only NULLs, which match nothing
				return li, ri, nil
			}
			li, ri = n.table.ProbeInts(k.I[:b.N], k.Null)
			return li, ri, nil
		}
		var buf []byte
		for i := 0; i < b.N; i++ {
			var ok bool
			if buf, ok = kernels.JoinKey(buf, keys, i); ok {
				li, ri = n.table.AppendKeyMatches(li, ri, i, buf)
			}
		}
	}
	return li, ri, nil
}

// finish builds the joined batch of the pairs, keeps those that meet the
// condition, and adds the unmatched rows of an outer join.
func (n *joinNode) finish(b *Batch, li, ri []int32) (*Batch, error) {
	if n.cond != nil {
		// The condition sees the pairs' columns it reads; the joined
		// batch is built for the pairs that meet it.
		c, err := n.cond.Eval(n.joinedSlots(b, li, ri, n.condSlots()))
		if err != nil {
			return nil, err
		}
		k := 0
		for j := range li {
			if c.B[j] && !c.IsNull(j) {
				li[k], ri[k] = li[j], ri[j]
				k++
			}
		}
		li, ri = li[:k], ri[:k]
	}
	out := n.joined(b, li, ri)
	if n.rightOuter {
		if n.rmatched == nil {
			n.rmatched = make([]bool, n.rall.N)
		}
		for _, r := range ri {
			n.rmatched[r] = true
		}
	}
	if !n.leftOuter {
		return out, nil
	}
	matched := make([]bool, b.N)
	for _, l := range li {
		matched[l] = true
	}
	var ul []int32
	for i := 0; i < b.N; i++ {
		if !matched[i] {
			ul = append(ul, int32(i))
		}
	}
	if len(ul) == 0 {
		return out, nil
	}
	ur := make([]int32, len(ul))
	for i := range ur {
		ur[i] = -1
	}
	extra := n.joined(b, ul, ur)
	for i := range out.Cols {
		appendCol(out.Cols[i], extra.Cols[i])
	}
	out.N += extra.N
	return out, nil
}

// unmatchedRight is the batch of the right rows no left row matched, with
// NULL left columns.
func (n *joinNode) unmatchedRight() *Batch {
	var ri []int32
	for r := 0; r < n.rall.N; r++ {
		if n.rmatched == nil || !n.rmatched[r] {
			ri = append(ri, int32(r))
		}
	}
	out := &Batch{N: len(ri), Cols: make([]*Col, n.leftWidth+len(n.rightTypes))}
	for i, t := range n.leftTypes {
		out.Cols[i] = nullCol(t, len(ri))
	}
	for j := range n.rightTypes {
		out.Cols[n.leftWidth+j] = n.rall.Cols[j].Take(ri)
	}
	return out
}

// condSlots marks the joined batch's columns the condition reads, once.
func (n *joinNode) condSlots() []bool {
	n.condOnce.Do(func() {
		if !concurrentSafe(n.cond) {
			return // kinds whose inputs children may not list: every column
		}
		n.condCols = make([]bool, n.leftWidth+len(n.rightTypes))
		var walk func(e expr)
		walk = func(e expr) {
			if c, ok := e.(*colExpr); ok && c.s.idx >= 0 && c.s.idx < len(n.condCols) {
				n.condCols[c.s.idx] = true
			}
			for _, ch := range children(e) {
				walk(ch)
			}
		}
		walk(n.cond)
	})
	return n.condCols
}

// joined builds the batch of row pairs (ri -1: no right row), with the
// columns nothing above reads dropped.
func (n *joinNode) joined(b *Batch, li, ri []int32) *Batch {
	out := n.joinedSlots(b, li, ri, n.keep)
	if n.keep != nil {
		for i, c := range out.Cols {
			if c != nil {
				continue
			}
			if i < n.leftWidth {
				out.Cols[i] = droppedCol(b.Cols[i].T, len(li))
			} else {
				out.Cols[i] = droppedCol(n.rightTypes[i-n.leftWidth], len(li))
			}
		}
	}
	return out
}

// joinedSlots is joined with only the columns marked in only (all when
// nil); the others are nil.
func (n *joinNode) joinedSlots(b *Batch, li, ri []int32, only []bool) *Batch {
	out := &Batch{N: len(li), Cols: make([]*Col, n.leftWidth+len(n.rightTypes))}
	// Each left row matched once, in order (a probe of unique keys that
	// the key filter below already narrowed to the matching rows): the
	// left columns are the output's as they are, not copied. A scratch
	// column is copied all the same, as an expression above may give it
	// back to its pool.
	same := isIdentity(li, b.N)
	for i := 0; i < n.leftWidth; i++ {
		if only == nil || only[i] {
			if c := b.Cols[i]; same && !c.Scratch {
				out.Cols[i] = c
			} else {
				out.Cols[i] = c.Take(li)
			}
		}
	}
	safe := make([]int32, len(ri))
	anyMissing := false
	for k, r := range ri {
		if r < 0 {
			anyMissing = true
		} else {
			safe[k] = r
		}
	}
	for j, t := range n.rightTypes {
		if only != nil && !only[n.leftWidth+j] {
			continue
		}
		var c *Col
		if n.rall.N == 0 {
			c = nullCol(t, len(ri))
		} else {
			c = n.rall.Cols[j].Take(safe)
			if anyMissing {
				for k, r := range ri {
					if r < 0 {
						c.SetNull(k)
					}
				}
			}
		}
		out.Cols[n.leftWidth+j] = c
	}
	return out
}

// isIdentity reports whether idx is 0, 1, ..., n-1.
func isIdentity(idx []int32, n int) bool {
	if len(idx) != n {
		return false
	}
	for k, i := range idx {
		if int(i) != k {
			return false
		}
	}
	return true
}

func (n *joinNode) Close() {
	n.mem.Release()
	n.left.Close()
	n.right.Close()
}

func (n *joinNode) Explain(x *explainer, depth int) {
	kind := "INNER"
	switch {
	case n.rightOuter && n.leftOuter:
		kind = "FULL"
	case n.rightOuter:
		kind = "RIGHT"
	case n.leftOuter:
		kind = "LEFT"
	}
	switch {
	case len(n.lkeys) > 0:
		x.Line(depth, "HASH JOIN %s on %s = %s", kind, exprList(n.lkeys), exprList(n.rkeys))
	default:
		x.Line(depth, "NESTED LOOP JOIN %s", kind)
	}
	if n.cond != nil {
		x.Line(depth+1, "join condition: %s", n.cond)
	}
	for _, k := range n.reduced {
		x.Line(depth+1, "correlated subquery of the build keys restricted to %d outer keys", k)
	}
	n.left.Explain(x, depth+1)
	x.Line(depth+1, "build side:")
	n.right.Explain(x, depth+2)
}

// joinKeys are what a join step matches on: equalities between the
// relations before it (lkeys) and its own (rkeys), and other conditions.
type joinKeys struct {
	lkeys, rkeys []expr
	cond         []expr
	// An ASOF join's inequality asofL asofOp asofR (asofL reads the
	// relations before the join); asofText is how it was written.
	asofL, asofR expr
	asofOp       cmpOp
	asofText     string
}

// whereJoinKeys moves the WHERE equalities between an inner-joined
// relation and the relations before it into that relation's join keys, so
// that FROM a, b WHERE a.k = b.k is a hash join rather than a filtered
// cross product. It returns the conjuncts left for WHERE. An equality is
// left where it is when its relation's step is an outer join, or when a
// FULL or RIGHT join comes after it: that join's null-extended rows must
// still meet the WHERE.
func whereJoinKeys(steps []joinStep, where []expr, joins []joinKeys) []expr {
	if len(steps) < 2 {
		return where
	}
	index := map[*relation]int{}
	lastFull := -1
	for i, st := range steps {
		index[st.rel] = i
		if st.full {
			lastFull = i
		}
	}
	// span gives the lowest and highest step an expression reads, ok false
	// when it reads none or a relation not of this FROM (an outer query's).
	span := func(e expr) (lo, hi int, ok bool) {
		lo, hi = len(steps), -1
		for r := range relsOf(e) {
			i, found := index[r]
			if !found {
				return 0, 0, false
			}
			lo, hi = min(lo, i), max(hi, i)
		}
		return lo, hi, hi >= 0
	}
	var rest []expr
	for _, c := range where {
		if eq, ok := c.(*cmpExpr); ok && eq.op == opEq {
			llo, lhi, lok := span(eq.l)
			rlo, rhi, rok := span(eq.r)
			if lok && rok {
				l, r := eq.l, eq.r
				if lhi > rhi {
					l, r, llo, lhi, rlo, rhi = r, l, rlo, rhi, llo, lhi
				}
				// r reads step rhi alone, l only steps before it.
				if i := rhi; rlo == i && lhi < i && i > lastFull && !steps[i].left && !steps[i].full && steps[i].rel.lateral == nil && !steps[i].asof && !steps[i].positional {
					joins[i].lkeys = append(joins[i].lkeys, l)
					joins[i].rkeys = append(joins[i].rkeys, r)
					continue
				}
			}
		}
		rest = append(rest, c)
	}
	return rest
}

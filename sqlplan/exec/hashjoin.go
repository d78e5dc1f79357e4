package exec

import (
	"context"
	"fmt"
	"io"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// HashJoin is a hash join (inner, left, right or full outer) of a left
// input with a right relation, which it builds into a hash table; without
// equality keys it is a nested-loop (cross) join. Batches are laid out
// with the left columns first and the right relation's columns from
// offset LeftWidth. A right or full outer join remembers the right rows
// that matched and, after the left input, adds the others with NULL left
// columns (of LeftTypes).
//
// The planner chooses the keys, the build side and the columns kept, and
// passes what only it knows as hooks: Reduce and FilterProbe.
type HashJoin struct {
	Left, Right Node
	LeftWidth   int
	RightTypes  []vec.Type
	LKeys       []Expr     // evaluated on left batches
	RKeys       []Expr     // evaluated on right batches placed at LeftWidth
	Cond        Expr       // the rest of ON, evaluated on joined rows (nil: none)
	LeftOuter   bool       // keeps the left rows without a partner
	RightOuter  bool       // keeps the right rows without a partner
	LeftTypes   []vec.Type // right outer join: the left columns' types

	// Keep marks the joined columns read above the join (nil: all); the
	// others come out as dropped columns, not gathered.
	Keep []bool
	// CondCols marks the joined columns Cond reads (nil: all of them);
	// the pairs Cond is evaluated on are gathered in those alone.
	CondCols []bool
	// Cast converts a right column of another storage than RightTypes.
	Cast CastFunc

	// Reduce, when set, is given the build rows (at LeftWidth in an
	// otherwise empty batch) before RKeys are evaluated on them: the
	// planner restricts the correlated subqueries of the keys to the
	// outer values there, and returns the number of values of each
	// restriction made, which EXPLAIN shows.
	Reduce func(build *vec.Batch) ([]int, error)
	// FilterProbe, when set, is given each build key column (key j, rows
	// values) once the table is built: the planner may filter the probe
	// side's scan by those values.
	FilterProbe func(j int, keys *vec.Col, rows int)

	rmatched  []bool // right outer join: right rows that found a partner
	rightDone bool   // right outer join: the unmatched right rows were sent

	built    bool
	buildErr error
	rall     *vec.Batch
	table    *RowTable  // the right rows by key
	intKey   bool       // table keys one integer column
	packer   *KeyPacker // table keys several integer columns packed into one
	reduced  []int      // what Reduce returned, for EXPLAIN ANALYZE

	// pending is a left batch a nested-loop join probes in slices,
	// from row pendingAt on.
	pending   *vec.Batch
	pendingAt int

	mem OpMemory // the build side's rows and table
}

// CrossChunk bounds the row pairs a nested-loop join builds at a time: a
// left batch whose cross product with the right side is larger is probed
// a slice of its rows at a time. A right side of more than MaxCrossRight
// rows is refused (one left row would pair with all of them at once).
const (
	CrossChunk    = 1 << 20
	MaxCrossRight = 8 << 20
)

func (n *HashJoin) Memory() *OpMemory { return &n.mem }

func (n *HashJoin) WrapInputs(wrap func(Node) Node) { n.Left, n.Right = wrap(n.Left), wrap(n.Right) }

// UniqueBuilt reports whether the join has built its table and the table's
// keys are unique: each probe row then pairs with at most one build row.
func (n *HashJoin) UniqueBuilt() bool {
	return n.built && n.buildErr == nil && n.table != nil && n.table.Unique()
}

// buildWhat names the build side in a memory_limit error.
func (n *HashJoin) buildWhat() string {
	if len(n.RKeys) == 0 {
		return "nested-loop join's right side"
	}
	return "hash join build side on " + ExprList(n.RKeys)
}

// padded is the build rows placed at LeftWidth, where RKeys read them.
func (n *HashJoin) padded() *vec.Batch {
	b := &vec.Batch{N: n.rall.N, Cols: make([]*vec.Col, n.LeftWidth+len(n.rall.Cols))}
	copy(b.Cols[n.LeftWidth:], n.rall.Cols)
	return b
}

// drainRight reads the right side whole, accounted as what.
func (n *HashJoin) drainRight(ctx context.Context, what func() string) error {
	all, err := DrainHeld(ctx, n.Right, n.RightTypes, n.Cast, &n.mem, what)
	n.rall = all
	return err
}

func (n *HashJoin) build(ctx context.Context) error {
	if err := n.drainRight(ctx, n.buildWhat); err != nil {
		return err
	}
	all := n.rall
	if len(n.RKeys) == 0 {
		return nil
	}
	padded := n.padded()
	if n.Reduce != nil {
		var err error
		if n.reduced, err = n.Reduce(padded); err != nil {
			return err
		}
	}
	keys, err := evalAll(n.RKeys, padded)
	if err != nil {
		return err
	}
	if n.FilterProbe != nil {
		for j, k := range keys {
			n.FilterProbe(j, k, all.N)
		}
	}
	if len(keys) == 1 && keys[0].I != nil && keys[0].Dict == nil {
		n.table, n.intKey = BuildInts(keys[0], all.N), true
	} else if pk, ok := n.keyPacker(keys); ok {
		n.table, n.packer, n.intKey = BuildInts(pk.Pack(keys, all.N), all.N), pk, true
	} else {
		n.table = BuildKeys(keys, all.N)
	}
	return n.mem.Add(ctx, n.table.Bytes(), n.buildWhat)
}

// keyPacker packs the build keys against the probe keys' types.
func (n *HashJoin) keyPacker(keys []*vec.Col) (*KeyPacker, bool) {
	if len(keys) != len(n.LKeys) {
		return nil, false
	}
	probe := make([]vec.Type, len(n.LKeys))
	for i, e := range n.LKeys {
		probe[i] = e.Type()
	}
	return NewKeyPacker(keys, probe, n.rall.N)
}

// evalAll evaluates exprs on b.
func evalAll(exprs []Expr, b *vec.Batch) ([]*vec.Col, error) {
	out := make([]*vec.Col, len(exprs))
	for i, e := range exprs {
		c, err := e.Eval(b)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// Prepare builds the hash table of the right side, once (a pipeline runs
// it before its workers probe).
func (n *HashJoin) Prepare(ctx context.Context) error {
	if !n.built {
		n.built = true
		n.buildErr = n.build(ctx)
	}
	return n.buildErr
}

func (n *HashJoin) Next(ctx context.Context) (*vec.Batch, error) {
	if err := n.Prepare(ctx); err != nil {
		return nil, err
	}
	return n.pull(ctx, n.nextLeft, n.Probe)
}

// pull returns the next non-empty batch of joined rows: left rows from
// next, joined by probe, and after them for a right or full outer join
// the right rows no left row matched.
func (n *HashJoin) pull(ctx context.Context, next func(context.Context) (*vec.Batch, error), probe func(*vec.Batch) (*vec.Batch, error)) (*vec.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := next(ctx)
		if err == io.EOF && n.RightOuter && !n.rightDone {
			n.rightDone = true
			if out := n.unmatchedRight(); out.N > 0 {
				return out, nil
			}
		}
		if err != nil {
			return nil, err
		}
		out, err := probe(b)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// nextLeft returns the next left rows to probe: the next left batch, or
// for a nested-loop join whose pairs would exceed CrossChunk, the next
// slice of it.
func (n *HashJoin) nextLeft(ctx context.Context) (*vec.Batch, error) {
	if len(n.LKeys) == 0 && n.rall.N > MaxCrossRight {
		return nil, fmt.Errorf("the nested-loop join's right side has %d rows, more than %d (give the join an equality condition, or put the larger input on the left)", n.rall.N, MaxCrossRight)
	}
	if n.pending == nil {
		b, err := n.Left.Next(ctx)
		if err != nil || len(n.LKeys) > 0 || int64(b.N)*int64(n.rall.N) <= CrossChunk {
			return b, err
		}
		n.pending, n.pendingAt = b, 0
	}
	end := min(n.pending.N, n.pendingAt+max(1, CrossChunk/max(n.rall.N, 1)))
	rows := make([]int32, 0, end-n.pendingAt)
	for i := n.pendingAt; i < end; i++ {
		rows = append(rows, int32(i))
	}
	part := TakeBatch(n.pending, rows)
	if n.pendingAt = end; end == n.pending.N {
		n.pending = nil
	}
	return part, nil
}

// Probe joins one left batch with the built table. A pipeline calls it
// on several batches at once when the planner finds that safe: an
// equality join without RightOuter's bookkeeping, whose expressions hold
// no state.
func (n *HashJoin) Probe(b *vec.Batch) (*vec.Batch, error) {
	li, ri, err := n.pairs(b)
	if err != nil {
		return nil, err
	}
	return n.finish(b, li, ri)
}

// pairs lists the (left row, right row) pairs whose keys match, or all of
// them without keys.
func (n *HashJoin) pairs(b *vec.Batch) (li, ri []int32, err error) {
	if len(n.LKeys) == 0 {
		li, ri = make([]int32, 0, b.N*n.rall.N), make([]int32, 0, b.N*n.rall.N)
		for i := 0; i < b.N; i++ {
			for j := 0; j < n.rall.N; j++ {
				li, ri = append(li, int32(i)), append(ri, int32(j))
			}
		}
		return li, ri, nil
	}
	keys, err := evalAll(n.LKeys, b)
	if err != nil {
		return nil, nil, err
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
		if buf, ok = JoinKey(buf, keys, i); ok {
			li, ri = n.table.AppendKeyMatches(li, ri, i, buf)
		}
	}
	return li, ri, nil
}

// finish builds the joined batch of the pairs (left rows li of b, right
// rows ri of the right side), keeps those that meet Cond, and adds the
// unmatched rows of an outer join.
func (n *HashJoin) finish(b *vec.Batch, li, ri []int32) (*vec.Batch, error) {
	if n.Cond != nil {
		// The condition sees the pairs' columns it reads; the joined
		// batch is built for the pairs that meet it.
		c, err := n.Cond.Eval(n.joinedSlots(b, li, ri, n.CondCols))
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
	n.markMatched(ri)
	if !n.LeftOuter {
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
		vec.AppendCol(out.Cols[i], extra.Cols[i])
	}
	out.N += extra.N
	return out, nil
}

// markMatched records, for a right outer join, that the right rows ri
// (-1: none) found a partner.
func (n *HashJoin) markMatched(ri []int32) {
	if !n.RightOuter {
		return
	}
	if n.rmatched == nil {
		n.rmatched = make([]bool, n.rall.N)
	}
	for _, r := range ri {
		if r >= 0 {
			n.rmatched[r] = true
		}
	}
}

// unmatchedRight is the batch of the right rows no left row matched, with
// NULL left columns.
func (n *HashJoin) unmatchedRight() *vec.Batch {
	var ri []int32
	for r := 0; r < n.rall.N; r++ {
		if n.rmatched == nil || !n.rmatched[r] {
			ri = append(ri, int32(r))
		}
	}
	return n.rightOnly(ri)
}

// rightOnly is the batch of the right rows ri with NULL left columns.
func (n *HashJoin) rightOnly(ri []int32) *vec.Batch {
	out := &vec.Batch{N: len(ri), Cols: make([]*vec.Col, n.LeftWidth+len(n.RightTypes))}
	for i, t := range n.LeftTypes {
		out.Cols[i] = vec.NullCol(t, len(ri))
	}
	for j := range n.RightTypes {
		out.Cols[n.LeftWidth+j] = n.rall.Cols[j].Take(ri)
	}
	return out
}

// joined builds the batch of row pairs (ri -1: no right row), with the
// columns nothing above reads dropped.
func (n *HashJoin) joined(b *vec.Batch, li, ri []int32) *vec.Batch {
	out := n.joinedSlots(b, li, ri, n.Keep)
	if n.Keep != nil {
		for i, c := range out.Cols {
			if c != nil {
				continue
			}
			if i < n.LeftWidth {
				out.Cols[i] = vec.DroppedCol(b.Cols[i].T, len(li))
			} else {
				out.Cols[i] = vec.DroppedCol(n.RightTypes[i-n.LeftWidth], len(li))
			}
		}
	}
	return out
}

// joinedSlots is joined with only the columns marked in only (all when
// nil); the others are nil.
func (n *HashJoin) joinedSlots(b *vec.Batch, li, ri []int32, only []bool) *vec.Batch {
	out := &vec.Batch{N: len(li), Cols: make([]*vec.Col, n.LeftWidth+len(n.RightTypes))}
	// Each left row matched once, in order (a probe of unique keys that
	// the key filter below already narrowed to the matching rows): the
	// left columns are the output's as they are, not copied. A scratch
	// column is copied all the same, as an expression above may give it
	// back to its pool.
	same := isIdentity(li, b.N)
	for i := 0; i < n.LeftWidth; i++ {
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
	for j, t := range n.RightTypes {
		if only != nil && !only[n.LeftWidth+j] {
			continue
		}
		var c *vec.Col
		if n.rall.N == 0 {
			c = vec.NullCol(t, len(ri))
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
		out.Cols[n.LeftWidth+j] = c
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

func (n *HashJoin) Close() {
	n.mem.Release()
	n.Left.Close()
	if n.Right != nil {
		n.Right.Close()
	}
}

// kindText is the join's kind as EXPLAIN shows it.
func (n *HashJoin) kindText() string {
	switch {
	case n.RightOuter && n.LeftOuter:
		return "FULL"
	case n.RightOuter:
		return "RIGHT"
	case n.LeftOuter:
		return "LEFT"
	}
	return "INNER"
}

func (n *HashJoin) Explain(x *Explainer, depth int) {
	if len(n.LKeys) > 0 {
		x.Line(depth, "HASH JOIN %s on %s = %s", n.kindText(), ExprList(n.LKeys), ExprList(n.RKeys))
	} else {
		x.Line(depth, "NESTED LOOP JOIN %s", n.kindText())
	}
	if n.Cond != nil {
		x.Line(depth+1, "join condition: %s", n.Cond)
	}
	for _, k := range n.reduced {
		x.Line(depth+1, "correlated subquery of the build keys restricted to %d outer keys", k)
	}
	n.Left.Explain(x, depth+1)
	x.Line(depth+1, "build side:")
	n.Right.Explain(x, depth+2)
}

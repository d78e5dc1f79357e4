package sqlplan

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/num"
)

var regexpMu sync.Mutex

func randFloat() float64 { return rand.Float64() }

// node is an operator of an executable plan: it produces batches until
// io.EOF.
type node interface {
	next(ctx context.Context) (*Batch, error)
	close()
	explain(x *explainer, depth int)
}

// scanNode reads a table through the scan.
type scanNode struct {
	rel     *relation
	t       *scan.Table
	req     scan.Request
	types   []Type
	s       *scan.Scanner
	stats   scan.Stats
	done    bool
	started bool
	// dicts holds the Col of each dictionary the scan's coded vectors
	// pointed at lately, so that a row group's batches share one (the
	// grouper keys its code-to-group maps by it).
	dicts map[*vector.Vector]*Col
}

func (n *scanNode) next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if !n.started {
		n.started = true
		s, err := n.t.Scan(ctx, n.req)
		if err != nil {
			return nil, err
		}
		n.s = s
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.s.Next()
		if err == io.EOF {
			n.finish()
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if b.NumRows == 0 {
			continue
		}
		out := &Batch{N: b.NumRows, Cols: make([]*Col, len(b.Columns))}
		for i, v := range b.Columns {
			if v.Dict != nil {
				out.Cols[i] = n.codedCol(n.types[i], v, b.NumRows)
				continue
			}
			out.Cols[i] = fromVector(n.types[i], v, b.NumRows)
		}
		if s := n.s; scan.Recyclable(b) {
			out.Recycle = func() { s.Recycle(b) }
		}
		return out, nil
	}
}

// codedCol converts a coded vector (the scan was asked for codes) into a
// coded Col whose dictionary is converted once per dictionary.
func (n *scanNode) codedCol(t Type, v *vector.Vector, rows int) *Col {
	d, ok := n.dicts[v.Dict]
	if !ok {
		if n.dicts == nil || len(n.dicts) >= 64 {
			n.dicts = map[*vector.Vector]*Col{}
		}
		d = fromVector(t, v.Dict, v.Dict.Len)
		n.dicts[v.Dict] = d
	}
	return &Col{T: t, Len: rows, Null: nullsOf(v, rows), Dict: d, Codes: v.Codes[:rows]}
}

func (n *scanNode) finish() {
	if n.s != nil && !n.done {
		n.stats = n.s.Stats()
		n.s.Close()
	}
	n.done = true
}

func (n *scanNode) close() { n.finish() }

// constNode emits fixed batches (SELECT without FROM, COUNT(*) from
// footers, results of sub-plans).
type constNode struct {
	batches []*Batch
	what    string
}

func (n *constNode) next(ctx context.Context) (*Batch, error) {
	if len(n.batches) == 0 {
		return nil, io.EOF
	}
	b := n.batches[0]
	n.batches = n.batches[1:]
	return b, nil
}
func (n *constNode) close() {}

type filterNode struct {
	in      node
	pred    expr
	started bool
}

func (n *filterNode) next(ctx context.Context) (*Batch, error) {
	if !n.started {
		n.started = true
		in, err := reduceCorrelated(ctx, n.in, n.pred, func(b *Batch) *Batch { return b })
		if err != nil {
			return nil, err
		}
		n.in = in
	}
	for {
		b, err := n.in.next(ctx)
		if err != nil {
			return nil, err
		}
		b, err = filterBatch(b, n.pred)
		if err != nil {
			return nil, err
		}
		if b.N > 0 {
			return b, nil
		}
	}
}

func (n *filterNode) close() { n.in.close() }

// residualFilter filters in by the conjuncts: those that run no subquery
// in a filter of their own below those that do, which is the order
// filterBatch evaluates them in anyway. The lower filter then runs on
// every thread (with what is below it), and the subqueries, their
// read-ahead included (reduce.go), see only the rows it keeps, once
// (TPC-H Q22's country codes before its NOT EXISTS).
func residualFilter(in node, conjuncts []expr, threads int) node {
	pred := andOf(conjuncts)
	cheap, costly := splitCostly(pred)
	if cheap == nil {
		return &filterNode{in: in, pred: pred}
	}
	var low node = &filterNode{in: in, pred: cheap}
	if pn := parallel(low, threads, nil); pn != nil {
		low = pn
	}
	return &filterNode{in: low, pred: andOf(costly)}
}

// relFilterNode filters one FROM relation before it is joined, by
// conjuncts that name its columns alone. Its batches hold the relation's
// columns only, while the conjuncts read the slots of the joined batch,
// where the relation starts at offset: they see the batch shifted so.
type relFilterNode struct {
	in     node
	pred   expr
	offset int
	// drop lists the relation's columns that only pred reads: after the
	// filter they become dropped columns (a join's build side does not
	// hold them).
	drop    []int
	started bool
}

func (n *relFilterNode) next(ctx context.Context) (*Batch, error) {
	if !n.started {
		n.started = true
		in, err := reduceCorrelated(ctx, n.in, n.pred, n.shift)
		if err != nil {
			return nil, err
		}
		n.in = in
	}
	for {
		b, err := n.in.next(ctx)
		if err != nil {
			return nil, err
		}
		if b, err = n.filter(b); err != nil {
			return nil, err
		}
		if b.N > 0 {
			return b, nil
		}
	}
}

// filter keeps the rows of one of the relation's batches that pass, the
// columns only the filter reads dropped before the rows are copied.
func (n *relFilterNode) filter(b *Batch) (*Batch, error) {
	shifted := n.shift(b)
	if len(n.drop) == 0 {
		out, err := filterBatch(shifted, n.pred)
		if err != nil {
			return nil, err
		}
		out.Cols = out.Cols[n.offset:]
		return out, nil
	}
	idx, err := passing(shifted, n.pred)
	if err != nil {
		return nil, err
	}
	out := &Batch{N: b.N, Cols: slices.Clone(b.Cols)}
	for _, k := range n.drop {
		out.Cols[k] = droppedCol(b.Cols[k].T, b.N)
	}
	if len(idx) == b.N {
		return out, nil
	}
	return takeBatch(out, idx), nil
}

// shift returns b as the filter's conjuncts read it: its columns at the
// relation's offset in the joined batch.
func (n *relFilterNode) shift(b *Batch) *Batch {
	if n.offset == 0 {
		return b
	}
	shifted := &Batch{N: b.N, Cols: make([]*Col, n.offset, n.offset+len(b.Cols))}
	shifted.Cols = append(shifted.Cols, b.Cols...)
	return shifted
}

func (n *relFilterNode) close() { n.in.close() }

func (n *relFilterNode) explain(x *explainer, depth int) {
	x.line(depth, "FILTER %s", n.pred)
	n.in.explain(x, depth+1)
}

// filterBatch keeps the rows for which pred is true. Conjuncts that run
// subqueries are evaluated last, each on the rows the others kept (TPC-H
// Q20's correlated sum runs for the few partsupp rows of 'forest' parts,
// not for all of them).
func filterBatch(b *Batch, pred expr) (*Batch, error) {
	if cheap, costly := splitCostly(pred); len(costly) > 0 {
		var err error
		if cheap != nil {
			if b, err = filterBatch(b, cheap); err != nil || b.N == 0 {
				return b, err
			}
		}
		for _, c := range costly {
			if b, err = filterRows(b, c); err != nil || b.N == 0 {
				return b, err
			}
		}
		return b, nil
	}
	return filterRows(b, pred)
}

// splitCostly splits a conjunction into its conjuncts without subqueries
// (as one AND, nil if none) and those with, when there are both.
func splitCostly(pred expr) (cheap expr, costly []expr) {
	a, ok := pred.(*andExpr)
	if !ok {
		return nil, nil
	}
	var plain []expr
	for _, t := range conjuncts(a) {
		if runsSubquery(t) {
			costly = append(costly, t)
		} else {
			plain = append(plain, t)
		}
	}
	if len(costly) == 0 || len(plain) == 0 && len(costly) == 1 {
		return nil, nil
	}
	if len(plain) > 0 {
		cheap = andOf(plain)
	}
	return cheap, costly
}

// filterRows keeps the rows for which pred is true.
func filterRows(b *Batch, pred expr) (*Batch, error) {
	idx, err := passing(b, pred)
	if err != nil || len(idx) == b.N {
		return b, err
	}
	return takeBatch(b, idx), nil
}

// passing lists the rows of b for which pred is true.
func passing(b *Batch, pred expr) ([]int32, error) {
	c, err := pred.eval(b)
	if err != nil {
		return nil, err
	}
	idx := make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		if c.B[i] && !c.IsNull(i) {
			idx = append(idx, int32(i))
		}
	}
	return idx, nil
}

func takeBatch(b *Batch, idx []int32) *Batch {
	out := &Batch{N: len(idx), Cols: make([]*Col, len(b.Cols))}
	for i, c := range b.Cols {
		if c != nil {
			out.Cols[i] = c.Take(idx)
		}
	}
	return out
}

type projectNode struct {
	in    node
	exprs []expr
}

func (n *projectNode) next(ctx context.Context) (*Batch, error) {
	b, err := n.in.next(ctx)
	if err != nil {
		return nil, err
	}
	return project(b, n.exprs)
}

func project(b *Batch, exprs []expr) (*Batch, error) {
	out := &Batch{N: b.N, Cols: make([]*Col, len(exprs))}
	for i, e := range exprs {
		c, err := e.eval(b)
		if err != nil {
			return nil, err
		}
		if c.T.Kind == KNull {
			c = nullCol(e.typ(), b.N)
		}
		out.Cols[i] = c
	}
	return out, nil
}

func (n *projectNode) close() { n.in.close() }

type limitNode struct {
	in            node
	limit, offset int64 // limit < 0: none
	seen          int64
}

func (n *limitNode) next(ctx context.Context) (*Batch, error) {
	for {
		// LIMIT 0 reads nothing: its input is not even evaluated (so its
		// errors are not raised), as in DuckDB.
		if n.limit == 0 || n.limit > 0 && n.seen >= n.offset+n.limit {
			return nil, io.EOF
		}
		b, err := n.in.next(ctx)
		if err != nil {
			return nil, err
		}
		start, end := int64(0), int64(b.N)
		if n.seen < n.offset {
			start = min(n.offset-n.seen, int64(b.N))
		}
		if n.limit >= 0 {
			end = min(end, n.offset+n.limit-n.seen)
		}
		n.seen += int64(b.N)
		if start >= end {
			continue
		}
		if start == 0 && end == int64(b.N) {
			return b, nil
		}
		idx := make([]int32, 0, end-start)
		for i := start; i < end; i++ {
			idx = append(idx, int32(i))
		}
		return takeBatch(b, idx), nil
	}
}

func (n *limitNode) close() { n.in.close() }

// keepNode drops hidden trailing columns (ORDER BY keys not selected).
type keepNode struct {
	in node
	n  int
}

func (n *keepNode) next(ctx context.Context) (*Batch, error) {
	b, err := n.in.next(ctx)
	if err != nil {
		return nil, err
	}
	return &Batch{N: b.N, Cols: b.Cols[:n.n]}, nil
}

func (n *keepNode) close() { n.in.close() }

// distinctNode drops repeated rows.
type distinctNode struct {
	in   node
	g    *grouper // the rows seen, as groups (aggregation's hash tables)
	gids []int32
	cols []*Col
	mem  opMemory
}

func (n *distinctNode) memory() *opMemory { return &n.mem }

func (n *distinctNode) next(ctx context.Context) (*Batch, error) {
	for {
		b, err := n.in.next(ctx)
		if err != nil {
			return nil, err
		}
		if n.g == nil {
			types := make([]Type, len(b.Cols))
			for i, c := range b.Cols {
				types[i] = c.T
			}
			n.g = newGrouper(types)
		}
		if cap(n.gids) < b.N {
			n.gids = make([]int32, b.N)
		}
		gids := n.gids[:b.N]
		n.cols = append(n.cols[:0], b.Cols...)
		first := int32(n.g.Groups())
		n.g.Assign(n.cols, b.N, gids)
		if err := n.mem.Set(ctx, n.g.Bytes(), func() string { return "DISTINCT" }); err != nil {
			return nil, err
		}
		// New groups get the next ids in row order: a row is new when it
		// has the next one.
		var idx []int32
		for i, g := range gids {
			if g == first {
				idx = append(idx, int32(i))
				first++
			}
		}
		if len(idx) == 0 {
			continue
		}
		if len(idx) == b.N {
			return b, nil
		}
		return takeBatch(b, idx), nil
	}
}

func (n *distinctNode) close() {
	n.mem.Release()
	n.in.close()
}

// unionNode concatenates its inputs (UNION ALL); a distinctNode above
// makes it UNION.
type unionNode struct {
	ins   []node
	types []Type
	cur   int
}

func (n *unionNode) next(ctx context.Context) (*Batch, error) {
	for n.cur < len(n.ins) {
		b, err := n.ins[n.cur].next(ctx)
		if err == io.EOF {
			n.cur++
			continue
		}
		if err != nil {
			return nil, err
		}
		return castBatch(b, n.types)
	}
	return nil, io.EOF
}

func (n *unionNode) close() {
	for _, in := range n.ins {
		in.close()
	}
}

// drain reads every batch of a node into one batch, each column's
// storage allocated once at its final size.
func drain(ctx context.Context, n node, types []Type) (*Batch, error) {
	return drainHeld(ctx, n, types, nil, nil)
}

// drainHeld is drain accounting what it holds to m (nil: not accounted),
// as operator what, batch by batch.
func drainHeld(ctx context.Context, n node, types []Type, m *opMemory, what func() string) (*Batch, error) {
	parts := make([][]*Col, len(types))
	total := 0
	for {
		b, err := n.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for i, c := range b.Cols {
			if c.T.Kind != types[i].Kind && storage(c.T) != storage(types[i]) {
				if c, err = castCol(c, types[i]); err != nil {
					return nil, err
				}
			}
			parts[i] = append(parts[i], c)
		}
		total += b.N
		if m != nil {
			if err := m.Add(ctx, batchBytes(b), what); err != nil {
				return nil, err
			}
		}
	}
	out := &Batch{N: total, Cols: make([]*Col, len(types))}
	for i, t := range types {
		out.Cols[i] = concatCols(t, parts[i], total)
	}
	if m != nil {
		// The batches and their concatenation are both held until here.
		if err := m.Add(ctx, batchBytes(out), what); err != nil {
			return nil, err
		}
		if err := m.Set(ctx, batchBytes(out), what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// concatCols appends cols (of type t's storage, total rows) into one
// column allocated at its final size.
func concatCols(t Type, cols []*Col, total int) *Col {
	for _, c := range cols {
		if c.Dropped {
			return droppedCol(t, total)
		}
	}
	dst := emptyCol(t)
	data, nulls := 0, false
	for _, c := range cols {
		if c.Off != nil && c.Len > 0 {
			data += int(c.Off[c.Len] - c.Off[0])
		}
		nulls = nulls || c.Null != nil
	}
	if nulls {
		dst.Null = make([]bool, 0, total)
	}
	switch storage(t) {
	case stInt:
		dst.I = make([]int64, 0, total)
	case stFloat:
		dst.F = make([]float64, 0, total)
	case stBool:
		dst.B = make([]bool, 0, total)
	case stBytes:
		dst.Off = make([]int32, 1, total+1)
		dst.Data = make([]byte, 0, data)
	case stHuge:
		dst.H = make([]num.Int128, 0, total)
	default:
		dst.A = make([]any, 0, total)
	}
	for _, c := range cols {
		appendCol(dst, c.Decoded())
	}
	return dst
}

// explainer writes a plan as indented text.
type explainer struct {
	b       strings.Builder
	analyze bool
	root    string
	// figures are an operator's EXPLAIN ANALYZE figures (analyze.go), to
	// be shown on the next line, its first.
	figures string
}

// rel shows a table path relative to the engine's root.
func (x *explainer) rel(path string) string {
	if r, err := filepath.Rel(x.root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func (x *explainer) line(depth int, format string, args ...any) {
	x.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&x.b, format, args...)
	if x.figures != "" {
		fmt.Fprintf(&x.b, "  [%s]", x.figures)
		x.figures = ""
	}
	x.b.WriteByte('\n')
}

func exprList(es []expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

func (n *scanNode) explain(x *explainer, depth int) {
	cols := "(no columns)"
	if len(n.req.Columns) > 0 {
		cols = strings.Join(n.req.Columns, ", ")
	}
	x.line(depth, "SCAN %s [%s] columns: %s", n.rel.alias, x.rel(n.rel.path), cols)
	if n.req.Filter != nil {
		x.line(depth+1, "pushed filter: %s", n.req.Filter)
	}
	if len(n.req.Codes) > 0 {
		x.line(depth+1, "dictionary codes: %s", strings.Join(n.req.Codes, ", "))
	}
	if x.analyze {
		s := n.stats
		x.line(depth+1, "files %d (pruned %d), row groups %d (pruned %d by statistics, %d by bloom filters), pages %d (pruned %d), bytes read %d, rows decoded %d, rows returned %d",
			s.Files, s.FilesPruned, s.RowGroups, s.RowGroupsPrunedByStats, s.RowGroupsPrunedByBloom, s.Pages, s.PagesPruned, s.BytesRead, s.RowsDecoded, s.RowsOutput)
	}
}

func (n *constNode) explain(x *explainer, depth int) { x.line(depth, "%s", n.what) }
func (n *filterNode) explain(x *explainer, depth int) {
	x.line(depth, "FILTER (residual) %s", n.pred)
	n.in.explain(x, depth+1)
}
func (n *projectNode) explain(x *explainer, depth int) {
	x.line(depth, "PROJECT %s", exprList(n.exprs))
	n.in.explain(x, depth+1)
}
func (n *limitNode) explain(x *explainer, depth int) {
	if n.limit >= 0 {
		x.line(depth, "LIMIT %d OFFSET %d", n.limit, n.offset)
	} else {
		x.line(depth, "OFFSET %d", n.offset)
	}
	n.in.explain(x, depth+1)
}
func (n *keepNode) explain(x *explainer, depth int) { n.in.explain(x, depth) }
func (n *distinctNode) explain(x *explainer, depth int) {
	x.line(depth, "DISTINCT")
	n.in.explain(x, depth+1)
}
func (n *unionNode) explain(x *explainer, depth int) {
	x.line(depth, "UNION ALL")
	for _, in := range n.ins {
		in.explain(x, depth+1)
	}
}

// setOpNode is INTERSECT or EXCEPT, with ALL (multiset) or without
// (distinct rows): the right input is read into a hash table of row keys
// with counts, then the left rows stream through it.
type setOpNode struct {
	left, right node
	op          string // intersect, except, intersect all, except all
	types       []Type
	counts      map[string]int
	seen        map[string]bool
	buf         []byte
	// keyBytes and keyRows are the length of the keys seen and their
	// number, for the average size of an entry of the sets (memory.go).
	keyBytes, keyRows int64
	mem               opMemory
}

func (n *setOpNode) memory() *opMemory { return &n.mem }

// account sets the memory the sets take, after a batch.
func (n *setOpNode) account(ctx context.Context) error {
	entry := int64(mapEntryBytes)
	if n.keyRows > 0 {
		entry += n.keyBytes / n.keyRows
	}
	return n.mem.Set(ctx, int64(len(n.counts)+len(n.seen))*entry, func() string { return strings.ToUpper(n.op) })
}

// provablyEmpty reports whether a plan yields no rows whatever the data:
// a WHERE that is never true (see neverTrue) under row-wise operators.
func provablyEmpty(n node) bool {
	switch x := n.(type) {
	case *constNode:
		return len(x.batches) == 0
	case *projectNode:
		return provablyEmpty(x.in)
	case *filterNode:
		return provablyEmpty(x.in)
	case *keepNode:
		return provablyEmpty(x.in)
	case *distinctNode:
		return provablyEmpty(x.in)
	case *sortNode:
		return provablyEmpty(x.in)
	case *limitNode:
		return x.limit == 0 || provablyEmpty(x.in)
	}
	return false
}

func (n *setOpNode) next(ctx context.Context) (*Batch, error) {
	if n.counts == nil && provablyEmpty(n.left) {
		// The answer is empty without the right side, which is not read
		// (nor its errors raised), as DuckDB's optimizer does; a left side
		// that is only empty at run time does not spare the right one.
		return nil, io.EOF
	}
	if n.counts == nil {
		n.counts = map[string]int{}
		n.seen = map[string]bool{}
		for {
			b, err := n.right.next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if b, err = castBatch(b, n.types); err != nil {
				return nil, err
			}
			for i := 0; i < b.N; i++ {
				n.buf = n.buf[:0]
				for _, c := range b.Cols {
					n.buf = appendKey(n.buf, c, i)
				}
				n.counts[string(n.buf)]++
				n.keyBytes += int64(len(n.buf))
			}
			n.keyRows += int64(b.N)
			if err := n.account(ctx); err != nil {
				return nil, err
			}
		}
	}
	all := strings.HasSuffix(n.op, " all")
	intersect := strings.HasPrefix(n.op, "intersect")
	for {
		b, err := n.left.next(ctx)
		if err != nil {
			return nil, err
		}
		if b, err = castBatch(b, n.types); err != nil {
			return nil, err
		}
		var idx []int32
		for i := 0; i < b.N; i++ {
			n.buf = n.buf[:0]
			for _, c := range b.Cols {
				n.buf = appendKey(n.buf, c, i)
			}
			k := string(n.buf)
			c := n.counts[k]
			keep := false
			switch {
			case all && intersect:
				keep = c > 0
				if keep {
					n.counts[k] = c - 1
				}
			case all:
				keep = c == 0
				if !keep {
					n.counts[k] = c - 1
				}
			case intersect:
				keep = c > 0 && !n.seen[k]
			default:
				keep = c == 0 && !n.seen[k]
			}
			if keep {
				if !all {
					n.seen[k] = true
				}
				idx = append(idx, int32(i))
			}
		}
		if err := n.account(ctx); err != nil {
			return nil, err
		}
		if len(idx) > 0 {
			return takeBatch(b, idx), nil
		}
	}
}

// castBatch brings a batch's columns to the given types.
func castBatch(b *Batch, types []Type) (*Batch, error) {
	for i, c := range b.Cols {
		if needsCast(c.T, types[i]) {
			cc, err := castCol(c, types[i])
			if err != nil {
				return nil, err
			}
			b.Cols[i] = cc
		}
	}
	return b, nil
}

// needsCast reports whether values of type a must be converted to be
// stored and compared as type b.
func needsCast(a, b Type) bool {
	return a.Kind != b.Kind || storage(a) != storage(b) || a.Kind == KDecimal && a.Scale != b.Scale
}

func (n *setOpNode) close() {
	n.mem.Release()
	n.left.close()
	n.right.close()
}

func (n *setOpNode) explain(x *explainer, depth int) {
	x.line(depth, "%s", strings.ToUpper(n.op))
	n.left.explain(x, depth+1)
	n.right.explain(x, depth+1)
}

package sqlplan

import (
	"context"
	"io"
	"slices"
	"strings"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The hash aggregation operator: groups its input's rows (exec/grouper.go) and
// feeds each aggregate's accumulator.

// aggNode is a hash aggregation: GROUP BY keys and aggregates.
type aggNode struct {
	in   node
	keys []expr
	aggs []*aggSpec
	// sets are the grouping sets (key indices) of GROUPING SETS, ROLLUP
	// and CUBE; nil for a plain GROUP BY (one set of every key).
	sets [][]int
	done bool
	// evaluated: the input's batches are inputs(b) already (a pipeline
	// computed them).
	evaluated bool
	// determined marks the keys that the others determined in the run
	// (groupdeps.go), for EXPLAIN ANALYZE.
	determined []bool
	// overScan: the input is a scan (or the pipeline that evaluates the
	// inputs on its batches), whose batches nothing else holds.
	overScan bool
	mem      opMemory // the groups' keys, tables and states (memory.go)
}

func (n *aggNode) Memory() *opMemory { return &n.mem }

// memWhat names the aggregation in a memory_limit error.
func (n *aggNode) memWhat() string {
	if len(n.keys) == 0 {
		return "aggregate"
	}
	return "hash aggregate by " + exprList(n.keys)
}

// recycles reports whether the aggregation may give each input batch's
// buffers back to the scan once it has added the batch in: it reads a
// scan's batches directly, and neither its accumulators nor its grouper
// keep anything of them (keys are copied into the grouper unless they
// are nested values).
func (n *aggNode) recycles(states []*groupingState) bool {
	if _, direct := kernels.Bare(n.in).(*kernels.Scan); !direct && !n.overScan {
		return false
	}
	for _, st := range states {
		for _, a := range st.accs {
			if !copiesValues(a) {
				return false
			}
		}
	}
	for _, k := range n.keys {
		switch storage(k.Type()) {
		case stInt, stFloat, stBytes, stBool:
		default:
			return false
		}
	}
	return true
}

// copiesValues reports whether an accumulator keeps nothing of the
// columns it is given (their numbers are added or compared into its own
// state), so that a scratch column can be released after update.
func copiesValues(a accumulator) bool {
	switch a.(type) {
	case *countAcc, *sumIntAcc, *sumFloatAcc, *momentAcc, *extremeIntAcc, *extremeFloatAcc, *sumDecAcc, *avgExactAcc:
		return true
	}
	return false
}

// inputs evaluates the keys and the aggregates' arguments on b: a batch
// of the keys, then the first and the second arguments (nil where an
// aggregate has none).
func (n *aggNode) inputs(b *Batch) (*Batch, error) {
	nk, na := len(n.keys), len(n.aggs)
	out := &Batch{N: b.N, Cols: make([]*Col, nk+2*na), Recycle: b.Recycle}
	var err error
	for i, k := range n.keys {
		if out.Cols[i], err = k.Eval(b); err != nil {
			return nil, err
		}
	}
	for i, a := range n.aggs {
		if a.arg != nil {
			if out.Cols[nk+i], err = a.arg.Eval(b); err != nil {
				return nil, err
			}
		}
		if a.arg2 != nil {
			if out.Cols[nk+na+i], err = a.arg2.Eval(b); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// parallelInputs makes n's input a pipeline that also evaluates n's keys
// and arguments, when n's input is a scan with filters and every
// expression can run concurrently; it reports whether it did.
func (n *aggNode) parallelInputs(workers int) bool {
	if n.evaluated {
		return false
	}
	// Plain columns need no evaluation: over a bare scan there would be
	// nothing to run in parallel.
	_, computes := n.in.(*kernels.Scan)
	computes = !computes
	for _, k := range n.keys {
		if !concurrentSafe(k) {
			return false
		}
		computes = computes || !isColumn(k)
	}
	for _, a := range n.aggs {
		if a.order != nil || a.arg != nil && !concurrentSafe(a.arg) || a.arg2 != nil && !concurrentSafe(a.arg2) {
			return false
		}
		computes = computes || a.arg != nil && !isColumn(a.arg) || a.arg2 != nil && !isColumn(a.arg2)
	}
	if !computes {
		return false
	}
	p := parallel(n.in, workers, n.inputs)
	if p == nil {
		return false
	}
	_, n.overScan = n.in.(*kernels.Scan)
	n.in, n.evaluated = p, true
	return true
}

// groupingState aggregates the rows of one grouping set.
type groupingState struct {
	set  []int // the keys grouped by
	g    *grouper
	accs []accumulator
	// With keys that others determine (groupdeps.go), g groups by the
	// keys at positions hashed of set, and carry holds the keys at
	// positions carried, taken from each group's first row.
	hashed, carried []int
	carry           []*colBuilder
	hcols           []*Col
	first           []int32
}

func (n *aggNode) Next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	n.done = true
	types := make([]Type, len(n.keys))
	for i, k := range n.keys {
		types[i] = withoutField(k.Type())
		if k.Type().Kind == KNested {
			types[i] = k.Type()
		}
	}
	if len(n.keys) == 0 && allCountStar(n.aggs) {
		// COUNT(*) only: count rows without touching them.
		var total int64
		for {
			b, err := n.in.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			total += int64(b.N)
		}
		out := &Batch{N: 1}
		for range n.aggs {
			out.Cols = append(out.Cols, &Col{T: tInt, Len: 1, I: []int64{total}})
		}
		return out, nil
	}
	sets := n.sets
	if sets == nil {
		all := make([]int, len(n.keys))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	}
	// The first batch comes before the groupers are made: the joins below
	// have built their tables by then, and which keys determine the others
	// is known (groupdeps.go).
	first, err := n.in.Next(ctx)
	if err != nil && err != io.EOF {
		return nil, err
	}
	var det []bool
	if err == nil && n.sets == nil {
		det = determinedKeys(n.in, n.keys)
		n.determined = det
	}
	states := make([]*groupingState, len(sets))
	for s, set := range sets {
		st := newGroupingState(set, types, det, len(n.aggs))
		for i, a := range n.aggs {
			if a.fn == "grouping" {
				st.accs[i] = &groupingAcc{v: groupingValue(a.grouping, set)}
				continue
			}
			st.accs[i] = newAccumulator(a)
		}
		states[s] = st
	}
	if groups, denseHi := groupsHint(n.in, n.keys); groups > 0 && len(states) == 1 {
		groups = min(groups, maxReservedGroups)
		states[0].g.Reserve(groups, denseHi)
		for _, a := range states[0].accs {
			if r, ok := a.(reserver); ok {
				r.reserve(groups)
			}
		}
	}
	var gids []int32
	keyCols := make([]*Col, len(n.keys))
	var setCols []*Col
	recycles := n.recycles(states)
	for b := first; err != io.EOF; b, err = n.in.Next(ctx) {
		if err != nil {
			return nil, err
		}
		in := b // ordered aggregates read the input batch itself
		if !n.evaluated {
			if in, err = n.inputs(b); err != nil {
				return nil, err
			}
		}
		nk, na := len(n.keys), len(n.aggs)
		copy(keyCols, in.Cols[:nk])
		args, args2 := in.Cols[nk:nk+na], in.Cols[nk+na:]
		if cap(gids) < b.N {
			gids = make([]int32, b.N)
		}
		gids = gids[:b.N]
		for _, st := range states {
			setCols = setCols[:0]
			for _, k := range st.set {
				setCols = append(setCols, keyCols[k])
			}
			st.assign(setCols, b.N, gids)
			for i, a := range n.aggs {
				if o, ok := st.accs[i].(*orderedAcc); ok {
					if err := o.add(b, a.order, gids, args[i], args2[i]); err != nil {
						return nil, err
					}
					continue
				}
				if args2[i] != nil {
					st.accs[i].(pairAccumulator).update2(gids, st.g.Groups(), args[i], args2[i])
					continue
				}
				st.accs[i].update(gids, st.g.Groups(), args[i])
			}
		}
		// Arithmetic results that only these aggregates read go back to
		// the pool (a column read by two grouping sets is released after
		// both).
		for i, a := range args {
			if a != nil && a.Scratch && copiesValues(states[0].accs[i]) && (args2[i] == nil || args2[i] != a) {
				release(a)
			}
		}
		if recycles && in.Recycle != nil {
			in.Recycle()
		}
		if err := n.mem.Set(ctx, aggBytes(states), n.memWhat); err != nil {
			return nil, err
		}
	}
	var out *Batch
	for _, st := range states {
		b, err := n.setResult(st, types)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = b
			continue
		}
		for i := range out.Cols {
			appendCol(out.Cols[i], b.Cols[i])
		}
		out.N += b.N
	}
	if out.N == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// setResult is the output of one grouping set: the keys (NULL where the
// set does not group by them) and the aggregates.
func (n *aggNode) setResult(st *groupingState, types []Type) (*Batch, error) {
	ng := st.g.Groups()
	if len(st.set) == 0 && ng == 0 {
		ng = 1 // an aggregate without GROUP BY (or the empty set) has one row
	}
	out := &Batch{N: ng}
	for i, t := range types {
		c := nullCol(t, ng)
		for j, k := range st.set {
			if k == i {
				c = st.keyCol(j)
				c.Len = ng
				if c.T.Kind == KNull {
					c = nullCol(t, ng)
				}
			}
		}
		out.Cols = append(out.Cols, c)
	}
	for i, a := range st.accs {
		if err := accError(a); err != nil {
			return nil, errorf("%s: %s", n.aggs[i].text, err)
		}
		out.Cols = append(out.Cols, a.result(ng))
	}
	return out, nil
}

func (n *aggNode) Close() {
	n.mem.Release()
	n.in.Close()
}

func (n *aggNode) Explain(x *explainer, depth int) {
	var aggs []string
	for _, a := range n.aggs {
		aggs = append(aggs, a.text)
	}
	switch {
	case n.sets != nil:
		x.Line(depth, "HASH AGGREGATE group by: %s in %d grouping sets aggregates: %s", exprList(n.keys), len(n.sets), strings.Join(aggs, ", "))
	case len(n.keys) > 0:
		x.Line(depth, "HASH AGGREGATE group by: %s aggregates: %s", exprList(n.keys), strings.Join(aggs, ", "))
		var follow []expr
		for i, d := range n.determined {
			if d {
				follow = append(follow, n.keys[i])
			}
		}
		if len(follow) > 0 {
			x.Line(depth+1, "keys that the others determine through unique join keys: %s", exprList(follow))
		}
	default:
		x.Line(depth, "AGGREGATE %s", strings.Join(aggs, ", "))
	}
	n.in.Explain(x, depth+1)
}

// maxReservedGroups caps the groups an aggregation makes room for ahead
// of time. groupsHint is an upper bound that sparse keys overshoot (TPC-H
// Q18 groups lineitem by l_orderkey, whose range is the rows' number but
// holds one key in four: at SF 10, room for 60M groups of 16-byte sums
// and 8-byte keys, 1.4 GB, for 15M groups); past the cap the groups grow
// by doubling as they come, which copies less than a gigabyte of
// reserved memory costs.
const maxReservedGroups = 1 << 22

// reserver is an accumulator that can make room for n groups.
type reserver interface{ reserve(n int) }

// groupsHint estimates the groups of an aggregation of a whole table by
// one integer column, from the footers: at most the rows, and at most the
// width of the column's range (denseHi is the range's top when the values
// are small non-negative integers, else -1). 0 when not known or small.
func groupsHint(in node, keys []expr) (groups int, denseHi int64) {
	if len(keys) != 1 || !wholeTable(in) {
		return 0, -1
	}
	k, ok := keys[0].(*colExpr)
	if !ok || k.col == nil || k.col.rel == nil || k.col.rel.table == nil || k.col.t.Kind != KInt {
		return 0, -1
	}
	rows, err := k.col.rel.table.NumRows()
	lo, hi, ok := footerRange(k.col)
	if err != nil || !ok || rows <= 0 {
		return 0, -1
	}
	est := min(float64(rows), hi-lo+1)
	if est < 1<<16 || est > 1<<26 {
		return 0, -1
	}
	denseHi = -1
	if lo >= 0 && hi < 1<<26 && hi < 8*est {
		denseHi = int64(hi)
	}
	return int(est), denseHi
}

// newGroupingState makes the state of grouping set set (keys of types),
// det marking the keys that the others determine (nil: none).
func newGroupingState(set []int, types []Type, det []bool, aggs int) *groupingState {
	st := &groupingState{set: set, accs: make([]accumulator, aggs)}
	var hashedTypes []Type
	for j, k := range set {
		if det != nil && det[k] {
			st.carried = append(st.carried, j)
			st.carry = append(st.carry, newBuilder(types[k], 16))
			continue
		}
		st.hashed = append(st.hashed, j)
		hashedTypes = append(hashedTypes, types[k])
	}
	st.g = kernels.NewGrouper(hashedTypes)
	return st
}

// assign fills gids with the groups of n rows whose keys (of the set)
// are cols, and records the carried keys of the groups new in them.
func (st *groupingState) assign(cols []*Col, n int, gids []int32) {
	if st.carried == nil {
		st.g.Assign(cols, n, gids)
		return
	}
	st.hcols = st.hcols[:0]
	for _, j := range st.hashed {
		st.hcols = append(st.hcols, cols[j])
	}
	from := int32(st.g.Groups())
	st.g.Assign(st.hcols, n, gids)
	added := int32(st.g.Groups()) - from
	if added == 0 {
		return
	}
	st.first = st.first[:0]
	for range added {
		st.first = append(st.first, -1)
	}
	for i, g := range gids[:n] {
		if g >= from && st.first[g-from] < 0 {
			st.first[g-from] = int32(i)
		}
	}
	for _, i := range st.first {
		for c, j := range st.carried {
			st.carry[c].AddRow(cols[j], int(i))
		}
	}
}

// keyCol is the column of the groups' values of the key at position j of
// the set.
func (st *groupingState) keyCol(j int) *Col {
	for h, x := range st.hashed {
		if x == j {
			return st.g.KeyCol(h)
		}
	}
	for c, x := range st.carried {
		if x == j {
			return st.carry[c].C
		}
	}
	return nil
}

// useCodes asks the scan below an aggregation for its GROUP BY keys that
// are string columns as dictionary codes, when the aggregates do not read
// them: grouping then looks each dictionary entry up once instead of
// copying and hashing every row's bytes (assignCodes, assignMulti).
func useCodes(sn *kernels.Scan, keys []expr, aggs []*aggSpec) {
	if len(keys) > 1 && !kernels.MultiKeyTypes(exprTypes(keys)) {
		return // grouped by byte keys: decoded anyway
	}
	read := map[*scopeCol]bool{}
	for _, a := range aggs {
		for _, e := range append([]expr{a.arg, a.arg2}, a.order...) {
			if e != nil {
				columnsOf(e, read)
			}
		}
	}
	for _, key := range keys {
		k, ok := key.(*colExpr)
		if !ok || k.col == nil || storage(k.t) != stBytes || read[k.col] {
			continue
		}
		for i, c := range scanRelation(sn).used {
			if c == k.col && k.s.idx == i && !slices.Contains(sn.Req.Codes, sn.Req.Columns[i]) {
				sn.Req.Codes = append(sn.Req.Codes, sn.Req.Columns[i])
			}
		}
	}
}

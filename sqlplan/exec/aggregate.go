package exec

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The hash aggregation operator: groups its input's rows (grouper.go)
// and feeds each aggregate's accumulator (package function).

// AggSpec is one aggregate of a GROUP BY: the call as its accumulator
// needs it, and the expressions it reads.
type AggSpec struct {
	function.AggCall
	// Arg is the argument (nil for count(*)); Arg2 the second one of
	// arg_max/arg_min (the value ordered by) and of the pair statistics.
	Arg, Arg2 Expr
	// Order is agg(x ORDER BY ...): the keys (evaluated on the input)
	// and their directions; set only where the order changes the result.
	Order     []Expr
	OrderKeys []SortKey
	// Text is the call as written, for EXPLAIN and errors.
	Text string
}

// HashAggregate is a hash aggregation: GROUP BY keys and aggregates.
type HashAggregate struct {
	In   Node
	Keys []Expr
	Aggs []*AggSpec
	// Sets are the grouping sets (key indices) of GROUPING SETS, ROLLUP
	// and CUBE; nil for a plain GROUP BY (one set of every key).
	Sets [][]int
	// Evaluated: the input's batches are Inputs(b) already (a pipeline
	// computed them).
	Evaluated bool
	// OverScan: the input is a scan (or the pipeline that evaluates the
	// inputs on its batches), whose batches nothing else holds.
	OverScan bool
	// Determine, when set, marks the keys that the others determine
	// (the planner's groupdeps.go), asked once the input's first batch
	// has come (the joins below have built their tables); only those
	// that are not are hashed.
	Determine func(in Node) []bool
	// Hint, when set, estimates the groups (and the top of a dense
	// integer key's range, else -1) from the input's files, so that the
	// groups' slices are allocated once: 0 when not known.
	Hint func(in Node) (groups int, denseHi int64)
	// SerialGroups keeps the grouping on one goroutine even over a
	// pipeline (aggparallel.go): the Hint expects so many groups that
	// merging the workers' partial tables would cost more than it saves.
	SerialGroups bool
	done         bool
	// determined marks the keys that the others determined in the run,
	// for EXPLAIN ANALYZE.
	determined []bool
	mem        OpMemory // the groups' keys, tables and states (memory.go)
}

func (n *HashAggregate) Memory() *OpMemory { return &n.mem }

// memWhat names the aggregation in a memory_limit error.
func (n *HashAggregate) memWhat() string {
	if len(n.Keys) == 0 {
		return "aggregate"
	}
	return "hash aggregate by " + ExprList(n.Keys)
}

// recycles reports whether the aggregation may give each input batch's
// buffers back to the scan once it has added the batch in: it reads a
// scan's batches directly, and neither its accumulators nor its Grouper
// keep anything of them (keys are copied into the Grouper unless they
// are nested values).
func (n *HashAggregate) recycles(states []*groupingState) bool {
	if _, direct := Bare(n.In).(*Scan); !direct && !n.OverScan {
		return false
	}
	for _, st := range states {
		for _, a := range st.accs {
			if !function.CopiesValues(a) {
				return false
			}
		}
	}
	for _, k := range n.Keys {
		switch vec.Storage(k.Type()) {
		case vec.StInt, vec.StFloat, vec.StBytes, vec.StBool:
		default:
			return false
		}
	}
	return true
}

// Inputs evaluates the keys and the aggregates' arguments on b: a batch
// of the keys, then the first and the second arguments (nil where an
// aggregate has none).
func (n *HashAggregate) Inputs(b *vec.Batch) (*vec.Batch, error) {
	nk, na := len(n.Keys), len(n.Aggs)
	out := &vec.Batch{N: b.N, Cols: make([]*vec.Col, nk+2*na), Recycle: b.Recycle}
	var err error
	for i, k := range n.Keys {
		if out.Cols[i], err = k.Eval(b); err != nil {
			return nil, err
		}
	}
	for i, a := range n.Aggs {
		if a.Arg != nil {
			if out.Cols[nk+i], err = a.Arg.Eval(b); err != nil {
				return nil, err
			}
		}
		if a.Arg2 != nil {
			if out.Cols[nk+na+i], err = a.Arg2.Eval(b); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// groupingState aggregates the rows of one grouping set.
type groupingState struct {
	set  []int // the keys grouped by
	g    *Grouper
	accs []function.Accumulator
	// With keys that others determine (Determine), g groups by the
	// keys at positions hashed of set, and carry holds the keys at
	// positions carried, taken from each group's first row.
	hashed, carried []int
	carry           []*vec.Builder
	hcols           []*vec.Col
	first           []int32
}

func (n *HashAggregate) Next(ctx context.Context) (*vec.Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	n.done = true
	types := make([]vec.Type, len(n.Keys))
	for i, k := range n.Keys {
		types[i] = k.Type().Plain()
	}
	if len(n.Keys) == 0 && allCountStar(n.Aggs) {
		// COUNT(*) only: count rows without touching them.
		var total int64
		for {
			b, err := n.In.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			total += int64(b.N)
		}
		out := &vec.Batch{N: 1}
		for range n.Aggs {
			out.Cols = append(out.Cols, &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: 1, I: []int64{total}})
		}
		return out, nil
	}
	sets := n.Sets
	if sets == nil {
		all := make([]int, len(n.Keys))
		for i := range all {
			all[i] = i
		}
		sets = [][]int{all}
	}
	if p := n.drainable(); p != nil {
		return n.parallelNext(ctx, p, sets, types)
	}
	// The first batch comes before the groupers are made: the joins below
	// have built their tables by then, and which keys determine the others
	// is known (Determine).
	first, err := n.In.Next(ctx)
	if err != nil && err != io.EOF {
		return nil, err
	}
	var det []bool
	if err == nil && n.Sets == nil {
		if n.Determine != nil {
			det = n.Determine(n.In)
		}
		n.determined = det
	}
	states := n.newStates(sets, types, det, false)
	n.reserve(states)
	w := &aggWork{keyCols: make([]*vec.Col, len(n.Keys))}
	recycles := n.recycles(states)
	for b := first; err != io.EOF; b, err = n.In.Next(ctx) {
		if err != nil {
			return nil, err
		}
		if err := n.addBatch(states, w, b, recycles); err != nil {
			return nil, err
		}
		if err := n.mem.Set(ctx, aggBytes(states), n.memWhat); err != nil {
			return nil, err
		}
	}
	return n.result(states, types)
}

// result is the output of the grouping states, one set after another.
func (n *HashAggregate) result(states []*groupingState, types []vec.Type) (*vec.Batch, error) {
	var out *vec.Batch
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
			vec.AppendCol(out.Cols[i], b.Cols[i])
		}
		out.N += b.N
	}
	if out.N == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// aggWork is the scratch of one goroutine adding batches to grouping
// states; with firsts set (a worker's partial groups), it also records
// the position of each new group's first row.
type aggWork struct {
	gids             []int32
	keyCols, setCols []*vec.Col
	firsts           [][]int64 // per state, per group: seq<<32 | row
	seq              int64
}

// addBatch groups the rows of input batch b into the states and feeds
// their aggregates; recycles gives b's buffers back to the scan after.
func (n *HashAggregate) addBatch(states []*groupingState, w *aggWork, b *vec.Batch, recycles bool) error {
	in := b // ordered aggregates read the input batch itself
	if !n.Evaluated {
		var err error
		if in, err = n.Inputs(b); err != nil {
			return err
		}
	}
	nk, na := len(n.Keys), len(n.Aggs)
	copy(w.keyCols, in.Cols[:nk])
	args, args2 := in.Cols[nk:nk+na], in.Cols[nk+na:]
	if cap(w.gids) < b.N {
		w.gids = make([]int32, b.N)
	}
	gids := w.gids[:b.N]
	for s, st := range states {
		w.setCols = w.setCols[:0]
		for _, k := range st.set {
			w.setCols = append(w.setCols, w.keyCols[k])
		}
		from := st.g.Groups()
		st.assign(w.setCols, b.N, gids)
		if w.firsts != nil {
			w.firsts[s] = recordFirsts(w.firsts[s], gids, from, st.g.Groups(), w.seq)
		}
		for i, a := range n.Aggs {
			if o, ok := st.accs[i].(*orderedAcc); ok {
				if err := o.add(b, a.Order, gids, args[i], args2[i]); err != nil {
					return err
				}
				continue
			}
			if args2[i] != nil {
				st.accs[i].(function.PairAccumulator).Update2(gids, st.g.Groups(), args[i], args2[i])
				continue
			}
			st.accs[i].Update(gids, st.g.Groups(), args[i])
		}
	}
	// Arithmetic results that only these aggregates read go back to
	// the pool (a column read by two grouping sets is released after
	// both).
	for i, a := range args {
		if a != nil && a.Scratch && function.CopiesValues(states[0].accs[i]) && (args2[i] == nil || args2[i] != a) {
			vec.Release(a)
		}
	}
	if recycles && in.Recycle != nil {
		in.Recycle()
	}
	return nil
}

// setResult is the output of one grouping set: the keys (NULL where the
// set does not group by them) and the aggregates.
func (n *HashAggregate) setResult(st *groupingState, types []vec.Type) (*vec.Batch, error) {
	ng := st.g.Groups()
	if len(st.set) == 0 && ng == 0 {
		ng = 1 // an aggregate without GROUP BY (or the empty set) has one row
	}
	out := &vec.Batch{N: ng}
	for i, t := range types {
		c := vec.NullCol(t, ng)
		for j, k := range st.set {
			if k == i {
				c = st.keyCol(j)
				c.Len = ng
				if c.T.Kind == vec.KNull {
					c = vec.NullCol(t, ng)
				}
			}
		}
		out.Cols = append(out.Cols, c)
	}
	for i, a := range st.accs {
		if err := function.AccError(a); err != nil {
			return nil, function.CallError(n.Aggs[i].Text, err)
		}
		out.Cols = append(out.Cols, a.Result(ng))
	}
	return out, nil
}

func (n *HashAggregate) Close() {
	n.mem.Release()
	n.In.Close()
}

func (n *HashAggregate) Explain(x *Explainer, depth int) {
	var aggs []string
	for _, a := range n.Aggs {
		aggs = append(aggs, a.Text)
	}
	switch {
	case n.Sets != nil:
		x.Line(depth, "HASH AGGREGATE group by: %s in %d grouping sets aggregates: %s", ExprList(n.Keys), len(n.Sets), strings.Join(aggs, ", "))
	case len(n.Keys) > 0:
		x.Line(depth, "HASH AGGREGATE group by: %s aggregates: %s", ExprList(n.Keys), strings.Join(aggs, ", "))
		var follow []Expr
		for i, d := range n.determined {
			if d {
				follow = append(follow, n.Keys[i])
			}
		}
		if len(follow) > 0 {
			x.Line(depth+1, "keys that the others determine through unique join keys: %s", ExprList(follow))
		}
	default:
		x.Line(depth, "AGGREGATE %s", strings.Join(aggs, ", "))
	}
	n.In.Explain(x, depth+1)
}

// newStates makes the grouping states of sets (keys of types, det
// marking the keys that the others determine), their accumulators
// MarkPartial when partial (a worker's share of the rows).
func (n *HashAggregate) newStates(sets [][]int, types []vec.Type, det []bool, partial bool) []*groupingState {
	states := make([]*groupingState, len(sets))
	for s, set := range sets {
		st := newGroupingState(set, types, det, len(n.Aggs))
		for i, a := range n.Aggs {
			if a.Fn == "grouping" {
				st.accs[i] = &function.GroupingAcc{V: function.GroupingValue(a.Grouping, set)}
				continue
			}
			st.accs[i] = NewAccumulator(a)
			if partial {
				function.MarkPartial(st.accs[i])
			}
		}
		states[s] = st
	}
	return states
}

// reserve makes room for the groups the Hint expects in a single
// grouping state.
func (n *HashAggregate) reserve(states []*groupingState) {
	groups, denseHi := n.hint()
	if groups <= 0 || len(states) != 1 {
		return
	}
	groups = min(groups, maxReservedGroups)
	states[0].g.Reserve(groups, denseHi)
	for _, a := range states[0].accs {
		if r, ok := a.(function.Reserver); ok {
			r.Reserve(groups)
		}
	}
}

// maxReservedGroups caps the groups an aggregation makes room for ahead
// of time. The Hint is an upper bound that sparse keys overshoot (TPC-H
// Q18 groups lineitem by l_orderkey, whose range is the rows' number but
// holds one key in four: at SF 10, room for 60M groups of 16-byte sums
// and 8-byte keys, 1.4 GB, for 15M groups); past the cap the groups grow
// by doubling as they come, which copies less than a gigabyte of
// reserved memory costs.
const maxReservedGroups = 1 << 22

// newGroupingState makes the state of grouping set set (keys of types),
// det marking the keys that the others determine (nil: none).
func newGroupingState(set []int, types []vec.Type, det []bool, aggs int) *groupingState {
	st := &groupingState{set: set, accs: make([]function.Accumulator, aggs)}
	var hashedTypes []vec.Type
	for j, k := range set {
		if det != nil && det[k] {
			st.carried = append(st.carried, j)
			st.carry = append(st.carry, vec.NewBuilder(types[k], 16))
			continue
		}
		st.hashed = append(st.hashed, j)
		hashedTypes = append(hashedTypes, types[k])
	}
	st.g = NewGrouper(hashedTypes)
	return st
}

// assign fills gids with the groups of n rows whose keys (of the set)
// are cols, and records the carried keys of the groups new in them.
func (st *groupingState) assign(cols []*vec.Col, n int, gids []int32) {
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
func (st *groupingState) keyCol(j int) *vec.Col {
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

// hint is n.Hint's estimate of the groups, 0 without one.
func (n *HashAggregate) hint() (groups int, denseHi int64) {
	if n.Hint == nil {
		return 0, -1
	}
	return n.Hint(n.In)
}

// allCountStar reports whether every aggregate is count(*).
func allCountStar(aggs []*AggSpec) bool {
	for _, a := range aggs {
		if a.Fn != "count_star" {
			return false
		}
	}
	return len(aggs) > 0
}

// accBytesPerGroup estimates an accumulator's state per group (a sum and
// a count, or an extreme and a flag); those that keep values (lists,
// quantiles) take more, which is not counted.
const accBytesPerGroup = 16

// aggBytes estimates what an aggregation's grouping states take.
func aggBytes(states []*groupingState) int64 {
	var n int64
	for _, st := range states {
		n += st.g.Bytes() + int64(st.g.Groups())*int64(len(st.accs))*accBytesPerGroup
	}
	return n
}

func (n *HashAggregate) WrapInputs(wrap func(Node) Node) { n.In = wrap(n.In) }

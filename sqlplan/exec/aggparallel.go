package exec

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Parallel hash aggregation: when the aggregation's inputs come from a
// pipeline (its keys and arguments evaluated on the pipeline's workers),
// each worker also groups the batches it made, into grouping states of
// its own whose accumulators hold partial states; at the end the
// workers' groups are added into one final state, in the order of their
// first rows in the scan, and their accumulators combined
// (function.Combiner). The result is the serial run's, rows in the same
// order: only aggregates whose result does not depend on the order of
// their rows go this way (function.Combines).

// partialAgg is one worker's share of a parallel aggregation.
type partialAgg struct {
	states   []*groupingState
	work     *aggWork
	recycles bool
	bytes    atomic.Int64 // what the states take (aggBytes)
	rows     int64        // the rows put in
	// reducesLittle's mark (the rows and the groups then) and verdict.
	markRows, markHeld int64
	judged             bool
}

// drainable is the pipeline whose workers can group n's rows themselves:
// the one that evaluates n's inputs, not started, when every aggregate
// combines; nil otherwise.
func (n *HashAggregate) drainable() *Pipeline {
	p, ok := Bare(n.In).(*Pipeline)
	if !n.Evaluated || n.SerialGroups || !ok || p.Started() || p.Workers < 2 || !n.Combines() {
		return nil
	}
	return p
}

// GroupsInParallel reports whether workers grouping n's rows themselves
// have work worth sharing even when n's inputs are plain columns: there
// are keys or DISTINCT sets to build (a sum of a column alone is faster
// than handing its batches around), and every aggregate combines.
func (n *HashAggregate) GroupsInParallel() bool {
	work := len(n.Keys) > 0
	for _, a := range n.Aggs {
		work = work || a.Distinct
	}
	return work && n.Combines()
}

// Combines reports whether every aggregate of n combines partial states
// into the serial result, so that workers may group rows themselves.
func (n *HashAggregate) Combines() bool {
	for _, a := range n.Aggs {
		if a.Fn == "grouping" {
			continue // a constant of the grouping set
		}
		if a.Order != nil || !function.Combines(NewAccumulator(a)) {
			return false
		}
	}
	return true
}

// parallelNext is Next grouping on p's workers: partial states per
// worker, merged at the end into the final ones.
func (n *HashAggregate) parallelNext(ctx context.Context, p *Pipeline, sets [][]int, types []vec.Type) (*vec.Batch, error) {
	pa := &parallelAgg{n: n, parts: make([]*partialAgg, p.Workers)}
	ready := func() error {
		// The preps have built the joins' tables: which keys determine
		// the others is known.
		var det []bool
		if n.Sets == nil && n.Determine != nil {
			det = n.Determine(n.In)
			n.determined = det
		}
		for w := range pa.parts {
			states := n.newStates(sets, types, det, true)
			pa.parts[w] = &partialAgg{states: states, recycles: n.recycles(states), work: n.newWork(len(sets))}
		}
		pa.final = n.newStates(sets, types, det, false)
		n.reserve(pa.final)
		pa.finalWork = &aggWork{keyCols: make([]*vec.Col, len(n.Keys))}
		return nil
	}
	start := time.Now()
	err := p.Drain(ctx, ready, func(w int, seq int64, b *vec.Batch) error { return pa.add(ctx, w, seq, b) })
	if st, ok := n.In.(*Stat); ok {
		st.Drained(ctx, pa.rows.Load(), time.Since(start).Nanoseconds())
	}
	if err != nil {
		return nil, err
	}
	for s, st := range pa.final {
		mergePartials(st, pa.parts, s)
		if err := n.mem.Set(ctx, partsBytes(pa.parts)+aggBytes(pa.final), n.memWhat); err != nil {
			return nil, err
		}
	}
	if err := n.mem.Set(ctx, aggBytes(pa.final), n.memWhat); err != nil {
		return nil, err
	}
	return n.result(pa.final, types)
}

// newWork is the scratch of a worker grouping partial states of sets
// grouping sets.
func (n *HashAggregate) newWork(sets int) *aggWork {
	return &aggWork{keyCols: make([]*vec.Col, len(n.Keys)), firsts: make([][]int64, sets)}
}

// parallelAgg is the state of a parallel aggregation: the workers'
// partial states, and the final ones, which the workers also feed
// directly (one at a time) once partial states stop paying (sharing).
type parallelAgg struct {
	n         *HashAggregate
	parts     []*partialAgg
	final     []*groupingState
	finalWork *aggWork
	sharing   atomic.Bool
	rows      atomic.Int64
	// mu guards final, finalBytes and n.mem.
	mu         sync.Mutex
	finalBytes int64
}

// add is the sink of worker w: batch b, number seq of the input, into
// the worker's partial states, or into the final ones when sharing.
func (pa *parallelAgg) add(ctx context.Context, w int, seq int64, b *vec.Batch) error {
	n := pa.n
	pa.rows.Add(int64(b.N))
	if !pa.sharing.Load() {
		part := pa.parts[w]
		part.work.seq = seq
		if err := n.addBatch(part.states, part.work, b, part.recycles); err != nil {
			return err
		}
		part.rows += int64(b.N)
		if part.reducesLittle() {
			pa.sharing.Store(true)
		}
		// The memory counted changes only by steps of memReportStep a
		// worker, so that workers whose groups no longer grow (few
		// groups) do not take the lock at every batch.
		bytes := aggBytes(part.states)
		if bytes-part.bytes.Load() < memReportStep && part.bytes.Load()-bytes < memReportStep {
			return nil
		}
		part.bytes.Store(bytes)
		pa.mu.Lock()
		defer pa.mu.Unlock()
		return n.mem.Set(ctx, partsBytes(pa.parts)+pa.finalBytes, n.memWhat)
	}
	pa.mu.Lock()
	defer pa.mu.Unlock()
	if err := n.addBatch(pa.final, pa.finalWork, b, pa.parts[w].recycles); err != nil {
		return err
	}
	pa.finalBytes = aggBytes(pa.final)
	return n.mem.Set(ctx, partsBytes(pa.parts)+pa.finalBytes, n.memWhat)
}

// memReportStep is how much a worker's partial states may grow before
// it counts them against memory_limit again.
const memReportStep = 64 << 10

// sharingCheckRows is the rows a worker groups into partial states
// before it starts judging whether they pay.
const sharingCheckRows = 1 << 12

// reducesLittle reports whether the worker's partial states grow by
// nearly as many groups (and DISTINCT values) as the rows it puts in
// them: merging them would then redo most of the grouping on one
// goroutine (TPC-H Q16's count(DISTINCT) over 18,314 groups of 6 rows
// each). It compares the growth between a first mark, at
// sharingCheckRows, and twice the rows of the mark, so that the groups
// any aggregation meets first (all of them when they are few) do not
// count; judged once.
func (part *partialAgg) reducesLittle() bool {
	if part.judged || part.rows < sharingCheckRows {
		return false
	}
	var held int64
	for _, st := range part.states {
		held += int64(st.g.Groups())
		for _, a := range st.accs {
			held += int64(function.PartialValues(a))
		}
	}
	if part.markRows == 0 {
		part.markRows, part.markHeld = part.rows, held
		return false
	}
	if part.rows < 2*part.markRows {
		return false
	}
	part.judged = true
	return 2*(held-part.markHeld) > (part.rows-part.markRows)*int64(len(part.states))
}

// partsBytes is what the workers' partial states take.
func partsBytes(parts []*partialAgg) int64 {
	var b int64
	for _, pa := range parts {
		b += pa.bytes.Load()
	}
	return b
}

// recordFirsts appends to firsts (a state's first-row positions by group)
// those of the groups from..to-1 that the batch numbered seq made (its
// rows' groups gids), as seq<<32 | row.
func recordFirsts(firsts []int64, gids []int32, from, to int, seq int64) []int64 {
	if to == from {
		return firsts
	}
	for range to - from {
		firsts = append(firsts, -1)
	}
	for i, g := range gids {
		if int(g) >= from && firsts[g] < 0 {
			firsts[g] = seq<<32 | int64(i)
		}
	}
	return firsts
}

// mergePartials adds the groups of state s of every worker into final,
// in the order of their first rows in the input (each worker's groups
// are in that order already: a k-way merge, a run of one worker's groups
// at a time), then combines the workers' accumulators into final's.
func mergePartials(final *groupingState, parts []*partialAgg, s int) {
	into := make([][]int32, len(parts))
	heads := make([]int, len(parts)) // the next group of each worker to add
	for w, pa := range parts {
		into[w] = make([]int32, pa.states[s].g.Groups())
	}
	cols := make([]*vec.Col, len(final.set))
	var idx []int32
	for {
		w, until := nextRun(parts, heads, s)
		if w < 0 {
			break
		}
		firsts := parts[w].work.firsts[s]
		lo, hi := heads[w], heads[w]+1
		for hi < len(firsts) && firsts[hi] < until {
			hi++
		}
		heads[w] = hi
		idx = idx[:0]
		for g := lo; g < hi; g++ {
			idx = append(idx, int32(g))
		}
		st := parts[w].states[s]
		for j := range cols {
			cols[j] = st.keyCol(j).Take(idx)
		}
		final.assign(cols, hi-lo, into[w][lo:hi])
	}
	ng := final.g.Groups()
	for w, pa := range parts {
		for i, acc := range final.accs {
			acc.(function.Combiner).Combine(pa.states[s].accs[i], into[w], ng)
		}
	}
}

// nextRun is the worker whose next group to add came first in the input,
// and the first row of the next group of any other worker (the end of
// the run of the first's groups); -1 when every group is added.
func nextRun(parts []*partialAgg, heads []int, s int) (w int, until int64) {
	w, until = -1, int64(1)<<62
	var best int64
	for i, pa := range parts {
		f := pa.work.firsts[s]
		if heads[i] >= len(f) {
			continue
		}
		pos := f[heads[i]]
		switch {
		case w < 0:
			w, best = i, pos
		case pos < best:
			until = min(until, best)
			w, best = i, pos
		default:
			until = min(until, pos)
		}
	}
	return w, until
}

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
}

// drainable is the pipeline whose workers can group n's rows themselves:
// the one that evaluates n's inputs, not started, when every aggregate
// combines; nil otherwise.
func (n *HashAggregate) drainable() *Pipeline {
	p, ok := Bare(n.In).(*Pipeline)
	if !n.Evaluated || !ok || p.Started() || p.Workers < 2 || !n.Combines() {
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
// worker, merged at the end.
func (n *HashAggregate) parallelNext(ctx context.Context, p *Pipeline, sets [][]int, types []vec.Type) (*vec.Batch, error) {
	var det []bool
	parts := make([]*partialAgg, p.Workers)
	ready := func() error {
		// The preps have built the joins' tables: which keys determine
		// the others is known.
		if n.Sets == nil && n.Determine != nil {
			det = n.Determine(n.In)
			n.determined = det
		}
		for w := range parts {
			states := n.newStates(sets, types, det, true)
			parts[w] = &partialAgg{states: states, recycles: n.recycles(states),
				work: &aggWork{keyCols: make([]*vec.Col, len(n.Keys)), firsts: make([][]int64, len(sets))}}
		}
		return nil
	}
	var rows atomic.Int64
	var memMu sync.Mutex
	sink := func(w int, seq int64, b *vec.Batch) error {
		pa := parts[w]
		pa.work.seq = seq
		if err := n.addBatch(pa.states, pa.work, b, pa.recycles); err != nil {
			return err
		}
		rows.Add(int64(b.N))
		pa.bytes.Store(aggBytes(pa.states))
		memMu.Lock()
		defer memMu.Unlock()
		return n.mem.Set(ctx, partsBytes(parts), n.memWhat)
	}
	start := time.Now()
	err := p.Drain(ctx, ready, sink)
	if st, ok := n.In.(*Stat); ok {
		st.Drained(ctx, rows.Load(), time.Since(start).Nanoseconds())
	}
	if err != nil {
		return nil, err
	}
	final := n.newStates(sets, types, det, false)
	n.reserve(final)
	for s := range final {
		mergePartials(final[s], parts, s)
		if err := n.mem.Set(ctx, partsBytes(parts)+aggBytes(final), n.memWhat); err != nil {
			return nil, err
		}
	}
	if err := n.mem.Set(ctx, aggBytes(final), n.memWhat); err != nil {
		return nil, err
	}
	return n.result(final, types)
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

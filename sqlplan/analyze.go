package sqlplan

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"
)

// EXPLAIN ANALYZE figures per operator. The plan of an analyzed statement
// is instrumented after it is built: every input of every operator is
// wrapped in a statNode, which counts the rows and times the calls going
// through it, and the pipelines (pipe.go) time their per-batch steps.
// Plans run without ANALYZE are never wrapped, so they pay nothing; the
// wrapped ones pay two clock reads per batch and operator.
//
// Times: an operator's time is the wall time spent in its calls (next,
// and for a join in a pipeline the building of its table), which includes
// the time of the inputs it pulled in them; its self time is that minus
// the time of those inputs. The steps a pipeline runs on its workers
// (filters, projections, join probes) have a worker time instead: the sum
// over the workers of the time spent in them, so it may exceed the wall
// time; the pipeline itself shows its wall time and the sum of its
// workers' time.

// opStats are the figures of one operator.
type opStats struct {
	calls  atomic.Int64 // calls of next through a wrapper
	rows   atomic.Int64 // rows out
	nanos  atomic.Int64 // wall time in its calls, inputs included
	inputs atomic.Int64 // the part of nanos spent in its inputs
	work   atomic.Int64 // pipelined: time of its step summed over the workers
	steps  atomic.Int64 // pipelined: batches its step ran on
}

// callerKey holds, in a context, the figures of the operator whose call
// is running, so that an input wrapper knows whom to charge its time to
// as input time. A nil *opStats stops the charging (a pipeline's feeder
// runs beside its caller, not inside its calls).
type callerKey struct{}

// profile is the figures of an analyzed plan, by operator.
type profile struct {
	stats map[node]*opStats
	seen  map[node]bool
}

func newProfile() *profile {
	return &profile{stats: map[node]*opStats{}, seen: map[node]bool{}}
}

func (p *profile) of(n node) *opStats {
	st := p.stats[n]
	if st == nil {
		st = &opStats{}
		p.stats[n] = st
	}
	return st
}

// wrap instruments the plan below n and returns n wrapped.
func (p *profile) wrap(n node) node {
	if n == nil {
		return nil
	}
	if w, ok := n.(*statNode); ok {
		return w
	}
	p.walk(n)
	return &statNode{in: n, st: p.of(n)}
}

// walk wraps the inputs of n, once per operator (a pipeline's scan is
// also the input of the first operator of the chain it shows).
func (p *profile) walk(n node) {
	if p.seen[n] {
		return
	}
	p.seen[n] = true
	switch x := n.(type) {
	case *filterNode:
		x.in = p.wrap(x.in)
	case *relFilterNode:
		x.in = p.wrap(x.in)
	case *projectNode:
		x.in = p.wrap(x.in)
	case *limitNode:
		x.in = p.wrap(x.in)
	case *keepNode:
		x.in = p.wrap(x.in)
	case *distinctNode:
		x.in = p.wrap(x.in)
	case *unnestNode:
		x.in = p.wrap(x.in)
	case *aggNode:
		x.in = p.wrap(x.in)
	case *sortNode:
		x.in = p.wrap(x.in)
	case *windowNode:
		x.in = p.wrap(x.in)
	case *readAhead:
		x.in = p.wrap(x.in)
	case *unionNode:
		for i, in := range x.ins {
			x.ins[i] = p.wrap(in)
		}
	case *setOpNode:
		x.left, x.right = p.wrap(x.left), p.wrap(x.right)
	case *joinNode:
		p.walkJoin(x)
	case *lateralNode:
		x.join.left = p.wrap(x.join.left)
	case *asofNode:
		p.walkJoin(x.j)
	case *positionalNode:
		p.walkJoin(x.j)
	case *pipeNode:
		p.walkPipe(x)
	}
}

func (p *profile) walkJoin(j *joinNode) {
	j.left, j.right = p.wrap(j.left), p.wrap(j.right)
}

// walkPipe wraps the pipeline's scan and the chain it shows, and has it
// time its steps and the building of its joins' tables.
func (p *profile) walkPipe(x *pipeNode) {
	x.in = p.wrap(x.in)
	x.shown = p.wrap(x.shown)
	x.stepStats = make([]*opStats, len(x.steps))
	for i, o := range x.owners {
		if o != nil {
			x.stepStats[i] = p.of(o)
		}
	}
	x.prepStats = make([]*opStats, len(x.prep))
	for i, o := range x.prepOwners {
		if o != nil {
			x.prepStats[i] = p.of(o)
		}
	}
	x.workStats = p.of(x)
}

// statNode is an operator wrapped for EXPLAIN ANALYZE.
type statNode struct {
	in node
	st *opStats
	// inner is the last context next was called with (outer) with this
	// operator as the caller of its inputs, made again only when the
	// context changes.
	outer, inner context.Context
}

func (n *statNode) next(ctx context.Context) (*Batch, error) {
	if ctx != n.outer {
		n.outer, n.inner = ctx, context.WithValue(ctx, callerKey{}, n.st)
	}
	start := time.Now()
	b, err := n.in.next(n.inner)
	d := time.Since(start).Nanoseconds()
	n.st.calls.Add(1)
	n.st.nanos.Add(d)
	if caller, _ := ctx.Value(callerKey{}).(*opStats); caller != nil {
		caller.inputs.Add(d)
	}
	if err == nil && b != nil {
		n.st.rows.Add(int64(b.N))
	}
	return b, err
}

func (n *statNode) close() { n.in.close() }

// explain shows the operator with its figures on its first line.
func (n *statNode) explain(x *explainer, depth int) {
	if f := n.figures(); f != "" {
		x.figures = f
	}
	n.in.explain(x, depth)
}

// figures is the text of the operator's figures ("" when it never ran,
// as a pipeline fused into another is not).
func (n *statNode) figures() string {
	st := n.st
	var parts []string
	pipe, isPipe := n.in.(*pipeNode)
	switch {
	case isPipe && st.calls.Load() > 0:
		parts = append(parts, fmt.Sprintf("rows %d", st.rows.Load()),
			"wall time "+showNanos(st.nanos.Load()),
			fmt.Sprintf("worker time %s on %d threads", showNanos(st.work.Load()), pipe.workers))
	case st.steps.Load() > 0:
		parts = append(parts, fmt.Sprintf("rows %d", st.rows.Load()), "worker time "+showNanos(st.work.Load()))
		if t := st.nanos.Load(); t > 0 { // a join's table built for the pipeline
			parts = append(parts, fmt.Sprintf("build time %s (self %s)", showNanos(t), showNanos(max(t-st.inputs.Load(), 0))))
		}
	case st.calls.Load() > 0:
		t := st.nanos.Load()
		parts = append(parts, fmt.Sprintf("rows %d", st.rows.Load()),
			fmt.Sprintf("time %s (self %s)", showNanos(t), showNanos(max(t-st.inputs.Load(), 0))))
	default:
		return ""
	}
	if h, ok := n.in.(memHolder); ok {
		if peak := h.memory().Peak(); peak > 0 {
			parts = append(parts, "peak memory "+formatBytes(uint64(peak)))
		}
	}
	return strings.Join(parts, ", ")
}

// showNanos shows a duration to the microsecond.
func showNanos(ns int64) string {
	return time.Duration(ns).Round(time.Microsecond).String()
}

// bare is n without the EXPLAIN ANALYZE wrapper, for the code that looks
// at the plan's operators while it runs (key filters, grouping keys).
func bare(n node) node {
	if w, ok := n.(*statNode); ok {
		return w.in
	}
	return n
}

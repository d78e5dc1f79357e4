package exec

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// EXPLAIN ANALYZE figures per operator. The plan of an analyzed statement
// is instrumented after it is built: every input of every operator is
// wrapped in a Stat, which counts the rows and times the calls going
// through it, and the pipelines time their per-batch steps. Plans run
// without ANALYZE are never wrapped, so they pay nothing; the wrapped
// ones pay two clock reads per batch and operator.
//
// Times: an operator's time is the wall time spent in its calls (Next,
// and for a join in a pipeline the building of its table), which
// includes the time of the inputs it pulled in them; its self time is
// that minus the time of those inputs. The steps a pipeline runs on its
// workers (filters, projections, join probes) have a worker time
// instead: the sum over the workers of the time spent in them, so it may
// exceed the wall time; the pipeline itself shows its wall time and the
// sum of its workers' time.

// OpStats are the figures of one operator.
type OpStats struct {
	calls  atomic.Int64 // calls of Next through a wrapper
	rows   atomic.Int64 // rows out
	nanos  atomic.Int64 // wall time in its calls, inputs included
	inputs atomic.Int64 // the part of nanos spent in its inputs
	work   atomic.Int64 // pipelined: time of its step summed over the workers
	steps  atomic.Int64 // pipelined: batches its step ran on
}

// AddWork counts d nanoseconds a worker spent in the operator's step of
// a pipeline.
func (st *OpStats) AddWork(d int64) { st.work.Add(d) }

// AddStep counts one run of the operator's step of a pipeline: d
// nanoseconds on a worker, rows out (rows < 0: none counted, the step
// failed).
func (st *OpStats) AddStep(d int64, rows int) {
	st.work.Add(d)
	st.steps.Add(1)
	if rows >= 0 {
		st.rows.Add(int64(rows))
	}
}

// AddTime counts d nanoseconds of wall time spent in the operator outside
// its Next (a join's table built for a pipeline).
func (st *OpStats) AddTime(d int64) { st.nanos.Add(d) }

// callerKey holds, in a context, the figures of the operator whose call
// is running, so that an input wrapper knows whom to charge its time to
// as input time. A nil *OpStats stops the charging (a pipeline's feeder
// runs beside its caller, not inside its calls).
type callerKey struct{}

// WithCaller is ctx in which the inputs called are charged to st as its
// input time (st nil: to no one).
func WithCaller(ctx context.Context, st *OpStats) context.Context {
	return context.WithValue(ctx, callerKey{}, st)
}

// Parent is an operator with inputs: WrapInputs replaces each of them by
// wrap of it, which is how a Profile instruments a plan.
type Parent interface {
	WrapInputs(wrap func(Node) Node)
}

// Instrumented is an operator that instruments itself for a Profile
// beyond wrapping its inputs (a pipeline times its steps).
type Instrumented interface {
	Instrument(p *Profile)
}

// Pipelined is an operator that runs its steps on workers: it shows its
// wall time and its workers' time.
type Pipelined interface {
	WorkerCount() int
}

// MemHolder is an operator that accounts memory (for EXPLAIN ANALYZE).
type MemHolder interface {
	Memory() *OpMemory
}

// Profile is the figures of an analyzed plan, by operator.
type Profile struct {
	stats map[Node]*OpStats
	seen  map[Node]bool
}

func NewProfile() *Profile {
	return &Profile{stats: map[Node]*OpStats{}, seen: map[Node]bool{}}
}

// Of is the figures of operator n.
func (p *Profile) Of(n Node) *OpStats {
	st := p.stats[n]
	if st == nil {
		st = &OpStats{}
		p.stats[n] = st
	}
	return st
}

// Wrap instruments the plan below n and returns n wrapped.
func (p *Profile) Wrap(n Node) Node {
	if n == nil {
		return nil
	}
	if w, ok := n.(*Stat); ok {
		return w
	}
	p.walk(n)
	return &Stat{In: n, st: p.Of(n)}
}

// walk instruments n's inputs, once per operator (a pipeline's scan is
// also the input of the first operator of the chain it shows).
func (p *Profile) walk(n Node) {
	if p.seen[n] {
		return
	}
	p.seen[n] = true
	switch x := n.(type) {
	case Instrumented:
		x.Instrument(p)
	case Parent:
		x.WrapInputs(p.Wrap)
	}
}

// Stat is an operator wrapped for EXPLAIN ANALYZE.
type Stat struct {
	In Node
	st *OpStats
	// inner is the last context Next was called with (outer) with this
	// operator as the caller of its inputs, made again only when the
	// context changes.
	outer, inner context.Context
}

func (n *Stat) Next(ctx context.Context) (*vec.Batch, error) {
	if ctx != n.outer {
		n.outer, n.inner = ctx, WithCaller(ctx, n.st)
	}
	start := time.Now()
	b, err := n.In.Next(n.inner)
	d := time.Since(start).Nanoseconds()
	n.st.calls.Add(1)
	n.st.nanos.Add(d)
	if caller, _ := ctx.Value(callerKey{}).(*OpStats); caller != nil {
		caller.inputs.Add(d)
	}
	if err == nil && b != nil {
		n.st.rows.Add(int64(b.N))
	}
	return b, err
}

func (n *Stat) Close() { n.In.Close() }

// Explain shows the operator with its figures on its first line.
func (n *Stat) Explain(x *Explainer, depth int) {
	x.SetFigures(n.figures())
	n.In.Explain(x, depth)
}

// figures is the text of the operator's figures ("" when it never ran,
// as a pipeline fused into another is not).
func (n *Stat) figures() string {
	st := n.st
	var parts []string
	pipe, isPipe := n.In.(Pipelined)
	switch {
	case isPipe && st.calls.Load() > 0:
		parts = append(parts, fmt.Sprintf("rows %d", st.rows.Load()),
			"wall time "+showNanos(st.nanos.Load()),
			fmt.Sprintf("worker time %s on %d threads", showNanos(st.work.Load()), pipe.WorkerCount()))
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
	if h, ok := n.In.(MemHolder); ok {
		if peak := h.Memory().Peak(); peak > 0 {
			parts = append(parts, "peak memory "+FormatBytes(uint64(peak)))
		}
	}
	return strings.Join(parts, ", ")
}

// showNanos shows a duration to the microsecond.
func showNanos(ns int64) string {
	return time.Duration(ns).Round(time.Microsecond).String()
}

// Drained counts what a pipeline's consumer took from it on the
// pipeline's workers (Pipeline.Drain) instead of through Next: rows in
// nanos of wall time, the input time of the caller in ctx.
func (n *Stat) Drained(ctx context.Context, rows, nanos int64) {
	n.st.calls.Add(1)
	n.st.nanos.Add(nanos)
	n.st.rows.Add(rows)
	if caller, _ := ctx.Value(callerKey{}).(*OpStats); caller != nil {
		caller.inputs.Add(nanos)
	}
}

// Bare is n without the EXPLAIN ANALYZE wrapper, for the code that looks
// at the plan's operators while it runs (key filters, grouping keys).
func Bare(n Node) Node {
	if w, ok := n.(*Stat); ok {
		return w.In
	}
	return n
}

// The inputs of the operators here, for a Profile.

func (n *Filter) WrapInputs(wrap func(Node) Node)    { n.In = wrap(n.In) }
func (n *RelFilter) WrapInputs(wrap func(Node) Node) { n.In = wrap(n.In) }
func (n *Project) WrapInputs(wrap func(Node) Node)   { n.In = wrap(n.In) }
func (n *Limit) WrapInputs(wrap func(Node) Node)     { n.In = wrap(n.In) }
func (n *Keep) WrapInputs(wrap func(Node) Node)      { n.In = wrap(n.In) }
func (n *Distinct) WrapInputs(wrap func(Node) Node)  { n.In = wrap(n.In) }
func (n *Sort) WrapInputs(wrap func(Node) Node)      { n.In = wrap(n.In) }
func (n *SetOp) WrapInputs(wrap func(Node) Node)     { n.Left, n.Right = wrap(n.Left), wrap(n.Right) }

func (n *Union) WrapInputs(wrap func(Node) Node) {
	for i, in := range n.Ins {
		n.Ins[i] = wrap(in)
	}
}

package exec

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// A pipeline runs the per-batch work above a scan — residual filters and
// the evaluation of an aggregate's keys and arguments — on several
// goroutines, so that a query's expressions use every thread the scan's
// decoding does. Its batches come out in the scan's order, so everything
// above sees exactly what a serial run would (the same float sums, the
// same first error). The planner decides what runs in one (sqlplan's
// pipe.go); Pipeline runs it.

// Step is one per-batch step of a pipeline: it returns the batch
// transformed (nil or an empty batch drops it). Steps run concurrently on
// different batches, so they read shared state only.
type Step func(*vec.Batch) (*vec.Batch, error)

// Pipeline feeds the batches of In to Workers goroutines running Steps,
// and hands the results on in order.
type Pipeline struct {
	In    Node
	Steps []Step
	Prep  []func(context.Context) error // run once before the workers start
	// PrepAfter lists for each prep the preps that must finish before it
	// starts; the others run at once, up to Workers at a time
	// (preps.go). nil: one after another, from the last to the first.
	PrepAfter [][]int
	Workers   int
	// Owners and PrepOwners are the operators whose work Steps and Prep
	// do (nil: the pipeline's own), for their EXPLAIN ANALYZE figures.
	Owners, PrepOwners []Node
	// Shown is the serial chain the pipeline replaces, for EXPLAIN.
	Shown Node
	// Fused: a pipeline above runs these steps as its own.
	Fused bool

	// The stats of the owners (nil when not analyzed).
	stepStats, prepStats []*OpStats
	workStats            *OpStats

	started bool
	cancel  context.CancelFunc
	order   chan chan pipeResult // one result channel per batch, in input order
	wg      sync.WaitGroup
	failed  error
}

type pipeResult struct {
	b   *vec.Batch
	err error
}

type pipeJob struct {
	b   *vec.Batch
	out chan pipeResult
}

// Started reports whether the pipeline has begun running (its steps can
// no longer change).
func (n *Pipeline) Started() bool { return n.started }

func (n *Pipeline) start(ctx context.Context) {
	n.started = true
	ctx, n.cancel = context.WithCancel(ctx)
	feedCtx := ctx
	if n.workStats != nil {
		// The feeder runs beside the caller: its input's time is no part
		// of the caller's calls.
		feedCtx = WithCaller(ctx, nil)
	}
	jobs := make(chan pipeJob, n.Workers)
	n.order = make(chan chan pipeResult, 2*n.Workers)
	n.wg.Add(1 + n.Workers)
	go func() { // the feeder: the only caller of In.Next
		defer n.wg.Done()
		defer close(jobs)
		defer close(n.order)
		for {
			b, err := n.In.Next(feedCtx)
			out := make(chan pipeResult, 1)
			if err != nil {
				out <- pipeResult{err: err}
				select {
				case n.order <- out:
				case <-ctx.Done():
				}
				return
			}
			select {
			case n.order <- out:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- pipeJob{b: b, out: out}:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := 0; i < n.Workers; i++ {
		go func() {
			defer n.wg.Done()
			for j := range jobs {
				b, err := n.run(j.b)
				j.out <- pipeResult{b: b, err: err}
			}
		}()
	}
}

// run applies the steps to one batch.
func (n *Pipeline) run(b *vec.Batch) (*vec.Batch, error) {
	if n.stepStats != nil {
		return n.runTimed(b)
	}
	for _, s := range n.Steps {
		var err error
		if b, err = s(b); err != nil {
			return nil, err
		}
		if b == nil || b.N == 0 {
			return nil, nil
		}
	}
	return b, nil
}

func (n *Pipeline) Next(ctx context.Context) (*vec.Batch, error) {
	if n.failed != nil {
		return nil, n.failed
	}
	if !n.started {
		if err := n.runPreps(ctx); err != nil {
			n.failed = err
			return nil, err
		}
		n.start(ctx)
	}
	for {
		var out chan pipeResult
		var ok bool
		select {
		case out, ok = <-n.order:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if !ok {
			n.failed = io.EOF
			if err := ctx.Err(); err != nil {
				n.failed = err
			}
			return nil, n.failed
		}
		var r pipeResult
		select {
		case r = <-out:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.err != nil {
			n.failed = r.err
			return nil, r.err
		}
		if r.b != nil && r.b.N > 0 {
			return r.b, nil
		}
	}
}

// Close stops the feeder and the workers before closing the input, so
// that In.Next and In.Close never run at once.
func (n *Pipeline) Close() {
	if n.started {
		n.cancel()
		// Unblock a feeder waiting to queue a result channel.
		go func() {
			for range n.order {
			}
		}()
		n.wg.Wait()
	}
	n.Shown.Close() // the chain the pipeline runs, down to In
}

func (n *Pipeline) Explain(x *Explainer, depth int) {
	if n.Fused {
		n.Shown.Explain(x, depth) // a part of the pipeline above
		return
	}
	x.Line(depth, "PARALLEL x%d", n.Workers)
	n.Shown.Explain(x, depth+1)
}

// runTimed is run timing each step, for EXPLAIN ANALYZE.
func (n *Pipeline) runTimed(b *vec.Batch) (*vec.Batch, error) {
	for i, s := range n.Steps {
		start := time.Now()
		var err error
		b, err = s(b)
		d := time.Since(start).Nanoseconds()
		n.workStats.AddWork(d)
		if st := n.stepStats[i]; st != nil {
			rows := -1
			if err == nil && b != nil {
				rows = b.N
			}
			st.AddStep(d, rows)
		}
		if err != nil {
			return nil, err
		}
		if b == nil || b.N == 0 {
			return nil, nil
		}
	}
	return b, nil
}

// runPrep runs prep i, timed as its operator's when analyzed.
func (n *Pipeline) runPrep(ctx context.Context, i int) error {
	if n.prepStats == nil || n.prepStats[i] == nil {
		return n.Prep[i](ctx)
	}
	st := n.prepStats[i]
	start := time.Now()
	err := n.Prep[i](WithCaller(ctx, st))
	st.AddTime(time.Since(start).Nanoseconds())
	return err
}

// Instrument wraps the pipeline's scan and the chain it shows, and has it
// time its steps and the building of its joins' tables.
func (n *Pipeline) Instrument(p *Profile) {
	n.In = p.Wrap(n.In)
	n.Shown = p.Wrap(n.Shown)
	n.stepStats = make([]*OpStats, len(n.Steps))
	for i, o := range n.Owners {
		if o != nil {
			n.stepStats[i] = p.Of(o)
		}
	}
	n.prepStats = make([]*OpStats, len(n.Prep))
	for i, o := range n.PrepOwners {
		if o != nil {
			n.prepStats[i] = p.Of(o)
		}
	}
	n.workStats = p.Of(n)
}

// WorkerCount is the number of the pipeline's workers, for its figures.
func (n *Pipeline) WorkerCount() int { return n.Workers }

package sqlplan

import (
	"context"
	"io"
	"slices"
	"sync"
	"time"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// A pipeline runs the per-batch work above a scan — residual filters and
// the evaluation of an aggregate's keys and arguments — on several
// goroutines, so that a query's expressions use every thread the scan's
// decoding does. Its batches come out in the scan's order, so everything
// above sees exactly what a serial run would (the same float sums, the
// same first error).

// pipeStep is one per-batch step: it returns the batch transformed (an
// empty batch drops it). Steps run concurrently on different batches, so
// they read shared state only.
type pipeStep func(*Batch) (*Batch, error)

// pipeNode feeds the batches of in to workers running steps, and hands
// the results on in order.
type pipeNode struct {
	in      node
	steps   []pipeStep
	prep    []func(context.Context) error // run once before the workers start
	workers int
	// owners are the operators whose work steps and prep do (nil: the
	// pipeline's own), and the stats their figures for EXPLAIN ANALYZE
	// (exec.Profile; nil when not analyzed).
	owners, prepOwners   []node
	stepStats, prepStats []*kernels.OpStats
	workStats            *kernels.OpStats
	// shown is the serial chain the pipeline replaces, for EXPLAIN.
	shown node
	// fused: a pipeline above runs these steps as its own.
	fused bool

	started bool
	cancel  context.CancelFunc
	order   chan chan pipeResult // one result channel per batch, in input order
	wg      sync.WaitGroup
	failed  error
}

type pipeResult struct {
	b   *Batch
	err error
}

type pipeJob struct {
	b   *Batch
	out chan pipeResult
}

func (n *pipeNode) start(ctx context.Context) {
	n.started = true
	ctx, n.cancel = context.WithCancel(ctx)
	feedCtx := ctx
	if n.workStats != nil {
		// The feeder runs beside the caller: its input's time is no part
		// of the caller's calls.
		feedCtx = kernels.WithCaller(ctx, nil)
	}
	jobs := make(chan pipeJob, n.workers)
	n.order = make(chan chan pipeResult, 2*n.workers)
	n.wg.Add(1 + n.workers)
	go func() { // the feeder: the only caller of in.next
		defer n.wg.Done()
		defer close(jobs)
		defer close(n.order)
		for {
			b, err := n.in.Next(feedCtx)
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
	for i := 0; i < n.workers; i++ {
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
func (n *pipeNode) run(b *Batch) (*Batch, error) {
	if n.stepStats != nil {
		return n.runTimed(b)
	}
	for _, s := range n.steps {
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

func (n *pipeNode) Next(ctx context.Context) (*Batch, error) {
	if n.failed != nil {
		return nil, n.failed
	}
	if !n.started {
		// Top down: a join builds its table before the joins below it
		// build theirs, so that its keys can filter their build sides'
		// scans (keyfilter.go), as in a serial run.
		for i := len(n.prep) - 1; i >= 0; i-- {
			if err := n.runPrep(ctx, i); err != nil {
				n.failed = err
				return nil, err
			}
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
// that in.next and in.Close never run at once.
func (n *pipeNode) Close() {
	if n.started {
		n.cancel()
		// Unblock a feeder waiting to queue a result channel.
		go func() {
			for range n.order {
			}
		}()
		n.wg.Wait()
	}
	n.shown.Close() // the chain the pipeline runs, down to in
}

func (n *pipeNode) Explain(x *explainer, depth int) {
	if n.fused {
		n.shown.Explain(x, depth) // a part of the pipeline above
		return
	}
	x.Line(depth, "PARALLEL x%d", n.workers)
	n.shown.Explain(x, depth+1)
}

// runTimed is run timing each step, for EXPLAIN ANALYZE.
func (n *pipeNode) runTimed(b *Batch) (*Batch, error) {
	for i, s := range n.steps {
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
func (n *pipeNode) runPrep(ctx context.Context, i int) error {
	if n.prepStats == nil || n.prepStats[i] == nil {
		return n.prep[i](ctx)
	}
	st := n.prepStats[i]
	start := time.Now()
	err := n.prep[i](kernels.WithCaller(ctx, st))
	st.AddTime(time.Since(start).Nanoseconds())
	return err
}

// pipeParts are a chain of nodes over a scan taken apart for a pipeline:
// the scan, the per-batch steps above it, what must run before the first
// step (building the hash tables of the joins probed), and the pipelines
// inside the chain whose steps these include.
type pipeParts struct {
	src                *kernels.Scan
	steps              []pipeStep
	prep               []func(context.Context) error
	owners, prepOwners []node // the operator of each step and prep (nil: none)
	fused              []*pipeNode
}

// with is p with one more step (and what it needs first), owner's work.
func (p pipeParts) with(step pipeStep, prep func(context.Context) error, owner node) pipeParts {
	p.steps = append(p.steps, step)
	p.owners = append(p.owners, owner)
	if prep != nil {
		p.prep = append(p.prep, prep)
		p.prepOwners = append(p.prepOwners, owner)
	}
	return p
}

// pipeline takes n apart when it is a chain of filters, projections and
// equality joins over a scan whose expressions can be evaluated
// concurrently.
func pipeline(n node) (pipeParts, bool) {
	switch x := n.(type) {
	case *kernels.Scan:
		return pipeParts{src: x}, true
	case *pipeNode:
		src, ok := x.in.(*kernels.Scan)
		if x.started || !ok {
			return pipeParts{}, false
		}
		// Clipped: the steps appended above never share x's arrays.
		return pipeParts{src: src, steps: slices.Clip(x.steps), prep: slices.Clip(x.prep),
			owners: slices.Clip(x.owners), prepOwners: slices.Clip(x.prepOwners), fused: []*pipeNode{x}}, true
	case *kernels.Filter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.In)
		pred := x.Pred
		return p.with(pred.Filter, nil, x), ok
	case *kernels.RelFilter:
		if !concurrentSafe(predExpr(&x.Pred)) {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.In)
		return p.with(x.Filter, nil, x), ok
	case *kernels.Project:
		for _, e := range x.Exprs {
			if !concurrentSafe(e.(expr)) {
				return pipeParts{}, false
			}
		}
		p, ok := pipeline(x.In)
		exprs := x.Exprs
		return p.with(func(b *Batch) (*Batch, error) { return kernels.ProjectBatch(b, exprs) }, nil, x), ok
	case *joinNode:
		if !x.probeConcurrently() {
			return pipeParts{}, false
		}
		p, ok := pipeline(x.left)
		return p.with(x.probe, x.prepare, x), ok
	}
	return pipeParts{}, false
}

// parallel returns n run as a pipeline on workers goroutines with extra
// as its last step, or nil when it cannot be.
func parallel(n node, workers int, extra pipeStep) *pipeNode {
	if workers < 2 {
		return nil
	}
	p, ok := pipeline(n)
	if !ok {
		return nil
	}
	if extra != nil {
		p = p.with(extra, nil, nil)
	}
	if len(p.steps) == 0 {
		return nil
	}
	for _, f := range p.fused {
		f.fused = true // runs as part of this one
	}
	return &pipeNode{in: p.src, steps: p.steps, prep: p.prep, owners: p.owners, prepOwners: p.prepOwners, workers: workers, shown: n}
}

// concurrentSafe reports whether e may be evaluated on several batches at
// once: expressions of the kinds below hold no state that evaluation
// changes; functions with state of their own (random numbers, sequences)
// and everything else (subqueries, lambdas) stay serial.
func concurrentSafe(e expr) bool {
	switch x := e.(type) {
	case *colExpr, *constExpr:
		return true
	case *cmpExpr, *andExpr, *orExpr, *notExpr, *isNullExpr, *isBoolExpr, *inExpr,
		*likeExpr, *caseExpr, *castExpr, *arithExpr, *negExpr:
	case *funcExpr:
		switch x.name {
		case "random", "rand", "setseed", "nextval", "currval", "uuid", "gen_random_uuid":
			return false
		}
	default:
		return false
	}
	for _, c := range children(e) {
		if !concurrentSafe(c) {
			return false
		}
	}
	return true
}

// isColumn reports whether e reads a column (or a constant) as it is.
func isColumn(e expr) bool {
	switch e.(type) {
	case *colExpr, *constExpr:
		return true
	}
	return false
}

package sqlplan

import (
	"context"
	"io"
	"sync"
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
	jobs := make(chan pipeJob, n.workers)
	n.order = make(chan chan pipeResult, 2*n.workers)
	n.wg.Add(1 + n.workers)
	go func() { // the feeder: the only caller of in.next
		defer n.wg.Done()
		defer close(jobs)
		defer close(n.order)
		for {
			b, err := n.in.next(ctx)
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

func (n *pipeNode) next(ctx context.Context) (*Batch, error) {
	if n.failed != nil {
		return nil, n.failed
	}
	if !n.started {
		for _, p := range n.prep {
			if err := p(ctx); err != nil {
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

// close stops the feeder and the workers before closing the input, so
// that in.next and in.close never run at once.
func (n *pipeNode) close() {
	if n.started {
		n.cancel()
		// Unblock a feeder waiting to queue a result channel.
		go func() {
			for range n.order {
			}
		}()
		n.wg.Wait()
	}
	n.shown.close() // the chain the pipeline runs, down to in
}

func (n *pipeNode) explain(x *explainer, depth int) {
	if n.fused {
		n.shown.explain(x, depth) // a part of the pipeline above
		return
	}
	x.line(depth, "PARALLEL x%d", n.workers)
	n.shown.explain(x, depth+1)
}

// pipeline returns n as a scan and the per-batch steps above it, with
// what must run before the first step (building the hash tables of the
// joins probed), when n is a chain of filters and equality joins over a
// scan whose expressions can be evaluated concurrently.
func pipeline(n node) (src *scanNode, steps []pipeStep, prep []func(context.Context) error, ok bool) {
	switch x := n.(type) {
	case *scanNode:
		return x, nil, nil, true
	case *pipeNode:
		if x.started {
			return nil, nil, nil, false
		}
		src, ok := x.in.(*scanNode)
		x.fused = ok
		return src, x.steps, x.prep, ok // one pipeline for both
	case *filterNode:
		src, steps, prep, ok := pipeline(x.in)
		if !ok || !concurrentSafe(x.pred) {
			return nil, nil, nil, false
		}
		pred := x.pred
		return src, append(steps, func(b *Batch) (*Batch, error) { return filterBatch(b, pred) }), prep, true
	case *relFilterNode:
		src, steps, prep, ok := pipeline(x.in)
		if !ok || !concurrentSafe(x.pred) {
			return nil, nil, nil, false
		}
		rf := &relFilterNode{pred: x.pred, offset: x.offset}
		return src, append(steps, rf.filter), prep, true
	case *projectNode:
		for _, e := range x.exprs {
			if !concurrentSafe(e) {
				return nil, nil, nil, false
			}
		}
		src, steps, prep, ok := pipeline(x.in)
		if !ok {
			return nil, nil, nil, false
		}
		exprs := x.exprs
		return src, append(steps, func(b *Batch) (*Batch, error) { return project(b, exprs) }), prep, true
	case *joinNode:
		if !x.probeConcurrently() {
			return nil, nil, nil, false
		}
		src, steps, prep, ok := pipeline(x.left)
		if !ok {
			return nil, nil, nil, false
		}
		return src, append(steps, x.probe), append(prep, x.prepare), true
	}
	return nil, nil, nil, false
}

// parallel returns n run as a pipeline on workers goroutines with extra
// as its last step, or nil when it cannot be.
func parallel(n node, workers int, extra pipeStep) *pipeNode {
	if workers < 2 {
		return nil
	}
	src, steps, prep, ok := pipeline(n)
	if !ok {
		return nil
	}
	if extra != nil {
		steps = append(steps, extra)
	}
	if len(steps) == 0 {
		return nil
	}
	return &pipeNode{in: src, steps: steps, prep: prep, workers: workers, shown: n}
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

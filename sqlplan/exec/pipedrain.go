package exec

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Draining a pipeline: instead of handing its batches on in order, each
// worker passes the batches it made to a sink of its own (a parallel
// aggregation's partial groups, aggparallel.go), so that the work above
// the steps runs on every worker too.

// Sink takes worker w's result of the input's batch number seq (batches
// are numbered from 0 in the scan's order; each worker's come in
// increasing order).
type Sink func(w int, seq int64, b *vec.Batch) error

// Drain runs the preps, then ready (which may look at what the preps
// built), then the steps on every batch of In, handing each result to
// sink on the worker that made it; it returns when all are done. The
// error is the one of the earliest batch that failed, as a serial run
// would meet first. The pipeline is not read with Next after.
func (n *Pipeline) Drain(ctx context.Context, ready func() error, sink Sink) error {
	if err := n.runPreps(ctx); err != nil {
		return err
	}
	if err := ready(); err != nil {
		return err
	}
	n.started = true
	ctx, n.cancel = context.WithCancel(ctx)
	order := make(chan chan pipeResult)
	close(order) // nothing is handed on: Close finds it drained
	n.order = order
	feedCtx, stopFeeding := context.WithCancel(ctx)
	defer stopFeeding()
	var fail failure
	fail.stop = stopFeeding
	if n.workStats != nil {
		feedCtx = WithCaller(feedCtx, nil)
	}
	type job struct {
		b   *vec.Batch
		seq int64
	}
	jobs := make(chan job, n.Workers)
	n.wg.Add(1 + n.Workers)
	go func() { // the feeder: the only caller of In.Next
		defer n.wg.Done()
		defer close(jobs)
		for seq := int64(0); ; seq++ {
			b, err := n.In.Next(feedCtx)
			if err == io.EOF {
				return
			}
			if err != nil {
				fail.set(seq, err)
				return
			}
			select {
			case jobs <- job{b, seq}:
			case <-feedCtx.Done():
				return
			}
		}
	}()
	for w := 0; w < n.Workers; w++ {
		go func() {
			defer n.wg.Done()
			// Batches fed before a failure still run: one of them may
			// fail first in the scan's order.
			for j := range jobs {
				if ctx.Err() != nil || fail.after(j.seq) {
					continue
				}
				b, err := n.run(j.b)
				if err == nil && b != nil && b.N > 0 {
					err = n.sinkTimed(sink, w, j.seq, b)
				}
				if err != nil {
					fail.set(j.seq, err)
				}
			}
		}()
	}
	n.wg.Wait()
	if fail.err != nil {
		return fail.err
	}
	return ctx.Err()
}

// failure is the error of the earliest failed batch of a Drain.
type failure struct {
	mu   sync.Mutex
	err  error
	seq  int64
	stop func()
}

func (f *failure) set(seq int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil || seq < f.seq {
		f.err, f.seq = err, seq
	}
	f.stop()
}

// after reports whether a batch later than seq has failed already.
func (f *failure) after(seq int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err != nil && seq > f.seq
}

// sinkTimed is sink(w, seq, b), its time counted as the workers' when
// analyzed.
func (n *Pipeline) sinkTimed(sink Sink, w int, seq int64, b *vec.Batch) error {
	if n.workStats == nil {
		return sink(w, seq, b)
	}
	start := time.Now()
	err := sink(w, seq, b)
	n.workStats.AddWork(time.Since(start).Nanoseconds())
	return err
}

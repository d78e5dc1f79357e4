package exec

import (
	"context"
	"errors"
	"sync"
)

// The preps of a pipeline are the builds of the hash tables its joins
// probe. Run one after another they leave the second thread idle while
// a build drains a scan the others do not need (TPC-H Q09's orders and
// partsupp, 1.5 and 0.8 million rows): the planner says which preps wait
// for which (PrepAfter), and the others run at once.

// runPreps runs the preps, at once where PrepAfter allows it.
func (n *Pipeline) runPreps(ctx context.Context) error {
	if n.PrepAfter == nil || n.Workers < 2 || len(n.Prep) < 2 {
		// Top down: a join builds its table before the joins below it
		// build theirs, so that its keys can filter their build sides'
		// scans (sqlplan's keyfilter.go), as in a serial run.
		for i := len(n.Prep) - 1; i >= 0; i-- {
			if err := n.runPrep(ctx, i); err != nil {
				return err
			}
		}
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make([]chan struct{}, len(n.Prep))
	for i := range done {
		done[i] = make(chan struct{})
	}
	errs := make([]error, len(n.Prep))
	slots := make(chan struct{}, n.Workers)
	var wg sync.WaitGroup
	for i := len(n.Prep) - 1; i >= 0; i-- {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[i])
			for _, d := range n.PrepAfter[i] {
				<-done[d]
				if errs[d] != nil {
					errs[i] = errPrepSkipped
					return
				}
			}
			slots <- struct{}{}
			defer func() { <-slots }()
			if errs[i] = n.runPrep(ctx, i); errs[i] != nil {
				cancel()
			}
		}()
	}
	wg.Wait()
	return firstPrepError(ctx, errs)
}

// errPrepSkipped marks a prep not run because one it waited for failed.
var errPrepSkipped = errors.New("prep skipped")

// firstPrepError is the error a serial run would have met first (the
// last failed prep's): not the cancellation it caused in the others.
func firstPrepError(ctx context.Context, errs []error) error {
	var canceled error
	for i := len(errs) - 1; i >= 0; i-- {
		switch err := errs[i]; {
		case err == nil || err == errPrepSkipped:
		case errors.Is(err, context.Canceled) && ctx.Err() != nil:
			if canceled == nil {
				canceled = err
			}
		default:
			return err
		}
	}
	return canceled
}

package exec

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// TestPrepsRunAtOnce: preps that wait for none run at the same time
// (each waits to see the other started), and a prep starts only after
// those it waits for have finished.
func TestPrepsRunAtOnce(t *testing.T) {
	started := [4]chan struct{}{make(chan struct{}), make(chan struct{}), make(chan struct{}), make(chan struct{})}
	var finished [4]atomic.Bool
	meet := func(me, other int) func(context.Context) error {
		return func(context.Context) error {
			close(started[me])
			select {
			case <-started[other]:
			case <-time.After(10 * time.Second):
				return errors.New("the other prep never started beside this one")
			}
			finished[me].Store(true)
			return nil
		}
	}
	var order error
	p := &Pipeline{Workers: 2, PrepAfter: [][]int{{3}, {3}, nil, nil}, Prep: []func(context.Context) error{
		func(context.Context) error {
			if !finished[3].Load() {
				order = errors.New("prep 0 started before prep 3, which it waits for, finished")
			}
			close(started[0])
			return nil
		},
		func(context.Context) error { close(started[1]); return nil },
		meet(2, 3),
		meet(3, 2),
	}}
	if err := p.runPreps(context.Background()); err != nil {
		t.Fatal(err)
	}
	if order != nil {
		t.Fatal(order)
	}
}

// TestPrepsFail: the error is the one a serial run meets first, not the
// cancellation it causes in the preps running beside; the preps waiting
// for a failed one do not run.
func TestPrepsFail(t *testing.T) {
	boom := errors.New("build failed")
	ran0 := false
	p := &Pipeline{Workers: 2, PrepAfter: [][]int{{2}, nil, nil}, Prep: []func(context.Context) error{
		func(context.Context) error { ran0 = true; return nil },
		func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() },
		func(context.Context) error { return boom },
	}}
	if err := p.runPreps(context.Background()); err != boom {
		t.Fatalf("error %v, want %v", err, boom)
	}
	if ran0 {
		t.Error("a prep waiting for the failed one ran")
	}
}

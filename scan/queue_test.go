package scan

import (
	"context"
	"testing"
)

// An ordered scan's unit holds up to its whole share of the row group
// ready, within queueBytes (a quarter of it without a filter), and never
// fewer than two batches; with one worker, two.
func TestUnitQueue(t *testing.T) {
	tbl, err := Open(writeEvents(t, 40_000, 40_000, 1), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	s, err := tbl.Scan(context.Background(), Request{Columns: []string{"user_id"}, BatchSize: 1000, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The test sets the scanner's fields below: its planning and workers
	// must have stopped first (the race detector caught them reading).
	s.Close()
	f, err := tbl.File(0)
	if err != nil {
		t.Fatal(err)
	}
	b := s.bindFile(0, f)
	if got := s.unitQueue(b, f, &unit{rg: 0}); got != 41 {
		t.Errorf("a row group of 40 batches: queue of %d, want 41", got)
	}
	if got := s.unitQueue(b, f, &unit{rg: 0, span: true, from: 0, to: 10_000}); got != 11 {
		t.Errorf("a span of 10 batches: queue of %d, want 11", got)
	}
	s.req.Threads = 1
	if got := s.unitQueue(b, f, &unit{rg: 0}); got != 2 {
		t.Errorf("one worker: queue of %d, want 2", got)
	}
	s.req.Threads = 2
	// queueBytes a quarter of the row group: ten batches of 1000 rows
	// with a filter, two (the least) without.
	defer func(q int) { queueBytes = q }(queueBytes)
	_, decoded := s.chunkSizes(b, f, 0)
	queueBytes = int(decoded/4) + 16
	if got := s.unitQueue(b, f, &unit{rg: 0}); got != 2 {
		t.Errorf("no filter, a quarter of the row group allowed: queue of %d, want 2", got)
	}
	s.filter = And{}
	if got := s.unitQueue(b, f, &unit{rg: 0}); got != 10 {
		t.Errorf("a filter, a quarter of the row group allowed: queue of %d, want 10", got)
	}
	queueBytes = 16 << 20
	// Batches so large that queueBytes holds fewer than two of them.
	s.req.BatchSize = 40_000 * int(float64(queueBytes)/decoded+1)
	if got := s.unitQueue(b, f, &unit{rg: 0}); got != 2 {
		t.Errorf("batches of more than queueBytes: queue of %d, want 2", got)
	}
}

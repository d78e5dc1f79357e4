package dml

import (
	"sync"
	"time"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Group commit: INSERTs outside transactions that reach one table while
// another's append is running wait for it, then go together in the next
// append (one journal, one fsync of the file for all of them), so that
// many goroutines inserting a row each are not bound by the fsyncs of an
// append per row. Each statement still returns only once its rows are
// durable, and a group is written all or none: when its append fails, its
// statements are written one by one, each getting its own error.

// A group is as large as the INSERTs in flight only if they all wait for
// it: the statements of the group just written come back a little after
// their append ends (their callers issue the next ones), and a new group
// cut at once would hold only the others, so that the inserters split
// into two cohorts taking turns, each append carrying half of them. So a
// leader first waits, for at most half the time of an append, until as
// many INSERTs wait as were in flight at the last append: the group of
// the last append and those that waited meanwhile.

// InsertGroups holds, by table path, the INSERTs waiting for an append;
// its zero value is ready to use. A table's queue stays when no INSERT
// waits: it keeps the counts the next leader gathers by (a few words per
// table written).
type InsertGroups struct {
	mu sync.Mutex
	q  map[string]*insertQueue
}

type insertQueue struct {
	waiting []*insertReq
	busy    bool // a leader is writing or gathering its group
	// inFlight is the INSERTs there were at the end of the last append:
	// its group and those waiting then. lastAppend is how long it took.
	inFlight   int
	lastAppend time.Duration
	// want and full: a gathering leader waits for full, closed once want
	// INSERTs wait.
	want int
	full chan struct{}
}

// Rows are an INSERT's rows, as an append of a table takes them: in the
// table's schema, a folder table's or a one-file table's, with the
// table's options.
type Rows struct {
	Schema  *schema.Schema
	Folder  bool
	Options map[string]string
	Batches [][]*vector.Vector
}

// AppendFunc appends rows to the table at path atomically.
type AppendFunc func(path string, rows Rows) error

type insertReq struct {
	rows Rows
	err  error
	done chan struct{}
	lead bool // woken to write the next group, not with a result
}

// Append appends rows to the table at path through appendRows, joined
// with the rows of other INSERTs into the same table that arrive while
// an append runs; it returns once the rows are written (or failed).
func (g *InsertGroups) Append(path string, rows Rows, appendRows AppendFunc) error {
	req := &insertReq{rows: rows, done: make(chan struct{})}
	g.mu.Lock()
	if g.q == nil {
		g.q = map[string]*insertQueue{}
	}
	q := g.q[path]
	if q == nil {
		q = &insertQueue{}
		g.q[path] = q
	}
	q.waiting = append(q.waiting, req)
	if q.full != nil && len(q.waiting) >= q.want {
		close(q.full)
		q.full = nil
	}
	if q.busy {
		g.mu.Unlock()
		<-req.done
		if !req.lead {
			return req.err
		}
		g.mu.Lock()
	}
	// This goroutine leads: it writes everything waiting, its own rows
	// among them, then hands the lead to one that arrived meanwhile.
	q.busy = true
	g.gather(q)
	group := q.waiting
	q.waiting = nil
	g.mu.Unlock()

	start := time.Now()
	writeGroup(path, group, appendRows)
	took := time.Since(start)

	g.mu.Lock()
	q.lastAppend = took
	q.inFlight = len(group) + len(q.waiting)
	if len(q.waiting) > 0 {
		next := q.waiting[0]
		next.lead = true
		close(next.done)
	} else {
		q.busy = false
	}
	g.mu.Unlock()
	for _, r := range group {
		if r != req {
			close(r.done)
		}
	}
	return req.err
}

// gather waits, g.mu held, until as many INSERTs wait in q as were in
// flight at its last append, or half that append's time has passed.
func (g *InsertGroups) gather(q *insertQueue) {
	if len(q.waiting) >= q.inFlight || q.lastAppend <= 0 {
		return
	}
	q.want = q.inFlight
	full := make(chan struct{})
	q.full = full
	t := time.NewTimer(q.lastAppend / 2)
	g.mu.Unlock()
	select {
	case <-full:
	case <-t.C:
	}
	t.Stop()
	g.mu.Lock()
	if q.full == full {
		q.full = nil
	}
}

// writeGroup appends the rows of the requests in one append, or, when
// that fails, one by one; it sets each request's err.
func writeGroup(path string, group []*insertReq, appendRows AppendFunc) {
	if len(group) > 1 {
		all := group[0].rows
		all.Batches = nil
		for _, r := range group {
			all.Batches = append(all.Batches, r.rows.Batches...)
		}
		if appendRows(path, all) == nil {
			return
		}
	}
	for _, r := range group {
		r.err = appendRows(path, r.rows)
	}
}

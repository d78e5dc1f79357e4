package sqlplan

import (
	"sync"
	"time"

	"github.com/carquet-go/carquet/objstore"
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

// insertGroups holds, by table path, the INSERTs waiting for an append.
// A table's queue stays when no INSERT waits: it keeps the counts the
// next leader gathers by (a few words per table written).
type insertGroups struct {
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

type insertReq struct {
	sch     *schema.Schema
	folder  bool
	opts    map[string]string
	batches [][]*vector.Vector
	err     error
	done    chan struct{}
	lead    bool // woken to write the next group, not with a result
}

// writeRowsGrouped is writeRows for an INSERT outside a transaction: it
// joins the rows of INSERTs into the same table that arrive while an
// append runs.
func (e *Engine) writeRowsGrouped(path string, sch *schema.Schema, folder bool, tableOpts map[string]string, batches [][]*vector.Vector) error {
	if objstore.IsURL(path) {
		return e.writeRows(path, sch, folder, tableOpts, batches)
	}
	g := &e.groups
	req := &insertReq{sch: sch, folder: folder, opts: tableOpts, batches: batches, done: make(chan struct{})}
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
	e.writeGroup(path, group)
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
func (g *insertGroups) gather(q *insertQueue) {
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
func (e *Engine) writeGroup(path string, group []*insertReq) {
	if len(group) > 1 {
		var all [][]*vector.Vector
		for _, r := range group {
			all = append(all, r.batches...)
		}
		first := group[0]
		if e.writeRows(path, first.sch, first.folder, first.opts, all) == nil {
			return
		}
	}
	for _, r := range group {
		r.err = e.writeRows(path, r.sch, r.folder, r.opts, r.batches)
	}
}

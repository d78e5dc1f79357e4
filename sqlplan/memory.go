package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"
)

// Query memory. The operators that hold rows or groups until their input
// ends (a hash join's build side, a hash aggregation's groups, a sort's
// buffer, a window's partitions, DISTINCT and INTERSECT/EXCEPT sets)
// account the bytes they hold against the query's memory_limit, so that
// a query too large for the limit fails with an error naming the limit
// and the operator instead of the process being killed for lack of
// memory. Nothing spills to disk: past the limit the query fails.
//
// Accounting is per batch or per growth of a structure, never per row:
// an operator adds what a batch made it hold. The sizes are those of the
// buffers (capacities), plus an estimate for hash map entries, so they
// follow the memory held closely but not to the byte.

// ErrMemoryLimit is what a query that would hold more than memory_limit
// fails with (errors.Is).
var ErrMemoryLimit = errors.New("query needs more than memory_limit")

// queryMemory is one query's account: the bytes its operators hold now,
// against the limit. Operators of one query may grow it from several
// goroutines (the pipelines), hence the atomic counter.
type queryMemory struct {
	limit uint64 // math.MaxUint64: none
	used  atomic.Int64
}

type queryMemoryKey struct{}

// withQueryMemory gives the query run under ctx an account with limit
// (0 or math.MaxUint64: none), unless ctx carries one already (a
// subquery shares its statement's).
func withQueryMemory(ctx context.Context, limit uint64) context.Context {
	if queryMemoryOf(ctx) != nil {
		return ctx
	}
	if limit == 0 {
		limit = math.MaxUint64
	}
	return context.WithValue(ctx, queryMemoryKey{}, &queryMemory{limit: limit})
}

func queryMemoryOf(ctx context.Context) *queryMemory {
	if ctx == nil {
		return nil
	}
	q, _ := ctx.Value(queryMemoryKey{}).(*queryMemory)
	return q
}

// opMemory is the share of one operator: what it holds now and the most
// it held (EXPLAIN ANALYZE shows that). An operator updates it from one
// goroutine at a time.
type opMemory struct {
	q    *queryMemory
	held int64
	peak int64
}

// set records that the operator now holds bytes, and fails when the
// query as a whole would hold more than its limit; what names the
// operator in the error (a function, so that the text is only made then).
func (m *opMemory) set(ctx context.Context, bytes int64, what func() string) error {
	if m.q == nil {
		if m.q = queryMemoryOf(ctx); m.q == nil {
			m.q = &queryMemory{limit: math.MaxUint64} // a plan run outside a statement
		}
	}
	delta := bytes - m.held
	m.held = bytes
	m.peak = max(m.peak, bytes)
	used := m.q.used.Add(delta)
	if delta > 0 && used > 0 && uint64(used) > m.q.limit {
		return fmt.Errorf("carquet: %w %s (%s: %s so far, the query %s in all); raise memory_limit", ErrMemoryLimit,
			formatBytes(m.q.limit), what(), formatBytes(uint64(bytes)), formatBytes(uint64(used)))
	}
	return nil
}

// add grows what the operator holds by delta bytes.
func (m *opMemory) add(ctx context.Context, delta int64, what func() string) error {
	return m.set(ctx, m.held+delta, what)
}

// release gives back all the operator holds (it is done with it).
func (m *opMemory) release() {
	if m.q != nil && m.held != 0 {
		m.q.used.Add(-m.held)
	}
	m.held = 0
}

// memHolder is an operator that accounts memory (for EXPLAIN ANALYZE).
type memHolder interface {
	memory() *opMemory
}

// colBytes is the memory c's buffers take.
func colBytes(c *Col) int64 {
	if c == nil {
		return 0
	}
	n := int64(cap(c.I))*8 + int64(cap(c.F))*8 + int64(cap(c.B)) + int64(cap(c.Null)) +
		int64(cap(c.Off))*4 + int64(cap(c.Data)) + int64(cap(c.H))*16 + int64(cap(c.A))*16 +
		int64(cap(c.Codes))*4
	return n // a dictionary is shared by the batches of a row group: not counted
}

// batchBytes is the memory b's columns take.
func batchBytes(b *Batch) int64 {
	var n int64
	for _, c := range b.Cols {
		n += colBytes(c)
	}
	return n
}

// mapEntryBytes estimates what one entry of a Go map with a small key and
// value takes, slack included.
const mapEntryBytes = 48

// bytes estimates what the grouper's tables and group keys take.
func (g *grouper) bytes() int64 {
	n := int64(cap(g.dense))*4 + int64(cap(g.multiDense.table))*4
	for _, k := range g.keys {
		n += colBytes(k.C)
	}
	n += int64(len(g.ints)+len(g.strs)+len(g.multi)) * mapEntryBytes
	for _, s := range g.interns {
		if s != nil {
			n += int64(len(s.ids)) * mapEntryBytes
		}
	}
	return n
}

// accBytesPerGroup estimates an accumulator's state per group (a sum and
// a count, or an extreme and a flag); those that keep values (lists,
// quantiles) take more, which is not counted.
const accBytesPerGroup = 16

// aggBytes estimates what an aggregation's grouping states take.
func aggBytes(states []*groupingState) int64 {
	var n int64
	for _, st := range states {
		n += st.g.bytes() + int64(st.g.n)*int64(len(st.accs))*accBytesPerGroup
	}
	return n
}

// bytes is what the table's arrays take.
func (t *rowTable) bytes() int64 {
	if t == nil {
		return 0
	}
	return int64(cap(t.heads))*4 + int64(cap(t.next))*4 + int64(cap(t.ints))*8 + int64(cap(t.data)) +
		int64(cap(t.off))*4 + int64(cap(t.hashes))*8 + int64(cap(t.null))
}

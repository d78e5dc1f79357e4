package exec

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/carquet-go/carquet/sqlplan/vec"
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

// WithQueryMemory gives the query run under ctx an account with limit
// (0 or math.MaxUint64: none), unless ctx carries one already (a
// subquery shares its statement's).
func WithQueryMemory(ctx context.Context, limit uint64) context.Context {
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

// OpMemory is the share of one operator: what it holds now and the most
// it held (EXPLAIN ANALYZE shows that). An operator updates it from one
// goroutine at a time.
type OpMemory struct {
	q    *queryMemory
	held int64
	peak int64
}

// Set records that the operator now holds bytes, and fails when the
// query as a whole would hold more than its limit; what names the
// operator in the error (a function, so that the text is only made then).
func (m *OpMemory) Set(ctx context.Context, bytes int64, what func() string) error {
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
			FormatBytes(m.q.limit), what(), FormatBytes(uint64(bytes)), FormatBytes(uint64(used)))
	}
	return nil
}

// Add grows what the operator holds by delta bytes.
func (m *OpMemory) Add(ctx context.Context, delta int64, what func() string) error {
	return m.Set(ctx, m.held+delta, what)
}

// Release gives back all the operator holds (it is done with it).
func (m *OpMemory) Release() {
	if m.q != nil && m.held != 0 {
		m.q.used.Add(-m.held)
	}
	m.held = 0
}

// ColBytes is the memory c's buffers take.
func ColBytes(c *vec.Col) int64 {
	if c == nil {
		return 0
	}
	n := int64(cap(c.I))*8 + int64(cap(c.F))*8 + int64(cap(c.B)) + int64(cap(c.Null)) +
		int64(cap(c.Off))*4 + int64(cap(c.Data)) + int64(cap(c.H))*16 + int64(cap(c.A))*16 +
		int64(cap(c.Codes))*4
	return n // a dictionary is shared by the batches of a row group: not counted
}

// BatchBytes is the memory b's columns take.
func BatchBytes(b *vec.Batch) int64 {
	var n int64
	for _, c := range b.Cols {
		n += ColBytes(c)
	}
	return n
}

// MapEntryBytes estimates what one entry of a Go map with a small key and
// value takes, slack included.
const MapEntryBytes = 48

// Held is what the operator holds now.
func (m *OpMemory) Held() int64 { return m.held }

// Peak is the most the operator held.
func (m *OpMemory) Peak() int64 { return m.peak }

// FormatBytes writes a size as DuckDB shows memory_limit: one truncated
// decimal and the largest power of 1024 (KiB ... PiB), else bytes.
func FormatBytes(n uint64) string {
	units := [...]string{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	var parts [6]uint64
	parts[0] = n
	for i := 1; i < 6; i++ {
		parts[i] = parts[i-1] / 1024
		parts[i-1] %= 1024
	}
	for i := 5; i >= 1; i-- {
		if parts[i] != 0 {
			return fmt.Sprintf("%d.%d %s", parts[i], parts[i-1]*10/1024, units[i])
		}
	}
	if n == 1 {
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

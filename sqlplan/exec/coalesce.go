package exec

import (
	"context"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// A selective pushed filter makes a scan hand on a batch for each batch
// it decodes, however few of its rows pass: TPC-H Q05's lineitem gives
// 733 batches of some 250 rows, Q17's 733 of 8. Every operator above
// then pays its per-batch costs (a pipeline's hand-off between
// goroutines, a join's column headers, a cast's scratch vector) for a
// handful of rows. The scan joins such small batches into one before it
// hands them on.

const (
	// coalesceRows: batches of fewer rows are joined with the ones after
	// them, up to this many rows.
	coalesceRows = 2048
	// coalesceBatches bounds the batches joined into one, so that a
	// consumer that stops early (LIMIT) waits for at most this many
	// decoded batches more than it needs.
	coalesceBatches = 32
)

// coalesced returns the next batch, small batches joined.
func (n *Scan) coalesced(ctx context.Context) (*vec.Batch, error) {
	first, err := n.take(ctx)
	if err != nil || !joinable(first) {
		return first, err
	}
	var acc *vec.Batch
	for i := 1; i < coalesceBatches; i++ {
		b, err := n.take(ctx)
		if err != nil || !joinable(b) {
			n.held, n.heldErr = b, err
			break
		}
		if acc == nil {
			acc = emptyLike(first)
			appendOwned(acc, first)
		}
		appendOwned(acc, b)
		if acc.N >= coalesceRows {
			break
		}
	}
	if acc == nil {
		return first, nil
	}
	return acc, nil
}

// take returns the batch held back by the last coalescing, or the next.
func (n *Scan) take(ctx context.Context) (*vec.Batch, error) {
	if n.held != nil || n.heldErr != nil {
		b, err := n.held, n.heldErr
		n.held, n.heldErr = nil, nil
		return b, err
	}
	return n.next(ctx)
}

// joinable reports whether b is small and may be joined with others:
// coded columns are not (their dictionaries differ between row groups).
func joinable(b *vec.Batch) bool {
	if b.N >= coalesceRows {
		return false
	}
	for _, c := range b.Cols {
		if c.Dict != nil || c.Dropped {
			return false
		}
	}
	return true
}

// emptyLike is an empty batch of b's column types.
func emptyLike(b *vec.Batch) *vec.Batch {
	out := &vec.Batch{Cols: make([]*vec.Col, len(b.Cols))}
	for i, c := range b.Cols {
		out.Cols[i] = vec.EmptyCol(c.T)
	}
	return out
}

// appendOwned appends b's rows to acc, copying them, and gives b's
// buffers back: nothing refers to them afterwards.
func appendOwned(acc, b *vec.Batch) {
	for i, c := range b.Cols {
		vec.AppendCol(acc.Cols[i], c)
		vec.Release(c)
	}
	acc.N += b.N
	if b.Recycle != nil {
		b.Recycle()
	}
}

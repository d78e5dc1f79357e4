package sqlplan

import (
	"context"
	"sync"
)

// A prepared statement that read views is bound to the views of the
// time it was prepared: their queries replaced their names. As DuckDB
// rebinds a prepared statement when the catalog changes, a statement
// that read views is prepared again from its text when a view was
// created, replaced or dropped since (or another engine's catalog file
// was read again), or when it runs in a transaction that created or
// dropped views since, and the new statement runs (as in DuckDB, which
// binds the transaction's views in it). The statement itself is
// never changed, and only a change of the views makes it rebind, so
// running it again with nothing changed runs the same plan (issue 27).

// viewBinding is what a statement that read views needs to rebind.
type viewBinding struct {
	text string // the statement's text
	gen  uint64 // the views' generation it was prepared at
	// tx and txViews are the transaction it was prepared in and the
	// count of its view statements then, when it had any.
	tx      *Tx
	txViews int
	// mu guards the statement last prepared again, at generation
	// reboundGen: it runs until the views change again.
	mu         sync.Mutex
	rebound    *Stmt
	reboundGen uint64
}

// viewsGeneration is the count of view changes.
func (e *Engine) viewsGeneration() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.viewsGen
}

// rebound is the statement to run for s: s, or s's text prepared again
// in tx when s read views and the views changed since s was prepared.
func (s *Stmt) rebound(ctx context.Context, tx *Tx) (*Stmt, error) {
	b := s.views
	if b == nil {
		return s, nil
	}
	gen, txViews := s.e.viewsGeneration(), len(tx.viewStmts())
	if gen == b.gen && txViews == b.txViews && (txViews == 0 || tx == b.tx) {
		return s, nil
	}
	if txViews > 0 {
		// Bound to the transaction's views as they are now: not kept,
		// and bound so that it does not rebind again for them.
		return s.e.PrepareTx(ctx, b.text, tx)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.rebound != nil && b.reboundGen == gen {
		return b.rebound, nil
	}
	st, err := s.e.PrepareTx(ctx, b.text, tx)
	if err != nil {
		return nil, err
	}
	b.rebound, b.reboundGen = st, gen
	return st, nil
}

// bindViews marks st, prepared in tx from text when the views were at
// generation gen, as reading views or not (viewed). PREPARE name AS
// statement marks its statement, whose own text preparePrepare kept.
func (st *Stmt) bindViews(gen uint64, tx *Tx, text string, viewed bool) {
	binding := func(text string) *viewBinding {
		b := &viewBinding{text: text, gen: gen, txViews: len(tx.viewStmts())}
		if b.txViews > 0 {
			b.tx = tx
		}
		return b
	}
	st.views = nil
	if viewed {
		st.views = binding(text)
	}
	if st.action == actPrepare && st.inner != nil {
		inner := st.inner.views
		st.inner.views = nil
		if viewed && inner != nil {
			st.inner.views = binding(inner.text)
		}
	}
}

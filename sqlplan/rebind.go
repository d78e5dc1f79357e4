package sqlplan

import "context"

// A prepared statement that read views is bound to the views of the
// time it was prepared: their queries replaced their names. As DuckDB
// rebinds a prepared statement when the catalog changes, a statement
// that read views is prepared again from its text when a view was
// created, replaced or dropped since (or another engine's catalog file
// was read again), and the new statement runs. The statement itself is
// never changed, and only a change of the views makes it rebind, so
// running it again with nothing changed runs the same plan (issue 27).

// viewsGeneration is the count of view changes.
func (e *Engine) viewsGeneration() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.viewsGen
}

// rebound is the statement to run for s: s, or s's text prepared again
// in tx when s read views and the views changed since s was prepared.
func (s *Stmt) rebound(ctx context.Context, tx *Tx) (*Stmt, error) {
	if s.rebindText == "" || s.e.viewsGeneration() == s.viewsGen {
		return s, nil
	}
	return s.e.PrepareTx(ctx, s.rebindText, tx)
}

// bindViews marks st, prepared from text when the views were at
// generation gen, as reading views or not (viewed). PREPARE name AS
// statement marks its statement, whose own text preparePrepare kept.
func (st *Stmt) bindViews(gen uint64, text string, viewed bool) {
	if !viewed {
		text = ""
	}
	st.viewsGen, st.rebindText = gen, text
	if st.action == actPrepare && st.inner != nil {
		st.inner.viewsGen = gen
		if !viewed {
			st.inner.rebindText = ""
		}
	}
}

package sqlplan

import (
	"context"
	"testing"
)

// TestReboundKept: a statement over a view rebinds once per change of
// the views and then runs that statement again (it is not prepared anew
// at each run); the prepared statement itself never changes.
func TestReboundKept(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE t AS SELECT * FROM range(4) r(i)")
	exec(t, e, "CREATE VIEW v AS SELECT i FROM t")
	st, err := e.Prepare("SELECT count(*) FROM v")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if got, err := st.rebound(ctx, nil); err != nil || got != st {
		t.Fatalf("nothing changed: rebound %p, %v; want the statement itself", got, err)
	}
	exec(t, e, "CREATE OR REPLACE VIEW v AS SELECT i FROM t WHERE i > 1")
	first, err := st.rebound(ctx, nil)
	if err != nil || first == st {
		t.Fatalf("after a view change: %p, %v; want another statement", first, err)
	}
	if again, err := st.rebound(ctx, nil); err != nil || again != first {
		t.Fatalf("a second run rebinds again (%p, %v)", again, err)
	}
	if got := fmtRows(queryAll(t, e, "SELECT count(*) FROM v")); got != "2|" {
		t.Fatalf("count = %s", got)
	}
	if st.views.gen == first.views.gen {
		t.Fatal("the prepared statement's own binding changed")
	}
}

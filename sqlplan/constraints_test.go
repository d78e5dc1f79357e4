package sqlplan

import (
	"context"
	"strings"
	"testing"
)

// The constraints live in the table's footer: a new engine over the same
// folder enforces them, after appends and rewrites too, and inside a
// transaction the keys of its own pending rows count.
func TestConstraintsPersist(t *testing.T) {
	dir := t.TempDir()
	open := func() *Engine {
		e, err := Open(dir, Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { e.Close() })
		return e
	}
	execErr := func(e *Engine, q string, tx *Tx) error {
		s, err := e.Prepare(q)
		if err != nil {
			return err
		}
		_, err = s.Exec(context.Background(), nil, tx)
		return err
	}
	e := open()
	exec(t, e, "CREATE TABLE p (id BIGINT PRIMARY KEY, v VARCHAR DEFAULT 'd' CHECK (length(v) < 5))")
	exec(t, e, "INSERT INTO p (id) VALUES (1)")
	e.Close()

	e = open()
	for q, want := range map[string]string{
		"INSERT INTO p VALUES (1, 'x')":         `duplicate key "id: 1"`,
		"INSERT INTO p VALUES (2, 'longer')":    "CHECK constraint failed",
		"INSERT INTO p VALUES (NULL, 'x')":      "NOT NULL",
		"UPDATE p SET v = 'toolong' WHERE true": "CHECK constraint failed",
	} {
		if err := execErr(e, q, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %s", q, err, want)
		}
	}
	exec(t, e, "INSERT INTO p (id) VALUES (2)")
	exec(t, e, "UPDATE p SET v = 'e' WHERE id = 2")
	if got := queryAll(t, e, "SELECT string_agg(id || v, ',' ORDER BY id) FROM p"); got[0][0] != "1d,2e" {
		t.Fatalf("rows %v", got)
	}
	tx := e.Begin(false)
	if err := execErr(e, "INSERT INTO p VALUES (3, 'a')", tx); err != nil {
		t.Fatal(err)
	}
	if err := execErr(e, "INSERT INTO p VALUES (3, 'b')", tx); err == nil || !strings.Contains(err.Error(), `duplicate key "id: 3"`) {
		t.Errorf("a key taken by the transaction's own row: %v", err)
	}
	if err := execErr(e, "INSERT OR IGNORE INTO p VALUES (3, 'c'), (4, 'd')", tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := queryAll(t, e, "SELECT string_agg(id || v, ',' ORDER BY id) FROM p"); got[0][0] != "1d,2e,3a,4d" {
		t.Fatalf("rows after the transaction %v", got)
	}
}

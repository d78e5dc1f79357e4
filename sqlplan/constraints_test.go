package sqlplan

import (
	"context"
	"os"
	"strings"
	"testing"
)

// execErr runs a statement that returns no rows, in tx when not nil, and
// returns its error.
func execErr(e *Engine, q string, tx *Tx) error {
	s, err := e.Prepare(q)
	if err != nil {
		return err
	}
	_, err = s.Exec(context.Background(), nil, tx)
	return err
}

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

// ALTER TABLE keeps the constraints in step with the columns, refuses
// what would break one, and leaves the table as it was when it fails.
func TestAlterTable(t *testing.T) {
	e := newEngine(t)
	exec(t, e, "CREATE TABLE a (id INTEGER PRIMARY KEY, v VARCHAR CHECK (v <> 'bad'), n INTEGER UNIQUE)")
	exec(t, e, "INSERT INTO a VALUES (1, 'x', 10), (2, 'y', NULL)")
	for q, want := range map[string]string{
		"ALTER TABLE a DROP COLUMN id":                   "cannot be dropped",
		"ALTER TABLE a DROP COLUMN v":                    "cannot be dropped",
		"ALTER TABLE a RENAME COLUMN v TO w":             "cannot be renamed",
		"ALTER TABLE a ADD COLUMN z INTEGER NOT NULL":    "NOT NULL",
		"ALTER TABLE a ALTER COLUMN v TYPE INTEGER":      "cannot cast",
		"ALTER TABLE a ALTER COLUMN id DROP NOT NULL":    "primary key",
		"ALTER TABLE a ADD COLUMN v INTEGER":             "already exists",
		"ALTER TABLE a RENAME COLUMN nope TO other":      "no column",
		"ALTER TABLE nosuch ADD COLUMN c INTEGER":        "does not exist",
		"ALTER TABLE a ALTER COLUMN n SET DATA TYPE INT": "", // fine
	} {
		err := execErr(e, q, nil)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", q, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", q, err, want)
		}
	}
	if got := queryAll(t, e, "SELECT string_agg(id || v || coalesce(n, 0), ',' ORDER BY id) FROM a"); got[0][0] != "1x10,2y0" {
		t.Fatalf("the table after failed ALTERs: %v", got)
	}
	exec(t, e, "ALTER TABLE a RENAME COLUMN n TO m")
	exec(t, e, "ALTER TABLE a RENAME COLUMN id TO key")
	for q, want := range map[string]string{
		"INSERT INTO a VALUES (3, 'z', 10)":   `duplicate key "m: 10"`,
		"INSERT INTO a VALUES (1, 'z', 11)":   `duplicate key "key: 1"`,
		"INSERT INTO a VALUES (3, 'bad', 11)": "CHECK constraint failed",
	} {
		if err := execErr(e, q, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", q, err, want)
		}
	}
	exec(t, e, "ALTER TABLE a RENAME TO b")
	if got := queryAll(t, e, "SELECT count(*) FROM b"); got[0][0] != int64(2) {
		t.Fatalf("after RENAME TO: %v", got)
	}
	if err := queryErr(t, e, "SELECT * FROM a"); err == nil {
		t.Fatal("the old name still names a table")
	}
}

// Temporary tables go away with the engine, and hide a table of the root
// of the same name while they exist.
// A column is named by a CHECK constraint when a token of it is the
// column's name, not a string or a longer quoted name holding it.
func TestCheckNamesColumn(t *testing.T) {
	for _, c := range []struct {
		expr, col string
		want      bool
	}{
		{"v <> 'bad'", "v", true},
		{"V <> 'bad'", "v", true},
		{`"v" <> 'bad'`, "V", true},
		{"t.v > 0", "v", true},
		{"x <> 'v'", "v", false},
		{`"v w" > 0`, "v", false},
		{`"v w" > 0`, "v w", true},
		{"vv > 0 AND v_1 < 2", "v", false},
		{"length(x) < 5", "length", false},
		{"length > 1 AND length(x) < 5", "length", true},
		{"'unterminated", "v", true},
	} {
		if got := namesColumn(c.expr, c.col); got != c.want {
			t.Errorf("namesColumn(%q, %q) = %v, want %v", c.expr, c.col, got, c.want)
		}
	}
	e := newEngine(t)
	exec(t, e, `CREATE TABLE k (a INTEGER, "a b" INTEGER, c VARCHAR CHECK (c <> 'a' AND "a b" > 0))`)
	exec(t, e, `ALTER TABLE k DROP COLUMN a`)
	for q, want := range map[string]string{
		`ALTER TABLE k RENAME COLUMN "a b" TO ab`: "cannot be renamed",
		`ALTER TABLE k DROP COLUMN c`:             "cannot be dropped",
	} {
		if err := execErr(e, q, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", q, err, want)
		}
	}
}

func TestTempTables(t *testing.T) {
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, e, "CREATE TABLE x AS SELECT 1 AS v")
	exec(t, e, "CREATE TEMP TABLE x AS SELECT 2 AS v")
	if got := queryAll(t, e, "SELECT v FROM x"); got[0][0] != int64(2) {
		t.Fatalf("the temporary table does not hide the other: %v", got)
	}
	temp := e.temp
	if temp == "" || strings.HasPrefix(temp, dir) {
		t.Fatalf("temporary folder %q", temp)
	}
	e.Close()
	if _, err := os.Stat(temp); !os.IsNotExist(err) {
		t.Fatalf("the temporary folder is still there: %v", err)
	}
	e2, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e2.Close()
	if got := queryAll(t, e2, "SELECT v FROM x"); got[0][0] != int64(1) {
		t.Fatalf("after Close: %v", got)
	}
}

package driver

import (
	"context"
	"database/sql"
	"strings"
	"testing"
)

// twoConns opens a database over an empty folder and two connections of
// its pool, all closed when the test ends.
func twoConns(t *testing.T) (a, b *sql.Conn) {
	t.Helper()
	db, err := OpenDB(Config{Path: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	conn := func() *sql.Conn {
		c, err := db.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	return conn(), conn()
}

// TestPreparedBySQL checks PREPARE / EXECUTE / DEALLOCATE across the
// connections of a pool, as in DuckDB: a statement PREPARE names belongs
// to its connection; EXECUTE answers as the statement does (rows for a
// query, a count for an INSERT, through Query and Exec alike); an EXECUTE
// prepared with database/sql runs again identically with new arguments;
// a ROLLBACK keeps prepared statements.
func TestPreparedBySQL(t *testing.T) {
	ctx := context.Background()
	a, b := twoConns(t)
	exec := func(c *sql.Conn, q string, args ...any) sql.Result {
		t.Helper()
		res, err := c.ExecContext(ctx, q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return res
	}
	exec(a, "CREATE TABLE t (id INTEGER PRIMARY KEY, name VARCHAR)")
	exec(a, "PREPARE ins AS INSERT INTO t VALUES ($1, $2)")
	if n, _ := exec(a, "EXECUTE ins(1, 'one')").RowsAffected(); n != 1 {
		t.Errorf("EXECUTE ins: %d rows affected, want 1", n)
	}
	// Through Query, an INSERT answers DuckDB's Count column.
	var count int64
	if err := a.QueryRowContext(ctx, "EXECUTE ins(2, 'two')").Scan(&count); err != nil || count != 1 {
		t.Errorf("Query EXECUTE ins: %d, %v; want 1", count, err)
	}
	if _, err := b.ExecContext(ctx, "EXECUTE ins(3, 'three')"); err == nil || !strings.Contains(err.Error(), `prepared statement "ins" does not exist`) {
		t.Errorf("EXECUTE on another connection: %v; want does not exist", err)
	}

	exec(a, "PREPARE byid AS SELECT name FROM t WHERE id = ?")
	st, err := a.PrepareContext(ctx, "EXECUTE byid(?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for round := range 2 {
		for id, want := range map[int]string{1: "one", 2: "two"} {
			var got string
			if err := st.QueryRowContext(ctx, id).Scan(&got); err != nil || got != want {
				t.Errorf("round %d: EXECUTE byid(%d): %q, %v; want %q", round, id, got, err, want)
			}
		}
	}

	tx, err := a.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "EXECUTE ins(4, 'four')"); err != nil {
		t.Fatal(err)
	}
	var inTx string
	if err := tx.QueryRowContext(ctx, "EXECUTE byid(4)").Scan(&inTx); err != nil || inTx != "four" {
		t.Errorf("EXECUTE in the transaction: %q, %v; want four", inTx, err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if err := a.QueryRowContext(ctx, "EXECUTE byid(4)").Scan(&inTx); err != sql.ErrNoRows {
		t.Errorf("EXECUTE after ROLLBACK: %v; want no rows (the row is gone, the statement stays)", err)
	}

	exec(a, "DEALLOCATE byid")
	if _, err := st.QueryContext(ctx, 1); err == nil || !strings.Contains(err.Error(), `"byid" does not exist`) {
		t.Errorf("EXECUTE after DEALLOCATE: %v; want does not exist", err)
	}
}

// TestSummarizeArgs checks SUMMARIZE of a query with a placeholder, run
// twice with different arguments.
func TestSummarizeArgs(t *testing.T) {
	db, err := OpenDB(Config{Path: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t AS SELECT range AS a FROM range(10)"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg        int
		min, max   string
		count      int64
		approxUniq int64
	}{{5, "5", "9", 5, 5}, {8, "8", "9", 2, 2}} {
		var name, typ, min, max string
		var uniq, count int64
		var avg, std, q25, q50, q75, nullPct any
		err := db.QueryRow("SUMMARIZE SELECT a FROM t WHERE a >= ?", c.arg).Scan(&name, &typ, &min, &max, &uniq, &avg, &std, &q25, &q50, &q75, &count, &nullPct)
		if err != nil {
			t.Fatal(err)
		}
		if name != "a" || typ != "BIGINT" || min != c.min || max != c.max || count != c.count || uniq != c.approxUniq {
			t.Errorf("SUMMARIZE a >= %d: %s %s %s %s %d %d; want a BIGINT %s %s %d %d", c.arg, name, typ, min, max, uniq, count, c.min, c.max, c.approxUniq, c.count)
		}
	}
}

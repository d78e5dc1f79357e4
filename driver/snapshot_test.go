package driver

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/journal"
)

// committedPrefix returns the row count and the sum of k of statements
// 0..k-1 of the writer child: what a reader may see of a table.
func committedPrefix(k int64) (rows, sumK int64) {
	for s := range k {
		n := int64(stmtRows(int(s)))
		rows += n
		sumK += n * (n - 1) / 2
	}
	return rows, sumK
}

// openDSN opens a *sql.DB, closed when the test ends.
func openDSN(t testing.TB, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// querier is a *sql.DB or a *sql.Conn.
type querier interface {
	QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// snapshotCheck runs the reader queries once against table and checks that
// they see statements 0..k-1 whole; it returns k.
func snapshotCheck(ctx context.Context, q querier, table string) (int64, error) {
	var cnt, distinct int64
	var maxS sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT s), MAX(s) FROM "+table).Scan(&cnt, &distinct, &maxS); err != nil {
		return 0, fmt.Errorf("%s: %w", table, err)
	}
	wantRows, _ := committedPrefix(distinct)
	if cnt != wantRows || (distinct > 0 && maxS.Int64 != distinct-1) {
		return 0, fmt.Errorf("%s: %d rows of %d statements (the last %d): not a whole prefix of statements (%d rows)",
			table, cnt, distinct, maxS.Int64, wantRows)
	}
	// One query, three aggregates: the same snapshot for all.
	var cnt2, sum2, first int64
	if err := q.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(SUM(k), 0), COUNT(*) FILTER (WHERE k = 0) FROM "+table).Scan(&cnt2, &sum2, &first); err != nil {
		return 0, fmt.Errorf("%s: %w", table, err)
	}
	rows2, sumK2 := committedPrefix(first)
	if cnt2 != rows2 || sum2 != sumK2 {
		return 0, fmt.Errorf("%s: %d rows, SUM(k) %d, %d statements: want %d rows, SUM(k) %d", table, cnt2, sum2, first, rows2, sumK2)
	}
	// A filter and a GROUP BY: each statement seen is whole.
	rows, err := q.QueryContext(ctx, "SELECT s, COUNT(*), MAX(k) FROM "+table+" WHERE s % 3 = 1 AND pad <> '' GROUP BY s")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", table, err)
	}
	defer rows.Close()
	for rows.Next() {
		var s, n, mk int64
		if err := rows.Scan(&s, &n, &mk); err != nil {
			return 0, err
		}
		if want := int64(stmtRows(int(s))); n != want || mk != want-1 {
			return 0, fmt.Errorf("%s: statement %d has %d rows (max k %d), want %d", table, s, n, mk, want)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return max(distinct, first), nil
}

// TestReadersWhileAnotherProcessInserts has 8 goroutines query one
// *sql.DB (half of them on a connection of their own), and 2 more a
// *sql.DB that maps the files, while another process INSERTs into a
// one-file and a folder table. What the engine guarantees, and the test
// checks:
//   - every query sees each table as a whole prefix of the statements
//     committed (never part of one, nor one statement of a transaction
//     of two: an append in progress is invisible);
//   - within a goroutine's sequence of queries (one connection, or the
//     pool), what a table shows never goes back;
//   - a query that starts after an INSERT returned in the other process
//     sees its rows (no stale cache).
func TestReadersWhileAnotherProcessInserts(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	createCrashTables(t, dir)
	db := openDSN(t, dir)
	// Two more readers map the files instead.
	mapped := openDSN(t, dir+"?mmap=true")
	const perTable = 40
	child := startSQLChild(t, fmt.Sprintf("%s?row_group_rows=40,%d,t:0,f:0", dir, perTable))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	var wg sync.WaitGroup
	errs := make(chan error, 16)
	queries := make([]int, 10)
	for g := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var q querier = db
			if g >= 8 {
				q = mapped
			} else if g%2 == 1 {
				conn, err := db.Conn(ctx)
				if err != nil {
					errs <- err
					return
				}
				defer conn.Close()
				q = conn
			}
			seen := map[string]int64{}
			check := func() error {
				for _, table := range []string{"t", "f"} {
					k, err := snapshotCheck(ctx, q, table)
					if err != nil {
						return err
					}
					if inTx(int(k)) {
						return fmt.Errorf("goroutine %d: table %s shows half a transaction (%d statements)", g, table, k)
					}
					if k < seen[table] {
						return fmt.Errorf("goroutine %d: table %s went back from %d statements to %d", g, table, seen[table], k)
					}
					seen[table] = k
					queries[g]++
				}
				return nil
			}
			for {
				select {
				case <-child.done:
					// Every INSERT has returned: the next queries see them all.
					if err := check(); err != nil {
						errs <- err
						return
					}
					if seen["t"] != perTable || seen["f"] != perTable {
						errs <- fmt.Errorf("goroutine %d: after the writer finished, %d and %d statements of %d", g, seen["t"], seen["f"], perTable)
					}
					return
				default:
				}
				if err := check(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if child.err != nil {
		t.Fatalf("the writer process: %v\n%s", child.err, child.out.String())
	}
	for err := range errs {
		t.Error(err)
	}
	total := 0
	for _, n := range queries {
		total += n
	}
	t.Logf("%d table snapshots checked by 8 goroutines on one *sql.DB and 2 on another with mmap (3 queries each) while another process ran %d INSERT statements", total, 2*perTable)
}

// TestReadBetweenSyncAndCommit reads a table at the one moment of an
// append where the new bytes are all written but the journal still says
// they are not committed (between steps 5 and 6 of the append protocol),
// then again after the commit: the second read sees the rows, although
// the file's size and modification time did not change in between.
func TestReadBetweenSyncAndCommit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE t (s BIGINT, k BIGINT, n BIGINT, pad VARCHAR)")
	mustExec(t, db, insertText("t", 0))
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// Another process appends statement 1...
	other := openDSN(t, dir)
	mustExec(t, other, insertText("t", 1))
	// ... and has synced it, but not yet removed its journal, which holds
	// the bytes it overwrote (from the first that differs).
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := 0
	for cut < len(before) && cut < len(after) && before[cut] == after[cut] {
		cut++
	}
	tlen, tcrc, err := journal.TailCRC(bytes.NewReader(before), int64(cut))
	if err != nil {
		t.Fatal(err)
	}
	j := journal.Journal{OldSize: int64(len(before)), Cut: int64(cut), Saved: before[cut:], TailLen: tlen, TailCRC: tcrc}
	if err := os.WriteFile(path+journal.Suffix, j.Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	if k, err := snapshotCheck(context.Background(), db, "t"); err != nil || k != 1 {
		t.Fatalf("before the commit: %d statements, %v; want 1", k, err)
	}
	if err := os.Remove(path + journal.Suffix); err != nil {
		t.Fatal(err)
	}
	if k, err := snapshotCheck(context.Background(), db, "t"); err != nil || k != 2 {
		t.Fatalf("after the commit: %d statements, %v; want 2", k, err)
	}
}

// TestTxSnapshot: a transaction (the driver accepts snapshot isolation)
// reads every table as it was at the transaction's first read of it,
// whatever other processes commit meanwhile; after it ends, reads see the
// new rows.
func TestTxSnapshot(t *testing.T) {
	dir := t.TempDir()
	createCrashTables(t, dir)
	db := openDSN(t, dir)
	other := openDSN(t, dir) // another process, as far as db can tell
	ctx := context.Background()
	for _, table := range []string{"t", "f"} {
		mustExec(t, other, insertText(table, 0))
	}
	for _, opts := range []*sql.TxOptions{nil, {Isolation: sql.LevelSnapshot, ReadOnly: true}} {
		tx, err := db.BeginTx(ctx, opts)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{}
		for _, table := range []string{"t", "f"} {
			k, err := snapshotCheck(ctx, tx, table)
			if err != nil {
				t.Fatal(err)
			}
			want[table] = k
			mustExec(t, other, insertText(table, int(k)))
		}
		for _, table := range []string{"t", "f"} {
			// Prepared statements of the transaction too.
			stmt, err := tx.PrepareContext(ctx, "SELECT COUNT(DISTINCT s) FROM "+table)
			if err != nil {
				t.Fatal(err)
			}
			var n int64
			if err := stmt.QueryRowContext(ctx).Scan(&n); err != nil {
				t.Fatal(err)
			}
			stmt.Close()
			k, err := snapshotCheck(ctx, tx, table)
			if err != nil {
				t.Fatal(err)
			}
			if k != want[table] || n != want[table] {
				t.Errorf("table %s: the transaction saw %d statements, then %d and %d", table, want[table], k, n)
			}
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"t", "f"} {
			if k, err := snapshotCheck(ctx, db, table); err != nil || k != want[table]+1 {
				t.Errorf("table %s after the transaction: %d statements, %v; want %d", table, k, err, want[table]+1)
			}
		}
	}
}

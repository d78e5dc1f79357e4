package driver

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/internal/validate"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/writer"
)

// The crash and concurrency tests below run INSERTs in a child process:
// this test binary again, running TestSQLWriterChild with sqlChildEnv set.
const sqlChildEnv = "CARQUET_SQL_WRITER_CHILD"

// stmtRows is how many rows INSERT statement number s writes: 1 to 97,
// so that statements differ in size and some span row groups. (Negative
// numbers are those of rows a crash test deletes again.)
func stmtRows(s int) int { return 1 + ((s*37)%97+97)%97 }

// insertText is INSERT statement number s into table: rows (s, k, n, pad)
// for k = 0..n-1, n = stmtRows(s).
func insertText(table string, s int) string {
	n := stmtRows(s)
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO %s (s, k, n, pad) VALUES ", table)
	for k := range n {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(%d, %d, %d, '%s')", s, k, n, strings.Repeat(strconv.Itoa(s%10), 20+k%40))
	}
	return b.String()
}

// inTx reports whether statement s is the second of a transaction of two:
// the writer child runs statements 3 and 4, 8 and 9, ... in one
// transaction, which must commit both or neither.
func inTx(s int) bool { return s%5 == 4 }

// TestSQLWriterChild is the child process: through its own *sql.DB it runs
// INSERT statements into tables, statement s into each table whose first
// statement is at most s, s = 0, 1, ... (up to count statements per
// table; count 0: until killed).
func TestSQLWriterChild(t *testing.T) {
	spec := os.Getenv(sqlChildEnv)
	if spec == "" {
		t.Skip("runs as a child process only")
	}
	parts := strings.Split(spec, ",") // dsn,count,table:first...
	db, err := sql.Open("carquet", parts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	count, _ := strconv.Atoi(parts[1])
	type target struct {
		name  string
		first int
	}
	var tables []target
	lo := -1
	for _, p := range parts[2:] {
		name, f, _ := strings.Cut(p, ":")
		first, _ := strconv.Atoi(f)
		tables = append(tables, target{name, first})
		if lo < 0 || first < lo {
			lo = first
		}
	}
	fmt.Println("inserting") // the parent times its kill from this line
	if os.Getenv(bulkChildEnv) != "" {
		bulkWriterChild(t, db, tables[0].first, tables[1].first)
		return
	}
	if os.Getenv(txCrashEnv) != "" {
		txCrashChild(t, db, tables[0].first)
		return
	}
	if os.Getenv(deltaCrashEnv) != "" {
		deltaWriterChild(t, db, tables[0].first)
		return
	}
	if v := os.Getenv(groupCrashEnv); v != "" {
		var firsts []int
		for _, f := range strings.Split(v, ":") {
			i, _ := strconv.Atoi(f)
			firsts = append(firsts, i)
		}
		groupWriterChild(t, db, firsts)
		return
	}
	for s := lo; ; s++ {
		more := false
		for _, tb := range tables {
			if s < tb.first || (count > 0 && s >= tb.first+count) {
				continue
			}
			more = true
			switch {
			case inTx(s) && s > tb.first:
				// Written with s-1 in one transaction.
			case inTx(s+1) && (count == 0 || s+1 < tb.first+count):
				// Statements s and s+1 in one transaction: one append
				// (or one new file) at Commit.
				tx, err := db.Begin()
				if err != nil {
					t.Fatal(err)
				}
				for _, x := range []int{s, s + 1} {
					if _, err := tx.Exec(insertText(tb.name, x)); err != nil {
						t.Fatalf("statement %d into %s: %v", x, tb.name, err)
					}
				}
				if err := tx.Commit(); err != nil {
					t.Fatalf("statements %d and %d into %s: %v", s, s+1, tb.name, err)
				}
			default:
				if _, err := db.Exec(insertText(tb.name, s)); err != nil {
					t.Fatalf("statement %d into %s: %v", s, tb.name, err)
				}
			}
		}
		if !more && s >= lo {
			return
		}
	}
}

// sqlChild starts a writer child; ready is closed once it runs INSERTs,
// done once it has exited (with its error, if any, and output in out).
type sqlChild struct {
	cmd         *exec.Cmd
	ready, done chan struct{}
	out         strings.Builder
	err         error
}

func startSQLChild(t *testing.T, spec string) *sqlChild {
	return startSQLChildEnv(t, spec)
}

// startSQLChildEnv is startSQLChild with more environment variables.
func startSQLChildEnv(t *testing.T, spec string, env ...string) *sqlChild {
	t.Helper()
	c := &sqlChild{ready: make(chan struct{}), done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^TestSQLWriterChild$", "-test.count=1", "-test.v")
	c.cmd.Env = append(append(os.Environ(), sqlChildEnv+"="+spec), env...)
	pr, pw := io.Pipe()
	c.cmd.Stdout, c.cmd.Stderr = pw, pw
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(pr)
		signalled := false
		for sc.Scan() {
			c.out.WriteString(sc.Text() + "\n")
			if !signalled && strings.Contains(sc.Text(), "inserting") {
				close(c.ready)
				signalled = true
			}
		}
		if !signalled {
			close(c.ready)
		}
	}()
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.err = c.cmd.Wait()
		pw.Close()
		<-scanned
		close(c.done)
	}()
	return c
}

// killWindow draws the moments at which a crash test kills its children,
// uniformly below max. How soon a child commits depends on the machine
// (the race detector, other work beside the test); a round in which
// nothing committed doubles max, up to two seconds, so that the kills
// keep landing among commits on a slow machine instead of the test
// asserting the machine's speed.
type killWindow struct {
	rng *rand.Rand
	max time.Duration
}

func (w *killWindow) next() time.Duration { return time.Duration(w.rng.Int64N(int64(w.max))) }

// progressed records whether the last round committed anything.
func (w *killWindow) progressed(ok bool) {
	if !ok && w.max < 2*time.Second {
		w.max *= 2
	}
}

// killAfter waits for the child to start writing, lets it run for d,
// SIGKILLs it and waits for it to end; it reports whether the signal was
// sent. A child that ended by itself fails the test.
func killAfter(t *testing.T, c *sqlChild, d time.Duration) bool {
	t.Helper()
	select {
	case <-c.ready:
	case <-time.After(60 * time.Second):
		t.Fatal("the child did not start within a minute")
	}
	time.Sleep(d)
	sent := c.cmd.Process.Signal(syscall.SIGKILL) == nil
	<-c.done
	if !strings.Contains(c.err.Error(), "killed") {
		t.Fatalf("the child ended by itself (%v):\n%s", c.err, c.out.String())
	}
	return sent
}

// createCrashTables makes table t (one file, t.parquet) and table f (a
// folder, f/, with one file) of the columns the INSERTs write, empty.
func createCrashTables(t *testing.T, dir string) {
	t.Helper()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE TABLE t (s BIGINT, k BIGINT, n BIGINT, pad VARCHAR)")
	mustExec(t, db, "CREATE TABLE f0 (s BIGINT, k BIGINT, n BIGINT, pad VARCHAR)")
	if err := os.Mkdir(filepath.Join(dir, "f"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(dir, "f0.parquet"), filepath.Join(dir, "f", "f0.parquet")); err != nil {
		t.Fatal(err)
	}
}

// wholeStatements checks, through a fresh *sql.DB, that table holds
// statements 0..k-1 exactly, each with all its rows, and returns k.
func wholeStatements(t *testing.T, dir, table string) int {
	t.Helper()
	present := presentStatements(t, dir, table)
	for next, s := range present {
		if s != next {
			t.Fatalf("table %s: statement %d follows statement %d (a lost or extra statement)", table, s, next-1)
		}
	}
	return len(present)
}

// presentStatements checks, through a fresh *sql.DB, that each statement
// table holds has all its rows, and returns their numbers in order.
func presentStatements(t *testing.T, dir, table string) []int {
	t.Helper()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT s, COUNT(*), MIN(n), MAX(n), COUNT(DISTINCT k), MIN(k), MAX(k) FROM " + table + " GROUP BY s ORDER BY s")
	if err != nil {
		t.Fatalf("table %s does not open: %v", table, err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var s, cnt, minN, maxN, distinct, minK, maxK int64
		if err := rows.Scan(&s, &cnt, &minN, &maxN, &distinct, &minK, &maxK); err != nil {
			t.Fatal(err)
		}
		want := int64(stmtRows(int(s)))
		if cnt != want || minN != want || maxN != want || distinct != want || minK != 0 || maxK != want-1 {
			t.Fatalf("table %s: statement %d has %d rows (%d distinct k in [%d, %d], n in [%d, %d]), want all %d",
				table, s, cnt, distinct, minK, maxK, minN, maxN, want)
		}
		out = append(out, int(s))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("table %s: %v", table, err)
	}
	return out
}

// validFiles runs the checks of pqsql validate on the table's files.
func validFiles(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		rep := validate.File(p, validate.Options{})
		for _, f := range rep.Findings {
			if !f.Warning {
				t.Errorf("validate: %s", f)
			}
		}
		if !rep.OK() {
			t.FailNow()
		}
	}
}

// tableFiles lists the Parquet files of the crash tables, and the
// temporary files left in the folder.
func tableFiles(t *testing.T, dir string) (files []string, temps int) {
	t.Helper()
	files = []string{filepath.Join(dir, "t.parquet")}
	ents, err := os.ReadDir(filepath.Join(dir, "f"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		switch {
		case strings.HasPrefix(e.Name(), "."):
			temps++
		case strings.HasSuffix(e.Name(), ".parquet"):
			files = append(files, filepath.Join(dir, "f", e.Name()))
		default:
			t.Errorf("unexpected file %s in the folder table", e.Name())
		}
	}
	return files, temps
}

// TestInsertCrash SIGKILLs processes running multi-row INSERTs through
// database/sql, into a one-file table and a folder table, at random
// moments: after each kill both tables open, every file passes
// validation, and each statement (each transaction of two) is there
// whole or not at all.
func TestInsertCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	createCrashTables(t, dir)
	// Small row groups and pages: a statement writes several of each.
	dsn := dir + "?row_group_rows=40"
	// The window widens when a run commits nothing (a loaded machine).
	window := &killWindow{rng: rand.New(rand.NewPCG(11, 5)), max: 60 * time.Millisecond}
	deadline := time.Now().Add(18 * time.Second)
	kills, iters, maxTemps, torn := 0, 0, 0, 0
	nt, nf := 0, 0
	for iters < 150 && time.Now().Before(deadline) {
		iters++
		// Statement s goes to t, then to f: a kill between the two leaves
		// t one ahead.
		c := startSQLChild(t, fmt.Sprintf("%s,0,t:%d,f:%d", dsn, nt, nf))
		if killAfter(t, c, window.next()) {
			kills++
		}

		if journal.Active(filepath.Join(dir, "t.parquet")) {
			torn++ // killed inside an append to t
		}
		gotT := wholeStatements(t, dir, "t")
		gotF := wholeStatements(t, dir, "f")
		if inTx(gotT) || inTx(gotF) {
			t.Fatalf("a transaction committed half: the tables end at statements %d and %d", gotT-1, gotF-1)
		}
		if gotT < nt || gotF < nf {
			t.Fatalf("statements lost: t had %d, now %d; f had %d, now %d", nt, gotT, nf, gotF)
		}
		files, temps := tableFiles(t, dir)
		validFiles(t, files...)
		maxTemps = max(maxTemps, temps)
		// The next INSERT into the folder removes what an earlier killed
		// one left: only the last kill's temporary file may be there.
		if temps > 1 {
			t.Fatalf("%d temporary files in the folder table", temps)
		}
		window.progressed(gotT > nt || gotF > nf)
		nt, nf = gotT, gotF
	}
	// Recovering the last kill's append (the next INSERT would) changes
	// nothing a reader sees.
	if _, err := writer.Recover(filepath.Join(dir, "t.parquet")); err != nil {
		t.Fatal(err)
	}
	if k := wholeStatements(t, dir, "t"); k != nt {
		t.Fatalf("after Recover: %d statements, before %d", k, nt)
	}
	validFiles(t, filepath.Join(dir, "t.parquet"))
	t.Logf("%d kills in %d runs (%d inside an append to the file table); %d statements committed to the file table, %d to the folder table; up to %d temporary file left in the folder at a time",
		kills, iters, torn, nt, nf, maxTemps)
	if nt < 5 || nf < 5 {
		t.Errorf("only %d and %d statements committed: the children did not get far", nt, nf)
	}
}

// TestStaleTempsRemoved: what an INSERT into a folder table or a CREATE
// TABLE killed before it finished leaves (an unlocked temporary file) is
// removed by the next one; other files stay.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	createCrashTables(t, dir)
	for _, d := range []string{dir, filepath.Join(dir, "f")} {
		for _, name := range []string{".killed.parquet.tmp-42", ".keep.parquet.tmp-x", ".keep"} {
			if err := os.WriteFile(filepath.Join(d, name), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	db := openDSN(t, dir)
	mustExec(t, db, "CREATE TABLE u (a BIGINT)")
	mustExec(t, db, insertText("f", 0))
	for _, d := range []string{dir, filepath.Join(dir, "f")} {
		if _, err := os.Stat(filepath.Join(d, ".killed.parquet.tmp-42")); !os.IsNotExist(err) {
			t.Errorf("%s: the stale temporary file is still there: %v", d, err)
		}
		for _, name := range []string{".keep.parquet.tmp-x", ".keep"} {
			if _, err := os.Stat(filepath.Join(d, name)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}

const bulkChildEnv = "CARQUET_CRASH_BULK"

// bulkWriterChild runs, until killed, statement s into table t through an
// Appender (one Appender per statement), with an UPDATE of t after every
// fourth, and into the folder table f by INSERT, with OPTIMIZE f after
// every third.
func bulkWriterChild(t *testing.T, db *sql.DB, ft, ff int) {
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for s := min(ft, ff); ; s++ {
		if s >= ft {
			err := conn.Raw(func(dc any) error {
				a, err := NewAppender(dc, "t")
				if err != nil {
					return err
				}
				n := stmtRows(s)
				for k := range n {
					if err := a.AppendRow(int64(s), int64(k), int64(n), strings.Repeat(strconv.Itoa(s%10), 20+k%40)); err != nil {
						a.Abort()
						return err
					}
				}
				return a.Close()
			})
			if err != nil {
				t.Fatalf("statement %d into t: %v", s, err)
			}
		}
		if s >= ft && s%4 == 3 {
			// An UPDATE that changes nothing a reader checks rewrites the
			// file (the row groups it may match read, the others copied).
			if _, err := db.Exec("UPDATE t SET pad = pad WHERE s = ?", s-1); err != nil {
				t.Fatalf("UPDATE t after statement %d: %v", s, err)
			}
		}
		if s >= ff {
			if _, err := db.Exec(insertText("f", s)); err != nil {
				t.Fatalf("statement %d into f: %v", s, err)
			}
			if s%3 == 2 {
				if _, err := db.Exec("OPTIMIZE f"); err != nil {
					t.Fatalf("OPTIMIZE f after statement %d: %v", s, err)
				}
			}
		}
	}
}

// TestBulkCrash SIGKILLs processes that load a one-file table through
// Appenders (whose appends merge small row groups) and rewrite it by
// UPDATE, and a folder table by INSERTs and OPTIMIZE (which swaps the
// folder), at random moments: after
// each kill both tables open, every file validates, and each statement
// is there whole or not at all. CARQUET_CRASH_KILLS sets the number of
// kills (default 30):
//
//	CARQUET_CRASH_KILLS=250 go test -run TestBulkCrash -timeout 30m ./driver/
func TestBulkCrash(t *testing.T) {
	want := crashKills(t, 30)
	dir := t.TempDir()
	createCrashTables(t, dir)
	dsn := dir + "?row_group_rows=40"
	window := &killWindow{rng: rand.New(rand.NewPCG(7, 3)), max: 80 * time.Millisecond}
	kills, torn, nt, nf := 0, 0, 0, 0
	for kills < want {
		c := startSQLChildEnv(t, fmt.Sprintf("%s,0,t:%d,f:%d", dsn, nt, nf), bulkChildEnv+"=1")
		if killAfter(t, c, window.next()) {
			kills++
		}
		if journal.Active(filepath.Join(dir, "t.parquet")) {
			torn++
		}
		gotT := wholeStatements(t, dir, "t")
		gotF := wholeStatements(t, dir, "f")
		if gotT < nt || gotF < nf {
			t.Fatalf("statements lost: t had %d, now %d; f had %d, now %d", nt, gotT, nf, gotF)
		}
		files, _ := tableFiles(t, dir)
		validFiles(t, files...)
		window.progressed(gotT > nt || gotF > nf)
		nt, nf = gotT, gotF
	}
	t.Logf("%d kills (%d inside an append to t); %d statements committed to t, %d to f", kills, torn, nt, nf)
	if nt < 5 || nf < 5 {
		t.Errorf("only %d and %d statements committed: the children did not get far", nt, nf)
	}
}

const deltaCrashEnv = "CARQUET_CRASH_DELTA"

// deltaCrashInterval is the checkpoint interval of the crash test's
// table: short, so that kills strike checkpoints often, and long enough
// that OPTIMIZE finds commits after the newest checkpoint to compact.
// With 6, and a killed OPTIMIZE run again (deltaWriterChild), every run
// of 70 statements writes log compactions whichever DELETEs kills skip;
// with 4 the commit count mod the interval left some runs with none.
const deltaCrashInterval = 6

// deltaWriterChild runs, until killed, INSERT statement s into the Delta
// table d (a commit each, a checkpoint every deltaCrashInterval),
// after every fifth a DELETE of statement s-3 (deletion vectors), and
// after every seventh an OPTIMIZE (the small files rewritten into one,
// then the log after the newest checkpoint compacted). A child that
// starts after a statement due an OPTIMIZE runs it first, as a user
// retries it: OPTIMIZE is the longest statement, so kills strike it
// most, and without the retry a loaded machine completed none.
func deltaWriterChild(t *testing.T, db *sql.DB, first int) {
	if first%7 == 0 && first > 0 {
		if _, err := db.Exec("OPTIMIZE d"); err != nil {
			t.Fatalf("OPTIMIZE after statement %d: %v", first-1, err)
		}
	}
	for s := first; ; s++ {
		if _, err := db.Exec(insertText("d", s)); err != nil {
			t.Fatalf("statement %d into d: %v", s, err)
		}
		if s%5 == 4 && s >= 3 {
			if _, err := db.Exec("DELETE FROM d WHERE s = ?", s-3); err != nil {
				t.Fatalf("DELETE of statement %d: %v", s-3, err)
			}
		}
		if s%7 == 6 {
			if _, err := db.Exec("OPTIMIZE d"); err != nil {
				t.Fatalf("OPTIMIZE after statement %d: %v", s, err)
			}
		}
	}
}

// TestDeltaCrash SIGKILLs processes that INSERT into, DELETE from and
// OPTIMIZE a Delta table (commits, deletion vectors, checkpoints every
// deltaCrashInterval commits, log compactions) at random moments: after
// each kill the table opens at its latest version, which its
// checkpoints and log compactions give as its commits alone do; every
// statement is whole or absent (a DELETE removes a whole statement), and
// only statements a DELETE may have removed are missing. The test counts
// the kills that struck while a checkpoint was being written (its
// temporary file left in the log) or before a due one was.
// CARQUET_CRASH_KILLS sets the number of kills (default 20):
//
//	CARQUET_CRASH_KILLS=200 go test -run TestDeltaCrash -v ./driver/
func TestDeltaCrash(t *testing.T) {
	want := crashKills(t, 20)
	dir := t.TempDir()
	root := filepath.Join(dir, "d")
	createCheckpointedDelta(t, root, deltaCrashInterval)
	window := &killWindow{rng: rand.New(rand.NewPCG(5, 9)), max: 150 * time.Millisecond}
	kills, next, inCheckpoint, beforeCheckpoint := 0, 0, 0, 0
	seenTemps := map[string]bool{}
	for kills < want {
		c := startSQLChildEnv(t, fmt.Sprintf("%s,0,d:%d", dir, next), deltaCrashEnv+"=1")
		if killAfter(t, c, window.next()) {
			kills++
		}
		before := next
		next = deltaStatements(t, dir, next)
		window.progressed(next > before)
		latest := sameFromCommits(t, root)
		temps, missing := checkpointTraces(t, root, latest, deltaCrashInterval)
		for _, tmp := range temps {
			if !seenTemps[tmp] {
				seenTemps[tmp] = true
				inCheckpoint++
			}
		}
		if missing {
			beforeCheckpoint++
		}
	}
	db := openDSN(t, dir)
	var stmts int
	if err := db.QueryRow("SELECT count(DISTINCT s) FROM d").Scan(&stmts); err != nil {
		t.Fatal(err)
	}
	var checkpoints, compactions int
	for _, name := range dirNames(t, filepath.Join(root, delta.LogDir)) {
		switch {
		case strings.HasSuffix(name, ".checkpoint.parquet"):
			checkpoints++
		case strings.HasSuffix(name, ".compacted.json"):
			compactions++
		}
	}
	t.Logf("%d kills (%d while writing a checkpoint, %d after a commit due one and before it); %d statements, %d of them deleted; %d checkpoints and %d log compactions in the log",
		kills, inCheckpoint, beforeCheckpoint, next, next-stmts, checkpoints, compactions)
	// A loaded machine gets the children less far: fewer OPTIMIZEs, and
	// compactions only from one that finds two commits after a checkpoint.
	if compactions == 0 && next >= 70 {
		t.Errorf("no log compaction was written in %d statements", next)
	}
	if next < 10 || stmts == next {
		t.Errorf("%d statements, %d deleted: the children did not get far", next, next-stmts)
	}
}

// createCheckpointedDelta creates the Delta table of the crash test at
// root, with a checkpoint every interval commits (delta.checkpointInterval,
// which CREATE TABLE does not set).
func createCheckpointedDelta(t *testing.T, root string, interval int) {
	t.Helper()
	long := func(name string) *delta.Field {
		return &delta.Field{Name: name, Type: &delta.Type{Name: "long"}, Nullable: true}
	}
	typ := &delta.Type{Name: "struct", Fields: []*delta.Field{long("s"), long("k"), long("n"),
		{Name: "pad", Type: &delta.Type{Name: "string"}, Nullable: true}}}
	ss, err := typ.SchemaString()
	if err != nil {
		t.Fatal(err)
	}
	if err := delta.CreateLog(root); err != nil {
		t.Fatal(err)
	}
	c := &delta.Commit{Protocol: delta.NewProtocol(typ, nil), Operation: "CREATE TABLE", ReadVersion: -1,
		Metadata: &delta.Metadata{ID: delta.NewTableID(), SchemaString: ss, Configuration: map[string]string{"delta.checkpointInterval": strconv.Itoa(interval)}}}
	if _, err := c.Write(root, delta.CommitOptions{}); err != nil {
		t.Fatal(err)
	}
}

// sameFromCommits checks that the latest snapshot of the table at root
// (read from its newest checkpoint and log compaction) has the files its
// JSON commits alone give, and returns its version.
func sameFromCommits(t *testing.T, root string) int64 {
	t.Helper()
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatalf("the Delta table does not open: %v", err)
	}
	bare := t.TempDir()
	if err := delta.CreateLog(bare); err != nil {
		t.Fatal(err)
	}
	for v := int64(0); v <= snap.Version; v++ {
		name := fmt.Sprintf("%020d.json", v)
		data, err := os.ReadFile(filepath.Join(root, delta.LogDir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(bare, delta.LogDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fromCommits, err := delta.Open(bare, -1)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := logicalFiles(snap), logicalFiles(fromCommits); got != want {
		t.Fatalf("version %d from its checkpoint and compaction:\n%s\nfrom the commits:\n%s", snap.Version, got, want)
	}
	return snap.Version
}

// logicalFiles lists a snapshot's files (path and deletion vector),
// sorted.
func logicalFiles(s *delta.Snapshot) string {
	var out []string
	for _, f := range s.Files {
		id := ""
		if f.DeletionVector != nil {
			id = f.DeletionVector.UniqueID()
		}
		out = append(out, f.URI+" "+id)
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

// checkpointTraces returns the temporary files of checkpoints left in
// the log of the table at root (a kill while one was being written), and
// whether the checkpoint of the last version due one before latest is
// missing (a kill between a commit and its checkpoint).
func checkpointTraces(t *testing.T, root string, latest int64, interval int) (temps []string, missing bool) {
	t.Helper()
	have := map[string]bool{}
	for _, name := range dirNames(t, filepath.Join(root, delta.LogDir)) {
		if strings.HasPrefix(name, ".") && strings.Contains(name, ".checkpoint.parquet.tmp-") {
			temps = append(temps, name)
		}
		have[name] = true
	}
	due := latest / int64(interval) * int64(interval)
	return temps, due > 0 && !have[fmt.Sprintf("%020d.checkpoint.parquet", due)]
}

// deltaStatements checks the Delta table d after a kill and returns the
// number of the statement to run next.
func deltaStatements(t *testing.T, dir string, from int) int {
	t.Helper()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT s, count(*), min(n), max(k) FROM d GROUP BY s ORDER BY s")
	if err != nil {
		t.Fatalf("the Delta table does not open: %v", err)
	}
	defer rows.Close()
	present := map[int]bool{}
	last := -1
	for rows.Next() {
		var s, cnt, n, maxK int64
		if err := rows.Scan(&s, &cnt, &n, &maxK); err != nil {
			t.Fatal(err)
		}
		want := int64(stmtRows(int(s)))
		if cnt != want || n != want || maxK != want-1 {
			t.Fatalf("statement %d has %d of its %d rows", s, cnt, want)
		}
		present[int(s)] = true
		last = max(last, int(s))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	// Statements run in order: none before the last may be missing but
	// those a DELETE takes (s%5 == 1; a kill between an INSERT and its
	// DELETE skips that DELETE).
	for s := 0; s <= last; s++ {
		if !present[s] && s%5 != 1 {
			t.Fatalf("statement %d is missing, and %d committed after it", s, last)
		}
	}
	return max(last+1, from)
}

const groupCrashEnv = "CARQUET_CRASH_GROUP"

// groupCrashStride separates the statement numbers of the group crash
// test's goroutines: goroutine g runs statements g*stride + i.
const groupCrashStride = 1_000_000

// groupWriterChild runs, until killed, one goroutine per entry of firsts
// (its next statement) INSERTing into the one-file table t, so that group
// commit joins their statements in shared appends. Every third
// statement a goroutine also inserts statement -s and DELETEs every row
// of a negative statement; goroutine 0 runs OPTIMIZE t after every
// fifth.
func groupWriterChild(t *testing.T, db *sql.DB, firsts []int) {
	var wg sync.WaitGroup
	for g, first := range firsts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := first; ; i++ {
				s := g*groupCrashStride + i
				if _, err := db.Exec(insertText("t", s)); err != nil {
					t.Errorf("statement %d into t: %v", s, err)
					return
				}
				if i%3 == 2 {
					if _, err := db.Exec(insertText("t", -s)); err != nil {
						t.Errorf("statement %d into t: %v", -s, err)
						return
					}
					if _, err := db.Exec("DELETE FROM t WHERE s < 0"); err != nil {
						t.Errorf("DELETE after statement %d: %v", s, err)
						return
					}
				}
				if g == 0 && i%5 == 4 {
					if _, err := db.Exec("OPTIMIZE t"); err != nil {
						t.Errorf("OPTIMIZE after statement %d: %v", s, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestGroupCommitCrash SIGKILLs processes in which four goroutines run
// INSERTs into one file table at once (joined by group
// commit), with DELETEs and OPTIMIZE among them, at random moments: after
// each kill the file validates, every statement is whole or absent
// (a DELETE removes all of the rows it matched or none), and each
// goroutine's statements are there without a gap, none lost of those
// seen before. CARQUET_CRASH_KILLS sets the number of kills (default 30):
//
//	CARQUET_CRASH_KILLS=200 go test -run TestGroupCommitCrash -v -timeout 30m ./driver/
func TestGroupCommitCrash(t *testing.T) {
	want := crashKills(t, 30)
	dir := t.TempDir()
	createCrashTables(t, dir)
	dsn := dir + "?row_group_rows=40"
	window := &killWindow{rng: rand.New(rand.NewPCG(5, 9)), max: 150 * time.Millisecond}
	next := make([]int, 4) // each goroutine's next statement
	kills, torn := 0, 0
	for kills < want {
		firsts := make([]string, len(next))
		for g, i := range next {
			firsts[g] = strconv.Itoa(i)
		}
		c := startSQLChildEnv(t, fmt.Sprintf("%s,0,t:0", dsn), groupCrashEnv+"="+strings.Join(firsts, ":"))
		if killAfter(t, c, window.next()) {
			kills++
		}
		if journal.Active(filepath.Join(dir, "t.parquet")) {
			torn++
		}
		validFiles(t, filepath.Join(dir, "t.parquet"))
		got := make([]int, len(next))
		for _, s := range presentStatements(t, dir, "t") {
			if s < 0 {
				continue // inserted to be deleted: whole or absent is all
			}
			g, i := s/groupCrashStride, s%groupCrashStride
			if g >= len(got) || i != got[g] {
				t.Fatalf("statement %d of goroutine %d is not the next of its statements (a lost or extra statement)", i, g)
			}
			got[g]++
		}
		for g := range next {
			if got[g] < next[g] {
				t.Fatalf("goroutine %d had %d statements, now %d", g, next[g], got[g])
			}
		}
		window.progressed(!slices.Equal(got, next))
		next = got
	}
	t.Logf("%d kills (%d inside an append); statements committed per goroutine %v", kills, torn, next)
	for g, n := range next {
		if n < 5 {
			t.Errorf("goroutine %d committed only %d statements: the children did not get far", g, n)
		}
	}
}

// crashKills is the number of kills a crash test makes: CARQUET_CRASH_KILLS,
// else def. The tests spawn processes, so -short skips them.
func crashKills(t *testing.T, def int) int {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	if n, err := strconv.Atoi(os.Getenv("CARQUET_CRASH_KILLS")); err == nil && n > 0 {
		return n
	}
	return def
}

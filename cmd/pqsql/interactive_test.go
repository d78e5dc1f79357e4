//go:build linux

package main

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// The interactive shell is tested through a pseudo-terminal: the test
// binary re-runs itself as pqsql (PQSQL_TEST_MAIN=1, see TestMain) with
// the pty's slave as its terminal, and the test types keys into the
// master and reads what the shell draws.

// slowDriver wraps the carquet driver: the query "SELECT slow()" blocks
// until its context is cancelled (after writing "[slow]" to stderr), so
// that the test can press Ctrl-C while a statement runs.
type slowDriver struct{}

func (slowDriver) Open(dsn string) (driver.Conn, error) {
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		return nil, err
	}
	c, err := db.Driver().Open(dsn)
	if err != nil {
		return nil, err
	}
	return slowConn{c}, nil
}

type slowConn struct{ driver.Conn }

func (c slowConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	if strings.Contains(q, "slow()") {
		fmt.Fprint(os.Stderr, "[slow]")
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return c.Conn.(driver.QueryerContext).QueryContext(ctx, q, args)
}

func (c slowConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	return c.Conn.(driver.ExecerContext).ExecContext(ctx, q, args)
}

// beMain runs pqsql's main instead of the tests when asked to.
func beMain() {
	if os.Getenv("PQSQL_TEST_MAIN") != "1" {
		return
	}
	sql.Register("carquet-slow", slowDriver{})
	driverName = "carquet-slow"
	if d, err := time.ParseDuration(os.Getenv("PQSQL_TEST_PROGRESS_DELAY")); err == nil {
		progressDelay = d
	}
	main()
}

// pty is a pseudo-terminal pair with a log of what the master read.
type pty struct {
	master, slave *os.File
	mu            sync.Mutex
	out           strings.Builder
	mark          int
}

func openPTY(t *testing.T, cols, rows int) *pty {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		m.Close()
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		m.Close()
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		m.Close()
		t.Skipf("open pts: %v", err)
	}
	unix.IoctlSetWinsize(int(s.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: uint16(rows), Col: uint16(cols)})
	p := &pty{master: m, slave: s}
	go func() {
		buf := make([]byte, 4096)
		for {
			k, err := m.Read(buf)
			p.mu.Lock()
			p.out.Write(buf[:k])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { m.Close(); s.Close() })
	return p
}

// expect waits until the output since the last match holds want.
func (p *pty) expect(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		p.mu.Lock()
		s := p.out.String()
		if k := strings.Index(s[p.mark:], want); k >= 0 {
			p.mark += k + len(want)
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %q; the terminal shows after the last match:\n%q", want, s[p.mark:])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (p *pty) send(t *testing.T, keys string) {
	t.Helper()
	if _, err := p.master.Write([]byte(keys)); err != nil {
		t.Fatal(err)
	}
}

func TestInteractiveShell(t *testing.T) {
	dir := fixtures(t)
	hist := filepath.Join(t.TempDir(), "history")
	os.WriteFile(hist, []byte("SELECT 'from an earlier session' AS old;\n"), 0o600)
	p := openPTY(t, 100, 40)
	cmd := exec.Command(os.Args[0], dir)
	cmd.Env = append(os.Environ(), "PQSQL_TEST_MAIN=1", "PQSQL_HISTORY="+hist, "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
		}
	}()

	p.expect(t, "pqsql> ")
	// A statement over two lines: the continuation prompt, then a box
	// table (the default on a terminal).
	p.send(t, "SELECT count(*) AS n\r")
	p.expect(t, "   ...> ")
	p.send(t, "FROM events;\r")
	p.expect(t, "│ 10000 │")
	p.expect(t, "pqsql> ")

	// Tab completion of a column and a table; keys and line editing.
	p.send(t, "SELECT categ\t")
	p.expect(t, "category ")
	p.send(t, "FROM ev\t")
	p.expect(t, "events ")
	p.send(t, "WHERE user_id = 0 ORDER BY category LIMIT 1;\r")
	p.expect(t, "│ category │")
	p.expect(t, "pqsql> ")
	p.send(t, "SELECT 2 + 2 AS x;\x01\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[C\x1b[3~5\r") // Home, 7 right, Delete, type: SELECT 5 + 2
	p.expect(t, "│ 7 │")
	p.expect(t, "pqsql> ")

	// History: Up recalls the multi-line statement as one line.
	p.send(t, "\x1b[A\x1b[A\x1b[A")
	p.expect(t, "SELECT count(*) AS n FROM events;")
	p.send(t, "\x03")
	p.expect(t, "^C")
	p.expect(t, "pqsql> ")
	// Ctrl-R finds an entry of an earlier session.
	p.send(t, "\x12earlier")
	p.expect(t, "(reverse-i-search)`earlier': SELECT 'from an earlier session'")
	p.send(t, "\r")
	p.expect(t, "│ from an earlier session │")
	p.expect(t, "pqsql> ")

	// Dot-commands and a mode change.
	p.send(t, ".mode csv\r")
	p.expect(t, "pqsql> ")
	p.send(t, "SELECT 1 AS one;\r")
	p.expect(t, "one\r\n1\r\n")
	p.send(t, ".bogus\r")
	p.expect(t, "Error: unknown command .bogus")

	// Ctrl-C cancels the running statement, not the shell.
	p.send(t, "SELECT slow();\r")
	p.expect(t, "[slow]")
	p.send(t, "\x03")
	p.expect(t, "Interrupted")
	p.expect(t, "pqsql> ")
	p.send(t, "SELECT 'still here' AS s;\r")
	// The result, not the echo of the typed line: a Ctrl-D sent while the
	// statement still runs reaches a terminal in cooked mode.
	p.expect(t, "\r\nstill here\r\n")
	p.expect(t, "pqsql> ")

	// Ctrl-D leaves.
	p.send(t, "\x04")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("pqsql exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("pqsql did not exit on Ctrl-D")
	}
	b, _ := os.ReadFile(hist)
	h := string(b)
	for _, want := range []string{"SELECT count(*) AS n FROM events;\n", "SELECT category FROM events WHERE user_id = 0 ORDER BY category LIMIT 1;\n",
		"SELECT 5 + 2 AS x;\n", ".mode csv\n", "SELECT slow();\n"} {
		if !strings.Contains(h, want) {
			t.Errorf("history lacks %q:\n%s", want, h)
		}
	}
}

func TestInteractiveDemoBanner(t *testing.T) {
	cache := t.TempDir()
	p := openPTY(t, 80, 24)
	cmd := exec.Command(os.Args[0], "demo")
	cmd.Env = append(os.Environ(), "PQSQL_TEST_MAIN=1", "XDG_CACHE_HOME="+cache, "PQSQL_HISTORY="+filepath.Join(cache, "h"), "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, p.slave, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	p.expect(t, "events (100000 rows), users (")
	p.expect(t, demoQueries[2])
	p.expect(t, "pqsql> ")
	p.send(t, demoQueries[1]+"\r")
	p.expect(t, "│ category │ orders │")
	p.send(t, ".quit\r")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit: %v", err)
	}
}

// TestProgressOnTerminal runs export with stderr on a terminal (and a
// progress delay of a millisecond instead of a second): the bar is drawn
// on stderr and erased at the end, and stdout (a file) holds only data.
func TestProgressOnTerminal(t *testing.T) {
	ev := filepath.Join(fixtures(t), "events.parquet")
	p := openPTY(t, 80, 24)
	out, err := os.Create(filepath.Join(t.TempDir(), "out.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(os.Args[0], "export", "--format", "jsonl", ev)
	cmd.Env = append(os.Environ(), "PQSQL_TEST_MAIN=1", "PQSQL_TEST_PROGRESS_DELAY=1ms", "TERM=xterm")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = p.slave, out, p.slave
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	p.expect(t, "exporting [")
	p.expect(t, "rows/10000 rows")
	p.expect(t, "\r\x1b[K")
	b, _ := os.ReadFile(out.Name())
	if strings.Count(string(b), "\n") != eventRows || strings.Contains(string(b), "exporting") {
		t.Errorf("stdout: %d lines", strings.Count(string(b), "\n"))
	}
}

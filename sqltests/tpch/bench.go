package tpch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The speed comparison runs each engine in a child process (the benchmark
// command re-executed), so that each engine's peak RSS is its own. The
// parent sends one request per line on the child's stdin and reads one
// reply per line from its stdout:
//
//	q N     run query N, reading every row   ->  ok NANOSECONDS ROWS | timeout | err "MESSAGE"
//	rss     peak RSS so far (VmHWM)          ->  rss BYTES
//
// The parent alternates the engines' runs of each query, so both see the
// same machine load.

// Serve is the child's side: it opens engine over dir with threads and
// answers requests from in on out until in ends. A query that runs past
// timeout is cancelled and answered "timeout".
func Serve(engine, dir string, threads int, timeout time.Duration, in io.Reader, out io.Writer) error {
	qs, err := Queries()
	if err != nil {
		return err
	}
	db, err := Open(engine, dir, threads)
	if err != nil {
		return err
	}
	defer db.Close()
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		var reply string
		switch {
		case len(f) == 2 && f[0] == "q":
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > len(qs) {
				reply = fmt.Sprintf("err %q", "no query "+f[1])
				break
			}
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			start := time.Now()
			rows, err := Drain(ctx, db, qs[n-1].SQL)
			took := time.Since(start)
			timedOut := ctx.Err() != nil
			cancel()
			switch {
			case timedOut:
				reply = "timeout"
			case err != nil:
				reply = fmt.Sprintf("err %q", err.Error())
			default:
				reply = fmt.Sprintf("ok %d %d", took.Nanoseconds(), rows)
			}
		case len(f) == 1 && f[0] == "rss":
			rss, err := PeakRSS()
			if err != nil {
				reply = fmt.Sprintf("err %q", err.Error())
			} else {
				reply = fmt.Sprintf("rss %d", rss)
			}
		default:
			reply = fmt.Sprintf("err %q", "unknown request "+sc.Text())
		}
		if _, err := fmt.Fprintln(out, reply); err != nil {
			return err
		}
	}
	return sc.Err()
}

// PeakRSS is this process's peak resident set: VmHWM of
// /proc/self/status. Not getrusage's ru_maxrss: Go starts a child with
// vfork semantics, and Linux carries the parent's high-water mark into a
// child's ru_maxrss at exec, so a child would report the parent's peak.
func PeakRSS() (int64, error) { return vmHWM("/proc/self/status") }

func vmHWM(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: VmHWM %q: %w", path, v, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("%s: no VmHWM", path)
}

// child is one engine's process, as seen by the parent.
type child struct {
	engine string
	start  func() *exec.Cmd
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	peak   int64 // the largest RSS of this engine's processes that were killed
}

func (c *child) launch() error {
	c.cmd = c.start()
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		return err
	}
	out, err := c.cmd.StdoutPipe()
	if err != nil {
		return err
	}
	c.out = bufio.NewReader(out)
	return c.cmd.Start()
}

// ask sends one request and waits for its reply at most wait.
func (c *child) ask(req string, wait time.Duration) (string, error) {
	if c.cmd == nil {
		if err := c.launch(); err != nil {
			return "", fmt.Errorf("%s child: %w", c.engine, err)
		}
	}
	if _, err := fmt.Fprintln(c.in, req); err != nil {
		return "", fmt.Errorf("%s child: %w", c.engine, err)
	}
	type answer struct {
		line string
		err  error
	}
	ch := make(chan answer, 1)
	go func() {
		line, err := c.out.ReadString('\n')
		ch <- answer{strings.TrimSpace(line), err}
	}()
	select {
	case a := <-ch:
		if a.err != nil {
			c.kill()
			return "", fmt.Errorf("%s child died: %w", c.engine, a.err)
		}
		return a.line, nil
	case <-time.After(wait):
		c.kill()
		return "timeout", nil
	}
}

// kill ends a child that stopped answering (a query that ignored its
// cancellation); the next request starts a fresh one.
func (c *child) kill() {
	if c.cmd == nil {
		return
	}
	if rss, err := vmHWM(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid)); err == nil {
		c.peak = max(c.peak, rss)
	}
	c.cmd.Process.Kill()
	c.cmd.Wait()
	c.cmd = nil
}

// close asks for the peak RSS and ends the child.
func (c *child) close() int64 {
	if c.cmd != nil {
		if line, err := c.ask("rss", time.Minute); err == nil {
			if v, ok := strings.CutPrefix(line, "rss "); ok {
				if n, err := strconv.ParseInt(v, 10, 64); err == nil {
					c.peak = max(c.peak, n)
				}
			}
		}
		if c.cmd != nil {
			c.in.Close()
			c.cmd.Wait()
			c.cmd = nil
		}
	}
	return c.peak
}

// BenchConfig describes one comparison over one writer's files.
type BenchConfig struct {
	SF      float64
	Writer  string // whose files: "carquet" or "duckdb"
	Threads int
	Runs    int
	Timeout time.Duration
	Queries []Query
	// Start returns the command of a child serving engine over the files.
	Start func(engine string) *exec.Cmd
	Logf  func(format string, args ...any)
}

// Cell is one engine's figures for one query.
type Cell struct {
	Times   []time.Duration // counted runs
	Rows    int
	TimeOut bool
	Err     string
}

// Median of the counted runs.
func (c Cell) Median() time.Duration {
	if len(c.Times) == 0 {
		return 0
	}
	s := slices.Clone(c.Times)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// BenchResult is the outcome of Bench.
type BenchResult struct {
	Cfg     BenchConfig
	Cells   map[string][]Cell // per engine, per query of Cfg.Queries
	PeakRSS map[string]int64
}

// Bench runs, for each query, one warm-up of each engine and then
// Cfg.Runs counted runs, the engines alternating. An engine whose warm-up
// or run fails or passes the timeout is not run again on that query.
func Bench(cfg BenchConfig) (*BenchResult, error) {
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	res := &BenchResult{Cfg: cfg, Cells: map[string][]Cell{}, PeakRSS: map[string]int64{}}
	children := map[string]*child{}
	for _, e := range Engines {
		children[e] = &child{engine: e, start: func() *exec.Cmd { return cfg.Start(e) }}
		res.Cells[e] = make([]Cell, len(cfg.Queries))
	}
	defer func() {
		for _, e := range Engines {
			res.PeakRSS[e] = children[e].close()
		}
	}()
	// A child gets a minute past the timeout to notice the cancellation.
	wait := cfg.Timeout + time.Minute
	runOnce := func(e string, qi int, counted bool) error {
		c := &res.Cells[e][qi]
		if c.TimeOut || c.Err != "" {
			return nil
		}
		line, err := children[e].ask(fmt.Sprintf("q %d", cfg.Queries[qi].N), wait)
		if err != nil {
			c.Err = err.Error()
			return nil
		}
		f := strings.Fields(line)
		switch {
		case line == "timeout":
			c.TimeOut = true
		case len(f) == 3 && f[0] == "ok":
			ns, err1 := strconv.ParseInt(f[1], 10, 64)
			rows, err2 := strconv.Atoi(f[2])
			if err := errors.Join(err1, err2); err != nil {
				return fmt.Errorf("%s child: bad reply %q", e, line)
			}
			c.Rows = rows
			if counted {
				c.Times = append(c.Times, time.Duration(ns))
			}
		case strings.HasPrefix(line, "err "):
			msg, err := strconv.Unquote(strings.TrimPrefix(line, "err "))
			if err != nil {
				msg = line
			}
			c.Err = msg
		default:
			return fmt.Errorf("%s child: bad reply %q", e, line)
		}
		return nil
	}
	for qi, q := range cfg.Queries {
		for _, e := range Engines {
			if err := runOnce(e, qi, false); err != nil {
				return res, err
			}
		}
		for r := 0; r < cfg.Runs; r++ {
			order := Engines
			if r%2 == 1 {
				order = []string{Engines[1], Engines[0]}
			}
			for _, e := range order {
				if err := runOnce(e, qi, true); err != nil {
					return res, err
				}
			}
		}
		cc, cd := res.Cells["carquet"][qi], res.Cells["duckdb"][qi]
		cfg.Logf("tpch SF %v %s files %s: carquet %s, duckdb %s", cfg.SF, cfg.Writer, q.Name, cc.text(cfg.Timeout), cd.text(cfg.Timeout))
	}
	return res, nil
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 1, 64)
}

func (c Cell) text(timeout time.Duration) string {
	switch {
	case c.Err != "":
		return "error"
	case c.TimeOut:
		return "> " + timeout.String()
	case len(c.Times) == 0:
		return "-"
	}
	return ms(c.Median())
}

func (c Cell) spread() string {
	if len(c.Times) < 2 {
		return ""
	}
	return fmt.Sprintf(" (%s–%s)", ms(slices.Min(c.Times)), ms(slices.Max(c.Times)))
}

// Markdown renders the result as a table: per query the median ms of each
// engine (min–max), the ratio carquet/DuckDB, the rows each returned; then
// the geometric mean of the ratios and each engine's peak RSS.
func (r *BenchResult) Markdown() string {
	cfg := r.Cfg
	var b strings.Builder
	fmt.Fprintf(&b, "### TPC-H SF %v, files written by %s, %d thread(s), median of %d runs after a warm-up\n\n", cfg.SF, cfg.Writer, cfg.Threads, cfg.Runs)
	b.WriteString("| query | carquet ms (min–max) | DuckDB ms (min–max) | carquet/DuckDB | rows carquet / DuckDB |\n")
	b.WriteString("|---|---:|---:|---:|---|\n")
	var logSum float64
	var n, over, failed int
	var notes []string
	for qi, q := range cfg.Queries {
		cc, cd := r.Cells["carquet"][qi], r.Cells["duckdb"][qi]
		ratio := "-"
		switch {
		case cc.Err != "" || cd.Err != "" || cd.TimeOut:
			failed++
		case cc.TimeOut && len(cd.Times) > 0:
			x := float64(cfg.Timeout) / float64(cd.Median())
			ratio = fmt.Sprintf("> %.1f", x)
			logSum += math.Log(x)
			n++
			over++
		case len(cc.Times) > 0 && len(cd.Times) > 0:
			x := float64(cc.Median()) / float64(cd.Median())
			ratio = fmt.Sprintf("%.2f", x)
			logSum += math.Log(x)
			n++
		}
		rows := fmt.Sprintf("%d / %d", cc.Rows, cd.Rows)
		if cc.TimeOut || cc.Err != "" {
			rows = fmt.Sprintf("- / %d", cd.Rows)
		} else if cc.Rows != cd.Rows && cd.Err == "" && !cd.TimeOut {
			rows += " **differ**"
		}
		fmt.Fprintf(&b, "| %s | %s%s | %s%s | %s | %s |\n", q.Name, cc.text(cfg.Timeout), cc.spread(), cd.text(cfg.Timeout), cd.spread(), ratio, rows)
		for _, e := range Engines {
			if c := r.Cells[e][qi]; c.Err != "" {
				msg := c.Err
				if len(msg) > 300 {
					msg = msg[:300] + "..."
				}
				notes = append(notes, fmt.Sprintf("- %s %s: %s", q.Name, e, msg))
			}
		}
	}
	if n > 0 {
		gm := fmt.Sprintf("%.2f", math.Exp(logSum/float64(n)))
		if over > 0 {
			gm = "≥ " + gm
		}
		fmt.Fprintf(&b, "| **geometric mean** | | | **%s** | |\n", gm)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Geometric mean over %d queries", n)
	if over > 0 {
		fmt.Fprintf(&b, " (%d of them over the %v timeout, counted at the timeout: a lower bound)", over, cfg.Timeout)
	}
	if failed > 0 {
		fmt.Fprintf(&b, "; %d queries with an error are left out", failed)
	}
	b.WriteString(".\n\n")
	fmt.Fprintf(&b, "Peak RSS (VmHWM of each engine's own process, over all its queries): carquet %.1f MiB, DuckDB %.1f MiB.\n",
		float64(r.PeakRSS["carquet"])/(1<<20), float64(r.PeakRSS["duckdb"])/(1<<20))
	if len(notes) > 0 {
		b.WriteString("\nErrors:\n\n" + strings.Join(notes, "\n") + "\n")
	}
	return b.String()
}

// Command pqsql is carquet's SQL shell and Parquet inspection tool.
//
//	pqsql [flags] [PATH] [SQL...]   the SQL shell over a folder or file
//	pqsql demo                      the shell over a generated example dataset
//	pqsql COMMAND [flags] ARGS      inspect, convert and check Parquet files
//
// Run `pqsql help` for the list of commands and `pqsql COMMAND --help`
// for each one's flags and examples.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	"golang.org/x/term"
)

func main() {
	e := newEnv(os.Stdin, os.Stdout, os.Stderr)
	ctx, cancel := context.WithCancel(context.Background())
	e.ctx = ctx
	// Ctrl-C: the interactive shell cancels the running statement; other
	// work is cancelled through e.ctx, and a second Ctrl-C exits at once.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	go func() {
		for range sigs {
			if h := e.onInterrupt.Load(); h != nil {
				(*h)()
				continue
			}
			if ctx.Err() != nil {
				os.Exit(130)
			}
			cancel()
		}
	}()
	code := run(e, os.Args[1:])
	cancel()
	os.Exit(code)
}

// env is what a command runs with: its streams, whether they are
// terminals, and a context cancelled by Ctrl-C (outside the shell, which
// handles interrupts itself).
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// stdinTTY, stdoutTTY and stderrTTY report terminals; width is the
	// terminal width of stdout (0 when it is not one).
	stdinTTY, stdoutTTY, stderrTTY bool
	width                          int
	// onInterrupt, when set, handles Ctrl-C instead of cancelling ctx
	// (the interactive shell cancels the running statement only).
	onInterrupt atomic.Pointer[func()]
}

func newEnv(stdin io.Reader, stdout, stderr io.Writer) *env {
	e := &env{ctx: context.Background(), stdin: stdin, stdout: stdout, stderr: stderr}
	e.stdinTTY = isTerminal(stdin)
	e.stdoutTTY = isTerminal(stdout)
	e.stderrTTY = isTerminal(stderr)
	if e.stdoutTTY {
		if w, _, err := term.GetSize(int(stdout.(*os.File).Fd())); err == nil {
			e.width = w
		}
	}
	return e
}

func isTerminal(x any) bool {
	f, ok := x.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// errUsage marks errors in the command line (exit status 2).
var errUsage = errors.New("usage")

// errFailed is returned by commands that reported a failure themselves
// (validate): exit status 1 without another message.
var errFailed = errors.New("failed")

type command struct {
	name, args, summary string
	run                 func(e *env, args []string) error
}

func commands() []command {
	return []command{
		{"demo", "[-c SQL]", "open the shell on a generated example dataset (events, users)", runDemo},
		{"schema", "PATH", "print the schema (--json for a machine-readable form)", runSchema},
		{"info", "PATH...", "row groups, column chunks, encodings, codecs, sizes, metadata", runInfo},
		{"columns", "PATH", "list the leaf columns with their types", runColumns},
		{"count", "PATH", "count rows (optionally matching -p EXPR)", runCount},
		{"head", "[-n N] PATH", "print the first rows", runHead},
		{"tail", "[-n N] PATH", "print the last rows", runTail},
		{"cat", "PATH", "print rows: -c columns, --offset/--limit, -p filter", runCat},
		{"sample", "[-n N] PATH", "print random rows (--seed for repeatable samples)", runSample},
		{"stat", "FILE", "per-column statistics from the footer and page index", runStat},
		{"validate", "PATH...", "read every page and check CRCs, levels, statistics and page indexes", runValidate},
		{"optimize", "FILE...", "rewrite small row groups into full ones, atomically", runOptimize},
		{"export", "PATH", "write rows as CSV or JSON Lines", runExport},
		{"import", "INPUT -o FILE", "convert CSV or JSON Lines to Parquet", runImport},
		{"meta", "FILE", "print the raw footer (FileMetaData) as JSON", runMeta},
		{"codegen", "FILE", "generate a Go struct and reader for a file's schema", runCodegen},
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `pqsql: SQL over Parquet files, and tools to inspect them.

Usage:
  pqsql [flags] [PATH] [SQL...]    SQL shell over a folder of Parquet files or one file
                                   (default: the current folder); with SQL, or with SQL
                                   on stdin, runs it and exits
  pqsql COMMAND [flags] ARGS       a command below; pqsql COMMAND --help for details

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %-14s %s\n", c.name, c.args, c.summary)
	}
	fmt.Fprint(w, `
Shell flags (pqsql --help-shell for all of them):
  -c SQL          run SQL and exit (repeatable)
  -bail           stop at the first failing statement
  -readonly       open the data read-only
  -box -table -csv -tsv -json -jsonl -markdown -line   output mode
  -threads N      row groups decoded at once

PATH may be a Parquet file, a folder (every file in it is a table; sub-folders
with key=value names are hive partitions) or a glob. A PATH that is also a
command name must be written ./NAME.

Examples:
  pqsql demo                                   # try it on example data
  pqsql data/ "SELECT count(*) FROM events"    # one statement
  echo "SELECT 1;" | pqsql data/               # a script from stdin
  pqsql info data/events.parquet
  pqsql cat -c ts,amount -p "amount > 100" --limit 5 data/events.parquet
`)
}

func run(e *env, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "help", "-h", "--help", "-help":
			if len(args) > 1 {
				return run(e, []string{args[1], "--help"})
			}
			usage(e.stdout)
			return 0
		case "--help-shell", "-help-shell":
			shellUsage(e.stdout)
			return 0
		}
		for _, c := range commands() {
			if c.name == args[0] {
				return exitCode(e, c.run(e, args[1:]))
			}
		}
	}
	return exitCode(e, runShell(e, args))
}

func exitCode(e *env, err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errFailed):
		return 1
	case errors.Is(err, errUsage):
		fmt.Fprintln(e.stderr, "pqsql:", strings.TrimSuffix(err.Error(), ": "+errUsage.Error()))
		return 2
	}
	fmt.Fprintln(e.stderr, "pqsql:", err)
	return 1
}

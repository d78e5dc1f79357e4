package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqltests/tpch"
)

const tpchUsage = `carquet-bench tpch [-sf 1] [-threads 2] [-runs 3] [-queries 1,3,5] [-timeout 10m] [-writer carquet|duckdb|both] [-cache DIR] [-out file.md]

Generates the TPC-H tables at the scale factor with dbgen (go-tpc's port)
once into the cache, written as Parquet by carquet and by DuckDB, then
runs the 22 queries (or -queries) through database/sql on carquet and on
DuckDB over the same files at the same threads: per query one warm-up and
-runs counted runs of each engine, alternating, each engine in its own
child process (this program re-executed) so that its peak RSS is its own.
Prints a Markdown table (and writes it to -out).
`

// tpchMain is the tpch subcommand.
func tpchMain(args []string) error {
	fs := flag.NewFlagSet("tpch", flag.ExitOnError)
	fs.Usage = func() { fmt.Fprint(fs.Output(), tpchUsage); fs.PrintDefaults() }
	sf := fs.Float64("sf", 1, "scale factor: a whole number, or a fraction below 1 with at most three decimals")
	threads := fs.Int("threads", 2, "threads of each engine (carquet: DSN threads and GOMAXPROCS; DuckDB: SET threads)")
	runs := fs.Int("runs", 3, "counted runs per query and engine, after one warm-up")
	queries := fs.String("queries", "", "queries to run, e.g. 1,3,5 (default: all 22)")
	timeout := fs.Duration("timeout", 10*time.Minute, "per-run limit; a query over it is reported as > timeout")
	writers := fs.String("writer", "both", "whose files: carquet, duckdb or both")
	cache := fs.String("cache", "", "cache folder of the generated data (default $CARQUET_TPCH_CACHE or $XDG_CACHE_HOME/carquet-tpch)")
	out := fs.String("out", "", "also write the Markdown to this file")
	childEngine := fs.String("child-engine", "", "internal: serve this engine's queries on stdin/stdout")
	childDir := fs.String("child-dir", "", "internal: the files for -child-engine")
	fs.Parse(args)

	if *childEngine != "" {
		if *childEngine == "carquet" {
			runtime.GOMAXPROCS(*threads)
		}
		return tpch.Serve(*childEngine, *childDir, *threads, *timeout, os.Stdin, os.Stdout)
	}
	root := *cache
	if root == "" {
		var err error
		if root, err = tpch.CacheRoot(); err != nil {
			return err
		}
	}
	all, err := tpch.Queries()
	if err != nil {
		return err
	}
	qs, err := tpch.Select(all, *queries)
	if err != nil {
		return err
	}
	var ws []string
	switch *writers {
	case "both":
		ws = tpch.Writers
	case "carquet", "duckdb":
		ws = []string{*writers}
	default:
		return fmt.Errorf("-writer %q: want carquet, duckdb or both", *writers)
	}
	logf := func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }
	start := time.Now()
	ds, err := tpch.Prepare(root, *sf, logf)
	if err != nil {
		return err
	}
	logf("tpch: data ready in %v at %s", time.Since(start).Round(time.Millisecond), ds.Dir)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var md strings.Builder
	fmt.Fprintf(&md, "<!-- carquet-bench tpch -sf %v -threads %d -runs %d -timeout %v -->\n", *sf, *threads, *runs, *timeout)
	m := machine()
	fmt.Fprintf(&md, "Machine: %s, %s cores, %s, DuckDB %s.\n\n", m["cpu"], m["cores"], m["go"], m["duckdb"])
	for _, w := range ws {
		dir := ds.Path(w)
		res, err := tpch.Bench(tpch.BenchConfig{
			SF: *sf, Writer: w, Threads: *threads, Runs: *runs, Timeout: *timeout, Queries: qs, Logf: logf,
			Start: func(engine string) *exec.Cmd {
				cmd := exec.Command(self, "tpch", "-child-engine", engine, "-child-dir", dir,
					"-threads", strconv.Itoa(*threads), "-timeout", timeout.String())
				cmd.Stderr = os.Stderr
				return cmd
			},
		})
		if err != nil {
			return err
		}
		md.WriteString(res.Markdown())
		md.WriteString("\n")
	}
	fmt.Print(md.String())
	if *out != "" {
		return os.WriteFile(*out, []byte(md.String()), 0o644)
	}
	return nil
}

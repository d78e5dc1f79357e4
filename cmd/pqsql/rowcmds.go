package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/cli/progress"
	"github.com/carquet-go/carquet/scan"
)

func splitColumns(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	for _, c := range strings.Split(s, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// progressDelay is how long work runs before its progress bar shows.
var progressDelay = progress.DefaultDelay

// progressBar starts a progress bar on stderr when it is a terminal.
func (e *env) progressBar(desc string, total int64, unit string) *progress.Bar {
	return progress.Start(e.stderr, e.stderrTTY, desc, total, progress.Options{Unit: unit, Width: e.width, Delay: progressDelay})
}

// rowFlags are the flags of the commands that select rows.
type rowFlags struct {
	columns, filter string
}

func (c *cmdFlags) rowFlags(filter bool) *rowFlags {
	r := &rowFlags{}
	c.StringVar(&r.columns, "c", "", "columns to show, comma-separated (top-level names or dotted paths)")
	c.StringVar(&r.columns, "columns", "", "same as -c")
	if filter {
		c.StringVar(&r.filter, "p", "", "keep rows matching a WHERE-like `EXPR`, e.g. \"amount > 100 AND category IN ('books','toys')\"")
		c.StringVar(&r.filter, "filter", "", "same as -p")
	}
	return r
}

const filterHelp = `
A filter (-p) is pushed down into the scan, which skips row groups and
pages whose statistics rule it out: comparisons (= != <> < <= > >=), IN,
NOT IN, BETWEEN, IS [NOT] NULL, LIKE 'prefix%', AND, OR, NOT and
parentheses; strings in single quotes, times as strings ('2023-11-12').`

func runHead(e *env, args []string) error {
	fs := newFlags(e, "head", "head [-n N] [-c COLS] [-p EXPR] [flags] PATH",
		"Print the first N rows of a Parquet file, folder or glob."+filterHelp,
		`pqsql head data/events.parquet
		 pqsql head -n 3 -c ts,amount --json data/events.parquet
		 pqsql head -p "flag = true" data/`)
	n := fs.Int("n", 10, "number of rows")
	rf := fs.rowFlags(true)
	of := fs.outputFlags()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	return printRows(e, pos[0], rowSpec{columns: splitColumns(rf.columns), filter: rf.filter, limit: int64(max(*n, 0))}, of)
}

func runCat(e *env, args []string) error {
	fs := newFlags(e, "cat", "cat [-c COLS] [--offset N] [--limit N] [-p EXPR] [flags] PATH",
		"Print the rows of a Parquet file, folder or glob: a projection of columns,\na slice of rows, rows matching a filter."+filterHelp,
		`pqsql cat data/events.parquet > events.csv
		 pqsql cat -c user_id,amount --offset 1000 --limit 20 --box data/events.parquet
		 pqsql cat -p "ts >= '2024-02-01' AND amount > 3000" --jsonl data/events.parquet`)
	offset := fs.Int64("offset", 0, "rows to skip first")
	limit := fs.Int64("limit", -1, "rows to print at most (-1: all)")
	rf := fs.rowFlags(true)
	of := fs.outputFlags()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	if *offset < 0 {
		return fmt.Errorf("cat: --offset must not be negative: %w", errUsage)
	}
	return printRows(e, pos[0], rowSpec{columns: splitColumns(rf.columns), filter: rf.filter, offset: *offset, limit: *limit}, of)
}

func printRows(e *env, path string, spec rowSpec, of *outFlags) error {
	opts, err := of.options(e)
	if err != nil {
		return err
	}
	r, err := openRows(e.ctx, path, spec)
	if err != nil {
		return err
	}
	defer r.Close()
	bar := e.progressBar("reading", r.total, "rows")
	defer bar.Done()
	_, err = copyRows(r, output.New(e.stdout, opts), bar)
	return err
}

func runTail(e *env, args []string) error {
	fs := newFlags(e, "tail", "tail [-n N] [-c COLS] [-p EXPR] [flags] PATH",
		"Print the last N rows of a Parquet file, folder or glob. A single file\nwithout a filter is read from the row group holding the first of them."+filterHelp,
		`pqsql tail data/events.parquet
		 pqsql tail -n 3 -c ts --line data/events.parquet`)
	n := fs.Int("n", 10, "number of rows")
	rf := fs.rowFlags(true)
	of := fs.outputFlags()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	opts, err := of.options(e)
	if err != nil {
		return err
	}
	spec := rowSpec{columns: splitColumns(rf.columns), filter: rf.filter, limit: -1}
	path := pos[0]
	if spec.filter == "" && isFile(path) {
		// The row count is in the footer: start at the right row.
		r, err := openRows(e.ctx, path, rowSpec{columns: spec.columns, limit: 0})
		if err != nil {
			return err
		}
		total := r.total
		r.Close()
		spec.offset = max(total-int64(*n), 0)
		return printRows(e, path, spec, of)
	}
	r, err := openRows(e.ctx, path, spec)
	if err != nil {
		return err
	}
	defer r.Close()
	// Keep the last n rows in a ring.
	ring := make([][]any, 0, *n)
	next := 0
	for {
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if *n <= 0 {
			continue
		}
		if len(ring) < *n {
			ring = append(ring, row)
		} else {
			ring[next] = row
			next = (next + 1) % *n
		}
	}
	w := output.New(e.stdout, opts)
	if err := w.Begin(r.cols); err != nil {
		return err
	}
	for i := range ring {
		if err := w.Row(ring[(next+i)%len(ring)]); err != nil {
			return err
		}
	}
	return w.End()
}

func runSample(e *env, args []string) error {
	fs := newFlags(e, "sample", "sample [-n N] [--seed S] [-c COLS] [-p EXPR] [flags] PATH",
		"Print N rows chosen uniformly at random (reservoir sampling over every\nrow, kept in file order). The same --seed gives the same rows."+filterHelp,
		`pqsql sample -n 5 data/events.parquet
		 pqsql sample -n 5 --seed 42 -c user_id data/`)
	n := fs.Int("n", 10, "number of rows")
	seed := fs.Uint64("seed", 0, "random seed (0: a different sample each run)")
	rf := fs.rowFlags(true)
	of := fs.outputFlags()
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	opts, err := of.options(e)
	if err != nil {
		return err
	}
	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	rng := rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
	r, err := openRows(e.ctx, pos[0], rowSpec{columns: splitColumns(rf.columns), filter: rf.filter, limit: -1})
	if err != nil {
		return err
	}
	defer r.Close()
	bar := e.progressBar("sampling", r.total, "rows")
	defer bar.Done()
	type picked struct {
		idx int64
		row []any
	}
	var res []picked
	var seen int64
	for {
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if len(res) < *n {
			res = append(res, picked{seen, row})
		} else if j := rng.Int64N(seen + 1); j < int64(*n) {
			res[j] = picked{seen, row}
		}
		seen++
		if seen&1023 == 0 {
			bar.Set(seen)
			if err := e.ctx.Err(); err != nil {
				return err
			}
		}
	}
	bar.Done()
	sort.Slice(res, func(i, j int) bool { return res[i].idx < res[j].idx })
	w := output.New(e.stdout, opts)
	if err := w.Begin(r.cols); err != nil {
		return err
	}
	for _, p := range res {
		if err := w.Row(p.row); err != nil {
			return err
		}
	}
	return w.End()
}

func runCount(e *env, args []string) error {
	fs := newFlags(e, "count", "count [-p EXPR] PATH",
		"Print the number of rows of a Parquet file, folder or glob (from the\nfooters), or the number matching a filter (reading only the filter's\ncolumns, after pruning)."+filterHelp,
		`pqsql count data/events.parquet
		 pqsql count -p "category = 'books' AND amount >= 100" data/`)
	rf := fs.rowFlags(true)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	t, pred, err := openTable(pos[0], rf.filter)
	if err != nil {
		return err
	}
	defer t.Close()
	if pred == nil {
		n, err := t.NumRows()
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, n)
		return nil
	}
	cols, _ := withFileColumn(t, scan.Columns(nil, pred))
	s, err := t.Scan(e.ctx, scan.Request{Columns: cols, Filter: pred, Unordered: true})
	if err != nil {
		return err
	}
	defer s.Close()
	var n int64
	for {
		b, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		n += int64(b.NumRows)
	}
	fmt.Fprintln(e.stdout, n)
	return nil
}

func runExport(e *env, args []string) error {
	fs := newFlags(e, "export", "export [-o FILE] [--format csv|tsv|jsonl|json] [-c COLS] [-p EXPR] PATH",
		"Write the rows of a Parquet file, folder or glob as CSV (with a header),\nTSV, JSON Lines or a JSON array, to a file or stdout. The format comes\nfrom --format, else from the output file's extension, else CSV.\nTimestamps are written in RFC 3339, NULL as an empty CSV field or null."+filterHelp,
		`pqsql export -o events.csv data/events.parquet
		 pqsql export --format jsonl -c ts,amount -p "amount > 3000" data/events.parquet | head
		 pqsql export -o part.jsonl --offset 100 --limit 50 data/`)
	out := fs.String("o", "", "output `FILE` (default stdout)")
	format := fs.String("format", "", "csv, tsv, jsonl or json (default: from -o's extension, else csv)")
	offset := fs.Int64("offset", 0, "rows to skip first")
	limit := fs.Int64("limit", -1, "rows to write at most (-1: all)")
	noHeader := fs.Bool("no-header", false, "leave out the CSV/TSV header line")
	rf := fs.rowFlags(true)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	f := *format
	if f == "" {
		switch strings.ToLower(filepath.Ext(*out)) {
		case ".jsonl", ".ndjson":
			f = "jsonl"
		case ".json":
			f = "json"
		case ".tsv", ".tab":
			f = "tsv"
		default:
			f = "csv"
		}
	}
	mode, err := output.ParseMode(f)
	if err != nil || mode.Pretty() {
		return fmt.Errorf("export: unknown format %q (want csv, tsv, jsonl or json): %w", f, errUsage)
	}
	r, err := openRows(e.ctx, pos[0], rowSpec{columns: splitColumns(rf.columns), filter: rf.filter, offset: *offset, limit: *limit})
	if err != nil {
		return err
	}
	defer r.Close()
	var w io.Writer = e.stdout
	var of *os.File
	if *out != "" && *out != "-" {
		if of, err = os.Create(*out); err != nil {
			return err
		}
		defer of.Close()
		w = of
	}
	bar := e.progressBar("exporting", r.total, "rows")
	n, err := copyRows(r, output.New(w, output.Options{Mode: mode, NoHeader: *noHeader}), bar)
	bar.Done()
	if err != nil {
		return err
	}
	if of != nil {
		if err := of.Close(); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "wrote %d rows to %s\n", n, *out)
	}
	return nil
}

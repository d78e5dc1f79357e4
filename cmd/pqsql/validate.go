package main

import (
	"encoding/json"
	"fmt"

	"github.com/carquet-go/carquet/internal/cli/progress"
	"github.com/carquet-go/carquet/internal/validate"
)

// The checks themselves are in internal/validate.

func runValidate(e *env, args []string) error {
	fs := newFlags(e, "validate", "validate [-q] [--json] PATH...",
		`Read every page of every column chunk of Parquet files (a folder or glob:
each of its files) and check each file against itself:
  - page CRCs (where pages carry one) and that every page decodes;
  - levels: none above the column's maximum, v2 page headers' row and
    null counts, pages starting at row boundaries where a page index exists;
  - value and row counts: the pages against column metadata and row groups;
  - chunk statistics against the data: min/max bound every value, null and
    NaN counts recomputed;
  - the offset index: one entry per data page, at the page's offset, with
    its size and first row;
  - the column index: null pages, per-page min/max and null counts against
    the page's data, the declared boundary order;
  - bloom filters: every value of the chunk is found.
Each problem names the file, row group, column, page and offset. The exit
status is 0 when every file passes (warnings allowed), 1 otherwise.`,
		`pqsql validate data/events.parquet
		 pqsql validate -q data/*.parquet && echo ok`)
	quiet := fs.Bool("q", false, "print problems only (no warnings, no summary)")
	asJSON := fs.Bool("json", false, "machine-readable report")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, -1); err != nil {
		return err
	}
	files, err := expandFiles(pos)
	if err != nil {
		return err
	}
	failed := false
	var all []validate.Finding
	type summary struct {
		File      string `json:"file"`
		OK        bool   `json:"ok"`
		RowGroups int64  `json:"row_groups"`
		Chunks    int64  `json:"column_chunks"`
		Pages     int64  `json:"pages"`
		Values    int64  `json:"values"`
		Problems  int    `json:"problems"`
		Warnings  int    `json:"warnings"`
	}
	var sums []summary
	for _, p := range files {
		var bar *progress.Bar
		rep := validate.File(p, validate.Options{Context: e.ctx, Progress: func(done, total int64) {
			if bar == nil {
				bar = e.progressBar("validating "+p, total, "bytes")
			}
			bar.Set(done)
		}})
		if bar != nil {
			bar.Done()
		}
		nerr, nwarn := 0, 0
		for _, f := range rep.Findings {
			if f.Warning {
				nwarn++
				if *quiet {
					continue
				}
			} else {
				nerr++
			}
			all = append(all, f)
			if !*asJSON {
				fmt.Fprintln(e.stdout, f.String())
			}
		}
		if nerr > 0 {
			failed = true
		}
		sums = append(sums, summary{p, nerr == 0, rep.RowGroups, rep.Chunks, rep.Pages, rep.Values, nerr, nwarn})
		if !*asJSON && !*quiet {
			verdict := "OK"
			if nerr > 0 {
				verdict = "FAILED"
			}
			fmt.Fprintf(e.stdout, "%s: %s: %d row groups, %d column chunks, %d pages, %d values checked; %d problems, %d warnings\n",
				p, verdict, rep.RowGroups, rep.Chunks, rep.Pages, rep.Values, nerr, nwarn)
		}
	}
	if *asJSON {
		if all == nil {
			all = []validate.Finding{}
		}
		b, _ := json.MarshalIndent(map[string]any{"ok": !failed, "files": sums, "findings": all}, "", "  ")
		fmt.Fprintf(e.stdout, "%s\n", b)
	}
	if failed {
		return errFailed
	}
	return nil
}

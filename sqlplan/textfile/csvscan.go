package textfile

import (
	"context"
	"io"
	"os"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// COPY t FROM 'file.csv' (FORMAT csv, ...) reads a CSV file of DuckDB's
// dialect (EXPORT DATABASE's load.sql): it is INSERT INTO t SELECT *
// FROM a relation of the file's fields as VARCHAR columns, one per
// column of t by position (as DuckDB's COPY matches them), which INSERT
// casts to t's types. The relation is named by a marker table name that
// carries the table, the file and the dialect; the file is read in
// batches as the INSERT pulls them.

// SniffDialect finds what of the delimiter, the quote and the header
// the options left open (what names them: delim, quote, header) with
// read_csv's sniffer (csvsniff.go), the table's columns as the file's;
// when none splits the file into the table's columns, the defaults
// stand.
func (n *CopyScan) SniffDialect(cols []vec.NamedType, what []string) {
	spec := &CSVSpec{Fn: "COPY", opts: n.opts, delimSet: true, quoteSet: true, escapeSet: true, headerSet: true, auto: true,
		sample: csvDefaultSample, nullstr: []string{""}, compress: "none"}
	for _, w := range what {
		switch w {
		case "delim":
			spec.delimSet = false
		case "quote":
			spec.quoteSet, spec.escapeSet = false, false
		case "header":
			spec.headerSet = false
		}
	}
	spec.columns = cols
	sch, err := spec.sniffFile(n.path, n.path)
	if err != nil || sch.width != len(cols) {
		// No dialect fits the table: the defaults stand, and reading
		// tells where the file goes wrong.
		return
	}
	n.opts.Delim, n.opts.Quote, n.opts.Escape, n.opts.Header = sch.opts.Delim, sch.opts.Quote, sch.opts.Escape, sch.opts.Header
}

// The bounds of one batch of a CSV file: rows, and bytes of one column
// (its offsets are 32-bit).
const (
	csvBatchRows  = 2048
	csvBatchBytes = 64 << 20
)

// CopyScan reads a CSV file's records as VARCHAR columns: COPY t FROM
// a file, each field of a record into t's column of its position.
type CopyScan struct {
	path    string
	opts    Dialect
	notNull []bool // by column: an unquoted empty field is ""
	f       *os.File
	sp      *csvSplitter // csvsplit.go
	done    bool
}

// NewCopyScan is the scan of a file read with a dialect; notNull (one
// per column) keeps a column's unquoted empty fields the empty string
// (FORCE_NOT_NULL).
func NewCopyScan(path string, d Dialect, notNull []bool) *CopyScan {
	return &CopyScan{path: path, opts: d, notNull: notNull}
}

func (n *CopyScan) Next(ctx context.Context) (*vec.Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if n.sp == nil {
		if err := n.open(); err != nil {
			return nil, err
		}
	}
	cols := make([]*vec.Col, len(n.notNull))
	for i := range cols {
		cols[i] = &vec.Col{T: tString, Off: []int32{0}, Null: make([]bool, 0, csvBatchRows)}
	}
	b := &vec.Batch{Cols: cols}
	for b.N < csvBatchRows && !n.sp.done {
		if b.N%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		got, err := n.record(cols)
		if err != nil {
			return nil, err
		}
		if got {
			b.N++
		}
		if batchFull(cols) {
			break
		}
	}
	n.done = n.sp.done
	for _, c := range cols {
		c.Len = b.N
	}
	if b.N == 0 {
		return nil, io.EOF
	}
	return b, nil
}

// batchFull reports whether a column holds csvBatchBytes of text.
func batchFull(cols []*vec.Col) bool {
	for _, c := range cols {
		if len(c.Data) > csvBatchBytes {
			return true
		}
	}
	return false
}

// open opens the file and skips its header line.
func (n *CopyScan) open() error {
	f, err := os.Open(n.path)
	if err != nil {
		return err
	}
	n.f, n.sp = f, newCSVSplitter(f, n.opts, n.path)
	if n.opts.Header {
		// The header's names are not read: columns match by position.
		skip := make([]*vec.Col, len(n.notNull))
		for i := range skip {
			skip[i] = &vec.Col{T: tString, Off: []int32{0}}
		}
		if _, err := n.record(skip); err != nil {
			return err
		}
	}
	return nil
}

func (n *CopyScan) Close() {
	if n.f != nil {
		n.f.Close()
		n.f = nil
	}
}

// Label is the scan's line in EXPLAIN.
func (n *CopyScan) Label() string { return "CSV " + n.path }

// record reads one record into cols, a field each; got is false at the
// end of the file and for an empty line.
func (n *CopyScan) record(cols []*vec.Col) (got bool, err error) {
	k, err := n.sp.record(cols, n.notNull)
	switch {
	case err != nil || k == 0:
		return false, err
	case k > len(cols):
		return false, n.sp.fail("more fields than the table's %d columns", len(cols))
	case k < len(cols):
		return false, n.sp.fail("%d fields, the table has %d columns", k, len(cols))
	}
	return true, nil
}

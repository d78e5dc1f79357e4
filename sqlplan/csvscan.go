package sqlplan

import (
	"context"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// COPY t FROM 'file.csv' (FORMAT csv, ...) reads a CSV file of DuckDB's
// dialect (EXPORT DATABASE's load.sql): it is INSERT INTO t SELECT *
// FROM a relation of the file's fields as VARCHAR columns, one per
// column of t by position (as DuckDB's COPY matches them), which INSERT
// casts to t's types. The relation is named by a marker table name that
// carries the table, the file and the dialect; the file is read in
// batches as the INSERT pulls them.

// csvMarker begins the table name of a CSV file's relation.
const csvMarker = "__carquet_csv__:"

// csvRelationName is the marker name of table's CSV file path.
func csvRelationName(table, path string, opts csvOptions) string {
	v := url.Values{}
	v.Set("table", table)
	v.Set("path", path)
	v.Set("dialect", string([]byte{opts.delim, opts.quote, opts.escape}))
	v.Set("header", strconv.FormatBool(opts.header))
	v.Set("quoted_nulls", strconv.FormatBool(opts.quotedNulls))
	v["not_null"] = opts.notNull
	v["sniff"] = opts.sniff
	return csvMarker + v.Encode()
}

// csvRelation is the relation of a CSV marker name; ok is false for
// other names.
func (p *planner) csvRelation(name, alias string) (*relation, bool, error) {
	enc, ok := strings.CutPrefix(name, csvMarker)
	if !ok {
		return nil, false, nil
	}
	v, err := url.ParseQuery(enc)
	dialect := v.Get("dialect")
	if err != nil || len(dialect) != 3 {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	scan := &csvScan{path: v.Get("path"), opts: csvOptions{delim: dialect[0], quote: dialect[1], escape: dialect[2], header: v.Get("header") == "true", quotedNulls: v.Get("quoted_nulls") == "true"}}
	if err := p.e.confine.Check(scan.path, false); err != nil {
		return nil, true, &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	ent, err := p.tableEntry(v.Get("table"))
	if err != nil {
		return nil, true, err
	}
	cols := make([]Column, len(ent.cols))
	scan.notNull = make([]bool, len(ent.cols))
	for i, c := range ent.cols {
		cols[i] = Column{Name: c.name, Type: tString, Nullable: true}
	}
	for _, n := range v["not_null"] {
		k := columnIndexFold(ent.cols, n)
		if k < 0 {
			return nil, true, errorf("COPY %s FROM %s: FORCE_NOT_NULL names %q, which is not a column of %s", ent.name, quoteString(scan.path), n, ent.name)
		}
		scan.notNull[k] = true
	}
	if len(v["sniff"]) > 0 {
		if err := scan.sniffDialect(ent, v["sniff"]); err != nil {
			return nil, true, err
		}
	}
	if alias == "" {
		alias = ent.name
	}
	return nodeRelation(alias, scan, cols), true, nil
}

// sniffDialect finds what of the delimiter, the quote and the header
// the options left open with read_csv's sniffer (csvsniff.go), the
// table's columns as the file's; when none splits the file into the
// table's columns, the defaults stand.
func (n *csvScan) sniffDialect(ent catalogEntry, what []string) error {
	spec := &csvReadSpec{fn: "COPY", opts: n.opts, delimSet: true, quoteSet: true, escapeSet: true, headerSet: true, auto: true,
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
	for _, c := range ent.cols {
		spec.columns = append(spec.columns, NamedType{Name: c.name, Type: c.t})
	}
	sch, err := spec.sniffFile(n.path, n.path)
	if err != nil || sch.width != len(ent.cols) {
		// No dialect fits the table: the defaults stand, and reading
		// tells where the file goes wrong.
		return nil
	}
	n.opts.delim, n.opts.quote, n.opts.escape, n.opts.header = sch.opts.delim, sch.opts.quote, sch.opts.escape, sch.opts.header
	return nil
}

// columnIndexFold is the index of the column named name, in any case, or
// -1.
func columnIndexFold(cols []catalogColumn, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.name, name) {
			return i
		}
	}
	return -1
}

// The bounds of one batch of a CSV file: rows, and bytes of one column
// (its offsets are 32-bit).
const (
	csvBatchRows  = 2048
	csvBatchBytes = 64 << 20
)

// csvScan reads a CSV file's records as VARCHAR columns.
type csvScan struct {
	path    string
	opts    csvOptions
	notNull []bool // by column: an unquoted empty field is ""
	f       *os.File
	sp      *csvSplitter // csvsplit.go
	done    bool
}

func (n *csvScan) Next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if n.sp == nil {
		if err := n.open(); err != nil {
			return nil, err
		}
	}
	cols := make([]*Col, len(n.notNull))
	for i := range cols {
		cols[i] = &Col{T: tString, Off: []int32{0}, Null: make([]bool, 0, csvBatchRows)}
	}
	b := &Batch{Cols: cols}
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
func batchFull(cols []*Col) bool {
	for _, c := range cols {
		if len(c.Data) > csvBatchBytes {
			return true
		}
	}
	return false
}

// open opens the file and skips its header line.
func (n *csvScan) open() error {
	f, err := os.Open(n.path)
	if err != nil {
		return err
	}
	n.f, n.sp = f, newCSVSplitter(f, n.opts, n.path)
	if n.opts.header {
		// The header's names are not read: columns match by position.
		skip := make([]*Col, len(n.notNull))
		for i := range skip {
			skip[i] = &Col{T: tString, Off: []int32{0}}
		}
		if _, err := n.record(skip); err != nil {
			return err
		}
	}
	return nil
}

func (n *csvScan) Close() {
	if n.f != nil {
		n.f.Close()
		n.f = nil
	}
}

func (n *csvScan) Explain(x *kernels.Explainer, depth int) {
	x.Line(depth, "CSV %s", n.path)
}

// record reads one record into cols, a field each; got is false at the
// end of the file and for an empty line.
func (n *csvScan) record(cols []*Col) (got bool, err error) {
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

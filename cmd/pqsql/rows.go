package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/cli/progress"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
)

// rowSpec chooses the rows a command reads.
type rowSpec struct {
	columns []string // nil: every column
	filter  string   // WHERE-like expression, "" for none
	offset  int64
	limit   int64 // <0: no limit
}

// rowReader yields rows of a file, folder or glob as Go values: through
// parquet/file for a single file without a filter (skipping whole row
// groups to reach an offset), through scan/ otherwise (pushing the filter
// down).
type rowReader struct {
	cols   []output.Column
	fields []*schema.Field // nil for hive partition columns

	next  func() ([]*vector.Vector, int, error)
	close func() error

	batch []*vector.Vector
	n, i  int
	skip  int64
	left  int64
	// read counts the rows read so far (for progress).
	read int64
	// total is the table's row count when known cheaply (-1 otherwise).
	total int64
	// shown is the number of columns returned (a scan may read one more).
	shown int
	// ctx stops long reads (Ctrl-C).
	ctx context.Context
}

// withFileColumn works around scan's failure on a request of hive
// partition columns only: it adds the table's first file column, which
// the caller drops (extra is 1 then).
func withFileColumn(t *scan.Table, cols []string) ([]string, int) {
	if cols == nil {
		return nil, 0
	}
	var first string
	for _, c := range t.Columns {
		if !c.Partition {
			first = c.Name
			break
		}
	}
	if first == "" {
		return cols, 0
	}
	for _, name := range cols {
		c := t.Column(name)
		if c == nil {
			top, _, _ := strings.Cut(name, ".")
			c = t.Column(top)
		}
		if c == nil || !c.Partition {
			return cols, 0
		}
	}
	return append(append([]string(nil), cols...), first), 1
}

// isFile reports whether path names one regular file (not a folder or a
// glob).
func isFile(path string) bool {
	if objstore.IsURL(path) {
		// In a URL '?' starts the options: globs there use '*' and '['.
		u, _, _ := strings.Cut(path, "?")
		return strings.HasSuffix(u, ".parquet") && !strings.ContainsAny(u, "*[")
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func openRows(ctx context.Context, path string, spec rowSpec) (*rowReader, error) {
	var r *rowReader
	var err error
	if spec.filter == "" && isFile(path) {
		r, err = openFileRows(path, spec)
	} else {
		r, err = openScanRows(ctx, path, spec)
	}
	if r != nil {
		r.ctx = ctx
	}
	return r, err
}

func openFileRows(path string, spec rowSpec) (*rowReader, error) {
	f, err := openFile(path)
	if err != nil {
		return nil, err
	}
	// Skip the row groups wholly before the offset.
	var rgs []int
	skip := spec.offset
	for i, rg := range f.Meta.RowGroups {
		if len(rgs) == 0 && skip >= rg.NumRows {
			skip -= rg.NumRows
			continue
		}
		rgs = append(rgs, i)
	}
	if rgs == nil {
		rgs = []int{}
	}
	ro := file.ReaderOptions{Columns: spec.columns, RowGroups: rgs}
	if len(rgs) > 0 && skip > 0 {
		// Start inside the first row group: pages before it are not read
		// where the file has an offset index.
		ro.Ranges = map[int][]file.RowRange{rgs[0]: {{Start: skip, End: f.Meta.RowGroups[rgs[0]].NumRows}}}
	}
	r, err := f.NewReader(ro)
	if err != nil {
		f.Close()
		return nil, err
	}
	rr := &rowReader{fields: r.Fields(), left: spec.limit, total: f.NumRows(), close: f.Close}
	for i, fl := range rr.fields {
		name := fl.Name
		if spec.columns != nil {
			name = spec.columns[i]
		}
		rr.cols = append(rr.cols, output.Column{Name: name, Type: sqlType(fl)})
	}
	rr.next = func() ([]*vector.Vector, int, error) {
		b, err := r.Next()
		if err != nil {
			return nil, 0, err
		}
		return b.Columns, b.NumRows, nil
	}
	return rr, nil
}

// openTable opens a scan table and parses a filter against it.
func openTable(path, filter string) (*scan.Table, scan.Predicate, error) {
	t, err := scan.Open(path, scan.Options{})
	if err != nil {
		return nil, nil, err
	}
	if filter == "" {
		return t, nil, nil
	}
	pred, err := parseFilter(filter, func(col string) bool {
		c := t.Column(col)
		if c == nil {
			top, _, _ := strings.Cut(col, ".")
			c = t.Column(top)
		}
		return c != nil && c.Field != nil && c.Field.Kind == schema.Primitive &&
			c.Field.Node.Logical != nil && c.Field.Node.Logical.Decimal != nil
	})
	if err != nil {
		t.Close()
		return nil, nil, fmt.Errorf("%v: %w", err, errUsage)
	}
	return t, pred, nil
}

func openScanRows(ctx context.Context, path string, spec rowSpec) (*rowReader, error) {
	t, pred, err := openTable(path, spec.filter)
	if err != nil {
		return nil, err
	}
	cols, extra := withFileColumn(t, spec.columns)
	s, err := t.Scan(ctx, scan.Request{Columns: cols, Filter: pred})
	if err != nil {
		t.Close()
		return nil, err
	}
	rr := &rowReader{skip: spec.offset, left: spec.limit, total: -1, shown: len(s.Columns()) - extra}
	if pred == nil {
		if n, err := t.NumRows(); err == nil {
			rr.total = n
		}
	}
	for _, c := range s.Columns()[:rr.shown] {
		typ := sqlType(c.Field)
		if c.Field == nil {
			typ = "VARCHAR"
			if c.PartitionType == scan.PartitionInt64 {
				typ = "BIGINT"
			}
		}
		rr.cols = append(rr.cols, output.Column{Name: c.Name, Type: typ})
		rr.fields = append(rr.fields, c.Field)
	}
	rr.close = func() error {
		err := s.Close()
		if e := t.Close(); err == nil {
			err = e
		}
		return err
	}
	rr.next = func() ([]*vector.Vector, int, error) {
		b, err := s.Next()
		if err != nil {
			return nil, 0, err
		}
		return b.Columns, b.NumRows, nil
	}
	return rr, nil
}

// Next returns the next row (a new slice), or io.EOF.
func (r *rowReader) Next() ([]any, error) {
	for {
		if r.left == 0 {
			return nil, io.EOF
		}
		for r.i >= r.n {
			cols, n, err := r.next()
			if err != nil {
				return nil, err
			}
			r.batch, r.n, r.i = cols, n, 0
			r.read += int64(n)
			if r.skip > 0 {
				k := min(r.skip, int64(n))
				r.skip -= k
				r.i = int(k)
			}
		}
		row := make([]any, len(r.fields))
		for j, f := range r.fields {
			row[j] = cellValue(f, r.batch[j], r.i)
		}
		r.i++
		if r.left > 0 {
			r.left--
		}
		return row, nil
	}
}

// cellValue is slot i of v as a Go value; f is nil for hive partition
// columns (int64 or string vectors).
func cellValue(f *schema.Field, v *vector.Vector, i int) any {
	if f != nil {
		return value.Get(f, v, i)
	}
	if v.IsNull(i) {
		return nil
	}
	if v.Kind == vector.Int64 {
		return v.Int64s[i]
	}
	return string(v.Bytes(i))
}

func (r *rowReader) Close() error { return r.close() }

// copyRows writes every row of r to w.
func copyRows(r *rowReader, w output.Writer, prog *progress.Bar) (int64, error) {
	if err := w.Begin(r.cols); err != nil {
		return 0, err
	}
	var n int64
	for {
		row, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.End()
			return n, err
		}
		if err := w.Row(row); err != nil {
			return n, err
		}
		n++
		if n&1023 == 0 {
			prog.Set(r.read)
			if err := r.ctx.Err(); err != nil {
				w.End()
				return n, err
			}
		}
	}
	return n, w.End()
}

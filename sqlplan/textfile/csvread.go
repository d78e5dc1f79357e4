package textfile

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_csv(path | [paths] | glob, option = value, ...), read_csv_auto
// and FROM 'file.csv': the rewrite made the call a marker table name
// (parse/csvcall.go), which the planner binds (csvbind.go in package
// sqlplan) to the scan here: it streams the files in batches, each field's text parsed into its
// column's vector (csvvalues.go), the schema sniffed from the first
// file's first rows (csvsniff.go), or from each file's with
// union_by_name.

// csvFile is one file of a read_csv call.
type csvFile struct {
	shown, path string
	sch         *csvSchema
	proj        []int // the output column of each of the file's columns
}

// Plan sniffs the files (paths, shown in errors and filename as shown)
// and returns the scan and its columns.
func (s *CSVSpec) Plan(shown, paths []string) (Scan, []Column, error) {
	scan := &csvReadScan{spec: s}
	var cols []Column
	first, err := s.sniffFile(paths[0], shown[0])
	if err != nil {
		return nil, nil, err
	}
	for i := range paths {
		f := csvFile{shown: shown[i], path: paths[i], sch: first}
		if s.byName && i > 0 {
			if f.sch, err = s.sniffFile(paths[i], shown[i]); err != nil {
				return nil, nil, err
			}
		}
		for k, name := range f.sch.names {
			j := columnIndexOf(cols, name)
			if j < 0 || !s.byName {
				if i > 0 && !s.byName {
					j = k
				} else {
					j = len(cols)
					cols = append(cols, Column{Name: name, Type: f.sch.types[k], Nullable: true})
				}
			} else {
				cols[j].Type = csvUnifiedType(cols[j].Type, f.sch.types[k])
			}
			f.proj = append(f.proj, j)
		}
		scan.files = append(scan.files, f)
	}
	if s.filename {
		cols = append(cols, Column{Name: "filename", Type: tString, Nullable: true})
	}
	scan.cols = cols
	return scan, cols, nil
}

// columnIndexOf is the index of the column named name, in any case, or -1.
func columnIndexOf(cols []Column, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

// csvUnifiedType is the type of a column two files read as a and b
// (union_by_name): the same, DOUBLE for two numbers, else VARCHAR.
func csvUnifiedType(a, b vec.Type) vec.Type {
	switch {
	case a.Kind == b.Kind && a.Bits == b.Bits:
		return a
	case (a.Kind == vec.KInt || a.Kind == vec.KFloat) && (b.Kind == vec.KInt || b.Kind == vec.KFloat):
		return vec.Type{Kind: vec.KFloat}
	}
	return tString
}

// open opens a file, decompressed by the compression option or its
// extension, and decoded to UTF-8 from the encoding option's.
func (s *CSVSpec) open(path string) (io.ReadCloser, error) {
	rc, err := Open(path, s.compress)
	if err != nil {
		return nil, err
	}
	return decodeUTF8(rc, s.encoding), nil
}

// csvReadScan streams the files of a read_csv call, one after the other.
type csvReadScan struct {
	spec  *CSVSpec
	files []csvFile
	cols  []Column // the output's, filename last when asked for
	cur   int      // the file being read
	rc    io.ReadCloser
	sp    *csvSplitter
	// textHint is the text bytes of each column of the last batch.
	textHint []int
}

func (n *csvReadScan) Next(ctx context.Context) (*vec.Batch, error) {
	for n.cur < len(n.files) {
		if n.sp == nil {
			if err := n.open(); err != nil {
				return nil, err
			}
		}
		b, err := n.batch(ctx)
		if err != nil {
			return nil, err
		}
		if n.sp.done {
			n.Close()
			n.cur++
		}
		if b != nil {
			return b, nil
		}
	}
	return nil, io.EOF
}

// open opens the current file and skips its first lines and header.
func (n *csvReadScan) open() error {
	f := n.files[n.cur]
	rc, err := n.spec.open(f.path)
	if err != nil {
		return errorf("%s: %v", f.shown, err)
	}
	n.rc, n.sp = rc, newCSVSplitter(rc, f.sch.opts, f.shown)
	if err := n.sp.skipLines(n.spec.skip); err != nil {
		return errorf("%s: %v", f.shown, err)
	}
	if f.sch.opts.Header {
		for !n.sp.done {
			k, err := n.sp.record(nil, nil)
			if err != nil {
				return err
			}
			if k > 0 {
				break
			}
		}
	}
	return nil
}

// batch reads up to csvBatchRows records of the current file; nil when
// it had none left.
func (n *csvReadScan) batch(ctx context.Context) (*vec.Batch, error) {
	f := n.files[n.cur]
	width := len(f.sch.names)
	text := make([]*vec.Col, width)
	if len(n.textHint) != width {
		n.textHint = make([]int, width)
	}
	for i := range text {
		// Sized as the last batch's column, so that it seldom grows.
		text[i] = &vec.Col{T: tString, Off: make([]int32, 1, csvBatchRows+1), Null: make([]bool, 0, csvBatchRows), Data: make([]byte, 0, n.textHint[i])}
	}
	defer func() {
		for i, c := range text {
			n.textHint[i] = min(len(c.Data)+len(c.Data)/8, csvBatchBytes)
		}
	}()
	var lines []int
	for len(lines) < csvBatchRows && !n.sp.done && !batchFull(text) {
		if len(lines)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := n.sp.line + 1
		k, err := n.sp.record(text, nil)
		if err != nil {
			if n.spec.ignore {
				truncCols(text, len(lines))
				continue
			}
			return nil, err
		}
		if k == 0 {
			continue
		}
		if k < width && n.spec.nullPadding {
			padCols(text, len(lines)+1) // csvsniff.go
			k = width
		}
		if k != width {
			if n.spec.ignore {
				truncCols(text, len(lines))
				continue
			}
			return nil, errorf("CSV Error on Line: %d (file %s): Expected Number of Columns: %d Found: %d", line, f.shown, width, k)
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return nil, nil
	}
	return n.typed(f, text, lines)
}

// typed makes the batch of text columns one of the output's types.
func (n *csvReadScan) typed(f csvFile, text []*vec.Col, lines []int) (*vec.Batch, error) {
	rows := len(lines)
	var drop []bool
	if n.spec.ignore {
		drop = make([]bool, rows)
	}
	out := make([]*vec.Col, len(n.cols))
	for k, c := range text {
		c.Len = rows
		markNullTexts(c, rows, n.spec.nullstr)
		j := f.proj[k]
		t := n.cols[j].Type
		col, bad, err := csvConvert(c, rows, t, f.sch.formats[k], drop)
		if err != nil {
			return nil, errorf("%s: column %q: %v", f.shown, f.sch.names[k], err)
		}
		if bad >= 0 {
			return nil, errorf("CSV Error on Line: %d (file %s): Error when converting column \"%s\". Could not convert string \"%s\" to '%s'",
				lines[bad], f.shown, f.sch.names[k], c.Str(bad), t.SQLName())
		}
		out[j] = col
	}
	for j, c := range out {
		if c == nil && !(n.spec.filename && j == len(out)-1) {
			out[j] = vec.NullCol(n.cols[j].Type, rows)
		}
	}
	if n.spec.filename {
		out[len(out)-1] = constText(f.shown, rows)
	}
	b := &vec.Batch{Cols: out, N: rows}
	if drop != nil {
		return dropRows(b, drop), nil
	}
	return b, nil
}

// markNullTexts makes the fields that are one of nullstr's texts NULL.
func markNullTexts(c *vec.Col, rows int, nullstr []string) {
	if len(nullstr) == 1 && nullstr[0] == "" {
		return
	}
	for r := 0; r < rows; r++ {
		if !c.Null[r] && isNullText(c.Str(r), nullstr) {
			c.Null[r] = true
		}
	}
	if !containsEmpty(nullstr) {
		// Without "" among them, an empty field is the empty string.
		for r := 0; r < rows; r++ {
			if c.Null[r] && c.Off[r] == c.Off[r+1] && !isNullText(nil, nullstr) {
				c.Null[r] = false
			}
		}
	}
}

func containsEmpty(list []string) bool {
	for _, s := range list {
		if s == "" {
			return true
		}
	}
	return false
}

// constText is a VARCHAR column of one value.
func constText(v string, rows int) *vec.Col {
	c := &vec.Col{T: tString, Len: rows, Null: make([]bool, rows), Off: make([]int32, rows+1)}
	c.Data = make([]byte, 0, len(v)*rows)
	for r := 0; r < rows; r++ {
		c.Data = append(c.Data, v...)
		c.Off[r+1] = int32(len(c.Data))
	}
	return c
}

// dropRows leaves out the rows that drop marks (ignore_errors).
func dropRows(b *vec.Batch, drop []bool) *vec.Batch {
	var keep []int32
	for r, d := range drop {
		if !d {
			keep = append(keep, int32(r))
		}
	}
	if len(keep) == b.N {
		return b
	}
	out := &vec.Batch{N: len(keep)}
	for _, c := range b.Cols {
		out.Cols = append(out.Cols, c.Take(keep))
	}
	return out
}

func (n *csvReadScan) Close() {
	if n.rc != nil {
		n.rc.Close()
		n.rc, n.sp = nil, nil
	}
}

// Label is the scan's line in EXPLAIN.
func (n *csvReadScan) Label() string {
	names := make([]string, len(n.files))
	for i, f := range n.files {
		names[i] = f.shown
	}
	return "READ_CSV " + strings.Join(names, ", ")
}

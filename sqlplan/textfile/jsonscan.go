package textfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The scan of read_json: the files one after another, their documents
// into typed column vectors, a batch at a time. BIGINT, DOUBLE, BOOLEAN,
// VARCHAR, JSON and a DATE or TIMESTAMP read with its detected format
// go straight into their vectors; other types (nested values, HUGEINT,
// declared columns) are read as json_transform reads them. A value that
// does not fit its column's type is an error naming the file and line,
// or NULL with ignore_errors (which also skips malformed lines).

const jsonBatchRows = 2048

// jsonScan reads JSON files (jsonread.go sets it up).
type jsonScan struct {
	opts    *JSONOptions
	files   []File
	convert JSONConverter // json_transform's reading of other values
	cols    []jsonColumn
	records bool // each document is an object of the columns; else the one column
	next    int  // the next file to open
	src     *jsonSource
	hints   []int // by column: where its key was in the last object
	done    bool
}

func (n *jsonScan) Next(ctx context.Context) (*vec.Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if n.hints == nil {
		n.hints = make([]int, len(n.cols))
	}
	out := make([]*vec.Builder, len(n.cols))
	for k, c := range n.cols {
		out[k] = vec.NewBuilder(c.t, jsonBatchRows)
	}
	var names *vec.Builder
	if n.opts.filename {
		names = vec.NewBuilder(tString, jsonBatchRows)
	}
	rows := 0
	for rows < jsonBatchRows {
		if rows%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		doc, err := n.document()
		if errors.Is(err, io.EOF) {
			n.done = true
			break
		}
		if err != nil {
			return nil, err
		}
		if err := n.appendRow(out, doc); err != nil {
			return nil, err
		}
		if names != nil {
			names.Add(n.src.file.Name)
		}
		rows++
	}
	if rows == 0 {
		return nil, io.EOF
	}
	b := &vec.Batch{N: rows}
	for _, o := range out {
		b.Cols = append(b.Cols, o.C)
	}
	if names != nil {
		b.Cols = append(b.Cols, names.C)
	}
	return b, nil
}

// document reads the next document of the files, opening each in turn;
// io.EOF after the last. With ignore_errors a malformed line is nil, a
// row of NULLs.
func (n *jsonScan) document() (*function.JSONNode, error) {
	for {
		if n.src == nil {
			if n.next >= len(n.files) {
				return nil, io.EOF
			}
			src, err := openJSONSource(n.files[n.next], n.opts)
			if err != nil {
				return nil, err
			}
			n.src, n.next = src, n.next+1
		}
		doc, err := n.src.next()
		switch {
		case errors.Is(err, io.EOF):
			n.src.close()
			n.src = nil
			continue
		case err != nil && n.opts.ignoreErrors && n.src.recoverable(err):
			return nil, nil // a row of NULLs, as DuckDB gives
		case err != nil:
			return nil, err
		}
		return doc, nil
	}
}

// appendRow appends a document's values, one per column.
func (n *jsonScan) appendRow(out []*vec.Builder, doc *function.JSONNode) error {
	if !n.records {
		return n.appendValue(out[0], &n.cols[0], doc)
	}
	if doc == nil || !doc.IsObject() {
		if doc == nil || doc.IsNull() || n.opts.ignoreErrors {
			for _, o := range out {
				o.Add(nil)
			}
			return nil
		}
		return n.fail("expected an object (records=true), got %s", doc.Minified())
	}
	keys, vals := doc.Keys(), doc.Values()
	for k := range n.cols {
		at := n.keyAt(k, keys)
		var v *function.JSONNode
		if at >= 0 {
			v = vals[at]
		}
		if err := n.appendValue(out[k], &n.cols[k], v); err != nil {
			return err
		}
	}
	return nil
}

// keyAt is the position of column k's key in an object's keys, -1 when
// it has none. Objects mostly list their keys in one order, so the
// position of the last object's is tried first.
func (n *jsonScan) keyAt(k int, keys []string) int {
	name := n.cols[k].name
	if h := n.hints[k]; h < len(keys) && keys[h] == name {
		return h
	}
	at := slices.Index(keys, name)
	if at >= 0 {
		n.hints[k] = at
	}
	return at
}

// appendValue appends value v (nil: the key was missing) to column c.
func (n *jsonScan) appendValue(b *vec.Builder, c *jsonColumn, v *function.JSONNode) error {
	if v == nil || v.IsNull() {
		b.Add(nil)
		return nil
	}
	if appendJSONFast(b, c, v) {
		return nil
	}
	x, err := n.convert(v, c.t, !n.opts.ignoreErrors)
	if err != nil {
		if n.opts.ignoreErrors {
			b.Add(nil)
			return nil
		}
		return n.fail("column %q (%s): %v", c.name, c.t.SQLName(), err)
	}
	b.Add(x)
	return nil
}

// appendJSONFast appends v to a column of a plain type without boxing
// it; false when the column's type or the value needs the general way.
func appendJSONFast(b *vec.Builder, c *jsonColumn, v *function.JSONNode) bool {
	col := b.C
	text := v.Text()
	if text == "" {
		if c.t.Kind == vec.KString && c.t.JSON {
			col.Data = append(col.Data, v.Minified()...)
			col.Off = append(col.Off, int32(len(col.Data)))
			pushed(col)
			return true
		}
		return false
	}
	t := c.t
	switch {
	case t.Kind == vec.KInt && (t.Bits == 0 || t.Bits == 64):
		x, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return false
		}
		col.I = append(col.I, x)
	case t.Kind == vec.KFloat && !t.Float32 && (text[0] == '-' || text[0] >= '0' && text[0] <= '9'):
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return false
		}
		col.F = append(col.F, x)
	case t.Kind == vec.KBool && (text == "true" || text == "false"):
		col.B = append(col.B, text == "true")
	case t.Kind == vec.KString && t.JSON:
		col.Data = append(col.Data, text...)
		col.Off = append(col.Off, int32(len(col.Data)))
	case t.Kind == vec.KString && !t.Bit:
		if text[0] == '"' {
			col.Data = append(col.Data, jsonStringValue(v, text)...)
		} else {
			col.Data = append(col.Data, text...)
		}
		col.Off = append(col.Off, int32(len(col.Data)))
	case (t.Kind == vec.KDate || t.Kind == vec.KTimestamp && !t.TZ && !t.Nanos && t.Coarse == 0) && c.format != "" && text[0] == '"':
		us, err := function.Strptime(jsonStringValue(v, text), c.format)
		if err != nil {
			return false
		}
		if t.Kind == vec.KDate {
			us = vec.FloorDiv(us, vec.MicrosPerDay)
		}
		col.I = append(col.I, us)
	default:
		return false
	}
	pushed(col)
	return true
}

// jsonStringValue is the value of string node v of JSON text text:
// the text within its quotes when it has no escape (the parser keeps a
// string's text as written when it needs no change), else unquoted.
func jsonStringValue(v *function.JSONNode, text string) string {
	if strings.IndexByte(text, '\\') < 0 {
		return text[1 : len(text)-1]
	}
	s, _ := v.Scalar()
	str, _ := s.(string)
	return str
}

// pushed counts a value appended straight to a builder's column.
func pushed(c *vec.Col) {
	if c.Null != nil {
		c.Null = append(c.Null, false)
	}
	c.Len++
}

// fail is an error at the document being read.
func (n *jsonScan) fail(format string, args ...any) error {
	src := n.src
	if src != nil && src.line > 0 {
		return errorf("%s: line %d: "+format, append([]any{src.file.Name, src.line}, args...)...)
	}
	if src != nil {
		return errorf("%s: "+format, append([]any{src.file.Name}, args...)...)
	}
	return errorf(format, args...)
}

func (n *jsonScan) Close() {
	if n.src != nil {
		n.src.close()
		n.src = nil
	}
}

// Label is the scan's line in EXPLAIN.
func (n *jsonScan) Label() string {
	switch len(n.files) {
	case 0:
		return "JSON (no file)"
	case 1:
		return "JSON " + n.files[0].Name
	}
	return fmt.Sprintf("JSON %s and %d more files", n.files[0].Name, len(n.files)-1)
}

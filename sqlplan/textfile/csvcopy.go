package textfile

import (
	"bufio"
	"bytes"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// COPY ... TO a CSV file writes the rows as DuckDB's COPY writes CSV: a
// header line (unless HEADER false), each value as its VARCHAR text (the
// engine's cast, which follows DuckDB's), NULL as NULLSTR (empty by
// default), a value quoted when it holds the delimiter, the quote, the
// escape or a line end, or reads as NULL.

// CSVCopy is how COPY ... TO writes a CSV file.
type CSVCopy struct {
	Dialect Dialect
	Null    string // NULLSTR: the text of NULL
	// DateFormat and TimestampFormat are strftime formats of DATE and
	// TIMESTAMP values; "" writes the VARCHAR cast's text.
	DateFormat, TimestampFormat string
}

// WriteHeader writes the header line of the columns' names.
func (c *CSVCopy) WriteHeader(w *bufio.Writer, names []string) {
	for k, name := range names {
		c.field(w, k, []byte(name), false)
	}
	w.WriteByte('\n')
}

// WriteBatch writes a batch's rows, a line each.
func (c *CSVCopy) WriteBatch(w *bufio.Writer, b *vec.Batch) error {
	cols := make([]*vec.Col, len(b.Cols))
	for k, col := range b.Cols {
		var err error
		if cols[k], err = c.text(col.Decoded(), b.N); err != nil {
			return err
		}
	}
	for r := 0; r < b.N; r++ {
		for k, col := range cols {
			c.field(w, k, col.Str(r), col.IsNull(r))
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// text is a column's values as text: DateFormat's and TimestampFormat's
// for dates and timestamps when given, else the VARCHAR cast's.
func (c *CSVCopy) text(col *vec.Col, n int) (*vec.Col, error) {
	format := ""
	switch {
	case col.T.Kind == vec.KDate && c.DateFormat != "":
		format = c.DateFormat
	case col.T.Kind == vec.KTimestamp && c.TimestampFormat != "" && col.I != nil:
		format = c.TimestampFormat
	}
	if format == "" {
		col.Len = n
		return function.CastCol(col, tString, false)
	}
	out := &vec.Col{T: tString, Len: n, Null: make([]bool, n), Off: make([]int32, 1, n+1)}
	for r := 0; r < n; r++ {
		if col.IsNull(r) {
			out.Null[r] = true
		} else {
			out.Data = append(out.Data, function.Strftime(instant(col, r), format)...)
		}
		out.Off = append(out.Off, int32(len(out.Data)))
	}
	return out, nil
}

// instant is row r of a DATE or TIMESTAMP column as a UTC time.
func instant(col *vec.Col, r int) time.Time {
	v := col.I[r]
	switch {
	case col.T.Kind == vec.KDate:
		return time.Unix(v*86400, 0).UTC()
	case col.T.Nanos:
		return time.Unix(0, v).UTC()
	}
	return time.UnixMicro(v).UTC()
}

// field writes the k-th field of a line: its delimiter, then the value,
// quoted as DuckDB quotes it: when it holds the delimiter, the quote,
// the escape or a line end, or would read back as NULL.
func (c *CSVCopy) field(w *bufio.Writer, k int, v []byte, null bool) {
	o := c.Dialect
	if k > 0 {
		w.WriteByte(o.Delim)
	}
	if null {
		w.WriteString(c.Null)
		return
	}
	quote := string(v) == c.Null || bytes.IndexByte(v, o.Delim) >= 0 || bytes.IndexByte(v, o.Quote) >= 0 ||
		bytes.IndexByte(v, o.Escape) >= 0 || bytes.IndexAny(v, "\r\n") >= 0
	writeCSVValue(w, o, v, quote) // csvwrite.go
}

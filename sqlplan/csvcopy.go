package sqlplan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// COPY (query) TO 'file.csv' [(options)] and COPY t TO 'file.csv': the
// rows written as DuckDB's COPY writes CSV: a header line (HEADER false
// leaves it out), each value as its VARCHAR text (the engine's cast,
// which follows DuckDB's), NULL as NULLSTR (empty by default), a value
// quoted when it holds the delimiter, the quote, the escape or a line
// end, or reads as NULL. The format comes from FORMAT csv or the name
// (.csv, .tsv, .csv.gz); gzip from COMPRESSION or .gz. The file is
// written whole to a temporary file, then renamed over the target.

// csvCopySpec is COPY ... TO's CSV target.
type csvCopySpec struct {
	path     string
	opts     csvOptions
	nullstr  string
	gzip     bool
	dateFmt  string
	stampFmt string
}

// copyToCSV reports whether COPY ... TO path with the options at
// toks[i:] writes CSV: FORMAT csv, or a CSV name without a FORMAT.
func copyToCSV(path string, toks []parse.Token, i int) bool {
	if i < len(toks) && toks[i].Is("with") {
		i++
	}
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
		if end := parse.ClosingParen(toks, i); end > i {
			for _, item := range parse.SplitList(toks[i+1 : end]) {
				if len(item) >= 2 && item[0].Is("format") {
					return strings.EqualFold(item[len(item)-1].Unquoted(), "csv")
				}
			}
		}
	}
	return parse.IsCSVPath(path)
}

// prepareCopyCSV reads the options of COPY ... TO a CSV file (at
// toks[i:]) and prepares the query.
func (e *Engine) prepareCopyCSV(ctx context.Context, s *Stmt, text string, toks []parse.Token, query []parse.Token, path string, i int) (*Stmt, error) {
	spec := &csvCopySpec{path: path, opts: defaultCSV, gzip: strings.HasSuffix(strings.ToLower(path), ".gz")}
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".tsv") {
		spec.opts.delim = '\t'
	}
	if i < len(toks) && toks[i].Is("with") {
		i++
	}
	var err error
	if i, err = spec.options(text, toks, i); err != nil {
		return nil, err
	}
	inner, err := e.prepareCopyQuery(ctx, text, toks, i, query)
	if err != nil {
		return nil, err
	}
	s.kind, s.inner, s.csvOut, s.table = kindCopy, inner, spec, path
	s.src = &source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// prepareCopyQuery prepares the query a COPY ... TO a text file writes,
// once its options end at toks[i].
func (e *Engine) prepareCopyQuery(ctx context.Context, text string, toks []parse.Token, i int, query []parse.Token) (*Stmt, error) {
	if i < len(toks) && !(toks[i].Kind == parse.Op && toks[i].Text == ";") {
		return nil, errAt(text, toks[i].Pos, "unexpected %q after the COPY options", toks[i].Text)
	}
	inner, err := e.prepareTokens(ctx, text, query)
	if err != nil {
		return nil, err
	}
	if inner.kind != kindSelect && inner.kind != kindSetOp {
		return nil, errAt(text, toks[0].Pos, "COPY takes a table or a (SELECT ...)")
	}
	return inner, nil
}

// options reads the parenthesized options at toks[i], if any, and
// returns the index after them.
func (c *csvCopySpec) options(text string, toks []parse.Token, i int) (int, error) {
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		return i, nil
	}
	end := parse.ClosingParen(toks, i)
	if end < 0 {
		return i, errAt(text, toks[i].Pos, "unmatched ( in the COPY options")
	}
	escapeSet := false
	for _, item := range parse.SplitList(toks[i+1 : end]) {
		if len(item) >= 3 && item[1].Kind == parse.Op && item[1].Text == "=" {
			item = append(item[:1:1], item[2:]...)
		}
		if len(item) == 0 {
			return i, errAt(text, toks[i].Pos, "empty COPY option")
		}
		key, val := strings.ToLower(item[0].Text), item[1:]
		fail := func(format string, args ...any) error {
			return errAt(text, item[0].Pos, "COPY option %s: "+format, append([]any{strings.ToUpper(key)}, args...)...)
		}
		var err error
		switch key {
		case "format":
			// copyToCSV checked it is csv.
		case "header":
			c.opts.header, err = optionBool(val, fail)
		case "delimiter", "delim", "sep":
			c.opts.delim, err = optionByte(val, fail)
		case "quote":
			c.opts.quote, err = optionByte(val, fail)
		case "escape":
			c.opts.escape, err = optionByte(val, fail)
			escapeSet = true
		case "nullstr", "null":
			c.nullstr, err = optionText(val, fail)
		case "dateformat", "date_format":
			c.dateFmt, err = optionText(val, fail)
		case "timestampformat", "timestamp_format":
			c.stampFmt, err = optionText(val, fail)
		case "compression", "codec":
			var v string
			if v, err = optionText(val, fail); err == nil {
				switch strings.ToLower(v) {
				case "gzip":
					c.gzip = true
				case "none", "uncompressed":
					c.gzip = false
				case "auto":
				default:
					err = fail("CSV files are written with gzip or none")
				}
			}
		default:
			e := errAt(text, item[0].Pos, "COPY option %s is not supported for CSV (carquet takes FORMAT, HEADER, DELIMITER, QUOTE, ESCAPE, NULLSTR, COMPRESSION, DATEFORMAT and TIMESTAMPFORMAT)", strings.ToUpper(key))
			e.Err = ErrUnsupported
			return i, e
		}
		if err != nil {
			return i, err
		}
	}
	if !escapeSet {
		c.opts.escape = c.opts.quote
	}
	if o := c.opts; o.delim == o.quote || o.delim == '\n' || o.delim == '\r' || o.quote == '\n' || o.quote == '\r' {
		return i, errAt(text, toks[i].Pos, "COPY: the CSV delimiter and quote must differ and not be line ends")
	}
	return end + 1, nil
}

// optionText reads a string option value, quoted or a bare word.
func optionText(val []parse.Token, fail func(string, ...any) error) (string, error) {
	if len(val) != 1 || val[0].Kind == parse.Op {
		return "", fail("expected a value")
	}
	if val[0].Kind == parse.Ident || val[0].Kind == parse.Number {
		return val[0].Text, nil
	}
	return val[0].Unquoted(), nil
}

// copyCSV runs COPY ... TO a CSV file.
func (s *Stmt) copyCSV(ctx context.Context, args []Arg, tx *Tx, sess *Session) (Result, error) {
	var res Result
	c := s.csvOut
	path, err := s.e.confine.Join(c.path, true)
	if err != nil {
		return Result{}, &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	rows, err := s.inner.queryTx(ctx, args, tx, sess)
	if err != nil {
		return Result{}, err
	}
	defer rows.Close()
	err = replaceFile(path, ".copy-*.csv", c.gzip, func(w *bufio.Writer) error { // csvwrite.go
		if c.opts.header {
			for k, col := range rows.Columns() {
				c.field(w, k, []byte(col.Name), false)
			}
			w.WriteByte('\n')
		}
		n, err := c.writeRows(w, rows)
		res.RowsAffected = n
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

// writeRows writes the rows, each value as its text, a line each.
func (c *csvCopySpec) writeRows(w *bufio.Writer, rows *Rows) (int64, error) {
	var n int64
	for {
		b, err := rows.Next()
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		cols := make([]*Col, len(b.Cols))
		for k, col := range b.Cols {
			if cols[k], err = c.text(col.Decoded(), b.N); err != nil {
				return n, err
			}
		}
		for r := 0; r < b.N; r++ {
			for k, col := range cols {
				c.field(w, k, col.Str(r), col.IsNull(r))
			}
			if err := w.WriteByte('\n'); err != nil {
				return n, err
			}
		}
		n += int64(b.N)
	}
}

// text is a column's values as text: DATEFORMAT and TIMESTAMPFORMAT's
// for dates and timestamps when given, else the VARCHAR cast's.
func (c *csvCopySpec) text(col *Col, n int) (*Col, error) {
	format := ""
	switch {
	case col.T.Kind == KDate && c.dateFmt != "":
		format = c.dateFmt
	case col.T.Kind == KTimestamp && c.stampFmt != "" && col.I != nil:
		format = c.stampFmt
	}
	if format == "" {
		col.Len = n
		return castCol(col, tString)
	}
	out := &Col{T: tString, Len: n, Null: make([]bool, n), Off: make([]int32, 1, n+1)}
	for r := 0; r < n; r++ {
		if col.IsNull(r) {
			out.Null[r] = true
		} else {
			out.Data = append(out.Data, function.Strftime(c.instant(col, r), format)...)
		}
		out.Off = append(out.Off, int32(len(out.Data)))
	}
	return out, nil
}

// instant is row r of a DATE or TIMESTAMP column as a UTC time.
func (c *csvCopySpec) instant(col *Col, r int) time.Time {
	v := col.I[r]
	switch {
	case col.T.Kind == KDate:
		return time.Unix(v*86400, 0).UTC()
	case col.T.Nanos:
		return time.Unix(0, v).UTC()
	}
	return time.UnixMicro(v).UTC()
}

// field writes the k-th field of a line: its delimiter, then the value,
// quoted as DuckDB quotes it: when it holds the delimiter, the quote,
// the escape or a line end, or would read back as NULL.
func (c *csvCopySpec) field(w *bufio.Writer, k int, v []byte, null bool) {
	if k > 0 {
		w.WriteByte(c.opts.delim)
	}
	if null {
		w.WriteString(c.nullstr)
		return
	}
	o := c.opts
	quote := string(v) == c.nullstr || bytes.IndexByte(v, o.delim) >= 0 || bytes.IndexByte(v, o.quote) >= 0 ||
		bytes.IndexByte(v, o.escape) >= 0 || bytes.IndexAny(v, "\r\n") >= 0
	writeCSVValue(w, o, v, quote) // csvwrite.go
}

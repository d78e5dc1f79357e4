package sqlplan

import (
	"bufio"
	"context"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// COPY (query) TO 'file.csv' [(options)] and COPY t TO 'file.csv': the
// rows written as DuckDB's COPY writes CSV: a header line (HEADER false
// leaves it out), each value as its VARCHAR text (the engine's cast,
// which follows DuckDB's), NULL as NULLSTR (empty by default), a value
// quoted when it holds the delimiter, the quote, the escape or a line
// end, or reads as NULL. The format comes from FORMAT csv or the name
// (.csv, .tsv, .csv.gz); gzip from COMPRESSION or .gz. The file is
// written whole to a temporary file, then renamed over the target.

// csvCopySpec is COPY ... TO's CSV target: the file, and how it is
// written (package textfile writes it).
type csvCopySpec struct {
	path   string
	gzip   bool
	format textfile.CSVCopy
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
	spec := &csvCopySpec{path: path, format: textfile.CSVCopy{Dialect: textfile.DefaultDialect}, gzip: strings.HasSuffix(strings.ToLower(path), ".gz")}
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(path), ".gz"), ".tsv") {
		spec.format.Dialect.Delim = '\t'
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
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
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
			c.format.Dialect.Header, err = optionBool(val, fail)
		case "delimiter", "delim", "sep":
			c.format.Dialect.Delim, err = optionByte(val, fail)
		case "quote":
			c.format.Dialect.Quote, err = optionByte(val, fail)
		case "escape":
			c.format.Dialect.Escape, err = optionByte(val, fail)
			escapeSet = true
		case "nullstr", "null":
			c.format.Null, err = optionText(val, fail)
		case "dateformat", "date_format":
			c.format.DateFormat, err = optionText(val, fail)
		case "timestampformat", "timestamp_format":
			c.format.TimestampFormat, err = optionText(val, fail)
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
		c.format.Dialect.Escape = c.format.Dialect.Quote
	}
	if o := c.format.Dialect; o.Delim == o.Quote || o.Delim == '\n' || o.Delim == '\r' || o.Quote == '\n' || o.Quote == '\r' {
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
	err = textfile.ReplaceFile(path, ".copy-*.csv", c.gzip, func(w *bufio.Writer) error {
		if c.format.Dialect.Header {
			names := make([]string, 0, len(rows.Columns()))
			for _, col := range rows.Columns() {
				names = append(names, col.Name)
			}
			c.format.WriteHeader(w, names)
		}
		return eachBatch(rows, func(b *Batch) error {
			res.RowsAffected += int64(b.N)
			return c.format.WriteBatch(w, b)
		})
	})
	if err != nil {
		return Result{}, err
	}
	return res, nil
}

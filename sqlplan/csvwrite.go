package sqlplan

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/klauspost/compress/gzip"
)

// EXPORT DATABASE's CSV files, in DuckDB's layout: a header line of the
// column names, each value as its VARCHAR text (the engine's casts, which
// follow DuckDB's), NULL as an empty field and the empty string as "",
// a field quoted when it holds the delimiter, the quote, the escape, a
// line end, or spaces at an end.

// csvNestedColumn is the first column of ent whose type is nested (LIST,
// STRUCT, MAP, ...), "" if none: carquet's text of nested values does not
// quote their strings as DuckDB's does, so it would not read back.
func csvNestedColumn(ent catalogEntry) string {
	for _, c := range ent.cols {
		if c.t.Kind == KNested {
			return c.name
		}
	}
	return ""
}

// exportCSV writes table ent's rows to path (a temporary file renamed
// once whole and synced).
func (s *Stmt) exportCSV(ctx context.Context, ent catalogEntry, path string, opts csvOptions, tx *Tx, sess *Session) error {
	casts := make([]string, len(ent.cols))
	for i, c := range ent.cols {
		casts[i] = "CAST(" + sqlIdent(c.name) + " AS VARCHAR)"
	}
	st, err := s.e.prepareContext(ctx, "SELECT "+strings.Join(casts, ", ")+" FROM "+sqlIdent(ent.name), tx)
	if err != nil {
		return err
	}
	rows, err := st.queryTx(ctx, nil, tx, sess)
	if err != nil {
		return err
	}
	defer rows.Close()
	return replaceFile(path, ".export-*.csv", false, func(w *bufio.Writer) error {
		if opts.header {
			for i, c := range ent.cols {
				writeCSVField(w, opts, i, []byte(c.name), false)
			}
			w.WriteByte('\n')
		}
		return writeCSVRows(w, rows, opts)
	})
}

// replaceFile writes a file through write, gzipped or not, into a
// temporary file beside path (named by pattern), synced, then renamed
// over path: a failed write leaves no file and path as it was.
func replaceFile(path, pattern string, gz bool, write func(w *bufio.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var out io.Writer = tmp
	var z *gzip.Writer
	if gz {
		z = gzip.NewWriter(tmp)
		out = z
	}
	w := bufio.NewWriterSize(out, 1<<16)
	if err := write(w); err != nil {
		return err
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if z != nil {
		if err := z.Close(); err != nil {
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // as os.Create makes files
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeCSVRows writes the rows of text columns, a line each.
func writeCSVRows(w *bufio.Writer, rows *Rows, opts csvOptions) error {
	for {
		b, err := rows.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		cols := make([]*Col, len(b.Cols))
		for k, c := range b.Cols {
			cols[k] = c.Decoded()
		}
		for r := 0; r < b.N; r++ {
			for k, c := range cols {
				if c.IsNull(r) {
					writeCSVField(w, opts, k, nil, true)
				} else {
					writeCSVField(w, opts, k, c.Str(r), false)
				}
			}
			if err := w.WriteByte('\n'); err != nil {
				return err
			}
		}
	}
}

// writeCSVField writes the k-th field of a line: its delimiter, then the
// value, quoted where it must be.
func writeCSVField(w *bufio.Writer, opts csvOptions, k int, v []byte, null bool) {
	if k > 0 {
		w.WriteByte(opts.delim)
	}
	if null {
		return
	}
	writeCSVValue(w, opts, v, needsCSVQuotes(v, opts))
}

// writeCSVValue writes a value, in quotes or not.
func writeCSVValue(w *bufio.Writer, opts csvOptions, v []byte, quote bool) {
	if !quote {
		w.Write(v)
		return
	}
	w.WriteByte(opts.quote)
	for _, c := range v {
		if c == opts.quote || c == opts.escape {
			w.WriteByte(opts.escape)
		}
		w.WriteByte(c)
	}
	w.WriteByte(opts.quote)
}

// needsCSVQuotes reports whether a value must be quoted to read back as
// itself: empty (an unquoted empty field is NULL), holding a character
// of the dialect or a line end, or with a space at an end.
func needsCSVQuotes(v []byte, opts csvOptions) bool {
	if len(v) == 0 || v[0] == ' ' || v[len(v)-1] == ' ' {
		return true
	}
	return bytes.IndexByte(v, opts.delim) >= 0 || bytes.IndexByte(v, opts.quote) >= 0 ||
		bytes.IndexByte(v, opts.escape) >= 0 || bytes.IndexAny(v, "\r\n") >= 0
}

// csvFileName is exportFileName's name with .csv for .parquet.
func csvFileName(parquetName string) string {
	return strings.TrimSuffix(parquetName, ".parquet") + ".csv"
}

// errCSVNested is the refusal of (FORMAT csv) for a table with a nested
// column.
func errCSVNested(table, column string) error {
	e := errorf("EXPORT DATABASE (FORMAT csv): table %s, column %s is nested (LIST, STRUCT, MAP): "+
		"carquet writes nested values to CSV only as its own text, which DuckDB would not read back; "+
		"export with (FORMAT parquet), or without FORMAT, which writes such tables in Parquet", table, column)
	e.Err = ErrUnsupported
	return e
}

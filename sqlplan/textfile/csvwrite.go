package textfile

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/klauspost/compress/gzip"
)

// EXPORT DATABASE's CSV files, in DuckDB's layout: a header line of the
// column names, each value as its VARCHAR text (the engine's casts, which
// follow DuckDB's), NULL as an empty field and the empty string as "",
// a field quoted when it holds the delimiter, the quote, the escape, a
// line end, or spaces at an end. And the writing of a whole file, which
// COPY ... TO shares.

// ReplaceFile writes a file through write, gzipped or not, into a
// temporary file beside path (named by pattern), synced, then renamed
// over path: a failed write leaves no file and path as it was.
func ReplaceFile(path, pattern string, gz bool, write func(w *bufio.Writer) error) (err error) {
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

// WriteExportHeader writes the header line of names.
func WriteExportHeader(w *bufio.Writer, opts Dialect, names []string) {
	for i, name := range names {
		writeExportField(w, opts, i, []byte(name), false)
	}
	w.WriteByte('\n')
}

// WriteExportRows writes a batch of text columns, a line per row.
func WriteExportRows(w *bufio.Writer, b *vec.Batch, opts Dialect) error {
	cols := make([]*vec.Col, len(b.Cols))
	for k, c := range b.Cols {
		cols[k] = c.Decoded()
	}
	for r := 0; r < b.N; r++ {
		for k, c := range cols {
			if c.IsNull(r) {
				writeExportField(w, opts, k, nil, true)
			} else {
				writeExportField(w, opts, k, c.Str(r), false)
			}
		}
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

// writeExportField writes the k-th field of a line: its delimiter, then
// the value, quoted where it must be.
func writeExportField(w *bufio.Writer, opts Dialect, k int, v []byte, null bool) {
	if k > 0 {
		w.WriteByte(opts.Delim)
	}
	if null {
		return
	}
	writeCSVValue(w, opts, v, needsExportQuotes(v, opts))
}

// writeCSVValue writes a value, in quotes or not.
func writeCSVValue(w *bufio.Writer, opts Dialect, v []byte, quote bool) {
	if !quote {
		w.Write(v)
		return
	}
	w.WriteByte(opts.Quote)
	for _, c := range v {
		if c == opts.Quote || c == opts.Escape {
			w.WriteByte(opts.Escape)
		}
		w.WriteByte(c)
	}
	w.WriteByte(opts.Quote)
}

// needsExportQuotes reports whether a value must be quoted to read back as
// itself: empty (an unquoted empty field is NULL), holding a character
// of the dialect or a line end, or with a space at an end.
func needsExportQuotes(v []byte, opts Dialect) bool {
	if len(v) == 0 || v[0] == ' ' || v[len(v)-1] == ' ' {
		return true
	}
	return bytes.IndexByte(v, opts.Delim) >= 0 || bytes.IndexByte(v, opts.Quote) >= 0 ||
		bytes.IndexByte(v, opts.Escape) >= 0 || bytes.IndexAny(v, "\r\n") >= 0
}

package sqlplan

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// EXPORT DATABASE's CSV files (package textfile writes them, in DuckDB's
// layout): each table's rows cast to VARCHAR, written to a temporary
// file renamed over the target once whole and synced.

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
		casts[i] = "CAST(" + parse.SQLIdent(c.name) + " AS VARCHAR)"
	}
	st, err := s.e.prepareContext(ctx, "SELECT "+strings.Join(casts, ", ")+" FROM "+parse.SQLIdent(ent.name), tx)
	if err != nil {
		return err
	}
	rows, err := st.queryTx(ctx, nil, tx, sess)
	if err != nil {
		return err
	}
	defer rows.Close()
	return textfile.ReplaceFile(path, ".export-*.csv", false, func(w *bufio.Writer) error {
		if opts.Header {
			names := make([]string, len(ent.cols))
			for i, c := range ent.cols {
				names[i] = c.name
			}
			textfile.WriteExportHeader(w, opts.Dialect, names)
		}
		return eachBatch(rows, func(b *Batch) error { return textfile.WriteExportRows(w, b, opts.Dialect) })
	})
}

// eachBatch calls write with each batch of rows, to their end.
func eachBatch(rows *Rows, write func(b *Batch) error) error {
	for {
		b, err := rows.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := write(b); err != nil {
			return err
		}
	}
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

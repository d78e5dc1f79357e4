package sqlplan

import (
	"path"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/writer"
)

// INSERT into a hive-partitioned folder table (t/k=v/…/part.parquet)
// routes each row to the folder of its partition values, made when new,
// with the values written as DuckDB's COPY ... (PARTITION_BY ...) writes
// them: percent-encoded (every byte but A-Z a-z 0-9 - _ . ~), NULL as
// __HIVE_DEFAULT_PARTITION__, the partition columns left out of the
// files. The rows of one INSERT are one new file per partition, all
// published together by one writer.FolderEdit, so a reader sees all of
// them or none, and a crash leaves all or none. In a transaction the
// edit is staged, the transaction reads it, and COMMIT publishes it.

// hiveNull is the folder value of a NULL partition value.
const hiveNull = "__HIVE_DEFAULT_PARTITION__"

// withPartitionFields appends to a table's file fields a field for each
// hive partition column, of the type the table reads it as (BIGINT or
// VARCHAR), so that INSERT binds and casts their values as the others'.
func withPartitionFields(fields []*schema.Field, parts []scan.Column) ([]*schema.Field, error) {
	if len(parts) == 0 {
		return fields, nil
	}
	ws := make([]writer.Field, len(parts))
	for i, c := range parts {
		if c.PartitionType == scan.PartitionInt64 {
			ws[i] = writer.Int64(c.Name)
		} else {
			ws[i] = writer.String(c.Name)
		}
	}
	sch, err := writer.NewSchema(ws...)
	if err != nil {
		return nil, err
	}
	pf, err := sch.LogicalFields()
	if err != nil {
		return nil, err
	}
	return append(append([]*schema.Field(nil), fields...), pf...), nil
}

// insertHive writes the n rows data (the table's file columns, then its
// partition columns) to a hive-partitioned table: one new file in the
// folder of each partition the rows fall in, published as one edit.
func (e *Engine) insertHive(tx *Tx, tgt *target, data []*Col, n int) error {
	nf := len(tgt.fields) - tgt.parts
	order, rows := hiveGroups(tgt, data, n)
	opts, err := e.writeOptions(tgt.opts)
	if err != nil {
		return err
	}
	// In transaction tx (nil: none) the edit is staged (txfolder.go).
	edit, finish, done, err := e.startFolderEdit(tx, tgt)
	if err != nil {
		return err
	}
	defer done()
	for _, dir := range order {
		if err := writeHiveFile(edit, tgt, data[:nf], rows[dir], path.Join(dir, newPartName()), opts); err != nil {
			return err
		}
	}
	return finish()
}

// hiveGroups groups the n rows data (the table's file columns, then its
// partition columns) by the partition folder they belong in ("k=v/…"):
// the folders in the order rows meet them, and each one's rows.
func hiveGroups(tgt *target, data []*Col, n int) ([]string, map[string][]int32) {
	nf := len(tgt.fields) - tgt.parts
	var order []string
	rows := map[string][]int32{}
	var b []byte
	for i := 0; i < n; i++ {
		b = b[:0]
		for j, c := range data[nf:] {
			if j > 0 {
				b = append(b, '/')
			}
			b = append(b, tgt.fields[nf+j].Name...)
			b = append(b, '=')
			b = appendHiveValue(b, c, i)
		}
		dir := string(b)
		if _, seen := rows[dir]; !seen {
			order = append(order, dir)
		}
		rows[dir] = append(rows[dir], int32(i))
	}
	return order, rows
}

// writeHiveFile writes the rows idx of the file columns cols as a new
// file of the edit at rel.
func writeHiveFile(edit *writer.FolderEdit, tgt *target, cols []*Col, idx []int32, rel string, opts []writer.Option) error {
	w, err := edit.Create(rel, tgt.sch, opts...)
	if err != nil {
		return err
	}
	if err := writeHiveRows(w, tgt, cols, idx); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// writeHiveRows writes the rows idx of the file columns cols to w.
func writeHiveRows(w *writer.Writer, tgt *target, cols []*Col, idx []int32) error {
	vecs := make([]*vector.Vector, len(cols))
	for k, c := range cols {
		var err error
		if vecs[k], err = toVector(c.Take(idx), tgt.fields[k]); err != nil {
			return errorf("column %q: %v", tgt.fields[k].Name, err)
		}
	}
	return w.WriteBatch(vecs)
}

// appendHiveValue appends row i of c as a partition folder value.
func appendHiveValue(b []byte, c *Col, i int) []byte {
	if c.IsNull(i) {
		return append(b, hiveNull...)
	}
	if c.T.Kind == KString {
		return appendPercentEncoded(b, c.Str(i))
	}
	return strconv.AppendInt(b, c.I[i], 10)
}

// appendPercentEncoded appends s with every byte but the unreserved ones
// of URIs as %XX, as DuckDB encodes partition values.
func appendPercentEncoded(b, s []byte) []byte {
	const hex = "0123456789ABCDEF"
	for _, c := range s {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || strings.IndexByte("-_.~", c) >= 0 {
			b = append(b, c)
			continue
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	return b
}

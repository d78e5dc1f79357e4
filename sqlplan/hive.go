package sqlplan

import (
	"path"

	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// INSERT into a hive-partitioned folder table (t/k=v/…/part.parquet)
// routes each row to the folder of its partition values, made when new
// and named as DuckDB names them (dml.HiveGroups). The rows of one INSERT
// are one new file per partition, all published together by one
// writer.FolderEdit, so a reader sees all of them or none, and a crash
// leaves all or none. In a transaction the edit is staged, the
// transaction reads it, and COMMIT publishes it.

// insertHive writes the n rows data (the table's file columns, then its
// partition columns) to a hive-partitioned table: one new file in the
// folder of each partition the rows fall in, published as one edit.
func (e *Engine) insertHive(tx *Tx, tgt *target, data []*Col, n int) error {
	nf := len(tgt.fields) - tgt.parts
	order, rows := dml.HiveGroups(tgt.fields[nf:], data[nf:], n)
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
		if err := writeHiveFile(edit, tgt, data[:nf], rows[dir], path.Join(dir, dml.NewPartName()), opts); err != nil {
			return err
		}
	}
	return finish()
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
		if vecs[k], err = plan.ToVector(c.Take(idx), tgt.fields[k]); err != nil {
			return errorf("column %q: %v", tgt.fields[k].Name, err)
		}
	}
	return w.WriteBatch(vecs)
}

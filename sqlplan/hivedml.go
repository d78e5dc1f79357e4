package sqlplan

import (
	"context"
	"path"

	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// DELETE, UPDATE and MERGE on a hive-partitioned table run as on any
// folder table (folderdml.go): the scan prunes files first by their
// partition values, then by statistics, and only the files left are
// rewritten, all in one writer.FolderEdit. What differs is where rows
// go: a rewritten file keeps the rows that stay in its partition, and
// the rows an UPDATE moves to another partition (a SET of a partition
// column) or a MERGE inserts go to one new file per partition folder,
// made when new, as INSERT writes them (hive.go). The same edit
// publishes the lot, so readers see the rows moved or not, never both.

// hiveSink routes the rows a rewrite of a hive table makes to folders.
type hiveSink struct {
	edit  *writer.FolderEdit
	tgt   *target
	con   *constraints
	opts  []writer.Option
	moved map[string]*writer.Writer // new files, by partition folder
	order []string                  // the keys of moved, in the order made
}

// home names the partition folder of a file whose partition values
// (scan.FileRef.Partition) are part.
func (h *hiveSink) home(part map[string]any) string {
	return dml.HiveDir(h.tgt.fields[len(h.tgt.fields)-h.tgt.parts:], part)
}

// to returns the sink of the rows rewritten from a file of the partition
// home: those that stay in home go to w, the others to moved files (w is
// nil and home "" for rows of no file: MERGE's inserts).
func (h *hiveSink) to(w *writer.Writer, home string) rowSink {
	return func(ctx context.Context, rp *plan.Planner, cols []*Col) error {
		// The checks cast cols to the table's types in place, the
		// partition columns' values among them.
		vecs, err := checkedVectors(ctx, rp, h.tgt, h.con, cols, "")
		if err != nil || vecs == nil {
			return err
		}
		nf := len(h.tgt.fields) - h.tgt.parts
		order, rows := dml.HiveGroups(h.tgt.fields[nf:], cols[nf:], cols[0].Len)
		if len(order) == 1 && order[0] == home {
			return w.WriteBatch(vecs[:nf])
		}
		for _, dir := range order {
			dst := w
			if dir != home {
				if dst, err = h.movedTo(dir); err != nil {
					return err
				}
			}
			if err := writeHiveRows(dst, h.tgt, cols[:nf], rows[dir]); err != nil {
				return err
			}
		}
		return nil
	}
}

// movedTo returns the new file of the partition folder dir.
func (h *hiveSink) movedTo(dir string) (*writer.Writer, error) {
	if w := h.moved[dir]; w != nil {
		return w, nil
	}
	w, err := h.edit.Create(path.Join(dir, dml.NewPartName()), h.tgt.sch, h.opts...)
	if err != nil {
		return nil, err
	}
	h.moved[dir] = w
	h.order = append(h.order, dir)
	return w, nil
}

// close finishes the moved files and returns how many there are.
func (h *hiveSink) close() (int, error) {
	n := 0
	for _, dir := range h.order {
		w := h.moved[dir]
		delete(h.moved, dir)
		if err := w.Close(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// abort drops the moved files not yet finished (after an error).
func (h *hiveSink) abort() {
	for _, w := range h.moved {
		w.Abort()
	}
}

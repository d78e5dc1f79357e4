package sqlplan

import (
	"context"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// DELETE, UPDATE and MERGE on a folder table (not a Delta table) rewrite
// only the files whose row groups the WHERE may match (by statistics and
// bloom filters, as the one-file path picks row groups): each such file
// is written again under a new name beside it, its row groups that
// cannot match copied as stored, the others streamed through the change
// a batch at a time; a file left without rows is dropped. The new files
// and the removal of the old ones are published as one writer.FolderEdit:
// the folder is swapped for its next version in one step, so a reader
// lists the old files or the new, never a mix, and a crash leaves one or
// the other. The folder's lock, held exclusive meanwhile, keeps INSERTs
// (which take it shared) and OPTIMIZE out. In a transaction the edit is
// staged and published at COMMIT (txfolder.go).

// rewriteFolder is rewriteTable for a folder table: the files the WHERE
// may match are rewritten through change, added's rows (MERGE's inserts)
// go to a new file, and the edit is published in one step.
func (s *Stmt) rewriteFolder(ctx context.Context, p *plan.Planner, tgt *target, te *sqlparser.AliasedTableExpr, items sqlparser.SelectExprs,
	sel *sqlparser.Select, where *sqlparser.Where, opts []writer.Option, change func(b *Batch, hit []bool) ([]*Col, error), added func() ([]*Col, error)) error {
	con := constraintsOf(tgt.opts)
	if con.hasKeys() {
		return unsupported(s.verb() + " of a folder table with keys")
	}
	// In a transaction the edit is staged (txfolder.go).
	edit, finish, editDone, err := s.e.startFolderEdit(stmtOf(p).tx, tgt)
	if err != nil {
		return err
	}
	defer editDone()
	table, filter, done, err := s.rewriteScope(p, te, where)
	if err != nil {
		return err
	}
	defer done()
	var hive *hiveSink // where the rows of a hive-partitioned table go (hivedml.go)
	if tgt.parts > 0 {
		hive = &hiveSink{edit: edit, tgt: tgt, con: con, opts: opts, moved: map[string]*writer.Writer{}}
		defer hive.abort()
	}
	kept := 0     // files left as they are, or rewritten with rows
	lastDir := "" // the folder of the last file rewritten
	for fi, ref := range table.Files {
		may, err := table.RowGroupsMayMatch(fi, filter)
		if err != nil {
			return err
		}
		writeTraceOf(ctx).rowGroups(may) // EXPLAIN ANALYZE (explain_dml.go)
		if !anyTrue(may) {
			kept++
			continue
		}
		rel, err := filepath.Rel(edit.Dir(), ref.Path)
		if err != nil {
			return err
		}
		home := ""
		if hive != nil {
			home = hive.home(ref.Partition)
		}
		rows, err := s.rewriteFolderFile(ctx, p, edit, tgt, con, hive, home, items, sel, table.File, fi, filepath.ToSlash(rel), may, opts, change)
		if err != nil {
			return err
		}
		lastDir = path.Dir(filepath.ToSlash(rel))
		edit.Remove(rel)
		if rows > 0 {
			kept++
		}
	}
	var more []*Col
	if added != nil {
		if more, err = added(); err != nil {
			return err
		}
	}
	if hive != nil {
		// MERGE's inserts go to the folders of their partitions.
		if more != nil {
			rp := p.Child(p.Src)
			holdWrite(rp)
			err = hive.to(nil, "")(ctx, rp, more)
			rp.ReleaseAll()
			if err != nil {
				return err
			}
			more = nil
		}
		n, err := hive.close()
		if err != nil {
			return err
		}
		kept += n
	}
	if more != nil || kept == 0 {
		// A folder table keeps at least one file, perhaps of no rows: a
		// folder without files is no table. A hive table's empty file
		// stays in a partition folder, where the table's files are.
		name := dml.NewPartName()
		if hive != nil && lastDir != "" {
			name = path.Join(lastDir, name)
		}
		w, err := edit.Create(name, tgt.sch, opts...)
		if err != nil {
			return err
		}
		if more != nil {
			rp := p.Child(p.Src)
			holdWrite(rp)
			err = writeChecked(ctx, rp, w, tgt, con, more)
			rp.ReleaseAll()
		}
		if err != nil {
			w.Abort()
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return finish()
}

// rewriteFolderFile writes the folder's file fi (at rel) again as a new
// file of the edit: its row groups that may match (may) through change,
// the others as stored when the file has the table's schema; the rows of
// a hive table that an UPDATE moves out of the file's partition (home)
// go to hive's files instead. It returns
// the rows written; a file left without rows is not written.
func (s *Stmt) rewriteFolderFile(ctx context.Context, p *plan.Planner, edit *writer.FolderEdit, tgt *target, con *constraints, hive *hiveSink, home string, items sqlparser.SelectExprs,
	sel *sqlparser.Select, open func(int) (*file.File, error), fi int, rel string, may []bool, opts []writer.Option,
	change func(b *Batch, hit []bool) ([]*Col, error)) (int64, error) {
	f, err := open(fi)
	if err != nil {
		return 0, err
	}
	w, err := edit.Create(dml.RewrittenName(rel), tgt.sch, opts...)
	if err != nil {
		return 0, err
	}
	put := checkedSink(w, tgt, con)
	if hive != nil {
		put = hive.to(w, home)
	}
	copyable := w.CanCopy(f)
	for i := 0; i < len(may); {
		if !may[i] && copyable {
			if err := w.CopyRowGroup(f, i); err != nil {
				w.Abort()
				return 0, err
			}
			i++
			continue
		}
		j := i
		var rgs []int
		for ; j < len(may) && (may[j] || !copyable); j++ {
			rgs = append(rgs, j)
		}
		if err := s.streamRewrite(ctx, p, put, tgt, items, sel, fi, rgs, change); err != nil {
			w.Abort()
			return 0, err
		}
		i = j
	}
	rows := w.NumRows()
	if rows == 0 {
		return 0, w.Abort()
	}
	return rows, w.Close()
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// deltaDroppable checks that DROP TABLE may remove the Delta table at
// dir: its data files (as the log names them, all readable under the
// engine's root) are in its folder, and the folder holds no links.
func (s *Stmt) deltaDroppable(dir string) error {
	t, err := scan.Open(dir, s.e.scanOptions(nil))
	if err != nil {
		return errorf("DROP TABLE %s: %v: nothing was removed", s.table, err)
	}
	defer t.Close()
	for _, ref := range t.Files {
		rel, err := filepath.Rel(dir, ref.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return errorf("DROP TABLE %s: the data file %s is outside the table's folder: nothing was removed", s.table, ref.Path)
		}
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && !d.Type().IsRegular() {
			return errorf("DROP TABLE %s: %s is not a regular file: nothing was removed", s.table, p)
		}
		return nil
	})
}

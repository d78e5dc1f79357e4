package sqlplan

import (
	"context"
	"fmt"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// DELETE and UPDATE of a Delta table write deletion vectors: the WHERE is
// evaluated over each data file read alone, in order and without its
// deletion vector, so that the i-th row read is the row at position i;
// the positions it holds for (and the file's deletion vector did not hold
// yet) join that vector. The commit removes each file so changed (with its
// old vector) and adds it again with the new one; UPDATE adds a new data
// file of the rows' new versions in the same commit. A file left without
// rows is only removed. A file whose
// statistics rule the WHERE out is not read; no data file is rewritten.
// The table's protocol is upgraded to the deletionVectors feature in the
// same commit when it lacks it.

// deltaFileMarker names, in the FROM of the queries run over one data
// file, that file (planner.files).
const deltaFileMarker = "\x1fdelta-file"

// deltaChange is what a DELETE or UPDATE does with the rows of one file:
// given the rows read (the items, then the WHERE's truth) and which of them
// it applies to, UPDATE returns the table's columns of the rows' new
// versions (for the hit rows; nil for DELETE).
type deltaChange func(b *Batch, hit []bool) ([]*Col, error)

// deltaDML runs a DELETE (change nil) or UPDATE of the Delta table tgt
// and returns the rows it deleted or updated.
func (s *Stmt) deltaDML(ctx context.Context, p *planner, tgt *target, te *sqlparser.AliasedTableExpr, items sqlparser.SelectExprs,
	where *sqlparser.Where, change deltaChange) (int64, error) {
	verb := s.verb()
	var cond sqlparser.Expr = sqlparser.BoolVal(true)
	if where != nil {
		if containsAggregate(where.Expr) {
			return 0, errorf("aggregate functions are not allowed in WHERE")
		}
		cond = &sqlparser.IsExpr{Operator: sqlparser.IsTrueStr, Expr: where.Expr}
	}
	opts, err := s.e.writeOptions(tgt.opts)
	if err != nil {
		return 0, err
	}
	s.e.writeMu.Lock()
	defer s.e.writeMu.Unlock()
	defer s.e.forget(tgt.path)
	s.e.forget(tgt.path) // read the latest version
	tbl, _, err := s.e.openTableWriteHeld(tgt.name)
	if err != nil {
		return 0, err
	}
	defer s.e.release(tbl)
	snap := tbl.Snapshot()
	if snap == nil {
		return 0, errorf("%s %q: the table is no longer a Delta table", verb, tgt.name)
	}
	fail := func(err error) error {
		return fmt.Errorf("%s %q (Delta version %d): %w", verb, tgt.name, snap.Version, err)
	}
	if err := snap.CheckDeletable(); err != nil {
		return 0, &Error{Msg: fmt.Sprintf("%s %q: %v", verb, tgt.name, err), Offset: -1, Err: ErrUnsupported}
	}
	alias := s.tableName(te)
	from := sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}, As: sqlparser.NewTableIdent(alias)}}
	run := func(ft *scan.Table, sel *sqlparser.Select) (*Batch, error) {
		return p.readDeltaFile(ctx, ft, sel)
	}
	var count *sqlparser.Select
	if where != nil {
		count = &sqlparser.Select{From: from, Where: &sqlparser.Where{Type: sqlparser.WhereStr, Expr: where.Expr},
			SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("count"), Exprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}}}}}
	}
	sel := &sqlparser.Select{SelectExprs: append(append(sqlparser.SelectExprs(nil), items...), &sqlparser.AliasedExpr{Expr: cond}), From: from}

	type changed struct {
		add  *delta.AddFile
		bm   *dv.Bitmap
		rows int64 // the file's physical rows
	}
	var files []changed
	var newRows [][]*Col // UPDATE: the new versions, per file
	var affected int64
	for i := range tbl.Files {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		ft, err := tbl.DeltaFile(i)
		if err != nil {
			return 0, fail(err)
		}
		b, err := func() (*Batch, error) {
			defer ft.Close()
			if count != nil {
				// The file's statistics (and its row groups') may rule the
				// WHERE out without reading it.
				cb, err := run(ft, count)
				if err != nil {
					return nil, err
				}
				if n, _ := cb.Cols[0].get(0).(int64); cb.N == 1 && n == 0 {
					return nil, nil
				}
			}
			return run(ft, sel)
		}()
		if err != nil {
			return 0, err
		}
		if b == nil {
			continue
		}
		add := tbl.DeltaAdd(i)
		bm, err := snap.Deletions(add)
		if err != nil {
			return 0, fail(err)
		}
		flag := b.Cols[len(b.Cols)-1]
		hit := make([]bool, b.N)
		var rows []int32
		for r := range hit {
			if flag.B[r] && !flag.isNull(r) && !bm.Contains(uint64(r)) {
				hit[r] = true
				rows = append(rows, int32(r))
			}
		}
		if len(rows) == 0 {
			continue
		}
		for _, r := range rows {
			bm.Add(uint64(r))
		}
		affected += int64(len(rows))
		files = append(files, changed{add: add, bm: bm, rows: int64(b.N)})
		if change != nil {
			cols, err := change(b, hit)
			if err != nil {
				return 0, err
			}
			nb := takeBatch(&Batch{Cols: cols, N: b.N}, rows)
			newRows = append(newRows, nb.Cols)
		}
	}
	if affected == 0 {
		return 0, nil
	}
	// A file none of whose rows are left is removed, not given a vector.
	var bms []*dv.Bitmap
	var kept []changed
	var gone []*delta.AddFile
	for _, f := range files {
		if int64(f.bm.Cardinality()) >= f.rows {
			gone = append(gone, f.add)
			continue
		}
		bms, kept = append(bms, f.bm), append(kept, f)
	}
	files = kept
	descs, undoDV, err := delta.WriteDeletionVectors(snap.Root, bms)
	if err != nil {
		return 0, fail(err)
	}
	now := time.Now().UnixMilli()
	c := &delta.Commit{
		Protocol:    delta.WithDeletionVectors(snap.Protocol),
		Operation:   verb,
		ReadVersion: snap.Version,
		// The interval as the table sets it.
		CheckpointInterval: delta.CheckpointInterval(snap.Metadata.Configuration),
		OperationParameters: map[string]string{
			"predicate": fmt.Sprintf("[%q]", sqlparser.String(cond)),
		},
	}
	for _, a := range gone {
		c.Removes = append(c.Removes, delta.RemoveOf(a))
	}
	for k, f := range files {
		stats, err := delta.WideStats(f.add.StatsJSON, f.rows)
		if err != nil {
			undoDV()
			return 0, fail(fmt.Errorf("file %s: %w", f.add.URI, err))
		}
		pv := map[string]string{}
		for key, v := range f.add.PartitionValues {
			if v != nil {
				pv[key] = *v
			}
		}
		d := descs[k]
		c.Removes = append(c.Removes, delta.RemoveOf(f.add))
		c.Adds = append(c.Adds, delta.Add{Path: f.add.URI, PartitionValues: pv, Size: f.add.Size, ModificationTime: now,
			DataChange: true, Stats: stats, DeletionVector: &d})
	}
	undoData := func() {}
	if change != nil {
		add, undo, err := s.e.writeDeltaFile(ctx, tgt.path, tgt.sch, tgt.dtype, opts, func(w *writer.Writer) error {
			for _, cols := range newRows {
				vecs, err := deltaVectors(tgt, cols)
				if err != nil {
					return err
				}
				if vecs != nil {
					if err := w.WriteBatch(vecs); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			undoDV()
			return 0, fail(err)
		}
		c.Adds, undoData = append(c.Adds, add), undo
	}
	if _, err := c.Write(tgt.path, delta.CommitOptions{Store: s.e.opts.Store}); err != nil {
		undoDV()
		undoData()
		return 0, fmt.Errorf("%s %q (read at Delta version %d): %w", verb, tgt.name, snap.Version, err)
	}
	return affected, nil
}

// deltaVectors casts the table's columns of some rows to the vectors of
// its data files, refusing NULLs in NOT NULL columns (nil for no rows).
func deltaVectors(tgt *target, cols []*Col) ([]*vector.Vector, error) {
	if len(cols) == 0 || cols[0].Len == 0 {
		return nil, nil
	}
	n := cols[0].Len
	vecs := make([]*vector.Vector, len(tgt.fields))
	for k, f := range tgt.fields {
		c, err := castCol(cols[k], typeOfField(f))
		if err != nil {
			return nil, errorf("column %q: %v", f.Name, err)
		}
		if !f.Nullable && c.Null != nil {
			for i := 0; i < n; i++ {
				if c.Null[i] {
					return nil, errorf("NULL in NOT NULL column %q", f.Name)
				}
			}
		}
		if vecs[k], err = toVector(c, f); err != nil {
			return nil, errorf("column %q: %v", f.Name, err)
		}
	}
	return vecs, nil
}

// readDeltaFile runs sel, whose FROM names deltaFileMarker, over the one
// Delta data file ft (read alone, without its deletion vector), under
// the write lock the caller holds.
func (p *planner) readDeltaFile(ctx context.Context, ft *scan.Table, sel *sqlparser.Select) (*Batch, error) {
	rp := p.child(p.src)
	rp.writeHeld = true
	rp.files = map[string]*scan.Table{deltaFileMarker: ft}
	defer rp.releaseAll()
	sp, err := rp.planSelect(cloneAST(sel), nil)
	if err != nil {
		return nil, err
	}
	return sp.drainAll(ctx)
}

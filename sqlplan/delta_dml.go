package sqlplan

import (
	"context"
	"fmt"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
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
	var cond sqlparser.Expr = sqlparser.BoolVal(true)
	if where != nil {
		if containsAggregate(where.Expr) {
			return 0, errorf("aggregate functions are not allowed in WHERE")
		}
		cond = &sqlparser.IsExpr{Operator: sqlparser.IsTrueStr, Expr: where.Expr}
	}
	from := sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}, As: sqlparser.NewTableIdent(s.tableName(te))}}
	var count *sqlparser.Select
	if where != nil {
		count = &sqlparser.Select{From: from, Where: &sqlparser.Where{Type: sqlparser.WhereStr, Expr: where.Expr},
			SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("count"), Exprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}}}}}
	}
	sel := &sqlparser.Select{SelectExprs: append(append(sqlparser.SelectExprs(nil), items...), &sqlparser.AliasedExpr{Expr: cond}), From: from}
	var affected int64
	if change == nil && where != nil && partitionOnly(where.Expr, tgt.delta) {
		// A DELETE by partition values: true or not for a whole file,
		// whose partition values alone (a file pruned is not opened) or
		// first row say which.
		one := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: sqlparser.NewIntVal([]byte("1"))}},
			From: from, Where: &sqlparser.Where{Type: sqlparser.WhereStr, Expr: where.Expr}, Limit: &sqlparser.Limit{Rowcount: sqlparser.NewIntVal([]byte("1"))}}
		edit := func(ft *scan.Table, bm *dv.Bitmap) (deltaFileEdit, error) {
			b, err := p.readDeltaFile(ctx, ft, one)
			if err != nil || b.N == 0 {
				return deltaFileEdit{}, err
			}
			rows, err := ft.NumRows()
			if err != nil {
				return deltaFileEdit{}, err
			}
			affected += rows - int64(bm.Cardinality())
			return deltaFileEdit{rows: rows, all: true}, nil
		}
		return affected, s.deltaEdit(ctx, tgt, sqlparser.String(cond), edit, nil)
	}
	edit := func(ft *scan.Table, bm *dv.Bitmap) (deltaFileEdit, error) {
		if count != nil {
			// The file's statistics (and its row groups') may rule the
			// WHERE out without reading it.
			cb, err := p.readDeltaFile(ctx, ft, count)
			if err != nil {
				return deltaFileEdit{}, err
			}
			if n, _ := cb.Cols[0].Get(0).(int64); cb.N == 1 && n == 0 {
				return deltaFileEdit{}, nil
			}
		}
		b, err := p.readDeltaFile(ctx, ft, sel)
		if err != nil {
			return deltaFileEdit{}, err
		}
		flag := b.Cols[len(b.Cols)-1]
		hit := make([]bool, b.N)
		ed := deltaFileEdit{rows: int64(b.N)}
		for r := range hit {
			if flag.B[r] && !flag.IsNull(r) && !bm.Contains(uint64(r)) {
				hit[r] = true
				ed.gone = append(ed.gone, int32(r))
			}
		}
		if len(ed.gone) == 0 {
			return deltaFileEdit{}, nil
		}
		affected += int64(len(ed.gone))
		if change != nil {
			cols, err := change(b, hit)
			if err != nil {
				return deltaFileEdit{}, err
			}
			ed.newRows = kernels.TakeBatch(&Batch{Cols: cols, N: b.N}, ed.gone).Cols
		}
		return ed, nil
	}
	err := s.deltaEdit(ctx, tgt, sqlparser.String(cond), edit, nil)
	return affected, err
}

// partitionOnly reports whether a WHERE refers to partition columns of
// the table only, and so holds or not for the whole of each data file: no
// other columns, no subqueries, no functions whose value changes from
// row to row.
func partitionOnly(e sqlparser.Expr, snap *delta.Snapshot) bool {
	if snap == nil || len(snap.Metadata.PartitionColumns) == 0 {
		return false
	}
	ok := true
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.Subquery:
			ok = false
		case *sqlparser.ColName:
			ok = ok && snap.IsPartition(x.Name.String())
		case *sqlparser.FuncExpr:
			switch x.Name.Lowered() {
			case "random", "rand", "uuid", "gen_random_uuid", "nextval", "setseed":
				ok = false
			}
		}
		return ok, nil
	}, e)
	return ok
}

// deltaFileEdit is what a statement does to one data file of a Delta
// table: the positions of the rows it removes (deleted, or updated),
// ascending, and the table's columns of the rows it writes in their
// place (nil for none).
type deltaFileEdit struct {
	rows    int64 // the file's physical rows
	gone    []int32
	newRows []*Col
	// all: every row of the file goes (gone is not listed), and the file
	// with it.
	all bool
}

// deltaEdit changes the Delta table tgt in one commit, under the write
// lock: edit says, for each data file of the latest version (read alone
// by the marker, bm its deletion vector), which rows go and which rows
// come in their place; added, when not nil, gives once every file is
// seen the rows the statement adds (MERGE's inserts). The removed rows
// join the files' deletion vectors, the new rows go to one new data file.
// Nothing is committed when nothing changes.
func (s *Stmt) deltaEdit(ctx context.Context, tgt *target, predicate string,
	edit func(ft *scan.Table, bm *dv.Bitmap) (deltaFileEdit, error), added func() ([]*Col, error)) error {
	verb := s.verb()
	opts, err := s.e.writeOptions(tgt.opts)
	if err != nil {
		return err
	}
	defer s.e.deltaWriteLock(tgt)() // txdelta.go
	defer s.e.forget(tgt.path)
	s.e.forget(tgt.path) // read the latest version
	tbl, err := s.e.openDeltaTarget(tgt)
	if err != nil {
		return err
	}
	defer s.e.release(tbl)
	snap := tbl.Snapshot()
	if snap == nil {
		return errorf("%s %q: the table is no longer a Delta table", verb, tgt.name)
	}
	fail := func(err error) error {
		return fmt.Errorf("%s %q (Delta version %d): %w", verb, tgt.name, snap.Version, err)
	}
	if err := snap.CheckDeletable(); err != nil {
		return &Error{Msg: fmt.Sprintf("%s %q: %v", verb, tgt.name, err), Offset: -1, Err: ErrUnsupported}
	}

	type changed struct {
		add  *delta.AddFile
		bm   *dv.Bitmap
		rows int64 // the file's physical rows
	}
	var files []changed
	var whole []*delta.AddFile // files none of whose rows are left
	var newRows [][]*Col       // the rows written, per file, then those added
	for i := range tbl.Files {
		if err := ctx.Err(); err != nil {
			return err
		}
		ft, err := tbl.DeltaFile(i)
		if err != nil {
			return fail(err)
		}
		add := tbl.DeltaAdd(i)
		bm, err := snap.Deletions(add)
		if err != nil {
			ft.Close()
			return fail(err)
		}
		ed, err := edit(ft, bm)
		ft.Close()
		if err != nil {
			return err
		}
		if ed.all {
			whole = append(whole, add)
			continue
		}
		if len(ed.gone) == 0 {
			continue
		}
		for _, r := range ed.gone {
			bm.Add(uint64(r))
		}
		files = append(files, changed{add: add, bm: bm, rows: ed.rows})
		if ed.newRows != nil {
			newRows = append(newRows, ed.newRows)
		}
	}
	if added != nil {
		cols, err := added()
		if err != nil {
			return err
		}
		if cols != nil {
			newRows = append(newRows, cols)
		}
	}
	if len(files) == 0 && len(whole) == 0 && len(newRows) == 0 {
		return nil
	}
	// A file none of whose rows are left is removed, not given a vector.
	var bms []*dv.Bitmap
	var kept []changed
	gone := whole
	for _, f := range files {
		if int64(f.bm.Cardinality()) >= f.rows {
			gone = append(gone, f.add)
			continue
		}
		bms, kept = append(bms, f.bm), append(kept, f)
	}
	files = kept
	undoDV := func() {}
	var descs []dv.Descriptor
	if len(bms) > 0 {
		if descs, undoDV, err = delta.WriteDeletionVectors(snap.Root, bms); err != nil {
			return fail(err)
		}
	}
	now := time.Now().UnixMilli()
	c := &delta.Commit{
		Protocol:    delta.WithDeletionVectors(snap.Protocol),
		Operation:   verb,
		ReadVersion: snap.Version,
		// The interval as the table sets it.
		CheckpointInterval: delta.CheckpointInterval(snap.Metadata.Configuration),
		OperationParameters: map[string]string{
			"predicate": fmt.Sprintf("[%q]", predicate),
		},
	}
	for _, a := range gone {
		c.Removes = append(c.Removes, delta.RemoveOf(a))
	}
	for k, f := range files {
		stats, err := delta.WideStats(f.add.StatsJSON, f.rows)
		if err != nil {
			undoDV()
			return fail(fmt.Errorf("file %s: %w", f.add.URI, err))
		}
		d := descs[k]
		c.Removes = append(c.Removes, delta.RemoveOf(f.add))
		c.Adds = append(c.Adds, delta.Add{Path: f.add.URI, PartitionValues: f.add.PartitionValues, Size: f.add.Size, ModificationTime: now,
			DataChange: true, Stats: stats, DeletionVector: &d})
	}
	undoData := func() {}
	if len(newRows) > 0 {
		var batches [][]*vector.Vector
		for _, cols := range newRows {
			vecs, err := deltaVectors(tgt, cols)
			if err != nil {
				undoDV()
				return err
			}
			if vecs != nil {
				batches = append(batches, vecs)
			}
		}
		adds, undo, err := dml.WriteDeltaRows(ctx, tgt.path, tgt.layout, opts, s.e.opts.Store, batches)
		if err != nil {
			undoDV()
			return fail(err)
		}
		c.Adds, undoData = append(c.Adds, adds...), undo
	}
	if _, err := c.Write(tgt.path, delta.CommitOptions{Store: s.e.opts.Store}); err != nil {
		undoDV()
		undoData()
		return fmt.Errorf("%s %q (read at Delta version %d): %w", verb, tgt.name, snap.Version, err)
	}
	return nil
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
	sp, err := rp.planSelect(parse.CloneAST(sel), nil)
	if err != nil {
		return nil, err
	}
	return sp.drainAll(ctx)
}

package sqlplan

import (
	"context"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
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
func (s *Stmt) deltaDML(ctx context.Context, p *plan.Planner, tgt *target, te *sqlparser.AliasedTableExpr, items sqlparser.SelectExprs,
	where *sqlparser.Where, change deltaChange) (int64, error) {
	from := sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}, As: sqlparser.NewTableIdent(s.tableName(te))}}
	sel, err := flaggedSelect(items, where, from)
	if err != nil {
		return 0, err
	}
	cond := sel.SelectExprs[len(sel.SelectExprs)-1].(*sqlparser.AliasedExpr).Expr
	var count *sqlparser.Select
	if where != nil {
		count = &sqlparser.Select{From: from, Where: &sqlparser.Where{Type: sqlparser.WhereStr, Expr: where.Expr},
			SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.FuncExpr{Name: sqlparser.NewColIdent("count"), Exprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}}}}}
	}
	var affected int64
	ret := returnedOf(ctx) // a DELETE's RETURNING reads the rows deleted
	if change == nil && ret == nil && where != nil && partitionOnly(where.Expr, tgt.delta) {
		// A DELETE by partition values: true or not for a whole file,
		// whose partition values alone (a file pruned is not opened) or
		// first row say which.
		one := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: sqlparser.NewIntVal([]byte("1"))}},
			From: from, Where: &sqlparser.Where{Type: sqlparser.WhereStr, Expr: where.Expr}, Limit: &sqlparser.Limit{Rowcount: sqlparser.NewIntVal([]byte("1"))}}
		edit := func(ft *scan.Table, bm *dv.Bitmap) (dml.DeltaFileEdit, error) {
			b, err := readDeltaFile(p, ctx, ft, one)
			if err != nil || b.N == 0 {
				return dml.DeltaFileEdit{}, err
			}
			rows, err := ft.NumRows()
			if err != nil {
				return dml.DeltaFileEdit{}, err
			}
			affected += rows - int64(bm.Cardinality())
			return dml.DeltaFileEdit{Rows: rows, All: true}, nil
		}
		return affected, s.deltaEdit(ctx, tgt, sqlparser.String(cond), edit, nil)
	}
	edit := func(ft *scan.Table, bm *dv.Bitmap) (dml.DeltaFileEdit, error) {
		if count != nil {
			// The file's statistics (and its row groups') may rule the
			// WHERE out without reading it.
			cb, err := readDeltaFile(p, ctx, ft, count)
			if err != nil {
				return dml.DeltaFileEdit{}, err
			}
			if n, _ := cb.Cols[0].Get(0).(int64); cb.N == 1 && n == 0 {
				return dml.DeltaFileEdit{}, nil
			}
		}
		b, err := readDeltaFile(p, ctx, ft, sel)
		if err != nil {
			return dml.DeltaFileEdit{}, err
		}
		flag := b.Cols[len(b.Cols)-1]
		hit := make([]bool, b.N)
		ed := dml.DeltaFileEdit{Rows: int64(b.N)}
		for r := range hit {
			if flag.B[r] && !flag.IsNull(r) && !bm.Contains(uint64(r)) {
				hit[r] = true
				ed.Gone = append(ed.Gone, int32(r))
			}
		}
		if len(ed.Gone) == 0 {
			return dml.DeltaFileEdit{}, nil
		}
		affected += int64(len(ed.Gone))
		if change == nil && ret != nil {
			if err := ret.add("", b.Cols[:len(tgt.fields)], ed.Gone); err != nil {
				return dml.DeltaFileEdit{}, err
			}
		}
		if change != nil {
			cols, err := change(b, hit)
			if err != nil {
				return dml.DeltaFileEdit{}, err
			}
			ed.NewRows = kernels.TakeBatch(&Batch{Cols: cols, N: b.N}, ed.Gone).Cols
		}
		return ed, nil
	}
	err = s.deltaEdit(ctx, tgt, sqlparser.String(cond), edit, nil)
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

// deltaEdit changes the Delta table tgt in one commit, under the write
// lock (dml.DeltaEdit): edit says, for each data file of the latest
// version, which rows go and which rows come in their place; added, when
// not nil, gives once every file is seen the rows the statement adds
// (MERGE's inserts).
func (s *Stmt) deltaEdit(ctx context.Context, tgt *target, predicate string,
	edit func(ft *scan.Table, bm *dv.Bitmap) (dml.DeltaFileEdit, error), added func() ([]*Col, error)) error {
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
	if tbl.Snapshot() == nil {
		return errorf("%s %q: the table is no longer a Delta table", verb, tgt.name)
	}
	d := &dml.DeltaEdit{
		Root: tgt.path, Table: tbl, Layout: tgt.layout, Options: opts, Store: s.e.opts.Store,
		Verb: verb, Name: tgt.name, Predicate: predicate,
		Edit: edit, Added: added,
		Vectors: func(cols []*Col) ([]*vector.Vector, error) { return deltaVectors(tgt, cols) },
	}
	return d.Commit(ctx)
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
		c, err := plan.CastCol(cols[k], plan.TypeOfField(f))
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
		if vecs[k], err = plan.ToVector(c, f); err != nil {
			return nil, errorf("column %q: %v", f.Name, err)
		}
	}
	return vecs, nil
}

// readDeltaFile runs sel, whose FROM names deltaFileMarker, over the one
// Delta data file ft (read alone, without its deletion vector), under
// the write lock the caller holds.
func readDeltaFile(p *plan.Planner, ctx context.Context, ft *scan.Table, sel *sqlparser.Select) (*Batch, error) {
	rp := p.Child(p.Src)
	holdWrite(rp)
	rp.Files = map[string]*scan.Table{deltaFileMarker: ft}
	defer rp.ReleaseAll()
	sp, err := rp.PlanSelect(parse.CloneAST(sel), nil)
	if err != nil {
		return nil, err
	}
	traceRead(ctx, sp, writeTraceOf(ctx).fileLabel(ft)) // EXPLAIN ANALYZE (explain_dml.go)
	return sp.DrainAll(ctx)
}

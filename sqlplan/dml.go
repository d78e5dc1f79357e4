package sqlplan

import (
	"context"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"io"
	"strings"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

// DELETE and UPDATE write the table's file again: its rows are read
// through a SELECT, changed, and written to a new file that replaces the
// old one in a single writer.Rewrite, under the file's append lock, so
// that a crash or an error leaves the old file whole and no append is
// lost. The table is read into memory whole, as CREATE TABLE AS does.
// A folder table has only the files its WHERE may match written again,
// published by one swap of the folder (folderdml.go).

// dmlTarget resolves the table of a DELETE or UPDATE: a single-file or
// folder table, written by anyone, whose columns the rewrite keeps.
func (s *Stmt) dmlTarget(verb string, tables sqlparser.TableExprs, tx *Tx) (*target, *sqlparser.AliasedTableExpr, error) {
	te, tn, err := dmlTableExpr(verb, tables)
	if err != nil {
		return nil, nil, err
	}
	tgt, err := s.e.targetOf(qualifiedTable(tn), tx, true)
	if err != nil {
		return nil, nil, s.Src.Locate(plan.AsError(err), tn.Name.String())
	}
	return tgt, te, nil
}

// dmlTableExpr is the one table of a DELETE or UPDATE's list, and its
// name; other lists are refused.
func dmlTableExpr(verb string, tables sqlparser.TableExprs) (*sqlparser.AliasedTableExpr, sqlparser.TableName, error) {
	if len(tables) != 1 {
		return nil, sqlparser.TableName{}, unsupported(verb + " of more than one table")
	}
	te, ok := tables[0].(*sqlparser.AliasedTableExpr)
	if !ok {
		return nil, sqlparser.TableName{}, unsupported(verb + " of a join")
	}
	tn, ok := te.Expr.(sqlparser.TableName)
	if !ok {
		return nil, sqlparser.TableName{}, unsupported(verb + " of a subquery")
	}
	return te, tn, nil
}

// deleteRows runs DELETE FROM t [WHERE c].
func (s *Stmt) deleteRows(ctx context.Context, p *plan.Planner) (Result, error) {
	del := parse.CloneAST(s.AST.(*sqlparser.Delete))
	if err := deleteForm(del); err != nil {
		return Result{}, err
	}
	tgt, te, err := s.dmlTarget("DELETE", del.TableExprs, stmtOf(p).tx)
	if err != nil {
		return Result{}, err
	}
	items := sqlparser.SelectExprs{&sqlparser.StarExpr{}}
	ret := returnedOf(ctx) // RETURNING's rows: those deleted (dml_returning.go)
	if tgt.delta != nil {
		if ret == nil {
			items = nil // only the WHERE's columns are read
		}
		n, err := s.deltaDML(ctx, p, tgt, te, items, del.Where, nil)
		return Result{RowsAffected: n}, err
	}
	var deleted int64
	err = s.rewriteTable(ctx, p, tgt, te, items, del.Where, func(b *Batch, hit []bool) ([]*Col, error) {
		if err := ret.addHit(b.Cols[:len(tgt.fields)], hit); err != nil {
			return nil, err
		}
		var keep []int32
		for i, h := range hit {
			if h {
				deleted++
			} else {
				keep = append(keep, int32(i))
			}
		}
		return kernels.TakeBatch(b, keep).Cols[:len(tgt.fields)], nil
	}, nil)
	return Result{RowsAffected: deleted}, err
}

// updateRows runs UPDATE t SET col = expr, ... [WHERE c]. The new values
// are cast to the columns' types as INSERT casts them.
func (s *Stmt) updateRows(ctx context.Context, p *plan.Planner) (Result, error) {
	up := parse.CloneAST(s.AST.(*sqlparser.Update))
	if err := updateForm(up); err != nil {
		return Result{}, err
	}
	tgt, te, err := s.dmlTarget("UPDATE", up.TableExprs, stmtOf(p).tx)
	if err != nil {
		return Result{}, err
	}
	items, set, err := s.updateSet(tgt, te, up)
	if err != nil {
		return Result{}, err
	}
	var updated int64
	change := func(b *Batch, hit []bool) ([]*Col, error) {
		cols := append([]*Col(nil), b.Cols[:len(tgt.fields)]...)
		for _, h := range hit {
			if h {
				updated++
			}
		}
		for k, j := range set {
			t := plan.TypeOfField(tgt.fields[k])
			nv, err := plan.CastCol(b.Cols[j], t)
			if err != nil {
				return nil, errorf("column %q: %v", tgt.fields[k].Name, err)
			}
			old, err := plan.CastCol(cols[k], t)
			if err != nil {
				return nil, err
			}
			out := plan.NewBuilder(t, b.N)
			for i, h := range hit {
				if h {
					out.Add(nv.Get(i))
				} else {
					out.Add(old.Get(i))
				}
			}
			cols[k] = out.C
		}
		// RETURNING's rows: the new values (dml_returning.go).
		return cols, returnedOf(ctx).addHit(cols, hit)
	}
	if tgt.delta != nil {
		n, err := s.deltaDML(ctx, p, tgt, te, items, up.Where, change)
		return Result{RowsAffected: n}, err
	}
	err = s.rewriteTable(ctx, p, tgt, te, items, up.Where, change, nil)
	return Result{RowsAffected: updated}, err
}

// deleteForm refuses the forms of DELETE other than DELETE FROM t [WHERE ...].
func deleteForm(del *sqlparser.Delete) error {
	if len(del.Targets) > 0 || len(del.OrderBy) > 0 || del.Limit != nil || len(del.Partitions) > 0 {
		return unsupported("this DELETE form (DELETE FROM t [WHERE ...] is)")
	}
	return nil
}

// updateForm refuses UPDATE with ORDER BY or LIMIT.
func updateForm(up *sqlparser.Update) error {
	if len(up.OrderBy) > 0 || up.Limit != nil {
		return unsupported("UPDATE with ORDER BY or LIMIT")
	}
	return nil
}

// updateSet resolves UPDATE's SET list against the table: the items the
// rewrite reads (every column, then the new values) and, by field index
// of each column set, the item of its new value.
func (s *Stmt) updateSet(tgt *target, te *sqlparser.AliasedTableExpr, up *sqlparser.Update) (sqlparser.SelectExprs, map[int]int, error) {
	items := sqlparser.SelectExprs{&sqlparser.StarExpr{}}
	set := map[int]int{}
	for _, ue := range up.Exprs {
		k := fieldIndex(tgt.fields, ue.Name.Name.String())
		if k < 0 {
			e := errorf("table %q has no column %q%s", s.tableName(te), ue.Name.Name.String(), suggest(ue.Name.Name.String(), fieldNames(tgt.fields)))
			e.Err = ErrNoColumn
			return nil, nil, s.Src.Locate(e, ue.Name.Name.String())
		}
		if _, twice := set[k]; twice {
			return nil, nil, errorf("column %q is set twice", tgt.fields[k].Name)
		}
		if q := ue.Name.Qualifier.Name.String(); q != "" && !strings.EqualFold(q, s.tableName(te)) {
			return nil, nil, errorf("SET %s: %q is not the table updated", sqlparser.String(ue.Name), q)
		}
		set[k] = len(tgt.fields) + len(set)
		items = append(items, &sqlparser.AliasedExpr{Expr: ue.Expr})
	}
	return items, set, nil
}

func (s *Stmt) tableName(te *sqlparser.AliasedTableExpr) string {
	if !te.As.IsEmpty() {
		return te.As.String()
	}
	return te.Expr.(sqlparser.TableName).Name.String()
}

func fieldIndex(fields []*schema.Field, name string) int {
	for i, f := range fields {
		if strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

func fieldNames(fields []*schema.Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

// rewriteTable reads SELECT items, (where) IS TRUE FROM te under the
// table file's lock, lets change turn the rows (and which of them where
// holds for) into the table's new columns, and writes them as the file's
// new contents, with the table's schema, options and key-value metadata;
// added, when not nil, gives once every row is read the rows that follow
// them (MERGE's inserts).
func (s *Stmt) rewriteTable(ctx context.Context, p *plan.Planner, tgt *target, te *sqlparser.AliasedTableExpr, items sqlparser.SelectExprs,
	where *sqlparser.Where, change func(b *Batch, hit []bool) ([]*Col, error), added func() ([]*Col, error)) error {
	sel, err := flaggedSelect(items, where, sqlparser.TableExprs{te})
	if err != nil {
		return err
	}
	opts, err := s.e.rewriteOptions(tgt.opts, tgt.kv)
	if err != nil {
		return err
	}
	// A transaction stages a one-object table's new contents and
	// replaces the object at COMMIT, conditionally (txremote.go).
	if stmtOf(p).tx == nil || tgt.folder {
		if err := remoteRewrite(tgt.path, s.verb()); err != nil {
			return err
		}
	}
	if tgt.folder {
		return s.rewriteFolder(ctx, p, tgt, te, items, sel, where, opts, change, added) // folderdml.go
	}
	// In a transaction the table is read as the transaction sees it, its
	// inserted rows first folded in, and written to a staged file.
	write := func(fill func(w *writer.Writer) error) error {
		s.e.writeMu.Lock()
		defer s.e.writeMu.Unlock()
		defer s.e.forget(tgt.path)
		return writer.Rewrite(tgt.path, tgt.sch, fill, opts...)
	}
	if tx := stmtOf(p).tx; tx != nil {
		if err := tx.settle(tgt.path, tgt.name); err != nil {
			return err
		}
		write = func(fill func(w *writer.Writer) error) error {
			return tx.stage(tgt.path, tgt.name, tgt.sch, fill, opts)
		}
	}
	return write(func(w *writer.Writer) error {
		s.e.forget(tgt.path) // read what is committed now that the locks are held
		con := constraintsOf(tgt.opts)
		if con.hasKeys() {
			// Keys are checked over the table's new contents as a whole.
			rp := p.Child(p.Src)
			holdWrite(rp)
			defer rp.ReleaseAll()
			sp, err := rp.PlanSelect(sel, nil)
			if err != nil {
				return err
			}
			traceRead(ctx, sp, "") // EXPLAIN ANALYZE (explain_dml.go)
			b, err := sp.DrainAll(ctx)
			if err != nil {
				return err
			}
			cols, err := changeBatch(tgt, items, b, change)
			if err != nil {
				return err
			}
			if added != nil {
				more, err := added()
				if err != nil {
					return err
				}
				if more != nil {
					for k := range cols {
						if cols[k], err = plan.CastCol(cols[k], plan.TypeOfField(tgt.fields[k])); err != nil {
							return errorf("column %q: %v", tgt.fields[k].Name, err)
						}
						plan.AppendCol(cols[k], more[k])
					}
				}
			}
			return writeChecked(ctx, rp, w, tgt, con, cols)
		}
		// Otherwise the row groups that the WHERE cannot match (by their
		// statistics and bloom filters) are copied as stored, and the rows
		// of the others stream through, a batch at a time: memory holds a
		// batch and the row group being written, not the table.
		f, may, done, err := s.rowGroupsToRead(p, tgt, te, where)
		if err != nil {
			return err
		}
		defer done()
		writeTraceOf(ctx).rowGroups(may)
		for i := 0; i < len(may); {
			if !may[i] {
				if err := w.CopyRowGroup(f, i); err != nil {
					return err
				}
				i++
				continue
			}
			j := i
			var rgs []int
			for ; j < len(may) && may[j]; j++ {
				rgs = append(rgs, j)
			}
			if err := s.streamRewrite(ctx, p, checkedSink(w, tgt, con), tgt, items, sel, 0, rgs, change); err != nil {
				return err
			}
			i = j
		}
		if added == nil {
			return nil
		}
		more, err := added()
		if err != nil || more == nil {
			return err
		}
		rp := p.Child(p.Src)
		holdWrite(rp)
		defer rp.ReleaseAll()
		return writeChecked(ctx, rp, w, tgt, con, more)
	})
}

// flaggedSelect is what a DELETE or UPDATE reads of the rows from: the
// items, then whether the WHERE holds for the row (true without WHERE).
func flaggedSelect(items sqlparser.SelectExprs, where *sqlparser.Where, from sqlparser.TableExprs) (*sqlparser.Select, error) {
	var cond sqlparser.Expr = sqlparser.BoolVal(true)
	if where != nil {
		if plan.ContainsAggregate(where.Expr) {
			return nil, errorf("aggregate functions are not allowed in WHERE")
		}
		cond = &sqlparser.IsExpr{Operator: sqlparser.IsTrueStr, Expr: where.Expr}
	}
	items = append(append(sqlparser.SelectExprs(nil), items...), &sqlparser.AliasedExpr{Expr: cond})
	return &sqlparser.Select{SelectExprs: items, From: from}, nil
}

// rowGroupsToRead opens the table's file and tells which of its row
// groups the WHERE may match (see rewriteScope). done releases the table.
func (s *Stmt) rowGroupsToRead(p *plan.Planner, tgt *target, te *sqlparser.AliasedTableExpr, where *sqlparser.Where) (*file.File, []bool, func(), error) {
	table, filter, done, err := s.rewriteScope(p, te, where)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := table.File(0)
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	may, err := table.RowGroupsMayMatch(0, filter)
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return f, may, done, nil
}

// rewriteScope opens the table a DELETE or UPDATE rewrites and returns
// the conjuncts of the WHERE the scan can test against each row group's
// statistics and bloom filters (found by planning SELECT 1 FROM te WHERE
// ...; nil: every row group may match). done releases the table.
func (s *Stmt) rewriteScope(p *plan.Planner, te *sqlparser.AliasedTableExpr, where *sqlparser.Where) (*scan.Table, scan.Predicate, func(), error) {
	qp := p.Child(p.Src)
	holdWrite(qp)
	tn := te.Expr.(sqlparser.TableName)
	name := tn.Name.String()
	if q := tn.Qualifier.String(); q != "" {
		name = q + "." + name
	}
	table, _, err := qp.Cat.OpenTable(name)
	if err != nil {
		qp.ReleaseAll()
		return nil, nil, nil, err
	}
	done := func() {
		s.e.release(table)
		qp.ReleaseAll()
	}
	filter, err := pushedFilter(qp, te, where, func(t *scan.Table) bool { return t == table })
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return table, filter, done, nil
}

// pushedFilter is the filter the scan of te pushes down for where (nil
// without where), as the SELECT path plans SELECT 1 FROM te WHERE ...:
// the scan planned with p whose table is, by isTarget, te's.
func pushedFilter(p *plan.Planner, te *sqlparser.AliasedTableExpr, where *sqlparser.Where, isTarget func(*scan.Table) bool) (scan.Predicate, error) {
	if where == nil {
		return nil, nil
	}
	one := sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: sqlparser.NewIntVal([]byte("1"))}}
	sp, err := p.PlanSelect(parse.CloneAST(&sqlparser.Select{SelectExprs: one, From: sqlparser.TableExprs{te}, Where: where}), nil)
	if err != nil {
		return nil, err
	}
	sp.Root.Close()
	var filter scan.Predicate
	for _, n := range p.Scans {
		if isTarget(n.Table) {
			filter = n.Req.Filter
		}
	}
	if p.Ctx != nil {
		writeTraceOf(p.Ctx).pushedFilter(filter) // EXPLAIN ANALYZE (explain_dml.go)
	}
	return filter, nil
}

// A rowSink takes the rows a rewrite makes (the table's columns), checks
// and writes them; rp is the planner that read them.
type rowSink func(ctx context.Context, rp *plan.Planner, cols []*Col) error

// checkedSink writes rows to w after writeChecked's checks.
func checkedSink(w *writer.Writer, tgt *target, con *constraints) rowSink {
	return func(ctx context.Context, rp *plan.Planner, cols []*Col) error {
		return writeChecked(ctx, rp, w, tgt, con, cols)
	}
}

// streamRewrite reads the rows of the row groups rgs of the table's file
// fi through sel and gives what change makes of them to put, a batch at
// a time.
func (s *Stmt) streamRewrite(ctx context.Context, p *plan.Planner, put rowSink, tgt *target, items sqlparser.SelectExprs,
	sel *sqlparser.Select, fi int, rgs []int, change func(b *Batch, hit []bool) ([]*Col, error)) error {
	rp := p.Child(p.Src)
	holdWrite(rp)
	rp.OnlyPath, rp.OnlyFile, rp.OnlyRowGroups = tgt.path, fi, rgs
	defer rp.ReleaseAll()
	sp, err := rp.PlanSelect(parse.CloneAST(sel), nil)
	if err != nil {
		return err
	}
	traceRead(ctx, sp, "")
	defer sp.Root.Close()
	for {
		b, err := sp.Root.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		for i, c := range b.Cols {
			if t := sp.Cols[i].Type; c.T.Kind != t.Kind && plan.Storage(c.T) != plan.Storage(t) {
				if b.Cols[i], err = plan.CastCol(c, t); err != nil {
					return err
				}
			}
		}
		cols, err := changeBatch(tgt, items, b, change)
		if err != nil {
			return err
		}
		if err := put(ctx, rp, cols); err != nil {
			return err
		}
	}
}

// changeBatch lets change turn a batch of the rows read (the table's
// columns, the new values, the WHERE flag) into the table's new rows.
func changeBatch(tgt *target, items sqlparser.SelectExprs, b *Batch, change func(b *Batch, hit []bool) ([]*Col, error)) ([]*Col, error) {
	if len(b.Cols) != len(tgt.fields)+len(items) {
		return nil, errorf("%d columns read for the table's %d", len(b.Cols)-len(items), len(tgt.fields))
	}
	flag := b.Cols[len(b.Cols)-1]
	hit := make([]bool, b.N)
	for i := range hit {
		hit[i] = flag.B[i] && !flag.IsNull(i)
	}
	return change(b, hit)
}

// writeChecked casts rows to the table's column types, checks them
// against its constraints (keys among themselves) and writes them.
func writeChecked(ctx context.Context, rp *plan.Planner, w *writer.Writer, tgt *target, con *constraints, cols []*Col) error {
	vecs, err := checkedVectors(ctx, rp, tgt, con, cols, "")
	if err != nil || vecs == nil {
		return err
	}
	return w.WriteBatch(vecs)
}

// checkedVectors casts rows to the table's column types, checks them
// against its constraints (keys among themselves, and against the rows
// of table when it is not "") and returns them as the writer takes them
// (nil for no rows).
func checkedVectors(ctx context.Context, rp *plan.Planner, tgt *target, con *constraints, cols []*Col, table string) ([]*vector.Vector, error) {
	n := cols[0].Len
	if n == 0 {
		return nil, nil
	}
	types := make([]Type, len(tgt.fields))
	for k, f := range tgt.fields {
		types[k] = plan.TypeOfField(f)
		c, err := plan.CastCol(cols[k], types[k])
		if err != nil {
			return nil, errorf("column %q: %v", f.Name, err)
		}
		if !f.Nullable && c.Null != nil {
			for i := 0; i < n; i++ {
				if c.Null[i] {
					return nil, errorf("NULL in NOT NULL column %q (row %d)", f.Name, i+1)
				}
			}
		}
		cols[k] = c
	}
	if err := checkConstraintRows(rp, con, tgt.fields, types, cols, n); err != nil {
		return nil, err
	}
	if _, err := checkKeys(rp, ctx, con, table, tgt.fields, cols, n, false); err != nil {
		return nil, err
	}
	if err := checkForeign(rp, ctx, con, tgt.fields, cols, n); err != nil {
		return nil, err
	}
	vecs := make([]*vector.Vector, len(tgt.fields))
	for k, f := range tgt.fields {
		var err error
		if vecs[k], err = plan.ToVector(cols[k], f); err != nil {
			return nil, errorf("column %q: %v", f.Name, err)
		}
	}
	return vecs, nil
}

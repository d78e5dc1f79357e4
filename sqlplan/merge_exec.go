package sqlplan

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/dml"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/xwb1989/sqlparser"
)

// A MERGE runs as a hash join of the source to the target, as DuckDB's
// results have it: the source's rows are read into memory and indexed by
// the source's sides of ON's equalities; the target's rows stream through
// the write path of UPDATE and DELETE (a rewrite of a one-file table,
// deletion vectors and a new data file of a Delta table), a batch at a
// time. Each target row is paired with the source rows of its key for
// which the whole ON holds (every source row when ON has no equality).
// Each pair takes the first WHEN MATCHED clause whose condition holds,
// each target row without a pair the first WHEN NOT MATCHED BY SOURCE
// clause, and, once the target is read, each source row no target row
// matched the first WHEN NOT MATCHED clause. As in DuckDB, a target row
// that several source rows match is not an error: each pair acts, in
// the source's order (an update of a column by a later pair wins, a
// delete wins over updates), and each counts among the rows affected.
// A MERGE that neither updates nor deletes appends its rows as INSERT
// does, so that it also runs on tables that are folders of files.

// mergePairsMax bounds the candidate pairs evaluated at once (ON without
// an equality pairs each target row with every source row).
const mergePairsMax = 1 << 16

// mergeRun is one run of a MERGE: the source's rows, the statement's
// expressions bound over pairs of a target and a source row (the
// target's columns, then the source's), and what the run has done.
type mergeRun struct {
	m       *mergeSpec
	p       *plan.Planner // binds and evaluates the statement's expressions
	con     *constraints
	fields  []*schema.Field
	types   []Type // the target's column types
	src     *Batch
	srcCols []Column
	on      plan.Expr
	// ON's equalities, target side over target rows and source side over
	// source rows, compared in keyTypes; index maps a key to its source
	// rows in order (nil: ON has no equality).
	tKeys, sKeys []plan.Expr
	keyTypes     []Type
	index        map[string][]int32
	clauses      []*mergeBound
	matched      []bool // source rows some target row matched
	count        int64
	inserts      []*Col // the rows to add, the target's columns
	// ret collects the rows RETURNING returns (nil: none).
	ret *returned
}

// mergeBound is a WHEN clause bound.
type mergeBound struct {
	*mergeClause
	cond plan.Expr
	set  []int       // the target columns an UPDATE or INSERT gives values
	vals []plan.Expr // their values (nil: the column's DEFAULT)
	msg  plan.Expr
}

// mergeEdit is what a MERGE does to a batch of target rows.
type mergeEdit struct {
	cols    []*Col // the rows, updated
	touched []bool // updated or deleted
	deleted []bool
	// upd, per column, the value of each row's last update (col nil: none)
	upd [][]mergeSet
}

type mergeSet struct {
	col  *Col
	at   int32 // the row of col
	pair int32 // the pair that set it
}

// mergeRows runs MERGE INTO and returns the rows affected.
func (s *Stmt) mergeRows(ctx context.Context, p *plan.Planner) (Result, error) {
	m := s.merge
	tgt, err := s.e.targetOf(m.target, stmtOf(p).tx, true)
	if err != nil {
		return Result{}, s.Src.Locate(plan.AsError(err), m.target)
	}
	r, err := s.newMergeRun(ctx, p, tgt)
	if err != nil {
		return Result{}, err
	}
	defer r.p.ReleaseAll()
	if !m.updates() {
		return r.appendRows(ctx, s, tgt)
	}
	if tgt.delta != nil {
		err = s.deltaEdit(ctx, tgt, r.predicate(), r.deltaFile(ctx, p, tgt), r.added)
		return Result{RowsAffected: r.count}, err
	}
	te := &sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(m.target)}}
	err = s.rewriteTable(ctx, p, tgt, te, sqlparser.SelectExprs{&sqlparser.StarExpr{}}, nil, func(b *Batch, _ []bool) ([]*Col, error) {
		ed, err := r.targetBatch(b)
		if err != nil {
			return nil, err
		}
		var keep []int32
		for i, d := range ed.deleted {
			if !d {
				keep = append(keep, int32(i))
			}
		}
		return kernels.TakeBatch(&Batch{Cols: ed.cols, N: b.N}, keep).Cols, nil
	}, r.added)
	return Result{RowsAffected: r.count}, err
}

// newMergeRun reads the source and binds the statement's expressions.
func (s *Stmt) newMergeRun(ctx context.Context, p *plan.Planner, tgt *target) (*mergeRun, error) {
	m := s.merge
	r := &mergeRun{m: m, con: constraintsOf(tgt.opts), fields: tgt.fields}
	for _, f := range tgt.fields {
		r.types = append(r.types, plan.TypeOfField(f))
	}
	sp := p.Child(m.source.Src)
	pl, err := m.source.Plan(sp)
	if err != nil {
		sp.ReleaseAll()
		return nil, err
	}
	traceRead(ctx, pl, "") // EXPLAIN ANALYZE (explain_dml.go)
	r.srcCols = pl.Cols
	r.src, err = pl.DrainAll(ctx)
	sp.ReleaseAll()
	if err != nil {
		return nil, err
	}
	r.matched = make([]bool, r.src.N)
	if ret := returnedOf(ctx); ret != nil {
		names := make([]string, len(tgt.fields))
		for k, f := range tgt.fields {
			names[k] = f.Name
		}
		*ret = *newReturned(names, r.types, true)
		r.ret = ret
	}
	var exprs sqlparser.SelectExprs
	r.p = p.Child(s.Src)
	if m.exprs != nil {
		r.p = p.Child(m.exprs.Src)
		exprs = parse.CloneAST(m.exprs.AST.(*sqlparser.Select)).SelectExprs
	}
	if err := r.bind(exprs); err != nil {
		r.p.ReleaseAll()
		return nil, err
	}
	return r, nil
}

// relationOf is a relation of columns of these names and types, the
// first in slot base.
func relationOf(alias string, names []string, types []Type, base int) *plan.Relation {
	rel := &plan.Relation{Alias: alias}
	for k, name := range names {
		rel.Cols = append(rel.Cols, &plan.ScopeCol{Rel: rel, Name: name, T: types[k], Slot: &plan.Slot{Idx: base + k}, Local: k})
	}
	return rel
}

// bind binds ON and the clauses' expressions (exprs, by the indexes the
// spec holds) in the scopes they see: a MATCHED clause both rows, a NOT
// MATCHED clause the source's, a NOT MATCHED BY SOURCE clause the
// target's.
func (r *mergeRun) bind(exprs sqlparser.SelectExprs) error {
	m := r.m
	mt := len(r.fields)
	srcNames := make([]string, len(r.srcCols))
	srcTypes := make([]Type, len(r.srcCols))
	for j, c := range r.srcCols {
		srcNames[j], srcTypes[j] = c.Name, c.Type
	}
	tRel := relationOf(m.alias, fieldNames(r.fields), r.types, 0)
	sRel := relationOf(m.sourceAlias, srcNames, srcTypes, mt)
	pair := &plan.Scope{Rels: []*plan.Relation{tRel, sRel}}
	scopes := map[mergeWhen]*plan.Scope{
		whenMatched:         pair,
		whenNotMatched:      {Rels: []*plan.Relation{sRel}},
		whenNotMatchedBySrc: {Rels: []*plan.Relation{tRel}},
	}
	ast := func(k int) sqlparser.Expr { return exprs[k].(*sqlparser.AliasedExpr).Expr }
	srcCol := func(j int) plan.Expr { return &plan.ColExpr{S: &plan.Slot{Idx: mt + j}, T: srcTypes[j]} }
	var err error
	if m.using != nil {
		pair.Merged = map[*plan.Relation]map[string]bool{sRel: {}}
		var conds []plan.Expr
		for _, name := range m.using {
			k, j := fieldIndex(r.fields, name), columnIndex(srcNames, name)
			if k < 0 || j < 0 {
				return errorf("MERGE USING (%s): column %q is not in both the target and the source", strings.Join(m.using, ", "), name)
			}
			pair.Merged[sRel][strings.ToLower(name)] = true
			t := &plan.ColExpr{S: &plan.Slot{Idx: k}, T: r.types[k]}
			if err := r.addKey(t, &plan.ColExpr{S: &plan.Slot{Idx: j}, T: srcTypes[j]}); err != nil {
				return err
			}
			eq, err := r.p.BindBool(&sqlparser.ComparisonExpr{Operator: sqlparser.EqualStr,
				Left:  &sqlparser.ColName{Name: sqlparser.NewColIdent(r.fields[k].Name), Qualifier: sqlparser.TableName{Name: sqlparser.NewTableIdent(m.alias)}},
				Right: &sqlparser.ColName{Name: sqlparser.NewColIdent(srcNames[j]), Qualifier: sqlparser.TableName{Name: sqlparser.NewTableIdent(m.sourceAlias)}}}, pair, nil)
			if err != nil {
				return err
			}
			conds = append(conds, eq)
		}
		r.on = conds[0]
		if len(conds) > 1 {
			r.on = &plan.AndExpr{Terms: conds}
		}
	} else {
		if r.on, err = r.p.BindBool(ast(m.on), pair, nil); err != nil {
			return err
		}
		s0 := &plan.Scope{Rels: []*plan.Relation{relationOf(m.sourceAlias, srcNames, srcTypes, 0)}}
		t0 := &plan.Scope{Rels: []*plan.Relation{tRel}}
		for _, c := range plan.SplitAnd(ast(m.on)) {
			cmp, ok := c.(*sqlparser.ComparisonExpr)
			if !ok || cmp.Operator != sqlparser.EqualStr || plan.ContainsSubquery(cmp) {
				continue
			}
			for _, sides := range [][2]sqlparser.Expr{{cmp.Left, cmp.Right}, {cmp.Right, cmp.Left}} {
				t, err1 := r.p.Child(r.p.Src).BindExpr(parse.CloneAST(sides[0]), t0, nil)
				s, err2 := r.p.Child(r.p.Src).BindExpr(parse.CloneAST(sides[1]), s0, nil)
				if err1 == nil && err2 == nil {
					if r.addKey(t, s) == nil {
						break
					}
				}
			}
		}
	}
	if err := r.buildIndex(); err != nil {
		return err
	}
	for _, c := range m.clauses {
		b := &mergeBound{mergeClause: c}
		sc := scopes[c.when]
		if c.cond >= 0 {
			if b.cond, err = r.p.BindBool(ast(c.cond), sc, nil); err != nil {
				return err
			}
		}
		if c.msg >= 0 {
			if b.msg, err = r.p.BindExpr(ast(c.msg), sc, nil); err != nil {
				return err
			}
		}
		switch {
		case c.star:
			if len(srcNames) != mt {
				verb := "UPDATE"
				if c.action == mergeInsert {
					verb = "INSERT"
				}
				return errorf("Data provided for %s did not match column count in table - expected %d columns but got %d", verb, mt, len(srcNames))
			}
			for j := range srcNames {
				b.set, b.vals = append(b.set, j), append(b.vals, srcCol(j))
			}
		case c.byName:
			for j, name := range srcNames {
				k := fieldIndex(r.fields, name)
				if k < 0 {
					e := errorf("Table %q does not have a column with name %q%s", m.target, name, suggest(name, fieldNames(r.fields)))
					e.Err = ErrNoColumn
					return e
				}
				b.set, b.vals = append(b.set, k), append(b.vals, srcCol(j))
			}
		case c.cols == nil && c.action == mergeInsert && c.vals != nil:
			if len(c.vals) != mt {
				return errorf("MERGE INSERT: table %q has %d columns but %d values were supplied", m.target, mt, len(c.vals))
			}
			for k := range r.fields {
				b.set = append(b.set, k)
			}
		default:
			for _, name := range c.cols {
				k := fieldIndex(r.fields, name)
				if k < 0 {
					e := errorf("table %q has no column %q%s", m.target, name, suggest(name, fieldNames(r.fields)))
					e.Err = ErrNoColumn
					return e
				}
				b.set = append(b.set, k)
			}
		}
		for _, v := range c.vals {
			var e plan.Expr
			if v >= 0 {
				if e, err = r.p.BindExpr(ast(v), sc, nil); err != nil {
					return err
				}
			}
			b.vals = append(b.vals, e)
		}
		r.clauses = append(r.clauses, b)
	}
	return nil
}

func columnIndex(names []string, name string) int {
	for j, n := range names {
		if strings.EqualFold(n, name) {
			return j
		}
	}
	return -1
}

// addKey adds an equality of ON to the hash join's key, compared in the
// type both sides unify to.
func (r *mergeRun) addKey(t, s plan.Expr) error {
	kt, err := plan.UnifyTypes(t.Type(), s.Type())
	if err != nil {
		return err
	}
	r.tKeys, r.sKeys, r.keyTypes = append(r.tKeys, t), append(r.sKeys, s), append(r.keyTypes, kt)
	return nil
}

// keyCols evaluates key expressions over b, in the key's types.
func (r *mergeRun) keyCols(keys []plan.Expr, b *Batch) ([]*Col, error) {
	out := make([]*Col, len(keys))
	for i, k := range keys {
		c, err := k.Eval(b)
		if err != nil {
			return nil, err
		}
		if out[i], err = plan.CastCol(c, r.keyTypes[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// appendKeyOf encodes row i's key; ok is false when a part is NULL (it
// equals nothing).
func appendKeyOf(buf []byte, cols []*Col, i int) ([]byte, bool) {
	for _, c := range cols {
		if c.IsNull(i) {
			return buf, false
		}
		buf = vec.AppendKey(buf, c, i)
	}
	return buf, true
}

// buildIndex indexes the source's rows by their keys.
func (r *mergeRun) buildIndex() error {
	if len(r.sKeys) == 0 {
		return nil
	}
	cols, err := r.keyCols(r.sKeys, r.src)
	if err != nil {
		return err
	}
	r.index = make(map[string][]int32, r.src.N)
	var buf []byte
	for i := 0; i < r.src.N; i++ {
		var ok bool
		if buf, ok = appendKeyOf(buf[:0], cols, i); ok {
			r.index[string(buf)] = append(r.index[string(buf)], int32(i))
		}
	}
	return nil
}

// pairs is the batch of the pairs of target rows ti of t and source rows
// si (nil: NULLs in their place).
func (r *mergeRun) pairs(t *Batch, ti, si []int32, n int) *Batch {
	b := &Batch{N: n}
	for k, typ := range r.types {
		if ti == nil {
			b.Cols = append(b.Cols, plan.NullCol(typ, n))
		} else {
			b.Cols = append(b.Cols, t.Cols[k].Take(ti))
		}
	}
	for j, c := range r.src.Cols {
		if si == nil {
			b.Cols = append(b.Cols, plan.NullCol(r.srcCols[j].Type, n))
		} else {
			b.Cols = append(b.Cols, c.Take(si))
		}
	}
	return b
}

func truth(c *Col, i int) bool { return c.B != nil && c.B[i] && !c.IsNull(i) }

// targetBatch runs the MERGE over a batch of target rows (the table's
// columns first): their pairs through the WHEN MATCHED clauses, the rows
// without one through the WHEN NOT MATCHED BY SOURCE clauses.
func (r *mergeRun) targetBatch(b *Batch) (*mergeEdit, error) {
	t := &Batch{N: b.N, Cols: make([]*Col, len(r.fields))}
	for k := range r.fields {
		c, err := plan.CastCol(b.Cols[k], r.types[k])
		if err != nil {
			return nil, errorf("column %q: %v", r.fields[k].Name, err)
		}
		t.Cols[k] = c
	}
	n := t.N
	var ti, si, ct, cs []int32
	flush := func() error {
		if len(ct) == 0 {
			return nil
		}
		c, err := r.on.Eval(r.pairs(t, ct, cs, len(ct)))
		if err != nil {
			return err
		}
		for k := range ct {
			if truth(c, k) {
				ti, si = append(ti, ct[k]), append(si, cs[k])
			}
		}
		ct, cs = ct[:0], cs[:0]
		return nil
	}
	candidate := func(i, s int32) error {
		ct, cs = append(ct, i), append(cs, s)
		if len(ct) >= mergePairsMax {
			return flush()
		}
		return nil
	}
	if r.index != nil {
		keys, err := r.keyCols(r.tKeys, t)
		if err != nil {
			return nil, err
		}
		var buf []byte
		for i := 0; i < n; i++ {
			var ok bool
			if buf, ok = appendKeyOf(buf[:0], keys, i); !ok {
				continue
			}
			for _, s := range r.index[string(buf)] {
				if err := candidate(int32(i), s); err != nil {
					return nil, err
				}
			}
		}
	} else {
		for i := 0; i < n; i++ {
			for s := 0; s < r.src.N; s++ {
				if err := candidate(int32(i), int32(s)); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	ed := &mergeEdit{touched: make([]bool, n), deleted: make([]bool, n), upd: make([][]mergeSet, len(r.fields))}
	hit := make([]bool, n)
	for k := range ti {
		hit[ti[k]], r.matched[si[k]] = true, true
	}
	if len(ti) > 0 {
		if err := r.apply(whenMatched, r.pairs(t, ti, si, len(ti)), ti, ed); err != nil {
			return nil, err
		}
	}
	var alone []int32
	for i, h := range hit {
		if !h {
			alone = append(alone, int32(i))
		}
	}
	if len(alone) > 0 {
		if err := r.apply(whenNotMatchedBySrc, r.pairs(t, alone, nil, len(alone)), alone, ed); err != nil {
			return nil, err
		}
	}
	ed.cols = make([]*Col, len(r.fields))
	for k, sets := range ed.upd {
		if sets == nil {
			ed.cols[k] = t.Cols[k]
			continue
		}
		out := plan.NewBuilder(r.types[k], n)
		for i, u := range sets {
			if u.col != nil {
				out.AddRow(u.col, int(u.at))
			} else {
				out.AddRow(t.Cols[k], i)
			}
		}
		ed.cols[k] = out.C
	}
	if err := r.ret.returnEdit(t, ed); err != nil {
		return nil, err
	}
	return ed, nil
}

// added runs the source rows no target row matched through the WHEN NOT
// MATCHED clauses and returns every row the MERGE adds (nil for none).
func (r *mergeRun) added() ([]*Col, error) {
	var alone []int32
	for s, m := range r.matched {
		if !m {
			alone = append(alone, int32(s))
		}
	}
	if len(alone) > 0 {
		if err := r.apply(whenNotMatched, r.pairs(nil, nil, alone, len(alone)), nil, nil); err != nil {
			return nil, err
		}
	}
	if r.inserts != nil && r.ret != nil {
		if err := r.ret.add("INSERT", r.inserts, allRows(r.inserts[0].Len)); err != nil {
			return nil, err
		}
	}
	return r.inserts, nil
}

// apply gives each row of the pairs pb the first clause of kind when
// whose condition holds, and does its action; ti are the pairs' target
// rows in the batch ed edits.
func (r *mergeRun) apply(when mergeWhen, pb *Batch, ti []int32, ed *mergeEdit) error {
	left := make([]int32, pb.N)
	for i := range left {
		left[i] = int32(i)
	}
	for _, c := range r.clauses {
		if c.when != when || len(left) == 0 {
			continue
		}
		rows := left
		if c.cond == nil {
			left = nil
		} else {
			v, err := c.cond.Eval(kernels.TakeBatch(pb, left))
			if err != nil {
				return err
			}
			cand := left
			rows, left = nil, nil
			for k, row := range cand {
				if truth(v, k) {
					rows = append(rows, row)
				} else {
					left = append(left, row)
				}
			}
		}
		if len(rows) > 0 {
			if err := r.act(c, pb, rows, ti, ed); err != nil {
				return err
			}
		}
	}
	return nil
}

// act does clause c's action for the pairs rows of pb.
func (r *mergeRun) act(c *mergeBound, pb *Batch, rows, ti []int32, ed *mergeEdit) error {
	switch c.action {
	case mergeNothing:
		return nil
	case mergeError:
		msg := "Merge error condition " + c.when.String()
		if c.msg != nil {
			v, err := c.msg.Eval(kernels.TakeBatch(pb, rows[:1]))
			if err != nil {
				return err
			}
			if !v.IsNull(0) {
				msg += ": " + plan.FormatScalar(v.T, v.Get(0))
			}
		}
		return errorf("%s", msg)
	case mergeDelete:
		for _, row := range rows {
			ed.deleted[ti[row]], ed.touched[ti[row]] = true, true
		}
		r.count += int64(len(rows))
		return nil
	}
	sub := kernels.TakeBatch(pb, rows)
	vals := make([]*Col, len(r.fields))
	for j, k := range c.set {
		if c.vals[j] == nil {
			continue // DEFAULT
		}
		v, err := c.vals[j].Eval(sub)
		if err != nil {
			return err
		}
		if vals[k], err = plan.CastCol(v, r.types[k]); err != nil {
			return errorf("column %q: %v", r.fields[k].Name, err)
		}
	}
	r.count += int64(len(rows))
	if c.action == mergeInsert {
		if err := fillDefaults(r.p, r.con, r.fields, r.types, vals, sub.N); err != nil {
			return err
		}
		for k := range vals {
			if vals[k] == nil {
				vals[k] = plan.NullCol(r.types[k], sub.N)
			}
			if r.inserts != nil {
				plan.AppendCol(r.inserts[k], vals[k])
			}
		}
		if r.inserts == nil {
			r.inserts = vals
		}
		return nil
	}
	for _, k := range c.set {
		if vals[k] == nil {
			return errorf("MERGE UPDATE SET %s: DEFAULT is not supported", r.fields[k].Name)
		}
		if ed.upd[k] == nil {
			ed.upd[k] = make([]mergeSet, len(ed.touched))
			for i := range ed.upd[k] {
				ed.upd[k][i].pair = -1
			}
		}
		for q, row := range rows {
			u := &ed.upd[k][ti[row]]
			if row > u.pair {
				*u = mergeSet{col: vals[k], at: int32(q), pair: row}
			}
		}
	}
	for _, row := range rows {
		ed.touched[ti[row]] = true
	}
	return nil
}

// predicate is the MERGE's condition as the Delta log records it.
func (r *mergeRun) predicate() string {
	if r.m.using != nil {
		return "USING (" + strings.Join(r.m.using, ", ") + ")"
	}
	return r.on.String()
}

// deltaFile is the MERGE's edit of one data file of a Delta table: its
// rows (those its deletion vector has not deleted) go through
// targetBatch; the updated and deleted ones join the vector, the updated
// ones are written anew.
func (r *mergeRun) deltaFile(ctx context.Context, p *plan.Planner, tgt *target) func(ft *scan.Table, bm *dv.Bitmap) (dml.DeltaFileEdit, error) {
	from := sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(deltaFileMarker)}}}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}}, From: from}
	return func(ft *scan.Table, bm *dv.Bitmap) (dml.DeltaFileEdit, error) {
		b, err := readDeltaFile(p, ctx, ft, sel)
		if err != nil {
			return dml.DeltaFileEdit{}, err
		}
		var live []int32
		for i := 0; i < b.N; i++ {
			if !bm.Contains(uint64(i)) {
				live = append(live, int32(i))
			}
		}
		if len(live) == 0 {
			return dml.DeltaFileEdit{}, nil
		}
		ed, err := r.targetBatch(kernels.TakeBatch(b, live))
		if err != nil {
			return dml.DeltaFileEdit{}, err
		}
		out := dml.DeltaFileEdit{Rows: int64(b.N)}
		var updated []int32
		for k, t := range ed.touched {
			if t {
				out.Gone = append(out.Gone, live[k])
				if !ed.deleted[k] {
					updated = append(updated, int32(k))
				}
			}
		}
		if len(updated) > 0 {
			out.NewRows = kernels.TakeBatch(&Batch{Cols: ed.cols, N: len(live)}, updated).Cols
		}
		return out, nil
	}
}

// appendRows runs a MERGE that only adds rows: the target is read
// through a query, and the rows are added as INSERT adds them (checked
// against the table's keys, appended to its file, to a folder table as
// a new file, to a Delta table in a commit of its own).
func (r *mergeRun) appendRows(ctx context.Context, s *Stmt, tgt *target) (Result, error) {
	qp := r.p.Child(r.p.Src)
	defer qp.ReleaseAll()
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}},
		From: sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(r.m.target)}}}}
	sp, err := qp.PlanSelect(sel, nil)
	if err != nil {
		return Result{}, err
	}
	traceRead(ctx, sp, "")
	defer sp.Root.Close()
	for {
		b, err := sp.Root.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return Result{}, err
		}
		if _, err := r.targetBatch(b); err != nil {
			return Result{}, err
		}
	}
	cols, err := r.added()
	if err != nil || cols == nil {
		return Result{RowsAffected: r.count}, err
	}
	vecs, err := checkedVectors(ctx, qp, tgt, r.con, cols, r.m.target)
	if err != nil || vecs == nil {
		return Result{}, err
	}
	switch {
	case tgt.parts > 0:
		err = s.e.insertHive(stmtOf(r.p).tx, tgt, cols, cols[0].Len) // hive.go: rows to their partitions' folders
	case stmtOf(r.p).tx != nil && tgt.delta == nil:
		err = stmtOf(r.p).tx.addPending(tgt, vecs)
	case tgt.delta != nil:
		err = s.e.appendDelta(tgt, [][]*vector.Vector{vecs}, false)
	default:
		err = s.e.writeRowsGrouped(tgt.path, tgt.sch, tgt.folder, tgt.opts, [][]*vector.Vector{vecs})
	}
	if err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: r.count}, nil
}

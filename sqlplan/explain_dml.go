package sqlplan

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/scan"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// EXPLAIN of INSERT, UPDATE, DELETE and MERGE. EXPLAIN prints the write's
// node (its table, kind, columns, clauses and checks) over the plans of
// the rows it reads, as the SELECT path plans them, and writes nothing.
// EXPLAIN ANALYZE runs the write through its usual path, in the
// statement's transaction if any (as DuckDB does), with a writeTrace in
// its context: each query the write runs to read rows has its operators
// instrumented, and its plan with their figures is kept when it closes;
// the rewrites add how many row groups and files they read or kept.

// writes reports whether the statement is an INSERT, UPDATE, DELETE or
// MERGE.
func (s *Stmt) writes() bool {
	switch s.kind {
	case kindInsert, kindUpdate, kindDelete, kindMerge:
		return true
	}
	return false
}

// writeShow is what EXPLAIN prints of a write: its node, lines about how
// it writes, MERGE's join, and the plans of the rows read (text at depth
// 0, indented under the write).
type writeShow struct {
	w     *lWrite
	lines []string
	join  string
	reads []string
	more  string // the reads not shown, when there are many
}

// addPlan closes sp and keeps its EXPLAIN text as a read of the write.
func (sh *writeShow) addPlan(root string, sp *plan.SelectPlan) {
	sp.Root.Close()
	x := &plan.Explainer{Root: root}
	sp.Root.Explain(x, 0)
	sh.reads = append(sh.reads, x.String())
}

// explainWrite is EXPLAIN [ANALYZE] of the write s.inner.
func (s *Stmt) explainWrite(ctx context.Context, args []Arg, tx *Tx, sess *Session, p *plan.Planner) (*Rows, error) {
	ip := p.Child(s.inner.Src)
	defer ip.ReleaseAll()
	sh, err := s.inner.writePlan(ip, !s.analyze)
	if err != nil {
		return nil, err
	}
	x := &plan.Explainer{Analyze: s.analyze, Root: s.e.root}
	var res Result
	if s.analyze {
		tr := &writeTrace{root: s.e.root}
		start := time.Now()
		res, err = s.inner.exec(context.WithValue(ctx, writeTraceKey{}, tr), args, tx, sess)
		if err != nil {
			return nil, err
		}
		took := time.Since(start).Round(time.Microsecond)
		sh.lines = append(sh.lines, tr.figures()...)
		sh.reads, sh.more = tr.reads, tr.moreText()
		x.SetFigures(fmt.Sprintf("rows %d, time %s", res.RowsAffected, took))
	}
	sh.print(x)
	if s.analyze {
		x.Line(0, "rows affected: %d", res.RowsAffected)
	}
	return planRows(ctx, x), nil
}

// print writes the write's line, its lines, and the reads under it (under
// MERGE's join line).
func (sh *writeShow) print(x *plan.Explainer) {
	x.Line(0, "%s", sh.w.Explain())
	for _, l := range sh.lines {
		x.Line(1, "%s", l)
	}
	depth := 1
	if sh.join != "" {
		x.Line(1, "%s", sh.join)
		depth = 2
	}
	pad := strings.Repeat("  ", depth)
	for _, r := range sh.reads {
		for _, l := range strings.Split(strings.TrimRight(r, "\n"), "\n") {
			x.Line(0, "%s%s", pad, l)
		}
	}
	if sh.more != "" {
		x.Line(depth, "%s", sh.more)
	}
}

// writePlan is the write's node and, when withReads, the plans of the
// rows it reads, planned (not run) with p.
func (s *Stmt) writePlan(p *plan.Planner, withReads bool) (*writeShow, error) {
	switch s.kind {
	case kindInsert:
		return s.insertPlan(p, withReads)
	case kindUpdate, kindDelete:
		return s.rewritePlan(p, withReads)
	case kindMerge:
		return s.mergePlan(p, withReads)
	}
	return nil, errorf("EXPLAIN takes a SELECT, INSERT, UPDATE, DELETE or MERGE")
}

// returningText is the text of a RETURNING list (its tokens, read from
// src, to the end of the statement).
func returningText(src *plan.Source, toks []parse.Token) string {
	if len(toks) == 0 {
		return ""
	}
	if p := toks[0].Pos; src == nil || p < 0 || p > len(src.Orig) {
		return tokensText(toks)
	}
	return strings.TrimRight(sourceText(src.Orig, toks, 0, len(toks)), "; \t\n")
}

// explainTarget is targetOf for EXPLAIN, which writes nothing: a Delta
// table in a transaction is described by the snapshot the transaction
// reads, not staged for writing as a write's target is (txdelta.go).
func (e *Engine) explainTarget(name string, tx *Tx) (*target, error) {
	if tx != nil {
		t, path, err := tx.openBase(name)
		if err != nil {
			return nil, err
		}
		snap := t.Snapshot()
		e.release(t)
		if snap != nil {
			if err := e.writable(path); err != nil {
				return nil, err
			}
			return deltaTarget(name, path, snap)
		}
	}
	return e.targetOf(name, tx, true)
}

// insertPlan is writePlan of an INSERT: VALUES, or its query's plan.
func (s *Stmt) insertPlan(p *plan.Planner, withReads bool) (*writeShow, error) {
	ins := s.AST.(*sqlparser.Insert)
	tgt, err := s.e.explainTarget(qualifiedTable(ins.Table), stmtOf(p).tx)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), ins.Table.Name.String())
	}
	w := s.e.newWrite("INSERT INTO", tgt)
	for _, c := range ins.Columns {
		w.cols = append(w.cols, c.String())
	}
	var opts []string
	if s.byName {
		opts = append(opts, "BY NAME")
	}
	switch {
	case s.ignoreConflicts:
		opts = append(opts, "ON CONFLICT DO NOTHING")
	case s.replaceConflicts:
		opts = append(opts, "OR REPLACE")
	case s.upsert != nil:
		opts = append(opts, "ON CONFLICT DO UPDATE SET "+strings.Join(s.upsert.cols, ", "))
	}
	w.conflict = strings.Join(opts, " ")
	w.returning = returningText(s.Src, s.returning)
	sh := &writeShow{w: w}
	switch rows := ins.Rows.(type) {
	case sqlparser.Values:
		v := lValues{rows: len(rows), defaults: s.defaultValues}
		w.in = v
		sh.lines = append(sh.lines, v.Explain())
	case sqlparser.SelectStatement:
		if !withReads {
			break
		}
		sp, err := p.PlanSelect(parse.CloneAST(rows), nil)
		if err != nil {
			return nil, err
		}
		w.in = sp.Tree
		sh.addPlan(s.e.root, sp)
	}
	return sh, nil
}

// rewritePlan is writePlan of an UPDATE or DELETE: what its rewrite reads
// of the table (every column, the new values and the WHERE's truth), and
// the filter that picks the row groups (and files) it reads.
func (s *Stmt) rewritePlan(p *plan.Planner, withReads bool) (*writeShow, error) {
	var tables sqlparser.TableExprs
	var where *sqlparser.Where
	var up *sqlparser.Update
	verb := "DELETE FROM"
	switch a := parse.CloneAST(s.AST).(type) {
	case *sqlparser.Update:
		if err := updateForm(a); err != nil {
			return nil, err
		}
		up, tables, where, verb = a, a.TableExprs, a.Where, "UPDATE"
	case *sqlparser.Delete:
		if err := deleteForm(a); err != nil {
			return nil, err
		}
		tables, where = a.TableExprs, a.Where
	}
	te, tn, err := dmlTableExpr(strings.Fields(verb)[0], tables)
	if err != nil {
		return nil, err
	}
	tgt, err := s.e.explainTarget(qualifiedTable(tn), stmtOf(p).tx)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), tn.Name.String())
	}
	w := s.e.newWrite(verb, tgt)
	if where != nil {
		w.where = sqlparser.String(where.Expr)
	}
	w.returning = returningText(s.Src, s.returning)
	items := sqlparser.SelectExprs{&sqlparser.StarExpr{}}
	if up != nil {
		if items, _, err = s.updateSet(tgt, te, up); err != nil {
			return nil, err
		}
		for _, ue := range up.Exprs {
			w.cols = append(w.cols, sqlparser.String(ue))
		}
	}
	keyed := hasKeys(tgt)
	if keyed && (w.kind == "folder" || w.kind == "hive") {
		return nil, unsupported(strings.Fields(verb)[0] + " of a folder table with keys")
	}
	sh := &writeShow{w: w, lines: []string{rewriteHow(w.kind, up != nil, where != nil, keyed)}}
	if !withReads {
		return sh, nil
	}
	if where != nil && !keyed {
		// What picks the row groups (and files) the rewrite reads, as
		// rewriteScope finds it (dml.go).
		qp := p.Child(p.Src)
		filter, err := pushedFilter(qp, te, where, func(t *scan.Table) bool { return t != nil && t.Path == tgt.path })
		qp.ReleaseAll()
		if err != nil {
			return nil, err
		}
		if filter != nil {
			sh.lines = append(sh.lines, pushedLine(filter))
		}
	}
	sel, err := flaggedSelect(items, where, sqlparser.TableExprs{te})
	if err != nil {
		return nil, err
	}
	sp, err := p.PlanSelect(sel, nil)
	if err != nil {
		return nil, err
	}
	w.in = sp.Tree
	sh.addPlan(s.e.root, sp)
	return sh, nil
}

// rewriteHow says how an UPDATE, DELETE or MERGE (update: it may write
// new versions of rows) writes a table of the kind: where says whether
// a WHERE picks the row groups read, keyed whether the table has keys
// (checked over its new contents, read whole).
func rewriteHow(kind string, update, where, keyed bool) string {
	switch {
	case kind == "Delta" && update:
		return "deletion vectors mark the rows matched; their new versions go to a new data file"
	case kind == "Delta":
		return "deletion vectors mark the rows matched; no data file is rewritten"
	case keyed:
		return "rewrites the file whole; its keys are checked over its new contents"
	case kind == "folder" || kind == "hive":
		if !where {
			return "rewrites every file"
		}
		return "rewrites the files whose row groups the WHERE may match; the others are kept"
	case !where:
		return "rewrites the file"
	}
	return "rewrites the file; row groups the WHERE cannot match are copied as stored"
}

// hasKeys reports whether the table has keys a rewrite checks over its
// whole new contents (dml.go's rewriteTable).
func hasKeys(tgt *target) bool { return constraintsOf(tgt.opts).hasKeys() }

// mergePlan is writePlan of a MERGE: its join of the target's rows to
// the source's.
func (s *Stmt) mergePlan(p *plan.Planner, withReads bool) (*writeShow, error) {
	m := s.merge
	tgt, err := s.e.explainTarget(m.target, stmtOf(p).tx)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), m.target)
	}
	w := s.e.newWrite("MERGE INTO", tgt)
	for _, c := range m.clauses {
		w.clauses = append(w.clauses, m.clauseText(c))
	}
	w.returning = returningText(s.Src, m.returning)
	join := &lMergeJoin{on: "using: " + strings.Join(m.using, ", ")}
	if m.using == nil {
		join.on = "on: " + m.exprText(m.on)
	}
	w.in = join
	sh := &writeShow{w: w, join: join.Explain()}
	if !m.updates() {
		sh.lines = append(sh.lines, "appends the rows inserted")
	} else {
		sh.lines = append(sh.lines, rewriteHow(w.kind, true, false, hasKeys(tgt)))
	}
	if !withReads {
		return sh, nil
	}
	sel := &sqlparser.Select{SelectExprs: sqlparser.SelectExprs{&sqlparser.StarExpr{}},
		From: sqlparser.TableExprs{&sqlparser.AliasedTableExpr{Expr: sqlparser.TableName{Name: sqlparser.NewTableIdent(m.target)}}}}
	tp, err := p.PlanSelect(sel, nil)
	if err != nil {
		return nil, err
	}
	join.target = tp.Tree
	sh.addPlan(s.e.root, tp)
	srcP := p.Child(m.source.Src)
	defer srcP.ReleaseAll()
	sp, err := m.source.Plan(srcP)
	if err != nil {
		return nil, err
	}
	join.source = sp.Tree
	sh.addPlan(s.e.root, sp)
	return sh, nil
}

// exprText is the text of the MERGE's expression i.
func (m *mergeSpec) exprText(i int) string {
	if i < 0 || m.exprs == nil {
		return ""
	}
	items := m.exprs.AST.(*sqlparser.Select).SelectExprs
	if i >= len(items) {
		return ""
	}
	return sqlparser.String(items[i])
}

// clauseText is a WHEN clause as EXPLAIN shows it.
func (m *mergeSpec) clauseText(c *mergeClause) string {
	var b strings.Builder
	b.WriteString(c.when.String())
	if c.cond >= 0 {
		b.WriteString(" AND " + m.exprText(c.cond))
	}
	b.WriteString(" THEN ")
	switch c.action {
	case mergeUpdate:
		b.WriteString("UPDATE")
		if len(c.cols) > 0 {
			b.WriteString(" SET " + strings.Join(c.cols, ", "))
		}
	case mergeDelete:
		b.WriteString("DELETE")
	case mergeInsert:
		b.WriteString("INSERT")
		if len(c.cols) > 0 {
			b.WriteString(" (" + strings.Join(c.cols, ", ") + ")")
		}
	case mergeNothing:
		b.WriteString("DO NOTHING")
	case mergeError:
		b.WriteString("ERROR")
	}
	return b.String()
}

// writeTrace collects, under EXPLAIN ANALYZE, what a write read: the
// plans of its queries with their figures, and the row groups and files
// its rewrites read or kept as they were.
type writeTrace struct {
	mu    sync.Mutex
	root  string
	reads []string
	// hidden counts the reads past maxTracedReads, and their rows.
	hidden, hiddenRows int64
	// files are the files a folder rewrite looked at, filesRead those it
	// rewrote; groups and groupsRead the same for the row groups of the
	// files it looked at.
	files, filesRead, groups, groupsRead int
	// pushed is the line of the filter that picked them ("" for none).
	pushed string
}

// maxTracedReads bounds the plans EXPLAIN ANALYZE shows of a write (a
// Delta table's are one per data file).
const maxTracedReads = 16

type writeTraceKey struct{}

func writeTraceOf(ctx context.Context) *writeTrace {
	t, _ := ctx.Value(writeTraceKey{}).(*writeTrace)
	return t
}

// traceRead instruments sp's operators when the write runs under EXPLAIN
// ANALYZE; the plan with their figures is kept when it closes, under a
// line what when what is not "".
func traceRead(ctx context.Context, sp *plan.SelectPlan, what string) {
	if t := writeTraceOf(ctx); t != nil {
		prof := kernels.NewProfile()
		sp.Root = &tracedNode{Node: prof.Wrap(sp.Root), t: t, what: what}
	}
}

// tracedNode is a read of a write under EXPLAIN ANALYZE.
type tracedNode struct {
	plan.Node
	t    *writeTrace
	what string
	rows int64
	done bool
}

func (n *tracedNode) Next(ctx context.Context) (*Batch, error) {
	b, err := n.Node.Next(ctx)
	if b != nil {
		n.rows += int64(b.N)
	}
	return b, err
}

func (n *tracedNode) Close() {
	n.Node.Close()
	if n.done {
		return
	}
	n.done = true
	t := n.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.reads) >= maxTracedReads {
		t.hidden++
		t.hiddenRows += n.rows
		return
	}
	x := &plan.Explainer{Analyze: true, Root: t.root}
	depth := 0
	if n.what != "" {
		x.Line(0, "%s", n.what)
		depth = 1
	}
	n.Node.Explain(x, depth)
	t.reads = append(t.reads, x.String())
}

// fileLabel is the line EXPLAIN ANALYZE shows over the reads of the
// table of one data file ft ("" when the write is not traced).
func (t *writeTrace) fileLabel(ft *scan.Table) string {
	if t == nil || len(ft.Files) != 1 {
		return ""
	}
	x := &plan.Explainer{Root: t.root}
	return "DATA FILE " + x.Rel(ft.Files[0].Path)
}

// pushedLine is the line that shows the filter that picks the row groups
// (and files) a rewrite reads.
func pushedLine(filter scan.Predicate) string {
	return "reads only what may match: " + filter.String()
}

// pushedFilter keeps the line of the filter a rewrite picks its row
// groups by (none for nil).
func (t *writeTrace) pushedFilter(filter scan.Predicate) {
	if t == nil || filter == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pushed = pushedLine(filter)
}

// rowGroups counts the row groups of one file a rewrite looked at, and
// those it reads (may).
func (t *writeTrace) rowGroups(may []bool) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.files++
	if anyTrue(may) {
		t.filesRead++
	}
	for _, m := range may {
		t.groups++
		if m {
			t.groupsRead++
		}
	}
}

// figures are the lines of what the rewrites read or kept.
func (t *writeTrace) figures() []string {
	var lines []string
	if t.pushed != "" {
		lines = append(lines, t.pushed)
	}
	if t.files == 0 {
		return lines
	}
	line := fmt.Sprintf("row groups %d (read %d, kept as stored %d)", t.groups, t.groupsRead, t.groups-t.groupsRead)
	if t.files > 1 {
		line = fmt.Sprintf("files %d (rewritten %d, kept %d), ", t.files, t.filesRead, t.files-t.filesRead) + line
	}
	return append(lines, line)
}

// moreText is the line of the reads not shown ("" when all are).
func (t *writeTrace) moreText() string {
	if t.hidden == 0 {
		return ""
	}
	return fmt.Sprintf("... %d more reads like these, %d rows", t.hidden, t.hiddenRows)
}

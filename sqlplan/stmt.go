package sqlplan

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

type stmtKind uint8

const (
	kindSelect stmtKind = iota
	kindExplain
	kindDescribe
	kindDescribeQuery
	kindShowTables
	kindInsert
	kindCreate
	kindCreateAs
	kindDrop
	kindCreateView // CREATE [OR REPLACE] VIEW
	kindDropView   // DROP VIEW [IF EXISTS]
	kindSetOp      // SELECT ... INTERSECT|EXCEPT [ALL] SELECT ...
	kindDelete
	kindUpdate
	kindCopy // COPY (query) TO 'file.parquet': CREATE OR REPLACE TABLE AS
	kindAlter
	kindSequence  // CREATE / DROP SEQUENCE
	kindSet       // SET, RESET, PRAGMA name = value (settings.go)
	kindOptimize  // OPTIMIZE t (optimize.go)
	kindVacuum    // VACUUM t [RETAIN n HOURS [FORCE]] [DRY RUN] (vacuum.go)
	kindMacro     // CREATE MACRO / FUNCTION
	kindDropMacro // DROP MACRO / FUNCTION
	kindMerge     // MERGE INTO (merge.go)
	kindSession   // PREPARE, DEALLOCATE, CHECKPOINT, INSTALL, LOAD, ANALYZE (session_stmts.go)
	kindExecute   // EXECUTE name[(args)] (session_stmts.go)
	kindSummarize // SUMMARIZE table | query (summarize.go)
	kindExport    // EXPORT / IMPORT DATABASE (export.go)
	kindAttach    // ATTACH / DETACH (attach.go)
	kindType      // CREATE / DROP TYPE (enumtypes.go)
)

// Stmt is a prepared statement: parsed once, planned at every execution
// (arguments take part in constant folding and pushdown).
type Stmt struct {
	e    *Engine
	kind stmtKind
	// parsed is the statement's source and syntax tree, and a SELECT's or
	// an INTERSECT / EXCEPT's form as the planner plans it (query.go).
	plan.Parsed
	table   string // DESCRIBE, DROP, CREATE
	analyze bool
	inner   *Stmt // EXPLAIN's statement, CREATE TABLE AS's query
	create  *createSpec
	export  *exportSpec  // EXPORT / IMPORT DATABASE
	csvOut  *csvCopySpec // COPY ... TO a CSV file (csvcopy.go)
	attach  *attachSpec  // ATTACH / DETACH
	ifMod   bool         // DROP IF EXISTS / CREATE IF NOT EXISTS
	// view is CREATE VIEW's definition (replace: OR REPLACE).
	view    *view
	replace bool
	// macro is CREATE MACRO's definition, or DROP MACRO's name and kind;
	// probes are its bodies to plan when it runs (checkMacroBody).
	macro  *macro
	probes []*Stmt
	// utype is CREATE TYPE's type, or DROP TYPE's name (enumtypes.go).
	utype *userType
	alter *alterSpec
	temp  bool // CREATE TEMP TABLE
	// CREATE / DROP SEQUENCE
	seqName string
	seq     *sequence
	seqDrop bool
	// defaultValues: INSERT INTO t DEFAULT VALUES.
	defaultValues bool
	// ignoreConflicts: INSERT OR IGNORE / ON CONFLICT DO NOTHING skip the
	// rows whose key is taken (constraints.go).
	ignoreConflicts bool
	// replaceConflicts: INSERT OR REPLACE replaces the rows whose key the
	// new rows take (constraints.go, replaceRows).
	replaceConflicts bool
	// upsert: ON CONFLICT [(cols)] DO UPDATE SET ... [WHERE ...].
	upsert *upsertSpec
	// byName: INSERT INTO t BY NAME SELECT ...
	byName bool
	// set is a SET or RESET of a setting.
	set *setSpec
	// vacuum is VACUUM's retention and options.
	vacuum *vacuumSpec
	// merge is MERGE INTO's target, source and clauses.
	merge *mergeSpec
	// returning is an INSERT, UPDATE or DELETE's RETURNING list
	// (dml_returning.go), nil without.
	returning []parse.Token

	// jsonCopy is COPY ... TO a JSON file's options (jsoncopy.go).
	jsonCopy *jsonCopySpec
	// action is what a kindSession statement does; execArgs the text of
	// EXECUTE's argument expressions (execArgCount of them).
	action       sessionAction
	execArgs     string
	execArgCount int
	// summarized is SUMMARIZE's query as text (s.inner prepared).
	summarized string
	// views, for a statement that read views, rebinds it when they
	// change (rebind.go).
	views *viewBinding
}

// Split splits SQL text into statements at semicolons outside quotes and
// comments.
func Split(text string) ([]string, error) {
	stmts, _, err := parse.SplitStatements(text)
	return stmts, err
}

// Prepare parses one statement.
func (e *Engine) Prepare(text string) (*Stmt, error) {
	return e.PrepareContext(context.Background(), text)
}

// PrepareContext parses one statement; the parse stops with ctx's error
// once ctx is done. The statement's length and nesting are checked
// against the engine's SQLLimits first, in one linear pass.
func (e *Engine) PrepareContext(ctx context.Context, text string) (_ *Stmt, err error) {
	return e.PrepareTx(ctx, text, nil)
}

// PrepareTx is PrepareContext in transaction tx (nil: none): a statement
// sees the views as the transaction made them. One prepared in a
// transaction that created or dropped views is not kept for reuse.
func (e *Engine) PrepareTx(ctx context.Context, text string, tx *Tx) (_ *Stmt, err error) {
	defer recoverInternal(&err)
	if err := checkLimits(text, e.opts.SQL); err != nil {
		return nil, err
	}
	if err := e.refreshCatalog(); err != nil {
		return nil, err
	}
	if len(tx.viewStmts()) > 0 {
		return e.prepareContext(ctx, text, tx)
	}
	// Statements are immutable once prepared: repeated texts (database/sql
	// without Prepare) reuse the parse.
	e.mu.Lock()
	if st, ok := e.stmts[text]; ok {
		e.mu.Unlock()
		return st, nil
	}
	e.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := e.prepareContext(ctx, text, nil)
	if err == nil && len(text) < 1<<16 {
		e.mu.Lock()
		if len(e.stmts) >= 512 {
			clear(e.stmts)
		}
		e.stmts[text] = st
		e.mu.Unlock()
	}
	return st, err
}

func (e *Engine) prepare(text string) (*Stmt, error) {
	return e.prepareContext(context.Background(), text, nil)
}

// prepareContext checks ctx between the stages of the parse: each is
// linear, or bounded by the SQLLimits checkLimits enforced, so a done
// context stops the work within one stage.
func (e *Engine) prepareContext(ctx context.Context, text string, tx *Tx) (*Stmt, error) {
	stmts, _, err := parse.SplitStatements(text)
	if err != nil {
		return nil, err
	}
	if len(stmts) == 0 {
		return nil, errorf("empty statement")
	}
	if len(stmts) > 1 {
		return nil, errorf("%d statements given where one is expected (Exec runs several)", len(stmts))
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	all, err := parse.Lex(text)
	if err != nil {
		return nil, err
	}
	toks := parse.Significant(all)
	if n := len(toks); n > 0 && toks[n-1].Kind == parse.Op && toks[n-1].Text == ";" {
		toks = toks[:n-1]
	}
	if err := refuseMarkers(text, toks); err != nil {
		return nil, err
	}
	toks = e.threePartNames(keywordNames(toks))
	if toks, err = describeSubqueries(text, toks); err != nil {
		return nil, err
	}
	gen := e.viewsGeneration() // before the views are read: a change meanwhile rebinds
	unviewed := len(toks)
	if !isViewCreate(toks) {
		if toks, err = e.substituteViews(toks, tx); err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := e.prepareTokens(withViewsOf(ctx, tx), text, toks)
	if err != nil {
		return nil, err
	}
	// A view's query replaced its name (a longer list of tokens): the
	// statement is prepared again when the views change (rebind.go).
	st.bindViews(gen, tx, text, len(toks) != unviewed)
	return st, nil
}

func (e *Engine) prepareTokens(ctx context.Context, text string, toks []parse.Token) (*Stmt, error) {
	s := &Stmt{e: e}
	if len(toks) == 0 {
		return nil, errorf("empty statement")
	}
	var err error
	if !toks[0].Is("create") {
		// Macro calls are expanded first; CREATE VIEW, CREATE MACRO and
		// CREATE TABLE AS expand their queries themselves (a view or a
		// macro keeps its calls, so that it sees the macros of the time
		// it is used).
		if toks, err = e.expandMacros(text, toks); err != nil {
			return nil, err
		}
	}
	toks, err = e.expandPivots(text, toks)
	if err != nil {
		return nil, err
	}
	if toks, err = plan.SampleTokens(text, toks); err != nil {
		return nil, err
	}
	toks = semiJoins(toks)
	if toks, err = plan.AsofJoins(text, toks); err != nil {
		return nil, err
	}
	toks = unionByName(toks)
	first := strings.ToLower(toks[0].Text)
	word := func(i int) string {
		if i < len(toks) && toks[i].Kind == parse.Ident {
			return strings.ToLower(toks[i].Text)
		}
		return ""
	}
	at := func(i int) *Error {
		pos := len(text)
		if i < len(toks) {
			pos = toks[i].Pos
		}
		return errAt(text, pos, "")
	}
	bad := func(i int, format string, args ...any) error {
		e := at(i)
		msg := errorf(format, args...)
		e.Msg = msg.Msg
		return e
	}
	refuse := func(i int, feature string) error {
		e := at(i)
		e.Msg = feature + " is not supported"
		e.Err = ErrUnsupported
		return e
	}
	// refuseAsDuckDB refuses a statement DuckDB refuses too, saying so.
	refuseAsDuckDB := func(i int, feature, why string) error {
		e := at(i)
		e.Msg = fmt.Sprintf("%s is not supported (%s)", feature, why)
		e.Err = ErrUnsupported
		return e
	}
	switch first {
	case "explain":
		s.kind = kindExplain
		k := 1
		if word(1) == "analyze" || word(1) == "analyse" {
			s.analyze = true
			k = 2
		}
		inner, err := e.prepareTokens(ctx, text, toks[k:])
		if err != nil {
			return nil, err
		}
		if inner.kind != kindSelect && inner.kind != kindSetOp && !inner.writes() {
			return nil, bad(k, "EXPLAIN takes a SELECT, INSERT, UPDATE, DELETE or MERGE")
		}
		s.inner = inner
		return s, nil
	case "describe", "desc":
		if word(1) == "select" || word(1) == "from" || word(1) == "with" || word(1) == "values" || len(toks) > 1 && toks[1].Text == "(" {
			inner, err := e.prepareTokens(ctx, text, toks[1:])
			if err != nil {
				return nil, err
			}
			s.kind, s.inner = kindDescribeQuery, inner
			return s, nil
		}
		name, end, ok := parse.QualifiedName(toks, 1)
		if !ok || end != len(toks) {
			return nil, bad(min(end, len(toks)), "DESCRIBE takes one table name")
		}
		s.kind, s.table = kindDescribe, name
		s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
		return s, nil
	case "show":
		switch {
		case word(1) == "tables" && len(toks) == 2:
			s.kind = kindShowTables
			return s, nil
		case word(1) == "columns" && (word(2) == "from" || word(2) == "in") && len(toks) == 4:
			s.kind, s.table = kindDescribe, toks[3].Name()
			s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
			return s, nil
		case word(1) == "all" && word(2) == "tables" && len(toks) == 3:
			return e.prepareText(ctx, showAllTables)
		case word(1) == "databases" && len(toks) == 2:
			return e.prepareText(ctx, showDatabases)
		case len(toks) == 2 && (toks[1].Kind != parse.Ident || e.tableExists(toks[1].Name()) || e.viewNamed(toks[1].Name()) != nil):
			// SHOW t is DESCRIBE t, as in DuckDB.
			s.kind, s.table = kindDescribe, toks[1].Name()
			s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
			return s, nil
		}
		return nil, refuse(0, "SHOW "+strings.ToUpper(word(1)))
	case "create":
		if isIndexStatement(toks) {
			return e.prepareIndex(s, text, toks) // index.go
		}
		if word(1) == "sequence" || word(1) == "or" && word(2) == "replace" && word(3) == "sequence" {
			return e.prepareSequence(s, text, toks, true)
		}
		if _, ok := isMacroCreate(toks); ok {
			return e.prepareMacro(ctx, s, text, toks)
		}
		if isTypeCreate(toks) {
			return e.prepareType(s, text, toks)
		}
		if st, ok, err := e.prepareView(ctx, s, text, toks); ok {
			return st, err
		}
		return e.prepareCreate(ctx, s, text, toks)
	case "drop":
		if isIndexStatement(toks) {
			return e.prepareIndex(s, text, toks) // index.go
		}
		if word(1) == "sequence" {
			return e.prepareSequence(s, text, toks, false)
		}
		if word(1) == "view" {
			return e.prepareDropView(s, text, toks)
		}
		if word(1) == "macro" || word(1) == "function" {
			return e.prepareDropMacro(s, text, toks)
		}
		if word(1) == "type" {
			return e.prepareType(s, text, toks)
		}
		if word(1) != "table" {
			return nil, refuse(0, "DROP "+strings.ToUpper(word(1)))
		}
		k := 2
		if word(2) == "if" && word(3) == "exists" {
			s.ifMod = true
			k = 4
		}
		name, end, ok := parse.QualifiedName(toks, k)
		if !ok || end != len(toks) {
			return nil, bad(k, "DROP TABLE takes one table name")
		}
		s.kind, s.table = kindDrop, name
		s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
		return s, nil
	case "update":
		if toks, err = cutReturning(text, toks, s); err != nil {
			return nil, err
		}
		if rewritten, ok := updateFrom(toks); ok {
			st, err := e.prepareTokens(ctx, text, rewritten)
			if err != nil || s.returning == nil {
				return st, err
			}
			st.returning = s.returning
			return st, st.checkDMLReturning(ctx)
		}
	case "delete":
		if toks, err = cutReturning(text, toks, s); err != nil {
			return nil, err
		}
	case "truncate":
		// TRUNCATE [TABLE] t is DELETE FROM t.
		k := 1
		if word(1) == "table" {
			k = 2
		}
		if len(toks) != k+1 {
			return nil, bad(k, "TRUNCATE takes one table name")
		}
		del := []parse.Token{{Kind: parse.Ident, Text: "delete", Pos: toks[0].Pos}, {Kind: parse.Ident, Text: "from", Pos: toks[0].Pos}, toks[k]}
		return e.prepareTokens(ctx, text, del)
	case "alter":
		return e.prepareAlter(s, text, toks)
	case "merge":
		return e.prepareMerge(ctx, s, text, toks, nil)
	case "replace", "upsert":
		return nil, refuse(0, strings.ToUpper(first))
	case "savepoint", "release":
		// DuckDB has no savepoints either: its parser refuses the word.
		return nil, refuseAsDuckDB(0, strings.ToUpper(first), "DuckDB has no savepoints either")
	case "begin", "start", "commit", "rollback", "end", "abort":
		if word(1) == "to" {
			return nil, refuseAsDuckDB(1, "ROLLBACK TO SAVEPOINT", "DuckDB has no savepoints either")
		}
		return nil, refuse(0, strings.ToUpper(first)+" as a statement (use the driver's transactions: db.BeginTx, tx.Commit, tx.Rollback)")
	case "copy":
		return e.prepareCopy(ctx, s, text, toks)
	case "set", "reset", "pragma":
		if st, ok, err := e.preparePragma(ctx, text, toks); ok {
			return st, err
		}
		return e.prepareSet(s, text, toks)
	case "optimize":
		return e.prepareOptimize(s, text, toks)
	case "vacuum":
		return e.prepareVacuum(s, text, toks)
	case "prepare", "execute", "deallocate", "checkpoint", "install", "load", "analyze", "analyse", "call", "use":
		return e.prepareSessionStmt(ctx, s, text, toks)
	case "force":
		if word(1) == "checkpoint" {
			return e.prepareSessionStmt(ctx, s, text, toks)
		}
		return nil, bad(0, "syntax error near %q", toks[0].Text)
	case "summarize":
		return e.prepareSummarize(ctx, s, text, toks)
	case "grant", "revoke":
		// DuckDB's parser refuses them too.
		return nil, refuseAsDuckDB(0, strings.ToUpper(first), "carquet, like DuckDB, has no users or privileges")
	case "lock", "unlock":
		return nil, refuseAsDuckDB(0, strings.ToUpper(first), "carquet, like DuckDB, takes the locks its writes need itself")
	case "export", "import":
		return e.prepareExport(s, text, toks)
	case "attach", "detach":
		return e.prepareAttach(s, text, toks)
	case "pivot", "unpivot":
		query := e.pivotQuery
		if first == "unpivot" {
			query = e.unpivotQuery
		}
		q, err := query(text, toks)
		if err != nil {
			return nil, err
		}
		return e.PrepareContext(ctx, q)
	case "from":
		return e.prepareTokens(ctx, text, fromFirst(toks))
	case "values":
		sel, err := parse.ValuesToSelect(text, toks)
		if err != nil {
			return nil, err
		}
		if sel[0].Is("values") {
			return nil, bad(1, "VALUES takes rows in parentheses: VALUES (1, 'a'), (2, 'b')")
		}
		return e.prepareTokens(ctx, text, sel)
	case "with":
		if k := mergeAfterWith(toks); k > 0 {
			return e.prepareMerge(ctx, s, text, toks[k:], toks[:k])
		}
		expanded, recs, err := expandCTEs(text, toks)
		if err != nil {
			return nil, err
		}
		st, err := e.prepareTokens(ctx, text, expanded)
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			st.setRecursive(recs)
		}
		return st, nil
	case "select", "(":
		if st, ok, err := e.prepareSetOp(ctx, text, toks); ok || err != nil {
			return st, err
		}
	case "insert":
		if toks, err = cutReturning(text, toks, s); err != nil {
			return nil, err
		}
		if toks, err = conflictClause(text, toks, s); err != nil {
			return nil, err
		}
	default:
		return nil, bad(0, "syntax error near %q", toks[0].Text)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	src, err := plan.RewriteTokens(text, toks)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.Src = src
	ast, err := sqlparser.Parse(src.Text)
	if err != nil {
		return nil, src.ParseError(err)
	}
	s.AST = ast
	switch a := ast.(type) {
	case sqlparser.SelectStatement:
		s.kind = kindSelect
	case *sqlparser.Insert:
		if a.Action != sqlparser.InsertStr {
			return nil, refuse(0, "REPLACE")
		}
		if len(a.OnDup) > 0 {
			return nil, refuse(0, "ON DUPLICATE KEY UPDATE")
		}
		if a.Ignore != "" {
			return nil, refuse(0, "INSERT IGNORE")
		}
		s.kind = kindInsert
	case *sqlparser.Delete:
		s.kind = kindDelete
	case *sqlparser.Update:
		s.kind = kindUpdate
	default:
		return nil, bad(0, "unsupported statement")
	}
	return s, s.checkDMLReturning(ctx)
}

// Returns reports whether the statement produces rows.
func (s *Stmt) Returns() bool {
	switch s.kind {
	case kindSelect, kindExplain, kindDescribe, kindDescribeQuery, kindShowTables, kindSetOp, kindSummarize:
		return true
	case kindMerge:
		return s.merge.returning != nil
	case kindInsert, kindUpdate, kindDelete:
		return s.returning != nil
	}
	return false
}

// Rows is a running query's result.
type Rows struct {
	cols   []Column
	root   plan.Node
	ctx    context.Context
	p      *plan.Planner
	first  *Batch
	err    error
	closed bool
}

// Columns describes the result columns.
func (r *Rows) Columns() []Column { return r.cols }

// Next returns the next batch of rows, or io.EOF.
func (r *Rows) Next() (b *Batch, err error) {
	defer recoverInternal(&err)
	if r.closed {
		return nil, io.EOF
	}
	if r.first != nil {
		b := r.first
		r.first = nil
		return b, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	for {
		b, err := r.root.Next(r.ctx)
		if err != nil {
			r.err = err
			if err != io.EOF {
				if ce := r.ctx.Err(); ce != nil {
					r.err = ce
				}
			}
			return nil, r.err
		}
		if b.N > 0 {
			return b, nil
		}
	}
}

// Close ends the query and releases its files.
func (r *Rows) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	if r.root != nil {
		r.root.Close()
	}
	if r.p != nil {
		r.p.ReleaseAll()
	}
	return nil
}

// Query runs a statement that returns rows. The first batch is fetched
// before Query returns, so that errors show here.
func (s *Stmt) Query(ctx context.Context, args []Arg) (*Rows, error) {
	return s.QueryTx(ctx, args, nil)
}

// QueryTx is Query in a transaction (nil: none): the statement reads each
// table as the transaction first read it (see Tx).
func (s *Stmt) QueryTx(ctx context.Context, args []Arg, tx *Tx) (*Rows, error) {
	return s.queryTx(ctx, args, tx, nil)
}

func (s *Stmt) queryTx(ctx context.Context, args []Arg, tx *Tx, sess *Session) (_ *Rows, err error) {
	defer recoverInternal(&err)
	if s.kind == kindExecute {
		st, stArgs, err := s.executeTarget(ctx, args, tx, sess)
		if err != nil {
			return nil, err
		}
		return st.queryTx(ctx, stArgs, tx, sess)
	}
	if st, err := s.rebound(ctx, tx); err != nil || st != s {
		if err != nil {
			return nil, err
		}
		return st.queryTx(ctx, args, tx, sess)
	}
	if s.Src != nil {
		s.e.warmRemote(s.Src.Orig)
	}
	set := s.e.settingsFor(sess)
	ctx = plan.WithQueryMemory(ctx, set.MemLimit) // memory.go
	p := &plan.Planner{Cat: &stmtCatalog{e: s.e, tx: tx, sess: sess}, Src: s.Src, Args: args, Ctx: ctx, Set: set}
	var rows *Rows
	switch s.kind {
	case kindSummarize:
		rows, err = s.summarize(ctx, p, sess)
	case kindMerge:
		rows, err = s.mergeReturning(ctx, args, tx, sess, p)
	case kindInsert, kindUpdate, kindDelete:
		rows, err = s.dmlReturning(ctx, args, tx, sess, p) // dml_returning.go
	case kindExplain:
		if s.inner.writes() {
			rows, err = s.explainWrite(ctx, args, tx, sess, p) // explain_dml.go
			break
		}
		rows, err = s.query(ctx, p)
	default:
		rows, err = s.query(ctx, p)
	}
	if err != nil {
		p.ReleaseAll()
		return nil, err
	}
	b, err := rows.Next()
	if err != nil && err != io.EOF {
		rows.Close()
		return nil, err
	}
	if err == nil {
		rows.first = b
	}
	return rows, nil
}

func (s *Stmt) query(ctx context.Context, p *plan.Planner) (*Rows, error) {
	switch s.kind {
	case kindSelect, kindSetOp:
		sp, err := s.Plan(p)
		if err != nil {
			return nil, err
		}
		return &Rows{cols: sp.Cols, root: sp.Root, ctx: ctx, p: p}, nil
	case kindExplain:
		return s.explain(ctx, p)
	case kindDescribe:
		return s.describe(p)
	case kindDescribeQuery:
		ip := p.Child(s.inner.Src)
		sp, err := s.inner.Plan(ip)
		if err != nil {
			ip.ReleaseAll()
			return nil, err
		}
		sp.Root.Close()
		ip.ReleaseAll()
		return describeRows(ctx, sp.Cols), nil
	case kindShowTables:
		// DuckDB's SHOW TABLES lists the views too, sorted by name.
		names := append(stmtOf(p).TableNames(), stmtOf(p).ViewNames()...)
		sort.Strings(names)
		b := plan.NewBuilder(plan.TString, len(names))
		for _, t := range names {
			b.Add(t)
		}
		return constRows(ctx, []Column{{Name: "name", Type: plan.TString}}, []*Col{b.C}), nil
	}
	return nil, errorf("the statement does not return rows (use Exec)")
}

func constRows(ctx context.Context, cols []Column, data []*Col) *Rows {
	n := 0
	if len(data) > 0 {
		n = data[0].Len
	}
	return &Rows{cols: cols, root: &kernels.Const{Batches: []*Batch{{N: n, Cols: data}}}, ctx: ctx}
}

// describe is DESCRIBE of a table or a view (describe.go).
func (s *Stmt) describe(p *plan.Planner) (*Rows, error) {
	c, err := describeCatalog(p, s.table)
	if err != nil {
		return nil, s.Src.Locate(plan.AsError(err), s.table)
	}
	return catalogRowsResult(p.Ctx, c), nil
}

// describeRows is DESCRIBE of a query's columns.
func describeRows(ctx context.Context, cols []Column) *Rows {
	var ent catalogEntry
	for _, c := range cols {
		ent.cols = append(ent.cols, catalogColumn{name: c.Name, t: c.Type, notNull: !c.Nullable})
	}
	c := &plan.CatalogRows{}
	describeEntry(c, ent)
	return catalogRowsResult(ctx, c)
}

// explain plans the inner query and prints its plan; EXPLAIN ANALYZE runs
// it first and adds what the scans read and pruned and each operator's
// rows, time and memory (analyze.go).
func (s *Stmt) explain(ctx context.Context, p *plan.Planner) (*Rows, error) {
	ip := p.Child(s.inner.Src)
	defer ip.ReleaseAll()
	sp, err := s.inner.Plan(ip)
	if err != nil {
		return nil, err
	}
	x := &plan.Explainer{Analyze: s.analyze, Root: s.e.root}
	var rowsOut int
	if s.analyze {
		sp.Root = kernels.NewProfile().Wrap(sp.Root)
		for {
			b, err := sp.Root.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				sp.Root.Close()
				return nil, err
			}
			rowsOut += b.N
		}
	}
	sp.Root.Close()
	sp.Root.Explain(x, 0)
	if s.analyze {
		x.Line(0, "rows returned: %d", rowsOut)
	}
	return planRows(ctx, x), nil
}

// planRows is EXPLAIN's result: the plan x wrote, a row per line.
func planRows(ctx context.Context, x *plan.Explainer) *Rows {
	b := plan.NewBuilder(plan.TString, 16)
	for _, l := range strings.Split(strings.TrimRight(x.String(), "\n"), "\n") {
		b.Add(l)
	}
	return constRows(ctx, []Column{{Name: "plan", Type: plan.TString}}, []*Col{b.C})
}

// Result is what a statement without rows did.
type Result struct {
	RowsAffected int64
}

// recoverInternal turns a panic in the engine into an error, so that a
// bug never takes down the program.
func recoverInternal(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("carquet: internal error: %v\n%s", r, debug.Stack())
	}
}

// markerPrefix starts the names the rewrite layer gives its markers
// (__carquet_window__, ...).
const markerPrefix = "__carquet_"

// refuseMarkers refuses a statement that names one of the rewrite layer's
// markers itself: they are carquet's own, and a user's call of one would
// reach the binder as if the rewrite had made it.
func refuseMarkers(text string, toks []parse.Token) error {
	for _, t := range toks {
		if t.Kind == parse.Ident && len(t.Text) > len(markerPrefix) && strings.EqualFold(t.Text[:len(markerPrefix)], markerPrefix) {
			return errAt(text, t.Pos, "%s is a name reserved for carquet's own use", t.Text)
		}
	}
	return nil
}

package sqlplan

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// Statements DuckDB users paste that act on the session or on the engine
// rather than on rows, as DuckDB has them:
//
//   - PREPARE name AS statement, EXECUTE name[(args)], DEALLOCATE
//     [PREPARE] name: statements kept by name in the connection's session,
//     never in a transaction's state (a ROLLBACK keeps them, as in DuckDB).
//     An EXECUTE's arguments are expressions, evaluated once per EXECUTE
//     and bound to the statement's $n and ? placeholders with their own
//     types.
//   - CHECKPOINT and FORCE CHECKPOINT. DuckDB's moves its write-ahead log
//     into the database file. carquet has no log: a committed statement's
//     files are already written and renamed into place, so a checkpoint
//     only waits for the writes of the engine under way to end, after
//     which what they wrote is in the tables' files. In a transaction it
//     waits for nothing (the transaction's own writes wait for COMMIT).
//   - INSTALL / LOAD of the extensions whose work carquet does itself
//     (builtinExtensions) succeed and do nothing; any other extension is
//     an error that names it.
//   - CALL f(args) is SELECT * FROM f(args).
//   - USE of carquet's one catalog or schema (information_schema names
//     them "carquet" and "main") changes nothing; any other name is
//     DuckDB's error (ATTACH, which would add catalogs, is refused).
//   - ANALYZE [table]: DuckDB gathers statistics for its optimizer;
//     carquet's are the Parquet footers' and page indexes', written with
//     the data, so ANALYZE only checks that the table exists.

// builtinExtensions are the DuckDB extensions whose functions carquet
// has built in: INSTALL and LOAD of them are no-ops.
var builtinExtensions = []string{"core_functions", "delta", "httpfs", "json", "parquet"}

// sessionAction is what a statement of kindSession does when it runs.
type sessionAction uint8

const (
	actPrepare    sessionAction = iota // keep s.inner as s.table
	actDeallocate                      // forget s.table
	actCheckpoint                      // wait for the engine's writes
	actNothing                         // INSTALL, LOAD, ANALYZE, USE: checked when prepared
)

// prepareSessionStmt prepares PREPARE, EXECUTE, DEALLOCATE, CHECKPOINT,
// FORCE CHECKPOINT, INSTALL, LOAD, ANALYZE, CALL and USE; toks[0] is the
// first word.
func (e *Engine) prepareSessionStmt(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	r := stmtTokens{text: text, toks: toks}
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	s.kind = kindSession
	switch r.word(0) {
	case "prepare":
		return e.preparePrepare(ctx, s, r)
	case "execute":
		return prepareExecute(s, r)
	case "deallocate":
		k := 1
		if r.word(1) == "prepare" {
			k = 2
		}
		if k+1 != len(toks) || !parse.IsNameToken(toks[k]) {
			return nil, r.fail(k, "DEALLOCATE takes the name of a prepared statement")
		}
		s.action, s.table = actDeallocate, toks[k].Name()
		return s, nil
	case "force", "checkpoint":
		k := 1
		if r.word(0) == "force" {
			if r.word(1) != "checkpoint" {
				return nil, r.fail(0, "syntax error near %q", toks[0].Text)
			}
			k = 2
		}
		// CHECKPOINT name names a database: carquet's engine is the only one.
		if k < len(toks) {
			return nil, r.fail(k, "CHECKPOINT takes no database name here (the engine has one)")
		}
		s.action = actCheckpoint
		return s, nil
	case "install", "load":
		return prepareExtension(s, r)
	case "analyze", "analyse":
		if len(toks) > 2 {
			return nil, r.fail(2, "ANALYZE takes at most one table name")
		}
		if len(toks) == 2 && !e.tableExists(toks[1].Name()) {
			return nil, r.fail(1, "ANALYZE: table %s does not exist", toks[1].Name())
		}
		s.action = actNothing
		return s, nil
	case "call":
		return e.prepareCall(ctx, r)
	case "use":
		return prepareUse(s, r)
	}
	return nil, r.fail(0, "syntax error near %q", toks[0].Text)
}

// preparePrepare reads PREPARE name AS statement and prepares the
// statement now, so that its errors show at PREPARE as in DuckDB.
func (e *Engine) preparePrepare(ctx context.Context, s *Stmt, r stmtTokens) (*Stmt, error) {
	if len(r.toks) < 2 || !parse.IsNameToken(r.toks[1]) {
		return nil, r.fail(1, "PREPARE takes a name: PREPARE name AS statement")
	}
	if r.word(2) != "as" {
		return nil, r.fail(2, "expected AS after PREPARE %s", r.toks[1].Name())
	}
	if len(r.toks) == 3 {
		return nil, r.fail(3, "PREPARE %s AS needs a statement", r.toks[1].Name())
	}
	switch r.word(3) {
	case "prepare", "execute", "deallocate":
		return nil, r.fail(3, "PREPARE cannot prepare a %s statement", strings.ToUpper(r.word(3)))
	}
	inner, err := e.prepareTokens(ctx, r.text, r.toks[3:])
	if err != nil {
		return nil, err
	}
	inner.views = &viewBinding{text: r.text[r.toks[3].Pos:]} // its own text, should it read views (rebind.go)
	s.action, s.table, s.inner = actPrepare, r.toks[1].Name(), inner
	return s, nil
}

// prepareExecute reads EXECUTE name [(arg, ...)]; the arguments are
// kept as the text of one SELECT that computes them all (execArgs).
func prepareExecute(s *Stmt, r stmtTokens) (*Stmt, error) {
	if len(r.toks) < 2 || !parse.IsNameToken(r.toks[1]) {
		return nil, r.fail(1, "EXECUTE takes the name of a prepared statement")
	}
	s.kind, s.table = kindExecute, r.toks[1].Name()
	if len(r.toks) == 2 {
		return s, nil
	}
	open := r.toks[2]
	if open.Kind != parse.Op || open.Text != "(" {
		return nil, r.fail(2, "EXECUTE %s takes its arguments in parentheses", s.table)
	}
	end := parse.ClosingParen(r.toks, 2)
	if end < 0 {
		return nil, r.fail(2, "EXECUTE %s: unclosed parenthesis", s.table)
	}
	if end != len(r.toks)-1 {
		return nil, r.fail(end+1, "unexpected %q after EXECUTE's arguments", r.toks[end+1].Text)
	}
	if end > 3 {
		s.execArgs = r.text[r.toks[3].Pos:r.toks[end].Pos]
		s.execArgCount = len(parse.SplitList(r.toks[3:end]))
	}
	return s, nil
}

// prepareExtension checks INSTALL / LOAD name (also FORCE INSTALL and
// INSTALL name FROM repository): the extension must be one carquet has
// built in.
func prepareExtension(s *Stmt, r stmtTokens) (*Stmt, error) {
	verb := strings.ToUpper(r.word(0))
	if len(r.toks) < 2 || !parse.IsNameToken(r.toks[1]) && r.toks[1].Kind != parse.String {
		return nil, r.fail(1, "%s takes the name of an extension", verb)
	}
	if len(r.toks) > 2 && !(verb == "INSTALL" && r.word(2) == "from" && len(r.toks) == 4) {
		return nil, r.fail(2, "unexpected %q after %s %s", r.toks[2].Text, verb, r.toks[1].Text)
	}
	name := strings.ToLower(r.toks[1].Unquoted())
	if !slices.Contains(builtinExtensions, name) {
		e := errAt(r.text, r.toks[1].Pos, "%s %s: carquet has no extension %q (built in: %s)", verb, r.toks[1].Name(), name, strings.Join(builtinExtensions, ", "))
		e.Err = ErrUnsupported
		return nil, e
	}
	s.action = actNothing
	return s, nil
}

// prepareUse checks USE catalog | schema | catalog.schema.
func prepareUse(s *Stmt, r stmtTokens) (*Stmt, error) {
	var parts []string
	for k := 1; k < len(r.toks); k += 2 {
		if !parse.IsNameToken(r.toks[k]) || k+1 < len(r.toks) && (r.toks[k+1].Kind != parse.Op || r.toks[k+1].Text != ".") {
			return nil, r.fail(k, "USE takes a catalog or schema name")
		}
		parts = append(parts, strings.ToLower(r.toks[k].Name()))
	}
	name := strings.Join(parts, ".")
	switch name {
	case "carquet", "main", "carquet.main":
		s.action = actNothing
		return s, nil
	case "":
		return nil, r.fail(1, "USE takes a catalog or schema name")
	}
	return nil, errAt(r.text, r.toks[1].Pos, "USE: no catalog + schema named %q found (carquet has catalog \"carquet\" with schema \"main\"; ATTACH is not supported)", name)
}

// prepareCall prepares CALL f(args) as SELECT * FROM f(args).
func (e *Engine) prepareCall(ctx context.Context, r stmtTokens) (*Stmt, error) {
	if len(r.toks) < 3 || r.toks[1].Kind != parse.Ident || r.toks[2].Kind != parse.Op || r.toks[2].Text != "(" {
		return nil, r.fail(1, "CALL takes a table function call: CALL name(args)")
	}
	if end := parse.ClosingParen(r.toks, 2); end != len(r.toks)-1 {
		return nil, r.fail(max(end+1, 2), "CALL takes one table function call")
	}
	pos := r.toks[0].Pos
	sel := append([]parse.Token{{Kind: parse.Ident, Text: "select", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos},
		{Kind: parse.Ident, Text: "from", Pos: pos}}, r.toks[1:]...)
	return e.prepareTokens(ctx, r.text, sel)
}

// execSession runs a statement of kindSession in session sess.
func (s *Stmt) execSession(tx *Tx, sess *Session) error {
	if sess == nil {
		sess = s.e.sess0
	}
	switch s.action {
	case actPrepare:
		sess.setPrepared(strings.ToLower(s.table), s.inner)
	case actDeallocate:
		// DuckDB's DEALLOCATE of an unknown name succeeds.
		sess.setPrepared(strings.ToLower(s.table), nil)
	case actCheckpoint:
		if tx == nil {
			// A barrier: once the lock is had, the writes under way ended.
			s.e.writeMu.Lock()
			s.e.writeMu.Unlock()
		}
	}
	return nil
}

// setPrepared keeps (st non-nil) or forgets the prepared statement name.
func (s *Session) setPrepared(name string, st *Stmt) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st == nil {
		delete(s.prepared, name)
		return
	}
	if s.prepared == nil {
		s.prepared = map[string]*Stmt{}
	}
	s.prepared[name] = st
}

// preparedStmt is the statement PREPARE kept as name, nil if none.
func (s *Session) preparedStmt(name string) *Stmt {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.prepared[strings.ToLower(name)]
}

// In is the statement s runs in session sess (nil: the engine's own):
// for EXECUTE name the statement PREPARE kept as name (s itself when
// there is none, whose run then fails naming it), s otherwise. Returns,
// ChangesRows and Creates of an EXECUTE are those of In's answer.
func (s *Stmt) In(sess *Session) *Stmt {
	if s.kind != kindExecute {
		return s
	}
	if sess == nil {
		sess = s.e.sess0
	}
	if st := sess.preparedStmt(s.table); st != nil {
		return st
	}
	return s
}

// executeTarget is EXECUTE's prepared statement and its arguments,
// computed with the EXECUTE's own arguments in its transaction.
func (s *Stmt) executeTarget(ctx context.Context, args []Arg, tx *Tx, sess *Session) (*Stmt, []Arg, error) {
	st := s.In(sess)
	if st == s {
		return nil, nil, s.Src.Locate(errorf("prepared statement %q does not exist", s.table), s.table)
	}
	if s.execArgs == "" {
		return st, nil, nil
	}
	q, err := s.e.PrepareTx(ctx, "SELECT "+s.execArgs, tx)
	if err != nil {
		return nil, nil, err
	}
	rows, err := q.QuerySession(ctx, args, tx, sess)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	b, err := rows.Next()
	if err == io.EOF || err == nil && b.N == 0 {
		return nil, nil, errorf("EXECUTE %s: the arguments give no row", s.table)
	}
	if err != nil {
		return nil, nil, err
	}
	if len(b.Cols) != s.execArgCount {
		return nil, nil, errorf("EXECUTE %s takes one value per argument, not %d columns", s.table, len(b.Cols))
	}
	out := make([]Arg, len(b.Cols))
	for i, c := range b.Cols {
		out[i] = Arg{Ordinal: i + 1, Value: &plan.Variable{T: c.T, V: c.Get(0)}}
	}
	return st, out, nil
}

package sqlplan

import (
	"context"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// MERGE INTO, as DuckDB writes it:
//
//	[WITH ...] MERGE INTO target [[AS] t] USING source [[AS] s [(cols)]]
//	  ON cond | USING (cols)
//	  WHEN MATCHED [AND cond] THEN UPDATE [SET c = e, ... | SET *] | DELETE | INSERT ... | DO NOTHING | ERROR [msg]
//	  WHEN NOT MATCHED [BY TARGET] [AND cond] THEN INSERT [(cols)] VALUES (...) | INSERT [*] | INSERT BY NAME | DO NOTHING | ERROR [msg]
//	  WHEN NOT MATCHED BY SOURCE [AND cond] THEN UPDATE ... | DELETE | DO NOTHING | ERROR [msg]
//
// The parser lacks the statement: it is read here on tokens. The source
// becomes a query of its own (SELECT * FROM source, under the WITH), and
// every expression of the statement one item of a SELECT list, parsed
// once, so that errors point into the user's text; both are bound at each
// run (merge_exec.go).

// mergeWhen is the kind of a WHEN clause.
type mergeWhen uint8

const (
	whenMatched         mergeWhen = iota // a target row and a source row ON matches
	whenNotMatched                       // a source row no target row matches (BY TARGET)
	whenNotMatchedBySrc                  // a target row no source row matches (BY SOURCE)
)

func (w mergeWhen) String() string {
	switch w {
	case whenMatched:
		return "WHEN MATCHED"
	case whenNotMatched:
		return "WHEN NOT MATCHED"
	}
	return "WHEN NOT MATCHED BY SOURCE"
}

type mergeAction uint8

const (
	mergeUpdate mergeAction = iota
	mergeDelete
	mergeInsert
	mergeNothing
	mergeError
)

// mergeClause is one WHEN clause; its expressions are indexes into the
// statement's expression list (-1: none; a VALUES item DEFAULT is -1).
type mergeClause struct {
	when   mergeWhen
	cond   int
	action mergeAction
	star   bool     // UPDATE [SET *], INSERT [*]: the source's columns by position
	byName bool     // INSERT BY NAME: the source's columns by name
	cols   []string // SET's columns, INSERT's column list (nil: every column)
	vals   []int    // their values
	msg    int      // ERROR's message
}

// mergeSpec is a parsed MERGE.
type mergeSpec struct {
	target      string // the table's name
	alias       string // the name its columns go by
	source      *Stmt  // SELECT * FROM the source
	sourceAlias string
	using       []string // USING (cols); nil under ON
	on          int      // ON's expression
	exprs       *Stmt    // SELECT of every expression, nil when there is none
	clauses     []*mergeClause
	returning   []parse.Token // RETURNING's list (merge_returning.go), nil without
}

// updates reports whether the MERGE may change or delete target rows
// (otherwise it only adds rows, and appends them).
func (m *mergeSpec) updates() bool {
	for _, c := range m.clauses {
		if c.action == mergeUpdate || c.action == mergeDelete {
			return true
		}
	}
	return false
}

// mergeReader reads a MERGE's tokens.
type mergeReader struct {
	stmtTokens
	exprs [][]parse.Token // the statement's expressions, in order
}

// expr records the expression toks[a:b] and returns its index.
func (r *mergeReader) expr(a, b int) (int, error) {
	if a >= b {
		return -1, r.fail(a, "expected an expression")
	}
	r.exprs = append(r.exprs, r.toks[a:b])
	return len(r.exprs) - 1, nil
}

// top returns the first index from i on where one of words stands
// outside parentheses and CASE ... END (len(toks) when none does).
func (r *mergeReader) top(i int, words ...string) int {
	depth, cases := 0, 0
	for ; i < len(r.toks); i++ {
		t := r.toks[i]
		switch {
		case t.Kind == parse.Op && (t.Text == "(" || t.Text == "["):
			depth++
		case t.Kind == parse.Op && (t.Text == ")" || t.Text == "]"):
			depth--
		case depth > 0:
		case t.Is("case"):
			cases++
		case t.Is("end") && cases > 0:
			cases--
		case cases == 0 && t.Kind == parse.Ident:
			for _, w := range words {
				if t.Is(w) {
					return i
				}
			}
		}
	}
	return i
}

// name reads a table or alias name at toks[i] (a.b joined by a dot).
func (r *mergeReader) name(i int) (string, int, error) {
	if i >= len(r.toks) || r.toks[i].Kind != parse.Ident && r.toks[i].Kind != parse.Quoted && r.toks[i].Kind != parse.DQuoted && r.toks[i].Kind != parse.String {
		return "", i, r.fail(i, "expected a table name")
	}
	name := r.toks[i].Name()
	for i+2 < len(r.toks) && r.toks[i+1].Kind == parse.Op && r.toks[i+1].Text == "." {
		name += "." + r.toks[i+2].Name()
		i += 2
	}
	return name, i + 1, nil
}

// prepareMerge reads MERGE INTO at toks (with: the WITH clause before
// it, whose common table expressions the source may name).
func (e *Engine) prepareMerge(ctx context.Context, s *Stmt, text string, toks, with []parse.Token) (*Stmt, error) {
	toks, with = numberParams(toks, with)
	r := &mergeReader{stmtTokens: stmtTokens{text: text, toks: toks}}
	m := &mergeSpec{on: -1}
	if r.word(1) != "into" {
		return nil, r.fail(1, "expected INTO after MERGE")
	}
	name, i, err := r.name(2)
	if err != nil {
		return nil, err
	}
	m.target, m.alias = name, name[strings.LastIndexByte(name, '.')+1:]
	if r.word(i) == "as" {
		i++
	}
	if w := r.word(i); w != "" && w != "using" || i < len(toks) && (toks[i].Kind == parse.Quoted || toks[i].Kind == parse.DQuoted) {
		m.alias, i = toks[i].Name(), i+1
	}
	if r.word(i) != "using" {
		return nil, r.fail(i, "expected USING after MERGE INTO %s", name)
	}
	start := i + 1
	end := r.top(start, "on", "using")
	if end == len(toks) {
		return nil, r.fail(end, "expected ON or USING after the MERGE source")
	}
	if m.sourceAlias, err = r.sourceAlias(start, end); err != nil {
		return nil, err
	}
	src := append([]parse.Token(nil), with...)
	pos := toks[start].Pos
	src = append(src, parse.Token{Kind: parse.Ident, Text: "SELECT", Pos: pos}, parse.Token{Kind: parse.Op, Text: "*", Pos: pos}, parse.Token{Kind: parse.Ident, Text: "FROM", Pos: pos})
	src = append(src, toks[start:end]...)
	if toks[start].Kind == parse.Op && toks[start].Text == "(" && parse.ClosingParen(toks, start) == end-1 {
		// A derived table needs an alias; DuckDB names it so.
		src = append(src, parse.Token{Kind: parse.Ident, Text: "AS", Pos: pos}, parse.Token{Kind: parse.Ident, Text: m.sourceAlias, Pos: pos})
	}
	// The views as the statement's transaction sees them apply: the
	// source was not a FROM item when prepareContext substituted them.
	viewed, err := e.substituteViews(src, viewsOf(ctx))
	if err != nil {
		return nil, err
	}
	if m.source, err = e.prepareTokens(ctx, text, viewed); err != nil {
		return nil, err
	}
	if m.source.kind != kindSelect && m.source.kind != kindSetOp {
		return nil, r.fail(start, "MERGE takes a table, a subquery or VALUES as its source")
	}
	i = end
	if r.word(i) == "using" {
		cols, next, err := columnList(text, toks, i+1)
		if err != nil {
			return nil, err
		}
		m.using, i = cols, next
	} else {
		next := r.top(i+1, "when")
		if m.on, err = r.expr(i+1, next); err != nil {
			return nil, err
		}
		i = next
	}
	if i >= len(toks) {
		return nil, r.fail(i, "MERGE needs at least one WHEN clause")
	}
	unconditional := map[mergeWhen]bool{}
	for i < len(toks) {
		if r.word(i) == "returning" {
			if err := e.readReturning(ctx, text, toks, i, m); err != nil {
				return nil, err
			}
			break
		}
		c, next, err := r.clause(i)
		if err != nil {
			return nil, err
		}
		if c.cond < 0 {
			if unconditional[c.when] {
				return nil, r.fail(i, "Unconditional %s clause was already defined - only one unconditional %s clause is supported", c.when, c.when)
			}
			unconditional[c.when] = true
		}
		m.clauses = append(m.clauses, c)
		i = next
	}
	if len(r.exprs) > 0 {
		sel := []parse.Token{{Kind: parse.Ident, Text: "SELECT", Pos: toks[0].Pos}}
		for k, x := range r.exprs {
			if k > 0 {
				sel = append(sel, parse.Token{Kind: parse.Op, Text: ",", Pos: x[0].Pos})
			}
			sel = append(sel, x...)
		}
		if m.exprs, err = e.prepareTokens(ctx, text, sel); err != nil {
			return nil, err
		}
		if sl, ok := m.exprs.AST.(*sqlparser.Select); !ok || len(sl.SelectExprs) != len(r.exprs) {
			return nil, r.fail(0, "MERGE: an expression could not be read")
		}
	}
	s.kind, s.merge, s.Src = kindMerge, m, &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// sourceAlias is the name the source's columns go by: its alias, else a
// table's name, else unnamed_subquery (as DuckDB calls it).
func (r *mergeReader) sourceAlias(a, b int) (string, error) {
	toks := r.toks
	k := a
	if toks[k].Kind == parse.Op && toks[k].Text == "(" {
		if k = parse.ClosingParen(toks, k); k < 0 || k >= b {
			return "", r.fail(a, "unterminated parenthesis")
		}
		k++
	} else {
		var err error
		if _, k, err = r.name(k); err != nil {
			return "", err
		}
	}
	if k < b && toks[k].Is("as") {
		k++
	}
	if k < b && toks[k].Kind != parse.Op {
		return toks[k].Name(), nil
	}
	if toks[a].Kind == parse.Op {
		return "unnamed_subquery", nil
	}
	name, _, _ := r.name(a)
	return name[strings.LastIndexByte(name, '.')+1:], nil
}

// clause reads WHEN [NOT] MATCHED [BY TARGET|SOURCE] [AND cond] THEN
// action at toks[i] and returns where the next clause starts.
func (r *mergeReader) clause(i int) (*mergeClause, int, error) {
	c := &mergeClause{cond: -1, msg: -1}
	if r.word(i) != "when" {
		return nil, i, r.fail(i, "expected WHEN")
	}
	i++
	switch {
	case r.word(i) == "matched":
		c.when = whenMatched
		i++
	case r.word(i) == "not" && r.word(i+1) == "matched":
		c.when = whenNotMatched
		i += 2
		if r.word(i) == "by" {
			switch r.word(i + 1) {
			case "target":
			case "source":
				c.when = whenNotMatchedBySrc
			default:
				return nil, i, r.fail(i+1, "expected TARGET or SOURCE after WHEN NOT MATCHED BY")
			}
			i += 2
		}
	default:
		return nil, i, r.fail(i, "expected MATCHED or NOT MATCHED after WHEN")
	}
	then := r.top(i, "then")
	if then == len(r.toks) {
		return nil, i, r.fail(then, "expected THEN")
	}
	if r.word(i) == "and" {
		var err error
		if c.cond, err = r.expr(i+1, then); err != nil {
			return nil, i, err
		}
	} else if then != i {
		return nil, i, r.fail(i, "expected AND or THEN")
	}
	i = then + 1
	end := r.top(i, "when", "returning")
	var err error
	switch r.word(i) {
	case "update":
		c.action = mergeUpdate
		err = r.updateAction(c, i+1, end)
	case "delete":
		c.action = mergeDelete
		if i+1 != end {
			err = r.fail(i+1, "expected WHEN after DELETE")
		}
	case "insert":
		c.action = mergeInsert
		err = r.insertAction(c, i+1, end)
	case "do":
		c.action = mergeNothing
		if r.word(i+1) != "nothing" || i+2 != end {
			err = r.fail(i+1, "expected DO NOTHING")
		}
	case "error":
		c.action = mergeError
		if i+1 < end {
			c.msg, err = r.expr(i+1, end)
		}
	default:
		err = r.fail(i, "expected UPDATE, DELETE, INSERT, DO NOTHING or ERROR after THEN")
	}
	if err != nil {
		return nil, i, err
	}
	if c.when == whenNotMatched && (c.action == mergeUpdate || c.action == mergeDelete) {
		return nil, i, r.fail(i, "WHEN NOT MATCHED (BY TARGET) cannot be combined with UPDATE or DELETE actions - as there is no corresponding row in the target to update or delete")
	}
	return c, end, nil
}

// updateAction reads [SET c = e, ... | SET *] at toks[i:end].
func (r *mergeReader) updateAction(c *mergeClause, i, end int) error {
	if i == end {
		c.star = true
		return nil
	}
	if r.word(i) != "set" {
		return r.fail(i, "expected SET after UPDATE")
	}
	i++
	if i+1 == end && r.toks[i].Kind == parse.Op && r.toks[i].Text == "*" {
		c.star = true
		return nil
	}
	seen := map[string]bool{}
	for _, item := range parse.SplitList(r.toks[i:end]) {
		at := i
		i += len(item) + 1
		if len(item) >= 2 && item[1].Kind == parse.Op && item[1].Text == "." {
			return r.fail(at, "Qualified column names in UPDATE .. SET not supported")
		}
		if len(item) < 3 || item[1].Kind != parse.Op || item[1].Text != "=" {
			return r.fail(at, "UPDATE SET takes column = value items")
		}
		col := item[0].Name()
		if seen[strings.ToLower(col)] {
			return r.fail(at, "Multiple assignments to same column %q", col)
		}
		seen[strings.ToLower(col)] = true
		k, err := r.expr(at+2, at+len(item))
		if err != nil {
			return err
		}
		c.cols, c.vals = append(c.cols, col), append(c.vals, k)
	}
	return nil
}

// insertAction reads [* | BY NAME | [(cols)] VALUES (e, ...) | DEFAULT
// VALUES] at toks[i:end].
func (r *mergeReader) insertAction(c *mergeClause, i, end int) error {
	toks := r.toks
	switch {
	case i == end, i+1 == end && toks[i].Kind == parse.Op && toks[i].Text == "*":
		c.star = true
		return nil
	case r.word(i) == "by" && r.word(i+1) == "name" && i+2 == end:
		c.byName = true
		return nil
	case r.word(i) == "default" && r.word(i+1) == "values" && i+2 == end:
		c.cols = []string{}
		return nil
	}
	if toks[i].Kind == parse.Op && toks[i].Text == "(" {
		cols, next, err := columnList(r.text, toks, i)
		if err != nil {
			return err
		}
		c.cols, i = cols, next
	}
	if r.word(i) != "values" || i+1 >= end || toks[i+1].Kind != parse.Op || toks[i+1].Text != "(" || parse.ClosingParen(toks, i+1) != end-1 {
		return r.fail(i, "expected VALUES (...) after INSERT")
	}
	i += 2
	for _, item := range parse.SplitList(toks[i : end-1]) {
		if len(item) == 1 && item[0].Is("default") {
			c.vals = append(c.vals, -1)
		} else {
			k, err := r.expr(i, i+len(item))
			if err != nil {
				return err
			}
			c.vals = append(c.vals, k)
		}
		i += len(item) + 1
	}
	if c.cols != nil && len(c.cols) != len(c.vals) {
		return r.fail(i, "INSERT names %d columns but gives %d values", len(c.cols), len(c.vals))
	}
	return nil
}

// mergeAfterWith returns where MERGE starts in WITH ... MERGE INTO (0
// when the statement is not one): the first MERGE outside parentheses
// that follows a common table expression's closing parenthesis.
func mergeAfterWith(toks []parse.Token) int {
	at := 0
	parse.EachTopLevelWord(toks, func(k int, t parse.Token) bool {
		if t.Is("merge") && k > 0 && toks[k-1].Kind == parse.Op && toks[k-1].Text == ")" {
			at = k
		}
		return at == 0
	})
	return at
}

// numberParams gives each ? of a MERGE (and its WITH) its number as $n:
// the source and the expressions are prepared apart, and each would
// number its own ?s from 1.
func numberParams(toks, with []parse.Token) ([]parse.Token, []parse.Token) {
	n := 0
	number := func(ts []parse.Token) []parse.Token {
		out := append([]parse.Token(nil), ts...) // the caller's tokens stay as they are
		for k, t := range out {
			if t.Kind == parse.Param && t.Text == "?" {
				n++
				out[k].Text = "$" + strconv.Itoa(n)
			}
		}
		return out
	}
	with = number(with)
	return number(toks), with
}

package sqlplan

import (
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	// Named so: the tests' exec helper takes the package's own name.
)

// WITH: common table expressions expanded into the statement's tokens,
// set operations, trailing clauses and FROM-first statements.

// expandCTEs turns WITH a AS (q1), b AS (q2) SELECT ... into the SELECT
// with each reference to a CTE after FROM or JOIN replaced by the CTE's
// query as a derived table. Tokens keep their offsets, so errors still
// point into the user's text. A CTE used twice runs twice. A column list,
// a (x, y) AS (q), renames q's columns (parse.ColsMarker). Under WITH RECURSIVE,
// a CTE whose query names itself is returned apart and referred to by a
// marker table (recursive.go).
func expandCTEs(text string, toks []parse.Token) ([]parse.Token, []*plan.RecCTE, error) {
	fail := func(i int, format string, args ...any) error {
		return errAt(text, parse.TokPos(text, toks, i), format, args...)
	}
	i := 1
	recursive := false
	if i < len(toks) && toks[i].Is("recursive") {
		recursive = true
		i++
	}
	ctes := map[string][]parse.Token{}
	var recs []*plan.RecCTE
	for {
		if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
			return nil, nil, fail(i, "expected the name of a common table expression")
		}
		name := toks[i].Name()
		namePos := toks[i].Pos
		i++
		var cols []string
		if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
			k := parse.ClosingParen(toks, i)
			if k < 0 {
				return nil, nil, fail(i, "unterminated column list of %s", name)
			}
			for j := i + 1; j < k; j++ {
				t := toks[j]
				if t.Kind != parse.Ident && t.Kind != parse.Quoted && t.Kind != parse.DQuoted {
					return nil, nil, fail(j, "expected a column name in the column list of %s", name)
				}
				cols = append(cols, t.Name())
				if j+1 < k && !(toks[j+1].Kind == parse.Op && toks[j+1].Text == ",") {
					return nil, nil, fail(j+1, "expected a comma in the column list of %s", name)
				}
				j++
			}
			i = k + 1
		}
		if i >= len(toks) || !toks[i].Is("as") {
			return nil, nil, fail(i, "expected AS after %s", name)
		}
		i++
		if i < len(toks) && (toks[i].Is("materialized") || toks[i].Is("not")) {
			for i < len(toks) && !(toks[i].Kind == parse.Op && toks[i].Text == "(") {
				i++
			}
		}
		if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
			return nil, nil, fail(i, "expected ( after AS")
		}
		start := i
		if i = parse.ClosingParen(toks, start); i < 0 {
			return nil, nil, fail(start, "unterminated common table expression %s", name)
		}
		raw := toks[start+1 : i]
		if recursive && parse.NamesTable(raw, name) {
			rc, err := plan.NewRecCTE(text, name, cols, parse.SubstituteCTEs(raw, ctes), len(recs), namePos)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, rc)
			ctes[strings.ToLower(name)] = []parse.Token{{Kind: parse.Quoted, Text: parse.Backquote(rc.Marker()), Pos: namePos}}
		} else {
			body := parse.SubstituteCTEs(raw, ctes)
			if cols != nil {
				body = renameColumns(body, cols, namePos)
			}
			ctes[strings.ToLower(name)] = parse.Parenthesized(body, namePos)
		}
		i++
		if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "," {
			i++
			continue
		}
		break
	}
	if i >= len(toks) {
		return nil, nil, fail(i, "expected a query after WITH")
	}
	return parse.SubstituteCTEs(toks[i:], ctes), recs, nil
}

// renameColumns wraps a CTE's query as SELECT * FROM (q) AS renaming
// alias, which relationOf reads back.
func renameColumns(body []parse.Token, cols []string, pos int) []parse.Token {
	alias := parse.ColsMarker + "\x1f" + strings.Join(cols, "\x1f")
	out := []parse.Token{{Kind: parse.Ident, Text: "SELECT", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos}, {Kind: parse.Ident, Text: "FROM", Pos: pos}}
	out = append(out, parse.Parenthesized(body, pos)...)
	return append(out, parse.Token{Kind: parse.Ident, Text: "AS", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(alias), Pos: pos})
}

// afterSelectList are the words that end a select list.
var afterSelectList = map[string]bool{"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true,
	"window": true, "qualify": true, "union": true, "intersect": true, "except": true, "fetch": true}

// fromFirst reorders DuckDB's FROM-first query, FROM t [SELECT items]
// [WHERE ...] ..., into SELECT items FROM t [WHERE ...] ... (SELECT * when
// it has no SELECT).
func fromFirst(toks []parse.Token) []parse.Token {
	sel, end, setOp := -1, len(toks), false
	parse.EachTopLevelWord(toks, func(x int, t parse.Token) bool {
		switch {
		case sel < 0 && t.Is("select"):
			sel = x
		case sel >= 0 && end == len(toks) && afterSelectList[strings.ToLower(t.Text)]:
			end = x
		case sel < 0 && (t.Is("union") || t.Is("intersect") || t.Is("except")):
			setOp = true // FROM t UNION ...: each side would need its own SELECT
			return false
		}
		return true
	})
	if sel < 0 || setOp {
		return append([]parse.Token{{Kind: parse.Ident, Text: "select", Pos: toks[0].Pos}, {Kind: parse.Op, Text: "*", Pos: toks[0].Pos}}, toks...)
	}
	out := append([]parse.Token{}, toks[sel:end]...)
	out = append(out, toks[:sel]...)
	return append(out, toks[end:]...)
}

// conflictClause takes INSERT OR IGNORE and ON CONFLICT [(cols)] DO
// NOTHING (s.ignoreConflicts) and INSERT OR REPLACE (s.replaceConflicts)
// out of an INSERT's tokens, and turns
// DEFAULT VALUES into a VALUES row the parser reads (s.defaultValues);
// ON CONFLICT DO UPDATE is refused.
func conflictClause(text string, toks []parse.Token, s *Stmt) ([]parse.Token, error) {
	refuse := func(t parse.Token, what string) error {
		e := errAt(text, t.Pos, "%s is not supported", what)
		e.Err = ErrUnsupported
		return e
	}
	if len(toks) > 2 && toks[1].Is("or") {
		switch {
		case toks[2].Is("ignore"):
			s.ignoreConflicts = true
			toks = append(toks[:1:1], toks[3:]...)
		case toks[2].Is("replace"):
			s.replaceConflicts = true
			toks = append(toks[:1:1], toks[3:]...)
		}
	}
	// INSERT INTO t BY NAME SELECT ...: the SELECT's column names say which
	// columns (insert).
	for i := 2; i+2 < len(toks); i++ {
		if toks[i].Is("by") && toks[i+1].Is("name") && (toks[i+2].Is("select") || toks[i+2].Is("from") || toks[i+2].Is("with") || toks[i+2].Kind == parse.Op && toks[i+2].Text == "(") {
			s.byName = true
			toks = append(toks[:i:i], toks[i+2:]...)
			break
		}
	}
	if n := len(toks); n >= 4 && toks[n-2].Is("default") && toks[n-1].Is("values") {
		// INSERT INTO t DEFAULT VALUES: one row of DEFAULTs (insert).
		s.defaultValues = true
		pos := toks[n-2].Pos
		return append(toks[:n-2:n-2], parse.Token{Kind: parse.Ident, Text: "values", Pos: pos}, parse.Token{Kind: parse.Op, Text: "(", Pos: pos},
			parse.Token{Kind: parse.Ident, Text: "default", Pos: pos}, parse.Token{Kind: parse.Op, Text: ")", Pos: pos}), nil
	}
	for i := 1; i+1 < len(toks); i++ {
		if !toks[i].Is("on") || !toks[i+1].Is("conflict") {
			continue
		}
		j := i + 2
		if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "(" {
			if k := parse.ClosingParen(toks, j); k > 0 {
				j = k + 1
			}
		}
		if j+1 < len(toks) && toks[j].Is("do") && toks[j+1].Is("nothing") && j+2 == len(toks) {
			s.ignoreConflicts = true
			return toks[:i], nil
		}
		if j+2 < len(toks) && toks[j].Is("do") && toks[j+1].Is("update") && toks[j+2].Is("set") {
			up, err := readUpsert(text, toks, i+2, j+3)
			if err != nil {
				return nil, err
			}
			s.upsert = up
			return toks[:i], nil
		}
		return nil, refuse(toks[i], "this ON CONFLICT form (DO NOTHING and DO UPDATE SET are)")
	}
	return toks, nil
}

// updateFrom rewrites UPDATE t SET c = e, ... FROM items [WHERE cond],
// which the parser does not know, into correlated subqueries:
// UPDATE t SET c = (SELECT e FROM items [WHERE cond] LIMIT 1), ...
// WHERE EXISTS (SELECT 1 FROM items [WHERE cond]): a row of t is updated
// when the FROM items hold a row that meets cond with it, from one such
// row (any, when there are several, as in DuckDB).
func updateFrom(toks []parse.Token) ([]parse.Token, bool) {
	set, from, where := -1, -1, -1
	depth := 0
	for i, t := range toks {
		switch {
		case t.Kind == parse.Op && (t.Text == "(" || t.Text == "["):
			depth++
		case t.Kind == parse.Op && (t.Text == ")" || t.Text == "]"):
			depth--
		case depth == 0 && t.Is("set") && set < 0:
			set = i
		case depth == 0 && t.Is("from") && set >= 0 && from < 0:
			from = i
		case depth == 0 && t.Is("where") && from >= 0 && where < 0:
			where = i
		}
	}
	if set < 0 || from < 0 {
		return nil, false
	}
	items, cond := toks[from+1:], []parse.Token(nil)
	if where > 0 {
		items, cond = toks[from+1:where], toks[where+1:]
	}
	pos := toks[from].Pos
	word := func(w string) parse.Token { return parse.Token{Kind: parse.Ident, Text: w, Pos: pos} }
	op := func(o string) parse.Token { return parse.Token{Kind: parse.Op, Text: o, Pos: pos} }
	subquery := func(what []parse.Token, limit bool) []parse.Token {
		q := append([]parse.Token{op("("), word("select")}, what...)
		q = append(append(q, word("from")), items...)
		if cond != nil {
			q = append(append(q, word("where")), cond...)
		}
		if limit {
			q = append(q, word("limit"), parse.Token{Kind: parse.Number, Text: "1", Pos: pos})
		}
		return append(q, op(")"))
	}
	out := append([]parse.Token(nil), toks[:set+1]...)
	for n, item := range parse.SplitList(toks[set+1 : from]) {
		eq := -1
		for j, t := range item {
			if t.Kind == parse.Op && t.Text == "=" {
				eq = j
				break
			}
		}
		if eq < 0 {
			return nil, false // left for the parser to report
		}
		if n > 0 {
			out = append(out, op(","))
		}
		out = append(append(out, item[:eq+1]...), subquery(item[eq+1:], true)...)
	}
	out = append(out, word("where"), word("exists"))
	return append(out, subquery([]parse.Token{{Kind: parse.Number, Text: "1", Pos: pos}}, false)...), true
}

// stmtTokens reads the tokens of a statement that is parsed here rather
// than by the parser (ALTER TABLE, sequences).
type stmtTokens struct {
	text string
	toks []parse.Token
}

// word is the lower-case identifier at toks[k], "" for anything else.
func (r stmtTokens) word(k int) string {
	if k < len(r.toks) && r.toks[k].Kind == parse.Ident {
		return strings.ToLower(r.toks[k].Text)
	}
	return ""
}

// fail is an error at toks[k] (the end of the text past the last).
func (r stmtTokens) fail(k int, format string, args ...any) error {
	return errAt(r.text, parse.TokPos(r.text, r.toks, k), format, args...)
}

// keywordNames quotes INTERSECT, EXCEPT and TABLESAMPLE where DuckDB
// reads them as names, after AS (a column alias) and after a dot (a
// qualified column), so that neither the set-operation split nor the
// sample clause takes them; elsewhere they stay keywords.
func keywordNames(toks []parse.Token) []parse.Token {
	var out []parse.Token // a copy, made at the first change
	for i := 1; i < len(toks); i++ {
		t, prev := toks[i], toks[i-1]
		if !t.Is("intersect") && !t.Is("except") && !t.Is("tablesample") {
			continue
		}
		if !prev.Is("as") && (prev.Kind != parse.Op || prev.Text != ".") {
			continue
		}
		if out == nil {
			out = slices.Clone(toks)
		}
		out[i] = parse.Token{Kind: parse.DQuoted, Text: `"` + t.Text + `"`, Pos: t.Pos}
	}
	if out == nil {
		return toks
	}
	return out
}

// semiJoins rewrites, in the top level of a query, a SEMI JOIN or ANTI
// JOIN r ON cond (DuckDB's) into [NOT] EXISTS (SELECT 1 FROM r WHERE
// cond) added to the WHERE clause: the rows of the left side that have a
// partner (none). Other forms are left for the rewrite to refuse.
func semiJoins(toks []parse.Token) []parse.Token {
	clause := map[string]bool{"where": true, "group": true, "having": true, "qualify": true, "window": true, "order": true,
		"limit": true, "offset": true, "union": true, "except": true, "intersect": true, "join": true, "left": true,
		"right": true, "inner": true, "full": true, "cross": true, "natural": true, "semi": true, "anti": true, "asof": true, "positional": true}
	for {
		depth, at := 0, -1
		for i, t := range toks {
			switch {
			case t.Kind == parse.Op && t.Text == "(":
				depth++
			case t.Kind == parse.Op && t.Text == ")":
				depth--
			case depth == 0 && (t.Is("semi") || t.Is("anti")) && i+1 < len(toks) && toks[i+1].Is("join"):
				at = i
			}
			if at >= 0 {
				break
			}
		}
		if at < 0 {
			return toks
		}
		// The right item runs to ON; the condition to the next clause.
		on, depth := -1, 0
		for i := at + 2; i < len(toks); i++ {
			if toks[i].Kind == parse.Op && toks[i].Text == "(" {
				depth++
			} else if toks[i].Kind == parse.Op && toks[i].Text == ")" {
				depth--
			} else if depth == 0 && toks[i].Is("on") {
				on = i
				break
			} else if depth == 0 && clause[strings.ToLower(toks[i].Text)] && toks[i].Kind == parse.Ident {
				break
			}
		}
		if on < 0 {
			return toks
		}
		end := clauseEnd(toks, on+1, clause)
		pos := toks[at].Pos
		id := func(w string) parse.Token { return parse.Token{Kind: parse.Ident, Text: w, Pos: pos} }
		op := func(o string) parse.Token { return parse.Token{Kind: parse.Op, Text: o, Pos: pos} }
		test := []parse.Token{}
		if toks[at].Is("anti") {
			test = append(test, id("not"))
		}
		test = append(test, id("exists"), op("("), id("select"), parse.Token{Kind: parse.Number, Text: "1", Pos: pos}, id("from"))
		test = append(test, toks[at+2:on]...)
		test = append(append(test, id("where"), op("(")), toks[on+1:end]...)
		test = append(test, op(")"), op(")"))
		rest := toks[end:]
		out := append([]parse.Token(nil), toks[:at]...)
		if len(rest) > 0 && rest[0].Is("where") {
			// WHERE (existing) AND [NOT] EXISTS (...), up to the next clause.
			k := clauseEnd(rest, 1, clause)
			out = append(out, id("where"), op("("))
			out = append(out, rest[1:k]...)
			out = append(append(append(out, op(")"), id("and")), test...), rest[k:]...)
		} else {
			out = append(append(append(out, id("where")), test...), rest...)
		}
		toks = out
	}
}

// clauseEnd is the index, from toks[from] on, of the first word of
// clause, ';' or unmatched ')' outside parentheses, or len(toks).
func clauseEnd(toks []parse.Token, from int, clause map[string]bool) int {
	depth := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == parse.Op && t.Text == "(":
			depth++
		case t.Kind == parse.Op && t.Text == ")":
			if depth == 0 {
				return i
			}
			depth--
		case depth == 0 && (t.Kind == parse.Ident && clause[strings.ToLower(t.Text)] || t.Kind == parse.Op && t.Text == ";"):
			return i
		}
	}
	return len(toks)
}

// unionByName rewrites UNION [ALL] BY NAME SELECT ... into UNION [ALL]
// SELECT 'x' AS byNameMarker, ..., which alignByName recognizes when it
// plans the union.
func unionByName(toks []parse.Token) []parse.Token {
	for i := 0; i+3 < len(toks); i++ {
		if !toks[i].Is("union") {
			continue
		}
		j := i + 1
		if toks[j].Is("all") || toks[j].Is("distinct") {
			j++
		}
		if j+2 >= len(toks) || !toks[j].Is("by") || !toks[j+1].Is("name") || !toks[j+2].Is("select") {
			continue
		}
		k := j + 3
		if k < len(toks) && toks[k].Is("distinct") {
			k++
		}
		pos := toks[j].Pos
		marker := []parse.Token{{Kind: parse.String, Text: "'x'", Pos: pos}, {Kind: parse.Ident, Text: "as", Pos: pos}, {Kind: parse.Ident, Text: plan.ByNameMarker, Pos: pos}, {Kind: parse.Op, Text: ",", Pos: pos}}
		out := append(append([]parse.Token(nil), toks[:j]...), toks[j+2:k]...)
		out = append(append(out, marker...), toks[k:]...)
		toks = out
	}
	return toks
}

// setRecursive hands the recursive CTEs of a WITH to the statement and
// the statement inside it (EXPLAIN's, CREATE TABLE AS's query).
func (s *Stmt) setRecursive(recs []*plan.RecCTE) {
	if s == nil {
		return
	}
	s.Parsed.SetRecursive(recs)
	s.inner.setRecursive(recs)
}

package sqlplan

import (
	"context"
	"strconv"
	"strings"
)

// WITH: common table expressions expanded into the statement's tokens,
// set operations, trailing clauses and FROM-first statements.

// expandCTEs turns WITH a AS (q1), b AS (q2) SELECT ... into the SELECT
// with each reference to a CTE after FROM or JOIN replaced by the CTE's
// query as a derived table. Tokens keep their offsets, so errors still
// point into the user's text. A CTE used twice runs twice. A column list,
// a (x, y) AS (q), renames q's columns (colsMarker). Under WITH RECURSIVE,
// a CTE whose query names itself is returned apart and referred to by a
// marker table (recursive.go).
func expandCTEs(text string, toks []token) ([]token, []*recCTE, error) {
	fail := func(i int, format string, args ...any) error {
		return errAt(text, tokPos(text, toks, i), format, args...)
	}
	i := 1
	recursive := false
	if i < len(toks) && toks[i].is("recursive") {
		recursive = true
		i++
	}
	ctes := map[string][]token{}
	var recs []*recCTE
	for {
		if i >= len(toks) || toks[i].kind != tkIdent && toks[i].kind != tkQuoted && toks[i].kind != tkDQuoted {
			return nil, nil, fail(i, "expected the name of a common table expression")
		}
		name := tableToken(toks[i])
		namePos := toks[i].pos
		i++
		var cols []string
		if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "(" {
			k := closingParen(toks, i)
			if k < 0 {
				return nil, nil, fail(i, "unterminated column list of %s", name)
			}
			for j := i + 1; j < k; j++ {
				t := toks[j]
				if t.kind != tkIdent && t.kind != tkQuoted && t.kind != tkDQuoted {
					return nil, nil, fail(j, "expected a column name in the column list of %s", name)
				}
				cols = append(cols, tableToken(t))
				if j+1 < k && !(toks[j+1].kind == tkOp && toks[j+1].text == ",") {
					return nil, nil, fail(j+1, "expected a comma in the column list of %s", name)
				}
				j++
			}
			i = k + 1
		}
		if i >= len(toks) || !toks[i].is("as") {
			return nil, nil, fail(i, "expected AS after %s", name)
		}
		i++
		if i < len(toks) && (toks[i].is("materialized") || toks[i].is("not")) {
			for i < len(toks) && !(toks[i].kind == tkOp && toks[i].text == "(") {
				i++
			}
		}
		if i >= len(toks) || toks[i].kind != tkOp || toks[i].text != "(" {
			return nil, nil, fail(i, "expected ( after AS")
		}
		start := i
		if i = closingParen(toks, start); i < 0 {
			return nil, nil, fail(start, "unterminated common table expression %s", name)
		}
		raw := toks[start+1 : i]
		if recursive && namesTable(raw, name) {
			rc, err := newRecCTE(text, name, cols, substituteCTEs(raw, ctes), len(recs), namePos)
			if err != nil {
				return nil, nil, err
			}
			recs = append(recs, rc)
			ctes[strings.ToLower(name)] = []token{{kind: tkQuoted, text: backquote(rc.marker()), pos: namePos}}
		} else {
			body := substituteCTEs(raw, ctes)
			if cols != nil {
				body = renameColumns(body, cols, namePos)
			}
			ctes[strings.ToLower(name)] = parenthesized(body, namePos)
		}
		i++
		if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "," {
			i++
			continue
		}
		break
	}
	if i >= len(toks) {
		return nil, nil, fail(i, "expected a query after WITH")
	}
	return substituteCTEs(toks[i:], ctes), recs, nil
}

func parenthesized(body []token, pos int) []token {
	out := []token{{kind: tkOp, text: "(", pos: pos}}
	out = append(out, body...)
	return append(out, token{kind: tkOp, text: ")", pos: pos})
}

// colsMarker starts the alias of a derived table whose columns are
// renamed: colsMarker, then each new name after a \x1f.
const colsMarker = "__carquet_cols__"

// renameColumns wraps a CTE's query as SELECT * FROM (q) AS renaming
// alias, which relationOf reads back.
func renameColumns(body []token, cols []string, pos int) []token {
	alias := colsMarker + "\x1f" + strings.Join(cols, "\x1f")
	out := []token{{kind: tkIdent, text: "SELECT", pos: pos}, {kind: tkOp, text: "*", pos: pos}, {kind: tkIdent, text: "FROM", pos: pos}}
	out = append(out, parenthesized(body, pos)...)
	return append(out, token{kind: tkIdent, text: "AS", pos: pos}, token{kind: tkQuoted, text: backquote(alias), pos: pos})
}

// namesTable reports whether toks name the table name after FROM, JOIN
// or a comma of a FROM list.
func namesTable(toks []token, name string) bool {
	probe := map[string][]token{strings.ToLower(name): {{kind: tkIdent, text: "__probe__"}}}
	out := substituteCTEs(toks, probe)
	for _, t := range out {
		if t.kind == tkIdent && t.text == "__probe__" {
			return true
		}
	}
	return false
}

// substituteCTEs replaces table references to CTEs (after FROM, JOIN or
// a comma in a FROM list) with their replacements (a parenthesized query
// or a marker table name).
func substituteCTEs(toks []token, ctes map[string][]token) []token {
	if len(ctes) == 0 {
		return toks
	}
	var out []token
	inFrom := false
	depthAtFrom := -1
	depth := 0
	for i, t := range toks {
		if t.kind == tkOp && t.text == "(" {
			depth++
		}
		if t.kind == tkOp && t.text == ")" {
			depth--
			if depth < depthAtFrom {
				inFrom = false
			}
		}
		if t.is("from") || t.is("join") {
			inFrom, depthAtFrom = true, depth
		} else if t.kind == tkIdent && depth == depthAtFrom {
			switch strings.ToLower(t.text) {
			case "where", "group", "having", "order", "limit", "union", "on", "using", "select":
				inFrom = false
			}
		}
		body, isCTE := ctes[strings.ToLower(t.unquoted())]
		if isCTE && (t.kind == tkIdent || t.kind == tkQuoted || t.kind == tkDQuoted) && i > 0 {
			prev := toks[i-1]
			afterFrom := prev.is("from") || prev.is("join") || inFrom && prev.kind == tkOp && prev.text == ","
			nextIsDot := i+1 < len(toks) && toks[i+1].kind == tkOp && toks[i+1].text == "."
			if afterFrom && !nextIsDot {
				out = append(out, body...)
				// Keep the CTE's name as the alias unless one follows.
				hasAlias := i+1 < len(toks) && (toks[i+1].is("as") || toks[i+1].kind == tkIdent && !isClauseWord(toks[i+1].text))
				if !hasAlias {
					out = append(out, token{kind: tkIdent, text: "AS", pos: t.pos}, token{kind: tkQuoted, text: backquote(t.unquoted()), pos: t.pos})
				}
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

func isClauseWord(w string) bool {
	switch strings.ToLower(w) {
	case "where", "group", "having", "order", "limit", "union", "on", "using", "join", "left", "right", "inner", "cross",
		"natural", "straight_join", "full", "outer", "offset", "intersect", "except", "window", "qualify":
		return true
	}
	return false
}

// prepareSetOp splits a query at top-level INTERSECT and EXCEPT; ok is
// false when there are none.
func (e *Engine) prepareSetOp(ctx context.Context, text string, toks []token) (*Stmt, bool, error) {
	var cuts []int
	eachTopLevelWord(toks, func(i int, t token) bool {
		if t.is("intersect") || t.is("except") {
			cuts = append(cuts, i)
		}
		return true
	})
	if len(cuts) == 0 {
		return nil, false, nil
	}
	s := &Stmt{e: e, kind: kindSetOp, src: &source{orig: text, toks: toks}}
	start := 0
	for _, c := range append(cuts, len(toks)) {
		part := toks[start:c]
		if c == len(toks) {
			// ORDER BY / LIMIT after the last part apply to the whole.
			eachTopLevelWord(part, func(i int, t token) bool {
				if t.is("order") || t.is("limit") || t.is("offset") {
					s.trailer = part[i:]
					part = part[:i]
					return false
				}
				return true
			})
		} else {
			op := strings.ToLower(toks[c].text)
			next := start
			_ = next
			if c+1 < len(toks) && toks[c+1].is("all") {
				op += " all"
			} else if c+1 < len(toks) && toks[c+1].is("distinct") {
				op += ""
			}
			s.setOps = append(s.setOps, op)
		}
		for _, t := range part {
			if t.is("union") {
				err := errAt(text, t.pos, "UNION together with INTERSECT or EXCEPT is not supported (use a derived table)")
				err.Err = ErrUnsupported
				return nil, true, err
			}
		}
		if len(part) == 0 {
			return nil, true, errAt(text, tokPos(text, toks, c), "expected a SELECT")
		}
		ps, err := e.prepareTokens(ctx, text, part)
		if err != nil {
			return nil, true, err
		}
		if ps.kind != kindSelect {
			return nil, true, errAt(text, part[0].pos, "INTERSECT and EXCEPT take SELECTs")
		}
		s.parts = append(s.parts, ps)
		start = c + 1
		if c < len(toks) && c+1 < len(toks) && (toks[c+1].is("all") || toks[c+1].is("distinct")) {
			start++
		}
	}
	return s, true, nil
}

// applyTrailer applies ORDER BY (output positions or names) and LIMIT /
// OFFSET written after the last part of an INTERSECT or EXCEPT.
func (s *Stmt) applyTrailer(p *planner, sp *selectPlan) (*selectPlan, error) {
	toks := s.trailer
	if len(toks) == 0 {
		return sp, nil
	}
	i := 0
	var keys []sortKey
	lim, off := int64(-1), int64(0)
	fail := func() (*selectPlan, error) {
		sp.root.close()
		return nil, errAt(s.src.orig, tokPos(s.src.orig, toks, i), "after INTERSECT or EXCEPT, ORDER BY takes output positions or names, LIMIT and OFFSET numbers")
	}
	if i < len(toks) && toks[i].is("order") {
		i++
		if i >= len(toks) || !toks[i].is("by") {
			return fail()
		}
		i++
		for {
			if i >= len(toks) {
				return fail()
			}
			idx := -1
			switch toks[i].kind {
			case tkNumber:
				n, err := strconv.Atoi(toks[i].text)
				if err != nil || n < 1 || n > len(sp.cols) {
					return fail()
				}
				idx = n - 1
			case tkIdent, tkQuoted, tkDQuoted:
				for k, c := range sp.cols {
					if strings.EqualFold(c.Name, toks[i].unquoted()) {
						idx = k
						break
					}
				}
			}
			if idx < 0 {
				return fail()
			}
			i++
			desc := false
			if i < len(toks) && (toks[i].is("asc") || toks[i].is("desc")) {
				desc = toks[i].is("desc")
				i++
			}
			keys = append(keys, sortKey{col: idx, desc: desc, text: sp.cols[idx].Name})
			if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "," {
				i++
				continue
			}
			break
		}
	}
	for i < len(toks) {
		switch {
		case toks[i].is("limit") && i+1 < len(toks) && toks[i+1].kind == tkNumber:
			lim, _ = strconv.ParseInt(toks[i+1].text, 10, 64)
			i += 2
		case toks[i].is("offset") && i+1 < len(toks) && toks[i+1].kind == tkNumber:
			off, _ = strconv.ParseInt(toks[i+1].text, 10, 64)
			i += 2
		default:
			return fail()
		}
	}
	types := make([]Type, len(sp.cols))
	for k, c := range sp.cols {
		types[k] = c.Type
	}
	root := sp.root
	if len(keys) > 0 {
		need := int64(-1)
		if lim >= 0 {
			need = lim + off
		}
		root = &sortNode{in: root, keys: keys, limit: need, types: types}
	}
	if lim >= 0 || off > 0 {
		root = &limitNode{in: root, limit: lim, offset: off}
	}
	return &selectPlan{root: root, cols: sp.cols}, nil
}

// afterSelectList are the words that end a select list.
var afterSelectList = map[string]bool{"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true,
	"window": true, "qualify": true, "union": true, "intersect": true, "except": true, "fetch": true}

// fromFirst reorders DuckDB's FROM-first query, FROM t [SELECT items]
// [WHERE ...] ..., into SELECT items FROM t [WHERE ...] ... (SELECT * when
// it has no SELECT).
func fromFirst(toks []token) []token {
	sel, end, setOp := -1, len(toks), false
	eachTopLevelWord(toks, func(x int, t token) bool {
		switch {
		case sel < 0 && t.is("select"):
			sel = x
		case sel >= 0 && end == len(toks) && afterSelectList[strings.ToLower(t.text)]:
			end = x
		case sel < 0 && (t.is("union") || t.is("intersect") || t.is("except")):
			setOp = true // FROM t UNION ...: each side would need its own SELECT
			return false
		}
		return true
	})
	if sel < 0 || setOp {
		return append([]token{{kind: tkIdent, text: "select", pos: toks[0].pos}, {kind: tkOp, text: "*", pos: toks[0].pos}}, toks...)
	}
	out := append([]token{}, toks[sel:end]...)
	out = append(out, toks[:sel]...)
	return append(out, toks[end:]...)
}

// eachTopLevelWord calls f with each identifier of toks outside
// parentheses, and its index, until f returns false.
func eachTopLevelWord(toks []token, f func(x int, t token) bool) {
	depth := 0
	for x, t := range toks {
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			depth--
		case depth == 0 && t.kind == tkIdent:
			if !f(x, t) {
				return
			}
		}
	}
}

// conflictClause takes INSERT OR IGNORE and ON CONFLICT [(cols)] DO
// NOTHING (s.ignoreConflicts) and INSERT OR REPLACE (s.replaceConflicts)
// out of an INSERT's tokens, and turns
// DEFAULT VALUES into a VALUES row the parser reads (s.defaultValues);
// ON CONFLICT DO UPDATE is refused.
func conflictClause(text string, toks []token, s *Stmt) ([]token, error) {
	refuse := func(t token, what string) error {
		e := errAt(text, t.pos, "%s is not supported", what)
		e.Err = ErrUnsupported
		return e
	}
	if len(toks) > 2 && toks[1].is("or") {
		switch {
		case toks[2].is("ignore"):
			s.ignoreConflicts = true
			toks = append(toks[:1:1], toks[3:]...)
		case toks[2].is("replace"):
			s.replaceConflicts = true
			toks = append(toks[:1:1], toks[3:]...)
		}
	}
	// INSERT INTO t BY NAME SELECT ...: the SELECT's column names say which
	// columns (insert).
	for i := 2; i+2 < len(toks); i++ {
		if toks[i].is("by") && toks[i+1].is("name") && (toks[i+2].is("select") || toks[i+2].is("from") || toks[i+2].is("with") || toks[i+2].kind == tkOp && toks[i+2].text == "(") {
			s.byName = true
			toks = append(toks[:i:i], toks[i+2:]...)
			break
		}
	}
	if n := len(toks); n >= 4 && toks[n-2].is("default") && toks[n-1].is("values") {
		// INSERT INTO t DEFAULT VALUES: one row of DEFAULTs (insert).
		s.defaultValues = true
		pos := toks[n-2].pos
		return append(toks[:n-2:n-2], token{kind: tkIdent, text: "values", pos: pos}, token{kind: tkOp, text: "(", pos: pos},
			token{kind: tkIdent, text: "default", pos: pos}, token{kind: tkOp, text: ")", pos: pos}), nil
	}
	for i := 1; i+1 < len(toks); i++ {
		if !toks[i].is("on") || !toks[i+1].is("conflict") {
			continue
		}
		j := i + 2
		if j < len(toks) && toks[j].kind == tkOp && toks[j].text == "(" {
			if k := closingParen(toks, j); k > 0 {
				j = k + 1
			}
		}
		if j+1 < len(toks) && toks[j].is("do") && toks[j+1].is("nothing") && j+2 == len(toks) {
			s.ignoreConflicts = true
			return toks[:i], nil
		}
		if j+2 < len(toks) && toks[j].is("do") && toks[j+1].is("update") && toks[j+2].is("set") {
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
func updateFrom(toks []token) ([]token, bool) {
	set, from, where := -1, -1, -1
	depth := 0
	for i, t := range toks {
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "["):
			depth++
		case t.kind == tkOp && (t.text == ")" || t.text == "]"):
			depth--
		case depth == 0 && t.is("set") && set < 0:
			set = i
		case depth == 0 && t.is("from") && set >= 0 && from < 0:
			from = i
		case depth == 0 && t.is("where") && from >= 0 && where < 0:
			where = i
		}
	}
	if set < 0 || from < 0 {
		return nil, false
	}
	items, cond := toks[from+1:], []token(nil)
	if where > 0 {
		items, cond = toks[from+1:where], toks[where+1:]
	}
	pos := toks[from].pos
	word := func(w string) token { return token{kind: tkIdent, text: w, pos: pos} }
	op := func(o string) token { return token{kind: tkOp, text: o, pos: pos} }
	subquery := func(what []token, limit bool) []token {
		q := append([]token{op("("), word("select")}, what...)
		q = append(append(q, word("from")), items...)
		if cond != nil {
			q = append(append(q, word("where")), cond...)
		}
		if limit {
			q = append(q, word("limit"), token{kind: tkNumber, text: "1", pos: pos})
		}
		return append(q, op(")"))
	}
	out := append([]token(nil), toks[:set+1]...)
	for n, item := range splitList(toks[set+1 : from]) {
		eq := -1
		for j, t := range item {
			if t.kind == tkOp && t.text == "=" {
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
	return append(out, subquery([]token{{kind: tkNumber, text: "1", pos: pos}}, false)...), true
}

// stmtTokens reads the tokens of a statement that is parsed here rather
// than by the parser (ALTER TABLE, sequences).
type stmtTokens struct {
	text string
	toks []token
}

// word is the lower-case identifier at toks[k], "" for anything else.
func (r stmtTokens) word(k int) string {
	if k < len(r.toks) && r.toks[k].kind == tkIdent {
		return strings.ToLower(r.toks[k].text)
	}
	return ""
}

// fail is an error at toks[k] (the end of the text past the last).
func (r stmtTokens) fail(k int, format string, args ...any) error {
	return errAt(r.text, tokPos(r.text, r.toks, k), format, args...)
}

// semiJoins rewrites, in the top level of a query, a SEMI JOIN or ANTI
// JOIN r ON cond (DuckDB's) into [NOT] EXISTS (SELECT 1 FROM r WHERE
// cond) added to the WHERE clause: the rows of the left side that have a
// partner (none). Other forms are left for the rewrite to refuse.
func semiJoins(toks []token) []token {
	clause := map[string]bool{"where": true, "group": true, "having": true, "qualify": true, "window": true, "order": true,
		"limit": true, "offset": true, "union": true, "except": true, "intersect": true, "join": true, "left": true,
		"right": true, "inner": true, "full": true, "cross": true, "natural": true, "semi": true, "anti": true, "asof": true, "positional": true}
	for {
		depth, at := 0, -1
		for i, t := range toks {
			switch {
			case t.kind == tkOp && t.text == "(":
				depth++
			case t.kind == tkOp && t.text == ")":
				depth--
			case depth == 0 && (t.is("semi") || t.is("anti")) && i+1 < len(toks) && toks[i+1].is("join"):
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
			if toks[i].kind == tkOp && toks[i].text == "(" {
				depth++
			} else if toks[i].kind == tkOp && toks[i].text == ")" {
				depth--
			} else if depth == 0 && toks[i].is("on") {
				on = i
				break
			} else if depth == 0 && clause[strings.ToLower(toks[i].text)] && toks[i].kind == tkIdent {
				break
			}
		}
		if on < 0 {
			return toks
		}
		end := clauseEnd(toks, on+1, clause)
		pos := toks[at].pos
		id := func(w string) token { return token{kind: tkIdent, text: w, pos: pos} }
		op := func(o string) token { return token{kind: tkOp, text: o, pos: pos} }
		test := []token{}
		if toks[at].is("anti") {
			test = append(test, id("not"))
		}
		test = append(test, id("exists"), op("("), id("select"), token{kind: tkNumber, text: "1", pos: pos}, id("from"))
		test = append(test, toks[at+2:on]...)
		test = append(append(test, id("where"), op("(")), toks[on+1:end]...)
		test = append(test, op(")"), op(")"))
		rest := toks[end:]
		out := append([]token(nil), toks[:at]...)
		if len(rest) > 0 && rest[0].is("where") {
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
func clauseEnd(toks []token, from int, clause map[string]bool) int {
	depth := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			if depth == 0 {
				return i
			}
			depth--
		case depth == 0 && (t.kind == tkIdent && clause[strings.ToLower(t.text)] || t.kind == tkOp && t.text == ";"):
			return i
		}
	}
	return len(toks)
}

// unionByName rewrites UNION [ALL] BY NAME SELECT ... into UNION [ALL]
// SELECT 'x' AS byNameMarker, ..., which alignByName recognizes when it
// plans the union.
func unionByName(toks []token) []token {
	for i := 0; i+3 < len(toks); i++ {
		if !toks[i].is("union") {
			continue
		}
		j := i + 1
		if toks[j].is("all") || toks[j].is("distinct") {
			j++
		}
		if j+2 >= len(toks) || !toks[j].is("by") || !toks[j+1].is("name") || !toks[j+2].is("select") {
			continue
		}
		k := j + 3
		if k < len(toks) && toks[k].is("distinct") {
			k++
		}
		pos := toks[j].pos
		marker := []token{{kind: tkString, text: "'x'", pos: pos}, {kind: tkIdent, text: "as", pos: pos}, {kind: tkIdent, text: byNameMarker, pos: pos}, {kind: tkOp, text: ",", pos: pos}}
		out := append(append([]token(nil), toks[:j]...), toks[j+2:k]...)
		out = append(append(out, marker...), toks[k:]...)
		toks = out
	}
	return toks
}

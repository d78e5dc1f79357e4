package sqlplan

import (
	"strconv"
	"strings"
)

// Clauses the rewrite layer reshapes: LIMIT/OFFSET/FETCH, VALUES lists,
// set operations in parentheses, table functions and derived-table column
// lists, FULL JOIN USING.

// tableFunctionQuery rewrites the table function call toks[i..k] (its
// name, then its parenthesized arguments), with the alias and column list
// that may follow, into a derived table: FROM unnest(l) [AS] t(c) reads
// FROM (SELECT unnest(l) AS c) AS t (the names default to unnest, as in
// DuckDB), and FROM range(n) [AS] t(c) reads FROM (SELECT range AS c FROM
// range(n)) AS t; with unnestList, range and generate_series of other
// than integer constants (timestamps, expressions) read FROM (SELECT
// unnest(range(...)) AS c) AS t, through the list functions. It returns
// the new tokens and the index of the last token they replace; false
// leaves a range or generate_series of constants without a column list
// alone.
func tableFunctionQuery(toks []token, i, k int, unnestList bool) ([]token, int, bool) {
	fn := toks[i]
	word := func(text string) token { return token{kind: tkIdent, text: text, pos: fn.pos} }
	op := func(text string) token { return token{kind: tkOp, text: text, pos: fn.pos} }
	alias, col := word(strings.ToLower(fn.text)), word(strings.ToLower(fn.text))
	end := k // the last token the rewrite replaces
	j := k + 1
	if j < len(toks) && toks[j].is("as") {
		j++
	}
	named := func(t token) bool {
		return t.kind == tkQuoted || t.kind == tkDQuoted || t.kind == tkIdent && aliasFollows(t) && !isClauseWord(t.text)
	}
	hasList := false
	if j < len(toks) && named(toks[j]) {
		alias, end = toks[j], j
		if j+3 < len(toks) && toks[j+1].kind == tkOp && toks[j+1].text == "(" && named(toks[j+2]) && toks[j+3].kind == tkOp && toks[j+3].text == ")" {
			col, end, hasList = toks[j+2], j+3, true
		}
	}
	if !fn.is("unnest") && !hasList && !unnestList {
		return nil, 0, false
	}
	out := []token{op("("), word("select")}
	switch {
	case fn.is("unnest"):
		out = append(out, toks[i:k+1]...)
		out = append(out, word("as"), col)
	case unnestList:
		out = append(out, word("unnest"), op("("))
		out = append(out, toks[i:k+1]...)
		out = append(out, op(")"), word("as"), col)
	default:
		out = append(out, word(strings.ToLower(fn.text)), word("as"), col, word("from"))
		out = append(out, toks[i:k+1]...)
	}
	return append(out, op(")"), word("as"), alias), end, true
}

// normalizeLimits writes the SQL-standard and PostgreSQL forms of LIMIT
// as the parser's LIMIT n OFFSET m: OFFSET m [ROW|ROWS] without LIMIT,
// FETCH FIRST|NEXT [n] ROW|ROWS ONLY, LIMIT ALL, in any order.
func normalizeLimits(toks []token) []token {
	var out []token
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			depth--
		}
		if !(t.is("offset") || t.is("fetch") || t.is("limit")) {
			out = append(out, t)
			continue
		}
		// The clause runs to the ')' closing this level, or the end.
		end := levelEnd(toks, i)
		limit, offset, ok := limitClause(toks[i:end])
		if !ok {
			out = append(out, t)
			continue
		}
		pos := t.pos
		if limit == nil {
			limit = []token{{kind: tkNumber, text: "9223372036854775807", pos: pos}}
		}
		out = append(out, token{kind: tkIdent, text: "limit", pos: pos})
		out = append(out, limit...)
		if offset != nil {
			out = append(out, token{kind: tkIdent, text: "offset", pos: pos})
			out = append(out, offset...)
		}
		i = end - 1
	}
	return out
}

// limitClause reads LIMIT / OFFSET / FETCH clauses (ts is all of them);
// ok is false for anything else.
func limitClause(ts []token) (limit, offset []token, ok bool) {
	stop := func(t token) bool {
		return t.is("offset") || t.is("fetch") || t.is("limit") || t.is("row") || t.is("rows") || t.is("only")
	}
	value := func(j int) ([]token, int) {
		k, d := j, 0
		for ; k < len(ts); k++ {
			if ts[k].kind == tkOp && ts[k].text == "(" {
				d++
			} else if ts[k].kind == tkOp && ts[k].text == ")" {
				d--
			} else if d == 0 && stop(ts[k]) {
				break
			}
		}
		for _, t := range ts[j:k] {
			if t.is("from") || t.is("where") || t.is("select") || t.is("group") || t.is("having") || t.is("order") || t.is("union") || t.is("join") || t.is("on") || t.is("as") {
				return nil, k // not a LIMIT clause (a column named offset, ...)
			}
		}
		return ts[j:k], k
	}
	for j := 0; j < len(ts); {
		switch {
		case ts[j].is("limit") && j+1 < len(ts) && ts[j+1].is("all"):
			j += 2
		case ts[j].is("limit"):
			limit, j = value(j + 1)
			if len(limit) == 0 {
				return nil, nil, false
			}
		case ts[j].is("offset"):
			offset, j = value(j + 1)
			if len(offset) == 0 {
				return nil, nil, false
			}
			if j < len(ts) && (ts[j].is("row") || ts[j].is("rows")) {
				j++
			}
		case ts[j].is("fetch") && j+1 < len(ts) && (ts[j+1].is("first") || ts[j+1].is("next")):
			var n []token
			n, j = value(j + 2)
			if len(n) == 0 {
				n = []token{{kind: tkNumber, text: "1", pos: ts[j-1].pos}}
			}
			if j+1 >= len(ts) || !(ts[j].is("row") || ts[j].is("rows")) || !ts[j+1].is("only") {
				return nil, nil, false
			}
			limit, j = n, j+2
		default:
			return nil, nil, false
		}
	}
	return limit, offset, true
}

// setOpMarker names a parenthesized query with INTERSECT or EXCEPT.
const setOpMarker = "__carquet_setop__"

// extractSetOps takes out the parenthesized queries that hold INTERSECT or
// EXCEPT at their top level (the parser knows neither) and puts SELECT *
// FROM setOpMarker:N in their place; relationOf prepares and plans them
// as statements of their own.
func extractSetOps(toks []token) ([]token, [][]token) {
	var defs [][]token
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		out = append(out, t)
		if t.kind != tkOp || t.text != "(" || i+1 >= len(toks) || !(toks[i+1].is("select") || toks[i+1].is("with") || toks[i+1].kind == tkOp && toks[i+1].text == "(") {
			continue
		}
		k := closingParen(toks, i)
		if k < 0 || topLevelWord(toks, i, "intersect") < 0 && topLevelWord(toks, i, "except") < 0 {
			continue
		}
		pos := toks[i+1].pos
		whole := i == 0 && k == len(toks)-1 // the statement is the parenthesized query
		if whole {
			out = out[:0]
		}
		out = append(out, token{kind: tkIdent, text: "select", pos: pos}, token{kind: tkOp, text: "*", pos: pos}, token{kind: tkIdent, text: "from", pos: pos},
			token{kind: tkQuoted, text: backquote(setOpMarker + ":" + strconv.Itoa(len(defs))), pos: pos})
		defs = append(defs, toks[i+1:k])
		i = k - 1
		if whole {
			i = k
		}
	}
	if defs == nil {
		return toks, nil
	}
	return out, defs
}

// valuesToSelect writes a VALUES list used as a query — at the start, in
// parentheses or after a set operator — as SELECTs joined by UNION ALL,
// with DuckDB's column names col0, col1, ... A VALUES list that is a FROM
// item without parentheses (FROM VALUES (1), (2) t(a), after JOIN or a
// comma of the FROM list too) is put in parentheses, a derived table the
// alias after it names.
func valuesToSelect(src string, toks []token) ([]token, error) {
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		query := i == 0 || toks[i-1].kind == tkOp && toks[i-1].text == "(" || toks[i-1].is("union") || toks[i-1].is("all")
		item := t.is("values") && !query && valuesFromItem(toks, i-1)
		if !t.is("values") || !query && !item || i+1 >= len(toks) || toks[i+1].kind != tkOp || toks[i+1].text != "(" {
			out = append(out, t)
			continue
		}
		if item {
			out = append(out, token{kind: tkOp, text: "(", pos: t.pos})
		}
		j := i + 1
		first := true
		for {
			k := closingParen(toks, j)
			if k < 0 {
				return nil, errAt(src, toks[j].pos, "unterminated row of VALUES")
			}
			items := splitList(toks[j+1 : k])
			if !first {
				out = append(out, token{kind: tkIdent, text: "union", pos: toks[j].pos}, token{kind: tkIdent, text: "all", pos: toks[j].pos})
			}
			out = append(out, token{kind: tkIdent, text: "select", pos: toks[j].pos})
			for c, it := range items {
				if len(it) == 0 {
					return nil, errAt(src, toks[j].pos, "empty value in a row of VALUES")
				}
				if c > 0 {
					out = append(out, token{kind: tkOp, text: ",", pos: it[0].pos})
				}
				out = append(out, it...)
				if first {
					out = append(out, token{kind: tkIdent, text: "as", pos: it[0].pos}, token{kind: tkIdent, text: "col" + strconv.Itoa(c), pos: it[0].pos})
				}
			}
			first = false
			j = k + 1
			if j+1 < len(toks) && toks[j].kind == tkOp && toks[j].text == "," && toks[j+1].kind == tkOp && toks[j+1].text == "(" {
				j++
				continue
			}
			break
		}
		if item {
			// DuckDB's grammar has no VALUES FROM item without an alias.
			if j >= len(toks) || !toks[j].is("as") && !aliasToken(toks[j]) {
				return nil, errAt(src, t.pos, "syntax error: VALUES in FROM needs an alias: FROM VALUES (1, 'a') t(a, b)")
			}
			out = append(out, token{kind: tkOp, text: ")", pos: toks[j-1].pos})
		}
		i = j - 1
	}
	return out, nil
}

// notAlias are the words after a FROM item that cannot be its alias.
var notAlias = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true, "cross": true, "natural": true,
	"on": true, "using": true, "asof": true, "positional": true, "anti": true, "semi": true, "lateral": true, "returning": true}

// aliasToken reports whether t can be the alias of a FROM item.
func aliasToken(t token) bool {
	switch t.kind {
	case tkQuoted, tkDQuoted:
		return true
	case tkIdent:
		w := strings.ToLower(t.text)
		return !clauseAfterFrom[w] && !notAlias[w]
	}
	return false
}

// valuesFromItem reports whether toks[p] is what comes before a FROM item:
// FROM, JOIN, or a comma of a FROM list (the nearest clause word before it,
// outside parentheses, is FROM).
func valuesFromItem(toks []token, p int) bool {
	switch t := toks[p]; {
	case t.is("from"), t.is("join"):
		return true
	case t.kind != tkOp || t.text != ",":
		return false
	}
	depth := 0
	for k := p - 1; k >= 0; k-- {
		t := toks[k]
		switch {
		case t.kind == tkOp && t.text == ")":
			depth++
		case t.kind == tkOp && t.text == "(":
			if depth == 0 {
				return false
			}
			depth--
		case depth > 0:
		case t.is("from"):
			return true
		case t.kind == tkIdent && (clauseAfterFrom[strings.ToLower(t.text)] || t.is("set") || t.is("into")):
			return false
		}
	}
	return false
}

// usingMarker carries the columns of FULL JOIN ... USING (cols) in ON.
const usingMarker = "__carquet_using__"

// fullJoinUsing returns the index of the USING of the join whose right
// side starts at toks[from] (the first ON or USING at its parenthesis
// depth), or -1 when it takes ON.
func fullJoinUsing(toks []token, from int) int {
	depth := 0
	for j := from; j < len(toks); j++ {
		switch {
		case toks[j].kind == tkOp && toks[j].text == "(":
			depth++
		case toks[j].kind == tkOp && toks[j].text == ")":
			if depth--; depth < 0 {
				return -1
			}
		case depth == 0 && toks[j].is("on"):
			return -1
		case depth == 0 && toks[j].is("using"):
			return j
		}
	}
	return -1
}

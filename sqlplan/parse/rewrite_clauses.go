package parse

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
func tableFunctionQuery(toks []Token, i, k int, unnestList bool) ([]Token, int, bool) {
	fn := toks[i]
	word := func(text string) Token { return Token{Kind: Ident, Text: text, Pos: fn.Pos} }
	op := func(text string) Token { return Token{Kind: Op, Text: text, Pos: fn.Pos} }
	alias, col := word(strings.ToLower(fn.Text)), word(strings.ToLower(fn.Text))
	end := k // the last token the rewrite replaces
	j := k + 1
	if j < len(toks) && toks[j].Is("as") {
		j++
	}
	named := func(t Token) bool {
		return t.Kind == Quoted || t.Kind == DQuoted || t.Kind == Ident && aliasFollows(t) && !IsClauseWord(t.Text)
	}
	hasList := false
	if j < len(toks) && named(toks[j]) {
		alias, end = toks[j], j
		if j+3 < len(toks) && toks[j+1].Kind == Op && toks[j+1].Text == "(" && named(toks[j+2]) && toks[j+3].Kind == Op && toks[j+3].Text == ")" {
			col, end, hasList = toks[j+2], j+3, true
		}
	}
	if !fn.Is("unnest") && !hasList && !unnestList {
		return nil, 0, false
	}
	out := []Token{op("("), word("select")}
	switch {
	case fn.Is("unnest"):
		out = append(out, toks[i:k+1]...)
		out = append(out, word("as"), col)
	case unnestList:
		out = append(out, word("unnest"), op("("))
		out = append(out, toks[i:k+1]...)
		out = append(out, op(")"), word("as"), col)
	default:
		out = append(out, word(strings.ToLower(fn.Text)), word("as"), col, word("from"))
		out = append(out, toks[i:k+1]...)
	}
	return append(out, op(")"), word("as"), alias), end, true
}

// normalizeLimits writes the SQL-standard and PostgreSQL forms of LIMIT
// as the parser's LIMIT n OFFSET m: OFFSET m [ROW|ROWS] without LIMIT,
// FETCH FIRST|NEXT [n] ROW|ROWS ONLY, LIMIT ALL, in any order.
func normalizeLimits(toks []Token) []Token {
	var out []Token
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			depth--
		}
		if !(t.Is("offset") || t.Is("fetch") || t.Is("limit")) {
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
		pos := t.Pos
		if limit == nil {
			limit = []Token{{Kind: Number, Text: "9223372036854775807", Pos: pos}}
		}
		if n := len(limit); n > 1 && (limit[n-1].Kind == Op && limit[n-1].Text == "%" || limit[n-1].Is("percent")) {
			// LIMIT p% or p PERCENT: a share of the rows.
			call := []Token{{Kind: Ident, Text: LimitPercentMarker, Pos: pos}, {Kind: Op, Text: "(", Pos: pos}}
			call = append(call, limit[:n-1]...)
			limit = append(call, Token{Kind: Op, Text: ")", Pos: limit[n-1].Pos})
		}
		out = append(out, Token{Kind: Ident, Text: "limit", Pos: pos})
		out = append(out, limit...)
		if offset != nil {
			out = append(out, Token{Kind: Ident, Text: "offset", Pos: pos})
			out = append(out, offset...)
		}
		i = end - 1
	}
	return out
}

// LimitPercentMarker wraps the share of LIMIT p% (LIMIT p PERCENT).
const LimitPercentMarker = "__carquet_limit_percent__"

// limitClause reads LIMIT / OFFSET / FETCH clauses (ts is all of them);
// ok is false for anything else.
func limitClause(ts []Token) (limit, offset []Token, ok bool) {
	stop := func(t Token) bool {
		return t.Is("offset") || t.Is("fetch") || t.Is("limit") || t.Is("row") || t.Is("rows") || t.Is("only")
	}
	value := func(j int) ([]Token, int) {
		k, d := j, 0
		for ; k < len(ts); k++ {
			if ts[k].Kind == Op && ts[k].Text == "(" {
				d++
			} else if ts[k].Kind == Op && ts[k].Text == ")" {
				d--
			} else if d == 0 && stop(ts[k]) {
				break
			}
		}
		for _, t := range ts[j:k] {
			if t.Is("from") || t.Is("where") || t.Is("select") || t.Is("group") || t.Is("having") || t.Is("order") || t.Is("union") || t.Is("join") || t.Is("on") || t.Is("as") {
				return nil, k // not a LIMIT clause (a column named offset, ...)
			}
		}
		return ts[j:k], k
	}
	for j := 0; j < len(ts); {
		switch {
		case ts[j].Is("limit") && j+1 < len(ts) && ts[j+1].Is("all"):
			j += 2
		case ts[j].Is("limit"):
			limit, j = value(j + 1)
			if len(limit) == 0 {
				return nil, nil, false
			}
		case ts[j].Is("offset"):
			offset, j = value(j + 1)
			if len(offset) == 0 {
				return nil, nil, false
			}
			if j < len(ts) && (ts[j].Is("row") || ts[j].Is("rows")) {
				j++
			}
		case ts[j].Is("fetch") && j+1 < len(ts) && (ts[j+1].Is("first") || ts[j+1].Is("next")):
			var n []Token
			n, j = value(j + 2)
			if len(n) == 0 {
				n = []Token{{Kind: Number, Text: "1", Pos: ts[j-1].Pos}}
			}
			if j+1 >= len(ts) || !(ts[j].Is("row") || ts[j].Is("rows")) || !ts[j+1].Is("only") {
				return nil, nil, false
			}
			limit, j = n, j+2
		default:
			return nil, nil, false
		}
	}
	return limit, offset, true
}

// SetOpMarker names a parenthesized query with INTERSECT or EXCEPT.
const SetOpMarker = "__carquet_setop__"

// extractSetOps takes out the parenthesized queries that hold INTERSECT or
// EXCEPT at their top level (the parser knows neither) and puts SELECT *
// FROM SetOpMarker:N in their place; relationOf prepares and plans them
// as statements of their own.
func extractSetOps(toks []Token) ([]Token, [][]Token) {
	var defs [][]Token
	var out []Token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		out = append(out, t)
		if t.Kind != Op || t.Text != "(" || i+1 >= len(toks) || !(toks[i+1].Is("select") || toks[i+1].Is("with") || toks[i+1].Kind == Op && toks[i+1].Text == "(") {
			continue
		}
		k := ClosingParen(toks, i)
		if k < 0 || topLevelWord(toks, i, "intersect") < 0 && topLevelWord(toks, i, "except") < 0 {
			continue
		}
		pos := toks[i+1].Pos
		whole := i == 0 && k == len(toks)-1 // the statement is the parenthesized query
		if whole {
			out = out[:0]
		}
		out = append(out, Token{Kind: Ident, Text: "select", Pos: pos}, Token{Kind: Op, Text: "*", Pos: pos}, Token{Kind: Ident, Text: "from", Pos: pos},
			Token{Kind: Quoted, Text: Backquote(SetOpMarker + ":" + strconv.Itoa(len(defs))), Pos: pos})
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

// ValuesToSelect writes a VALUES list used as a query — at the start, in
// parentheses or after a set operator — as SELECTs joined by UNION ALL,
// with DuckDB's column names col0, col1, ... A VALUES list that is a FROM
// item without parentheses (FROM VALUES (1), (2) t(a), after JOIN or a
// comma of the FROM list too) is put in parentheses, a derived table the
// alias after it names.
func ValuesToSelect(src string, toks []Token) ([]Token, error) {
	var out []Token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		query := i == 0 || toks[i-1].Kind == Op && toks[i-1].Text == "(" || toks[i-1].Is("union") || toks[i-1].Is("all")
		item := t.Is("values") && !query && valuesFromItem(toks, i-1)
		if !t.Is("values") || !query && !item || i+1 >= len(toks) || toks[i+1].Kind != Op || toks[i+1].Text != "(" {
			out = append(out, t)
			continue
		}
		if item {
			out = append(out, Token{Kind: Op, Text: "(", Pos: t.Pos})
		}
		j := i + 1
		first := true
		for {
			k := ClosingParen(toks, j)
			if k < 0 {
				return nil, ErrAt(src, toks[j].Pos, "unterminated row of VALUES")
			}
			items := SplitList(toks[j+1 : k])
			if !first {
				out = append(out, Token{Kind: Ident, Text: "union", Pos: toks[j].Pos}, Token{Kind: Ident, Text: "all", Pos: toks[j].Pos})
			}
			out = append(out, Token{Kind: Ident, Text: "select", Pos: toks[j].Pos})
			for c, it := range items {
				if len(it) == 0 {
					return nil, ErrAt(src, toks[j].Pos, "empty value in a row of VALUES")
				}
				if c > 0 {
					out = append(out, Token{Kind: Op, Text: ",", Pos: it[0].Pos})
				}
				out = append(out, it...)
				if first {
					out = append(out, Token{Kind: Ident, Text: "as", Pos: it[0].Pos}, Token{Kind: Ident, Text: "col" + strconv.Itoa(c), Pos: it[0].Pos})
				}
			}
			first = false
			j = k + 1
			if j+1 < len(toks) && toks[j].Kind == Op && toks[j].Text == "," && toks[j+1].Kind == Op && toks[j+1].Text == "(" {
				j++
				continue
			}
			break
		}
		if item {
			// DuckDB's grammar has no VALUES FROM item without an alias.
			if j >= len(toks) || !toks[j].Is("as") && !aliasToken(toks[j]) {
				return nil, ErrAt(src, t.Pos, "syntax error: VALUES in FROM needs an alias: FROM VALUES (1, 'a') t(a, b)")
			}
			out = append(out, Token{Kind: Op, Text: ")", Pos: toks[j-1].Pos})
		}
		i = j - 1
	}
	return out, nil
}

// notAlias are the words after a FROM item that cannot be its alias.
var notAlias = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true, "cross": true, "natural": true,
	"on": true, "using": true, "asof": true, "positional": true, "anti": true, "semi": true, "lateral": true, "returning": true}

// aliasToken reports whether t can be the alias of a FROM item.
func aliasToken(t Token) bool {
	switch t.Kind {
	case Quoted, DQuoted:
		return true
	case Ident:
		w := strings.ToLower(t.Text)
		return !clauseAfterFrom[w] && !notAlias[w]
	}
	return false
}

// valuesFromItem reports whether toks[p] is what comes before a FROM item:
// FROM, JOIN, or a comma of a FROM list (the nearest clause word before it,
// outside parentheses, is FROM).
func valuesFromItem(toks []Token, p int) bool {
	switch t := toks[p]; {
	case t.Is("from"), t.Is("join"):
		return true
	case t.Kind != Op || t.Text != ",":
		return false
	}
	depth := 0
	for k := p - 1; k >= 0; k-- {
		t := toks[k]
		switch {
		case t.Kind == Op && t.Text == ")":
			depth++
		case t.Kind == Op && t.Text == "(":
			if depth == 0 {
				return false
			}
			depth--
		case depth > 0:
		case t.Is("from"):
			return true
		case t.Kind == Ident && (clauseAfterFrom[strings.ToLower(t.Text)] || t.Is("set") || t.Is("into")):
			return false
		}
	}
	return false
}

// UsingMarker carries the columns of FULL JOIN ... USING (cols) in ON.
const UsingMarker = "__carquet_using__"

// NaturalMarker stands in ON for the columns of NATURAL FULL JOIN.
const NaturalMarker = "__carquet_natural__"

// fromItemEnd returns the index just past the FROM item that starts at
// toks[from]: a name (dotted, or a table function's call) or a
// parenthesized subquery, then its alias and column list, if any.
func fromItemEnd(toks []Token, from int) int {
	q := from
	if q >= len(toks) {
		return q
	}
	isOpen := func(q int) bool { return q < len(toks) && toks[q].Kind == Op && toks[q].Text == "(" }
	past := func(q int) int {
		if c := ClosingParen(toks, q); c >= 0 {
			return c + 1
		}
		return len(toks)
	}
	if isOpen(q) {
		q = past(q)
	} else {
		q++
		for q+1 < len(toks) && toks[q].Kind == Op && toks[q].Text == "." {
			q += 2
		}
		if isOpen(q) {
			q = past(q)
		}
	}
	if q < len(toks) && toks[q].Is("as") {
		q++
	}
	if q < len(toks) && aliasToken(toks[q]) {
		q++
		if isOpen(q) {
			q = past(q)
		}
	}
	return q
}

// fullJoinUsing returns the index of the USING of the join whose right
// side starts at toks[from] (the first ON or USING at its parenthesis
// depth), or -1 when it takes ON.
func fullJoinUsing(toks []Token, from int) int {
	depth := 0
	for j := from; j < len(toks); j++ {
		switch {
		case toks[j].Kind == Op && toks[j].Text == "(":
			depth++
		case toks[j].Kind == Op && toks[j].Text == ")":
			if depth--; depth < 0 {
				return -1
			}
		case depth == 0 && toks[j].Is("on"):
			return -1
		case depth == 0 && toks[j].Is("using"):
			return j
		}
	}
	return -1
}

// ColsMarker starts the alias of a derived table whose columns are
// renamed: ColsMarker, then each new name after a \x1f.
const ColsMarker = "__carquet_cols__"

// The table functions range(stop), range(start, stop[, step]) (stop
// excluded) and generate_series(...) (stop included), over BIGINT
// constants. The rewrite turns a call after FROM or JOIN into a table name
// SeriesMarker:FN:START:STOP:STEP, which relationOf plans as a seriesNode.
const SeriesMarker = "__carquet_series__"

// seriesTableName reads the arguments of range(...) or generate_series(...)
// at toks (the tokens between the parentheses) and returns the marker
// table name.
func seriesTableName(src string, fn string, pos int, toks []Token) (string, error) {
	var args []int64
	for k := 0; k < len(toks); {
		neg := false
		if toks[k].Kind == Op && (toks[k].Text == "-" || toks[k].Text == "+") {
			neg = toks[k].Text == "-"
			k++
		}
		if k >= len(toks) || toks[k].Kind != Number {
			return "", ErrAt(src, pos, "%s takes integer constants", fn)
		}
		v, err := strconv.ParseInt(toks[k].Text, 10, 64)
		if err != nil {
			return "", ErrAt(src, toks[k].Pos, "%s takes integer constants, not %s", fn, toks[k].Text)
		}
		if neg {
			v = -v
		}
		args = append(args, v)
		k++
		if k < len(toks) {
			if !(toks[k].Kind == Op && toks[k].Text == ",") {
				return "", ErrAt(src, toks[k].Pos, "%s takes integer constants", fn)
			}
			k++
		}
	}
	start, stop, step := int64(0), int64(0), int64(1)
	switch len(args) {
	case 1:
		stop = args[0]
	case 2:
		start, stop = args[0], args[1]
	case 3:
		start, stop, step = args[0], args[1], args[2]
	default:
		return "", ErrAt(src, pos, "%s takes 1 to 3 arguments, not %d", fn, len(args))
	}
	if step == 0 {
		return "", ErrAt(src, pos, "the step of %s cannot be 0", fn)
	}
	return strings.Join([]string{SeriesMarker, fn, strconv.FormatInt(start, 10), strconv.FormatInt(stop, 10), strconv.FormatInt(step, 10)}, ":"), nil
}

package sqlplan

import (
	"path/filepath"
	"strconv"
	"strings"
)

// Samples. A table in FROM may be followed by TABLESAMPLE spec, and a SELECT
// whose FROM is one table by USING SAMPLE spec, spec being n% (or n
// PERCENT), n ROWS, or either inside a method's parentheses
// (bernoulli(10%), reservoir(100 ROWS), system(5%)). The table becomes a
// derived table of the same name: for a percentage each row is kept with
// that probability (WHERE random() < p/100), for n ROWS n rows are drawn
// uniformly (ORDER BY random() LIMIT n). REPEATABLE (a seed) is refused:
// random() has none.

// sampleTokens rewrites the samples of a statement's tokens.
func sampleTokens(text string, toks []token) ([]token, error) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var table, alias, next, spec int // next: the token after the table (and its alias)
		switch {
		case t.is("tablesample"):
			table, alias, next, spec = i-1, i-1, i, i+1
			if table < 1 || !isTableToken(toks[table]) || !(toks[table-1].is("from") || toks[table-1].is("join") || toks[table-1].kind == tkOp && toks[table-1].text == ",") {
				return nil, errAt(text, t.pos, "TABLESAMPLE follows a table name in FROM")
			}
		case t.is("using") && i+1 < len(toks) && toks[i+1].is("sample"):
			table, alias, next = usingSampleTable(toks, i)
			if table < 0 {
				return nil, &Error{Msg: "USING SAMPLE is supported after FROM one table (TABLESAMPLE samples one table of a join)", Offset: t.pos, Err: ErrUnsupported}
			}
			spec = i + 2
		default:
			continue
		}
		filter, end, err := sampleFilter(text, toks, spec)
		if err != nil {
			return nil, err
		}
		derived := sampledTable(toks[table], toks[alias], filter)
		out := append([]token{}, toks[:table]...)
		out = append(out, derived...)
		if t.is("using") {
			out = append(out, toks[next:i]...) // WHERE ... between the table and USING SAMPLE
		}
		out = append(out, toks[end:]...)
		i = table + len(derived) - 1
		toks = out
	}
	return toks, nil
}

// usingSampleTable finds the table of the USING SAMPLE at at: the one
// table after the FROM of the same SELECT, its alias (the table itself when
// none) and the token after them, or table -1.
func usingSampleTable(toks []token, at int) (table, alias, next int) {
	depth := 0
	for k := at - 1; k >= 0; k-- {
		switch {
		case toks[k].kind == tkOp && toks[k].text == ")":
			depth++
		case toks[k].kind == tkOp && toks[k].text == "(":
			if depth == 0 {
				return -1, 0, 0
			}
			depth--
		case depth == 0 && toks[k].is("from"):
			table, alias, next = k+1, k+1, k+2
			if table >= at || !isTableToken(toks[table]) {
				return -1, 0, 0
			}
			switch {
			case next < at && toks[next].is("as") && next+1 < at:
				alias, next = next+1, next+2
			case next < at && toks[next].kind == tkIdent && !clauseAfterFrom[strings.ToLower(toks[next].text)]:
				alias, next = next, next+1
			}
			// one table: what follows is a clause (or the sample itself)
			if next < at && !(toks[next].kind == tkIdent && clauseAfterFrom[strings.ToLower(toks[next].text)]) {
				return -1, 0, 0
			}
			return table, alias, next
		}
	}
	return -1, 0, 0
}

func isTableToken(t token) bool {
	return t.kind == tkIdent || t.kind == tkQuoted || t.kind == tkDQuoted || t.kind == tkString
}

// sampleFilter reads a sample spec from toks[i]: the tokens that filter the
// rows, and where the spec ends.
func sampleFilter(text string, toks []token, i int) ([]token, int, error) {
	at := func(k int) token {
		if k < len(toks) {
			return toks[k]
		}
		return token{kind: tkSpace, pos: len(text)}
	}
	paren := false
	if m := at(i); m.kind == tkIdent && at(i+1).kind == tkOp && at(i+1).text == "(" {
		switch strings.ToLower(m.text) {
		case "bernoulli", "system", "reservoir":
		default:
			return nil, 0, errAt(text, m.pos, "unknown sampling method %s (bernoulli, system, reservoir)", m.text)
		}
		paren, i = true, i+2
	}
	num := at(i)
	if num.kind != tkNumber {
		return nil, 0, errAt(text, num.pos, "a sample size is a number followed by %% or ROWS")
	}
	n, err := strconv.ParseFloat(num.text, 64)
	if err != nil || n < 0 {
		return nil, 0, errAt(text, num.pos, "bad sample size %s", num.text)
	}
	unit := at(i + 1)
	var filter []token
	word := func(s string) token { return token{kind: tkIdent, text: s, pos: num.pos} }
	op := func(s string) token { return token{kind: tkOp, text: s, pos: num.pos} }
	switch {
	case unit.kind == tkOp && unit.text == "%" || unit.is("percent"):
		if n > 100 {
			return nil, 0, errAt(text, num.pos, "a sample percentage is between 0 and 100")
		}
		filter = []token{word("WHERE"), word("random"), op("("), op(")"), op("<"), {kind: tkNumber, text: strconv.FormatFloat(n/100, 'g', -1, 64), pos: num.pos}}
	case unit.is("rows"):
		if n != float64(int64(n)) {
			return nil, 0, errAt(text, num.pos, "a sample of ROWS takes a whole number")
		}
		filter = []token{word("ORDER"), word("BY"), word("random"), op("("), op(")"), word("LIMIT"), num}
	default:
		return nil, 0, errAt(text, unit.pos, "a sample size is followed by %% or ROWS")
	}
	i += 2
	if paren {
		if t := at(i); t.kind != tkOp || t.text != ")" {
			return nil, 0, errAt(text, t.pos, "expected ) after the sample size")
		}
		i++
	}
	if t := at(i); t.is("repeatable") {
		return nil, 0, &Error{Msg: "REPEATABLE samples are not supported (random() has no seed)", Offset: t.pos, Err: ErrUnsupported}
	}
	return filter, i, nil
}

// sampledTable is (SELECT * FROM table filter) AS alias.
func sampledTable(table, alias token, filter []token) []token {
	name := alias
	if name.kind == tkString || name.kind == tkQuoted || name.kind == tkDQuoted {
		// a path: the table's name, as FROM 'x.parquet' names it
		base := filepath.Base(name.unquoted())
		base = strings.TrimSuffix(base, filepath.Ext(base))
		name = token{kind: tkDQuoted, text: `"` + strings.ReplaceAll(base, `"`, `""`) + `"`, pos: name.pos}
	}
	p := table.pos
	out := []token{{kind: tkOp, text: "(", pos: p}, {kind: tkIdent, text: "SELECT", pos: p}, {kind: tkOp, text: "*", pos: p},
		{kind: tkIdent, text: "FROM", pos: p}, table}
	out = append(out, filter...)
	return append(out, token{kind: tkOp, text: ")", pos: p}, token{kind: tkIdent, text: "AS", pos: p}, name)
}

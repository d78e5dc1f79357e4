package plan

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Samples. A table in FROM may be followed by TABLESAMPLE spec, and a SELECT
// whose FROM is one table by USING SAMPLE spec, spec being n% (or n
// PERCENT), n ROWS, or either inside a method's parentheses
// (bernoulli(10%), reservoir(100 ROWS), system(5%)). The table becomes a
// derived table of the same name: for a percentage each row is kept with
// that probability (WHERE random() < p/100), for n ROWS n rows are drawn
// uniformly (ORDER BY random() LIMIT n). REPEATABLE (a seed) is refused:
// random() has none.

// SampleTokens rewrites the samples of a statement's tokens.
func SampleTokens(text string, toks []parse.Token) ([]parse.Token, error) {
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		var table, alias, next, spec int // next: the token after the table (and its alias)
		switch {
		case t.Is("tablesample"):
			table, alias, next, spec = i-1, i-1, i, i+1
			if table < 1 || !isTableToken(toks[table]) || !(toks[table-1].Is("from") || toks[table-1].Is("join") || toks[table-1].Kind == parse.Op && toks[table-1].Text == ",") {
				return nil, errAt(text, t.Pos, "TABLESAMPLE follows a table name in FROM")
			}
		case t.Is("using") && i+1 < len(toks) && toks[i+1].Is("sample"):
			table, alias, next = usingSampleTable(toks, i)
			if table < 0 {
				return nil, &Error{Msg: "USING SAMPLE is supported after FROM one table (TABLESAMPLE samples one table of a join)", Offset: t.Pos, Err: ErrUnsupported}
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
		out := append([]parse.Token{}, toks[:table]...)
		out = append(out, derived...)
		if t.Is("using") {
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
func usingSampleTable(toks []parse.Token, at int) (table, alias, next int) {
	depth := 0
	for k := at - 1; k >= 0; k-- {
		switch {
		case toks[k].Kind == parse.Op && toks[k].Text == ")":
			depth++
		case toks[k].Kind == parse.Op && toks[k].Text == "(":
			if depth == 0 {
				return -1, 0, 0
			}
			depth--
		case depth == 0 && toks[k].Is("from"):
			table, alias, next = k+1, k+1, k+2
			if table >= at || !isTableToken(toks[table]) {
				return -1, 0, 0
			}
			switch {
			case next < at && toks[next].Is("as") && next+1 < at:
				alias, next = next+1, next+2
			case next < at && toks[next].Kind == parse.Ident && !parse.EndsFromList(toks[next].Text):
				alias, next = next, next+1
			}
			// one table: what follows is a clause (or the sample itself)
			if next < at && !(toks[next].Kind == parse.Ident && parse.EndsFromList(toks[next].Text)) {
				return -1, 0, 0
			}
			return table, alias, next
		}
	}
	return -1, 0, 0
}

func isTableToken(t parse.Token) bool {
	return t.Kind == parse.Ident || t.Kind == parse.Quoted || t.Kind == parse.DQuoted || t.Kind == parse.String
}

// sampleFilter reads a sample spec from toks[i]: the tokens that filter the
// rows, and where the spec ends.
func sampleFilter(text string, toks []parse.Token, i int) ([]parse.Token, int, error) {
	at := func(k int) parse.Token {
		if k < len(toks) {
			return toks[k]
		}
		return parse.Token{Kind: parse.Space, Pos: len(text)}
	}
	paren := false
	if m := at(i); m.Kind == parse.Ident && at(i+1).Kind == parse.Op && at(i+1).Text == "(" {
		switch strings.ToLower(m.Text) {
		case "bernoulli", "system", "reservoir":
		default:
			return nil, 0, errAt(text, m.Pos, "unknown sampling method %s (bernoulli, system, reservoir)", m.Text)
		}
		paren, i = true, i+2
	}
	num := at(i)
	if num.Kind != parse.Number {
		return nil, 0, errAt(text, num.Pos, "a sample size is a number followed by %% or ROWS")
	}
	n, err := strconv.ParseFloat(num.Text, 64)
	if err != nil || n < 0 {
		return nil, 0, errAt(text, num.Pos, "bad sample size %s", num.Text)
	}
	unit := at(i + 1)
	var filter []parse.Token
	word := func(s string) parse.Token { return parse.Token{Kind: parse.Ident, Text: s, Pos: num.Pos} }
	op := func(s string) parse.Token { return parse.Token{Kind: parse.Op, Text: s, Pos: num.Pos} }
	switch {
	case unit.Kind == parse.Op && unit.Text == "%" || unit.Is("percent"):
		if n > 100 {
			return nil, 0, errAt(text, num.Pos, "a sample percentage is between 0 and 100")
		}
		filter = []parse.Token{word("WHERE"), word("random"), op("("), op(")"), op("<"), {Kind: parse.Number, Text: strconv.FormatFloat(n/100, 'g', -1, 64), Pos: num.Pos}}
	case unit.Is("rows"):
		if n != float64(int64(n)) {
			return nil, 0, errAt(text, num.Pos, "a sample of ROWS takes a whole number")
		}
		filter = []parse.Token{word("ORDER"), word("BY"), word("random"), op("("), op(")"), word("LIMIT"), num}
	default:
		return nil, 0, errAt(text, unit.Pos, "a sample size is followed by %% or ROWS")
	}
	i += 2
	if paren {
		if t := at(i); t.Kind != parse.Op || t.Text != ")" {
			return nil, 0, errAt(text, t.Pos, "expected ) after the sample size")
		}
		i++
	}
	if t := at(i); t.Is("repeatable") {
		return nil, 0, &Error{Msg: "REPEATABLE samples are not supported (random() has no seed)", Offset: t.Pos, Err: ErrUnsupported}
	}
	return filter, i, nil
}

// sampledTable is (SELECT * FROM table filter) AS alias.
func sampledTable(table, alias parse.Token, filter []parse.Token) []parse.Token {
	name := alias
	if name.Kind == parse.String || name.Kind == parse.Quoted || name.Kind == parse.DQuoted {
		// a path: the table's name, as FROM 'x.parquet' names it
		base := filepath.Base(name.Unquoted())
		base = strings.TrimSuffix(base, filepath.Ext(base))
		name = parse.Token{Kind: parse.DQuoted, Text: `"` + strings.ReplaceAll(base, `"`, `""`) + `"`, Pos: name.Pos}
	}
	p := table.Pos
	out := []parse.Token{{Kind: parse.Op, Text: "(", Pos: p}, {Kind: parse.Ident, Text: "SELECT", Pos: p}, {Kind: parse.Op, Text: "*", Pos: p},
		{Kind: parse.Ident, Text: "FROM", Pos: p}, table}
	out = append(out, filter...)
	return append(out, parse.Token{Kind: parse.Op, Text: ")", Pos: p}, parse.Token{Kind: parse.Ident, Text: "AS", Pos: p}, name)
}

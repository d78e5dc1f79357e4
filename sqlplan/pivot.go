package sqlplan

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's PIVOT and UNPIVOT statements, planned as the queries they stand
// for:
//
//	PIVOT t ON k [IN (v, ...)] [USING agg(x) [AS a], ...] [GROUP BY g, ...] [ORDER BY ...] [LIMIT ...]
//
// is SELECT g, ..., agg(x) FILTER (WHERE k IS NOT DISTINCT FROM v) AS "v", ...
// FROM t GROUP BY g, ...: one column per value of k (those of the IN list,
// else the distinct values k takes in t, in order, which a query finds
// when the statement is prepared), per aggregate (count(*) by default;
// named v_a when there are several or they have aliases), grouped by the
// GROUP BY columns or else by every column of t that neither k nor the
// aggregates name.
//
//	UNPIVOT t ON c1, c2, ... [INTO NAME n VALUE v] [ORDER BY ...] [LIMIT ...]
//
// is SELECT others, 'c1' AS n, c1 AS v FROM t WHERE c1 IS NOT NULL UNION
// ALL ... (names default to name and value).

// pivotClauses splits toks (after PIVOT or UNPIVOT) at the top-level
// words of words, returning each clause's tokens by its word ("" for the
// tokens before the first) and the index of the first token of the tail
// (ORDER BY or LIMIT).
func pivotClauses(toks []parse.Token, words ...string) (map[string][]parse.Token, int) {
	out := map[string][]parse.Token{}
	cur, from := "", 0
	tail := len(toks)
	parse.EachTopLevelWord(toks, func(x int, t parse.Token) bool {
		if t.Is("order") || t.Is("limit") {
			out[cur] = toks[from:x]
			tail = x
			return false
		}
		for _, w := range words {
			if t.Is(w) {
				out[cur] = toks[from:x]
				cur, from = w, x+1
			}
		}
		return true
	})
	if tail == len(toks) {
		out[cur] = toks[from:]
	}
	return out, tail
}

// queryAll runs a query of the engine and returns its columns and rows as
// scalars.
func (e *Engine) queryAll(text string) ([]Column, [][]any, error) {
	st, err := e.Prepare(text)
	if err != nil {
		return nil, nil, err
	}
	rows, err := st.Query(context.Background(), nil)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var out [][]any
	for {
		b, err := rows.Next()
		if errors.Is(err, io.EOF) {
			return rows.Columns(), out, nil
		}
		if err != nil {
			return nil, nil, err
		}
		for i := 0; i < b.N; i++ {
			row := make([]any, len(b.Cols))
			for j, c := range b.Cols {
				row[j] = c.Get(i)
			}
			out = append(out, row)
		}
	}
}

// expandPivots replaces each parenthesized PIVOT or UNPIVOT in toks — a
// derived table, a CTE, a subquery — by its query. The new tokens take the
// position of the '(' (errors in them point there).
func (e *Engine) expandPivots(text string, toks []parse.Token) ([]parse.Token, error) {
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Kind != parse.Op || toks[i].Text != "(" || !(toks[i+1].Is("pivot") || toks[i+1].Is("unpivot")) {
			continue
		}
		k := parse.ClosingParen(toks, i)
		if k < 0 {
			return nil, errAt(text, toks[i].Pos, "unclosed (")
		}
		var q string
		var err error
		if toks[i+1].Is("pivot") {
			q, err = e.pivotQuery(text, toks[i+1:k])
		} else {
			q, err = e.unpivotQuery(text, toks[i+1:k])
		}
		if err != nil {
			return nil, err
		}
		all, err := parse.Lex(q)
		if err != nil {
			return nil, err
		}
		inner := parse.Significant(all)
		for x := range inner {
			inner[x].Pos = toks[i].Pos
		}
		toks = append(toks[:i+1:i+1], append(inner, toks[k:]...)...)
	}
	return toks, nil
}

// pivotQuery is the query of PIVOT (toks[0]).
func (e *Engine) pivotQuery(text string, toks []parse.Token) (string, error) {
	cl, tail := pivotClauses(toks[1:], "on", "using", "group")
	tail++
	table, on := cl[""], cl["on"]
	if len(table) == 0 || len(on) == 0 {
		return "", errAt(text, toks[0].Pos, "PIVOT takes a table and ON")
	}
	from := parse.TokText(table)
	// ON k IN (v, ...): the values given.
	var in []parse.Token
	for x, t := range on {
		if t.Is("in") && x+1 < len(on) && on[x+1].Kind == parse.Op && on[x+1].Text == "(" {
			in, on = on[x+1:], on[:x]
			break
		}
	}
	key := parse.TokText(on)
	type value struct{ lit, name string }
	var values []value
	if in != nil {
		end := parse.ClosingParen(in, 0)
		if end != len(in)-1 {
			return "", errAt(text, in[0].Pos, "expected IN (values) after PIVOT ... ON")
		}
		for _, v := range parse.SplitList(in[1:end]) {
			if len(v) == 0 {
				return "", errAt(text, in[0].Pos, "empty value in PIVOT ... IN")
			}
			name := parse.TokText(v)
			if len(v) == 1 && v[0].Kind == parse.String {
				name = v[0].Unquoted()
			}
			values = append(values, value{lit: parse.TokText(v), name: name})
		}
	} else {
		cols, rows, err := e.queryAll("SELECT DISTINCT CAST(" + key + " AS VARCHAR), " + key + " FROM " + from + " WHERE (" + key + ") IS NOT NULL ORDER BY 2")
		if err != nil {
			return "", err
		}
		for _, r := range rows {
			s, _ := r[0].(string)
			values = append(values, value{lit: "CAST(" + parse.QuoteString(s) + " AS " + cols[1].Type.SQLName() + ")", name: s})
		}
		if len(values) == 0 {
			return "", errAt(text, toks[0].Pos, "PIVOT: %s has no values in %s", key, from)
		}
	}
	// USING agg [AS a], ...: count(*) by default.
	type aggregate struct{ call, alias string }
	aggs := []aggregate{{call: "count(*)"}}
	if using, ok := cl["using"]; ok {
		if len(using) == 0 {
			return "", errAt(text, toks[0].Pos, "expected aggregates after PIVOT ... USING")
		}
		aggs = nil
		for _, a := range parse.SplitList(using) {
			if len(a) == 0 {
				return "", errAt(text, toks[0].Pos, "empty aggregate in PIVOT ... USING")
			}
			alias := ""
			if n := len(a); n > 2 && a[n-2].Is("as") {
				alias, a = a[n-1].Unquoted(), a[:n-2]
			}
			aggs = append(aggs, aggregate{call: parse.TokText(a), alias: alias})
		}
	}
	// GROUP BY g, ...: else every column neither ON nor USING names.
	var groups []string
	if g, ok := cl["group"]; ok {
		if len(g) < 2 || !g[0].Is("by") {
			return "", errAt(text, toks[0].Pos, "expected GROUP BY and columns in PIVOT")
		}
		for _, c := range parse.SplitList(g[1:]) {
			groups = append(groups, parse.TokText(c))
		}
	} else {
		cols, _, err := e.queryAll("SELECT * FROM " + from + " LIMIT 0")
		if err != nil {
			return "", err
		}
		used := parse.NamesIn(on)
		for n := range parse.NamesIn(cl["using"]) {
			used[n] = true
		}
		for _, c := range cols {
			if !used[strings.ToLower(c.Name)] {
				groups = append(groups, parse.QuoteIdent(c.Name))
			}
		}
	}
	var items []string
	items = append(items, groups...)
	for _, v := range values {
		for _, a := range aggs {
			name := v.name
			if len(aggs) > 1 || a.alias != "" {
				suffix := a.alias
				if suffix == "" {
					suffix = a.call
				}
				name += "_" + suffix
			}
			items = append(items, a.call+" FILTER (WHERE ("+key+") IS NOT DISTINCT FROM "+v.lit+") AS "+parse.QuoteIdent(name))
		}
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + from
	if len(groups) > 0 {
		q += " GROUP BY " + strings.Join(groups, ", ")
	}
	if tail < len(toks) {
		q += " " + parse.TokText(toks[tail:])
	}
	return q, nil
}

// unpivotQuery is the query of UNPIVOT (toks[0]).
func (e *Engine) unpivotQuery(text string, toks []parse.Token) (string, error) {
	cl, tail := pivotClauses(toks[1:], "on", "into")
	tail++
	table, on := cl[""], cl["on"]
	if len(table) == 0 || len(on) == 0 {
		return "", errAt(text, toks[0].Pos, "UNPIVOT takes a table and ON columns")
	}
	from := parse.TokText(table)
	nameCol, valueCol := "name", "value"
	if into, ok := cl["into"]; ok {
		if len(into) != 4 || !into[0].Is("name") || !into[2].Is("value") {
			return "", errAt(text, toks[0].Pos, "expected INTO NAME n VALUE v")
		}
		nameCol, valueCol = into[1].Unquoted(), into[3].Unquoted()
	}
	var unpivoted []string
	skip := map[string]bool{}
	for _, c := range parse.SplitList(on) {
		if len(c) != 1 || c[0].Kind != parse.Ident && c[0].Kind != parse.DQuoted && c[0].Kind != parse.Quoted {
			return "", errAt(text, on[0].Pos, "UNPIVOT ... ON takes column names")
		}
		unpivoted = append(unpivoted, c[0].Unquoted())
		skip[strings.ToLower(c[0].Unquoted())] = true
	}
	cols, _, err := e.queryAll("SELECT * FROM " + from + " LIMIT 0")
	if err != nil {
		return "", err
	}
	var others []string
	for _, c := range cols {
		if !skip[strings.ToLower(c.Name)] {
			others = append(others, parse.QuoteIdent(c.Name))
		}
	}
	var parts []string
	for _, c := range unpivoted {
		items := append(append([]string{}, others...), parse.QuoteString(c)+" AS "+parse.QuoteIdent(nameCol), parse.QuoteIdent(c)+" AS "+parse.QuoteIdent(valueCol))
		parts = append(parts, "SELECT "+strings.Join(items, ", ")+" FROM "+from+" WHERE "+parse.QuoteIdent(c)+" IS NOT NULL")
	}
	q := "SELECT * FROM (" + strings.Join(parts, " UNION ALL ") + ") AS unpivoted"
	if tail < len(toks) {
		q += " " + parse.TokText(toks[tail:])
	}
	return q, nil
}

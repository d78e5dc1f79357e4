package sqlplan

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's table functions that are queries written another way:
// query('SELECT ...') runs the query its string holds, query_table('t')
// reads tables by name (several, UNION ALL [BY NAME], from a list),
// repeat(value, n) and repeat_row(a, b, num_rows := n) give n copies of
// a row of constants, pragma_show('t') is DESCRIBE t and which_secret
// finds no secret (carquet keeps none: its object stores read their
// credentials from the SDK's chain, objstore/s3). The macro expander
// (macros.go) replaces a call in FROM by the query, as it does a table
// macro's; the query is then expanded and planned as any derived table.

// queryTableFunctions write the query of a call from its arguments, each
// the tokens of one argument; call is the function's name token.
var queryTableFunctions = map[string]func(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error){
	"query":        queryCall,
	"query_table":  queryTableCall,
	"repeat":       repeatCall,
	"repeat_row":   repeatRowCall,
	"pragma_show":  pragmaShowCall,
	"which_secret": whichSecretCall,
}

func init() {
	// Known in FROM and listed by duckdb_functions() as table functions.
	for name := range queryTableFunctions {
		tableFunctions[name] = true
	}
}

// expandQueryCall expands the call toks[i:k+1] of one of
// queryTableFunctions into its query, with its own macros expanded.
func (x *expander) expandQueryCall(toks []parse.Token, i, k int, name string) ([]parse.Token, error) {
	var args [][]parse.Token
	if k > i+2 {
		args = parse.SplitTopLevel(toks[i+2 : k])
	}
	for _, a := range args {
		if len(a) == 0 {
			return nil, errAt(x.text, toks[k].Pos, "missing argument of %s", name)
		}
	}
	body, err := queryTableFunctions[name](x, toks[i], args)
	if err != nil {
		return nil, err
	}
	if len(x.stack) >= maxMacroDepth {
		return nil, errAt(x.text, toks[i].Pos, "table functions nest deeper than %d: max expression depth exceeded", maxMacroDepth)
	}
	x.size += len(body)
	if x.size > maxMacroTokens {
		return nil, errAt(x.text, toks[i].Pos, "the macros expand to more than %d tokens", maxMacroTokens)
	}
	x.stack = append(x.stack, name)
	defer func() { x.stack = x.stack[:len(x.stack)-1] }()
	return x.expand(body)
}

// queryCall is query('SELECT ...'): the one query of the string. Its
// tokens keep their places in the statement's text, so that an error in
// the query points into the string (unless the string escapes a quote,
// which shifts the places: then errors point at the call).
func queryCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	if len(args) != 1 || len(args[0]) != 1 || args[0][0].Kind != parse.String {
		return nil, errAt(x.text, call.Pos, "query takes one string constant: the query to run")
	}
	lit := args[0][0]
	text := lit.Name()
	all, err := parse.Lex(text)
	if err != nil {
		return nil, errAt(x.text, lit.Pos, "query: %v", err)
	}
	toks := parse.Significant(all)
	for len(toks) > 0 && toks[len(toks)-1].Kind == parse.Op && toks[len(toks)-1].Text == ";" {
		toks = toks[:len(toks)-1]
	}
	if len(toks) == 0 || !startsQuery(toks[0]) || hasTopLevelSemicolon(toks) {
		return nil, errAt(x.text, lit.Pos, "query: expected a single SELECT statement")
	}
	// The places are exact when the string's contents stand verbatim
	// after its quote (not so for E'...', $$...$$, an escaped quote, or a
	// call in a macro's body).
	shift := lit.Pos + 1
	if end := shift + len(text); lit.Pos < 0 || end > len(x.text) || x.text[lit.Pos] != '\'' || x.text[shift:end] != text {
		shift = -1
	}
	for j := range toks {
		if shift < 0 {
			toks[j].Pos = call.Pos
		} else {
			toks[j].Pos += shift
		}
	}
	return toks, nil
}

// startsQuery reports whether a statement beginning with t is a query.
func startsQuery(t parse.Token) bool {
	if t.Kind == parse.Op {
		return t.Text == "("
	}
	for _, w := range []string{"select", "with", "from", "values", "table", "pivot", "unpivot"} {
		if t.Is(w) {
			return true
		}
	}
	return false
}

// hasTopLevelSemicolon reports whether toks hold more than one
// statement.
func hasTopLevelSemicolon(toks []parse.Token) bool {
	for _, t := range toks {
		if t.Kind == parse.Op && t.Text == ";" {
			return true
		}
	}
	return false
}

// queryTableCall is query_table('t'), query_table(['t1', 't2']) and
// query_table(['t1', 't2'], by_name): SELECT * of each table, the tables
// UNION ALL'd, by name when by_name is true. A name is one identifier,
// quoted as given.
func queryTableCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	usage := func() error {
		return errAt(x.text, call.Pos, "query_table takes a table name or a list of them, and for a list a BOOLEAN by_name: query_table('t'), query_table(['t1', 't2'], true)")
	}
	if len(args) < 1 || len(args) > 2 {
		return nil, usage()
	}
	names, list := stringConstants(args[0])
	if names == nil {
		return nil, usage()
	}
	if len(names) == 0 {
		return nil, errAt(x.text, call.Pos, "query_table: the list of tables is empty")
	}
	byName := false
	if len(args) == 2 {
		if !list || len(args[1]) != 1 || !args[1][0].Is("true") && !args[1][0].Is("false") {
			return nil, usage()
		}
		byName = args[1][0].Is("true")
	}
	var b strings.Builder
	for j, n := range names {
		if j > 0 {
			b.WriteString(" UNION ALL ")
			if byName {
				b.WriteString("BY NAME ")
			}
		}
		b.WriteString("SELECT * FROM " + parse.QuoteIdent(n))
	}
	return lexAt(b.String(), call.Pos), nil
}

// stringConstants reads an argument that is a string constant (list
// false) or a list of them, ['a', 'b'] (list true); nil if it is
// neither.
func stringConstants(arg []parse.Token) (names []string, list bool) {
	if len(arg) == 1 && arg[0].Kind == parse.String {
		return []string{arg[0].Name()}, false
	}
	n := len(arg)
	if n < 2 || arg[0].Kind != parse.Op || arg[0].Text != "[" || arg[n-1].Kind != parse.Op || arg[n-1].Text != "]" {
		return nil, false
	}
	names = []string{}
	if n == 2 {
		return names, true
	}
	for _, item := range parse.SplitTopLevel(arg[1 : n-1]) {
		if len(item) != 1 || item[0].Kind != parse.String {
			return nil, false
		}
		names = append(names, item[0].Name())
	}
	return names, true
}

// lexAt lexes SQL that carquet wrote, every token placed at pos (the
// call's place, where errors about it point).
func lexAt(text string, pos int) []parse.Token {
	all, err := parse.Lex(text)
	if err != nil {
		panic("sqlplan: query written for a table function does not lex: " + text)
	}
	toks := parse.Significant(all)
	for j := range toks {
		toks[j].Pos = pos
	}
	return toks
}

// repeatCall is repeat(value, n): n rows of one column, named by the
// value's text as DuckDB names it (a string by its contents; an
// expression by its text, where DuckDB shows its folded value).
func repeatCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	if len(args) != 2 || isNamedArg(args[0]) || isNamedArg(args[1]) {
		return nil, errAt(x.text, call.Pos, "repeat takes a value and a count: repeat(value, n)")
	}
	n, err := repeatCount(x, call, "repeat", args[1])
	if err != nil {
		return nil, err
	}
	name := parse.CallText(args[0])
	if len(args[0]) == 1 && args[0][0].Kind == parse.String {
		name = args[0][0].Name()
	}
	return repeatQuery(call.Pos, [][]parse.Token{args[0]}, []string{name}, n), nil
}

// repeatRowCall is repeat_row(a, b, ..., num_rows := n): n rows of the
// values, in columns column0, column1, ...
func repeatRowCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	var vals [][]parse.Token
	var names []string
	n := int64(-1)
	for _, a := range args {
		if !isNamedArg(a) {
			vals = append(vals, a)
			names = append(names, "column"+strconv.Itoa(len(names)))
			continue
		}
		if !strings.EqualFold(a[0].Unquoted(), "num_rows") {
			return nil, errAt(x.text, a[0].Pos, "repeat_row has no parameter %s (it takes num_rows)", a[0].Unquoted())
		}
		var err error
		if n, err = repeatCount(x, call, "repeat_row", a[3:]); err != nil {
			return nil, err
		}
	}
	if len(vals) == 0 {
		return nil, errAt(x.text, call.Pos, "repeat_row requires at least one column to be specified")
	}
	if n < 0 {
		return nil, errAt(x.text, call.Pos, "repeat_row requires num_rows to be specified")
	}
	return repeatQuery(call.Pos, vals, names, n), nil
}

// isNamedArg reports whether an argument is name := value.
func isNamedArg(arg []parse.Token) bool {
	return len(arg) > 3 && parse.IsNameToken(arg[0]) && parse.IsNamedArrow(arg, 1)
}

// repeatCount reads the count of repeat or repeat_row: an integer
// constant, not negative, not NULL, as DuckDB requires.
func repeatCount(x *expander, call parse.Token, fn string, arg []parse.Token) (int64, error) {
	if len(arg) == 1 && arg[0].Is("null") {
		return 0, errAt(x.text, arg[0].Pos, "%s: the count cannot be NULL", fn)
	}
	neg := len(arg) == 2 && arg[0].Kind == parse.Op && arg[0].Text == "-"
	if neg {
		arg = arg[1:]
	}
	if len(arg) != 1 || arg[0].Kind != parse.Number {
		return 0, errAt(x.text, call.Pos, "%s takes an integer constant count", fn)
	}
	n, err := strconv.ParseInt(arg[0].Text, 10, 64)
	if err != nil {
		return 0, errAt(x.text, arg[0].Pos, "%s takes an integer constant count, not %s", fn, arg[0].Text)
	}
	if neg && n != 0 {
		return 0, errAt(x.text, arg[0].Pos, "%s: the count cannot be less than 0", fn)
	}
	return n, nil
}

// repeatQuery is SELECT v0 AS name0, ... FROM range(n): the rows are
// made as the scan of range makes them, a batch at a time.
func repeatQuery(pos int, vals [][]parse.Token, names []string, n int64) []parse.Token {
	at := func(kind parse.TokenKind, text string) parse.Token {
		return parse.Token{Kind: kind, Text: text, Pos: pos}
	}
	out := []parse.Token{at(parse.Ident, "SELECT")}
	for j, v := range vals {
		if j > 0 {
			out = append(out, at(parse.Op, ","))
		}
		out = append(out, parse.Parenthesized(v, pos)...)
		out = append(out, at(parse.Ident, "AS"), at(parse.DQuoted, parse.QuoteIdent(names[j])))
	}
	return append(out, lexAt("FROM range("+strconv.FormatInt(n, 10)+")", pos)...)
}

// pragmaShowCall is pragma_show('t'): DESCRIBE t, whose first columns
// are DuckDB's pragma_show's.
func pragmaShowCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	if len(args) != 1 || len(args[0]) != 1 || args[0][0].Kind != parse.String && !parse.IsNameToken(args[0][0]) {
		return nil, errAt(x.text, call.Pos, "pragma_show takes one table name")
	}
	// DESCRIBE adds carquet's parquet_type, which pragma_show lacks.
	cols := "column_name, column_type, \"null\", \"key\", \"default\", extra"
	return lexAt("SELECT "+cols+" FROM "+parse.Backquote(describeMarker+args[0][0].Name()), call.Pos), nil
}

// whichSecretCall is which_secret(path, type): the secret DuckDB would
// use for the path. carquet has no CREATE SECRET and keeps no secrets,
// so it finds none: no row, with DuckDB's columns.
func whichSecretCall(x *expander, call parse.Token, args [][]parse.Token) ([]parse.Token, error) {
	if len(args) != 2 {
		return nil, errAt(x.text, call.Pos, "which_secret takes a path and a secret type: which_secret('s3://bucket/f', 's3')")
	}
	return lexAt("SELECT CAST(NULL AS VARCHAR) AS name, CAST(NULL AS VARCHAR) AS persistent, CAST(NULL AS VARCHAR) AS storage LIMIT 0", call.Pos), nil
}

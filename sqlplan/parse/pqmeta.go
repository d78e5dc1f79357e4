package parse

import (
	"net/url"
	"strings"
)

// DuckDB's Parquet introspection table functions, parquet_metadata(path)
// and its kin, and glob(pattern): the parser knows no table functions, so
// the rewrite makes each call a table name of its own, the marker then
// the call's arguments as a URL query, which the planner turns into rows
// (sqlplan/pqmeta.go).

// ParquetMetaMarker begins the table name a call becomes.
const ParquetMetaMarker = "__carquet_pqmeta__:"

// ParquetMetaFunctions are the functions, each with the number of
// arguments it takes after the path (or the pattern).
var ParquetMetaFunctions = map[string]int{
	"parquet_metadata":      0,
	"parquet_schema":        0,
	"parquet_file_metadata": 0,
	"parquet_kv_metadata":   0,
	"parquet_full_metadata": 0,
	"parquet_bloom_probe":   2, // the column's name and the value
	"glob":                  0,
}

// parquetMetaCall reads the call of function fn at toks[i] (its '(' at
// i+1) and returns the table name it becomes and the index of its ')'.
// The arguments are constants: a path is a string or a list of strings
// ['a', 'b'], the probe's column a string, its value a string, a number,
// true, false or NULL.
func parquetMetaCall(src string, toks []Token, i int, fn string) (string, int, error) {
	k := ClosingParen(toks, i+1)
	if k < 0 {
		return "", 0, ErrAt(src, toks[i].Pos, "unterminated %s(...)", fn)
	}
	args := SplitList(toks[i+2 : k])
	if want := 1 + ParquetMetaFunctions[fn]; len(args) != want {
		return "", 0, ErrAt(src, toks[i].Pos, "%s takes %d argument(s), got %d", fn, want, len(args))
	}
	q := url.Values{"fn": {fn}}
	paths, ok := stringList(args[0])
	if !ok {
		return "", 0, ErrAt(src, toks[i].Pos, "%s takes a path: a string or a list of strings", fn)
	}
	q["path"] = paths
	if fn == "parquet_bloom_probe" {
		col := args[1]
		if len(col) != 1 || col[0].Kind != String {
			return "", 0, ErrAt(src, toks[i].Pos, "parquet_bloom_probe takes the column's name as a string")
		}
		q.Set("column", col[0].Unquoted())
		kind, text, ok := constantArg(args[2])
		if !ok {
			return "", 0, ErrAt(src, toks[i].Pos, "parquet_bloom_probe takes a constant value: a string, a number, true, false or NULL")
		}
		q.Set("kind", kind)
		q.Set("value", text)
	}
	return ParquetMetaMarker + q.Encode(), k, nil
}

// stringList reads 'a' or ['a', 'b', ...].
func stringList(toks []Token) ([]string, bool) {
	if len(toks) == 1 && toks[0].Kind == String {
		return []string{toks[0].Unquoted()}, true
	}
	if len(toks) < 3 || toks[0].Kind != Op || toks[0].Text != "[" || toks[len(toks)-1].Kind != Op || toks[len(toks)-1].Text != "]" {
		return nil, false
	}
	var out []string
	for _, item := range SplitList(toks[1 : len(toks)-1]) {
		if len(item) != 1 || item[0].Kind != String {
			return nil, false
		}
		out = append(out, item[0].Unquoted())
	}
	return out, len(out) > 0
}

// constantArg reads a constant: its kind ("string", "number", "bool" or
// "null") and its text.
func constantArg(toks []Token) (kind, text string, ok bool) {
	switch {
	case len(toks) == 1 && toks[0].Kind == String:
		return "string", toks[0].Unquoted(), true
	case len(toks) == 1 && toks[0].Kind == Number:
		return "number", toks[0].Text, true
	case len(toks) == 2 && toks[0].Kind == Op && (toks[0].Text == "-" || toks[0].Text == "+") && toks[1].Kind == Number:
		return "number", strings.TrimPrefix(toks[0].Text, "+") + toks[1].Text, true
	case len(toks) == 1 && (toks[0].Is("true") || toks[0].Is("false")):
		return "bool", strings.ToLower(toks[0].Text), true
	case len(toks) == 1 && toks[0].Is("null"):
		return "null", "", true
	}
	return "", "", false
}

// hasParquetMeta reports whether fn is one of ParquetMetaFunctions.
func hasParquetMeta(fn string) bool {
	_, ok := ParquetMetaFunctions[fn]
	return ok
}

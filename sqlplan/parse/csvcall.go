package parse

import (
	"net/url"
	"strings"
)

// DuckDB's CSV table functions, read_csv(path, option = value, ...),
// read_csv_auto (the same) and sniff_csv(path), and FROM 'file.csv': the
// parser knows no table functions, so the rewrite makes each a table name
// of its own, the marker then the call as a URL query (fn, path, and each
// option's name "o" and text "v" in order), which the planner reads
// (sqlplan/csvbind.go, sqlplan/textfile).

// CSVReadMarker begins the table name a call becomes.
const CSVReadMarker = "__carquet_readcsv__:"

// CSVFunctions are the CSV table functions.
var CSVFunctions = map[string]bool{"read_csv": true, "read_csv_auto": true, "sniff_csv": true}

// csvCall reads the call of fn at toks[i] (its '(' at i+1) and returns
// the table name it becomes and the index of its ')'.
func csvCall(src string, toks []Token, i int, fn string) (string, int, error) {
	k := ClosingParen(toks, i+1)
	if k < 0 {
		return "", 0, ErrAt(src, toks[i].Pos, "unterminated %s(...)", fn)
	}
	args := SplitList(toks[i+2 : k])
	if len(args) == 0 {
		return "", 0, ErrAt(src, toks[i].Pos, "%s takes a path: a string or a list of strings", fn)
	}
	paths, ok := stringList(args[0])
	if !ok {
		return "", 0, ErrAt(src, toks[i].Pos, "%s takes a path: a string or a list of strings", fn)
	}
	q := url.Values{"fn": {fn}, "path": paths}
	for _, a := range args[1:] {
		name, val, ok := namedArg(a)
		if !ok {
			return "", 0, ErrAt(src, a[0].Pos, "%s takes its options as name = value", fn)
		}
		q.Add("o", strings.ToLower(name))
		q.Add("v", joinTokens(val))
	}
	return CSVReadMarker + q.Encode(), k, nil
}

// joinTokens is tokens' text, to be lexed again.
func joinTokens(toks []Token) string {
	texts := make([]string, len(toks))
	for i, t := range toks {
		texts[i] = t.Text
	}
	return strings.Join(texts, " ")
}

// IsCSVPath reports whether FROM 'path' names CSV files: by the
// extension .csv or .tsv, compressed (.gz) or not.
func IsCSVPath(path string) bool {
	p := strings.ToLower(strings.TrimSuffix(strings.ToLower(path), ".gz"))
	return strings.HasSuffix(p, ".csv") || strings.HasSuffix(p, ".tsv")
}

// fromFileName is the table name of FROM 'path': read_csv_auto's for
// CSV files, else the path (a Parquet file or a table).
func fromFileName(path string) string {
	if !IsCSVPath(path) {
		return path
	}
	return CSVReadMarker + url.Values{"fn": {"read_csv_auto"}, "path": {path}}.Encode()
}

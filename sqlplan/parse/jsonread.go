package parse

import (
	"net/url"
	"strings"
)

// DuckDB's file table functions of JSON and text: read_json and its
// kin, read_json_objects, read_text and read_blob. As with
// parquet_metadata (pqmeta.go), the parser knows no table functions, so
// the rewrite makes each call a table name of its own: the marker, then
// the call as a URL query (fn, the paths, each named option), which the
// planner turns into a scan (sqlplan/textbind.go, sqlplan/textfile).
// A FROM 'x.json' (or .ndjson, .jsonl, .json.gz) becomes
// read_json_auto('x.json') the same way.

// FileReadMarker begins the table name a call becomes.
const FileReadMarker = "__carquet_fileread__:"

// FileReadFunctions are the functions, each true when it takes named
// options after the path.
var FileReadFunctions = map[string]bool{
	"read_json": true, "read_json_auto": true, "read_ndjson": true, "read_ndjson_auto": true,
	"read_json_objects": true, "read_json_objects_auto": true, "read_ndjson_objects": true,
	"read_text": false, "read_blob": false,
}

// IsJSONPath reports whether a FROM 'path' names JSON files by its
// extension, read as read_json_auto reads them.
func IsJSONPath(path string) bool {
	p := strings.ToLower(path)
	for _, z := range []string{".gz", ".zst"} {
		p = strings.TrimSuffix(p, z)
	}
	return strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".ndjson") || strings.HasSuffix(p, ".jsonl")
}

// JSONPathTable is the table name of FROM 'path' for a JSON path.
func JSONPathTable(path string) string {
	return FileReadMarker + url.Values{"fn": {"read_json_auto"}, "path": {path}}.Encode()
}

// fileReadCall reads the call of fn at toks[i] (its '(' at i+1) and
// returns the table name it becomes and the index of its ')'. The path
// is a string or a list of strings; each option is name=value (or
// name := value) with a constant value, or a struct of strings
// {'a': 'INTEGER', ...} (columns), kept as the option's pairs
// "a\x1fINTEGER" in order.
func fileReadCall(src string, toks []Token, i int, fn string) (string, int, error) {
	k := ClosingParen(toks, i+1)
	if k < 0 {
		return "", 0, ErrAt(src, toks[i].Pos, "unterminated %s(...)", fn)
	}
	args := SplitList(toks[i+2 : k])
	q := url.Values{"fn": {fn}}
	paths, ok := stringList(args[0])
	if !ok {
		return "", 0, ErrAt(src, toks[i].Pos, "%s takes a path: a string or a list of strings", fn)
	}
	q["path"] = paths
	for _, arg := range args[1:] {
		if !FileReadFunctions[fn] {
			return "", 0, ErrAt(src, toks[i].Pos, "%s takes one argument, the path", fn)
		}
		name, val, ok := namedArg(arg)
		if !ok {
			return "", 0, ErrAt(src, toks[i].Pos, "%s: an option is name=value with a constant value", fn)
		}
		name = strings.ToLower(name)
		if pairs, isStruct := structArg(val); isStruct {
			q[name] = pairs
			q.Set("has_"+name, "true") // an empty struct has no pair
			continue
		}
		_, text, ok := constantArg(val)
		if !ok {
			return "", 0, ErrAt(src, toks[i].Pos, "%s: option %s takes a constant", fn, name)
		}
		q.Set(name, text)
	}
	return FileReadMarker + q.Encode(), k, nil
}

// namedArg splits name=value or name := value.
func namedArg(toks []Token) (string, []Token, bool) {
	if len(toks) < 3 || toks[0].Kind != Ident && toks[0].Kind != DQuoted {
		return "", nil, false
	}
	switch {
	case toks[1].Kind == Op && toks[1].Text == "=":
		return toks[0].Unquoted(), toks[2:], true
	case toks[1].Kind == Op && toks[1].Text == ":=":
		return toks[0].Unquoted(), toks[2:], true
	case len(toks) > 3 && toks[1].Kind == Op && toks[1].Text == ":" && toks[2].Kind == Op && toks[2].Text == "=":
		return toks[0].Unquoted(), toks[3:], true
	}
	return "", nil, false
}

// structArg reads {'k': 'v', k2: 'v2'} as the pairs "k\x1fv", "k2\x1fv2".
func structArg(toks []Token) ([]string, bool) {
	n := len(toks)
	if n < 2 || toks[0].Kind != Op || toks[0].Text != "{" || toks[n-1].Kind != Op || toks[n-1].Text != "}" {
		return nil, false
	}
	var out []string
	if n == 2 {
		return out, true
	}
	for _, item := range SplitList(toks[1 : n-1]) {
		if len(item) != 3 || item[1].Kind != Op || item[1].Text != ":" || item[2].Kind != String {
			return nil, false
		}
		if key := item[0]; key.Kind == String || key.Kind == Ident || key.Kind == DQuoted {
			out = append(out, key.Unquoted()+"\x1f"+item[2].Unquoted())
			continue
		}
		return nil, false
	}
	return out, true
}

// hasFileRead reports whether fn is one of FileReadFunctions.
func hasFileRead(fn string) bool {
	_, ok := FileReadFunctions[fn]
	return ok
}

package tpch

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed queries/q*.sql
var queryFiles embed.FS

// Query is one of the 22 TPC-H queries with the specification's
// validation parameters, as run unchanged by both engines.
type Query struct {
	N    int    // 1..22
	Name string // "q01"
	SQL  string // the text, comments included, no trailing semicolon
	// SortKeys are the output column names of the final ORDER BY, in order
	// (nil without one).
	SortKeys []string
}

// Queries returns the 22 queries in order.
func Queries() ([]Query, error) {
	var out []Query
	for n := 1; n <= 22; n++ {
		name := fmt.Sprintf("q%02d", n)
		b, err := queryFiles.ReadFile("queries/" + name + ".sql")
		if err != nil {
			return nil, err
		}
		text := strings.TrimRight(strings.TrimSpace(string(b)), ";")
		out = append(out, Query{N: n, Name: name, SQL: text, SortKeys: sortKeys(text)})
	}
	return out, nil
}

// sortKeys reads the names in the last ORDER BY of text (every TPC-H query
// orders by output columns, by name).
func sortKeys(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.Index(l, "--"); i >= 0 {
			l = l[:i]
		}
		lines = append(lines, l)
	}
	words := strings.Fields(strings.ToLower(strings.Join(lines, " ")))
	at := -1
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "order" && words[i+1] == "by" {
			at = i + 2
		}
	}
	if at < 0 {
		return nil
	}
	var keys []string
	for _, item := range strings.Split(strings.Join(words[at:], " "), ",") {
		f := strings.Fields(item)
		if len(f) == 0 {
			continue
		}
		name := f[0]
		if _, after, ok := strings.Cut(name, "."); ok {
			name = after
		}
		keys = append(keys, name) // a trailing "desc" or "limit n" follows the name
	}
	return keys
}

// Select parses a list such as "1,3,5" (empty: all 22).
func Select(all []Query, list string) ([]Query, error) {
	if strings.TrimSpace(list) == "" {
		return all, nil
	}
	var out []Query
	for _, f := range strings.Split(list, ",") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimPrefix(strings.TrimSpace(strings.ToLower(f)), "q"), "%d", &n); err != nil || n < 1 || n > len(all) {
			return nil, fmt.Errorf("tpch: no query %q (1..22)", f)
		}
		out = append(out, all[n-1])
	}
	return out, nil
}

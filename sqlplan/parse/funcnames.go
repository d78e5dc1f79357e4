package parse

import "sort"

// LambdaFunctions lists the functions that take a lambda (lambdaFuncs),
// sorted, for the engine's list of its functions (duckdb_functions());
// COLUMNS, a star expression rather than a function, is left out.
func LambdaFunctions() []string {
	out := make([]string, 0, len(lambdaFuncs))
	for name := range lambdaFuncs {
		if name != "columns" {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// keywordFunctions are DuckDB's functions named by a word the parser
// reserves (add(a, b)); quoteKeywordNames quotes such a word where a
// call of it may start an operand.
var keywordFunctions = map[string]bool{"add": true}

// startsOperand reports whether an operand may begin after token p: an
// operator or punctuation, or a word an expression follows (not a name,
// as the table of ALTER TABLE t ADD).
func startsOperand(p Token) bool {
	if p.Kind == Op || p.Kind == Space {
		return true
	}
	for _, w := range []string{"select", "where", "and", "or", "not", "then", "else", "when", "by", "having", "on", "in", "distinct", "is", "like", "between", "case", "return", "returning", "set", "values"} {
		if p.Is(w) {
			return true
		}
	}
	return false
}

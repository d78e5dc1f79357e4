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

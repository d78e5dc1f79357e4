// Package parse is the syntax stage of carquet's SQL engine (package
// sqlplan): SQL text in, tokens and text that github.com/xwb1989/sqlparser
// parses out, with errors at the line and column of the user's text.
//
// Lex splits a statement into Tokens (SplitStatements splits a script
// into statements); the statement forms the parser does not know walk
// them in package sqlplan. Rewrite turns the SQL users write in DuckDB
// and PostgreSQL style (casts with ::, '...' paths in FROM, window
// clauses, QUALIFY, DISTINCT ON, lambdas, list, struct and map literals,
// ...) into text the MySQL grammar parses, writing what it has no syntax
// for as marker calls and names (the *Marker constants) that the binder
// reads back; the Source it returns maps every offset of the rewritten
// text back to the user's (OrigOffset, ParseError, Locate). Unmark turns
// the markers in formatted text back into the SQL they stand for, and
// CloneAST copies a parsed tree so that planning may change its copy.
//
// The package knows SQL's words, not the engine's catalog or types: the
// type names of casts are resolved by a CastSpelling the engine gives to
// Rewrite. It imports nothing of sqlplan (the arrows point one way);
// comments that name a file without a package (bind.go, window.go, ...)
// mean the file of package sqlplan that reads what this package writes.
package parse

package sqlplan

import (
	"context"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's catalog pragmas are queries of the catalog (catalog_duckdb.go):
// PRAGMA table_info('t') is SELECT * FROM pragma_table_info('t'), PRAGMA
// show_tables is SHOW TABLES, PRAGMA show_tables_expanded is SHOW ALL
// TABLES and PRAGMA database_list lists carquet's one database. PRAGMA
// version and the other systemPragmas are SELECT * FROM pragma_version()
// and its kin (systables.go). Other PRAGMAs are settings (settings.go).

// databaseList is PRAGMA database_list.
const databaseList = "SELECT database_oid AS seq, database_name AS name, path AS file FROM duckdb_databases()"

// preparePragma prepares a catalog PRAGMA; ok is false for the others.
func (e *Engine) preparePragma(ctx context.Context, text string, toks []parse.Token) (*Stmt, bool, error) {
	if !toks[0].Is("pragma") || len(toks) < 2 {
		return nil, false, nil
	}
	name := strings.ToLower(toks[1].Text)
	switch {
	case name == "table_info" && len(toks) > 2 && toks[2].Kind == parse.Op && toks[2].Text == "(":
		pos := toks[0].Pos
		sel := []parse.Token{{Kind: parse.Ident, Text: "select", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos},
			{Kind: parse.Ident, Text: "from", Pos: pos}, {Kind: parse.Ident, Text: "pragma_table_info", Pos: toks[1].Pos}}
		st, err := e.prepareTokens(ctx, text, append(sel, toks[2:]...))
		return st, true, err
	case len(toks) != 2:
		return nil, false, nil
	case systemPragmas[name]:
		// PRAGMA version is SELECT * FROM pragma_version() (systables.go).
		st, err := e.prepareText(ctx, "SELECT * FROM pragma_"+name+"()")
		return st, true, err
	case name == "show_tables":
		st, err := e.prepareText(ctx, "SHOW TABLES")
		return st, true, err
	case name == "show_tables_expanded":
		st, err := e.prepareText(ctx, showAllTables)
		return st, true, err
	case name == "database_list":
		st, err := e.prepareText(ctx, databaseList)
		return st, true, err
	}
	return nil, false, nil
}

// prepareText prepares a statement carquet writes itself.
func (e *Engine) prepareText(ctx context.Context, text string) (*Stmt, error) {
	all, err := parse.Lex(text)
	if err != nil {
		return nil, err
	}
	return e.prepareTokens(ctx, text, keywordNames(parse.Significant(all)))
}

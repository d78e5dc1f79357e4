package parse

// CatalogFunctions are DuckDB's catalog table functions without arguments
// (duckdb_tables() and the others): the rewrite makes each a table name
// of its own, "name()", which the engine's catalog plans.
var CatalogFunctions = map[string]bool{
	"duckdb_tables":      true,
	"duckdb_columns":     true,
	"duckdb_views":       true,
	"duckdb_schemas":     true,
	"duckdb_databases":   true,
	"duckdb_constraints": true,
	"duckdb_indexes":     true,
	"duckdb_sequences":   true,
	"duckdb_keywords":    true,
	"duckdb_types":       true,
	"duckdb_functions":   true, // carquet's functions (sqlplan/catalog_functions.go)
}

// TableInfoMarker begins the table name pragma_table_info('t') becomes:
// the marker, then t.
const TableInfoMarker = "__carquet_table_info__:"

// quotedTableFunctions are the table functions FROM may name in double
// quotes, "range"(n), as DuckDB quotes them when it writes a query.
var quotedTableFunctions = map[string]bool{"range": true, "generate_series": true, "unnest": true}

package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's system functions that carquet writes in SQL, as macros of the
// system (macros_builtin.go): the table functions that are always empty
// here, with DuckDB's columns, test_all_types(), and scalar macros over
// the catalog.
//
// Empty, and why:
//   - pragma_collations(): carquet has no collations (COLLATE is an
//     error); strings compare by their bytes.
//   - duckdb_temporary_files(): nothing spills to disk (exec/memory.go).
//   - duckdb_dependencies(): carquet records no dependencies between
//     objects; a view finds its tables by name when it runs.
//   - duckdb_secrets(), duckdb_secret_types(): carquet has no CREATE
//     SECRET; object stores read their credentials from the SDK's chain.
var systemTableMacros = []string{
	`CREATE MACRO pragma_collations() AS TABLE SELECT CAST(NULL AS VARCHAR) AS collname LIMIT 0`,
	`CREATE MACRO duckdb_temporary_files() AS TABLE SELECT CAST(NULL AS VARCHAR) AS path, CAST(NULL AS BIGINT) AS size LIMIT 0`,
	`CREATE MACRO duckdb_dependencies() AS TABLE SELECT CAST(NULL AS BIGINT) AS classid, CAST(NULL AS BIGINT) AS objid, CAST(NULL AS INTEGER) AS objsubid, ` +
		`CAST(NULL AS BIGINT) AS refclassid, CAST(NULL AS BIGINT) AS refobjid, CAST(NULL AS INTEGER) AS refobjsubid, CAST(NULL AS VARCHAR) AS deptype LIMIT 0`,
	`CREATE MACRO duckdb_secrets() AS TABLE SELECT CAST(NULL AS VARCHAR) AS name, CAST(NULL AS VARCHAR) AS "type", CAST(NULL AS VARCHAR) AS provider, ` +
		`CAST(NULL AS BOOLEAN) AS persistent, CAST(NULL AS VARCHAR) AS storage, CAST(NULL AS VARCHAR[]) AS scope, CAST(NULL AS VARCHAR) AS secret_string LIMIT 0`,
	`CREATE MACRO duckdb_secret_types() AS TABLE SELECT CAST(NULL AS VARCHAR) AS "type", CAST(NULL AS VARCHAR) AS default_provider, CAST(NULL AS VARCHAR) AS extension LIMIT 0`,
	testAllTypes(),

	// Scalar macros over the catalog. carquet stores no blocks: a
	// database's block size is 0, as DuckDB gives for one in memory.
	`CREATE MACRO get_block_size(db_name) AS (SELECT CAST(0 AS BIGINT) FROM duckdb_databases() d WHERE d.database_name = db_name)`,
	// A constraint's oid is its table's times a million plus its index
	// (pg_constraint's numbering in DuckDB).
	// (An overload calling the other would be a recursion to the expander.)
	`CREATE MACRO pg_get_constraintdef(constraint_oid) AS ` + constraintDef + `, (constraint_oid, pretty_bool) AS ` + constraintDef,
	// The schemas a bare name is looked up in: main of carquet's database
	// and of DuckDB's temp and system ones, and system's pg_catalog.
	`CREATE MACRO in_search_path(database_name, schema_name) AS ` +
		`lower(schema_name) = 'main' AND lower(database_name) IN ('carquet', 'temp', 'system') OR lower(database_name) = 'system' AND lower(schema_name) = 'pg_catalog'`,
}

// constraintDef is pg_get_constraintdef's body. The argument's text
// goes in place of constraint_oid, so the subquery's names are ones no
// argument uses: an argument naming duckdb_constraints()'s table_oid
// means the outer query's.
const constraintDef = `(SELECT __def FROM (SELECT table_oid AS __table, constraint_index AS __index, constraint_text AS __def FROM duckdb_constraints()) ` +
	`WHERE __table = constraint_oid // 1000000 AND __index = constraint_oid % 1000000)`

// allTypesColumns are test_all_types()'s columns that carquet has, in
// DuckDB's order, each with its type and its first two rows' values (the
// least and the greatest value of the type, or an empty and a full
// nested value); the third row is NULLs. DuckDB's columns carquet lacks:
// bignum, the ENUMs, union, the fixed-size arrays (INTEGER[3] and those
// built of them) and geometry. Where carquet's range ends before
// DuckDB's (the greatest TIMESTAMP WITH TIME ZONE) the value is
// carquet's greatest.
var allTypesColumns = [][3]string{
	{"bool", "BOOLEAN", "false|true"},
	{"tinyint", "TINYINT", "-128|127"},
	{"smallint", "SMALLINT", "-32768|32767"},
	{"int", "INTEGER", "-2147483648|2147483647"},
	{"bigint", "BIGINT", "-9223372036854775808|9223372036854775807"},
	{"hugeint", "HUGEINT", "-170141183460469231731687303715884105728|170141183460469231731687303715884105727"},
	{"uhugeint", "UHUGEINT", "0|340282366920938463463374607431768211455"},
	{"utinyint", "UTINYINT", "0|255"},
	{"usmallint", "USMALLINT", "0|65535"},
	{"uint", "UINTEGER", "0|4294967295"},
	{"ubigint", "UBIGINT", "0|18446744073709551615"},
	{"date", "DATE", "'5877642-06-25 (BC)'|'5881580-07-10'"},
	{"time", "TIME", "'00:00:00'|'24:00:00'"},
	{"timestamp", "TIMESTAMP", "'290309-12-22 (BC) 00:00:00'|'294247-01-10 04:00:54.775806'"},
	{"timestamp_s", "TIMESTAMP_S", "'290309-12-22 (BC) 00:00:00'|'294247-01-10 04:00:54'"},
	{"timestamp_ms", "TIMESTAMP_MS", "'290309-12-22 (BC) 00:00:00'|'294247-01-10 04:00:54.775'"},
	{"timestamp_ns", "TIMESTAMP_NS", "'1677-09-22 00:00:00'|'2262-04-11 23:47:16.854775806'"},
	{"time_tz", "TIME WITH TIME ZONE", "'00:00:00+15:59:59'|'24:00:00-15:59:59'"},
	{"timestamp_tz", "TIMESTAMP WITH TIME ZONE", "'290309-12-22 (BC) 00:00:00+00'|'294247-01-10 04:00:54.775806+00'"},
	{"float", "FLOAT", "'-3.4028235e+38'|'3.4028235e+38'"},
	{"double", "DOUBLE", "'-1.7976931348623157e+308'|'1.7976931348623157e+308'"},
	{"dec_4_1", "DECIMAL(4,1)", "'-999.9'|'999.9'"},
	{"dec_9_4", "DECIMAL(9,4)", "'-99999.9999'|'99999.9999'"},
	{"dec_18_6", "DECIMAL(18,6)", "'-999999999999.999999'|'999999999999.999999'"},
	{"dec38_10", "DECIMAL(38,10)", "'-9999999999999999999999999999.9999999999'|'9999999999999999999999999999.9999999999'"},
	{"uuid", "UUID", "'00000000-0000-0000-0000-000000000000'|'ffffffff-ffff-ffff-ffff-ffffffffffff'"},
	{"interval", "INTERVAL", "'00:00:00'|'83 years 3 months 999 days 00:16:39.999999'"},
	{"varchar", "VARCHAR", "'🦆🦆🦆🦆🦆🦆'|'goo' || chr(0) || 'se'"},
	{"blob", "BLOB", `'thisisalongblob\x00withnullbytes'|'\x00\x00\x00a'`},
	{"bit", "BIT", "'0010001001011100010101011010111'|'10101'"},
	{"int_array", "INTEGER[]", "[]|[42, 999, NULL, NULL, -42]"},
	{"double_array", "DOUBLE[]", "[]|['42.0', 'nan', 'inf', '-inf', NULL, '-42.0']"},
	{"date_array", "DATE[]", "[]|['1970-01-01', 'infinity', '-infinity', NULL, '2022-05-12']"},
	{"timestamp_array", "TIMESTAMP[]", "[]|['1970-01-01 00:00:00', 'infinity', '-infinity', NULL, '2022-05-12 16:23:45']"},
	{"timestamptz_array", "TIMESTAMP WITH TIME ZONE[]", "[]|['1970-01-01 00:00:00+00', 'infinity', '-infinity', NULL, '2022-05-12 23:23:45+00']"},
	{"varchar_array", "VARCHAR[]", "[]|['🦆🦆🦆🦆🦆🦆', 'goose', NULL, '']"},
	{"nested_int_array", "INTEGER[][]", "[]|[[], [42, 999, NULL, NULL, -42], NULL, [], [42, 999, NULL, NULL, -42]]"},
	{"struct", "STRUCT(a INTEGER, b VARCHAR)", "{'a': NULL, 'b': NULL}|{'a': 42, 'b': '🦆🦆🦆🦆🦆🦆'}"},
	{"struct_of_arrays", "STRUCT(a INTEGER[], b VARCHAR[])", "{'a': NULL, 'b': NULL}|{'a': [42, 999, NULL, NULL, -42], 'b': ['🦆🦆🦆🦆🦆🦆', 'goose', NULL, '']}"},
	// CAST([] AS STRUCT(...)[]) is an error in carquet (its [] is a
	// BIGINT[]): the empty list is a slice of a typed one.
	{"array_of_structs", "STRUCT(a INTEGER, b VARCHAR)[]", "list_slice([{'a': 1, 'b': ''}], 1, 0)|[{'a': NULL, 'b': NULL}, {'a': 42, 'b': '🦆🦆🦆🦆🦆🦆'}, NULL]"},
	{"map", "MAP(VARCHAR, VARCHAR)", "MAP {}|MAP {'key1': '🦆🦆🦆🦆🦆🦆', 'key2': 'goose'}"},
	{"time_ns", "TIME_NS", "'00:00:00'|'24:00:00'"},
}

// testAllTypes writes test_all_types() from allTypesColumns: three rows,
// the least values, the greatest, and NULLs (a CASE per column over
// range(3)).
func testAllTypes() string {
	cols := make([]string, len(allTypesColumns))
	for i, c := range allTypesColumns {
		least, greatest, _ := strings.Cut(c[2], "|")
		// The outer CAST keeps the narrow types (UTINYINT, FLOAT) the CASE
		// widens.
		cols[i] = "CAST(CASE __row WHEN 0 THEN CAST(" + least + " AS " + c[1] + ") WHEN 1 THEN CAST(" + greatest + " AS " + c[1] + ") END AS " + c[1] + ") AS " + parse.QuoteIdent(c[0])
	}
	return "CREATE MACRO test_all_types() AS TABLE SELECT " + strings.Join(cols, ", ") + " FROM range(3) AS __rows(__row)"
}

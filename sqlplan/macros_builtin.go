package sqlplan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB defines a part of its function list as macros over other
// functions (list_median is list_aggr(l, 'median'), pg_typeof is
// lower(typeof(x)), weighted_avg a ratio of two sums). carquet defines
// them the same way: scalar macros of the system, expanded like the
// user's (macros.go) when no user macro of the name exists, written here
// in carquet's SQL with DuckDB's parameter names (which name := value
// arguments use). A name carquet computes natively is never one of them
// (TestBuiltinMacrosShadowNothing).
//
// Where DuckDB's value names DuckDB itself (current_user is 'duckdb',
// current_database the attached file's name), carquet gives its own:
// 'carquet' and its one database and schema.

var builtinMacroText = []string{
	`CREATE MACRO ago(i) AS current_timestamp - CAST(i AS INTERVAL)`,
	`CREATE MACRO array_pop_back(arr) AS arr[:len(arr) - 1]`,
	// arr[2:] is DuckDB's body; carquet's slice of a one-element list from 2
	// keeps the element, so that case is spelled out.
	`CREATE MACRO array_pop_front(arr) AS CASE WHEN len(arr) <= 1 THEN list_slice(arr, 1, 0) ELSE arr[2:] END`,
	`CREATE MACRO days_in_month("date") AS day(last_day("date"))`,
	`CREATE MACRO pg_typeof(expression) AS lower(typeof(expression))`,
	`CREATE MACRO pg_size_pretty(bytes) AS format_bytes(bytes)`,
	`CREATE MACRO json(x) AS json_extract(x, '$')`,
	`CREATE MACRO json_quote(x) AS to_json(x)`,
	`CREATE MACRO array_to_json(x) AS to_json(x)`,
	`CREATE MACRO row_to_json(x) AS to_json(x)`,
	`CREATE MACRO json_extract_path(json, path) AS json_extract(json, path)`,
	`CREATE MACRO json_extract_path_text(json, path) AS json_extract_string(json, path)`,
	// A member whose value is null exists; json_value gives scalars only.
	`CREATE MACRO json_exists(json, path) AS CASE WHEN json IS NOT NULL AND path IS NOT NULL THEN json_extract(json, path) IS NOT NULL END`,
	`CREATE MACRO json_value(json, path) AS CASE WHEN json_type(json_extract(json, path)) NOT IN ('OBJECT', 'ARRAY', 'NULL') THEN json_extract(json, path) END`,
	`CREATE MACRO array_to_string_comma_default(arr, sep := ',') AS array_to_string(arr, sep)`,
	`CREATE MACRO map_contains_value("map", "value") AS list_contains(map_values("map"), "value")`,
	// A NULL value matches a NULL value, as in DuckDB.
	`CREATE MACRO map_contains_entry("map", "key", "value") AS CASE WHEN "map" IS NOT NULL THEN coalesce(map_contains("map", "key") AND map_extract_value("map", "key") IS NOT DISTINCT FROM "value", false) END`,

	// Aggregates: DuckDB's JSON ones build the text with string_agg (no
	// row gives NULL); weighted_avg weighs the non-NULL values.
	`CREATE MACRO json_group_array(x) AS CAST('[' || string_agg(CASE WHEN x IS NULL THEN 'null' ELSE CAST(to_json(x) AS VARCHAR) END, ',') || ']' AS JSON)`,
	`CREATE MACRO json_group_object(n, v) AS CAST('{' || string_agg(CASE WHEN n IS NULL THEN error('json_group_object key cannot be NULL') ELSE CAST(to_json(CAST(n AS VARCHAR)) AS VARCHAR) END || ':' || CASE WHEN v IS NULL THEN 'null' ELSE CAST(to_json(v) AS VARCHAR) END, ',') || '}' AS JSON)`,
	`CREATE MACRO json_group_structure(x) AS json_extract(json_structure(json_group_array(x)), '$[0]')`,
	`CREATE MACRO weighted_avg("value", weight) AS sum("value" * weight) / sum(CASE WHEN "value" IS NOT NULL THEN weight ELSE 0 END)`,
	`CREATE MACRO wavg("value", weight) AS weighted_avg("value", weight)`,

	// The session as PostgreSQL's functions name it.
	`CREATE MACRO current_database() AS 'carquet'`,
	`CREATE MACRO current_catalog() AS 'carquet'`,
	`CREATE MACRO current_schema() AS 'main'`,
	`CREATE MACRO current_user() AS 'carquet'`,
	`CREATE MACRO current_role() AS 'carquet'`,
	`CREATE MACRO session_user() AS 'carquet'`,
	`CREATE MACRO "user"() AS 'carquet'`,
	`CREATE MACRO pg_conf_load_time() AS current_timestamp`,
	`CREATE MACRO pg_postmaster_start_time() AS current_timestamp`,
	`CREATE MACRO pg_my_temp_schema() AS 0`,
	`CREATE MACRO pg_is_other_temp_schema(schema_id) AS false`,
	`CREATE MACRO pg_get_expr(pg_node_tree, relation_oid) AS pg_node_tree`,
	`CREATE MACRO inet_client_addr() AS NULL`,
	`CREATE MACRO inet_client_port() AS NULL`,
	`CREATE MACRO inet_server_addr() AS NULL`,
	`CREATE MACRO inet_server_port() AS NULL`,
	`CREATE MACRO col_description(table_oid, column_number) AS NULL`,
	`CREATE MACRO obj_description(object_oid, catalog_name) AS NULL`,
	`CREATE MACRO shobj_description(object_oid, catalog_name) AS NULL`,
	// The schemas a name is looked up in: the implicit ones are DuckDB's
	// temp, main and system schemas (all named main) and pg_catalog.
	`CREATE MACRO current_schemas(include_implicit) AS CASE WHEN include_implicit THEN ['main', 'main', 'main', 'pg_catalog'] WHEN NOT include_implicit THEN CAST([] AS VARCHAR[]) END`,
	`CREATE MACRO pg_sleep(seconds) AS sleep_ms(CAST(seconds * 1000 AS BIGINT))`,
	// DuckDB's array_length(l, dim) knows dimension 1 only.
	`CREATE MACRO generate_subscripts(arr, dim) AS unnest(generate_series(1, CASE WHEN dim = 1 THEN len(arr) ELSE error('array_length for lists with dimensions other than 1 not implemented') END))`,
	`CREATE MACRO regexp_split_to_table("text", pattern) AS unnest(string_split_regex("text", pattern))`,
	`CREATE MACRO format_type(type_oid, typemod) AS (SELECT format_pg_type(logical_type, type_name) FROM duckdb_types() t WHERE t.type_oid = type_oid) || CASE WHEN typemod > 0 THEN concat('(', typemod // 1000, ',', typemod % 1000, ')') ELSE '' END`,
	`CREATE MACRO pg_get_viewdef(oid) AS (SELECT "sql" FROM duckdb_views() v WHERE v.view_oid = oid)`,
	`CREATE MACRO map_to_pg_oid(type_name) AS CASE type_name WHEN 'bool' THEN 16 WHEN 'int16' THEN 21 WHEN 'int' THEN 23 WHEN 'bigint' THEN 20 WHEN 'date' THEN 1082 WHEN 'time' THEN 1083 WHEN 'datetime' THEN 1114 WHEN 'dec' THEN 1700 WHEN 'float' THEN 700 WHEN 'double' THEN 701 WHEN 'bpchar' THEN 1043 WHEN 'binary' THEN 17 WHEN 'interval' THEN 1186 WHEN 'timestamptz' THEN 1184 WHEN 'timestamp with time zone' THEN 1184 WHEN 'timetz' THEN 1266 WHEN 'time with time zone' THEN 1266 WHEN 'bit' THEN 1560 WHEN 'guid' THEN 2950 END`,
	// DuckDB's table functions json_each and json_tree, as the unnested
	// rows of a list that __json_each builds (function/json_each.go).
	`CREATE MACRO json_each(json, path := '$') AS TABLE SELECT r.* FROM (SELECT unnest(__json_each(json, path, false)) AS r)`,
	`CREATE MACRO json_tree(json, path := '$') AS TABLE SELECT r.* FROM (SELECT unnest(__json_each(json, path, true)) AS r)`,
	`CREATE MACRO format_pg_type(logical_type, type_name) AS CASE upper(logical_type) WHEN 'FLOAT' THEN 'float4' WHEN 'DOUBLE' THEN 'float8' WHEN 'DECIMAL' THEN 'numeric' WHEN 'ENUM' THEN lower(type_name) WHEN 'VARCHAR' THEN 'varchar' WHEN 'BLOB' THEN 'bytea' WHEN 'TIMESTAMP' THEN 'timestamp' WHEN 'TIME' THEN 'time' WHEN 'TIMESTAMP WITH TIME ZONE' THEN 'timestamptz' WHEN 'TIME WITH TIME ZONE' THEN 'timetz' WHEN 'SMALLINT' THEN 'int2' WHEN 'INTEGER' THEN 'int4' WHEN 'BIGINT' THEN 'int8' WHEN 'BOOLEAN' THEN 'bool' ELSE lower(logical_type) END`,
}

// privilegeMacros and visibleMacros answer PostgreSQL's catalog
// questions as DuckDB does: every privilege is held, every object
// visible.
var (
	privilegeMacros = map[string]string{
		"has_any_column_privilege": "\"table\", privilege", "has_column_privilege": "\"table\", \"column\", privilege",
		"has_database_privilege": "database, privilege", "has_foreign_data_wrapper_privilege": "fdw, privilege",
		"has_function_privilege": "\"function\", privilege", "has_language_privilege": "\"language\", privilege",
		"has_schema_privilege": "\"schema\", privilege", "has_sequence_privilege": "\"sequence\", privilege",
		"has_server_privilege": "server, privilege", "has_table_privilege": "\"table\", privilege",
		"has_tablespace_privilege": "tablespace, privilege", "pg_has_role": "role, privilege",
	}
	visibleMacros = []string{
		"pg_collation_is_visible", "pg_conversion_is_visible", "pg_function_is_visible", "pg_opclass_is_visible",
		"pg_operator_is_visible", "pg_opfamily_is_visible", "pg_table_is_visible", "pg_ts_config_is_visible",
		"pg_ts_dict_is_visible", "pg_ts_parser_is_visible", "pg_ts_template_is_visible", "pg_type_is_visible",
	}
)

// listAggregateMacros are DuckDB's list_<aggregate>(l), each
// list_aggr(l, '<aggregate>').
var listAggregateMacros = []string{
	"approx_count_distinct", "bit_and", "bit_or", "bit_xor", "bool_and", "bool_or", "entropy", "first", "histogram",
	"kurtosis", "kurtosis_pop", "last", "median", "mode", "product", "skewness", "stddev_pop", "stddev_samp", "var_pop", "var_samp",
	"mad", "sem",
}

// builtinMacros are the system's macros by lower-case name.
var builtinMacros = parseBuiltinMacros()

func parseBuiltinMacros() map[string]*macro {
	texts := append([]string(nil), builtinMacroText...)
	texts = append(texts, systemTableMacros...) // systables_sql.go
	for name, params := range privilegeMacros {
		// With and without the user first.
		texts = append(texts, fmt.Sprintf("CREATE MACRO %s(%s) AS true, (\"user\", %s) AS true", name, params, params))
	}
	for _, name := range visibleMacros {
		texts = append(texts, "CREATE MACRO "+name+"(oid) AS true")
	}
	for _, agg := range listAggregateMacros {
		texts = append(texts, fmt.Sprintf("CREATE MACRO list_%s(l) AS list_aggr(l, '%s')", agg, agg))
	}
	out := make(map[string]*macro, len(texts))
	for _, text := range texts {
		all, err := parse.Lex(text)
		if err != nil {
			panic("sqlplan: builtin macro " + text + ": " + err.Error())
		}
		m, err := parseMacro(text, parse.Significant(all), &Stmt{})
		if err != nil {
			panic("sqlplan: builtin macro " + text + ": " + err.Error())
		}
		out[strings.ToLower(m.name)] = m
	}
	return out
}

// builtinMacro is the system's scalar (table false) or table macro of a
// lower-case name.
func builtinMacro(name string, table bool) (*macro, bool) {
	m, ok := builtinMacros[name]
	return m, ok && m.table == table
}

// callsBuiltinMacro reports whether a statement's tokens may call one of
// the system's macros (a name of one before a parenthesis).
func callsBuiltinMacro(toks []parse.Token) bool {
	for i := 0; i+1 < len(toks); i++ {
		if parse.IsNameToken(toks[i]) && toks[i+1].Kind == parse.Op && toks[i+1].Text == "(" {
			if _, ok := builtinMacros[strings.ToLower(toks[i].Unquoted())]; ok {
				return true
			}
		}
	}
	return false
}

// builtinMacroRows lists the system's macros for duckdb_functions(), one
// row per overload.
func builtinMacroRows() []functionRow {
	names := make([]string, 0, len(builtinMacros))
	for name := range builtinMacros {
		names = append(names, name)
	}
	sort.Strings(names)
	var rows []functionRow
	for _, name := range names {
		kind := "macro"
		if builtinMacros[name].table {
			kind = "table" // DuckDB's table functions that carquet writes in SQL
		}
		for _, o := range builtinMacros[name].overloads() {
			rows = append(rows, functionRow{name: name, kind: kind, params: len(o.params), macro: o, system: true})
		}
	}
	return rows
}

package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// pg_catalog views that tools query (psql's \d, ORMs, BI connectors),
// with the columns DuckDB gives them. Like DuckDB, carquet writes them
// as queries over its duckdb_* table functions (catalog_duckdb.go); the
// simplest (pg_tables, pg_views, pg_database, pg_namespace) are built
// directly (catalog_objects.go). PostgreSQL's columns that carquet has
// nothing for are 0, false or NULL as in DuckDB.

// pgClassPart is pg_class's query over one duckdb_* function: the
// arguments are the expressions (or constants) of the columns that
// differ between tables, views and sequences.
func pgClassPart(from, oid, name, kind, natts, tuples, hasIndex, checks, hasPK string) string {
	cols := []string{
		oid + " AS oid", name + " AS relname", "schema_oid AS relnamespace",
		"0 AS reltype", "0 AS reloftype", "0 AS relowner", "0 AS relam", "0 AS relfilenode", "0 AS reltablespace", "0 AS relpages",
		"CAST(" + tuples + " AS FLOAT) AS reltuples", "0 AS relallvisible", "0 AS reltoastrelid", "0 AS reltoastidxid",
		hasIndex + " AS relhasindex", "false AS relisshared", "CASE WHEN \"temporary\" THEN 't' ELSE 'p' END AS relpersistence",
		"'" + kind + "' AS relkind", natts + " AS relnatts", checks + " AS relchecks", "false AS relhasoids", hasPK + " AS relhaspkey",
		"false AS relhasrules", "false AS relhastriggers", "false AS relhassubclass", "false AS relrowsecurity", "true AS relispopulated",
		"NULL AS relreplident", "false AS relispartition", "0 AS relrewrite", "0 AS relfrozenxid", "NULL AS relminmxid",
		"NULL AS relacl", "NULL AS reloptions", "NULL AS relpartbound",
	}
	return "SELECT " + strings.Join(cols, ", ") + " FROM " + from
}

// pgViews are the pg_catalog views written as queries, by name.
var pgViews = map[string]string{
	// A row per table ('r'), view ('v') and sequence ('S'); carquet has
	// no indexes.
	"pg_class": pgClassPart("duckdb_tables()", "table_oid", "table_name", "r", "column_count", "estimated_size", "index_count > 0", "check_constraint_count", "has_primary_key") +
		" UNION ALL " + pgClassPart("duckdb_views()", "view_oid", "view_name", "v", "column_count", "0", "false", "0", "false") +
		" UNION ALL " + pgClassPart("duckdb_sequences()", "sequence_oid", "sequence_name", "S", "0", "0", "false", "0", "false"),
	// A row per column of a table or view; atttypmod carries a decimal's
	// precision and scale as PostgreSQL's numeric does.
	"pg_attribute": "SELECT table_oid AS attrelid, column_name AS attname, data_type_id AS atttypid, 0 AS attstattarget, NULL AS attlen, " +
		"column_index AS attnum, 0 AS attndims, -1 AS attcacheoff, " +
		"CASE WHEN data_type LIKE 'DECIMAL%' THEN numeric_precision * 1000 + numeric_scale ELSE -1 END AS atttypmod, " +
		"false AS attbyval, NULL AS attstorage, NULL AS attalign, NOT is_nullable AS attnotnull, column_default IS NOT NULL AS atthasdef, " +
		"false AS atthasmissing, '' AS attidentity, '' AS attgenerated, false AS attisdropped, true AS attislocal, 0 AS attinhcount, " +
		"0 AS attcollation, NULL AS attcompression, NULL AS attacl, NULL AS attoptions, NULL AS attfdwoptions, NULL AS attmissingval " +
		"FROM duckdb_columns()",
	// A row per type of duckdb_types(), under PostgreSQL's oids and names.
	"pg_type": "SELECT map_to_pg_oid(type_name) AS oid, format_pg_type(logical_type, type_name) AS typname, schema_oid AS typnamespace, " +
		"0 AS typowner, type_size AS typlen, false AS typbyval, 'b' AS typtype, " +
		"CASE type_category WHEN 'NUMERIC' THEN 'N' WHEN 'STRING' THEN 'S' WHEN 'DATETIME' THEN 'D' WHEN 'BOOLEAN' THEN 'B' " +
		"WHEN 'COMPOSITE' THEN 'C' WHEN 'USER' THEN 'U' ELSE 'X' END AS typcategory, " +
		"false AS typispreferred, true AS typisdefined, NULL AS typdelim, NULL AS typrelid, NULL AS typsubscript, NULL AS typelem, " +
		"NULL AS typarray, NULL AS typinput, NULL AS typoutput, NULL AS typreceive, NULL AS typsend, NULL AS typmodin, NULL AS typmodout, " +
		"NULL AS typanalyze, 'd' AS typalign, 'p' AS typstorage, NULL AS typnotnull, NULL AS typbasetype, NULL AS typtypmod, " +
		"NULL AS typndims, NULL AS typcollation, NULL AS typdefaultbin, NULL AS typdefault, NULL AS typacl " +
		"FROM duckdb_types() WHERE type_oid IS NOT NULL",
	// The settings of duckdb_settings(), typed as PostgreSQL names types.
	"pg_settings": "SELECT name, value AS setting, description AS short_desc, " +
		"CASE WHEN input_type = 'VARCHAR' THEN 'string' WHEN input_type = 'BOOLEAN' THEN 'bool' " +
		"WHEN input_type IN ('BIGINT', 'UBIGINT') THEN 'integer' ELSE input_type END AS vartype FROM duckdb_settings()",
	// A row per function overload of duckdb_functions().
	"pg_proc": "SELECT f.function_oid AS oid, f.function_name AS proname, s.oid AS pronamespace, NULL AS proowner, NULL AS prolang, " +
		"0 AS procost, 0 AS prorows, f.varargs AS provariadic, 0 AS prosupport, " +
		"CASE WHEN f.function_type = 'aggregate' THEN 'a' ELSE 'f' END AS prokind, false AS prosecdef, false AS proleakproof, " +
		"false AS proisstrict, f.function_type = 'table' AS proretset, " +
		"CASE f.stability WHEN 'CONSISTENT' THEN 'i' WHEN 'CONSISTENT_WITHIN_QUERY' THEN 's' WHEN 'VOLATILE' THEN 'v' END AS provolatile, " +
		"'u' AS proparallel, len(f.parameters) AS pronargs, 0 AS pronargdefaults, f.return_type AS prorettype, " +
		"f.parameter_types AS proargtypes, NULL AS proallargtypes, NULL AS proargmodes, f.parameters AS proargnames, " +
		"NULL AS proargdefaults, NULL AS protrftypes, NULL AS prosrc, NULL AS probin, f.macro_definition AS prosqlbody, " +
		"NULL AS proconfig, NULL AS proacl, f.function_type = 'aggregate' AS proisagg " +
		"FROM duckdb_functions() AS f LEFT JOIN duckdb_schemas() AS s ON s.schema_name = f.schema_name AND s.database_name = 'carquet'",
}

// pgViewRelation plans a view of pgViews: pg_catalog.name, or name alone
// where no table has it. ok is false for other names.
func pgViewRelation(p *plan.Planner, name, alias string) (*plan.Relation, bool, error) {
	which := strings.ToLower(name)
	view, qualified := strings.CutPrefix(which, "pg_catalog.")
	text, ok := pgViews[view]
	if !ok || !qualified && stmtOf(p).TableExists(name) {
		return nil, false, nil
	}
	if alias == "" {
		alias = view
	}
	st, err := stmtOf(p).Prepare(p.Ctx, text)
	if err != nil {
		return nil, true, err
	}
	rows, err := st.query(p.Ctx, p)
	if err != nil {
		return nil, true, err
	}
	rel, err := plan.DerivedRelation(alias, rows.cols, &plan.Relation{Sub: &plan.SelectPlan{Root: rows.root, Cols: rows.cols}})
	return rel, true, err
}

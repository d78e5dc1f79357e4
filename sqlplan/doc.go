// Package sqlplan is carquet's SQL engine: SQL text in, columnar batches
// out. It sits between driver/ (which only translates for database/sql)
// and scan/ and writer/ (which read and write Parquet), and programs can
// use it directly:
//
//	e, _ := sqlplan.Open("data/", sqlplan.Options{})
//	st, _ := e.Prepare("SELECT category, sum(amount) FROM sales WHERE ts >= ? GROUP BY 1")
//	rows, _ := st.Query(ctx, []sqlplan.Arg{{Ordinal: 1, Value: t0}})
//	for b, err := rows.Next(); err == nil; b, err = rows.Next() { ... b.Cols ... }
//
// # The flow
//
//  1. Syntax (package sqlplan/parse, the first stage with a package of
//     its own; it imports nothing of sqlplan): parse.Lex splits the text
//     into tokens, which the statement forms the parser does not know
//     (CREATE, ALTER, MERGE, macros, ...) walk here, and parse.Rewrite
//     turns the SQL users write in DuckDB and PostgreSQL style into text
//     that github.com/xwb1989/sqlparser (a MySQL grammar) parses:
//     'file.parquet' / "x" / read_parquet('...') table references
//     become back-quoted names, DATE '...',
//     TIMESTAMP '...', UUID '...' and BLOB '...' literals and CAST(x AS BIGINT|DOUBLE|...) / x::type
//     become casts it accepts, $1 and ? become :v1, || becomes the concat
//     operator, EXTRACT(part FROM x) becomes date_part. Every output token
//     remembers its input offset, so errors point at line:column of the
//     user's text (parse.Error, which is this package's Error). Types are
//     read as names there and resolved by the planner (plan/syntax.go:
//     castTypeSpelling, ReadType); stmt.go sorts statements into their forms, and
//     unsupported SQL is refused by name.
//  2. Bind (bind.go, funcs.go, agg.go): names resolve against the tables'
//     Parquet schemas (with "did you mean" suggestions), types are
//     inferred and unified, constants and arguments are folded. The
//     function library is package sqlplan/function (below the binder; it
//     imports vec, num and parse, nothing of sqlplan): scalar functions
//     with their type rules and kernels (function.Scalars, bound by
//     addLibrary/bindRule in funcs.go), the cast hub (function.CastCol and
//     CastScalar: every cast between vec kinds, used by CAST, TRY_CAST,
//     ::, the binder's implicit casts and INSERT's conversions; the types
//     CAST names, ParseTypeName), arithmetic (function.Arith: the binder's
//     arithExpr types the operation, bindops.go) and the date and time
//     kernels (funcs_time.go keeps the binds that read constant
//     arguments), and the aggregates: function.LookupAggregate resolves
//     a name and its aliases to an entry whose rule types the call and
//     whose accumulator computes it (agg.go binds the arguments and takes
//     the constant ones off the call; aggorder.go, aggs_more.go,
//     aggbitstring.go, grouping.go bind ORDER BY, k, bins, ranges and
//     GROUPING). function_alias.go keeps the engine's old names for them;
//     the casts reach nested values, whose Go forms stay here
//     (nestedvals.go, nestedtext.go), through function.Nested.
//  3. Plan (plan.go; a SELECT in three steps over a logical plan,
//     logical.go): bindSelect (select_bind.go) makes the tree of logical
//     nodes, optimize (select_optimize.go) applies the rules in order, and
//     lower (select_lower.go) builds the operators. WHERE is split into
//     conjuncts; those the scan can evaluate exactly (column op constant,
//     IN lists, IS NULL, LIKE 'prefix%', AND/OR/NOT trees of those) become
//     scan.Predicates for pruning and filtering, the rest a residual
//     filter; only the columns an expression reads are scanned. COUNT(*)
//     without a filter is answered from the footers. A derived table
//     that is a plain SELECT (a subquery in FROM, a CTE named once, a
//     view) stays logical until its parent's rules have run
//     (select_derived.go): the parent's filters on it alone go into its
//     WHERE (its select expressions in place of its columns; not past a
//     window, DISTINCT, LIMIT or UNNEST, past GROUP BY only on the keys),
//     and the outputs the parent never reads are not computed.
//  4. Execute: operators pull columnar batches (Col: typed slices, no
//     per-row boxing; the vectors and their types are package
//     sqlplan/vec, below every stage, which imports nothing of sqlplan:
//     Col, Batch, Type and Kind here are aliases of vec's, vec_alias.go).
//     The operator contract (exec.Node, exec.Expr, which the bound
//     expressions satisfy, and the EXPLAIN printer exec.Explainer) and
//     the operators that need none of the binder's types are package
//     sqlplan/exec, with the hash and sort kernels: filter, project,
//     LIMIT/OFFSET, DISTINCT, UNION, INTERSECT/EXCEPT, sort and the top-N
//     heap, window functions' operator (their computation is window.go's),
//     the hash aggregation (exec.HashAggregate with grouping sets, over
//     exec.AggSpec: a bound call and its argument expressions), series,
//     read-ahead, and EXPLAIN ANALYZE's instrumentation (exec.Profile).
//     exec.go builds them from bound expressions, aggnode.go the hash
//     aggregation (its parallel inputs, grouped by the pipeline's
//     workers in partial states where the aggregates combine, the
//     footers' hint of its groups, the keys that others determine); the scan, joins (join.go,
//     asof.go, lateral.go; groupjoin.go matches the plans that
//     exec.GroupCountJoin answers), unnest and the parallel pipelines
//     (pipe.go; the builds of a pipeline's joins run at once where no
//     key filter orders them, prepdeps.go) are still here. The scan
//     node joins the small batches a selective pushed filter leaves
//     (exec/coalesce.go), so that the operators above pay their
//     per-batch costs for thousands of rows, not a few.
//  5. Write (write.go; the logical node of a write, lWrite, is
//     dml_logical.go's, over the plan of the rows it writes or matches:
//     the query's tree, VALUES, the target's read or MERGE's join):
//     INSERT checks every value against the schema
//     (types, NOT NULL, decimal precision) and the table's constraints
//     (constraints.go: PRIMARY KEY, UNIQUE, CHECK, DEFAULT, FOREIGN KEY;
//     INSERT OR IGNORE / ON CONFLICT DO NOTHING, INSERT OR REPLACE, ON
//     CONFLICT DO UPDATE) before anything is
//     written, then appends atomically through writer.Append (a folder
//     table gets a new file); CREATE TABLE [AS] and DROP TABLE. The
//     storage side of the writes is package sqlplan/dml, beside the
//     stages (it imports nothing of sqlplan but parse.Error): new files
//     of folder, hive-partitioned and Delta tables, Delta commits
//     (dml.DeltaEdit for DELETE, UPDATE and MERGE), group commit of
//     INSERTs, and the transactions' staging folder, COMMIT record and
//     crash recovery; binding, constraint checks and the Tx stay here.
//
// The planner (stages 2 to 4: binding, the logical plan and its rules,
// lowering) is package sqlplan/plan, below this package, which is the
// facade: Engine, Stmt, Rows, Tx, sessions, settings, the statement
// forms, DDL, DML, the catalog objects and the catalog's tables. The
// files the stages above name are plan's unless they are the facade's
// (write.go, dml_logical.go, constraints.go, ...). The arrow points one
// way and the compiler keeps it: the facade calls the planner
// (plan.Planner, plan.Parsed, plan.Settings, ...), and the planner
// reaches the engine only through plan.Catalog (plan/plancatalog.go),
// which stmtCatalog (stmtcatalog.go: the Engine with the statement's Tx,
// session and write lock) implements: opening tables for a scan, now(),
// CREATE TYPE's types, sequences, txid_current(), the paths a statement
// may read, a set operation's parts, COPY's table columns,
// current_setting and the names in FROM the engine answers itself
// (settings, variables, RETURNING rows, the catalog views and table
// functions, which are the facade's: functions here taking the
// *plan.Planner that plans them). A statement reaches the planner as its
// parsed form (plan.Parsed: source, syntax tree, the parts of an
// INTERSECT / EXCEPT), which Stmt embeds, with the settings it runs with
// (plan.Settings); the SQL text helpers both sides use are package
// parse's. The planner's names that were this package's API (Arg,
// Column, Error, ErrNoColumn, ErrUnsupported, ErrMemoryLimit, IsUnion,
// UnionMember, and vec's Col, Batch, Type, Kind, NamedType and kinds)
// are re-exported (planapi.go). arrows_test.go checks the imports
// between sqlplan's packages: parse and num import none of them, vec
// only num, function vec, num and parse, exec and textfile those and
// function, dml and plan those and exec (plan textfile too), and only
// the facade imports plan and dml.
//
// # SQL accepted
//
// FROM-first statements (FROM t [SELECT ...] [WHERE ...] ..., at the top
// level); PIVOT and UNPIVOT, as statements or in parentheses (pivot.go); JSON text (json.go:
// json_extract[_string], -> and ->>, json_array_length, json_valid,
// json_type); SELECT [DISTINCT | DISTINCT ON (keys)] with expressions, aliases, *, t.*, struct fields
// (s.a.b); FROM tables, 'paths', `globs`, read_parquet('...'), range(...)
// and generate_series(...) of integer constants (renamed by t(c)),
// unnest(list) [t(c)], range / generate_series of other arguments
// (timestamps by an INTERVAL; through the list functions), derived tables; [NATURAL] [INNER|LEFT|RIGHT|FULL
// [OUTER]] JOIN ... ON / USING (RIGHT and FULL after other joins too),
// USING SAMPLE / TABLESAMPLE n% | n ROWS (sample.go); x AT TIME ZONE
// 'zone' (timezone(zone, x)); quantile_cont /
// quantile_disc of a list of fractions; comma joins (their WHERE equalities are hash-join keys; a comma binds
// looser than JOIN); select items that use the aliases of items before
// them, and WHERE using select aliases that name no column; WHERE,
// GROUP BY (names, positions, aliases, expressions; GROUPING SETS, ROLLUP,
// CUBE and GROUPING(): grouping.go), HAVING, ORDER BY
// (NULLs last unless NULLS FIRST), LIMIT/OFFSET (also LIMIT ALL, OFFSET
// alone, FETCH FIRST|NEXT n ROWS ONLY); UNION [ALL] [BY NAME]; INTERSECT / EXCEPT [ALL]
// (between whole SELECTs, or in parentheses: subqueries, derived tables,
// CTEs), mixed with UNION [ALL] as the standard reads them (INTERSECT
// first, then left to right: setops_mixed.go); WITH (column lists; RECURSIVE: recursive.go);
// VALUES lists as queries; derived-table column lists (t(a, b)); GROUP BY ALL, ORDER BY ALL,
// SELECT * EXCLUDE (...) / REPLACE (e AS c, ...), COLUMNS(* | 'regex' | c ->
// cond) in select items (columns.go), agg(x) FILTER (WHERE ...), agg(x ORDER BY ...)
// (aggorder.go); window functions
// (row_number, rank, dense_rank, percent_rank, cume_dist, ntile, lag,
// lead, first_value, last_value, nth_value, count, sum, avg, min, max, and
// every other aggregate, DISTINCT too, through the GROUP BY accumulators
// per frame, agg(x ORDER BY k) too (string_agg, list, ...: each frame's
// rows in that order; count, sum, avg, min and max ignore it); IGNORE
// NULLS in first_value, last_value, nth_value, lag and lead; fill(x
// [ORDER BY k]), DuckDB's linear interpolation of NULLs over the one
// ORDER BY key, winfill.go) OVER
// (PARTITION BY ... ORDER BY ... [frame]), the frame ROWS BETWEEN any of
// UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING, UNBOUNDED
// FOLLOWING (or ROWS start), or RANGE with the same bounds, n being a
// value offset from the single ORDER BY key (a number, a decimal, an
// INTERVAL; CURRENT ROW the peers), or GROUPS; any frame then EXCLUDE
// CURRENT ROW | GROUP | TIES | NO OTHERS (winexclude.go), named windows
// (WINDOW w AS (...), OVER w, OVER (w frame));
// [NOT] LIKE / ILIKE [ESCAPE], [NOT] GLOB (* ? [a-z] [!a]), [NOT] SIMILAR
// TO and ~ / !~ (a regular expression matching the whole string, as in
// DuckDB), ^@ (starts_with);
// IN (list|subquery), EXISTS, op ANY|SOME|ALL (subquery or list)
// (quantified.go), SEMI JOIN and ANTI JOIN ... ON at the top level of a
// query ([NOT] EXISTS, semiJoins), lateral derived tables and table functions in FROM
// that name the items before them, with or without LATERAL, inner or LEFT
// (lateral.go: FROM t, unnest(t.l) u(x)); ASOF [INNER | LEFT | RIGHT |
// FULL] JOIN ... ON equalities AND one inequality (>=, >, <=, <), or USING
// (keys, t) meaning t >= t (the right side sorted once, each left row
// binary-searched: asof.go), and POSITIONAL JOIN;
// row values (a, b) = / <> / IN (...) (rowvalues.go; SQL's NULL rules, not
// DuckDB's STRUCT comparison),
// scalar subqueries, correlated or not (correlated ones run once per
// distinct outer value, memoized: correlated.go; [NOT] EXISTS correlated
// on an equality runs as a semi/anti join); CASE, CAST / ::, IS [NOT] DISTINCT
// FROM, TRY_CAST (also to lists: CAST(x AS INTEGER[]), x::VARCHAR[][], from
// lists or their text form '[1, 2]', element by element); QUALIFY (after HAVING, naming select items or not); aggregates count, count(DISTINCT), sum, avg, min, max,
// string_agg/group_concat, list/array_agg, bool_and/or, count_if, any_value,
// stddev/var, corr/covar/regr_*, bit_and/or/xor, median/quantiles, mode,
// arg_max/arg_min (and DuckDB's arg_max_null, arg_max_nulls_last),
// first/last, product, geomean, skewness, kurtosis[_pop], entropy, sem,
// mad, fsum/favg, count_star();
// lists, maps and structs in expressions (nested.go: x[i], x[a:b] slices
// of lists and strings, m[k], s['f'],
// [a, b], list || list, {'f': v}, MAP {k: v}, map(keys, values),
// map_extract, struct_extract, to_json, list_aggregate(l, 'any
// aggregate', ...), CAST to VARCHAR in DuckDB's text
// (nestedtext.go), len, list_contains, list_sort/distinct/reverse/slice/
// concat/position/append/sum/min/max/avg, flatten, string_split, range,
// generate_series, lambdas (lambda.go: list_transform, list_filter and
// list_reduce of x -> body, (a, b) -> body or lambda x: body, whose body
// may read the query's columns), list comprehensions [e FOR x IN l IF c],
// array_to_string, map_keys/values, unnest: as a select item, and inside
// the select list's expressions, zipped with NULL padding, unnestexpr.go);
// the UNION type
// (uniontype.go: UNION(a INTEGER, b VARCHAR) in CREATE TABLE and casts,
// union_value(tag := x), union_tag, union_extract, u.tag, a member's
// value cast into it implicitly, order by tag then value; stored as
// DuckDB writes it, a STRUCT of a UTINYINT tag named "" and the members,
// and such a struct read back as a UNION);
// the scalar functions of funcs.go and package function (Unicode ones:
// nfc_normalize, strip_accents and the *_grapheme functions; alias,
// stats, switch and replace_type read their argument's expression,
// funcs_meta.go); // (integer
// division), ** and ^ (power), |, &, ~, << and >> (||, |, &, << and >> at
// one precedence, left to right, as DuckDB). INSERT ... VALUES / SELECT, CREATE
// [OR REPLACE] TABLE [IF NOT EXISTS] (columns, options) / AS SELECT,
// COPY (query) | table TO 'file.parquet' [(FORMAT PARQUET, COMPRESSION c,
// ROW_GROUP_SIZE n, table options)], DROP TABLE [IF
// EXISTS], CREATE [OR REPLACE] [TEMP] VIEW / DROP VIEW (views.go), CREATE
// [OR REPLACE] [TEMP] MACRO|FUNCTION name(params) AS expr | AS TABLE query /
// DROP MACRO [TABLE] (macros.go: calls expanded on the tokens; a typed
// parameter, a INTEGER, takes what casts to its type implicitly; views and
// macros that are not TEMP are kept in the folder's catalog file,
// catalogfile.go), DESCRIBE, SHOW t, SHOW [ALL] TABLES, SHOW COLUMNS
// (describe.go; as subqueries too), information_schema.tables, .columns,
// .views and .schemata (catalog.go), duckdb_tables(), duckdb_columns(),
// duckdb_views(), duckdb_schemas(), duckdb_databases(),
// pragma_table_info('t') and the PRAGMAs table_info, show_tables,
// show_tables_expanded and database_list (catalog_duckdb.go, pragmas.go),
// DuckDB's Parquet introspection functions parquet_metadata,
// parquet_schema, parquet_file_metadata, parquet_kv_metadata,
// parquet_bloom_probe and parquet_full_metadata, and glob (pqmeta.go),
// EXPLAIN [ANALYZE] (ANALYZE runs the query and shows each operator's
// rows, time and peak memory, exec/analyze.go) of queries and of INSERT,
// UPDATE, DELETE and MERGE (explain_dml.go: the write's node, naming
// its table, kind, columns, clauses and checks, over the plans of the
// rows it reads; EXPLAIN writes nothing, EXPLAIN ANALYZE runs the write,
// in the transaction if any, and adds the reads' figures, the row
// groups and files read or kept, and the rows affected). UPDATE t SET ... [FROM ...] [WHERE ...], DELETE FROM
// t [WHERE ...] and TRUNCATE t of a single-file table, and MERGE INTO
// (merge.go); RETURNING on INSERT, UPDATE, DELETE and MERGE (with
// merge_action): the rows as written, or as they were for DELETE
// (returning.go, dml_returning.go); in transactions too (txstage.go: staged files applied at
// COMMIT) (dml.go: the file is written again, under its append lock,
// and replaces the old one; UPDATE ... FROM becomes correlated subqueries,
// updateFrom); ALTER TABLE ADD / DROP / RENAME COLUMN, ALTER COLUMN TYPE
// [USING] / SET|DROP DEFAULT / SET|DROP NOT NULL, RENAME TO (alter.go).
// SET [SESSION|GLOBAL] / RESET / PRAGMA name = value of the settings
// default_null_order, default_order, integer_division, threads
// (worker_threads), memory_limit (max_memory; enforced on the operators
// that hold rows, memory.go) and TimeZone, read by
// current_setting('name') and duckdb_settings() (settings.go); SET
// VARIABLE name = expr / RESET VARIABLE, getvariable('name') and
// duckdb_variables() (variables.go). PREPARE name AS statement /
// EXECUTE name(args) / DEALLOCATE, kept in the connection's session
// and listed by duckdb_prepared_statements();
// SUMMARIZE table | query (summarize.go); CHECKPOINT and FORCE
// CHECKPOINT (a barrier on the engine's writes), INSTALL / LOAD of the
// extensions carquet has built in, CALL f(args), ANALYZE and USE of the
// one catalog and schema (session_stmts.go). EXPORT DATABASE 'dir'
// [(FORMAT parquet)] and IMPORT DATABASE 'dir' in DuckDB's layout
// (schema.sql, load.sql, a Parquet file per table), and COPY t FROM
// 'file.parquet' (export.go). CSV and JSON files: read_csv, read_csv_auto,
// sniff_csv and FROM 'x.csv' with DuckDB's sniffer (csvbind.go; package
// textfile reads the files); read_json and its kin, read_text, read_blob
// and FROM 'x.json' (textbind.go); COPY ... TO 'x.csv' / 'x.json'
// (csvcopy.go, jsoncopy.go) and COPY t FROM 'x.csv' / 'x.json'. LIMIT p%
// (a share of the rows), try(e), GROUPS window frames, CREATE TYPE ...
// AS ENUM (enumtypes.go). CREATE [UNIQUE] INDEX and DROP INDEX on
// single-file tables: bloom filters for the indexed columns, UNIQUE
// indexes checked as keys, duckdb_indexes() (index.go). ATTACH 'folder' [AS name] of another
// carquet root, read as name.table, and DETACH; main.t names t
// (attach.go).
//
// Refused by name: SAVEPOINT, GRANT, REVOKE, LOCK, UNLOCK (DuckDB has
// none of them), ATTACH of a DuckDB or SQLite file,
// UNION BY NAME in one query with INTERSECT or EXCEPT,
// ORDER BY inside window functions that are not aggregates (first_value,
// lag, row_number, ...; fill has it), REGEXP/RLIKE, PIVOT after a table
// (the SQL standard's form),
// SET LOCAL (as in DuckDB), PRAGMA calls,
// COPY to formats other than Parquet, CSV and JSON, BEGIN/COMMIT/ROLLBACK through
// Engine.Prepare (the driver runs them on its transaction), ON DELETE/UPDATE actions of foreign keys. CREATE TEMP TABLE makes a table that
// lives as long as the engine (in a temporary folder); so do sequences
// (sequence.go: CREATE/DROP SEQUENCE, nextval, currval).
package sqlplan

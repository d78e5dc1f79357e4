// Package plan is carquet's SQL planner: it turns a parsed statement into
// the operators that run it. It sits below the engine's facade (package
// sqlplan: Engine, Stmt, Rows, Tx, DDL, DML, the catalog views), which
// imports it, and above the execution packages, which it imports:
// parse (tokens, the rewrite, errors), vec and num (column vectors,
// wide integers), function (scalar functions, casts, aggregates), exec
// (the operators) and textfile (CSV and JSON files). It imports nothing
// of the facade; sqlplan's arrows_test.go checks the arrows.
//
// The stages, as sqlplan's package documentation tells them:
//
//   - Binding (bind.go, bindops.go, bindcast.go, funcs*.go, agg*.go,
//     nested*.go, ...): names resolve against the tables' schemas and
//     the query's scopes, types are inferred and unified, constants and
//     arguments folded; the bound expressions are Expr (expr.go), which
//     exec's operators evaluate.
//   - The logical plan (logical.go): select_bind.go makes a SELECT's tree
//     of logical nodes (LNode), select_optimize.go applies the rules in
//     order (OptimizerRules), select_derived.go keeps a derived table
//     logical until its parent's rules have run.
//   - Lowering (select_lower.go, exec.go, aggnode.go, join.go, pipe.go,
//     ...): the operators of package exec, with the scans' pushed
//     predicates, and the joins, aggregation and pipelines built here.
//
// Planner is one statement's planner. It reaches the engine only through
// Catalog (plancatalog.go), which the facade implements for each
// statement: the tables a FROM opens, now(), user types, sequences,
// settings, the relations the engine answers itself (catalog views,
// RETURNING rows, variables). A statement reaches it as Parsed
// (parsed.go), with the Settings it runs with (plansettings.go).
//
// The exported names beyond those are the ones the facade uses (the
// catalog views build their rows with CatalogRows and the planner's
// types, the DML statements bind with Planner's methods) and, a few,
// the knobs the engine's tests turn (NoGroupedCorrelation,
// NoGroupCountJoin, MaxRecRounds, MaxRecRows).
package plan

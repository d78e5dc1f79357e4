// Package exec is the engine's physical layer: the operators that run a
// plan, and the kernels they run on column vectors (package vec).
//
// An operator is a Node: each Next pulls the next batch of its rows from
// its inputs, until io.EOF; Explain writes it for EXPLAIN through an
// Explainer. What an operator evaluates on a batch is an Expr, which
// package sqlplan binds from SQL; exec knows nothing of plans, SQL or the
// binder, and sqlplan builds the operators from its plans. The operators
// here are Const, Filter and RelFilter (with a Pred that evaluates
// subqueries last), Project, Limit, Keep, Distinct, Union, SetOp
// (INTERSECT, EXCEPT), Sort (and its top-N heap), Window (running window
// functions the planner computes), HashAggregate (GROUP BY, grouping
// sets, aggregates with ORDER BY, over package function's accumulators;
// the planner passes what the files and joins tell it as hooks; over a
// Pipeline, when every aggregate's partial states combine, each worker
// groups its own batches and the partial states are merged at the end,
// aggparallel.go and Pipeline.Drain),
// HashJoin (inner and outer hash and nested-loop joins; the planner
// passes the restriction of the build keys' correlated subqueries and
// the probe side's key filters as hooks), AsofJoin, PositionalJoin and
// LateralJoin (on a HashJoin's layout; the planner runs a lateral
// subquery through a hook), GroupCountJoin (counts per probe-side key
// over a join, without the joined rows), Series and ReadAhead; Profile and Stat instrument a plan
// for EXPLAIN ANALYZE (analyze.go). exec imports function (the
// accumulators) and vec.
//
// The kernels: the typed hash tables of joins (RowTable, KeyPacker),
// grouping (Grouper), row comparison and sorting (SortKey, CompareRows,
// SortRows, TopHeap) and the accounting of the memory operators hold
// (OpMemory). Values a kernel cannot read typed go through
// vec.CompareScalars and vec.AppendScalarKey, which order and encode them
// by their kind (and nested ones by their text, vec.ScalarText).
package exec

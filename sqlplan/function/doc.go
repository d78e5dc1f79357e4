// Package function holds the engine's function library: the kernels of
// scalar functions over column vectors (vec.Col) and their type rules,
// the text forms of dates, times and blobs that casts use, and the
// arithmetic and aggregate kernels that work on vectors alone.
//
// The cast hub is here: CastCol (a column to a type, with DuckDB's rules
// for overflow, rounding and text, TRY_CAST's NULLs) and CastScalar (one
// value) are every cast between vec kinds, with the types CAST may name
// (ParseTypeName, CastCodeType, CastTypes) and the cases of BIT
// (bit.go), UHUGEINT (uhuge.go) and TIMETZ (timetz.go). Nested values
// (lists, structs, maps) keep their Go forms and text in the engine, which
// sets Nested for the casts that reach them. Arithmetic is Arith (the
// result type chosen by the binder), Negate and AddInterval
// (arithcol.go); the date and time kernels are in datetime.go.
//
// A scalar function is a Scalar registered by its file's init: its
// TypeRule types a call (and asks for casts: across kinds only, or as
// CAST does when Exact), Row or Batch computes it, RowFor chooses Row by
// the argument types when they change the computation.
//
// An aggregate is an Aggregate of the registry (aggregates.go), found by
// LookupAggregate through its aliases: its AggRule types a call from its
// argument's type (the cast it asks for, the result type, the exact type
// of AVG's sum), and its New makes the call's Accumulator (aggbasic.go,
// aggexact.go, aggvalues.go), which is fed a batch at a time with each
// row's group id (Update) and gives each group's result (Result);
// NewAccumulator adds DISTINCT (PairSet for integers) and exact
// averages. The operator that runs them, with ORDER BY inside the call,
// is package exec's HashAggregate; window frames (package sqlplan) feed
// them one frame at a time.
//
// It sits below the planner: the binder (package sqlplan) looks a
// function up by name, applies its type rule to the types of the
// arguments (casting them), and evaluates it through its kernel. Nothing
// here sees an expression tree, a catalog or a session; a kernel that
// needs engine state takes it as an argument. The package imports vec,
// num and parse (for the engine's error type) and nothing of sqlplan.
package function

// Package function holds the engine's function library: the kernels of
// scalar functions over column vectors (vec.Col) and their type rules,
// the text forms of dates, times and blobs that casts use, and the
// arithmetic and aggregate kernels that work on vectors alone.
//
// It sits below the planner: the binder (package sqlplan) looks a
// function up by name, applies its type rule to the types of the
// arguments (casting them), and evaluates it through its kernel. Nothing
// here sees an expression tree, a catalog or a session; a kernel that
// needs engine state takes it as an argument. The package imports vec,
// num and parse (for the engine's error type) and nothing of sqlplan.
package function

// Package exec holds the engine's execution kernels: the typed hash
// tables of joins (RowTable, KeyPacker), grouping (Grouper), DISTINCT
// pair sets (PairSet), row comparison and sorting (SortKey, CompareRows,
// SortRows, TopHeap) and the accounting of the memory operators hold
// (OpMemory). They work on column vectors (package vec) and know nothing
// of plans or SQL: package sqlplan's operators call them. Values a
// kernel cannot read typed go through CompareScalars and AppendScalarKey,
// which order and encode them by their kind (and nested ones by their
// text, vec.ScalarText).
package exec

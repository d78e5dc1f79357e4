// Package scan executes reads over tables made of one or many Parquet
// files: projection of columns, predicates pushed down from the SQL layer,
// pruning of files (hive partitions, footer statistics), row groups
// (statistics, bloom filters) and pages (column index + offset index),
// late materialization, and parallel decoding of row groups, producing
// columnar batches.
//
// It sits above parquet/* and below sqlplan/. Programs can use it directly.
package scan

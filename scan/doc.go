// Package scan executes reads over tables made of one or many Parquet
// files: projection of columns, predicates pushed down from the SQL layer,
// pruning of files (hive partitions, footer statistics), row groups
// (statistics, bloom filters) and pages (column index + offset index),
// late materialization, and parallel decoding of row groups, producing
// columnar batches.
//
// A folder with a _delta_log is a Delta Lake table (package delta): its
// files, column types and partition values come from the log snapshot;
// files are pruned by their add actions' statistics before any footer is
// read, and deletion vectors are loaded when the scan reaches their file
// and applied as a selection (cut out of the row ranges when few).
//
// It sits above parquet/* and below sqlplan/. Programs can use it directly.
package scan

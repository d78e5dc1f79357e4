// Package delta reads Delta Lake tables: a folder whose _delta_log holds
// the table's transaction log. Open reconstructs the snapshot of a version
// (the latest by default): the newest complete checkpoint not newer than
// the version (classic, multi-part, or UUID-named V2 with its sidecars
// under _delta_log/_sidecars), then the JSON commits after it (a log
// compaction file, <x>.<y>.compacted.json, in place of commits x to y
// when the version is y or later), reconciled
// by path and deletion vector (newest action wins, removes take files
// out). The snapshot carries the protocol (reader features this package
// does not implement are refused by name), the metadata (schema,
// partition columns, column mapping mode) and the live files with their
// partition values, statistics and deletion vectors.
//
// The schema string becomes a Parquet schema (Type.ParquetSchema) in the
// physical types Spark writes, so that package scan can type the table's
// columns without opening a data file. Deletion vectors themselves are
// read by package delta/dv.
//
// Writing: Commit puts a version in the log (optimistic concurrency, see
// commit.go), with the checkpoints, log compactions and deletion vector
// files that go with it; FileType, PartitionValue and PartitionDir say how
// rows of a partitioned or column-mapped table become data files; Vacuum
// deletes the files no version within the retention needs, in a folder
// or a bucket.
//
// Package scan opens a Delta folder as a table with this package; nothing
// here reads data files.
package delta

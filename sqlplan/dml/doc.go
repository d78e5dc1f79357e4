// Package dml is the storage side of the engine's writes: how the rows
// of INSERT, UPDATE, DELETE, MERGE and OPTIMIZE reach a table's files,
// and how a transaction's changes of several tables are published all or
// nothing. It sits beside the stages of package sqlplan: the statements
// are bound and planned there (SET and WHERE become expressions, rows
// are checked against the table's constraints) and reach this package as
// Parquet schemas, vectors, paths and callbacks; it imports nothing of
// sqlplan but the syntax stage's Error, and below it the writer, scan,
// delta and parquet packages.
//
// What lives here:
//   - a transaction's staging folder (Stage);
//   - the COMMIT record (Record, Op): the steps that publish a
//     transaction's staged files, written durably before the first of
//     them, and Recover, which completes or drops what a crashed COMMIT
//     left; LockTable and the exchange of a folder table's staged next
//     version (ExchangeOp);
//   - Delta tables' data files: the rows split by partition values
//     (DeltaLayout) and written one new file per partition
//     (WriteDeltaRows, WriteDeltaFile), whose add actions the caller
//     commits; a DELETE, UPDATE or MERGE of a Delta table as one commit
//     of deletion vectors and new files (DeltaEdit); OPTIMIZE's
//     compaction of small files (DeltaCompaction);
//   - Delta tables in transactions: the staged copy (LinkDeltaCopy), the
//     one commit that publishes it (NetDeltaCommit, MoveNewFiles,
//     CommitDeltas) and the mark that makes that commit a COMMIT's commit
//     point (CommitMark, DeltaStep);
//   - group commit of INSERTs outside transactions (InsertGroups);
//   - hive partition folders (HiveGroups, HiveDir, WithPartitionFields);
//   - table files: new file names (NewPartName, RewrittenName), a file
//     written whole (WriteFile, CopyWith), an atomic append
//     (OpenTableWriter), checking and dropping a folder table
//     (TableFolder, DropFolder).
package dml

// Package deltalake tests carquet's Delta Lake writer at the scale the
// issue asks for, in processes of their own: two processes committing to
// one table at once, on a local folder and on an S3 server on loopback
// (internal/fakes3), every row there once and the log whole; a DELETE of
// 1% of a large table writing deletion vectors and no data file; and the
// fake store's conditional create (If-None-Match: *) raced by many
// creators of one key; partitioned tables written by carquet, and one
// whose data files DuckDB wrote (COPY ... PARTITION_BY) appended to by
// carquet. The tables are read back by carquet and by DuckDB
// (read_parquet over the snapshot's add actions with their deletion
// vectors applied, and their partition values as columns).
package deltalake

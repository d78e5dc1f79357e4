// Package driver is the database/sql driver for carquet, registered as
// "carquet":
//
//	db, err := sql.Open("carquet", "data/?threads=4&mode=ro")
//
// or configured in code with OpenDB(Config{...}). It only translates:
// parsing the DSN, arguments in, rows out. The SQL engine is package
// sqlplan, which programs can use without database/sql.
//
// # DSN
//
// A path to a folder (every *.parquet file in it is a table named by its
// base name; every sub-folder holding Parquet files is a table named by
// the folder, read recursively with hive partitions) or to one Parquet
// file, then options as a query string: threads (row groups decoded at
// once), mode (ro refuses every write; rw, the default), compression of
// written files (none, snappy, gzip, zstd, lz4_raw, brotli),
// row_group_rows, verify_checksums, mmap, external_access, memory_limit
// (a size such as 1GB or 512MiB: what the hash tables, sorts and windows
// of one query may hold before it fails with sqlplan.ErrMemoryLimit; no
// limit by default; SET memory_limit changes it), and the keys of
// encrypted files (below). Unknown options are an error.
//
// The path may be an object store URL, s3://bucket/prefix/ (a prefix
// holding tables as a folder does) or s3://bucket/prefix/t.parquet, once
// a program imports the store: import _
// "github.com/carquet-go/carquet/objstore/s3". The store's options
// (region, endpoint, url_style, profile, anonymous, max_attempts, static
// keys) then join the DSN's; see package objstore/s3. Objects are never
// rewritten: INSERT and CREATE TABLE add objects, and statements that
// would rewrite one are refused.
//
// # The folder is the database
//
// Every path a statement names — a quoted file or folder, a glob,
// read_parquet('...'), a COPY target, the table of CREATE, DROP, INSERT,
// DELETE, UPDATE, TRUNCATE or ALTER — resolves below the DSN's folder
// (the file's folder for a one-file DSN), after cleaning and resolving
// symbolic links, or the statement fails before any I/O. So do the files
// a folder table, a glob or a Delta log lists. external_access=read lets
// statements read files elsewhere; writing or deleting outside the folder
// is always refused. DROP TABLE removes only a Parquet file or a folder
// that holds Parquet files and nothing else.
//
// Pages are verified when read: the CRC32 of every page that carries one
// (carquet writes one into every page) and each data page header against
// the column chunk's offset index. A damaged page gives ErrChecksum or
// ErrCorrupt naming the file, row group, column and page offset, never
// wrong values. verify_checksums=false (Config.SkipChecksums) skips those
// checks for speed.
//
// # Encrypted files
//
// Files using Parquet Modular Encryption read with their keys:
// encryption_footer_key=KEY decrypts (or verifies) footers and the
// columns encrypted with the footer key; column_keys=col:KEY,col2:KEY
// gives keys by dotted column path; aad_prefix= gives the AAD prefix of
// files that do not store theirs. A KEY is the key's 16, 24 or 32 bytes
// as they are, or hex: followed by 32, 48 or 64 hex digits (needed for
// keys that are not text or hold ',' ':' or '&'); escape the DSN as a
// URL query. Without keys, files with a plaintext footer read their
// plaintext columns; a column or footer whose key is missing or wrong
// fails with ErrEncrypted (ErrDecrypt for a wrong key) naming the file
// and column. In code, Config.Decryption also takes a key retriever that
// maps the key metadata stored in files to keys.
//
// With encryption_footer_key, the files statements write (CREATE TABLE,
// CREATE TABLE AS, COPY TO, the new files of folder tables) are
// encrypted: AES_GCM_V1, an encrypted footer, the AAD prefix stored; the
// columns column_keys names (in any table) under their keys and the other
// columns in plaintext, or every column under the footer key when
// column_keys is absent. An INSERT into an existing file keeps that
// file's encryption: a plaintext file stays plaintext (readable without
// keys), an encrypted one takes new row groups encrypted as its others,
// which needs its keys (a missing or wrong one fails naming the file and
// column, and the file is left as it was). Statements that write a table's
// file anew (UPDATE, DELETE, ALTER TABLE) write it with the DSN's keys,
// whatever the old file was. A key retriever alone reads but does not
// encrypt. Delta tables' logs hold column statistics in plaintext.
//
// # Values
//
// Rows hand out: int64 for every integer type (UBIGINT as uint64,
// HUGEINT and UHUGEINT as *big.Int, as duckdb-go), float64 (FLOAT too),
// bool, string (VARCHAR, JSON, UUID text, BIT as its 0s and 1s), []byte,
// time.Time in UTC (TIMESTAMP, DATE at midnight, TIME on 0001-01-01, its
// 24:00:00 as 0001-01-02 00:00:00; TIMETZ on 0001-01-01 in a fixed zone
// of its offset),
// DECIMAL as exact text (scan it into Decimal or NullDecimal for an exact
// number, or into float64), INTERVAL as text, and lists, structs and maps
// as []any, map[string]any and Go maps — scan those into an *any, or into
// a JSON for their JSON text (database/sql cannot scan a slice into a
// *string). ColumnTypeScanType, DatabaseTypeName, Nullable and
// PrecisionScale come from the Parquet schema.
//
// Arguments: every Go integer and float type (uint64 above MaxInt64
// too), bool, string, []byte, time.Time, nil, Decimal, *big.Int, the
// sql.Null* types and any driver.Valuer. Placeholders: ? (in order), $1
// (by position, reusable), and :name, @name or $name for sql.Named("name", v).
//
// Exec and Query take several statements separated by semicolons (then
// without arguments): they run in order, and Query returns the rows of
// the last one, as DuckDB does.
//
// # Transactions
//
// Every statement that writes may run inside a transaction (db.BeginTx,
// or BEGIN / COMMIT / ROLLBACK as SQL on one connection): INSERT (with
// ON CONFLICT), DELETE, UPDATE, MERGE, CREATE [TEMP] TABLE [AS], DROP
// TABLE, ALTER TABLE, COPY and OPTIMIZE, on one-file and folder tables as
// outside one (OPTIMIZE of a folder table excepted). Queries in a
// transaction read a snapshot (the default, snapshot and serializable
// isolation levels): each table as the transaction's first query of it
// found it, whatever other connections or processes commit meanwhile,
// plus the transaction's own writes; other connections see none of them
// before Commit. INSERTs wait in memory (their rows kept in a temporary
// Parquet file while queries read them); the other statements write the
// table's new version to a staging folder (.carquet_tx in the database
// folder). Rollback discards both and leaves every table's files byte for
// byte as they were. Commit publishes all the tables at once under a
// commit record, so that after a crash a new engine finds all of the
// transaction or none of it (see package sqlplan, txstage.go); it fails
// with sqlplan.ErrConflict, changing nothing, when another connection
// changed a table the transaction rewrote, created or dropped. A
// transaction that only INSERTs into one table appends to it in place.
// A temporary table a transaction creates is staged beside the
// temporary tables (their folder may be on another file system) and
// renamed into place at Commit. VACUUM of a Delta table in a
// transaction counts the files it would delete at once and deletes them
// at Commit, after the tables are published; COPY ... TO writes its file
// at Commit. In a database in an object store, a transaction stages
// its tables' new contents on the local disk (DELETE, UPDATE and MERGE
// of one-object tables, CREATE and DROP TABLE, INSERTs) and Commit
// publishes them by PUTs conditional on the objects it read (If-Match),
// failing with sqlplan.ErrConflict when one changed: each table changes
// whole, but several tables are not published atomically (a failure
// between two PUTs keeps the first; the error names it; see sqlplan's
// txremote.go). Rewrites of folder and Delta tables there are refused
// inside a transaction. CREATE/DROP VIEW in one are seen by its statements
// (MERGE's source too) and applied at Commit (the catalog file is
// written after the tables, not under their commit record); CREATE
// MACRO takes effect at once. Outside one, every INSERT is its own
// atomic append, and a row that does not fit the schema fails the
// statement with nothing written.
//
// # Concurrent readers and writers
//
// Any number of connections and processes may read while one writes (an
// appender in another process waits for the file's lock). Every query
// sees each table's appends whole or not at all, never one in progress
// or one whose process crashed; the rows a connection sees of a table
// never go back, and a query that starts after an INSERT returned (in any
// process) sees its rows.
//
// # SQL
//
// See package sqlplan for the SQL accepted and refused.
package driver

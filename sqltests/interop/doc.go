// Package interop is the interop matrix between carquet and its peers.
//
// Files written by carquet — every table of package tables × codecs
// (none, snappy, gzip, zstd, lz4_raw, brotli, lz4) × encodings (plain,
// dictionary, delta, delta_byte_array, byte_stream_split) × data page v1
// and v2 — are read by DuckDB, arrow-go (pqarrow) and parquet-go, and
// every value must equal what was written (compared through package
// canon). Files written by each peer from the same tables — DuckDB COPY
// with each codec and PARQUET_VERSION V1/V2, arrow-go's pqarrow writer
// with each codec, encoding and page version, parquet-go's writer with
// each codec, encoding and page version — are read by carquet and must
// equal the peer's own reading of them.
//
// A cell a peer cannot write or read is named in known.go with the reason
// and skipped alone; every other difference fails. CARQUET_INTEROP_ROWS
// sets the rows per table (default 300) for a bigger run.
package interop

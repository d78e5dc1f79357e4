// Package compress holds the page compression codecs of the Parquet format:
// UNCOMPRESSED, SNAPPY, GZIP, LZ4 (the deprecated Hadoop-framed codec),
// LZ4_RAW, ZSTD and BROTLI. LZO is not built in; a program that needs it can
// plug its own implementation in with Register.
//
// It sits between the page reader/writer and the compression libraries:
// the column-chunk reader asks Lookup for the codec named in the column
// metadata and decompresses each page body into a buffer it reuses; the
// column writer asks NewEncoder for a codec at the configured level, wraps
// it in NewPageEncoder (which, for zstd level 3, picks klauspost's default
// or fastest encoder per column from probe pages) and compresses each page
// body. The package is a leaf: it imports only the
// standard library, parquet/format and the compression libraries
// (klauspost/compress, pierrec/lz4, andybalholm/brotli). GZIP pages are
// decompressed by its own subpackage inflate, which decodes a whole page
// straight into the output buffer; klauspost/compress writes them.
//
// Every Codec is safe for concurrent use. Decoders and encoders keep their
// heavy state in pools (for zstd, one shared decoder whose DecodeAll is
// concurrency-safe, and per level a stack of single-goroutine encoders
// where a page takes the one used last, its tables still in cache), so a
// page costs no allocation beyond the output buffer when the caller reuses
// it.
//
// Hostile input: Decode takes the uncompressed size the page header claims,
// rejects claims above MaxDecodedSize (or the lower limit set with
// WithMaxDecodedSize), rejects claims a codec could never produce from
// len(src) bytes, grows its output only as the data really decompresses
// (gzip, which decodes whole pages, decodes again into a buffer four times
// larger when the data fills the first one), and fails when the result differs from the claim. Bad input gives an
// error, never a panic.
package compress

// Package writer builds Parquet files: a schema builder (flat and nested
// fields, every physical and logical type), column writers that shred
// nested values into definition and repetition levels, choose an encoding
// per column (dictionary first, falling back when the dictionary grows too
// large), cut and compress pages, and compute statistics, page indexes and
// bloom filters; row groups; the footer; and crash-safe appends to an
// existing file.
//
// It sits above parquet/format, parquet/schema, parquet/encoding and
// parquet/compress (and simd, through them), beside parquet/file, which
// reads what it writes; scan/ and sqlplan/ use it for INSERT and CREATE
// TABLE. It imports nothing above parquet/.
//
// # Writing
//
//	sch, _ := writer.NewSchema(
//		writer.Timestamp("ts", writer.Micros, true).Required(),
//		writer.String("category"),
//		writer.List("tags", writer.String("tag")),
//	)
//	w, _ := writer.Create("events.parquet", sch, writer.WithCompression(format.Zstd))
//	_ = w.WriteBatch(columns) // []*vector.Vector, one per top-level field
//	_ = w.Close()
//
// Sinks: Create writes a file under a temporary name and renames it into
// place on Close; New writes to any io.Writer; Buffer is an in-memory sink
// that parquet/file can open.
//
// # Defaults
//
// Dictionary encoding (RLE_DICTIONARY data pages after a PLAIN dictionary
// page) for every type but BOOLEAN, falling back to the column's value
// encoding once the dictionary's PLAIN size passes 1 MiB. Value encoding
// PLAIN, RLE for BOOLEAN. Data page v1; pages of about 1 MiB of encoded
// values and at most 20,000 rows, always cut at row boundaries. Row groups
// of at most 1,048,576 rows or 128 MiB buffered. No compression. Column
// statistics and the page index (ColumnIndex and OffsetIndex) on; page
// header statistics off; BYTE_ARRAY bounds truncated to 64 bytes. Bloom
// filters and page CRCs on request. Every option has a per-column form
// taking a dotted path (a leaf, or a group for every leaf below it).
//
// # Statistics
//
// min_value/max_value follow each column's sort order: signed or unsigned
// integers by the INTEGER annotation, decimals as signed numbers
// (two's complement of any length for byte arrays), byte-wise for strings
// and binary, numbers for FLOAT16; floats leave NaNs out (counted in
// nan_count) and write a zero minimum as -0.0 and a zero maximum as +0.0.
// INT96, INTERVAL, GEOMETRY and GEOGRAPHY have no order and get no
// min/max. The deprecated min/max fields are written only for signed
// numeric columns. distinct_count is the dictionary size when the whole
// chunk is dictionary-encoded (not for floats, whose dictionary keys are
// bit patterns).
package writer

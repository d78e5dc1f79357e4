// Package file opens Parquet files: it reads and checks the footer,
// decodes the FileMetaData and the schema, and reads column chunks page by
// page into typed values and columnar batches.
//
// It sits above parquet/format, parquet/schema, parquet/encoding and
// parquet/compress, and below scan/ and writer/.
package file

package conformance

// expectation records what is known about one file of data/.
type expectation struct {
	// carquet is set when carquet rejects the file; the error must contain
	// the text. Such a file is then compared between the peers only.
	carquet string
	// carquetReason says why: a library bug to fix, or a correct rejection.
	carquetReason string
	// noChecksums makes a second carquet read, without page checksum
	// verification, that is compared with the peers (which do not verify
	// checksums by default).
	noChecksums bool
	// duckdb and arrow are set when that peer rejects the file; the error
	// must contain the text.
	duckdb, arrow string
	// duckdbCols and arrowCols name columns that the peer reads
	// differently, with the reason; their cells are not compared.
	duckdbCols, arrowCols map[string]string
	// twin names a file with the same rows that the peers can read: when
	// neither peer reads this one, carquet's rows are compared with
	// DuckDB's rows of the twin.
	twin string
	// skip leaves the file out entirely, with the reason.
	skip string
}

// expectations is the record of differences, by file name under data/.
var expectations = map[string]expectation{
	// Correct rejections: the pages' CRC32 does not match. Peers do not
	// verify checksums by default and decode the corrupt bytes; carquet
	// without verification must decode them to the same values.
	"datapage_v1-corrupt-checksum.parquet": {
		carquet: "checksum mismatch", carquetReason: "page CRC32 does not match (the file's purpose)", noChecksums: true,
	},
	"rle-dict-uncompressed-corrupt-checksum.parquet": {
		carquet: "checksum mismatch", carquetReason: "page CRC32 does not match (the file's purpose)", noChecksums: true,
	},

	// Library limitation: two map keys of 1 GiB each. A batch's byte-array
	// offsets are int32, so file.Reader fails on any batch holding both
	// rows (the library's own TestLargeStringMap reads it one row per
	// batch). arrow-go rejects its 1 GiB page (256 MiB page limit).
	// Reading 2 GiB of strings through three libraries costs minutes, so
	// the file is left out here.
	"large_string_map.brotli.parquet": {
		skip: "2 GiB of string data: too slow for this test (carquet needs BatchSize 1 for it: int32 byte-array offsets per batch)",
	},

	// Peer limitations.
	"byte_stream_split_extended.gzip.parquet": {
		duckdb: "BYTE_STREAM_SPLIT encoding is only supported for FLOAT or DOUBLE",
	},
	"hadoop_lz4_compressed.parquet": {
		duckdb: `Unsupported compression codec "LZ4"`, arrow: "compression for LZ4 unimplemented",
		twin: "lz4_raw_compressed.parquet",
	},
	"hadoop_lz4_compressed_larger.parquet": {
		duckdb: `Unsupported compression codec "LZ4"`, arrow: "compression for LZ4 unimplemented",
		twin: "lz4_raw_compressed_larger.parquet",
	},
	"non_hadoop_lz4_compressed.parquet": {
		duckdb: `Unsupported compression codec "LZ4"`, arrow: "compression for LZ4 unimplemented",
		twin: "lz4_raw_compressed.parquet",
	},
	"datapage_v2_empty_datapage.snappy.parquet": {
		arrow: "could not decompress page", // it decompresses an empty v2 page body, which the file exists to catch
	},
	"incorrect_map_schema.parquet": {
		arrow: "MAP keys must be required",
	},
	"unknown-logical-type.parquet": {
		arrow: "panicked: invalid logical type",
	},
	"map_no_value.parquet": {
		duckdb: "MAP_KEY_VALUE requires two children",
		arrowCols: map[string]string{
			"my_map_no_v": "arrow-go reads a MAP without a value column as a list of its keys; carquet as a map whose values are null",
		},
	},
	"old_list_structure.parquet": {
		arrowCols: map[string]string{
			"a": "arrow-go reads the legacy two-level LIST<LIST<INT32>> as a list of structs {array: [...]}; the file's README says [[1, 2], [3, 4]], which carquet and DuckDB return",
		},
	},
	// Row 5 holds Julian day 4189105064 with negative nanoseconds (Spark
	// wrote 290000-12-31 with wrapped arithmetic): carquet reads it as DuckDB
	// does (226414-01-07 BC, TestInt96Rows); arrow-go refuses it.
	"int96_from_spark.parquet": {
		arrow: "INT96 timestamp is outside the Arrow nanosecond range",
	},
}

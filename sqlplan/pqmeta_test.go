package sqlplan

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// The Parquet introspection functions on parquet-testing's files. The
// expected values are DuckDB's answers for the same files (parquet
// metadata as DuckDB 1.5 shows it), except where a comment says.

// testingEngine opens an engine on parquet-testing's data folder.
func testingEngine(t *testing.T, sub string) *Engine {
	t.Helper()
	e, err := Open(testfiles.Dir(t, sub), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// metaRowsText renders rows as tab-separated lines, NULL for nil.
func metaRowsText(rows [][]any) string {
	var b strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				b.WriteByte('\t')
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				fmt.Fprint(&b, v)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// metaErr is the error of preparing or running q.
func metaErr(e *Engine, q string) error {
	rows, err := mustQuery(e, q)
	if err == nil {
		rows.Close()
	}
	return err
}

func checkRows(t *testing.T, e *Engine, q, want string) {
	t.Helper()
	if got := metaRowsText(queryAll(t, e, q)); got != want {
		t.Errorf("%s:\ngot:\n%s\nwant:\n%s", q, got, want)
	}
}

func TestParquetMetadataBloomFile(t *testing.T) {
	e := testingEngine(t, "data")
	const f = "'data_index_bloom_encoding_stats.parquet'"
	checkRows(t, e, "SELECT row_group_id, row_group_num_rows, row_group_num_columns, row_group_bytes, column_id, file_offset, num_values, path_in_schema, type, stats_min, stats_null_count, stats_min_value, stats_max_value, compression, encodings, dictionary_page_offset, data_page_offset, total_compressed_size, total_uncompressed_size, bloom_filter_offset, bloom_filter_length, min_is_exact, row_group_compressed_bytes FROM parquet_metadata("+f+")",
		"0\t14\t1\t163\t0\t4\t14\tString\tBYTE_ARRAY\tNULL\t0\tHello\ttoday\tGZIP\tBIT_PACKED, RLE, PLAIN\tNULL\t4\t152\t163\t192\tNULL\tNULL\t152\n")
	checkRows(t, e, "SELECT created_by, num_rows, num_row_groups, format_version, encryption_algorithm, file_size_bytes, footer_size, column_orders FROM parquet_file_metadata("+f+")",
		"parquet-mr version 1.13.0-SNAPSHOT (build 7398d9b522733c669d497c25495c9efa1c860994)\t14\t1\t1\tNULL\t1643\t403\t[ColumnOrder(TYPE_ORDER=TypeDefinedOrder())]\n")
	checkRows(t, e, "SELECT key::VARCHAR, octet_length(value) FROM parquet_kv_metadata("+f+") ORDER BY 1",
		"parquet.avro.schema\t135\nwriter.model.name\t4\n")
	checkRows(t, e, "SELECT name, type, repetition_type, num_children, converted_type, logical_type, duckdb_type, column_id FROM parquet_schema("+f+")",
		"data\tNULL\tNULL\t1\tNULL\tNULL\tNULL\t0\nString\tBYTE_ARRAY\tOPTIONAL\tNULL\tUTF8\tStringType()\tVARCHAR\t1\n")
	// The bloom filter holds every value of the column: a value it has
	// is never excluded; one it lacks is (DuckDB says the same of these).
	checkRows(t, e, "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe("+f+", 'String', 'Hello')", "0\tfalse\n")
	checkRows(t, e, "SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe("+f+", 'String', 'Hellox')", "0\ttrue\n")
	for _, v := range []string{"Hello", "today", "are you", "doing ", "dog"} {
		checkRows(t, e, "SELECT bloom_filter_excludes FROM parquet_bloom_probe("+f+", 'String', '"+v+"')", "false\n")
	}
	if err := queryErr(t, e, "SELECT * FROM parquet_bloom_probe("+f+", 'nope', 1)"); err == nil || !strings.Contains(err.Error(), "Column nope not found in data_index_bloom_encoding_stats.parquet") {
		t.Errorf("probe of a missing column: %v", err)
	}
	if err := queryErr(t, e, "SELECT * FROM parquet_bloom_probe("+f+", 'String', NULL)"); err == nil || !strings.Contains(err.Error(), "NULL parameters") {
		t.Errorf("probe of NULL: %v", err)
	}
}

func TestParquetSchemaNested(t *testing.T) {
	e := testingEngine(t, "data")
	checkRows(t, e, "SELECT name, type, repetition_type, num_children, converted_type, duckdb_type, column_id FROM parquet_schema('nested_maps.snappy.parquet')", ""+
		"spark_schema\tNULL\tNULL\t3\tNULL\tNULL\t0\n"+
		"a\tNULL\tOPTIONAL\t1\tMAP\tNULL\t1\n"+
		"key_value\tNULL\tREPEATED\t2\tNULL\tNULL\t2\n"+
		"key\tBYTE_ARRAY\tREQUIRED\tNULL\tUTF8\tVARCHAR\t3\n"+
		"value\tNULL\tOPTIONAL\t1\tMAP\tNULL\t4\n"+
		"key_value\tNULL\tREPEATED\t2\tNULL\tNULL\t5\n"+
		"key\tINT32\tREQUIRED\tNULL\tNULL\tINTEGER\t6\n"+
		"value\tBOOLEAN\tREQUIRED\tNULL\tNULL\tBOOLEAN\t7\n"+
		"b\tINT32\tREQUIRED\tNULL\tNULL\tINTEGER\t8\n"+
		"c\tDOUBLE\tREQUIRED\tNULL\tNULL\tDOUBLE\t9\n")
	// A leaf's path_in_schema joins its path with ", ".
	checkRows(t, e, "SELECT DISTINCT path_in_schema FROM parquet_metadata('nested_maps.snappy.parquet') ORDER BY 1",
		"a, key_value, key\na, key_value, value, key_value, key\na, key_value, value, key_value, value\nb\nc\n")
	checkRows(t, e, "SELECT name, type, type_length, converted_type, scale, precision, duckdb_type FROM parquet_schema('fixed_length_decimal.parquet') WHERE column_id = 1",
		"value\tFIXED_LEN_BYTE_ARRAY\t11\tDECIMAL\t2\t25\tDECIMAL(25,2)\n")
	checkRows(t, e, "SELECT type_length, logical_type, duckdb_type FROM parquet_schema('float16_nonzeros_and_nans.parquet') WHERE column_id = 1",
		"2\tFloat16Type()\tFLOAT\n")
	checkRows(t, e, "SELECT duckdb_type FROM parquet_schema('alltypes_plain.parquet') WHERE name IN ('timestamp_col', 'string_col', 'float_col') ORDER BY column_id",
		"FLOAT\nBLOB\nTIMESTAMP\n")
	checkRows(t, e, "SELECT count(*), max(column_id) FROM parquet_schema('nested_structs.rust.parquet')", "253\t252\n")
}

func TestParquetMetadataStatistics(t *testing.T) {
	e := testingEngine(t, "data")
	// Truncated binary statistics: the bounds as the column's type shows
	// them (a BLOB escaped), with their exactness.
	checkRows(t, e, "SELECT path_in_schema, stats_min, stats_min_value, stats_max_value, min_is_exact, max_is_exact FROM parquet_metadata('binary_truncated_min_max.parquet')", ""+
		"utf8_full_truncation\tNULL\tAl\tKf\tfalse\tfalse\n"+
		"binary_full_truncation\tNULL\tAl\tKf\tfalse\tfalse\n"+
		"utf8_partial_truncation\tNULL\tAl\t🚀Kevin Bacon\tfalse\ttrue\n"+
		`binary_partial_truncation	NULL	Al	\xFF\xFF\x01\x02	false	true`+"\n"+
		"utf8_no_truncation\tNULL\tAl\tKe\ttrue\ttrue\n"+
		"binary_no_truncation\tNULL\tAl\tKe\ttrue\ttrue\n")
	checkRows(t, e, "SELECT stats_min, stats_max, stats_null_count, stats_min_value, stats_max_value, encodings FROM parquet_metadata('float16_nonzeros_and_nans.parquet')",
		"-2.0\t2.0\t1\t-2.0\t2.0\tPLAIN, RLE, RLE_DICTIONARY\n")
	// A column chunk's own key/value metadata; a key without a value
	// maps to the empty blob.
	checkRows(t, e, "SELECT column_id, file_offset, key_value_metadata::VARCHAR FROM parquet_metadata('column_chunk_key_value_metadata.parquet')",
		"0\t18\t{foo=bar, thisiskeywithoutvalue=''}\n1\t111\t{}\n")
	// No statistics, no row group file_offset: NULL.
	checkRows(t, e, "SELECT count(*), count(stats_min_value), count(file_offset), count(row_group_compressed_bytes) FROM parquet_metadata('alltypes_plain.parquet')", "11\t0\t0\t0\n")
}

func TestParquetFullMetadata(t *testing.T) {
	e := testingEngine(t, "data")
	checkRows(t, e, "SELECT len(parquet_file_metadata), len(parquet_metadata), len(parquet_schema), len(parquet_kv_metadata) FROM parquet_full_metadata(['alltypes_plain.parquet', 'data_index_bloom_encoding_stats.parquet'])",
		"1\t11\t12\t0\n1\t1\t2\t2\n")
	checkRows(t, e, "SELECT parquet_file_metadata[1].num_rows, parquet_metadata[1].compression, parquet_schema[2].name FROM parquet_full_metadata('data_index_bloom_encoding_stats.parquet')",
		"14\tGZIP\tString\n")
}

// Every file of parquet-testing, good and bad: each function gives rows
// or an error naming the file, never a panic.
func TestParquetMetadataEveryFile(t *testing.T) {
	read, refused := 0, 0
	for _, sub := range []string{"data", "bad_data"} {
		e := testingEngine(t, sub)
		dir := testfiles.Dir(t, sub)
		for _, path := range testfiles.Glob(t, sub, ".parquet", ".parquet.encrypted") {
			name, err := filepath.Rel(dir, path)
			if err != nil {
				t.Fatal(err)
			}
			for _, fn := range []string{"parquet_metadata", "parquet_schema", "parquet_file_metadata", "parquet_kv_metadata", "parquet_full_metadata"} {
				q := fmt.Sprintf("SELECT count(*) FROM %s('%s')", fn, name)
				_, err := queryRows(t, e, q)
				switch {
				case err == nil:
					read++
				case !strings.Contains(err.Error(), name):
					t.Errorf("%s: the error does not name the file: %v", q, err)
				default:
					refused++
				}
			}
		}
	}
	t.Logf("%d calls answered, %d refused with an error naming the file", read, refused)
	if read == 0 || refused == 0 {
		t.Errorf("expected both answers and refusals over parquet-testing (%d, %d)", read, refused)
	}
}

func TestParquetMetadataBadPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "junk.parquet"), []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for q, want := range map[string]string{
		"SELECT * FROM parquet_metadata('none.parquet')":         `No files found that match the pattern "none.parquet"`,
		"SELECT * FROM parquet_schema('none*.parquet')":          `No files found that match the pattern "none*.parquet"`,
		"SELECT * FROM parquet_file_metadata('junk.parquet')":    "junk.parquet",
		"SELECT * FROM parquet_metadata('../outside.parquet')":   "outside",
		"SELECT * FROM parquet_metadata(1)":                      "takes a path",
		"SELECT * FROM parquet_bloom_probe('junk.parquet', 1)":   "takes 3 argument",
		"SELECT * FROM parquet_bloom_probe('x', 'c', 1 + 1)":     "constant value",
		"SELECT * FROM parquet_kv_metadata(['junk.parquet', 2])": "takes a path",
	} {
		if err := metaErr(e, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error with %q", q, err, want)
		}
	}
}

func TestGlob(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"b.parquet", "a.parquet", "c.txt", "sub/d.parquet", "sub/deeper/e.parquet"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// A pattern whose first segment is a wildcard names its matches
	// behind "./", as DuckDB does.
	checkRows(t, e, "SELECT * FROM glob('*.parquet')", "./a.parquet\n./b.parquet\n")
	checkRows(t, e, "SELECT * FROM glob('*')", "./a.parquet\n./b.parquet\n./c.txt\n") // files only
	checkRows(t, e, "SELECT * FROM glob('**/*.parquet')", "./a.parquet\n./b.parquet\n./sub/d.parquet\n./sub/deeper/e.parquet\n")
	checkRows(t, e, "SELECT * FROM glob('sub/*/*.parquet')", "sub/deeper/e.parquet\n")
	checkRows(t, e, "SELECT * FROM glob(['c*', 'a*'])", "./c.txt\n./a.parquet\n") // each pattern's matches in turn
	checkRows(t, e, "SELECT * FROM glob('c.txt')", "c.txt\n")
	checkRows(t, e, "SELECT count(*) FROM glob('nothing*')", "0\n")
	checkRows(t, e, "SELECT count(*) FROM glob('sub')", "0\n") // a folder is no file
	abs := filepath.Join(dir, "a.parquet")
	checkRows(t, e, "SELECT * FROM glob('"+abs+"')", abs+"\n")
}

// A TIME(MILLIS, UTC) column is an INT32 of milliseconds: read, and its
// statistics shown, as TIME WITH TIME ZONE at +00 (the INT32 form was
// read as if it held the engine's encoded time and offset).
func TestTimeMillisUTCInt32(t *testing.T) {
	dir := t.TempDir()
	sch, err := writer.NewSchema(writer.Time("t", writer.Millis, true))
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(filepath.Join(dir, "tz.parquet"), sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch([]*vector.Vector{{Kind: vector.Int32, Len: 2, Int32s: []int32{3_600_000, 45_296_789}}}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkRows(t, e, "SELECT t::VARCHAR FROM tz ORDER BY t", "01:00:00+00\n12:34:56.789+00\n")
	checkRows(t, e, "SELECT type, stats_min_value, stats_max_value FROM parquet_metadata('tz.parquet')", "INT32\t01:00:00+00\t12:34:56.789+00\n")
	checkRows(t, e, "SELECT duckdb_type, logical_type FROM parquet_schema('tz.parquet') WHERE column_id = 1",
		"TIME WITH TIME ZONE\tTimeType(isAdjustedToUTC=1, unit=TimeUnit(MILLIS=MilliSeconds(), MICROS=<null>, NANOS=<null>))\n")
}

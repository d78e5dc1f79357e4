// Command gen writes structs_gen.go: the Go types of parquet.thrift's
// structs and unions, with compact-protocol Encode and Decode methods that
// call parquet/thrift directly. The descriptions below are the single source
// of the field ids and types; run `go generate ./parquet/format` after
// changing them.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
)

type field struct {
	id     int
	goName string
	name   string // the name in parquet.thrift, for error messages
	typ    string // bool i8 i16 i32 i64 double string binary, an enum, a struct, or list<...>
	req    bool
}

type structDef struct {
	name   string
	doc    string
	union  bool
	fields []field
}

const (
	req = true
	opt = false
)

var enums = map[string]bool{
	"Type": true, "ConvertedType": true, "FieldRepetitionType": true, "Encoding": true,
	"CompressionCodec": true, "PageType": true, "BoundaryOrder": true, "EdgeInterpolationAlgorithm": true,
}

func empty(name, doc string) structDef { return structDef{name: name, doc: doc} }

var defs = []structDef{
	{name: "SizeStatistics", doc: "estimates unencoded sizes and holds level histograms of a page or column chunk", fields: []field{
		{1, "UnencodedByteArrayDataBytes", "unencoded_byte_array_data_bytes", "i64", opt},
		{2, "RepetitionLevelHistogram", "repetition_level_histogram", "list<i64>", opt},
		{3, "DefinitionLevelHistogram", "definition_level_histogram", "list<i64>", opt},
	}},
	{name: "BoundingBox", doc: "is the bounding box of GEOMETRY or GEOGRAPHY values", fields: []field{
		{1, "Xmin", "xmin", "double", req}, {2, "Xmax", "xmax", "double", req},
		{3, "Ymin", "ymin", "double", req}, {4, "Ymax", "ymax", "double", req},
		{5, "Zmin", "zmin", "double", opt}, {6, "Zmax", "zmax", "double", opt},
		{7, "Mmin", "mmin", "double", opt}, {8, "Mmax", "mmax", "double", opt},
	}},
	{name: "GeospatialStatistics", doc: "holds statistics of GEOMETRY and GEOGRAPHY columns", fields: []field{
		{1, "BBox", "bbox", "BoundingBox", opt},
		{2, "GeospatialTypes", "geospatial_types", "list<i32>", opt},
	}},
	{name: "Statistics", doc: "holds min/max, null and distinct counts of a page or column chunk. Binary fields are nil when absent", fields: []field{
		{1, "Max", "max", "binary", opt},
		{2, "Min", "min", "binary", opt},
		{3, "NullCount", "null_count", "i64", opt},
		{4, "DistinctCount", "distinct_count", "i64", opt},
		{5, "MaxValue", "max_value", "binary", opt},
		{6, "MinValue", "min_value", "binary", opt},
		{7, "IsMaxValueExact", "is_max_value_exact", "bool", opt},
		{8, "IsMinValueExact", "is_min_value_exact", "bool", opt},
		{9, "NanCount", "nan_count", "i64", opt},
	}},
	empty("StringType", "annotates UTF-8 BYTE_ARRAY values"),
	empty("UUIDType", "annotates FIXED[16] UUIDs"),
	empty("MapType", "annotates a map group"),
	empty("ListType", "annotates a list group"),
	empty("VectorType", "annotates a fixed-size vector group"),
	empty("EnumType", "annotates UTF-8 enum BYTE_ARRAY values"),
	empty("DateType", "annotates INT32 days since the epoch"),
	empty("Float16Type", "annotates FIXED[2] half-precision floats"),
	empty("NullType", "annotates a column that holds only nulls"),
	{name: "DecimalType", doc: "annotates decimals", fields: []field{
		{1, "Scale", "scale", "i32", req},
		{2, "Precision", "precision", "i32", req},
	}},
	empty("MilliSeconds", "is the millisecond time unit"),
	empty("MicroSeconds", "is the microsecond time unit"),
	empty("NanoSeconds", "is the nanosecond time unit"),
	{name: "TimeUnit", union: true, doc: "is the unit of a TIME or TIMESTAMP", fields: []field{
		{1, "Millis", "MILLIS", "MilliSeconds", opt},
		{2, "Micros", "MICROS", "MicroSeconds", opt},
		{3, "Nanos", "NANOS", "NanoSeconds", opt},
	}},
	{name: "TimestampType", doc: "annotates INT64 timestamps", fields: []field{
		{1, "IsAdjustedToUTC", "isAdjustedToUTC", "bool", req},
		{2, "Unit", "unit", "TimeUnit", req},
	}},
	{name: "TimeType", doc: "annotates times of day", fields: []field{
		{1, "IsAdjustedToUTC", "isAdjustedToUTC", "bool", req},
		{2, "Unit", "unit", "TimeUnit", req},
	}},
	{name: "IntType", doc: "annotates integers of a bit width and signedness", fields: []field{
		{1, "BitWidth", "bitWidth", "i8", req},
		{2, "IsSigned", "isSigned", "bool", req},
	}},
	empty("JsonType", "annotates JSON text"),
	empty("BsonType", "annotates BSON documents"),
	{name: "VariantType", doc: "annotates a Variant group", fields: []field{
		{1, "SpecificationVersion", "specification_version", "i8", opt},
	}},
	{name: "GeometryType", doc: "annotates WKB geometries with planar edges", fields: []field{
		{1, "CRS", "crs", "string", opt},
	}},
	{name: "GeographyType", doc: "annotates WKB geographies", fields: []field{
		{1, "CRS", "crs", "string", opt},
		{2, "Algorithm", "algorithm", "EdgeInterpolationAlgorithm", opt},
	}},
	{name: "LogicalType", union: true, doc: "is the logical type annotation of a schema element", fields: []field{
		{1, "String", "STRING", "StringType", opt},
		{2, "Map", "MAP", "MapType", opt},
		{3, "List", "LIST", "ListType", opt},
		{4, "Enum", "ENUM", "EnumType", opt},
		{5, "Decimal", "DECIMAL", "DecimalType", opt},
		{6, "Date", "DATE", "DateType", opt},
		{7, "Time", "TIME", "TimeType", opt},
		{8, "Timestamp", "TIMESTAMP", "TimestampType", opt},
		{10, "Integer", "INTEGER", "IntType", opt},
		{11, "Unknown", "UNKNOWN", "NullType", opt},
		{12, "JSON", "JSON", "JsonType", opt},
		{13, "BSON", "BSON", "BsonType", opt},
		{14, "UUID", "UUID", "UUIDType", opt},
		{15, "Float16", "FLOAT16", "Float16Type", opt},
		{16, "Variant", "VARIANT", "VariantType", opt},
		{17, "Geometry", "GEOMETRY", "GeometryType", opt},
		{18, "Geography", "GEOGRAPHY", "GeographyType", opt},
		{19, "Vector", "VECTOR", "VectorType", opt},
	}},
	{name: "SchemaElement", doc: "is one node of the flattened schema tree", fields: []field{
		{1, "Type", "type", "Type", opt},
		{2, "TypeLength", "type_length", "i32", opt},
		{3, "RepetitionType", "repetition_type", "FieldRepetitionType", opt},
		{4, "Name", "name", "string", req},
		{5, "NumChildren", "num_children", "i32", opt},
		{6, "ConvertedType", "converted_type", "ConvertedType", opt},
		{7, "Scale", "scale", "i32", opt},
		{8, "Precision", "precision", "i32", opt},
		{9, "FieldID", "field_id", "i32", opt},
		{10, "LogicalType", "logicalType", "LogicalType", opt},
		{11, "VectorLength", "vector_length", "i32", opt},
	}},
	{name: "DataPageHeader", doc: "describes a v1 data page", fields: []field{
		{1, "NumValues", "num_values", "i32", req},
		{2, "Encoding", "encoding", "Encoding", req},
		{3, "DefinitionLevelEncoding", "definition_level_encoding", "Encoding", req},
		{4, "RepetitionLevelEncoding", "repetition_level_encoding", "Encoding", req},
		{5, "Statistics", "statistics", "Statistics", opt},
	}},
	empty("IndexPageHeader", "describes an index page (which no writer produces)"),
	{name: "DictionaryPageHeader", doc: "describes a dictionary page", fields: []field{
		{1, "NumValues", "num_values", "i32", req},
		{2, "Encoding", "encoding", "Encoding", req},
		{3, "IsSorted", "is_sorted", "bool", opt},
	}},
	{name: "DataPageHeaderV2", doc: "describes a v2 data page, whose levels are never compressed. IsCompressed defaults to true when absent", fields: []field{
		{1, "NumValues", "num_values", "i32", req},
		{2, "NumNulls", "num_nulls", "i32", req},
		{3, "NumRows", "num_rows", "i32", req},
		{4, "Encoding", "encoding", "Encoding", req},
		{5, "DefinitionLevelsByteLength", "definition_levels_byte_length", "i32", req},
		{6, "RepetitionLevelsByteLength", "repetition_levels_byte_length", "i32", req},
		{7, "IsCompressed", "is_compressed", "bool", opt},
		{8, "Statistics", "statistics", "Statistics", opt},
	}},
	empty("SplitBlockAlgorithm", "names the split-block bloom filter algorithm"),
	{name: "BloomFilterAlgorithm", union: true, doc: "is the bloom filter algorithm", fields: []field{
		{1, "Block", "BLOCK", "SplitBlockAlgorithm", opt},
	}},
	empty("XxHash", "names the xxHash64 hash"),
	{name: "BloomFilterHash", union: true, doc: "is the bloom filter hash function", fields: []field{
		{1, "XxHash", "XXHASH", "XxHash", opt},
	}},
	empty("BloomFilterUncompressed", "names an uncompressed bloom filter (thrift name Uncompressed)"),
	{name: "BloomFilterCompression", union: true, doc: "is the bloom filter compression", fields: []field{
		{1, "Uncompressed", "UNCOMPRESSED", "BloomFilterUncompressed", opt},
	}},
	{name: "BloomFilterHeader", doc: "precedes the bitset of a bloom filter", fields: []field{
		{1, "NumBytes", "numBytes", "i32", req},
		{2, "Algorithm", "algorithm", "BloomFilterAlgorithm", req},
		{3, "Hash", "hash", "BloomFilterHash", req},
		{4, "Compression", "compression", "BloomFilterCompression", req},
	}},
	{name: "PageHeader", doc: "precedes every page", fields: []field{
		{1, "Type", "type", "PageType", req},
		{2, "UncompressedPageSize", "uncompressed_page_size", "i32", req},
		{3, "CompressedPageSize", "compressed_page_size", "i32", req},
		{4, "CRC", "crc", "i32", opt},
		{5, "DataPageHeader", "data_page_header", "DataPageHeader", opt},
		{6, "IndexPageHeader", "index_page_header", "IndexPageHeader", opt},
		{7, "DictionaryPageHeader", "dictionary_page_header", "DictionaryPageHeader", opt},
		{8, "DataPageHeaderV2", "data_page_header_v2", "DataPageHeaderV2", opt},
	}},
	{name: "KeyValue", doc: "is one key-value metadata entry", fields: []field{
		{1, "Key", "key", "string", req},
		{2, "Value", "value", "string", opt},
	}},
	{name: "SortingColumn", doc: "states a sort order of a row group", fields: []field{
		{1, "ColumnIdx", "column_idx", "i32", req},
		{2, "Descending", "descending", "bool", req},
		{3, "NullsFirst", "nulls_first", "bool", req},
	}},
	{name: "PageEncodingStats", doc: "counts the pages of one type and encoding", fields: []field{
		{1, "PageType", "page_type", "PageType", req},
		{2, "Encoding", "encoding", "Encoding", req},
		{3, "Count", "count", "i32", req},
	}},
	{name: "ColumnMetaData", doc: "describes a column chunk", fields: []field{
		{1, "Type", "type", "Type", req},
		{2, "Encodings", "encodings", "list<Encoding>", req},
		{3, "PathInSchema", "path_in_schema", "list<string>", req},
		{4, "Codec", "codec", "CompressionCodec", req},
		{5, "NumValues", "num_values", "i64", req},
		{6, "TotalUncompressedSize", "total_uncompressed_size", "i64", req},
		{7, "TotalCompressedSize", "total_compressed_size", "i64", req},
		{8, "KeyValueMetadata", "key_value_metadata", "list<KeyValue>", opt},
		{9, "DataPageOffset", "data_page_offset", "i64", req},
		{10, "IndexPageOffset", "index_page_offset", "i64", opt},
		{11, "DictionaryPageOffset", "dictionary_page_offset", "i64", opt},
		{12, "Statistics", "statistics", "Statistics", opt},
		{13, "EncodingStats", "encoding_stats", "list<PageEncodingStats>", opt},
		{14, "BloomFilterOffset", "bloom_filter_offset", "i64", opt},
		{15, "BloomFilterLength", "bloom_filter_length", "i32", opt},
		{16, "SizeStatistics", "size_statistics", "SizeStatistics", opt},
		{17, "GeospatialStatistics", "geospatial_statistics", "GeospatialStatistics", opt},
	}},
	empty("EncryptionWithFooterKey", "says a column is encrypted with the footer key"),
	{name: "EncryptionWithColumnKey", doc: "says a column is encrypted with its own key", fields: []field{
		{1, "PathInSchema", "path_in_schema", "list<string>", req},
		{2, "KeyMetadata", "key_metadata", "binary", opt},
	}},
	{name: "ColumnCryptoMetaData", union: true, doc: "describes how a column is encrypted", fields: []field{
		{1, "EncryptionWithFooterKey", "ENCRYPTION_WITH_FOOTER_KEY", "EncryptionWithFooterKey", opt},
		{2, "EncryptionWithColumnKey", "ENCRYPTION_WITH_COLUMN_KEY", "EncryptionWithColumnKey", opt},
	}},
	{name: "ColumnChunk", doc: "locates and describes one column of one row group", fields: []field{
		{1, "FilePath", "file_path", "string", opt},
		{2, "FileOffset", "file_offset", "i64", req},
		{3, "MetaData", "meta_data", "ColumnMetaData", opt},
		{4, "OffsetIndexOffset", "offset_index_offset", "i64", opt},
		{5, "OffsetIndexLength", "offset_index_length", "i32", opt},
		{6, "ColumnIndexOffset", "column_index_offset", "i64", opt},
		{7, "ColumnIndexLength", "column_index_length", "i32", opt},
		{8, "CryptoMetadata", "crypto_metadata", "ColumnCryptoMetaData", opt},
		{9, "EncryptedColumnMetadata", "encrypted_column_metadata", "binary", opt},
	}},
	{name: "RowGroup", doc: "is a horizontal slice of the table", fields: []field{
		{1, "Columns", "columns", "list<ColumnChunk>", req},
		{2, "TotalByteSize", "total_byte_size", "i64", req},
		{3, "NumRows", "num_rows", "i64", req},
		{4, "SortingColumns", "sorting_columns", "list<SortingColumn>", opt},
		{5, "FileOffset", "file_offset", "i64", opt},
		{6, "TotalCompressedSize", "total_compressed_size", "i64", opt},
		{7, "Ordinal", "ordinal", "i16", opt},
	}},
	empty("TypeDefinedOrder", "orders statistics by the column's logical or physical type"),
	empty("IEEE754TotalOrder", "orders floating-point statistics by IEEE 754 totalOrder"),
	empty("Int96TimestampOrder", "orders INT96 statistics chronologically"),
	{name: "ColumnOrder", union: true, doc: "is the order of a column's min/max statistics", fields: []field{
		{1, "TypeOrder", "TYPE_ORDER", "TypeDefinedOrder", opt},
		{2, "IEEE754TotalOrder", "IEEE_754_TOTAL_ORDER", "IEEE754TotalOrder", opt},
		{3, "Int96TimestampOrder", "INT96_TIMESTAMP_ORDER", "Int96TimestampOrder", opt},
	}},
	{name: "PageLocation", doc: "locates one data page (offset index entry)", fields: []field{
		{1, "Offset", "offset", "i64", req},
		{2, "CompressedPageSize", "compressed_page_size", "i32", req},
		{3, "FirstRowIndex", "first_row_index", "i64", req},
	}},
	{name: "OffsetIndex", doc: "locates every data page of a column chunk", fields: []field{
		{1, "PageLocations", "page_locations", "list<PageLocation>", req},
		{2, "UnencodedByteArrayDataBytes", "unencoded_byte_array_data_bytes", "list<i64>", opt},
	}},
	{name: "ColumnIndex", doc: "holds per-page min/max and null counts of a column chunk", fields: []field{
		{1, "NullPages", "null_pages", "list<bool>", req},
		{2, "MinValues", "min_values", "list<binary>", req},
		{3, "MaxValues", "max_values", "list<binary>", req},
		{4, "BoundaryOrder", "boundary_order", "BoundaryOrder", req},
		{5, "NullCounts", "null_counts", "list<i64>", opt},
		{6, "RepetitionLevelHistograms", "repetition_level_histograms", "list<i64>", opt},
		{7, "DefinitionLevelHistograms", "definition_level_histograms", "list<i64>", opt},
		{8, "NanCounts", "nan_counts", "list<i64>", opt},
	}},
	{name: "AesGcmV1", doc: "is the AES-GCM encryption algorithm", fields: []field{
		{1, "AadPrefix", "aad_prefix", "binary", opt},
		{2, "AadFileUnique", "aad_file_unique", "binary", opt},
		{3, "SupplyAadPrefix", "supply_aad_prefix", "bool", opt},
	}},
	{name: "AesGcmCtrV1", doc: "is the AES-GCM-CTR encryption algorithm", fields: []field{
		{1, "AadPrefix", "aad_prefix", "binary", opt},
		{2, "AadFileUnique", "aad_file_unique", "binary", opt},
		{3, "SupplyAadPrefix", "supply_aad_prefix", "bool", opt},
	}},
	{name: "EncryptionAlgorithm", union: true, doc: "is a file's encryption algorithm", fields: []field{
		{1, "AesGcmV1", "AES_GCM_V1", "AesGcmV1", opt},
		{2, "AesGcmCtrV1", "AES_GCM_CTR_V1", "AesGcmCtrV1", opt},
	}},
	{name: "FileMetaData", doc: "is the footer of a Parquet file", fields: []field{
		{1, "Version", "version", "i32", req},
		{2, "Schema", "schema", "list<SchemaElement>", req},
		{3, "NumRows", "num_rows", "i64", req},
		{4, "RowGroups", "row_groups", "list<RowGroup>", req},
		{5, "KeyValueMetadata", "key_value_metadata", "list<KeyValue>", opt},
		{6, "CreatedBy", "created_by", "string", opt},
		{7, "ColumnOrders", "column_orders", "list<ColumnOrder>", opt},
		{8, "EncryptionAlgorithm", "encryption_algorithm", "EncryptionAlgorithm", opt},
		{9, "FooterSigningKeyMetadata", "footer_signing_key_metadata", "binary", opt},
	}},
	{name: "FileCryptoMetaData", doc: "precedes an encrypted footer", fields: []field{
		{1, "EncryptionAlgorithm", "encryption_algorithm", "EncryptionAlgorithm", req},
		{2, "KeyMetadata", "key_metadata", "binary", opt},
	}},
}

// lazyFields are list fields that a reader with SkipLazy set leaves
// undecoded, keeping their raw bytes in <GoName>Raw (one column chunk list
// per row group: a wide footer need not decode columns it never reads).
// They are skipped with skipLazy (footerindex.go), which jumps over them
// where the footer index says where they end.
var lazyFields = map[string]bool{"RowGroup.Columns": true}

// arenaStructs and arenaLists are allocated from a decoding arena when the
// reader has one (see arena.go): there is one of each per column chunk.
var arenaStructs = map[string]bool{"ColumnMetaData": true, "Statistics": true}
var arenaLists = map[string]bool{"Encoding": true, "string": true}

// fastStructs have a hand-written decoding fast path (fastdecode.go), a
// method decodeFast that handles the common, well-formed case and reports
// false — leaving s and r as they were — for anything else, which the
// generated decodeGeneric then handles. There is one of each per column.
var fastStructs = map[string]bool{"ColumnChunk": true, "SchemaElement": true, "ColumnOrder": true}

// strictStructs are decoded strictly: a known field with another wire type,
// a field given twice or a required field missing is an error (errField)
// instead of being skipped or left at its zero value. Page headers are not
// covered by their page's CRC: a damaged byte there must not decode to
// another header that still reads, with defaults standing in for the
// fields it lost.
var strictStructs = map[string]bool{"PageHeader": true, "DataPageHeader": true, "DataPageHeaderV2": true, "DictionaryPageHeader": true}

var structNames = func() map[string]bool {
	m := map[string]bool{}
	for _, d := range defs {
		m[d.name] = true
	}
	return m
}()

// scalar describes how a non-collection type is read and written.
type scalar struct {
	goType   string // Go type
	wire     string // thrift.Type constant
	read     string // Reader method
	write    string // Writer method
	conv     string // conversion from the read type to goType ("" = none)
	wireConv string // conversion from goType to the write argument type
}

func scalarOf(t string) scalar {
	switch t {
	case "bool":
		return scalar{goType: "bool", wire: "thrift.Bool"}
	case "i8":
		return scalar{"int8", "thrift.Byte", "Byte", "Byte", "", ""}
	case "i16":
		return scalar{"int16", "thrift.I16", "I16", "I16", "", ""}
	case "i32":
		return scalar{"int32", "thrift.I32", "I32", "I32", "", ""}
	case "i64":
		return scalar{"int64", "thrift.I64", "I64", "I64", "", ""}
	case "double":
		return scalar{"float64", "thrift.Double", "Double", "Double", "", ""}
	case "string":
		return scalar{"string", "thrift.Binary", "String", "String", "", ""}
	case "binary":
		return scalar{"[]byte", "thrift.Binary", "Binary", "Binary", "", ""}
	}
	if enums[t] {
		return scalar{t, "thrift.I32", "I32", "I32", t, "int32"}
	}
	if structNames[t] {
		return scalar{goType: t, wire: "thrift.Struct"}
	}
	panic("unknown type " + t)
}

func elemOf(t string) (string, bool) {
	if strings.HasPrefix(t, "list<") {
		return t[5 : len(t)-1], true
	}
	return "", false
}

func goFieldType(f field) string {
	if e, ok := elemOf(f.typ); ok {
		return "[]" + scalarOf(e).goType
	}
	s := scalarOf(f.typ)
	switch {
	case structNames[f.typ]:
		if f.req {
			return s.goType
		}
		return "*" + s.goType
	case f.typ == "binary" || f.req:
		return s.goType
	}
	return "Opt[" + s.goType + "]"
}

type gen struct {
	bytes.Buffer
	cur  string // the struct being generated
	mark string // a line each decoded field of a strict struct runs (see strictStructs)
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.Buffer, format+"\n", args...) }

// cont ends the decoding of a field, marking it seen in strict structs.
func (g *gen) cont() {
	if g.mark != "" {
		g.p("%s", g.mark)
	}
	g.p("\t\t\t\tcontinue")
}

func main() {
	var g gen
	g.p("// Code generated by parquet/format/internal/gen; DO NOT EDIT.")
	g.p("")
	g.p("package format")
	g.p("")
	g.p(`import "github.com/carquet-go/carquet/parquet/thrift"`)
	for _, d := range defs {
		genType(&g, d)
		genDecode(&g, d)
		genEncode(&g, d)
	}
	src, err := format.Source(g.Bytes())
	if err != nil {
		os.Stdout.Write(g.Bytes())
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile("structs_gen.go", src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func genType(g *gen, d structDef) {
	g.p("")
	kind := "struct"
	if d.union {
		kind = "union (exactly one member is set)"
	}
	g.p("// %s %s (parquet.thrift %s).", d.name, d.doc, kind)
	g.p("type %s struct {", d.name)
	for _, f := range d.fields {
		g.p("\t%s %s // %d: %s", f.goName, goFieldType(f), f.id, f.name)
		if lazyFields[d.name+"."+f.goName] {
			g.p("\t// %sRaw holds the undecoded bytes of %s (list header included) when", f.goName, f.name)
			g.p("\t// it was decoded with SkipLazy; %s is then nil.", f.goName)
			g.p("\t%sRaw []byte", f.goName)
		}
	}
	g.p("\t// Extension holds the bytes of field %d (BinaryProtocolExtensions.md), nil when absent.", 32767)
	g.p("\tExtension []byte")
	g.p("}")
}

func genDecode(g *gen, d structDef) {
	g.p("")
	g.p("// Decode reads a %s from r. Binary fields alias r's input.", d.name)
	if fastStructs[d.name] {
		g.p("func (s *%s) Decode(r *thrift.Reader) error {", d.name)
		g.p("\tif s.decodeFast(r) { return nil }")
		g.p("\treturn s.decodeGeneric(r)")
		g.p("}")
		g.p("")
		g.p("// decodeGeneric is Decode without the fast path.")
		g.p("func (s *%s) decodeGeneric(r *thrift.Reader) error {", d.name)
	} else {
		g.p("func (s *%s) Decode(r *thrift.Reader) error {", d.name)
	}
	g.p("\tif err := r.Enter(); err != nil { return err }")
	g.p("\tvar last int16")
	strict := strictStructs[d.name]
	if strict {
		g.p("\tvar seen uint32")
	}
	g.p("\tfor {")
	g.p("\t\tt, id, err := r.FieldHeader(&last)")
	g.p("\t\tif err != nil { return wrap(%q, \"\", err) }", d.name)
	g.p("\t\tif t == thrift.Stop { break }")
	g.p("\t\tswitch id {")
	for _, f := range d.fields {
		g.p("\t\tcase %d:", f.id)
		if lazyFields[d.name+"."+f.goName] {
			g.p("\t\t\tif r.SkipLazy && (t == thrift.List || t == thrift.Set) {")
			g.p("\t\t\t\tstart := r.Offset()")
			g.p("\t\t\t\tif err := skipLazy(r, t); err != nil { return wrap(%q, %q, err) }", d.name, f.name)
			g.p("\t\t\t\ts.%sRaw = r.Bytes()[start:r.Offset():r.Offset()]", f.goName)
			g.p("\t\t\t\tcontinue")
			g.p("\t\t\t}")
		}
		if strict {
			g.p("\t\t\tif seen&(1<<%d) != 0 { return wrap(%q, %q, errField(r, \"given twice\")) }", f.id, d.name, f.name)
			g.mark = fmt.Sprintf("\t\t\t\tseen |= 1 << %d", f.id)
		}
		genFieldDecode(g, d, f)
		g.mark = ""
		if strict {
			g.p("\t\t\treturn wrap(%q, %q, errField(r, \"of wire type \"+t.String()))", d.name, f.name)
		}
	}
	g.p("\t\tcase thrift.ExtensionFieldID, thrift.ExtensionFieldIDAsRead:")
	g.p("\t\t\tif t == thrift.Binary {")
	g.p("\t\t\t\tif s.Extension, err = r.Binary(); err != nil { return wrap(%q, \"extension\", err) }", d.name)
	g.p("\t\t\t\tcontinue")
	g.p("\t\t\t}")
	g.p("\t\t}")
	g.p("\t\tif err := r.Skip(t); err != nil { return wrap(%q, \"\", err) }", d.name)
	g.p("\t}")
	if strict {
		for _, f := range d.fields {
			if f.req {
				g.p("\tif seen&(1<<%d) == 0 { return wrap(%q, %q, errField(r, \"missing\")) }", f.id, d.name, f.name)
			}
		}
	}
	g.p("\tr.Leave()")
	g.p("\treturn nil")
	g.p("}")
}

func genFieldDecode(g *gen, d structDef, f field) {
	errRet := fmt.Sprintf("return wrap(%q, %q, err)", d.name, f.name)
	if e, ok := elemOf(f.typ); ok {
		s := scalarOf(e)
		g.p("\t\t\tif t == thrift.List || t == thrift.Set {")
		g.p("\t\t\t\tif err := r.Enter(); err != nil { %s }", errRet)
		g.p("\t\t\t\tet, n, err := r.ListHeader()")
		g.p("\t\t\t\tif err != nil { %s }", errRet)
		g.p("\t\t\t\tif et != %s && n > 0 { return wrap(%q, %q, errElemType(r, et)) }", s.wire, d.name, f.name)
		if arenaLists[e] {
			g.p("\t\t\t\tv := make%sListIn(r, n)", strings.Title(e))
		} else {
			g.p("\t\t\t\tv := make([]%s, n)", s.goType)
		}
		g.p("\t\t\t\tfor i := range v {")
		switch {
		case e == "bool":
			g.p("\t\t\t\t\tif v[i], err = r.BoolElem(); err != nil { %s }", errRet)
		case structNames[e]:
			g.p("\t\t\t\t\tif err = v[i].Decode(r); err != nil { %s }", errRet)
		case s.conv != "":
			g.p("\t\t\t\t\tx, err := r.%s()", s.read)
			g.p("\t\t\t\t\tif err != nil { %s }", errRet)
			g.p("\t\t\t\t\tv[i] = %s(x)", s.conv)
		default:
			g.p("\t\t\t\t\tif v[i], err = r.%s(); err != nil { %s }", s.read, errRet)
		}
		g.p("\t\t\t\t}")
		g.p("\t\t\t\tr.Leave()")
		g.p("\t\t\t\ts.%s = v", f.goName)
		g.cont()
		g.p("\t\t\t}")
		return
	}
	s := scalarOf(f.typ)
	switch {
	case f.typ == "bool":
		g.p("\t\t\tif t == thrift.BoolTrue || t == thrift.BoolFalse {")
		if f.req {
			g.p("\t\t\t\ts.%s = t == thrift.BoolTrue", f.goName)
		} else {
			g.p("\t\t\t\ts.%s = Some(t == thrift.BoolTrue)", f.goName)
		}
		g.cont()
		g.p("\t\t\t}")
	case structNames[f.typ]:
		g.p("\t\t\tif t == thrift.Struct {")
		if f.req {
			g.p("\t\t\t\tif err := s.%s.Decode(r); err != nil { %s }", f.goName, errRet)
		} else {
			if arenaStructs[f.typ] {
				g.p("\t\t\t\tv := new%sIn(r)", s.goType)
			} else {
				g.p("\t\t\t\tv := new(%s)", s.goType)
			}
			g.p("\t\t\t\tif err := v.Decode(r); err != nil { %s }", errRet)
			g.p("\t\t\t\ts.%s = v", f.goName)
		}
		g.cont()
		g.p("\t\t\t}")
	default:
		g.p("\t\t\tif t == %s {", s.wire)
		g.p("\t\t\t\tv, err := r.%s()", s.read)
		g.p("\t\t\t\tif err != nil { %s }", errRet)
		val := "v"
		if s.conv != "" {
			val = s.conv + "(v)"
		}
		if f.req || f.typ == "binary" {
			g.p("\t\t\t\ts.%s = %s", f.goName, val)
		} else {
			g.p("\t\t\t\ts.%s = Some(%s)", f.goName, val)
		}
		g.cont()
		g.p("\t\t\t}")
	}
}

func genEncode(g *gen, d structDef) {
	g.cur = d.name
	g.p("")
	g.p("// Encode appends s to w.")
	g.p("func (s *%s) Encode(w *thrift.Writer) {", d.name)
	if len(d.fields) > 0 {
		g.p("\tvar last int16")
	}
	for _, f := range d.fields {
		genFieldEncode(g, f)
	}
	g.p("\tif s.Extension != nil {")
	g.p("\t\tw.ExtensionField(s.Extension)")
	g.p("\t}")
	g.p("\tw.FieldStop()")
	g.p("}")
}

func genFieldEncode(g *gen, f field) {
	name := "s." + f.goName
	if e, ok := elemOf(f.typ); ok {
		s := scalarOf(e)
		if lazyFields[g.cur+"."+f.goName] {
			g.p("\tif %s == nil && %sRaw != nil {", name, name)
			g.p("\t\tw.FieldHeader(thrift.List, %d, &last)", f.id)
			g.p("\t\tw.Raw(%sRaw)", name)
			g.p("\t} else")
		}
		if !f.req {
			g.p("\tif %s != nil {", name)
		} else {
			g.p("\t{")
		}
		g.p("\t\tw.FieldHeader(thrift.List, %d, &last)", f.id)
		g.p("\t\tw.ListHeader(%s, len(%s))", s.wire, name)
		g.p("\t\tfor i := range %s {", name)
		switch {
		case e == "bool":
			g.p("\t\t\tw.BoolElem(%s[i])", name)
		case structNames[e]:
			g.p("\t\t\t%s[i].Encode(w)", name)
		case s.wireConv != "":
			g.p("\t\t\tw.%s(%s(%s[i]))", s.write, s.wireConv, name)
		default:
			g.p("\t\t\tw.%s(%s[i])", s.write, name)
		}
		g.p("\t\t}")
		g.p("\t}")
		return
	}
	s := scalarOf(f.typ)
	val := name
	switch {
	case structNames[f.typ]:
		if f.req {
			g.p("\tw.FieldHeader(thrift.Struct, %d, &last)", f.id)
			g.p("\t%s.Encode(w)", name)
		} else {
			g.p("\tif %s != nil {", name)
			g.p("\t\tw.FieldHeader(thrift.Struct, %d, &last)", f.id)
			g.p("\t\t%s.Encode(w)", name)
			g.p("\t}")
		}
		return
	case f.typ == "binary" && !f.req:
		g.p("\tif %s != nil {", name)
	case !f.req:
		g.p("\tif %s.Set {", name)
		val = name + ".Value"
	default:
		g.p("\t{")
	}
	if f.typ == "bool" {
		g.p("\t\tw.BoolField(%d, &last, %s)", f.id, val)
	} else {
		if s.wireConv != "" {
			val = s.wireConv + "(" + val + ")"
		}
		g.p("\t\tw.FieldHeader(%s, %d, &last)", s.wire, f.id)
		g.p("\t\tw.%s(%s)", s.write, val)
	}
	g.p("\t}")
}

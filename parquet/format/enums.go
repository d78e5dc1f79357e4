package format

import "strconv"

// Type is the physical type of a column (parquet.thrift enum Type).
type Type int32

const (
	Boolean           Type = 0
	Int32             Type = 1
	Int64             Type = 2
	Int96             Type = 3
	Float             Type = 4
	Double            Type = 5
	ByteArray         Type = 6
	FixedLenByteArray Type = 7
)

var typeNames = [...]string{"BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"}

func (t Type) String() string {
	if t >= 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// ByteWidth is the size in bytes of one PLAIN value of a fixed-width type,
// or 0 for BOOLEAN (bit-packed), BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY (whose
// width comes from the schema).
func (t Type) ByteWidth() int {
	switch t {
	case Int32, Float:
		return 4
	case Int64, Double:
		return 8
	case Int96:
		return 12
	}
	return 0
}

// ConvertedType is the legacy type annotation (parquet.thrift enum ConvertedType).
type ConvertedType int32

const (
	UTF8            ConvertedType = 0
	Map             ConvertedType = 1
	MapKeyValue     ConvertedType = 2
	List            ConvertedType = 3
	Enum            ConvertedType = 4
	Decimal         ConvertedType = 5
	Date            ConvertedType = 6
	TimeMillis      ConvertedType = 7
	TimeMicros      ConvertedType = 8
	TimestampMillis ConvertedType = 9
	TimestampMicros ConvertedType = 10
	Uint8           ConvertedType = 11
	Uint16          ConvertedType = 12
	Uint32          ConvertedType = 13
	Uint64          ConvertedType = 14
	Int8            ConvertedType = 15
	Int16           ConvertedType = 16
	Int32CT         ConvertedType = 17
	Int64CT         ConvertedType = 18
	JSON            ConvertedType = 19
	BSON            ConvertedType = 20
	Interval        ConvertedType = 21
)

var convertedTypeNames = [...]string{"UTF8", "MAP", "MAP_KEY_VALUE", "LIST", "ENUM", "DECIMAL", "DATE",
	"TIME_MILLIS", "TIME_MICROS", "TIMESTAMP_MILLIS", "TIMESTAMP_MICROS", "UINT_8", "UINT_16", "UINT_32",
	"UINT_64", "INT_8", "INT_16", "INT_32", "INT_64", "JSON", "BSON", "INTERVAL"}

func (c ConvertedType) String() string {
	if c >= 0 && int(c) < len(convertedTypeNames) {
		return convertedTypeNames[c]
	}
	return "ConvertedType(" + strconv.Itoa(int(c)) + ")"
}

// FieldRepetitionType says how often a field occurs in its parent.
type FieldRepetitionType int32

const (
	Required FieldRepetitionType = 0
	Optional FieldRepetitionType = 1
	Repeated FieldRepetitionType = 2
	// Vector is a fixed-size vector group (LogicalTypes.md).
	Vector FieldRepetitionType = 3
)

func (r FieldRepetitionType) String() string {
	switch r {
	case Required:
		return "required"
	case Optional:
		return "optional"
	case Repeated:
		return "repeated"
	case Vector:
		return "vector"
	}
	return "FieldRepetitionType(" + strconv.Itoa(int(r)) + ")"
}

// Encoding is a page or level encoding (parquet.thrift enum Encoding).
type Encoding int32

const (
	Plain                Encoding = 0
	PlainDictionary      Encoding = 2
	RLE                  Encoding = 3
	BitPacked            Encoding = 4
	DeltaBinaryPacked    Encoding = 5
	DeltaLengthByteArray Encoding = 6
	DeltaByteArray       Encoding = 7
	RLEDictionary        Encoding = 8
	ByteStreamSplit      Encoding = 9
	ALP                  Encoding = 10
)

func (e Encoding) String() string {
	switch e {
	case Plain:
		return "PLAIN"
	case PlainDictionary:
		return "PLAIN_DICTIONARY"
	case RLE:
		return "RLE"
	case BitPacked:
		return "BIT_PACKED"
	case DeltaBinaryPacked:
		return "DELTA_BINARY_PACKED"
	case DeltaLengthByteArray:
		return "DELTA_LENGTH_BYTE_ARRAY"
	case DeltaByteArray:
		return "DELTA_BYTE_ARRAY"
	case RLEDictionary:
		return "RLE_DICTIONARY"
	case ByteStreamSplit:
		return "BYTE_STREAM_SPLIT"
	case ALP:
		return "ALP"
	}
	return "Encoding(" + strconv.Itoa(int(e)) + ")"
}

// CompressionCodec names the codec of a column chunk's pages.
type CompressionCodec int32

const (
	Uncompressed CompressionCodec = 0
	Snappy       CompressionCodec = 1
	Gzip         CompressionCodec = 2
	LZO          CompressionCodec = 3
	Brotli       CompressionCodec = 4
	LZ4          CompressionCodec = 5
	Zstd         CompressionCodec = 6
	LZ4Raw       CompressionCodec = 7
)

var codecNames = [...]string{"UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"}

func (c CompressionCodec) String() string {
	if c >= 0 && int(c) < len(codecNames) {
		return codecNames[c]
	}
	return "CompressionCodec(" + strconv.Itoa(int(c)) + ")"
}

// PageType is the kind of a page (parquet.thrift enum PageType).
type PageType int32

const (
	DataPage       PageType = 0
	IndexPage      PageType = 1
	DictionaryPage PageType = 2
	DataPageV2     PageType = 3
)

var pageTypeNames = [...]string{"DATA_PAGE", "INDEX_PAGE", "DICTIONARY_PAGE", "DATA_PAGE_V2"}

func (p PageType) String() string {
	if p >= 0 && int(p) < len(pageTypeNames) {
		return pageTypeNames[p]
	}
	return "PageType(" + strconv.Itoa(int(p)) + ")"
}

// BoundaryOrder tells whether a column index's min/max lists are ordered.
type BoundaryOrder int32

const (
	Unordered  BoundaryOrder = 0
	Ascending  BoundaryOrder = 1
	Descending BoundaryOrder = 2
)

func (b BoundaryOrder) String() string {
	switch b {
	case Unordered:
		return "UNORDERED"
	case Ascending:
		return "ASCENDING"
	case Descending:
		return "DESCENDING"
	}
	return "BoundaryOrder(" + strconv.Itoa(int(b)) + ")"
}

// EdgeInterpolationAlgorithm is the edge model of a GEOGRAPHY column.
type EdgeInterpolationAlgorithm int32

const (
	Spherical EdgeInterpolationAlgorithm = 0
	Vincenty  EdgeInterpolationAlgorithm = 1
	Thomas    EdgeInterpolationAlgorithm = 2
	Andoyer   EdgeInterpolationAlgorithm = 3
	Karney    EdgeInterpolationAlgorithm = 4
)

var edgeNames = [...]string{"SPHERICAL", "VINCENTY", "THOMAS", "ANDOYER", "KARNEY"}

func (e EdgeInterpolationAlgorithm) String() string {
	if e >= 0 && int(e) < len(edgeNames) {
		return edgeNames[e]
	}
	return "EdgeInterpolationAlgorithm(" + strconv.Itoa(int(e)) + ")"
}

package writer

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// Defaults of the writer options.
//
// DefaultPageRowLimit is three times the readers' default batch
// (file.DefaultBatchSize, 8,192 rows), rather than parquet-java's 20,000:
// a batch that ends inside a page is lent straight out of the page's
// bytes, while one that crosses a page's end is copied, and with 20,000
// rows a page two batches in five crossed one (a full read of the
// uncompressed events table spent 8% more CPU). Three batches rather than
// two keep the files as small as with 20,000 rows (fewer page headers,
// longer runs for the codecs).
const (
	DefaultPageSize                = 1 << 20
	DefaultPageRowLimit            = 3 * 8192
	DefaultDictionaryPageSizeLimit = 1 << 20
	DefaultRowGroupSize            = 128 << 20
	DefaultRowGroupRows            = 1 << 20
	DefaultStatisticsTruncate      = 64
	DefaultBloomFPP                = 0.01
	// Version is the carquet version written into created_by.
	Version = "0.1.0"
)

// CreatedBy is the default created_by of the footer.
const CreatedBy = "carquet version " + Version

// Option configures a Writer.
type Option func(*config)

// SortingColumn declares that the rows of each row group are sorted by a
// column (a dotted leaf path).
type SortingColumn struct {
	Path       string
	Descending bool
	NullsFirst bool
}

type config struct {
	col            columnConfig
	overrides      []override
	pageVersion    int
	rowGroupBytes  int64
	rowGroupRows   int64
	keyValues      []format.KeyValue
	createdBy      string
	createdBySet   bool
	sorting        []SortingColumn
	arrowSchema    bool
	footerIndex    bool
	pageChecksum   bool
	pageStatistics bool
	truncate       int
	encryption     *Encryption
	errs           []error
}

type override struct {
	path  string
	apply func(*columnConfig)
}

// columnConfig are the settings of one leaf column.
type columnConfig struct {
	codec      format.CompressionCodec
	level      int
	encoding   format.Encoding
	encSet     bool
	dictionary bool
	dictLimit  int
	pageSize   int
	pageRows   int
	statistics bool
	pageIndex  bool
	bloom      bool
	bloomNDV   int64
	bloomFPP   float64
}

func defaultConfig() *config {
	return &config{
		col: columnConfig{
			codec: format.Uncompressed, level: compress.DefaultLevel, encoding: format.Plain,
			dictionary: true, dictLimit: DefaultDictionaryPageSizeLimit,
			pageSize: DefaultPageSize, pageRows: DefaultPageRowLimit,
			statistics: true, pageIndex: true, bloomFPP: DefaultBloomFPP,
		},
		pageVersion:   1,
		rowGroupBytes: DefaultRowGroupSize,
		rowGroupRows:  DefaultRowGroupRows,
		createdBy:     CreatedBy,
		arrowSchema:   true,
		footerIndex:   true,
		pageChecksum:  true,
		truncate:      DefaultStatisticsTruncate,
	}
}

func (c *config) forColumn(path string, fn func(*columnConfig)) {
	c.overrides = append(c.overrides, override{path: path, apply: fn})
}

// resolve returns the settings of the leaf at path (dotted): the defaults,
// then every override naming the leaf or a group above it, in order.
func (c *config) resolve(n *schema.Node) (columnConfig, error) {
	cc := c.col
	path := n.PathString()
	for _, o := range c.overrides {
		if o.path == path || strings.HasPrefix(path, o.path+".") {
			o.apply(&cc)
		}
	}
	if !cc.encSet {
		cc.encoding = format.Plain
		if n.Physical == format.Boolean {
			cc.encoding = format.RLE
		}
	}
	if cc.encoding == format.RLEDictionary || cc.encoding == format.PlainDictionary {
		cc.dictionary = true
		cc.encoding = format.Plain
		if n.Physical == format.Boolean {
			cc.encoding = format.RLE
		}
	}
	if n.Physical == format.Boolean {
		cc.dictionary = false // booleans are RLE or PLAIN; a dictionary never pays
	}
	if err := checkEncoding(cc.encoding, n.Physical); err != nil {
		return cc, fmt.Errorf("column %s: %w", path, err)
	}
	if _, err := compress.NewEncoder(cc.codec, cc.level); err != nil {
		return cc, fmt.Errorf("column %s: %w", path, err)
	}
	if cc.pageSize <= 0 || cc.pageRows <= 0 || cc.dictLimit < 0 {
		return cc, fmt.Errorf("column %s: page size, page row limit and dictionary limit must be positive", path)
	}
	if cc.bloom && (cc.bloomFPP <= 0 || cc.bloomFPP >= 1) {
		return cc, fmt.Errorf("column %s: bloom filter false positive probability %v is not in (0, 1)", path, cc.bloomFPP)
	}
	return cc, nil
}

func checkEncoding(e format.Encoding, t format.Type) error {
	ok := false
	switch e {
	case format.Plain:
		ok = true
	case format.RLE:
		ok = t == format.Boolean
	case format.DeltaBinaryPacked:
		ok = t == format.Int32 || t == format.Int64
	case format.DeltaLengthByteArray:
		ok = t == format.ByteArray
	case format.DeltaByteArray:
		ok = t == format.ByteArray || t == format.FixedLenByteArray
	case format.ByteStreamSplit:
		ok = t == format.Int32 || t == format.Int64 || t == format.Float || t == format.Double || t == format.FixedLenByteArray
	case format.ALP:
		ok = t == format.Float || t == format.Double
	case format.BitPacked:
		return fmt.Errorf("BIT_PACKED is deprecated and only encodes levels")
	}
	if !ok {
		return fmt.Errorf("encoding %v cannot encode %v values", e, t)
	}
	return nil
}

// WithCompression sets the codec of every column (default UNCOMPRESSED).
func WithCompression(codec format.CompressionCodec) Option {
	return func(c *config) { c.col.codec = codec }
}

// WithCompressionLevel sets the codec level of every column: the zstd
// level, the gzip level (0-9) or the brotli quality (0-11);
// compress.DefaultLevel picks the codec's own default.
func WithCompressionLevel(level int) Option {
	return func(c *config) { c.col.level = level }
}

// WithCompressionFor sets the codec of the column at path (a dotted leaf
// path, or a group path for every leaf below it).
func WithCompressionFor(path string, codec format.CompressionCodec) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.codec = codec }) }
}

// WithCompressionLevelFor sets the codec level of the column at path.
func WithCompressionLevelFor(path string, level int) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.level = level }) }
}

// WithEncoding sets the value encoding of every column, used for pages that
// are not dictionary-encoded (when the dictionary is off or after it fell
// back). RLE_DICTIONARY turns the dictionary on. Default: PLAIN, RLE for
// BOOLEAN, and for compressed INT32/INT64 columns DELTA_BINARY_PACKED
// where it is much smaller (see the package documentation); setting any
// encoding, PLAIN included, turns that choice off. Columns whose type the
// encoding cannot encode are an error.
func WithEncoding(e format.Encoding) Option {
	return func(c *config) { c.col.encoding, c.col.encSet = e, true }
}

// WithEncodingFor sets the value encoding of the column at path.
func WithEncodingFor(path string, e format.Encoding) Option {
	return func(c *config) {
		c.forColumn(path, func(cc *columnConfig) { cc.encoding, cc.encSet = e, true })
	}
}

// WithDictionary turns dictionary encoding on (the default) or off for
// every column. BOOLEAN columns never use one.
func WithDictionary(on bool) Option { return func(c *config) { c.col.dictionary = on } }

// WithDictionaryFor turns dictionary encoding on or off for the column at path.
func WithDictionaryFor(path string, on bool) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.dictionary = on }) }
}

// WithDictionaryPageSizeLimit sets the size of the PLAIN dictionary beyond
// which a column chunk falls back to its value encoding (default 1 MiB).
func WithDictionaryPageSizeLimit(n int) Option {
	return func(c *config) { c.col.dictLimit = n }
}

// WithDataPageSize sets the target size of a data page's encoded values
// and levels before compression (default 1 MiB).
func WithDataPageSize(n int) Option { return func(c *config) { c.col.pageSize = n } }

// WithDataPageSizeFor sets the target data page size of the column at path.
func WithDataPageSizeFor(path string, n int) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.pageSize = n }) }
}

// WithPageRowLimit caps the rows of a data page (default 24,576, see
// DefaultPageRowLimit), which keeps the page index useful for skipping.
func WithPageRowLimit(n int) Option { return func(c *config) { c.col.pageRows = n } }

// WithDataPageVersion chooses DATA_PAGE (1, the default) or DATA_PAGE_V2 (2).
func WithDataPageVersion(v int) Option { return func(c *config) { c.pageVersion = v } }

// WithRowGroupSize sets the buffered size in bytes at which a row group is
// written out (default 128 MiB).
func WithRowGroupSize(bytes int64) Option { return func(c *config) { c.rowGroupBytes = bytes } }

// WithRowGroupRows caps the rows of a row group (default 1,048,576).
func WithRowGroupRows(n int64) Option { return func(c *config) { c.rowGroupRows = n } }

// WithStatistics turns column chunk statistics (and the column index) on
// (the default) or off for every column.
func WithStatistics(on bool) Option { return func(c *config) { c.col.statistics = on } }

// WithStatisticsFor turns statistics on or off for the column at path.
func WithStatisticsFor(path string, on bool) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.statistics = on }) }
}

// WithPageStatistics also writes statistics into every data page header
// (off by default: readers that know the column index should use it).
func WithPageStatistics(on bool) Option { return func(c *config) { c.pageStatistics = on } }

// WithStatisticsTruncateLength sets the length beyond which BYTE_ARRAY
// min/max values are truncated in statistics and the column index
// (default 64; 0 never truncates).
func WithStatisticsTruncateLength(n int) Option { return func(c *config) { c.truncate = n } }

// WithPageIndex turns the ColumnIndex and OffsetIndex on (the default) or
// off for every column.
func WithPageIndex(on bool) Option { return func(c *config) { c.col.pageIndex = on } }

// WithPageIndexFor turns the page index on or off for the column at path.
func WithPageIndexFor(path string, on bool) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.pageIndex = on }) }
}

// WithBloomFilter writes a split-block bloom filter for every column
// (except BOOLEAN), sized for ndv distinct values per row group at false
// positive probability fpp (0 means 1%).
func WithBloomFilter(ndv int64, fpp float64) Option {
	return func(c *config) {
		c.col.bloom, c.col.bloomNDV = true, ndv
		if fpp != 0 {
			c.col.bloomFPP = fpp
		}
	}
}

// WithBloomFilterFor writes a bloom filter for the column at path.
func WithBloomFilterFor(path string, ndv int64, fpp float64) Option {
	return func(c *config) {
		c.forColumn(path, func(cc *columnConfig) {
			cc.bloom, cc.bloomNDV = true, ndv
			if fpp != 0 {
				cc.bloomFPP = fpp
			}
		})
	}
}

// WithoutBloomFilterFor turns the bloom filter off for the column at path.
func WithoutBloomFilterFor(path string) Option {
	return func(c *config) { c.forColumn(path, func(cc *columnConfig) { cc.bloom = false }) }
}

// WithPageChecksum sets whether every page header carries the CRC32 of the
// page's bytes after the header (as stored: compressed; for v2 data pages
// the levels too). On by default; WithPageChecksum(false) leaves it out.
func WithPageChecksum(on bool) Option { return func(c *config) { c.pageChecksum = on } }

// WithKeyValue adds a footer key-value metadata entry.
func WithKeyValue(key, value string) Option {
	return func(c *config) {
		for i := range c.keyValues {
			if c.keyValues[i].Key == key {
				c.keyValues[i].Value = format.Some(value)
				return
			}
		}
		c.keyValues = append(c.keyValues, format.KeyValue{Key: key, Value: format.Some(value)})
	}
}

// WithSortingColumns records the sort order of the rows of every row group.
func WithSortingColumns(cols ...SortingColumn) Option {
	return func(c *config) { c.sorting = append([]SortingColumn(nil), cols...) }
}

// WithCreatedBy replaces the footer's created_by. When appending, the
// file's own created_by is kept unless this is given.
func WithCreatedBy(s string) Option {
	return func(c *config) { c.createdBy, c.createdBySet = s, true }
}

// WithFooterIndex adds (default) or leaves out carquet's footer index: the
// offsets of every column chunk's metadata, so that readers can decode one
// column's metadata without the others (parquet/format.FooterIndex).
func WithFooterIndex(on bool) Option { return func(c *config) { c.footerIndex = on } }

// WithArrowSchema turns the ARROW:schema footer entry on (the default) or off.
func WithArrowSchema(on bool) Option { return func(c *config) { c.arrowSchema = on } }

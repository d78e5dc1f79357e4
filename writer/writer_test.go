package writer

import (
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

func flatFields() []Field {
	return []Field{
		Bool("b"),
		Bool("b_req").Required(),
		Int32("i32"),
		Int32("i32_req").Required(),
		Int64("i64"),
		Int96("i96"),
		Float("f32"),
		Double("f64"),
		Binary("bin"),
		String("str"),
		FixedLen("fixed", 5),
		Integer("u8", 8, false),
		Integer("i16", 16, true),
		Integer("u64", 64, false),
		Date("date"),
		Time("t_ms", Millis, true),
		Time("t_us", Micros, false),
		Time("t_ns", Nanos, true),
		Timestamp("ts_ms", Millis, true),
		Timestamp("ts_us", Micros, false),
		Timestamp("ts_ns", Nanos, true),
		Decimal("d32", 9, 2),
		Decimal("d64", 18, 4),
		Decimal("dflba", 30, 5),
		DecimalAs("dbin", 40, 3, format.ByteArray, 0),
		UUID("uuid"),
		Float16("f16"),
		Interval("iv"),
		JSON("json"),
		BSON("bson"),
		Enum("enum"),
		Geometry("geom", ""),
		Geography("geog", "OGC:CRS84").EdgeAlgorithm(format.Vincenty),
		Unknown("unknown"),
	}
}

func writeBuffer(t testing.TB, sch *schema.Schema, cols []*vector.Vector, opts ...Option) *Buffer {
	t.Helper()
	var buf Buffer
	w, err := New(&buf, sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch(cols); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf
}

// flatSchema is the schema of flatFields and its logical fields.
func flatSchema(t testing.TB) (*schema.Schema, []*schema.Field) {
	t.Helper()
	sch, err := NewSchema(flatFields()...)
	if err != nil {
		t.Fatal(err)
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	return sch, fields
}

func TestRoundTripFlat(t *testing.T) {
	sch, fields := flatSchema(t)
	codecs := []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Gzip, format.Brotli, format.LZ4, format.Zstd, format.LZ4Raw}
	for seed := range 14 {
		g := &gen{rng: rand.New(rand.NewPCG(uint64(seed), 1)), nullFrac: 0.2, maxList: 3}
		n := 1 + g.rng.IntN(500)
		cols := make([]*vector.Vector, len(fields))
		for i, f := range fields {
			cols[i] = g.vector(f, n)
		}
		// UNKNOWN is always null.
		last := len(fields) - 1
		cols[last].Valid = vector.NewBitmap(n, false)
		clear(cols[last].Int32s)
		codec := codecs[seed%len(codecs)]
		opts := []Option{WithCompression(codec), WithDictionary(seed%2 == 0), WithDataPageVersion(1 + seed%3%2),
			WithDataPageSize(1 + g.rng.IntN(4096)), WithPageRowLimit(1 + g.rng.IntN(100)), WithRowGroupRows(int64(1 + g.rng.IntN(300))),
			WithPageChecksum(true), WithPageStatistics(seed%4 == 1)}
		if seed%3 == 0 {
			opts = append(opts, WithBloomFilter(int64(g.rng.IntN(1000)), 0.05))
		}
		if codec == format.Zstd || codec == format.Gzip || codec == format.Brotli {
			opts = append(opts, WithCompressionLevel(1+seed%5))
		} else {
			opts = append(opts, WithCompressionLevel(compress.DefaultLevel))
		}
		buf := writeBuffer(t, sch, cols, opts...)
		f := openBuffer(t, buf)
		compareRows(t, rowsOf(fields, cols), readRows(t, f, 1+g.rng.IntN(200)))
		verifyMetadata(t, f)
	}
}

func TestDictionaryFallback(t *testing.T) {
	sch, err := NewSchema(Int64("many").Required(), String("few"))
	if err != nil {
		t.Fatal(err)
	}
	n := 10000
	many := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	few := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}}
	for i := range n {
		many.Int64s[i] = int64(i / 2 * 7) // each value twice: the dictionary pays at first
		few.Data = append(few.Data, "abc"[i%3])
		few.Offsets = append(few.Offsets, int32(len(few.Data)))
	}
	buf := writeBuffer(t, sch, []*vector.Vector{many, few}, WithDictionaryPageSizeLimit(1000))
	f := openBuffer(t, buf)
	fields, _ := sch.LogicalFields()
	compareRows(t, rowsOf(fields, []*vector.Vector{many, few}), readRows(t, f, 0))
	verifyMetadata(t, f)
	md := f.Meta.RowGroups[0].Columns[0].MetaData
	count := map[format.PageType]map[format.Encoding]int32{}
	for _, es := range md.EncodingStats {
		if count[es.PageType] == nil {
			count[es.PageType] = map[format.Encoding]int32{}
		}
		count[es.PageType][es.Encoding] += es.Count
	}
	if count[format.DictionaryPage][format.Plain] != 1 || count[format.DataPage][format.RLEDictionary] < 1 || count[format.DataPage][format.Plain] < 1 {
		t.Errorf("encoding stats of the fallen-back column: %+v", md.EncodingStats)
	}
	if md.Statistics.DistinctCount.Set {
		t.Errorf("distinct_count %v after a fallback", md.Statistics.DistinctCount)
	}
	md = f.Meta.RowGroups[0].Columns[1].MetaData
	if md.Statistics.DistinctCount.Value != 3 || len(md.EncodingStats) != 2 {
		t.Errorf("dictionary column: distinct %v, encoding stats %+v", md.Statistics.DistinctCount, md.EncodingStats)
	}
	if string(md.Statistics.MinValue) != "a" || string(md.Statistics.MaxValue) != "c" {
		t.Errorf("min/max %q %q", md.Statistics.MinValue, md.Statistics.MaxValue)
	}

	// Values that never repeat: the first page shows the dictionary does
	// not pay, and the chunk has none.
	distinct := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}}
	for i := range n {
		distinct.Data = append(distinct.Data, itoa(i*13)...)
		distinct.Offsets = append(distinct.Offsets, int32(len(distinct.Data)))
	}
	buf = writeBuffer(t, sch, []*vector.Vector{many, distinct}, WithPageRowLimit(1000))
	f = openBuffer(t, buf)
	compareRows(t, rowsOf(fields, []*vector.Vector{many, distinct}), readRows(t, f, 0))
	verifyMetadata(t, f)
	md = f.Meta.RowGroups[0].Columns[1].MetaData
	if md.DictionaryPageOffset.Set || len(md.EncodingStats) != 1 || md.EncodingStats[0].Encoding != format.Plain {
		t.Errorf("distinct values: dictionary page %v, encoding stats %+v", md.DictionaryPageOffset, md.EncodingStats)
	}
}

// TestAutoDelta: compressed INT32/INT64 pages that are not
// dictionary-encoded take DELTA_BINARY_PACKED where it is much smaller than
// PLAIN (sorted timestamps, ids in a narrow range), and PLAIN otherwise:
// for values spread over the whole range, without a codec, and when the
// user chose the encoding.
func TestAutoDelta(t *testing.T) {
	sch, err := NewSchema(Int64("ts").Required(), Int32("id"), Int64("hash").Required())
	if err != nil {
		t.Fatal(err)
	}
	n := 50000
	rng := rand.New(rand.NewPCG(7, 7))
	ts := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	id := &vector.Vector{Kind: vector.Int32, Len: n, Int32s: make([]int32, n), Valid: vector.NewBitmap(n, false)}
	hash := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	for i := range n {
		ts.Int64s[i] = 1_700_000_000_000_000 + int64(i)*7_000_000 + rng.Int64N(7_000_000)
		if i%10 != 0 { // every tenth id is NULL
			id.Int32s[i] = rng.Int32N(500_000)
			id.Valid.Set(i)
		}
		hash.Int64s[i] = int64(rng.Uint64())
	}
	cols := []*vector.Vector{ts, id, hash}
	fields, _ := sch.LogicalFields()
	encodings := func(f *file.File, col int) map[format.Encoding]bool {
		m := map[format.Encoding]bool{}
		for _, rg := range f.Meta.RowGroups {
			for _, es := range rg.Columns[col].MetaData.EncodingStats {
				if es.PageType == format.DataPage || es.PageType == format.DataPageV2 {
					m[es.Encoding] = true
				}
			}
		}
		return m
	}
	for _, version := range []int{1, 2} {
		buf := writeBuffer(t, sch, cols, WithCompression(format.Snappy), WithPageRowLimit(5000), WithDataPageVersion(version))
		f := openBuffer(t, buf)
		compareRows(t, rowsOf(fields, cols), readRows(t, f, 0))
		verifyMetadata(t, f)
		for col, want := range []format.Encoding{format.DeltaBinaryPacked, format.DeltaBinaryPacked, format.Plain} {
			if got := encodings(f, col); len(got) != 1 || !got[want] {
				t.Errorf("v%d, column %d: data page encodings %v, want only %v", version, col, got, want)
			}
		}
	}
	for name, opts := range map[string][]Option{
		"uncompressed": nil,
		"chosen PLAIN": {WithCompression(format.Zstd), WithEncoding(format.Plain)},
	} {
		f := openBuffer(t, writeBuffer(t, sch, cols, opts...))
		compareRows(t, rowsOf(fields, cols), readRows(t, f, 0))
		for col := range cols {
			if got := encodings(f, col); len(got) != 1 || !got[format.Plain] {
				t.Errorf("%s, column %d: data page encodings %v, want only PLAIN", name, col, got)
			}
		}
	}
}

func TestPerColumnOptions(t *testing.T) {
	sch, err := NewSchema(Int64("a").Required(), Group("g", String("s"), Double("d")), List("l", Int32("e")))
	if err != nil {
		t.Fatal(err)
	}
	g := &gen{rng: rand.New(rand.NewPCG(5, 5)), nullFrac: 0.1, maxList: 3}
	fields, _ := sch.LogicalFields()
	cols := make([]*vector.Vector, len(fields))
	for i, f := range fields {
		cols[i] = g.vector(f, 500)
	}
	buf := writeBuffer(t, sch, cols,
		WithCompression(format.Snappy),
		WithCompressionFor("g", format.Zstd), WithCompressionLevelFor("g", 9), // a group: every leaf below
		WithCompressionFor("g.d", format.Gzip), // a leaf, after the group
		WithEncodingFor("a", format.DeltaBinaryPacked), WithDictionaryFor("a", false),
		WithEncodingFor("l.list.element", format.ByteStreamSplit), WithDictionaryFor("l", false),
		WithStatisticsFor("g.s", false), WithPageIndexFor("g.d", false), WithBloomFilterFor("a", 100, 0.01))
	f := openBuffer(t, buf)
	compareRows(t, rowsOf(fields, cols), readRows(t, f, 0))
	verifyMetadata(t, f)
	cc := f.Meta.RowGroups[0].Columns
	codecs := []format.CompressionCodec{format.Snappy, format.Zstd, format.Gzip, format.Snappy}
	for i, c := range codecs {
		if cc[i].MetaData.Codec != c {
			t.Errorf("column %v: codec %v, want %v", cc[i].MetaData.PathInSchema, cc[i].MetaData.Codec, c)
		}
	}
	hasEnc := func(i int, e format.Encoding) bool {
		for _, x := range cc[i].MetaData.Encodings {
			if x == e {
				return true
			}
		}
		return false
	}
	if !hasEnc(0, format.DeltaBinaryPacked) || !hasEnc(3, format.ByteStreamSplit) || hasEnc(3, format.RLEDictionary) {
		t.Errorf("encodings %v %v", cc[0].MetaData.Encodings, cc[3].MetaData.Encodings)
	}
	if cc[1].MetaData.Statistics != nil || cc[1].ColumnIndexOffset.Set {
		t.Errorf("g.s has statistics or a column index")
	}
	if cc[2].OffsetIndexOffset.Set || !cc[0].MetaData.BloomFilterOffset.Set || cc[1].MetaData.BloomFilterOffset.Set {
		t.Errorf("page index / bloom filter placement")
	}
	for _, bad := range []Option{WithCompressionFor("nope", format.Zstd), WithEncodingFor("a", format.DeltaByteArray),
		WithEncodingFor("g.d", format.RLE), WithCompressionFor("a", format.LZO), WithDataPageVersion(3),
		WithSortingColumns(SortingColumn{Path: "g"}), WithCompressionLevelFor("a", 99), WithBloomFilterFor("a", 10, 2)} {
		if _, err := New(&Buffer{}, sch, WithCompression(format.Zstd), bad); err == nil {
			t.Errorf("an invalid option was accepted")
		}
	}
}

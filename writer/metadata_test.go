package writer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
)

func TestTruncate(t *testing.T) {
	cases := []struct {
		v        string
		n        int
		text     bool
		min, max string
		maxOK    bool
	}{
		{"abcdef", 3, false, "abc", "abd", true},
		{"ab\xff\xffz", 3, false, "ab\xff", "ac", true},
		{"\xff\xff\xff\xff", 2, false, "\xff\xff", "", false},
		{"héllo", 2, true, "h", "i", true}, // é is 2 bytes: cut before it
		{"aéz", 3, true, "aé", "aê", true}, // whole characters kept, the last incremented
		{"a\U0010FFFFb", 5, true, "a\U0010FFFF", "b", true},
		{"\ud7ffxyz", 3, true, "\ud7ff", "\ue000", true},
	}
	for _, c := range cases {
		if got := string(truncateMin([]byte(c.v), c.n, c.text)); got != c.min {
			t.Errorf("truncateMin(%q, %d) = %q, want %q", c.v, c.n, got, c.min)
		}
		got, ok := truncateMax([]byte(c.v), c.n, c.text)
		if ok != c.maxOK || string(got) != c.max {
			t.Errorf("truncateMax(%q, %d) = %q, %v, want %q, %v", c.v, c.n, got, ok, c.max, c.maxOK)
		}
		if ok && bytes.Compare(got, []byte(c.v)) <= 0 {
			t.Errorf("truncateMax(%q) = %q does not sort after the value", c.v, got)
		}
	}
}

func TestStatisticsEdgeCases(t *testing.T) {
	sch, err := NewSchema(
		Double("zeros"), Double("nans"), Float("mixed"),
		Integer("u32", 32, false), Integer("u64", 64, false),
		DecimalAs("dfix", 20, 0, format.FixedLenByteArray, 9), DecimalAs("dbin", 30, 0, format.ByteArray, 0),
		String("long"), Float16("half"), Interval("iv"), Bool("flag"),
	)
	if err != nil {
		t.Fatal(err)
	}
	negZero := math.Copysign(0, -1)
	nan := math.NaN()
	long1 := strings.Repeat("x", 100)
	long2 := strings.Repeat("y", 70) + "\xff"
	cols := []*vector.Vector{
		{Kind: vector.Float64, Len: 3, Float64s: []float64{0, negZero, 0}},
		{Kind: vector.Float64, Len: 3, Float64s: []float64{nan, nan, 0}, Valid: vector.Bitmap{0b011}},
		{Kind: vector.Float32, Len: 3, Float32s: []float32{float32(nan), -2, 5}},
		{Kind: vector.Int32, Len: 3, Int32s: []int32{1, -1, 7}},
		{Kind: vector.Int64, Len: 3, Int64s: []int64{-5, 3, 0}},
		{Kind: vector.FixedLenByteArray, Width: 9, Len: 3, Data: append(append(
			bytes.Repeat([]byte{0xff}, 9),  // -1
			append(make([]byte, 8), 5)...), // 5
			append([]byte{0x80}, make([]byte, 8)...)...)}, // most negative
		{Kind: vector.ByteArray, Len: 3, Data: []byte{0x7f, 0xff, 0x01, 0x00}, Offsets: []int32{0, 1, 2, 4}}, // 127, -1, 256
		{Kind: vector.ByteArray, Len: 3, Data: []byte(long1 + long2 + "xz"), Offsets: []int32{0, 100, int32(100 + len(long2)), int32(102 + len(long2))}},
		{Kind: vector.FixedLenByteArray, Width: 2, Len: 3, Data: []byte{0x00, 0x80, 0x00, 0x7e, 0x00, 0x00}}, // -0, NaN, +0
		{Kind: vector.FixedLenByteArray, Width: 12, Len: 1 * 3, Data: make([]byte, 36)},
		{Kind: vector.Bool, Len: 3, Bools: []bool{true, true, true}},
	}
	buf := writeBuffer(t, sch, cols, WithDictionary(false))
	f := openBuffer(t, buf)
	verifyMetadata(t, f)
	st := func(i int) *format.Statistics { return f.Meta.RowGroups[0].Columns[i].MetaData.Statistics }
	f64 := func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }

	if s := st(0); !math.Signbit(f64(s.MinValue)) || math.Signbit(f64(s.MaxValue)) || f64(s.MinValue) != 0 {
		t.Errorf("zeros: min %v max %v", f64(s.MinValue), f64(s.MaxValue))
	}
	if s := st(1); s.MinValue != nil || s.NanCount.Value != 2 || s.NullCount.Value != 1 {
		t.Errorf("all NaN: %+v", s)
	}
	if s := st(2); s.NanCount.Value != 1 || math.Float32frombits(binary.LittleEndian.Uint32(s.MinValue)) != -2 {
		t.Errorf("mixed: %+v", s)
	}
	if s := st(3); binary.LittleEndian.Uint32(s.MinValue) != 1 || binary.LittleEndian.Uint32(s.MaxValue) != math.MaxUint32 || s.Min != nil {
		t.Errorf("unsigned 32: min %x max %x legacy %v", s.MinValue, s.MaxValue, s.Min)
	}
	if s := st(4); binary.LittleEndian.Uint64(s.MinValue) != 0 || int64(binary.LittleEndian.Uint64(s.MaxValue)) != -5 {
		t.Errorf("unsigned 64: min %x max %x", s.MinValue, s.MaxValue)
	}
	if s := st(5); s.MinValue[0] != 0x80 || s.MaxValue[8] != 5 {
		t.Errorf("decimal fixed: min %x max %x", s.MinValue, s.MaxValue)
	}
	if s := st(6); !bytes.Equal(s.MinValue, []byte{0xff}) || !bytes.Equal(s.MaxValue, []byte{0x01, 0x00}) {
		t.Errorf("decimal binary: min %x max %x", s.MinValue, s.MaxValue)
	}
	s := st(7)
	if s.IsMinValueExact.Value || len(s.MinValue) != 64 || string(s.MinValue) != long1[:64] {
		t.Errorf("long min %q exact %v", s.MinValue, s.IsMinValueExact)
	}
	if s.IsMaxValueExact.Value || string(s.MaxValue) != strings.Repeat("y", 63)+"z" {
		t.Errorf("long max %q exact %v", s.MaxValue, s.IsMaxValueExact)
	}
	if s := st(8); !bytes.Equal(s.MinValue, []byte{0x00, 0x80}) || !bytes.Equal(s.MaxValue, []byte{0, 0}) || s.NanCount.Value != 1 {
		t.Errorf("float16: min %x max %x nan %v", s.MinValue, s.MaxValue, s.NanCount)
	}
	if s := st(9); s.MinValue != nil || s.MaxValue != nil {
		t.Errorf("interval has min/max")
	}
	if s := st(10); s.MinValue[0] != 1 || s.MaxValue[0] != 1 || s.Min[0] != 1 {
		t.Errorf("bool: %+v", s)
	}
}

func TestFooterMetadata(t *testing.T) {
	sch, err := NewSchema(Int64("a").Required(), String("b"), List("c", Int32("e")))
	if err != nil {
		t.Fatal(err)
	}
	a := &vector.Vector{Kind: vector.Int64, Len: 4, Int64s: []int64{1, 2, 3, 4}}
	b := &vector.Vector{Kind: vector.ByteArray, Len: 4, Data: []byte("wxyz"), Offsets: []int32{0, 1, 2, 3, 4}}
	c := &vector.Vector{Kind: vector.List, Len: 4, Offsets: []int32{0, 1, 1, 2, 2},
		Children: []*vector.Vector{{Kind: vector.Int32, Len: 2, Int32s: []int32{9, 8}}}}
	buf := writeBuffer(t, sch, []*vector.Vector{a, b, c},
		WithKeyValue("k1", "v1"), WithKeyValue("k2", "v2"), WithKeyValue("k1", "v3"),
		WithSortingColumns(SortingColumn{Path: "a"}, SortingColumn{Path: "b", Descending: true, NullsFirst: true}),
		WithCreatedBy("test writer"), WithRowGroupRows(2), WithPageChecksum(true))
	f := openBuffer(t, buf)
	if v, _ := f.KeyValue("k1"); v != "v3" {
		t.Errorf("k1 = %q", v)
	}
	if v, _ := f.KeyValue("k2"); v != "v2" {
		t.Errorf("k2 = %q", v)
	}
	if f.CreatedBy() != "test writer" || f.Meta.NumRows != 4 || len(f.Meta.RowGroups) != 2 {
		t.Errorf("created_by %q, num_rows %d, %d row groups", f.CreatedBy(), f.Meta.NumRows, len(f.Meta.RowGroups))
	}
	if len(f.Meta.ColumnOrders) != 3 || f.Meta.ColumnOrders[2].TypeOrder == nil {
		t.Errorf("column orders %+v", f.Meta.ColumnOrders)
	}
	for i, rg := range f.Meta.RowGroups {
		want := []format.SortingColumn{{ColumnIdx: 0}, {ColumnIdx: 1, Descending: true, NullsFirst: true}}
		if len(rg.SortingColumns) != 2 || rg.SortingColumns[0].ColumnIdx != want[0].ColumnIdx ||
			rg.SortingColumns[1].ColumnIdx != 1 || !rg.SortingColumns[1].Descending || !rg.SortingColumns[1].NullsFirst {
			t.Errorf("row group %d sorting columns %+v", i, rg.SortingColumns)
		}
		if rg.Ordinal.Value != int16(i) || !rg.Ordinal.Set || rg.NumRows != 2 {
			t.Errorf("row group %d: ordinal %v rows %d", i, rg.Ordinal, rg.NumRows)
		}
		var sum int64
		for _, cc := range rg.Columns {
			sum += cc.MetaData.TotalCompressedSize
			if !cc.ColumnIndexOffset.Set || !cc.OffsetIndexOffset.Set {
				t.Errorf("row group %d column %v: no page index", i, cc.MetaData.PathInSchema)
			}
		}
		if rg.TotalCompressedSize.Value != sum || rg.FileOffset.Value != rg.Columns[0].FileOffset {
			t.Errorf("row group %d: total compressed %d (columns %d), file offset %d", i, rg.TotalCompressedSize.Value, sum, rg.FileOffset.Value)
		}
	}
	// SizeStatistics: the list leaf has levels up to 3 and 1.
	ss := f.Meta.RowGroups[0].Columns[2].MetaData.SizeStatistics
	if ss == nil || len(ss.DefinitionLevelHistogram) != 4 || len(ss.RepetitionLevelHistogram) != 2 {
		t.Errorf("size statistics %+v", ss)
	}
	verifyMetadata(t, f)

	// Page checksums are written and checked: spoil one byte of the first
	// data page body and reading must fail.
	bad := bytes.Clone(buf.Bytes())
	md := f.Meta.RowGroups[0].Columns[0].MetaData
	start := md.DataPageOffset
	if d, ok := md.DictionaryPageOffset.Get(); ok {
		start = d
	}
	bad[start+md.TotalCompressedSize-1] ^= 0xff
	bf, err := file.Open(bytes.NewReader(bad), int64(len(bad)), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := bf.NewReader(file.ReaderOptions{Columns: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err == nil || errors.Is(err, io.EOF) || !strings.Contains(err.Error(), "CRC") {
		t.Errorf("spoiled page read with error %v", err)
	}
}

func TestBloomFilterContent(t *testing.T) {
	sch, err := NewSchema(Int64("id").Required(), String("s").Required(), Double("d").Required(), FixedLen("f", 4).Required())
	if err != nil {
		t.Fatal(err)
	}
	n := 5000
	id := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	s := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}}
	d := &vector.Vector{Kind: vector.Float64, Len: n, Float64s: make([]float64, n)}
	fx := &vector.Vector{Kind: vector.FixedLenByteArray, Width: 4, Len: n, Data: make([]byte, 4*n)}
	for i := range n {
		id.Int64s[i] = int64(i) * 3
		s.Data = append(s.Data, []byte("v"+itoa(i%700))...)
		s.Offsets = append(s.Offsets, int32(len(s.Data)))
		d.Float64s[i] = float64(i) / 3
		binary.BigEndian.PutUint32(fx.Data[4*i:], uint32(i%50))
	}
	for _, dict := range []bool{true, false} {
		buf := writeBuffer(t, sch, []*vector.Vector{id, s, d, fx}, WithBloomFilter(int64(n), 0.01), WithDictionary(dict),
			WithDictionaryPageSizeLimit(2000), WithoutBloomFilterFor("f"))
		f := openBuffer(t, buf)
		verifyMetadata(t, f) // every written value is found
		if f.Meta.RowGroups[0].Columns[3].MetaData.BloomFilterOffset.Set {
			t.Errorf("bloom filter written for a column that opted out")
		}
		// Values never written are rarely found: about 1% false positives.
		md := f.Meta.RowGroups[0].Columns[0].MetaData
		b, err := f.ReadRange(md.BloomFilterOffset.Value, int64(md.BloomFilterLength.Value))
		if err != nil {
			t.Fatal(err)
		}
		var h format.BloomFilterHeader
		hl, err := format.Unmarshal(b, &h)
		if err != nil {
			t.Fatal(err)
		}
		fp := 0
		for i := range 10000 {
			if bloomCheck(b[hl:], hashFixedInt64(int64(i)*3+1)) {
				fp++
			}
		}
		if fp > 300 {
			t.Errorf("dictionary %v: %d false positives in 10000", dict, fp)
		}
	}
}

func hashFixedInt64(v int64) uint64 {
	var b vector.Vector
	b.Kind, b.Int64s, b.Len = vector.Int64, []int64{v}, 1
	return xxhashSum(valueBytes(&b, 0))
}

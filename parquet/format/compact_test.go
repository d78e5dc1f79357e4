package format

import (
	"math/rand"
	"reflect"
	"testing"
)

// randomChunk returns a column chunk with a random subset of the fields
// that compact records hold, with random values (extremes among them).
func randomChunk(rng *rand.Rand) ColumnChunk {
	i64 := func() int64 {
		switch rng.Intn(4) {
		case 0:
			return -1 << 63
		case 1:
			return 1<<63 - 1
		}
		return rng.Int63n(1<<40) - 1<<39
	}
	i32 := func() int32 { return int32(i64()) }
	bin := func() []byte {
		b := make([]byte, rng.Intn(10))
		rng.Read(b)
		return b
	}
	maybe := func() bool { return rng.Intn(2) == 0 }
	cc := ColumnChunk{FileOffset: i64()}
	if maybe() {
		cc.FilePath = Some(string(bin()))
	}
	if maybe() {
		cc.OffsetIndexOffset, cc.OffsetIndexLength = Some(i64()), Some(i32())
	}
	if maybe() {
		cc.ColumnIndexOffset, cc.ColumnIndexLength = Some(i64()), Some(i32())
	}
	if rng.Intn(8) == 0 {
		return cc // no metadata
	}
	md := &ColumnMetaData{Type: Type(rng.Intn(8)), Codec: CompressionCodec(rng.Intn(8)), NumValues: i64(),
		TotalUncompressedSize: i64(), TotalCompressedSize: i64(), DataPageOffset: i64()}
	if maybe() {
		md.Encodings = make([]Encoding, rng.Intn(4))
		for i := range md.Encodings {
			md.Encodings[i] = Encoding(i32())
		}
	}
	if maybe() {
		md.PathInSchema = make([]string, rng.Intn(4))
		for i := range md.PathInSchema {
			md.PathInSchema[i] = string(bin())
		}
	}
	if maybe() {
		md.IndexPageOffset = Some(i64())
	}
	if maybe() {
		md.DictionaryPageOffset = Some(i64())
	}
	if maybe() {
		md.BloomFilterOffset = Some(i64())
	}
	if maybe() {
		md.BloomFilterLength = Some(i32())
	}
	if maybe() {
		md.EncodingStats = make([]PageEncodingStats, rng.Intn(3))
		for i := range md.EncodingStats {
			md.EncodingStats[i] = PageEncodingStats{PageType: PageType(i32()), Encoding: Encoding(i32()), Count: i32()}
		}
	}
	if maybe() {
		sz := &SizeStatistics{}
		if maybe() {
			sz.UnencodedByteArrayDataBytes = Some(i64())
		}
		for _, h := range []*[]int64{&sz.RepetitionLevelHistogram, &sz.DefinitionLevelHistogram} {
			if maybe() {
				*h = make([]int64, rng.Intn(4))
				for i := range *h {
					(*h)[i] = i64()
				}
			}
		}
		md.SizeStatistics = sz
	}
	if maybe() {
		st := &Statistics{}
		if maybe() {
			st.Max, st.Min = bin(), bin()
		}
		if maybe() {
			st.MaxValue = bin()
		}
		if maybe() {
			st.MinValue = bin()
		}
		if maybe() {
			st.NullCount = Some(i64())
		}
		if maybe() {
			st.DistinctCount = Some(i64())
		}
		if maybe() {
			st.NanCount = Some(i64())
		}
		if maybe() {
			st.IsMaxValueExact = Some(maybe())
		}
		if maybe() {
			st.IsMinValueExact = Some(maybe())
		}
		md.Statistics = st
	}
	cc.MetaData = md
	return cc
}

// TestCompactRandomFooters checks compact decoding against UnmarshalAliased
// on random footers, and that the records, not the generated code, took
// the chunks they can hold.
func TestCompactRandomFooters(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for iter := 0; iter < 300; iter++ {
		fm := &FileMetaData{Version: 2, Schema: []SchemaElement{{Name: "s"}}}
		for g := rng.Intn(3); g >= 0; g-- {
			rg := RowGroup{NumRows: 1, Columns: make([]ColumnChunk, rng.Intn(20))}
			for i := range rg.Columns {
				rg.Columns[i] = randomChunk(rng)
			}
			fm.RowGroups = append(fm.RowGroups, rg)
		}
		b := Marshal(nil, fm)
		compactAsAliased(t, b)
		var got FileMetaData
		chunks, _, err := UnmarshalCompact(b, &got, 0)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range chunks {
			if len(c.overflow) != 0 {
				t.Fatalf("footer %d, row group %d: %d chunks left to the generated code", iter, i, len(c.overflow))
			}
		}
	}
}

// TestCompactChunksAreOwnCopies checks that what one built column chunk
// holds can be changed without changing the next one built.
func TestCompactChunksAreOwnCopies(t *testing.T) {
	fm := wideFooter(4, 1)
	fm.RowGroups[0].Columns[1].MetaData.KeyValueMetadata = []KeyValue{{Key: "k"}} // generated code
	b := Marshal(nil, fm)
	var got FileMetaData
	chunks, _, err := UnmarshalCompact(b, &got, 0)
	if err != nil {
		t.Fatal(err)
	}
	c := chunks[0]
	if len(c.overflow) != 1 || c.recs[1].has&ccOverflow == 0 {
		t.Fatalf("chunk with key-value metadata: overflow %d", len(c.overflow))
	}
	var a, again ColumnChunk
	c.ColumnChunk(0, &a)
	a.MetaData.Encodings[0] = 99
	a.MetaData.PathInSchema[0] = "x"
	a.MetaData.EncodingStats = append(a.MetaData.EncodingStats, PageEncodingStats{})
	a.MetaData.NumValues = -5
	c.ColumnChunk(0, &again)
	if !reflect.DeepEqual(again, fm.RowGroups[0].Columns[0]) {
		t.Fatalf("built chunk changed by changing an earlier one: %+v", again.MetaData)
	}
}

// TestCompactLimit checks that the records count against the memory
// limit: a list of empty column chunks (one byte each) fails with the
// limit's error before the records are allocated.
func TestCompactLimit(t *testing.T) {
	fm := &FileMetaData{Schema: []SchemaElement{{Name: "s"}}, RowGroups: []RowGroup{{Columns: make([]ColumnChunk, 100000)}}}
	b := Marshal(nil, fm)
	var got FileMetaData
	if _, _, err := UnmarshalCompact(b, &got, 1<<20); err == nil {
		t.Fatal("100,000 records within a 1 MiB limit")
	}
	if _, _, err := UnmarshalCompact(b, &got, 1<<30); err != nil {
		t.Fatal(err)
	}
}

package format

import (
	"bytes"
	"encoding/binary"
	"os"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
)

// FuzzPageHeader decodes arbitrary bytes as a page header, as the page
// reader does for every page: it must never panic, and whatever decodes
// must re-encode to bytes that decode and encode to the same bytes again.
// The seeds are built headers of every page type plus the first page
// headers of the conformance files' column chunks.
func FuzzPageHeader(f *testing.F) {
	for _, h := range []PageHeader{
		{Type: DataPage, UncompressedPageSize: 100, CompressedPageSize: 80, CRC: Some(int32(-7)),
			DataPageHeader: &DataPageHeader{NumValues: 10, Encoding: Plain, DefinitionLevelEncoding: RLE, RepetitionLevelEncoding: RLE,
				Statistics: &Statistics{MinValue: []byte{1}, MaxValue: []byte{9}, NullCount: Some(int64(2))}}},
		{Type: DataPageV2, UncompressedPageSize: 50, CompressedPageSize: 50,
			DataPageHeaderV2: &DataPageHeaderV2{NumValues: 5, NumNulls: 1, NumRows: 4, Encoding: RLEDictionary,
				DefinitionLevelsByteLength: 3, RepetitionLevelsByteLength: 2, IsCompressed: Some(false)}},
		{Type: DictionaryPage, UncompressedPageSize: 7, CompressedPageSize: 7,
			DictionaryPageHeader: &DictionaryPageHeader{NumValues: 2, Encoding: Plain, IsSorted: Some(true)}},
		{Type: IndexPage, UncompressedPageSize: 0, CompressedPageSize: 0, IndexPageHeader: &IndexPageHeader{}},
	} {
		f.Add(Marshal(nil, &h))
	}
	seen := map[string]bool{}
	for _, p := range testfiles.Glob(f, "data", ".parquet") {
		for _, hdr := range firstPageHeaders(p) {
			if !seen[string(hdr)] {
				seen[string(hdr)] = true
				f.Add(hdr)
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var h PageHeader
		if _, err := Unmarshal(b, &h); err != nil {
			return
		}
		enc := Marshal(nil, &h)
		var again PageHeader
		if _, err := Unmarshal(enc, &again); err != nil {
			t.Fatalf("re-decode failed: %v", err)
		}
		if enc2 := Marshal(nil, &again); !bytes.Equal(enc, enc2) {
			t.Fatal("round trip changed the page header")
		}
	})
}

// firstPageHeaders returns the bytes at the first page of every column
// chunk of the file at path (a prefix long enough for any header), or nil
// when the file's footer does not decode.
func firstPageHeaders(path string) [][]byte {
	data, err := os.ReadFile(path)
	if err != nil || len(data) < 12 {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	if n <= 0 || n > len(data)-12 {
		return nil
	}
	var meta FileMetaData
	if _, err := Unmarshal(data[len(data)-8-n:len(data)-8], &meta); err != nil {
		return nil
	}
	var out [][]byte
	for _, rg := range meta.RowGroups {
		for _, cc := range rg.Columns {
			if cc.MetaData == nil {
				continue
			}
			for _, off := range []int64{cc.MetaData.DataPageOffset, cc.MetaData.DictionaryPageOffset.Value} {
				if off > 0 && off < int64(len(data)) {
					out = append(out, bytes.Clone(data[off:min(int64(len(data)), off+256)]))
				}
			}
		}
	}
	return out
}

package format

import (
	"encoding/binary"
	"fmt"
	"testing"
)

// wideFooter builds the footer of a file with n INT64 columns and r row
// groups, with the fields a typical writer sets (statistics, encodings,
// offsets, page index locations).
func wideFooter(n, r int) *FileMetaData {
	fm := &FileMetaData{Version: 1, NumRows: int64(r) * 1000, CreatedBy: Some("carquet bench")}
	fm.Schema = append(fm.Schema, SchemaElement{Name: "schema", NumChildren: Some(int32(n))})
	for c := 0; c < n; c++ {
		fm.Schema = append(fm.Schema, SchemaElement{Name: fmt.Sprintf("col_%d", c), Type: Some(Int64), RepetitionType: Some(Optional)})
	}
	off := int64(4)
	for g := 0; g < r; g++ {
		rg := RowGroup{NumRows: 1000, TotalByteSize: int64(n) * 8000}
		for c := 0; c < n; c++ {
			mn, mx := make([]byte, 8), make([]byte, 8)
			binary.LittleEndian.PutUint64(mn, uint64(c))
			binary.LittleEndian.PutUint64(mx, uint64(c+1000))
			rg.Columns = append(rg.Columns, ColumnChunk{
				FileOffset: off,
				MetaData: &ColumnMetaData{
					Type: Int64, Encodings: []Encoding{Plain, RLE, RLEDictionary}, PathInSchema: []string{fmt.Sprintf("col_%d", c)},
					Codec: Snappy, NumValues: 1000, TotalUncompressedSize: 8100, TotalCompressedSize: 8000,
					DataPageOffset: off, DictionaryPageOffset: Some(off),
					Statistics: &Statistics{NullCount: Some(int64(0)), MinValue: mn, MaxValue: mx},
				},
				OffsetIndexOffset: Some(off + 100), OffsetIndexLength: Some(int32(20)),
				ColumnIndexOffset: Some(off + 200), ColumnIndexLength: Some(int32(40)),
			})
			off += 8000
		}
		fm.RowGroups = append(fm.RowGroups, rg)
	}
	return fm
}

// BenchmarkDecodeWideFooter decodes footers of N columns × R row groups
// from bytes in memory (BENCHMARKS.md §3), the column chunks into structs
// (UnmarshalAliased) and into compact records (UnmarshalCompact).
func BenchmarkDecodeWideFooter(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 50000} {
		for _, r := range []int{1, 2, 4} {
			if n == 50000 && r > 1 && testing.Short() {
				continue
			}
			buf := Marshal(nil, wideFooter(n, r))
			for _, mode := range []struct {
				name   string
				decode func([]byte, *FileMetaData) error
			}{
				{"structs", func(b []byte, fm *FileMetaData) error { _, err := UnmarshalAliased(b, fm); return err }},
				{"compact", func(b []byte, fm *FileMetaData) error { _, _, err := UnmarshalCompact(b, fm, 0); return err }},
			} {
				b.Run(fmt.Sprintf("cols=%d/rowgroups=%d/%s", n, r, mode.name), func(b *testing.B) {
					b.SetBytes(int64(len(buf)))
					b.ReportAllocs()
					for b.Loop() {
						var fm FileMetaData
						if err := mode.decode(buf, &fm); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

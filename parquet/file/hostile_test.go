package file

import (
	"bytes"
	"encoding/binary"
	"io"
	"runtime"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// hugeNullPage builds a file whose single optional INT32 column has one v1
// data page claiming n values, all null: the definition levels are one RLE
// run of n zeros, a handful of bytes.
func hugeNullPage(n int64) []byte {
	var levels []byte
	levels = binary.AppendUvarint(levels, uint64(n)<<1) // RLE run header
	levels = append(levels, 0)                          // value 0, bit width 1
	body := binary.LittleEndian.AppendUint32(nil, uint32(len(levels)))
	body = append(body, levels...)
	hdr := format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(body)), CompressedPageSize: int32(len(body)),
		DataPageHeader: &format.DataPageHeader{NumValues: int32(n), Encoding: format.Plain,
			DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}}
	file := []byte("PAR1")
	off := int64(len(file))
	file = format.Marshal(file, &hdr)
	file = append(file, body...)
	size := int64(len(file)) - off
	meta := format.FileMetaData{Version: 1, NumRows: n,
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: format.Some(int32(1))},
			{Name: "x", Type: format.Some(format.Int32), RepetitionType: format.Some(format.Optional)}},
		RowGroups: []format.RowGroup{{NumRows: n, TotalByteSize: size, Columns: []format.ColumnChunk{{FileOffset: off,
			MetaData: &format.ColumnMetaData{Type: format.Int32, Encodings: []format.Encoding{format.RLE, format.Plain},
				PathInSchema: []string{"x"}, Codec: format.Uncompressed, NumValues: n, TotalUncompressedSize: size,
				TotalCompressedSize: size, DataPageOffset: off}}}}}}
	footer := format.Marshal(nil, &meta)
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// TestHugeRLEPageBoundedMemory reads a page that claims 2^26 null values (128 MiB of levels if decoded at once) in
// a few bytes: the first batches must come back without allocating memory
// proportional to the claim.
func TestHugeRLEPageBoundedMemory(t *testing.T) {
	data := hugeNullPage(1 << 26)
	f, err := Open(bytes.NewReader(data), int64(len(data)), Options{Name: "huge.parquet"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.NewReader(ReaderOptions{BatchSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < 10; i++ {
		b, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if b.NumRows != 1000 || b.Columns[0].NullCount() != 1000 {
			t.Fatalf("batch of %d rows, %d nulls", b.NumRows, b.Columns[0].NullCount())
		}
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
		t.Fatalf("reading 10 small batches allocated %d MiB", grew>>20)
	}
	// Skipping over the rest stays bounded too and ends cleanly.
	if err := r.SkipRows(1<<26 - 10_000); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last row: %v", err)
	}
}

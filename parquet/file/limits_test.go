package file

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"
	"testing"

	"github.com/carquet-go/carquet/parquet/compress"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/thrift"
)

// column describes the one column of a test file, and its chunk.
type column struct {
	typ        format.Type
	rep        format.FieldRepetitionType
	codec      format.CompressionCodec
	rows, vals int64
}

// columnFile builds a file of one row group of one column x, whose chunk
// is the given pages: a dictionary page (nil for none) and a data page,
// each a header and a body.
func columnFile(c column, dictHdr, dictBody, hdr, body []byte) []byte {
	file := []byte("PAR1")
	start := int64(len(file))
	var dictOff format.Opt[int64]
	if dictHdr != nil {
		dictOff = format.Some(start)
		file = append(append(file, dictHdr...), dictBody...)
	}
	dataOff := int64(len(file))
	file = append(append(file, hdr...), body...)
	size := int64(len(file)) - start
	meta := format.FileMetaData{Version: 1, NumRows: c.rows,
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: format.Some(int32(1))},
			{Name: "x", Type: format.Some(c.typ), RepetitionType: format.Some(c.rep)}},
		RowGroups: []format.RowGroup{{NumRows: c.rows, TotalByteSize: size, Columns: []format.ColumnChunk{{FileOffset: start,
			MetaData: &format.ColumnMetaData{Type: c.typ, Encodings: []format.Encoding{format.RLE, format.Plain, format.RLEDictionary},
				PathInSchema: []string{"x"}, Codec: c.codec, NumValues: c.vals, TotalUncompressedSize: size,
				TotalCompressedSize: size, DataPageOffset: dataOff, DictionaryPageOffset: dictOff}}}}}}
	footer := format.Marshal(nil, &meta)
	file = append(file, footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// onePageFile builds a file whose single required column (of type typ)
// holds the given raw page header and body bytes, as one chunk of codec.
func onePageFile(typ format.Type, codec format.CompressionCodec, numValues int64, header, body []byte) []byte {
	return columnFile(column{typ, format.Required, codec, numValues, numValues}, nil, nil, header, body)
}

// rleRun appends an RLE run of count copies of the one-byte value v.
func rleRun(dst []byte, count int64, v byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(count)<<1), v)
}

// dictPages returns the headers of a dictionary page of one value (dict,
// stored as zdict) and of a data page of n values naming it (body, stored
// as zbody).
func dictPages(dict, zdict, body, zbody []byte, n int64) (dictHdr, hdr []byte) {
	dictHdr = format.Marshal(nil, &format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(dict)),
		CompressedPageSize: int32(len(zdict)), DictionaryPageHeader: &format.DictionaryPageHeader{NumValues: 1, Encoding: format.Plain}})
	hdr = format.Marshal(nil, &format.PageHeader{Type: format.DataPage, UncompressedPageSize: int32(len(body)),
		CompressedPageSize: int32(len(zbody)), DataPageHeader: &format.DataPageHeader{NumValues: int32(n),
			Encoding: format.RLEDictionary, DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE}})
	return dictHdr, hdr
}

// readBytes opens data and reads every batch, returning the first error.
func readBytes(data []byte, opts Options) error {
	f, err := Open(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		return err
	}
	r, err := f.NewReader(ReaderOptions{BatchSize: 1024})
	if err != nil {
		return err
	}
	for {
		if _, err := r.Next(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// allocDuring returns the bytes allocated while fn runs.
func allocDuring(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// zigzag32 is the compact protocol's varint of an i32 field value, here
// allowed to be any uint64 so that out-of-range claims can be written.
func zigzagVarint(v int64) []byte {
	return binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
}

// TestHugePageClaims gives pages whose headers claim gigabytes of
// uncompressed data in a few bytes: each read must fail with ErrCorrupt (or
// ErrLimit when a limit is set) without allocating anything near the claim.
func TestHugePageClaims(t *testing.T) {
	values := make([]byte, 40) // ten PLAIN INT32 values
	for i := range 10 {
		binary.LittleEndian.PutUint32(values[4*i:], uint32(i))
	}
	const bound = 32 << 20

	// 4 GiB does not fit the header's i32: the Thrift decoder must refuse
	// it rather than wrap it around to a small or negative size.
	t.Run("4GiB", func(t *testing.T) {
		const marker = 0x5a5a5a
		hdr := format.Marshal(nil, &format.PageHeader{Type: format.DataPage, UncompressedPageSize: marker,
			CompressedPageSize: int32(len(values)),
			DataPageHeader:     &format.DataPageHeader{NumValues: 10, Encoding: format.Plain}})
		hdr = bytes.Replace(hdr, zigzagVarint(marker), zigzagVarint(4<<30), 1)
		data := onePageFile(format.Int32, format.Uncompressed, 10, hdr, values)
		var err error
		grew := allocDuring(func() { err = readBytes(data, Options{Name: "4gib.parquet"}) })
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v, want ErrCorrupt", err)
		}
		var te *thrift.Error
		if !errors.As(err, &te) {
			t.Errorf("err = %v, want the Thrift decoder's range error", err)
		}
		if grew > bound {
			t.Errorf("allocated %d MiB", grew>>20)
		}
	})

	for _, codec := range []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Gzip,
		format.Brotli, format.Zstd, format.LZ4Raw, format.LZ4} {
		c, err := compress.Lookup(codec)
		if err != nil {
			t.Fatal(err)
		}
		body, err := c.Encode(nil, values)
		if err != nil {
			t.Fatal(err)
		}
		for _, v2 := range []bool{false, true} {
			name := codec.String()
			h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: math.MaxInt32,
				CompressedPageSize: int32(len(body))}
			if v2 {
				name += "/v2"
				h.Type = format.DataPageV2
				h.DataPageHeaderV2 = &format.DataPageHeaderV2{NumValues: 10, NumRows: 10, Encoding: format.Plain}
			} else {
				h.DataPageHeader = &format.DataPageHeader{NumValues: 10, Encoding: format.Plain}
			}
			t.Run(name, func(t *testing.T) {
				data := onePageFile(format.Int32, codec, 10, format.Marshal(nil, &h), body)
				var err error
				grew := allocDuring(func() { err = readBytes(data, Options{Name: "huge.parquet"}) })
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("err = %v, want ErrCorrupt", err)
				}
				if grew > bound {
					t.Errorf("allocated %d MiB for a page claiming 2 GiB", grew>>20)
				}
				// With a limit the claim is refused before any decoding.
				err = readBytes(data, Options{Name: "huge.parquet", Limits: Limits{MaxPageSize: 1 << 20}})
				if !errors.Is(err, ErrLimit) || errors.Is(err, ErrCorrupt) {
					t.Fatalf("with MaxPageSize: err = %v, want ErrLimit", err)
				}
				var fe *Error
				if !errors.As(err, &fe) || fe.File != "huge.parquet" || fe.Column != "x" || fe.RowGroup != 0 || fe.Offset != 4 {
					t.Errorf("error does not locate the page: %#v", fe)
				}
			})
		}
	}

	// A dictionary page claiming 2^31-1 values in a few bytes.
	t.Run("dictionary", func(t *testing.T) {
		dict := binary.LittleEndian.AppendUint32(nil, 1)
		dict = append(dict, 'a')
		h := format.PageHeader{Type: format.DictionaryPage, UncompressedPageSize: int32(len(dict)),
			CompressedPageSize:   int32(len(dict)),
			DictionaryPageHeader: &format.DictionaryPageHeader{NumValues: math.MaxInt32, Encoding: format.Plain}}
		data := onePageFile(format.ByteArray, format.Uncompressed, 10, format.Marshal(nil, &h), dict)
		var err error
		grew := allocDuring(func() { err = readBytes(data, Options{Name: "dict.parquet"}) })
		if !errors.Is(err, ErrCorrupt) {
			t.Fatalf("err = %v, want ErrCorrupt", err)
		}
		if grew > bound {
			t.Errorf("allocated %d MiB", grew>>20)
		}
		err = readBytes(data, Options{Name: "dict.parquet", Limits: Limits{MaxDictionarySize: 4}})
		if !errors.Is(err, ErrLimit) {
			t.Fatalf("with MaxDictionarySize: err = %v, want ErrLimit", err)
		}
	})
}

// TestLimitsAcceptValidFiles checks that limits above a file's real sizes
// change nothing, and that the footer and column limits apply.
func TestLimitsAcceptValidFiles(t *testing.T) {
	values := make([]byte, 40)
	h := format.PageHeader{Type: format.DataPage, UncompressedPageSize: 40, CompressedPageSize: 40,
		DataPageHeader: &format.DataPageHeader{NumValues: 10, Encoding: format.Plain}}
	data := onePageFile(format.Int32, format.Uncompressed, 10, format.Marshal(nil, &h), values)
	if err := readBytes(data, Options{Limits: Limits{MaxPageSize: 40, MaxDictionarySize: 1, MaxColumns: 1, MaxFooterSize: 1 << 10}}); err != nil {
		t.Fatal(err)
	}
	if err := readBytes(data, Options{Limits: Limits{MaxPageSize: 39}}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxPageSize 39: %v", err)
	}
	if err := readBytes(data, Options{Limits: Limits{MaxFooterSize: 16}}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxFooterSize 16: %v", err)
	}
	two := hugeNullPage(4) // one column; ask for none
	if err := readBytes(two, Options{Limits: Limits{MaxColumns: 1}}); err != nil {
		t.Errorf("MaxColumns 1, one column: %v", err)
	}
}

// longListFile builds a file of one row: a repeated INT32 column holding n
// copies of 7, dictionary-encoded, so that the whole row takes a few dozen
// bytes whatever n is.
func longListFile(n int64) []byte {
	withLen := func(dst, levels []byte) []byte {
		return append(binary.LittleEndian.AppendUint32(dst, uint32(len(levels))), levels...)
	}
	body := withLen(nil, rleRun(rleRun(nil, 1, 0), n-1, 1)) // repetition: a new row, then n-1 continuations
	body = withLen(body, rleRun(nil, n, 1))                 // definition: every value present
	body = rleRun(append(body, 1), n, 0)                    // dictionary indices, bit width 1: all 0
	dict := binary.LittleEndian.AppendUint32(nil, 7)
	dictHdr, hdr := dictPages(dict, dict, body, body, n)
	return columnFile(column{format.Int32, format.Repeated, format.Uncompressed, 1, n}, dictHdr, dict, hdr, body)
}

// TestMaxBatchValues reads a row of 2^20 values stored in a few bytes:
// with MaxBatchValues below that it fails with ErrLimit having allocated
// about what the limit allows; without, the row reads whole and right.
func TestMaxBatchValues(t *testing.T) {
	const n = 1 << 20
	data := longListFile(n)
	var err error
	grew := allocDuring(func() {
		err = readBytes(data, Options{Name: "list.parquet", Limits: Limits{MaxBatchValues: 1 << 14}})
	})
	if !errors.Is(err, ErrLimit) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if grew > 8<<20 {
		t.Errorf("allocated %d MiB for a limit of 2^14 values", grew>>20)
	}
	f, err := Open(bytes.NewReader(data), int64(len(data)), Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.NewReader(ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	list := b.Columns[0]
	if b.NumRows != 1 || len(list.Offsets) != 2 || list.Offsets[1] != n {
		t.Fatalf("%d rows, offsets %v", b.NumRows, list.Offsets)
	}
	for i, v := range list.Children[0].Int32s[:n] {
		if v != 7 {
			t.Fatalf("value %d is %d", i, v)
		}
	}
}

// emptyStructsFooter builds a file whose footer holds a list of n empty
// structs as FileMetaData field id: one byte each in the file, a whole Go
// struct each decoded.
func emptyStructsFooter(field byte, n int) []byte {
	footer := []byte{field<<4 | byte(thrift.List), 0xf0 | byte(thrift.Struct)}
	footer = binary.AppendUvarint(footer, uint64(n))
	footer = append(footer, make([]byte, n+1)...) // n stops, then FileMetaData's
	file := append([]byte("PAR1"), footer...)
	file = binary.LittleEndian.AppendUint32(file, uint32(len(footer)))
	return append(file, "PAR1"...)
}

// TestFooterOfEmptyStructs checks that footers whose lists would decode to
// a hundred times their size fail with ErrLimit, having allocated little.
func TestFooterOfEmptyStructs(t *testing.T) {
	for _, tc := range []struct {
		name  string
		field byte
	}{{"schema", 2}, {"row groups", 4}, {"key-value metadata", 5}} {
		for _, lazy := range []bool{false, true} {
			data := emptyStructsFooter(tc.field, 1<<20)
			var err error
			grew := allocDuring(func() { _, err = Open(bytes.NewReader(data), int64(len(data)), Options{LazyColumns: lazy}) })
			if !errors.Is(err, ErrLimit) || errors.Is(err, ErrCorrupt) {
				t.Errorf("%s (lazy %v): err = %v, want ErrLimit", tc.name, lazy, err)
			}
			if grew > 16<<20 {
				t.Errorf("%s (lazy %v): allocated %d MiB for a footer of 1 MiB", tc.name, lazy, grew>>20)
			}
		}
	}
	// A lower limit refuses a real footer; the default reads it.
	data := hugeNullPage(4)
	if _, err := Open(bytes.NewReader(data), int64(len(data)), Options{Limits: Limits{MaxMetadataMemory: 64}}); !errors.Is(err, ErrLimit) {
		t.Errorf("MaxMetadataMemory 64: %v", err)
	}
	if _, err := Open(bytes.NewReader(data), int64(len(data)), Options{}); err != nil {
		t.Error(err)
	}
}

// dictBombFile builds a file of n rows of one required BYTE_ARRAY column,
// each naming (in one RLE run of dictionary indices) the single dictionary
// entry: strLen bytes of 'a', zstd-compressed to almost nothing.
func dictBombFile(strLen, n int) []byte {
	body := rleRun([]byte{1}, int64(n), 0)
	dict := binary.LittleEndian.AppendUint32(nil, uint32(strLen))
	dict = append(dict, bytes.Repeat([]byte{'a'}, strLen)...)
	z, _ := compress.Lookup(format.Zstd)
	zdict, _ := z.Encode(nil, dict)
	zbody, _ := z.Encode(nil, body)
	dictHdr, hdr := dictPages(dict, zdict, body, zbody, int64(n))
	return columnFile(column{format.ByteArray, format.Required, format.Zstd, int64(n), int64(n)}, dictHdr, zdict, hdr, zbody)
}

// TestDictionaryBomb reads a file of a few hundred bytes whose 1000 rows
// each name a 4 MiB dictionary entry: 4 GiB to materialise. It must fail
// with ErrLimit before gathering, and read in batches small enough.
func TestDictionaryBomb(t *testing.T) {
	data := dictBombFile(4<<20, 1000)
	if len(data) > 2000 {
		t.Fatalf("the file takes %d bytes", len(data))
	}
	var err error
	grew := allocDuring(func() { err = readBytes(data, Options{Name: "bomb.parquet"}) })
	if !errors.Is(err, ErrLimit) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("err = %v, want ErrLimit", err)
	}
	if grew > 64<<20 {
		t.Errorf("allocated %d MiB", grew>>20)
	}
	opts := Options{Limits: Limits{MaxBatchBytes: 8 << 20}}
	f, err := Open(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.NewReader(ReaderOptions{BatchSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); !errors.Is(err, ErrLimit) {
		t.Fatalf("3 rows of 4 MiB with MaxBatchBytes 8 MiB: %v", err)
	}
	r, err = f.NewReader(ReaderOptions{BatchSize: 2, RowGroups: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	if v := b.Columns[0]; b.NumRows != 2 || len(v.Bytes(1)) != 4<<20 || v.Bytes(1)[12345] != 'a' {
		t.Fatalf("%d rows", b.NumRows)
	}
}

// TestColumnMetadataListsCharged checks that the lists inside column
// metadata (decoded by parquet/format's fast path) count against
// MaxMetadataMemory too, eagerly and lazily.
func TestColumnMetadataListsCharged(t *testing.T) {
	path := make([]string, 100_000) // empty names: one byte each
	meta := format.FileMetaData{Version: 1, NumRows: 1,
		Schema: []format.SchemaElement{{Name: "schema", NumChildren: format.Some(int32(1))},
			{Name: "x", Type: format.Some(format.Int32), RepetitionType: format.Some(format.Required)}},
		RowGroups: []format.RowGroup{{NumRows: 1, Columns: []format.ColumnChunk{{FileOffset: 4,
			MetaData: &format.ColumnMetaData{Type: format.Int32, PathInSchema: path, DataPageOffset: 4}}}}}}
	footer := format.Marshal(nil, &meta)
	data := append([]byte("PAR1"), footer...)
	data = binary.LittleEndian.AppendUint32(data, uint32(len(footer)))
	data = append(data, "PAR1"...)
	for _, lazy := range []bool{false, true} {
		opts := Options{LazyColumns: lazy, Limits: Limits{MaxMetadataMemory: 1 << 20}}
		f, err := Open(bytes.NewReader(data), int64(len(data)), opts)
		if err == nil {
			_, err = f.ColumnChunk(0, 0)
		}
		if !errors.Is(err, ErrLimit) {
			t.Errorf("lazy %v: err = %v, want ErrLimit", lazy, err)
		}
	}
}

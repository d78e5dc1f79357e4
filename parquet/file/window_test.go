package file_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// TestReadWindows reads chunks through windows of every size from a few
// bytes (every page header and body cut somewhere) to more than a chunk,
// uncompressed and compressed, with dictionary and plain pages, nulls and
// a page larger than the window, in plaintext and encrypted (page headers
// and pages are then modules of their own, cut by windows too): the values
// are those of a read through a mapping, and the bytes read are counted
// once.
func TestReadWindows(t *testing.T) {
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.String("s"), writer.Double("x").Required())
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	rng := rand.New(rand.NewPCG(3, 4))
	id := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	s := &vector.Vector{Kind: vector.ByteArray, Len: n, Offsets: []int32{0}, Valid: vector.NewBitmap(n, false)}
	x := &vector.Vector{Kind: vector.Float64, Len: n, Float64s: make([]float64, n)}
	for i := range n {
		id.Int64s[i] = int64(i) * 3
		if i%7 != 0 {
			s.Valid.Set(i)
			s.Data = append(s.Data, fmt.Sprintf("v%d", rng.IntN(40))...)
		}
		s.Offsets = append(s.Offsets, int32(len(s.Data)))
		x.Float64s[i] = rng.Float64()
	}
	footerKey, sKey := []byte("0123456789012345"), []byte("s-column-key-16b")
	encs := []*writer.Encryption{nil,
		{FooterKey: footerKey, ColumnKeys: map[string]writer.ColumnKey{"s": {Key: sKey}, "x": {}}},
		{FooterKey: footerKey, Algorithm: writer.AesGcmCtr, PlaintextFooter: true}}
	var first []string
	for i, codec := range []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Uncompressed, format.Snappy, format.Snappy} {
		var buf writer.Buffer
		opts := file.Options{}
		wopts := []writer.Option{writer.WithCompression(codec), writer.WithDataPageSize(700),
			writer.WithDataPageSizeFor("x", 20000), writer.WithRowGroupRows(1200)}
		if e := encs[i%len(encs)]; e != nil {
			wopts = append(wopts, writer.WithEncryption(*e))
			opts.Decryption = &file.Decryption{FooterKey: footerKey, ColumnKeys: map[string][]byte{"s": sKey}}
		}
		w, err := writer.New(&buf, sch, wopts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBatch([]*vector.Vector{id, s, x}); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		var chunkBytes int64
		f, err := file.Open(bytes.NewReader(data), int64(len(data)), opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, rg := range f.Meta.RowGroups {
			for _, cc := range rg.Columns {
				chunkBytes += cc.MetaData.TotalCompressedSize
			}
		}
		want, _ := readAllWindowed(t, data, 1<<20, opts)
		if first == nil {
			first = want
		} else if !reflect.DeepEqual(want, first) {
			t.Fatalf("case %d: values differ from the first file's", i)
		}
		for _, size := range []int64{1, 7, 64, 333, 4096, 1 << 20} {
			got, read := readAllWindowed(t, data, size, opts)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%v, window %d: values differ from a read in one window", codec, size)
			}
			if read != chunkBytes {
				t.Errorf("%v, window %d: %d bytes counted as read, the chunks hold %d", codec, size, read, chunkBytes)
			}
		}
	}
}

// readAllWindowed reads every column of data with the iterator's window set
// to size and returns the rows (as strings) and the bytes counted as read.
func readAllWindowed(t *testing.T, data []byte, size int64, opts file.Options) ([]string, int64) {
	t.Helper()
	defer file.SetWindowSize(size)()
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), opts)
	if err != nil {
		t.Fatal(err)
	}
	var stats file.ReadStats
	r, err := f.NewReader(file.ReaderOptions{BatchSize: 250, Stats: &stats})
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for {
		b, err := r.Next()
		if err == io.EOF {
			return rows, stats.BytesRead.Load()
		}
		if err != nil {
			t.Fatalf("window %d: %v", size, err)
		}
		for i := range b.NumRows {
			s := "NULL"
			if c := b.Columns[1]; c.Valid == nil || c.Valid.Get(i) {
				s = string(c.Bytes(i))
			}
			rows = append(rows, fmt.Sprint(b.Columns[0].Int64s[i], s, b.Columns[2].Float64s[i]))
		}
	}
}

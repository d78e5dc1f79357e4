package file_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// The corruption corpus: valid files, written by carquet's writer with
// several codecs, encodings and page versions and taken from the
// conformance suite, are truncated, cut and bit-flipped at every
// interesting place (every byte of the footer and of every page header,
// page boundaries, and a sample of page bodies and of everything else).
// Every case must give an error or the original data: never a panic, a
// hang or an allocation out of proportion to the file. With checksums
// verified, a flipped byte in a page body must be reported as ErrChecksum.

// corruptCaseTimeout is how long one read of a damaged file may take.
const corruptCaseTimeout = 10 * time.Second

// corruptLimits bound page sizes, as a careful reader of untrusted files
// would: claims above them fail fast instead of being honoured.
var corruptLimits = file.Limits{MaxPageSize: 8 << 20, MaxDictionarySize: 8 << 20}

type corpusFile struct {
	name string
	data []byte
	crc  bool // every page carries a CRC
}

func writtenCorpus(t *testing.T) []corpusFile {
	type variant struct {
		name string
		crc  bool
		opts []writer.Option
	}
	variants := []variant{
		{"plain-v1-uncompressed", true, []writer.Option{writer.WithDictionary(false)}},
		{"dict-v2-snappy", true, []writer.Option{writer.WithCompression(format.Snappy), writer.WithDataPageVersion(2)}},
		{"delta-v1-zstd", true, []writer.Option{writer.WithCompression(format.Zstd), writer.WithDictionary(false),
			writer.WithEncodingFor("id", format.DeltaBinaryPacked), writer.WithEncodingFor("name", format.DeltaByteArray)}},
		{"bss-v2-gzip", true, []writer.Option{writer.WithCompression(format.Gzip), writer.WithDataPageVersion(2),
			writer.WithDictionary(false), writer.WithEncodingFor("score", format.ByteStreamSplit),
			writer.WithEncodingFor("name", format.DeltaLengthByteArray)}},
		{"dict-v1-lz4raw-nochecksum", false, []writer.Option{writer.WithCompression(format.LZ4Raw), writer.WithPageChecksum(false)}},
	}
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.String("name"), writer.Double("score"),
		writer.List("tags", writer.Int32("tag")))
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusFile
	for _, v := range variants {
		var buf writer.Buffer
		opts := append([]writer.Option{writer.WithPageChecksum(true), writer.WithDataPageSize(256),
			writer.WithRowGroupRows(150), writer.WithBloomFilterFor("id", 300, 0.05)}, v.opts...)
		w, err := writer.New(&buf, sch, opts...)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range 300 {
			var name any
			if i%7 != 0 {
				name = fmt.Sprintf("name-%d", rng.IntN(40))
			}
			tags := make([]any, rng.IntN(4))
			for j := range tags {
				tags[j] = int32(rng.IntN(1000))
			}
			if err := w.WriteRow(int64(i*3), name, rng.Float64(), tags); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		out = append(out, corpusFile{name: v.name, data: bytes.Clone(buf.Bytes()), crc: v.crc})
	}
	for _, rel := range []string{"data/alltypes_plain.parquet", "data/datapage_v2.snappy.parquet",
		"data/nested_lists.snappy.parquet", "data/delta_length_byte_array.parquet", "data/rle-dict-snappy-checksum.parquet"} {
		b, err := os.ReadFile(testfiles.Path(t, rel))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, corpusFile{name: rel, data: b})
	}
	return out
}

// readOutcome is what reading a (damaged) file gave.
type readOutcome struct {
	err   error
	rows  uint64 // a hash of every value, by value.Get, in order
	alloc uint64
}

// readWhole opens data and reads every value of every row group.
func readWhole(data []byte, verify bool) readOutcome {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h := fnv.New64a()
	err := func() error {
		f, err := file.Open(bytes.NewReader(data), int64(len(data)),
			file.Options{Name: "corrupt.parquet", SkipChecksums: !verify, Limits: corruptLimits})
		if err != nil {
			return err
		}
		r, err := f.NewReader(file.ReaderOptions{BatchSize: 100})
		if err != nil {
			return err
		}
		for {
			b, err := r.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			for i := range b.NumRows {
				for c, v := range b.Columns {
					fmt.Fprintf(h, "%#v|", value.Get(b.Fields[c], v, i))
				}
			}
		}
	}()
	runtime.ReadMemStats(&after)
	return readOutcome{err: err, rows: h.Sum64(), alloc: after.TotalAlloc - before.TotalAlloc}
}

// pageSpan is one page of a column chunk in the file.
type pageSpan struct {
	header, body, end int64 // header start, body start, body end
	hdr               format.PageHeader
}

// pageSpans lists the pages of every column chunk.
func pageSpans(t *testing.T, data []byte) []pageSpan {
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []pageSpan
	for rg := range f.NumRowGroups() {
		for col := range f.Schema.Leaves {
			c, err := f.Chunk(rg, col)
			if err != nil {
				t.Fatal(err)
			}
			it, err := c.Pages()
			if err != nil {
				t.Fatal(err)
			}
			for !it.Done() {
				p, err := it.Next()
				if err != nil {
					t.Fatal(err)
				}
				end := it.Offset()
				out = append(out, pageSpan{header: p.Offset, body: end - int64(p.Header.CompressedPageSize), end: end, hdr: *p.Header})
			}
		}
	}
	return out
}

// footerStart is the file offset of the footer.
func footerStart(data []byte) int64 {
	return int64(len(data)) - 8 - int64(binary.LittleEndian.Uint32(data[len(data)-8:]))
}

// decodingView keeps the parts of a footer that decide what the values
// read are: a damaged footer that still decodes to the same view must
// give the same data.
type decodingView struct {
	Schema []format.SchemaElement
	Groups [][]chunkView
	Rows   []int64
}

type chunkView struct {
	Type                               format.Type
	Codec                              format.CompressionCodec
	NumValues, DataPage, Dict, Size    int64
	Path                               []string
	OffsetIndexOffset, ColumnIndexSize int64
}

func viewOf(data []byte) (decodingView, bool) {
	start := footerStart(data)
	if start < 4 || start > int64(len(data))-8 {
		return decodingView{}, false
	}
	var m format.FileMetaData
	if _, err := format.Unmarshal(data[start:len(data)-8], &m); err != nil {
		return decodingView{}, false
	}
	v := decodingView{Schema: m.Schema}
	for _, rg := range m.RowGroups {
		v.Rows = append(v.Rows, rg.NumRows)
		var g []chunkView
		for _, cc := range rg.Columns {
			if cc.MetaData == nil {
				g = append(g, chunkView{})
				continue
			}
			md := cc.MetaData
			g = append(g, chunkView{Type: md.Type, Codec: md.Codec, NumValues: md.NumValues, DataPage: md.DataPageOffset,
				Dict: md.DictionaryPageOffset.Value, Size: md.TotalCompressedSize, Path: md.PathInSchema})
		}
		v.Groups = append(v.Groups, g)
	}
	return v, true
}

// decodingHeader keeps the page header fields that decide the values.
func decodingHeader(b []byte) (format.PageHeader, bool) {
	var h format.PageHeader
	if _, err := format.Unmarshal(b, &h); err != nil {
		return h, false
	}
	h.CRC = format.PageHeader{}.CRC
	if h.DataPageHeader != nil {
		d := *h.DataPageHeader
		d.Statistics = nil
		h.DataPageHeader = &d
	}
	if h.DataPageHeaderV2 != nil {
		d := *h.DataPageHeaderV2
		d.Statistics = nil
		h.DataPageHeaderV2 = &d
	}
	if h.DictionaryPageHeader != nil {
		d := *h.DictionaryPageHeader
		d.IsSorted = format.DictionaryPageHeader{}.IsSorted
		h.DictionaryPageHeader = &d
	}
	return h, true
}

func TestCorruptionCorpus(t *testing.T) {
	start := time.Now()
	corpus := writtenCorpus(t)
	cases, errs := 0, 0
	for _, cf := range corpus {
		t.Run(cf.name, func(t *testing.T) {
			ref := readWhole(cf.data, true)
			if ref.err != nil {
				t.Fatalf("the undamaged file: %v", ref.err)
			}
			spans := pageSpans(t, cf.data)
			size := int64(len(cf.data))
			fstart := footerStart(cf.data)
			origView, _ := viewOf(cf.data)
			rng := rand.New(rand.NewPCG(uint64(size), 5))
			// Allocation bound: generous for the file, far below any claim.
			bound := uint64(64<<20) + 64*uint64(size)

			run := func(what string, damaged []byte, verify bool, check func(o readOutcome) error) {
				t.Helper()
				cases++
				done := make(chan readOutcome, 1)
				go func() {
					defer func() {
						if p := recover(); p != nil {
							done <- readOutcome{err: fmt.Errorf("PANIC: %v", p)}
						}
					}()
					done <- readWhole(damaged, verify)
				}()
				var o readOutcome
				select {
				case o = <-done:
				case <-time.After(corruptCaseTimeout):
					t.Fatalf("%s: no result after %v (a hang)", what, corruptCaseTimeout)
				}
				if o.err != nil && len(o.err.Error()) > 6 && o.err.Error()[:6] == "PANIC:" {
					t.Fatalf("%s: %v", what, o.err)
				}
				if o.alloc > bound {
					t.Errorf("%s: allocated %d MiB reading a %d-byte file", what, o.alloc>>20, size)
				}
				if o.err != nil {
					errs++
				}
				if err := check(o); err != nil {
					t.Errorf("%s: %v", what, err)
				}
			}
			errorOrSame := func(o readOutcome) error {
				if o.err == nil && o.rows != ref.rows {
					return errors.New("read different data without an error")
				}
				return nil
			}

			// Truncations: every length in the footer region, each page
			// boundary, and a sample of the rest. Without its tail the file
			// cannot be read at all.
			var cuts []int64
			for k := fstart - 16; k < size; k++ {
				cuts = append(cuts, k)
			}
			for _, s := range spans {
				cuts = append(cuts, s.header, s.body, s.end)
			}
			for range 40 {
				cuts = append(cuts, rng.Int64N(size))
			}
			for _, k := range cuts {
				if k < 0 || k >= size {
					continue
				}
				run(fmt.Sprintf("truncated to %d", k), cf.data[:k], true, func(o readOutcome) error {
					if o.err == nil {
						return errors.New("a truncated file read without an error")
					}
					return nil
				})
			}

			// Cuts that keep the footer: the data from k up to the footer is
			// lost, so that offsets point past it (into the footer).
			for _, s := range spans {
				for _, k := range []int64{s.header, s.body, s.end - 1} {
					if k < 4 || k >= fstart {
						continue
					}
					damaged := append(bytes.Clone(cf.data[:k]), cf.data[fstart:]...)
					run(fmt.Sprintf("data cut at %d", k), damaged, true, errorOrSame)
				}
			}

			// The footer truncated inside: its first j bytes, with a length
			// and magic that agree.
			footer := cf.data[fstart : size-8]
			for j := 0; j < len(footer); j++ {
				damaged := append(bytes.Clone(cf.data[:fstart]), footer[:j]...)
				damaged = binary.LittleEndian.AppendUint32(damaged, uint32(j))
				damaged = append(damaged, "PAR1"...)
				run(fmt.Sprintf("footer cut to %d of %d bytes", j, len(footer)), damaged, true, errorOrSame)
			}

			// Flips in the footer (every byte; the length and magic too).
			for k := fstart; k < size; k++ {
				for _, mask := range []byte{0xff, 0x01} {
					damaged := bytes.Clone(cf.data)
					damaged[k] ^= mask
					run(fmt.Sprintf("footer byte %d ^ %#x", k, mask), damaged, true, func(o readOutcome) error {
						if o.err != nil || o.rows == ref.rows {
							return nil
						}
						if v, ok := viewOf(damaged); ok && reflect.DeepEqual(v, origView) {
							return errors.New("the footer decodes the same but the data differ")
						}
						return nil // the damaged footer describes another file
					})
				}
			}

			// Flips in page headers (every byte) and bodies (a sample).
			for _, s := range spans {
				origHdr, _ := decodingHeader(cf.data[s.header:s.body])
				for k := s.header; k < s.body; k++ {
					for _, mask := range []byte{0xff, 0x01, 0x80} {
						damaged := bytes.Clone(cf.data)
						damaged[k] ^= mask
						run(fmt.Sprintf("page header byte %d ^ %#x", k, mask), damaged, true, func(o readOutcome) error {
							if o.err != nil || o.rows == ref.rows {
								return nil
							}
							if h, ok := decodingHeader(damaged[s.header:]); ok && reflect.DeepEqual(h, origHdr) {
								return errors.New("the page header decodes the same but the data differ")
							}
							return nil
						})
					}
				}
				body := s.end - s.body
				if body == 0 {
					continue
				}
				for range min(int(body), 6) {
					k := s.body + rng.Int64N(body)
					damaged := bytes.Clone(cf.data)
					damaged[k] ^= byte(1 + rng.IntN(255))
					run(fmt.Sprintf("page body byte %d (no checksum check)", k), damaged, false, func(readOutcome) error { return nil })
					if cf.crc && s.hdr.CRC.Set {
						run(fmt.Sprintf("page body byte %d", k), damaged, true, func(o readOutcome) error {
							if !errors.Is(o.err, file.ErrChecksum) {
								return fmt.Errorf("err = %v, want ErrChecksum", o.err)
							}
							return nil
						})
					}
				}
			}

			// Random flips anywhere, a few bytes at a time.
			for range 200 {
				damaged := bytes.Clone(cf.data)
				for range 1 + rng.IntN(4) {
					damaged[rng.IntN(len(damaged))] ^= byte(1 + rng.IntN(255))
				}
				run("random flips", damaged, false, func(readOutcome) error { return nil })
			}
		})
	}
	t.Logf("%d damaged files read (%d errors) in %v", cases, errs, time.Since(start).Round(time.Millisecond))
}

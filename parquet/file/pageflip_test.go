package file_test

import (
	"bytes"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// TestPageByteFlips writes small files with carquet's writer (an int64, a
// double, a dictionary-encoded string and a nullable column; several data
// pages per column chunk; data pages v1 and v2; uncompressed and snappy),
// flips every byte of every dictionary and data page — header and body —
// and reads the whole file with the default options (pages verified).
// Every flip must give an error that names the file, the row group, the
// column and the offset of the damaged page: never values that differ,
// and (unlike TestCorruptionCorpus, which also accepts other data when the
// damaged header decodes differently) not even the same values.
func TestPageByteFlips(t *testing.T) {
	start := time.Now()
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.Double("score").Required(),
		writer.String("name").Required(), writer.Int64("maybe").Optional())
	if err != nil {
		t.Fatal(err)
	}
	type variant struct {
		v2    bool
		codec format.CompressionCodec
	}
	var variants []variant
	for _, v2 := range []bool{false, true} {
		for _, codec := range []format.CompressionCodec{format.Uncompressed, format.Snappy} {
			variants = append(variants, variant{v2, codec})
		}
	}
	total := 0
	for _, v := range variants {
		version := 1
		if v.v2 {
			version = 2
		}
		name := fmt.Sprintf("v%d-%v", version, v.codec)
		t.Run(name, func(t *testing.T) {
			var buf writer.Buffer
			w, err := writer.New(&buf, sch, writer.WithDataPageVersion(version), writer.WithCompression(v.codec),
				writer.WithPageRowLimit(30), writer.WithRowGroupRows(60),
				writer.WithDictionaryFor("id", false), writer.WithDictionaryFor("score", false),
				writer.WithDictionaryFor("maybe", false))
			if err != nil {
				t.Fatal(err)
			}
			for i := range 120 {
				var maybe any
				if i%3 != 0 {
					maybe = int64(i * i)
				}
				if err := w.WriteRow(int64(i*7-100), float64(i)/3, fmt.Sprintf("name-%d", i%9), maybe); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			data := bytes.Clone(buf.Bytes())
			const fileName = "flip.parquet"
			ref, err := readDigest(data, fileName)
			if err != nil {
				t.Fatalf("the undamaged file: %v", err)
			}
			pages := flipPages(t, data)
			kinds := map[format.PageType]int{}
			for _, p := range pages {
				kinds[p.typ]++
			}
			if kinds[format.DictionaryPage] == 0 || kinds[format.DataPage]+kinds[format.DataPageV2] < 2*len(sch.Leaves)*2 {
				t.Fatalf("pages by type %v: want dictionary pages and at least 2 data pages per column chunk", kinds)
			}

			type job struct {
				p    flipPage
				k    int64
				mask byte
			}
			jobs := make(chan job)
			var mu sync.Mutex
			var failures []string
			var wg sync.WaitGroup
			for range runtime.GOMAXPROCS(0) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					damaged := bytes.Clone(data)
					for j := range jobs {
						damaged[j.k] ^= j.mask
						sum, err := readDigest(damaged, fileName)
						damaged[j.k] ^= j.mask
						part := "body"
						if j.k < j.p.body {
							part = "header"
						}
						what := fmt.Sprintf("%v at %d (row group %d, column %s), %s byte %d ^ %#x",
							j.p.typ, j.p.offset, j.p.rg, j.p.column, part, j.k-j.p.offset, j.mask)
						var msg string
						switch {
						case err == nil && sum != ref:
							msg = "read changed values without an error"
						case err == nil:
							msg = "read without an error"
						case !errors.Is(err, file.ErrCorrupt):
							msg = fmt.Sprintf("err = %v, want ErrCorrupt", err)
						default:
							var fe *file.Error
							if !errors.As(err, &fe) || fe.File != fileName || fe.RowGroup != j.p.rg || fe.Column != j.p.column || fe.Offset != j.p.offset ||
								!strings.Contains(err.Error(), fmt.Sprintf("offset %d", j.p.offset)) {
								msg = fmt.Sprintf("error %q does not name the file, row group, column and page offset", err)
							} else if j.k >= j.p.body && !errors.Is(err, file.ErrChecksum) {
								msg = fmt.Sprintf("err = %v, want ErrChecksum for a body byte", err)
							}
						}
						if msg != "" {
							mu.Lock()
							failures = append(failures, what+": "+msg)
							mu.Unlock()
						}
					}
				}()
			}
			n := 0
			for _, p := range pages {
				for k := p.offset; k < p.end; k++ {
					for _, mask := range []byte{0xff, 0x01} {
						jobs <- job{p, k, mask}
						n++
					}
				}
			}
			close(jobs)
			wg.Wait()
			total += n
			for i, f := range failures {
				if i == 30 {
					t.Errorf("... and %d more", len(failures)-i)
					break
				}
				t.Error(f)
			}
			t.Logf("%d pages, %d bytes flipped twice: %d failures", len(pages), n/2, len(failures))
		})
	}
	t.Logf("%d damaged files read in %v", total, time.Since(start).Round(time.Millisecond))
}

// flipPage is one page of a column chunk: its header at offset, its body
// at body, up to end.
type flipPage struct {
	typ               format.PageType
	rg                int
	column            string
	offset, body, end int64
}

// flipPages lists the pages from the column chunk metadata (the
// dictionary page) and the offset index (the data pages).
func flipPages(t *testing.T, data []byte) []flipPage {
	t.Helper()
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []flipPage
	add := func(rg int, col string, off, end int64) {
		var h format.PageHeader
		n, err := format.Unmarshal(data[off:end], &h)
		if err != nil {
			t.Fatalf("page header at %d: %v", off, err)
		}
		body := off + int64(n)
		if body+int64(h.CompressedPageSize) != end {
			t.Fatalf("page at %d: header and body end at %d, not %d", off, body+int64(h.CompressedPageSize), end)
		}
		out = append(out, flipPage{typ: h.Type, rg: rg, column: col, offset: off, body: body, end: end})
	}
	for rg := range f.NumRowGroups() {
		for col := range f.Schema.Leaves {
			c, err := f.Chunk(rg, col)
			if err != nil {
				t.Fatal(err)
			}
			oi, err := c.OffsetIndex()
			if err != nil || oi == nil {
				t.Fatalf("offset index: %v, %v", oi, err)
			}
			locs := oi.PageLocations
			if d, ok := c.Meta.DictionaryPageOffset.Get(); ok {
				add(rg, c.Path(), d, locs[0].Offset)
			}
			for _, l := range locs {
				add(rg, c.Path(), l.Offset, l.Offset+int64(l.CompressedPageSize))
			}
		}
	}
	return out
}

// readDigest reads every value of the file with the default options and
// returns a hash of them.
func readDigest(data []byte, name string) (uint64, error) {
	f, err := file.Open(bytes.NewReader(data), int64(len(data)), file.Options{Name: name})
	if err != nil {
		return 0, err
	}
	r, err := f.NewReader(file.ReaderOptions{BatchSize: 64})
	if err != nil {
		return 0, err
	}
	h := fnv.New64a()
	for {
		b, err := r.Next()
		if err == io.EOF {
			return h.Sum64(), nil
		}
		if err != nil {
			return 0, err
		}
		for i := range b.NumRows {
			for c, v := range b.Columns {
				fmt.Fprintf(h, "%v|", value.Get(b.Fields[c], v, i))
			}
		}
	}
}

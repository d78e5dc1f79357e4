package writer

import (
	"hash/crc32"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
)

// pageCRCs counts the pages of every column chunk of the file at path,
// and those whose header carries a CRC32, checking each against the bytes
// after the header (the page as stored: compressed, v2 levels included).
func pageCRCs(t *testing.T, path string) (pages, withCRC int) {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{SkipChecksums: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
				pages++
				end := it.Offset()
				if p.Header.CRC.Set {
					withCRC++
					body, err := f.ReadRange(end-int64(p.Header.CompressedPageSize), int64(p.Header.CompressedPageSize))
					if err != nil {
						t.Fatal(err)
					}
					if got := int32(crc32.ChecksumIEEE(body)); got != p.Header.CRC.Value {
						t.Errorf("%s: page at %d: CRC %08x, its bytes %08x", path, p.Offset, uint32(p.Header.CRC.Value), uint32(got))
					}
				}
			}
		}
	}
	return pages, withCRC
}

// TestPageCRCByDefault checks that every way of writing a file puts a CRC32
// in every page (dictionary pages, data pages v1 and v2) unless
// WithPageChecksum(false).
func TestPageCRCByDefault(t *testing.T) {
	dir := t.TempDir()
	sch := appendSchema(t)
	all := func(name, path string) {
		t.Helper()
		pages, crcs := pageCRCs(t, path)
		if pages == 0 || crcs != pages {
			t.Errorf("%s: %d of %d pages carry a CRC", name, crcs, pages)
		}
	}
	for _, tc := range []struct {
		name string
		opts []Option
	}{
		{"v1", nil},
		{"v2-snappy", []Option{WithDataPageVersion(2), WithCompression(format.Snappy)}},
		{"v1-zstd-plain", []Option{WithCompression(format.Zstd), WithDictionary(false)}},
	} {
		path := filepath.Join(dir, tc.name+".parquet")
		createWith(t, path, sch, appendBatch(0, 300), append([]Option{WithPageRowLimit(50)}, tc.opts...)...)
		all(tc.name, path)

		w, err := Append(path, nil, tc.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteBatch(appendBatch(300, 100)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		all(tc.name+" appended", path)

		if err := Rewrite(path, sch, func(w *Writer) error { return w.WriteBatch(appendBatch(0, 50)) }, tc.opts...); err != nil {
			t.Fatal(err)
		}
		all(tc.name+" rewritten", path)
	}

	// Rows one at a time, a variant column (an int8 each) among them.
	vs, err := NewSchema(Int64("id").Required(), Variant("v"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rows.parquet")
	w, err := Create(path, vs)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := w.WriteRow(int64(i), map[string]any{"metadata": []byte{1, 0, 0}, "value": []byte{0x0c, byte(i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	all("rows", path)

	// Turned off.
	path = filepath.Join(dir, "off.parquet")
	createWith(t, path, sch, appendBatch(0, 100), WithPageChecksum(false))
	if pages, crcs := pageCRCs(t, path); pages == 0 || crcs != 0 {
		t.Errorf("WithPageChecksum(false): %d of %d pages carry a CRC", crcs, pages)
	}
}

package compress

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// TestConformanceFiles decodes every page of every plaintext parquet-testing
// data file with the codec its column metadata names.
func TestConformanceFiles(t *testing.T) {
	dir := filepath.Join(testingRoot(t), "data")
	files, err := filepath.Glob(filepath.Join(dir, "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[format.CompressionCodec]int{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		pages, err := filePages(data)
		if err != nil {
			t.Logf("%s: skipped: %v", filepath.Base(path), err)
			continue
		}
		var buf []byte
		for _, p := range pages {
			if p.plainBody || (p.pageType == 3 && len(p.body) == 0 && p.size == 0) {
				continue
			}
			if p.size > 32<<20 && os.Getenv("CARQUET_LARGE_TESTS") == "" {
				// large_string_map.brotli.parquet holds 1 GiB pages.
				t.Logf("%s: page at %d of %d MiB skipped (set CARQUET_LARGE_TESTS=1)", filepath.Base(path), p.offset, p.size>>20)
				continue
			}
			codec, err := Lookup(p.codec)
			if err != nil {
				t.Errorf("%s: %v", filepath.Base(path), err)
				continue
			}
			buf, err = codec.Decode(buf, p.body, p.size)
			if err != nil {
				t.Errorf("%s column %d page at %d: %v", filepath.Base(path), p.column, p.offset, err)
				continue
			}
			seen[p.codec]++
		}
	}
	for _, c := range []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Gzip, format.LZ4,
		format.Zstd, format.LZ4Raw, format.Brotli} {
		if seen[c] == 0 {
			t.Errorf("no %v page decoded", c)
		}
	}
	t.Logf("pages decoded per codec: %v", seen)
}

// pagesOf returns the pages of one data file.
func pagesOf(t *testing.T, name string) []page {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testingRoot(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filePages(data)
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

func TestConcatenatedGzipMembersFile(t *testing.T) {
	pages := pagesOf(t, "concatenated_gzip_members.parquet")
	found := false
	for _, p := range pages {
		if p.codec != format.Gzip {
			t.Fatalf("codec %v, want GZIP", p.codec)
		}
		// Count gzip member headers to be sure the test covers several.
		if bytes.Count(p.body, []byte{0x1f, 0x8b, 8}) >= 2 {
			found = true
		}
		out, err := gzipDefault.Decode(nil, p.body, p.size)
		if err != nil {
			t.Fatal(err)
		}
		if p.pageType == 0 && p.size == 513*8+len(out)-513*8 {
			// 513 UINT64 values 1..513, PLAIN after the levels (if any).
			tail := out[len(out)-513*8:]
			for i := range 513 {
				if got := binary.LittleEndian.Uint64(tail[i*8:]); got != uint64(i+1) {
					t.Fatalf("value %d = %d, want %d", i, got, i+1)
				}
			}
		}
	}
	if !found {
		t.Error("no page with several gzip members found")
	}
}

func TestHadoopLZ4Files(t *testing.T) {
	for _, name := range []string{"hadoop_lz4_compressed.parquet", "hadoop_lz4_compressed_larger.parquet",
		"non_hadoop_lz4_compressed.parquet"} {
		t.Run(name, func(t *testing.T) {
			pages := pagesOf(t, name)
			hadoop := 0
			for _, p := range pages {
				if p.codec != format.LZ4 {
					t.Fatalf("codec %v, want LZ4", p.codec)
				}
				if len(p.body) > 0 && decodeHadoop(make([]byte, p.size), p.body) == nil {
					hadoop++
				}
				if _, err := (lz4HadoopCodec{}).Decode(nil, p.body, p.size); err != nil {
					t.Fatalf("page at %d: %v", p.offset, err)
				}
			}
			if strings.HasPrefix(name, "hadoop") != (hadoop > 0) {
				t.Errorf("%d Hadoop-framed pages", hadoop)
			}
		})
	}
}

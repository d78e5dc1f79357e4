package compress

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// Each decoder has a fuzz target; its seed corpus lives in
// testdata/fuzz/Fuzz<Codec>/ so that plain `go test` replays it. The
// corpus is regenerated with CARQUET_WRITE_FUZZ_SEEDS=1 go test -run
// TestWriteFuzzSeeds (valid pages of the conformance files and of this
// package's encoders, plus truncations).

// fuzzDecode checks the decoder contract on arbitrary input: no panic, and
// success only with exactly the claimed size; then the encoder round trip.
func fuzzDecode(t *testing.T, c format.CompressionCodec, src []byte, size uint32) {
	codec, err := Lookup(c)
	if err != nil {
		t.Fatal(err)
	}
	claim := int(size % (1 << 22))
	out, err := codec.Decode(nil, src, claim)
	if err == nil && len(out) != claim {
		t.Fatalf("%v: success with %d bytes, claimed %d", c, len(out), claim)
	}
	enc, err := codec.Encode(nil, src)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := codec.Decode(make([]byte, 3), enc, len(src))
	if err != nil || !bytes.Equal(dec, src) {
		t.Fatalf("%v: round trip of %d bytes: %v", c, len(src), err)
	}
}

func FuzzSnappy(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.Snappy, src, size) })
}

func FuzzGzip(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.Gzip, src, size) })
}

func FuzzLZ4(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.LZ4, src, size) })
}

func FuzzLZ4Raw(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.LZ4Raw, src, size) })
}

func FuzzZstd(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.Zstd, src, size) })
}

func FuzzBrotli(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, size uint32) { fuzzDecode(t, format.Brotli, src, size) })
}

// TestWriteFuzzSeeds writes the seed corpora (see the comment above).
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("CARQUET_WRITE_FUZZ_SEEDS") == "" {
		t.Skip("set CARQUET_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz")
	}
	targets := map[format.CompressionCodec]string{format.Snappy: "FuzzSnappy", format.Gzip: "FuzzGzip",
		format.LZ4: "FuzzLZ4", format.LZ4Raw: "FuzzLZ4Raw", format.Zstd: "FuzzZstd", format.Brotli: "FuzzBrotli"}
	type seed struct {
		src  []byte
		size int
	}
	seeds := map[format.CompressionCodec][]seed{}
	// Small pages of the conformance files, as writers really produced them.
	files, _ := filepath.Glob(filepath.Join(testingRoot(t), "data", "*.parquet"))
	for _, path := range files {
		data, _ := os.ReadFile(path)
		pages, err := filePages(data)
		if err != nil {
			continue
		}
		for _, p := range pages {
			if _, ok := targets[p.codec]; ok && len(p.body) <= 2048 && len(p.body) > 0 && len(seeds[p.codec]) < 6 {
				seeds[p.codec] = append(seeds[p.codec], seed{p.body, p.size})
			}
		}
	}
	for c := range targets {
		codec, _ := Lookup(c)
		for _, in := range [][]byte{nil, {1}, []byte("hello, parquet"), timestamps(64), shortStrings(40)} {
			enc, _ := codec.Encode(nil, in)
			seeds[c] = append(seeds[c], seed{enc, len(in)}, seed{enc[:len(enc)/2], len(in)})
		}
	}
	for c, name := range targets {
		dir := filepath.Join("testdata", "fuzz", name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, s := range seeds[c] {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\nuint32(%d)\n", strconv.Quote(string(s.src)), s.size)
			sum := sha256.Sum256([]byte(body))
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%x", sum[:8])), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

package inflate

import (
	"bytes"
	stdgzip "compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// FuzzInflate decodes arbitrary input as raw DEFLATE (gz false) or gzip (gz
// true) and compares with the standard library: the same output where it
// succeeds, an error where it fails, and never a panic. Its seed corpus in
// testdata/fuzz/FuzzInflate (valid streams of every block kind, gzip
// members with optional header fields, and their truncations) is replayed
// by plain `go test`; CARQUET_WRITE_FUZZ_SEEDS=1 go test -run
// TestWriteInflateSeeds regenerates it.
func FuzzInflate(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte, gz bool) {
		if !gz {
			compareWithStdlib(t, src)
			return
		}
		var ref []byte
		zr, rerr := stdgzip.NewReader(bytes.NewReader(src))
		if rerr == nil {
			ref, rerr = io.ReadAll(io.LimitReader(zr, 1<<22))
		}
		got, err := DecodeGzip(make([]byte, len(ref)), src)
		switch {
		case rerr == nil && err != nil:
			t.Fatalf("reference decodes %d bytes, DecodeGzip fails: %v", len(ref), err)
		case rerr == nil && !bytes.Equal(got, ref):
			t.Fatal("output differs from the reference")
		case rerr != nil && err == nil:
			t.Fatalf("reference fails (%v) after %d bytes, DecodeGzip succeeds", rerr, len(ref))
		}
	})
}

// TestWriteInflateSeeds writes FuzzInflate's seed corpus.
func TestWriteInflateSeeds(t *testing.T) {
	if os.Getenv("CARQUET_WRITE_FUZZ_SEEDS") == "" {
		t.Skip("set CARQUET_WRITE_FUZZ_SEEDS=1 to regenerate testdata/fuzz/FuzzInflate")
	}
	type seed struct {
		src []byte
		gz  bool
	}
	var seeds []seed
	c := corpus()
	for _, name := range []string{"empty", "one", "small", "period3", "text"} {
		data := c[name][:min(len(c[name]), 1500)]
		for _, level := range []int{-2, 0, 1, 9} {
			enc := deflate(t, data, level)
			seeds = append(seeds, seed{enc, false}, seed{enc[:len(enc)*2/3], false})
		}
		var buf bytes.Buffer
		w, _ := stdgzip.NewWriterLevel(&buf, 5)
		w.Name, w.Extra = "x", []byte{7, 7}
		w.Write(data)
		w.Close()
		seeds = append(seeds, seed{buf.Bytes(), true}, seed{buf.Bytes()[:buf.Len()-3], true})
	}
	seeds = append(seeds, seed{pack("1 10" + code(0x30+'a', 8) + code(1, 7) + code(0, 5) + code(0, 7)), false})
	dir := filepath.Join("testdata", "fuzz", "FuzzInflate")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range seeds {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%s)\nbool(%v)\n", strconv.Quote(string(s.src)), s.gz)
		sum := sha256.Sum256([]byte(body))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%x", sum[:8])), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

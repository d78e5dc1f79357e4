package compress

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/internal/cputime"
	"github.com/carquet-go/carquet/parquet/format"
)

// BenchmarkGzipDecoders decodes the synthetic page bodies of benchData,
// written at gzip levels 1, 5 and 9, with the gzip codec and with the
// klauspost reader it used before; cpu-ns/op is the process's CPU time,
// steadier than wall time on a shared machine.
func BenchmarkGzipDecoders(b *testing.B) {
	for _, d := range benchData() {
		for _, level := range []int{1, 5, 9} {
			enc, err := gzipCodec{level: level}.Encode(nil, d.data)
			if err != nil {
				b.Fatal(err)
			}
			for _, dec := range []struct {
				name string
				fn   func(dst, src []byte, size int) ([]byte, error)
			}{{"codec", gzipDefault.Decode}, {"klauspost", klauspostGunzip}} {
				b.Run(d.name+"/"+string(rune('0'+level))+"/"+dec.name, func(b *testing.B) {
					out := make([]byte, len(d.data))
					b.SetBytes(int64(len(d.data)))
					b.ReportAllocs()
					cpu0 := cputime.Process()
					for b.Loop() {
						if out, err = dec.fn(out, enc, len(d.data)); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// TestGzipMatchesKlauspost decodes every gzip page of the parquet-testing
// data files with the codec and with the klauspost reader it replaced: the
// same bytes, or both fail.
func TestGzipMatchesKlauspost(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testingRoot(t), "data", "*.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	pages := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		all, err := filePages(data)
		if err != nil {
			continue
		}
		for _, p := range all {
			if p.codec != format.Gzip || p.plainBody {
				continue
			}
			got, err := gzipDefault.Decode(nil, p.body, p.size)
			want, werr := klauspostGunzip(nil, p.body, p.size)
			if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
				t.Errorf("%s page at %d: codec %v, klauspost %v", filepath.Base(path), p.offset, err, werr)
			}
			pages++
		}
	}
	if pages < 3 {
		t.Fatalf("only %d gzip pages found", pages)
	}
	t.Logf("%d gzip pages compared", pages)
}

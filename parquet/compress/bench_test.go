package compress

import (
	"testing"
)

// benchData are 1 MiB page bodies shaped like real columns.
func benchData() []struct {
	name string
	data []byte
} {
	str := shortStrings(150_000)
	return []struct {
		name string
		data []byte
	}{
		{"timestamps", timestamps(128 << 10)},
		{"strings", str[:min(len(str), 1<<20)]},
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		for _, d := range benchData() {
			b.Run(c.String()+"/"+d.name, func(b *testing.B) {
				out, _ := codec.Encode(nil, d.data)
				b.SetBytes(int64(len(d.data)))
				b.ReportAllocs()
				for b.Loop() {
					out, _ = codec.Encode(out, d.data)
				}
				b.ReportMetric(float64(len(d.data))/float64(len(out)), "ratio")
			})
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		for _, d := range benchData() {
			b.Run(c.String()+"/"+d.name, func(b *testing.B) {
				enc, _ := codec.Encode(nil, d.data)
				out := make([]byte, len(d.data))
				b.SetBytes(int64(len(d.data)))
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if out, err = codec.Decode(out, enc, len(d.data)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

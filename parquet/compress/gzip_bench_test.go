package compress

import (
	"syscall"
	"testing"
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
					cpu0 := cpuTime()
					for b.Loop() {
						if out, err = dec.fn(out, enc, len(d.data)); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
				})
			}
		}
	}
}

// cpuTime is the process's user and system CPU time in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

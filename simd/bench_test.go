package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Each benchmark runs every kernel set this CPU has as a sub-benchmark
// (/purego, /avx2, /avx512), SetBytes counting the decoded (output)
// bytes, so results read as MB/s of output.

const benchN = 4096

func benchVariants(b *testing.B, fn func(b *testing.B, k *kernels)) {
	for _, k := range variants {
		b.Run(k.name, func(b *testing.B) { fn(b, k) })
	}
}

func BenchmarkUnpackInt32(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, bw := range []uint{1, 3, 8, 13, 20, 25, 27, 32} {
		src := make([]byte, PackedLen(benchN, bw))
		randBytes(r, src)
		dst := make([]int32, benchN)
		b.Run(fmt.Sprintf("bw=%d", bw), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(4 * benchN)
				for b.Loop() {
					k.unpackInt32(dst, src, bw)
				}
			})
		})
	}
}

func BenchmarkUnpackInt64(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, bw := range []uint{1, 7, 16, 33, 52, 60} {
		src := make([]byte, PackedLen(benchN, bw))
		randBytes(r, src)
		dst := make([]int64, benchN)
		b.Run(fmt.Sprintf("bw=%d", bw), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(8 * benchN)
				for b.Loop() {
					k.unpackInt64(dst, src, bw)
				}
			})
		})
	}
}

package simd

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Each benchmark runs every kernel set this CPU has as a sub-benchmark
// (impl=purego, impl=avx2, impl=avx512: compare them with benchstat -col
// /impl), SetBytes counting the decoded (output)
// bytes, so results read as MB/s of output.

const benchN = 4096

func benchVariants(b *testing.B, fn func(b *testing.B, k *kernels)) {
	for _, k := range variants {
		b.Run("impl="+k.name, func(b *testing.B) { fn(b, k) })
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
	for _, bw := range []uint{1, 7, 16, 33, 52, 57, 60, 63, 64} {
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

func BenchmarkGather(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, dictLen := range []int{16, 1000, 100000} {
		idx := make([]int32, benchN)
		for i := range idx {
			idx[i] = int32(r.IntN(dictLen))
		}
		d32, d64, d128 := make([]uint32, dictLen), make([]uint64, dictLen), make([][16]byte, dictLen)
		// Written, so that large dictionaries are real memory: untouched
		// pages of a fresh allocation all map the kernel's one zero page,
		// which reads from L1 whatever the dictionary's size.
		for i := range dictLen {
			d32[i], d64[i] = uint32(i), uint64(i)
			d128[i][0], d128[i][15] = byte(i), byte(i>>8)
		}
		o32, o64, o128 := make([]uint32, benchN), make([]uint64, benchN), make([][16]byte, benchN)
		b.Run(fmt.Sprintf("4B/dict=%d", dictLen), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(4 * benchN)
				for b.Loop() {
					k.gatherUint32(o32, d32, idx)
				}
			})
		})
		b.Run(fmt.Sprintf("8B/dict=%d", dictLen), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(8 * benchN)
				for b.Loop() {
					k.gatherUint64(o64, d64, idx)
				}
			})
		})
		b.Run(fmt.Sprintf("16B/dict=%d", dictLen), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(16 * benchN)
				for b.Loop() {
					k.gatherUint128(o128, d128, idx)
				}
			})
		})
	}
}

func BenchmarkByteStreamSplit(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, w := range []int{4, 8} {
		src := make([]byte, w*benchN)
		randBytes(r, src)
		enc := make([]byte, w*benchN)
		dst := make([]byte, w*benchN)
		b.Run(fmt.Sprintf("decode%d", w), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(int64(w * benchN))
				for b.Loop() {
					if w == 4 {
						k.bssDecode4(dst, src, benchN)
					} else {
						k.bssDecode8(dst, src, benchN)
					}
				}
			})
		})
		b.Run(fmt.Sprintf("encode%d", w), func(b *testing.B) {
			benchVariants(b, func(b *testing.B, k *kernels) {
				b.SetBytes(int64(w * benchN))
				for b.Loop() {
					if w == 4 {
						k.bssEncode4(enc, src)
					} else {
						k.bssEncode8(enc, src)
					}
				}
			})
		})
	}
}

func BenchmarkDeltaPrefixSum(b *testing.B) {
	v32 := make([]int32, benchN)
	v64 := make([]int64, benchN)
	b.Run("int32", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				k.deltaInt32(v32, 1, 3)
			}
		})
	})
	b.Run("int64", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				k.deltaInt64(v64, 1, 3)
			}
		})
	})
}

func BenchmarkMinMax(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	i32, i64 := make([]int32, benchN), make([]int64, benchN)
	f32, f64 := make([]float32, benchN), make([]float64, benchN)
	for i := range i32 {
		i32[i], i64[i], f32[i], f64[i] = int32(r.Uint32()), int64(r.Uint64()), r.Float32(), r.Float64()
	}
	b.Run("int32", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				k.minmaxInt32(i32)
			}
		})
	})
	b.Run("int64", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				k.minmaxInt64(i64)
			}
		})
	})
	b.Run("float32", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				k.minmaxFloat32(f32)
			}
		})
	})
	b.Run("float64", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				k.minmaxFloat64(f64)
			}
		})
	})
}

// Compare benchmarks count the bytes of the compared column.
func BenchmarkCompare(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	i32, i64 := make([]int32, benchN), make([]int64, benchN)
	f32, f64 := make([]float32, benchN), make([]float64, benchN)
	for i := range i32 {
		i32[i], i64[i], f32[i], f64[i] = int32(r.IntN(100)), int64(r.IntN(100)), r.Float32(), r.Float64()
	}
	dst := make([]uint64, benchN/64)
	b.Run("int32/lt", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				k.compareInt32(dst, i32, Lt, 50)
			}
		})
	})
	b.Run("int64/ge", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				k.compareInt64(dst, i64, Ge, 50)
			}
		})
	})
	b.Run("float32/gt", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(4 * benchN)
			for b.Loop() {
				k.compareFloat32(dst, f32, Gt, 0.5)
			}
		})
	})
	b.Run("float64/eq", func(b *testing.B) {
		benchVariants(b, func(b *testing.B, k *kernels) {
			b.SetBytes(8 * benchN)
			for b.Loop() {
				k.compareFloat64(dst, f64, Eq, 0.5)
			}
		})
	})
}

package simd

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Every kernel set the CPU can run is checked against the portable one on
// the same random inputs: odd lengths, tails, unaligned bases, and inputs
// that end right at an unmapped page.

var testLens = []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 1000, 1023, 4099}

func forVariants(t *testing.T, fn func(t *testing.T, k *kernels)) {
	if len(variants) == 1 {
		t.Logf("only the portable kernels run on this machine")
	}
	for _, k := range variants {
		t.Run(k.name, func(t *testing.T) { fn(t, k) })
	}
}

func rng(t testing.TB) *rand.Rand { return rand.New(rand.NewPCG(7, uint64(len(t.Name())))) }

func randBytes(r *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(r.Uint32())
	}
}

func TestUnpackInt32(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for bw := uint(0); bw <= 32; bw++ {
			for _, n := range testLens {
				for _, off := range []int{0, 1, 3} {
					size := PackedLen(n, bw)
					src := guarded(t, size+off)[off:]
					randBytes(r, src)
					want := make([]int32, n+off)[off:]
					got := make([]int32, n+off+1)[off : off+n]
					unpackInt32Generic(want, src, bw)
					if n > 0 {
						k.unpackInt32(got, src, bw)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("bw=%d n=%d off=%d: got %v want %v", bw, n, off, got[:min(n, 16)], want[:min(n, 16)])
					}
				}
			}
		}
	})
}

func TestUnpackInt64(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for bw := uint(0); bw <= 64; bw++ {
			for _, n := range testLens {
				for _, off := range []int{0, 5} {
					size := PackedLen(n, bw)
					src := guarded(t, size+off)[off:]
					randBytes(r, src)
					want := make([]int64, n)
					got := make([]int64, n+off)[off:]
					unpackInt64Generic(want, src, bw)
					if n > 0 {
						k.unpackInt64(got, src, bw)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("bw=%d n=%d off=%d: got %x want %x", bw, n, off, got[:min(n, 8)], want[:min(n, 8)])
					}
				}
			}
		}
	})
}

// The exported wrappers agree with a bit-by-bit reference.
func TestUnpackReference(t *testing.T) {
	r := rng(t)
	for bw := uint(0); bw <= 64; bw++ {
		n := 77
		src := make([]byte, PackedLen(n, bw))
		randBytes(r, src)
		got := make([]int64, n)
		UnpackInt64(got, src, bw)
		for i := range got {
			var v uint64
			for b := uint(0); b < bw; b++ {
				bit := uint(i)*bw + b
				v |= uint64(src[bit/8]>>(bit%8)&1) << b
			}
			if uint64(got[i]) != v {
				t.Fatalf("bw=%d value %d: %x want %x", bw, i, got[i], v)
			}
			if bw <= 32 {
				got32 := make([]int32, n)
				UnpackInt32(got32, src, bw)
				if uint32(got32[i]) != uint32(v) {
					t.Fatalf("int32 bw=%d value %d", bw, i)
				}
			}
		}
	}
}

func randIdx(r *rand.Rand, n, dictLen int, bad bool) []int32 {
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(r.IntN(dictLen))
	}
	if bad && n > 0 {
		idx[r.IntN(n)] = []int32{int32(dictLen), -1, math.MaxInt32, math.MinInt32}[r.IntN(4)]
	}
	return idx
}

func TestGather(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for _, dictLen := range []int{0, 1, 3, 16, 17, 32, 33, 100, 5000} {
			d32 := make([]uint32, dictLen)
			d64 := make([]uint64, dictLen)
			d128 := make([][16]byte, dictLen)
			for i := range d32 {
				d32[i], d64[i] = r.Uint32(), r.Uint64()
				randBytes(r, d128[i][:])
			}
			for _, n := range testLens {
				for _, bad := range []bool{false, true} {
					if dictLen == 0 && n > 0 {
						bad = true
					}
					var idx []int32
					if dictLen > 0 {
						idx = randIdx(r, n, dictLen, bad)
					} else {
						idx = make([]int32, n)
					}
					w32, g32 := make([]uint32, n), make([]uint32, n)
					if n > 0 {
						a, b := gatherUint32Generic(w32, d32, idx), k.gatherUint32(g32, d32, idx)
						if a != b || !slices.Equal(w32[:a], g32[:a]) {
							t.Fatalf("gather32 dict=%d n=%d: returned %d want %d", dictLen, n, b, a)
						}
						w64, g64 := make([]uint64, n), make([]uint64, n)
						a, b = gatherUint64Generic(w64, d64, idx), k.gatherUint64(g64, d64, idx)
						if a != b || !slices.Equal(w64[:a], g64[:a]) {
							t.Fatalf("gather64 dict=%d n=%d: returned %d want %d", dictLen, n, b, a)
						}
						w128, g128 := make([][16]byte, n), make([][16]byte, n)
						a, b = gatherUint128Generic(w128, d128, idx), k.gatherUint128(g128, d128, idx)
						if a != b || !slices.Equal(w128[:a], g128[:a]) {
							t.Fatalf("gather128 dict=%d n=%d: returned %d want %d", dictLen, n, b, a)
						}
					}
				}
			}
		}
	})
}

func TestByteStreamSplit(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for _, n := range testLens {
			for _, w := range []int{4, 8} {
				for _, off := range []int{0, 1} {
					src := guarded(t, n*w+off)[off:]
					randBytes(r, src)
					want, got := make([]byte, n*w), make([]byte, n*w+off)[off:]
					if n > 0 {
						if w == 4 {
							bssEncode4Generic(want, src)
							k.bssEncode4(got, src)
						} else {
							bssEncode8Generic(want, src)
							k.bssEncode8(got, src)
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("encode%d n=%d off=%d", w, n, off)
					}
					// Decode from streams with extra bytes between them
					// (a stride above n) and from an offset.
					for _, extra := range []int{0, 3} {
						stride := n + extra
						enc := guarded(t, w*stride+off)[off:]
						randBytes(r, enc)
						want, got := make([]byte, n*w), make([]byte, n*w)
						if n > 0 {
							if w == 4 {
								bssDecode4Generic(want, enc, stride)
								k.bssDecode4(got, enc, stride)
							} else {
								bssDecode8Generic(want, enc, stride)
								k.bssDecode8(got, enc, stride)
							}
						}
						if !slices.Equal(got, want) {
							t.Fatalf("decode%d n=%d stride=%d off=%d", w, n, stride, off)
						}
					}
				}
			}
		}
	})
}

func TestDeltaPrefixSum(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for _, n := range testLens {
			if n == 0 {
				continue
			}
			for _, md := range []int64{0, 1, -7, math.MaxInt64, math.MinInt64, math.MaxInt32, math.MinInt32} {
				v32 := make([]int32, n)
				v64 := make([]int64, n)
				for i := range v32 {
					v32[i], v64[i] = int32(r.Uint32()>>uint(r.IntN(32))), int64(r.Uint64()>>uint(r.IntN(64)))
				}
				w32, w64 := slices.Clone(v32), slices.Clone(v64)
				last := int64(r.Uint64())
				a := deltaInt32Generic(w32, int32(last), int32(md))
				b := k.deltaInt32(v32, int32(last), int32(md))
				if a != b || !slices.Equal(v32, w32) {
					t.Fatalf("int32 n=%d md=%d", n, md)
				}
				a64 := deltaInt64Generic(w64, last, md)
				b64 := k.deltaInt64(v64, last, md)
				if a64 != b64 || !slices.Equal(v64, w64) {
					t.Fatalf("int64 n=%d md=%d", n, md)
				}
			}
		}
	})
}

func floatEq[F float32 | float64](a, b F) bool { return a == b || (a != a && b != b) }

func TestMinMax(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for _, n := range testLens {
			if n == 0 {
				continue
			}
			for _, kind := range []string{"random", "nan", "allnan", "inf", "zeros"} {
				i32, i64 := make([]int32, n), make([]int64, n)
				f32, f64 := make([]float32, n), make([]float64, n)
				for i := range i32 {
					i32[i], i64[i] = int32(r.Uint32()), int64(r.Uint64())
					f32[i], f64[i] = float32(r.NormFloat64()*1e6), r.NormFloat64()*1e300
					switch kind {
					case "nan":
						if r.IntN(5) == 0 {
							f32[i], f64[i] = float32(math.NaN()), math.NaN()
						}
					case "allnan":
						f32[i], f64[i] = float32(math.NaN()), -math.NaN()
					case "inf":
						if r.IntN(3) == 0 {
							f32[i], f64[i] = float32(math.Inf(1-2*r.IntN(2))), math.Inf(1-2*r.IntN(2))
						}
					case "zeros":
						f32[i], f64[i] = float32(math.Copysign(0, float64(1-2*r.IntN(2)))), math.Copysign(0, float64(1-2*r.IntN(2)))
						i32[i], i64[i] = int32(r.IntN(3)-1), int64(r.IntN(3)-1)
					}
				}
				if a, b := minmaxInt32Generic(i32); true {
					c, d := k.minmaxInt32(i32)
					if a != c || b != d {
						t.Fatalf("int32 %s n=%d: %d %d want %d %d", kind, n, c, d, a, b)
					}
				}
				if a, b := minmaxInt64Generic(i64); true {
					c, d := k.minmaxInt64(i64)
					if a != c || b != d {
						t.Fatalf("int64 %s n=%d", kind, n)
					}
				}
				a, b, ok, nan := minmaxFloat32Generic(f32)
				c, d, ok2, nan2 := k.minmaxFloat32(f32)
				if !floatEq(a, c) || !floatEq(b, d) || ok != ok2 || nan != nan2 {
					t.Fatalf("float32 %s n=%d: %v %v %v %v want %v %v %v %v", kind, n, c, d, ok2, nan2, a, b, ok, nan)
				}
				a6, b6, ok, nan := minmaxFloat64Generic(f64)
				c6, d6, ok2, nan2 := k.minmaxFloat64(f64)
				if !floatEq(a6, c6) || !floatEq(b6, d6) || ok != ok2 || nan != nan2 {
					t.Fatalf("float64 %s n=%d: %v %v %v %v want %v %v %v %v", kind, n, c6, d6, ok2, nan2, a6, b6, ok, nan)
				}
			}
		}
	})
}

func TestCompare(t *testing.T) {
	forVariants(t, func(t *testing.T, k *kernels) {
		r := rng(t)
		for _, n := range testLens {
			if n == 0 {
				continue
			}
			i32, i64 := make([]int32, n), make([]int64, n)
			f32, f64 := make([]float32, n), make([]float64, n)
			for i := range i32 {
				i32[i], i64[i] = int32(r.IntN(9)-4), int64(r.IntN(9)-4)
				if r.IntN(7) == 0 {
					i32[i], i64[i] = int32(r.Uint32()), int64(r.Uint64())
				}
				f32[i], f64[i] = float32(r.IntN(9)-4), float64(r.IntN(9)-4)
				if r.IntN(7) == 0 {
					f32[i], f64[i] = float32(math.NaN()), math.NaN()
				}
			}
			words := (n + 63) / 64
			for op := Eq; op <= Ge; op++ {
				for _, c := range []int64{0, -4, 3, math.MaxInt64, math.MinInt64} {
					w := make([]uint64, words+1)
					g := make([]uint64, words+1)
					w[words], g[words] = 0xdead, 0xdead
					compareInt32Generic(w[:words], i32, op, int32(c))
					k.compareInt32(g[:words], i32, op, int32(c))
					if !slices.Equal(w, g) {
						t.Fatalf("int32 %v %d n=%d: %x want %x", op, c, n, g, w)
					}
					compareInt64Generic(w[:words], i64, op, c)
					k.compareInt64(g[:words], i64, op, c)
					if !slices.Equal(w, g) {
						t.Fatalf("int64 %v %d n=%d", op, c, n)
					}
					for _, fc := range []float64{float64(c % 5), math.NaN(), math.Inf(1)} {
						compareFloat32Generic(w[:words], f32, op, float32(fc))
						k.compareFloat32(g[:words], f32, op, float32(fc))
						if !slices.Equal(w, g) {
							t.Fatalf("float32 %v %v n=%d: %x want %x", op, fc, n, g, w)
						}
						compareFloat64Generic(w[:words], f64, op, fc)
						k.compareFloat64(g[:words], f64, op, fc)
						if !slices.Equal(w, g) {
							t.Fatalf("float64 %v %v n=%d", op, fc, n)
						}
					}
				}
			}
		}
	})
}

func TestBitmaps(t *testing.T) {
	a := []uint64{0b1011, 1 << 63, ^uint64(0)}
	b := []uint64{0b0110, 1 << 63, 0}
	d := make([]uint64, 3)
	And(d, a, b)
	if d[0] != 0b0010 || d[1] != 1<<63 || d[2] != 0 {
		t.Error("And", d)
	}
	Or(d, a, b)
	if d[0] != 0b1111 || d[2] != ^uint64(0) {
		t.Error("Or", d)
	}
	AndNot(d, a, b)
	if d[0] != 0b1001 || d[1] != 0 {
		t.Error("AndNot", d)
	}
	if CountOnes(a) != 3+1+64 {
		t.Error("CountOnes")
	}
	if got := AppendSetBits(nil, a, 130); !slices.Equal(got, []int32{0, 1, 3, 127, 128, 129}) {
		t.Error("AppendSetBits", got)
	}
}

func TestImplementation(t *testing.T) {
	t.Logf("kernels: %s; variants:", Implementation())
	for _, k := range variants {
		t.Logf("  %s", k.name)
	}
	if Implementation() != variants[len(variants)-1].name {
		t.Errorf("chose %s, best available is %s", Implementation(), variants[len(variants)-1].name)
	}
}

func TestSetImplementation(t *testing.T) {
	names := Implementations()
	if names[0] != "purego" {
		t.Fatalf("Implementations() = %v", names)
	}
	for _, n := range names {
		prev, ok := SetImplementation(n)
		if !ok || Implementation() != n {
			t.Fatalf("SetImplementation(%s)", n)
		}
		SetImplementation(prev)
	}
	if _, ok := SetImplementation("sse9"); ok {
		t.Fatal("unknown set accepted")
	}
}

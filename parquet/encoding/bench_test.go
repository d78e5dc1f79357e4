package encoding

import (
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/simd"
)

// Benchmarks report MB/s of decoded (or, for encoders, input) values.
// Decoders that run simd kernels have one sub-benchmark per kernel set
// (impl=purego, impl=avx2, impl=avx512; compare them with
// benchstat -col /impl), switched with simd.SetImplementation.

const benchValues = 1 << 16

func perImpl(b *testing.B, fn func(b *testing.B)) {
	for _, name := range simd.Implementations() {
		b.Run("impl="+name, func(b *testing.B) {
			prev, _ := simd.SetImplementation(name)
			defer simd.SetImplementation(prev)
			fn(b)
		})
	}
}

func benchDecode[T any](b *testing.B, dec typed[T], enc []byte, n, size int) {
	dst := make([]T, 0, n)
	b.SetBytes(int64(n * size))
	for b.Loop() {
		if err := dec.Reset(enc, n); err != nil {
			b.Fatal(err)
		}
		var err error
		if dst, err = dec.Decode(dst[:0], n); err != nil {
			b.Fatal(err)
		}
	}
}

func benchRand() *rand.Rand { return rand.New(rand.NewPCG(3, 4)) }

func BenchmarkDecodeInt32(b *testing.B) {
	r := benchRand()
	v := make([]int32, benchValues)
	for i := range v {
		v[i] = int32(r.IntN(1 << 20))
	}
	sorted := make([]int32, benchValues)
	for i := range sorted {
		sorted[i] = int32(i*10 + r.IntN(10))
	}
	var d Int32Dict
	small := make([]int32, benchValues)
	for i := range small {
		small[i] = int32(r.IntN(1000)) * 7919
	}
	idx := d.Insert(nil, small)
	cases := []struct {
		name string
		dec  func() Int32Decoder
		enc  []byte
		want []int32
	}{
		{"plain", func() Int32Decoder { d, _ := NewInt32Decoder(format.Plain); return d }, AppendPlainInt32(nil, v), v},
		{"delta", func() Int32Decoder { return &DeltaInt32Decoder{} }, AppendDeltaBinaryPackedInt32(nil, sorted), sorted},
		{"delta-random", func() Int32Decoder { return &DeltaInt32Decoder{} }, AppendDeltaBinaryPackedInt32(nil, v), v},
		{"bss", func() Int32Decoder { d, _ := NewInt32Decoder(format.ByteStreamSplit); return d }, AppendByteStreamSplitInt32(nil, v), v},
		{"dict", func() Int32Decoder { return NewInt32DictDecoder(d.Values()) }, AppendDictIndices(nil, idx, d.Len()), small},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			perImpl(b, func(b *testing.B) { benchDecode(b, c.dec(), c.enc, len(c.want), 4) })
		})
	}
}

func BenchmarkDecodeInt64(b *testing.B) {
	r := benchRand()
	ts := make([]int64, benchValues)
	for i := range ts {
		ts[i] = 1_700_000_000_000_000 + int64(i)*1_000_000 + r.Int64N(1000)
	}
	var d Int64Dict
	small := make([]int64, benchValues)
	for i := range small {
		small[i] = r.Int64N(5000) << 30
	}
	idx := d.Insert(nil, small)
	cases := []struct {
		name string
		dec  func() Int64Decoder
		enc  []byte
		want []int64
	}{
		{"plain", func() Int64Decoder { d, _ := NewInt64Decoder(format.Plain); return d }, AppendPlainInt64(nil, ts), ts},
		{"delta", func() Int64Decoder { return &DeltaInt64Decoder{} }, AppendDeltaBinaryPackedInt64(nil, ts), ts},
		{"bss", func() Int64Decoder { d, _ := NewInt64Decoder(format.ByteStreamSplit); return d }, AppendByteStreamSplitInt64(nil, ts), ts},
		{"dict", func() Int64Decoder { return NewInt64DictDecoder(d.Values()) }, AppendDictIndices(nil, idx, d.Len()), small},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			perImpl(b, func(b *testing.B) { benchDecode(b, c.dec(), c.enc, len(c.want), 8) })
		})
	}
}

func BenchmarkDecodeFloat64(b *testing.B) {
	r := benchRand()
	amounts := make([]float64, benchValues)
	for i := range amounts {
		amounts[i] = float64(r.IntN(371473)+9) / 100
	}
	b.Run("plain", func(b *testing.B) {
		perImpl(b, func(b *testing.B) {
			d, _ := NewFloat64Decoder(format.Plain)
			benchDecode(b, d, AppendPlainFloat64(nil, amounts), benchValues, 8)
		})
	})
	b.Run("bss", func(b *testing.B) {
		perImpl(b, func(b *testing.B) {
			d, _ := NewFloat64Decoder(format.ByteStreamSplit)
			benchDecode(b, d, AppendByteStreamSplitFloat64(nil, amounts), benchValues, 8)
		})
	})
	b.Run("alp", func(b *testing.B) {
		perImpl(b, func(b *testing.B) {
			benchDecode(b, &ALPFloat64Decoder{}, AppendALPFloat64(nil, amounts), benchValues, 8)
		})
	})
}

// BenchmarkDecodeBool decodes a page of random booleans (the events
// table's flag column: half true) in batches of 8,192, the file reader's
// default, starting each batch where the last one stopped.
func BenchmarkDecodeBool(b *testing.B) {
	r := benchRand()
	flags := make([]bool, benchValues)
	for i := range flags {
		flags[i] = r.IntN(2) == 1
	}
	cases := []struct {
		name string
		enc  format.Encoding
		data []byte
	}{
		{"plain", format.Plain, AppendPlainBool(nil, flags)},
		{"rle", format.RLE, AppendRLEBool(nil, flags)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			d, _ := NewBoolDecoder(c.enc)
			dst := make([]bool, 0, 8192)
			b.SetBytes(benchValues)
			for b.Loop() {
				if err := d.Reset(c.data, benchValues); err != nil {
					b.Fatal(err)
				}
				for d.Remaining() > 0 {
					var err error
					if dst, err = d.Decode(dst[:0], 8192); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

func BenchmarkDecodeFloat32(b *testing.B) {
	r := benchRand()
	v := make([]float32, benchValues)
	for i := range v {
		v[i] = float32(r.IntN(200000)) / 2
	}
	b.Run("bss", func(b *testing.B) {
		perImpl(b, func(b *testing.B) {
			d, _ := NewFloat32Decoder(format.ByteStreamSplit)
			benchDecode(b, d, AppendByteStreamSplitFloat32(nil, v), benchValues, 4)
		})
	})
	b.Run("alp", func(b *testing.B) {
		perImpl(b, func(b *testing.B) {
			benchDecode(b, &ALPFloat32Decoder{}, AppendALPFloat32(nil, v), benchValues, 4)
		})
	})
}

func BenchmarkDecodeLevels(b *testing.B) {
	r := benchRand()
	mostly := make([]int16, benchValues)
	mixed := make([]int16, benchValues)
	for i := range mostly {
		mostly[i] = 1
		if r.IntN(100) == 0 {
			mostly[i] = 0
		}
		mixed[i] = int16(r.IntN(4))
	}
	for _, c := range []struct {
		name string
		v    []int16
		max  int16
	}{{"mostly-defined", mostly, 1}, {"random-max3", mixed, 3}} {
		enc := AppendLevelsV2(nil, c.v, c.max)
		b.Run(c.name, func(b *testing.B) {
			perImpl(b, func(b *testing.B) {
				benchDecode(b, levelAdapter{&LevelDecoder{}, format.RLE, true, c.max}, enc, benchValues, 2)
			})
		})
	}
}

func BenchmarkDecodeByteArray(b *testing.B) {
	r := benchRand()
	words := genByteArrays(r, "sorted", benchValues)
	var d ByteArrayDict
	idx := d.Insert(nil, words.data, words.offsets)
	cases := []struct {
		name string
		dec  func() ByteArrayDecoder
		enc  []byte
	}{
		{"plain", func() ByteArrayDecoder { d, _ := NewByteArrayDecoder(format.Plain); return d }, AppendPlainByteArray(nil, words.data, words.offsets)},
		{"dlba", func() ByteArrayDecoder { return &DeltaLengthByteArrayDecoder{} }, AppendDeltaLengthByteArray(nil, words.data, words.offsets)},
		{"dba", func() ByteArrayDecoder { return &DeltaByteArrayDecoder{} }, AppendDeltaByteArray(nil, words.data, words.offsets)},
		{"dict", func() ByteArrayDecoder { return NewByteArrayDictDecoder(d.Data(), d.Offsets()) }, AppendDictIndices(nil, idx, d.Len())},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			perImpl(b, func(b *testing.B) {
				dec := c.dec()
				var data []byte
				var offs []int32
				b.SetBytes(int64(len(words.data)))
				for b.Loop() {
					if err := dec.Reset(c.enc, benchValues); err != nil {
						b.Fatal(err)
					}
					var err error
					if data, offs, err = dec.Decode(data[:0], offs[:0], benchValues); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func BenchmarkSkip(b *testing.B) {
	r := benchRand()
	v := make([]int64, benchValues)
	for i := range v {
		v[i] = int64(i) + r.Int64N(5)
	}
	enc := AppendDeltaBinaryPackedInt64(nil, v)
	b.Run("delta-int64", func(b *testing.B) {
		var d DeltaInt64Decoder
		b.SetBytes(8 * benchValues)
		for b.Loop() {
			_ = d.Reset(enc, benchValues)
			if err := d.Skip(benchValues); err != nil {
				b.Fatal(err)
			}
		}
	})
	idx := make([]int32, benchValues)
	for i := range idx {
		idx[i] = int32(r.IntN(1000))
	}
	encIdx := AppendDictIndices(nil, idx, 1000)
	b.Run("dict-indices", func(b *testing.B) {
		var d DictIndexDecoder
		b.SetBytes(4 * benchValues)
		for b.Loop() {
			_ = d.Reset(encIdx, benchValues)
			if err := d.Skip(benchValues); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkEncode(b *testing.B) {
	r := benchRand()
	ts := make([]int64, benchValues)
	i32 := make([]int32, benchValues)
	amounts := make([]float64, benchValues)
	idx := make([]int32, benchValues)
	for i := range ts {
		ts[i] = 1_700_000_000_000_000 + int64(i)*1_000_000 + r.Int64N(1000)
		i32[i] = int32(r.IntN(1 << 20))
		amounts[i] = float64(r.IntN(371473)+9) / 100
		idx[i] = int32(r.IntN(1000))
	}
	words := genByteArrays(r, "sorted", benchValues)
	var buf []byte
	run := func(name string, size int, fn func()) {
		b.Run(name, func(b *testing.B) {
			perImpl(b, func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					fn()
				}
			})
		})
	}
	var delta DeltaBinaryPackedEncoder
	run("delta-int64", 8*benchValues, func() { buf = delta.AppendInt64(buf[:0], ts) })
	run("delta-int32", 4*benchValues, func() { buf = delta.AppendInt32(buf[:0], i32) })
	run("bss-float64", 8*benchValues, func() { buf = AppendByteStreamSplitFloat64(buf[:0], amounts) })
	var alp ALPEncoder
	run("alp-float64", 8*benchValues, func() { buf = alp.AppendFloat64(buf[:0], amounts) })
	run("rle-indices", 4*benchValues, func() { buf = AppendDictIndices(buf[:0], idx, 1000) })
	var dlba DeltaLengthByteArrayEncoder
	run("dlba", len(words.data), func() { buf = dlba.Append(buf[:0], words.data, words.offsets) })
	var dba DeltaByteArrayEncoder
	run("dba", len(words.data), func() { buf = dba.Append(buf[:0], words.data, words.offsets) })
	var d64 Int64Dict
	var out []int32
	run("dict-int64", 8*benchValues, func() { d64.Reset(); out = d64.Insert(out[:0], ts) })
	var dba2 ByteArrayDict
	run("dict-bytearray", len(words.data), func() { dba2.Reset(); out = dba2.Insert(out[:0], words.data, words.offsets) })
}

package encoding

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

func genInt64s(rng *rand.Rand, kind string, n int) []int64 {
	v := make([]int64, n)
	for i := range v {
		switch kind {
		case "random":
			v[i] = int64(rng.Uint64())
		case "equal":
			v[i] = -77
		case "sorted":
			v[i] = 1_700_000_000_000_000 + int64(i)*1000 + rng.Int64N(100)
		case "small":
			v[i] = rng.Int64N(16) - 8
		case "extremes":
			v[i] = []int64{math.MinInt64, math.MaxInt64, 0, -1, 1}[rng.IntN(5)]
		case "descending":
			v[i] = int64(n-i) * 3
		}
	}
	return v
}

var intKinds = []string{"random", "equal", "sorted", "small", "extremes", "descending"}

func genInt32s(rng *rand.Rand, kind string, n int) []int32 {
	v := make([]int32, n)
	for i, x := range genInt64s(rng, kind, n) {
		v[i] = int32(x)
		if kind == "extremes" {
			v[i] = []int32{math.MinInt32, math.MaxInt32, 0, -1, 1}[rng.IntN(5)]
		}
	}
	return v
}

var floatKinds = []string{"random", "decimal", "equal", "special", "mixed"}

func genFloat64s(rng *rand.Rand, kind string, n int) []float64 {
	v := make([]float64, n)
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0,
		math.MaxFloat64, math.SmallestNonzeroFloat64, -math.MaxFloat64, math.Float64frombits(0x7ff8000000000123)}
	for i := range v {
		switch kind {
		case "random":
			v[i] = math.Float64frombits(rng.Uint64())
		case "decimal":
			v[i] = float64(rng.IntN(371481)+9) / 100
		case "equal":
			v[i] = 3.25
		case "special":
			v[i] = special[rng.IntN(len(special))]
		case "mixed":
			if rng.IntN(10) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float64(rng.IntN(2000000)-1000000) / 1000
			}
		}
	}
	return v
}

func genFloat32s(rng *rand.Rand, kind string, n int) []float32 {
	v := make([]float32, n)
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)),
		float32(math.Copysign(0, -1)), 0, math.MaxFloat32, math.SmallestNonzeroFloat32, math.Float32frombits(0x7fc00123)}
	for i := range v {
		switch kind {
		case "random":
			v[i] = math.Float32frombits(rng.Uint32())
		case "decimal":
			v[i] = float32(rng.IntN(371481)+9) / 100
		case "equal":
			v[i] = 3.25
		case "special":
			v[i] = special[rng.IntN(len(special))]
		case "mixed":
			if rng.IntN(10) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float32(rng.IntN(200000)-100000) / 100
			}
		}
	}
	return v
}

func TestInt32RoundTrip(t *testing.T) {
	rng := newRand(t)
	var delta DeltaBinaryPackedEncoder
	for _, kind := range intKinds {
		for _, n := range sizes {
			src := genInt32s(rng, kind, n)
			name := label(kind, n)
			dec, _ := NewInt32Decoder(format.Plain)
			checkTyped(t, "plain/"+name, dec, AppendPlainInt32(nil, src), src, rng)
			dec, _ = NewInt32Decoder(format.DeltaBinaryPacked)
			checkTyped(t, "delta/"+name, dec, delta.AppendInt32(nil, src), src, rng)
			dec, _ = NewInt32Decoder(format.ByteStreamSplit)
			checkTyped(t, "bss/"+name, dec, AppendByteStreamSplitInt32(nil, src), src, rng)
			var d Int32Dict
			idx := d.Insert(nil, src)
			checkTyped(t, "dict/"+name, NewInt32DictDecoder(d.Values()), AppendDictIndices(nil, idx, d.Len()), src, rng)
			// The dictionary page decodes back to the dictionary.
			pd, _ := NewInt32Decoder(format.Plain)
			checkTyped(t, "dictpage/"+name, pd, d.AppendPlain(nil), d.Values(), rng)
		}
	}
}

func TestInt64RoundTrip(t *testing.T) {
	rng := newRand(t)
	for _, kind := range intKinds {
		for _, n := range sizes {
			src := genInt64s(rng, kind, n)
			name := label(kind, n)
			dec, _ := NewInt64Decoder(format.Plain)
			checkTyped(t, "plain/"+name, dec, AppendPlainInt64(nil, src), src, rng)
			dec, _ = NewInt64Decoder(format.DeltaBinaryPacked)
			checkTyped(t, "delta/"+name, dec, AppendDeltaBinaryPackedInt64(nil, src), src, rng)
			dec, _ = NewInt64Decoder(format.ByteStreamSplit)
			checkTyped(t, "bss/"+name, dec, AppendByteStreamSplitInt64(nil, src), src, rng)
			var d Int64Dict
			idx := d.Insert(nil, src)
			checkTyped(t, "dict/"+name, NewInt64DictDecoder(d.Values()), AppendDictIndices(nil, idx, d.Len()), src, rng)
		}
	}
}

func TestDeltaBlockShapes(t *testing.T) {
	rng := newRand(t)
	shapes := [][2]int{{128, 1}, {128, 4}, {256, 8}, {1024, 4}, {128, 2}, {512, 16}}
	for _, sh := range shapes {
		e := DeltaBinaryPackedEncoder{BlockSize: sh[0], Miniblocks: sh[1]}
		for _, kind := range intKinds {
			for _, n := range []int{1, 2, 33, 129, 700, 3000} {
				s64 := genInt64s(rng, kind, n)
				d64 := &DeltaInt64Decoder{}
				checkTyped(t, "int64/"+label(kind, n), d64, e.AppendInt64(nil, s64), s64, rng)
				s32 := genInt32s(rng, kind, n)
				d32 := &DeltaInt32Decoder{}
				checkTyped(t, "int32/"+label(kind, n), d32, e.AppendInt32(nil, s32), s32, rng)
			}
		}
	}
}

func TestFloatRoundTrip(t *testing.T) {
	rng := newRand(t)
	for _, kind := range floatKinds {
		for _, n := range sizes {
			name := label(kind, n)
			s64 := genFloat64s(rng, kind, n)
			dec, _ := NewFloat64Decoder(format.Plain)
			checkTyped(t, "plain64/"+name, dec, AppendPlainFloat64(nil, s64), s64, rng)
			dec, _ = NewFloat64Decoder(format.ByteStreamSplit)
			checkTyped(t, "bss64/"+name, dec, AppendByteStreamSplitFloat64(nil, s64), s64, rng)
			dec, _ = NewFloat64Decoder(format.ALP)
			checkTyped(t, "alp64/"+name, dec, AppendALPFloat64(nil, s64), s64, rng)
			var d Float64Dict
			idx := d.Insert(nil, s64)
			checkTyped(t, "dict64/"+name, NewFloat64DictDecoder(d.Values()), AppendDictIndices(nil, idx, d.Len()), s64, rng)

			s32 := genFloat32s(rng, kind, n)
			dec32, _ := NewFloat32Decoder(format.Plain)
			checkTyped(t, "plain32/"+name, dec32, AppendPlainFloat32(nil, s32), s32, rng)
			dec32, _ = NewFloat32Decoder(format.ByteStreamSplit)
			checkTyped(t, "bss32/"+name, dec32, AppendByteStreamSplitFloat32(nil, s32), s32, rng)
			dec32, _ = NewFloat32Decoder(format.ALP)
			checkTyped(t, "alp32/"+name, dec32, AppendALPFloat32(nil, s32), s32, rng)
			var d32 Float32Dict
			idx = d32.Insert(nil, s32)
			checkTyped(t, "dict32/"+name, NewFloat32DictDecoder(d32.Values()), AppendDictIndices(nil, idx, d32.Len()), s32, rng)
		}
	}
}

func TestALPVectorSizes(t *testing.T) {
	rng := newRand(t)
	for _, log := range []int{3, 4, 7, 10, 12, 15} {
		e := ALPEncoder{LogVectorSize: log}
		for _, n := range []int{1, 7, 8, 9, 100, 5000} {
			s := genFloat64s(rng, "mixed", n)
			e.Reset()
			checkTyped(t, label("f64", n), &ALPFloat64Decoder{}, e.AppendFloat64(nil, s), s, rng)
			s32 := genFloat32s(rng, "decimal", n)
			e.Reset()
			checkTyped(t, label("f32", n), &ALPFloat32Decoder{}, e.AppendFloat32(nil, s32), s32, rng)
		}
	}
}

func TestALPCompresses(t *testing.T) {
	rng := newRand(t)
	s := genFloat64s(rng, "decimal", 10000)
	enc := AppendALPFloat64(nil, s)
	if len(enc) > len(s)*8/3 {
		t.Errorf("ALP of cent amounts: %d bytes for %d values, want < 1/3 of PLAIN", len(enc), len(s))
	}
	// In binary32, n*0.01f often misses n/100 by an ulp, so cents give
	// many exceptions; whole numbers and halves do not.
	s32 := make([]float32, 10000)
	for i := range s32 {
		s32[i] = float32(rng.IntN(200000)-100000) / 2
	}
	enc = AppendALPFloat32(nil, s32)
	if len(enc) > len(s32)*4*2/3 {
		t.Errorf("ALP float of cent amounts: %d bytes for %d values", len(enc), len(s32))
	}
}

func TestBoolRoundTrip(t *testing.T) {
	rng := newRand(t)
	for _, kind := range []string{"random", "true", "false", "runs"} {
		for _, n := range sizes {
			v := make([]bool, n)
			for i := range v {
				switch kind {
				case "random":
					v[i] = rng.IntN(2) == 0
				case "true":
					v[i] = true
				case "runs":
					v[i] = (i/37)%2 == 0
				}
			}
			name := label(kind, n)
			dec, _ := NewBoolDecoder(format.Plain)
			checkTyped(t, "plain/"+name, dec, AppendPlainBool(nil, v), v, rng)
			dec, _ = NewBoolDecoder(format.RLE)
			checkTyped(t, "rle/"+name, dec, AppendRLEBool(nil, v), v, rng)
			checkTyped(t, "dict/"+name, NewBoolDictDecoder([]bool{false, true}), AppendDictIndices(nil, boolIdx(v), 2), v, rng)
		}
	}
}

func boolIdx(v []bool) []int32 {
	idx := make([]int32, len(v))
	for i, b := range v {
		if b {
			idx[i] = 1
		}
	}
	return idx
}

func TestInt96RoundTrip(t *testing.T) {
	rng := newRand(t)
	for _, n := range sizes {
		v := make([][12]byte, n)
		for i := range v {
			for j := range v[i] {
				v[i][j] = byte(rng.IntN(4))
			}
		}
		dec, _ := NewInt96Decoder(format.Plain)
		checkTyped(t, label("plain", n), dec, AppendPlainInt96(nil, v), v, rng)
		var d Int96Dict
		idx := d.Insert(nil, v)
		checkTyped(t, label("dict", n), NewInt96DictDecoder(d.Values()), AppendDictIndices(nil, idx, d.Len()), v, rng)
	}
}

func genByteArrays(rng *rand.Rand, kind string, n int) byteArrays {
	vals := make([][]byte, n)
	words := []string{"axis", "axle", "babble", "babyhood", "", "b", "books", "bookshelf"}
	for i := range vals {
		switch kind {
		case "words":
			vals[i] = []byte(words[rng.IntN(len(words))])
		case "empty":
			vals[i] = nil
		case "random":
			b := make([]byte, rng.IntN(40))
			for j := range b {
				b[j] = byte(rng.Uint32())
			}
			vals[i] = b
		case "long":
			b := make([]byte, 1000+rng.IntN(70000))
			for j := range b {
				b[j] = byte('a' + j%26)
			}
			vals[i] = b
		case "sorted":
			vals[i] = []byte(string(rune('a'+i%26)) + "prefix/common/" + string(rune('a'+(i/7)%26)))
		}
	}
	return makeByteArrays(vals)
}

func TestByteArrayRoundTrip(t *testing.T) {
	rng := newRand(t)
	var dlba DeltaLengthByteArrayEncoder
	var dba DeltaByteArrayEncoder
	for _, kind := range []string{"words", "empty", "random", "long", "sorted"} {
		for _, n := range sizes {
			if kind == "long" && n > 40 {
				continue
			}
			b := genByteArrays(rng, kind, n)
			name := label(kind, n)
			dec, _ := NewByteArrayDecoder(format.Plain)
			checkByteArrays(t, "plain/"+name, dec, AppendPlainByteArray(nil, b.data, b.offsets), b, rng)
			dec, _ = NewByteArrayDecoder(format.DeltaLengthByteArray)
			checkByteArrays(t, "dlba/"+name, dec, dlba.Append(nil, b.data, b.offsets), b, rng)
			dec, _ = NewByteArrayDecoder(format.DeltaByteArray)
			checkByteArrays(t, "dba/"+name, dec, dba.Append(nil, b.data, b.offsets), b, rng)
			var d ByteArrayDict
			idx := d.Insert(nil, b.data, b.offsets)
			checkByteArrays(t, "dict/"+name, NewByteArrayDictDecoder(d.Data(), d.Offsets()), AppendDictIndices(nil, idx, d.Len()), b, rng)
			pd, _ := NewByteArrayDecoder(format.Plain)
			if d.Len() > 0 {
				checkByteArrays(t, "dictpage/"+name, pd, d.AppendPlain(nil), byteArrays{d.Data(), d.Offsets()}, rng)
			}
		}
	}
}

func TestFixedLenRoundTrip(t *testing.T) {
	rng := newRand(t)
	var dba DeltaByteArrayEncoder
	for _, w := range []int{1, 2, 3, 4, 8, 12, 16, 17, 33} {
		for _, n := range sizes {
			vals := make([]byte, n*w)
			for i := range vals {
				vals[i] = byte(rng.IntN(3))
			}
			want := make([]string, n)
			for i := range want {
				want[i] = string(vals[i*w : i*w+w])
			}
			check := func(kind string, dec FixedLenDecoder, enc []byte) {
				t.Helper()
				checkTyped[string](t, label(kind, n), fixedAsTyped{dec}, enc, want, rng)
			}
			dec, _ := NewFixedLenDecoder(format.Plain, w)
			check("plain", dec, AppendPlainFixedLen(nil, vals))
			dec, _ = NewFixedLenDecoder(format.DeltaByteArray, w)
			check("dba", dec, dba.AppendFixedLen(nil, vals, w))
			dec, _ = NewFixedLenDecoder(format.ByteStreamSplit, w)
			check("bss", dec, AppendByteStreamSplitFixedLen(nil, vals, w))
			d := NewFixedLenDict(w)
			idx := d.Insert(nil, vals)
			dd, _ := NewFixedLenDictDecoder(d.Values(), w)
			check("dict", dd, AppendDictIndices(nil, idx, d.Len()))
			// Unaligned dictionary and output exercise the copy fallback.
			unaligned := append([]byte{0}, d.Values()...)[1:]
			dd, _ = NewFixedLenDictDecoder(unaligned, w)
			check("dict-unaligned", dd, AppendDictIndices(nil, idx, d.Len()))
		}
	}
}

// fixedAsTyped adapts a FixedLenDecoder to the typed checks, one string
// of width bytes per value.
type fixedAsTyped struct{ d FixedLenDecoder }

func (f fixedAsTyped) Reset(src []byte, n int) error { return f.d.Reset(src, n) }
func (f fixedAsTyped) Decode(dst []string, n int) ([]string, error) {
	b, err := f.d.Decode(nil, n)
	for i := 0; i+f.d.Width() <= len(b); i += f.d.Width() {
		dst = append(dst, string(b[i:i+f.d.Width()]))
	}
	return dst, err
}
func (f fixedAsTyped) Skip(n int) error { return f.d.Skip(n) }
func (f fixedAsTyped) Remaining() int   { return f.d.Remaining() }

// TestDeltaJoinedMiniblocks decodes blocks whose miniblocks share a bit
// width, which the decoder unpacks as one run (deltaCore.joinMiniblocks),
// next to one of another width, and a stream whose last miniblock lacks
// its padding, which must not be joined to the whole one before it.
func TestDeltaJoinedMiniblocks(t *testing.T) {
	rng := newRand(t)
	// Deltas of 128-value blocks of 4 miniblocks of 32: widths 5, 5, 9, 5
	// in the first block, 5 everywhere in the second; the last block
	// holds 40 deltas, a whole miniblock and one of 8 padded to 32. Each
	// miniblock has a delta 0 and its largest one, fixing its width.
	n := 1 + 128 + 128 + 40
	v := make([]int64, n)
	for i := 1; i < n; i++ {
		j := i - 1
		top := int64(31)
		if j >= 64 && j < 96 {
			top = 511
		}
		d := rng.Int64N(top + 1)
		switch j % 32 {
		case 0:
			d = 0
		case 1:
			d = top
		}
		v[i] = v[i-1] + d
	}
	v32 := make([]int32, n)
	for i, x := range v {
		v32[i] = int32(x)
	}
	enc64, enc32 := AppendDeltaBinaryPackedInt64(nil, v), AppendDeltaBinaryPackedInt32(nil, v32)
	for range 20 {
		checkTyped(t, "int64", &DeltaInt64Decoder{}, enc64, v, rng)
		checkTyped(t, "int32", &DeltaInt32Decoder{}, enc32, v32, rng)
	}
	// Without the last miniblock's padding (24 values of 5 bits) the
	// stream still holds every value.
	short := enc64[:len(enc64)-24*5/8]
	for range 20 {
		checkTyped(t, "int64 unpadded", &DeltaInt64Decoder{}, short, v, rng)
	}
	var d DeltaInt64Decoder
	if err := d.Reset(short[:len(short)-1], n); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Decode(nil, n); err == nil {
		t.Fatal("a stream one byte shorter than its values decoded")
	}
}

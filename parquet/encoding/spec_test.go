package encoding

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// The worked examples of Encodings.md and AlpEncoding.md, byte for byte.

func TestDeltaSpecExamples(t *testing.T) {
	// Example 1: 1..5, block size 8, 1 miniblock, min delta 1, width 0.
	ex1 := []byte{8, 1, 5, 2, 2, 0}
	var d DeltaInt32Decoder
	if err := d.Reset(ex1, 5); err != nil {
		t.Fatal(err)
	}
	got, err := d.Decode(nil, 5)
	if err != nil || !sliceEqual(got, []int32{1, 2, 3, 4, 5}) {
		t.Fatalf("example 1: %v %v", got, err)
	}
	// Example 2: 7,5,3,1,2,3,4,5: min delta -2, width 2, relative deltas
	// 0,0,0,3,3,3,3 (and one padding value).
	ex2 := []byte{8, 1, 8, 14, 3, 2, 0xC0, 0x3F}
	var d64 DeltaInt64Decoder
	if err := d64.Reset(ex2, 8); err != nil {
		t.Fatal(err)
	}
	got64, err := d64.Decode(nil, 8)
	if err != nil || !sliceEqual(got64, []int64{7, 5, 3, 1, 2, 3, 4, 5}) {
		t.Fatalf("example 2: %v %v", got64, err)
	}
}

func TestDeltaHeaderOnly(t *testing.T) {
	// One value: header only, no block; zero values: header only.
	for _, v := range [][]int64{{42}, {}} {
		enc := AppendDeltaBinaryPackedInt64(nil, v)
		if len(enc) > 5 {
			t.Errorf("%d values took %d bytes", len(v), len(enc))
		}
	}
}

func TestDeltaOverflow(t *testing.T) {
	rng := newRand(t)
	v := []int64{math.MaxInt64, math.MinInt64, math.MaxInt64, 0, math.MinInt64, -1, math.MaxInt64}
	checkTyped(t, "int64", &DeltaInt64Decoder{}, AppendDeltaBinaryPackedInt64(nil, v), v, rng)
	v32 := []int32{math.MaxInt32, math.MinInt32, math.MaxInt32, 0, math.MinInt32, -1}
	checkTyped(t, "int32", &DeltaInt32Decoder{}, AppendDeltaBinaryPackedInt32(nil, v32), v32, rng)
	// An INT32 stream a 64-bit writer made: deltas of 33 bits.
	var e DeltaBinaryPackedEncoder
	wide := e.AppendInt64(nil, []int64{math.MaxInt32, math.MinInt32, math.MaxInt32})
	checkTyped(t, "int32 from 64-bit deltas", &DeltaInt32Decoder{}, wide, []int32{math.MaxInt32, math.MinInt32, math.MaxInt32}, rng)
}

func TestDeltaLengthSpecExample(t *testing.T) {
	b := makeByteArrays([][]byte{[]byte("Hello"), []byte("World"), []byte("Foobar"), []byte("ABCDEF")})
	enc := AppendDeltaLengthByteArray(nil, b.data, b.offsets)
	if !bytes.HasSuffix(enc, []byte("HelloWorldFoobarABCDEF")) {
		t.Fatalf("data section: %q", enc)
	}
	var lens DeltaInt32Decoder
	if err := lens.Reset(enc, 4); err != nil {
		t.Fatal(err)
	}
	if got, _ := lens.Decode(nil, 4); !sliceEqual(got, []int32{5, 5, 6, 6}) {
		t.Fatalf("lengths %v", got)
	}
	checkByteArrays(t, "dlba", &DeltaLengthByteArrayDecoder{}, enc, b, newRand(t))
}

func TestDeltaByteArraySpecExample(t *testing.T) {
	b := makeByteArrays([][]byte{[]byte("axis"), []byte("axle"), []byte("babble"), []byte("babyhood")})
	enc := AppendDeltaByteArray(nil, b.data, b.offsets)
	if !bytes.HasSuffix(enc, []byte("axislebabbleyhood")) {
		t.Fatalf("suffix data: %q", enc)
	}
	var prefixes DeltaInt32Decoder
	if err := prefixes.Reset(enc, 4); err != nil {
		t.Fatal(err)
	}
	if got, _ := prefixes.Decode(nil, 4); !sliceEqual(got, []int32{0, 2, 0, 3}) {
		t.Fatalf("prefix lengths %v", got)
	}
	end, _ := prefixes.c.end()
	var suffixLens DeltaInt32Decoder
	if err := suffixLens.Reset(enc[end:], 4); err != nil {
		t.Fatal(err)
	}
	if got, _ := suffixLens.Decode(nil, 4); !sliceEqual(got, []int32{4, 2, 6, 5}) {
		t.Fatalf("suffix lengths %v", got)
	}
	checkByteArrays(t, "dba", &DeltaByteArrayDecoder{}, enc, b, newRand(t))
}

func TestByteStreamSplitSpecExample(t *testing.T) {
	plain := []byte{0xAA, 0xBB, 0xCC, 0xDD, 0x00, 0x11, 0x22, 0x33, 0xA3, 0xB4, 0xC5, 0xD6}
	split := []byte{0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}
	if got := AppendByteStreamSplitFixedLen(nil, plain, 4); !bytes.Equal(got, split) {
		t.Fatalf("encoded % x", got)
	}
	var f []float32
	for i := 0; i < 12; i += 4 {
		f = append(f, math.Float32frombits(binary.LittleEndian.Uint32(plain[i:])))
	}
	if got := AppendByteStreamSplitFloat32(nil, f); !bytes.Equal(got, split) {
		t.Fatalf("float encoded % x", got)
	}
	dec, _ := NewFloat32Decoder(format.ByteStreamSplit)
	checkTyped(t, "float", dec, split, f, newRand(t))
}

func TestALPSpecExample(t *testing.T) {
	// AlpEncoding.md's worked example: {1500, NaN, 2500, 333.5} with
	// exponent 4, factor 3 is one 31-byte vector.
	nan := math.NaN()
	vals := []float64{1500, nan, 2500, 333.5}
	var e ALPEncoder
	vec := alpF64.appendVector(&e, nil, vals, 4, 3)
	want := []byte{4, 3, 1, 0}                                        // e, f, one exception
	want = binary.LittleEndian.AppendUint64(want, 3335)               // frame of reference
	want = append(want, 15)                                           // bit width
	want = appendPacked64(want, []uint64{11665, 11665, 21665, 0}, 15) // 8 bytes
	want = binary.LittleEndian.AppendUint16(want, 1)
	want = binary.LittleEndian.AppendUint64(want, math.Float64bits(nan))
	if len(want) != 31 || !bytes.Equal(vec, want) {
		t.Fatalf("vector (%d bytes)\n got % x\nwant % x", len(vec), vec, want)
	}
	page := []byte{0, 0, 10, 4, 0, 0, 0, 4, 0, 0, 0}
	page = append(page, want...)
	checkTyped(t, "decode", &ALPFloat64Decoder{}, page, vals, newRand(t))
}

func TestALPPowersOfTen(t *testing.T) {
	// The constants are the correctly rounded values of the literals; check
	// against the bit patterns of a few known ones.
	if math.Float64bits(alpNegPow10F64[1]) != 0x3FB999999999999A {
		t.Error("1e-1")
	}
	if math.Float32bits(alpNegPow10F32[1]) != 0x3DCCCCCD {
		t.Error("1e-1f")
	}
	if math.Float64bits(alpNegPow10F64[18]) != math.Float64bits(1e-18) || alpPow10F64[18] != 1e18 {
		t.Error("1e±18")
	}
}

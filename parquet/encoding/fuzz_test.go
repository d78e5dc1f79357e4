package encoding

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// Every fuzz target takes (data, n): data is decoded as the encoding with
// n expected values, in random batches and skips, which must never panic
// or hang; then values derived from data are encoded and must decode back
// to themselves. Seeds live in testdata/fuzz/<Target>/ so that plain
// `go test` replays them (regenerate with CARQUET_WRITE_SEEDS=1, see
// seeds_test.go).

// maxFuzzValues keeps outputs small: DELTA_BYTE_ARRAY can legitimately
// expand each value to the size of the page.
const maxFuzzValues = 4096

func fuzzRand(n uint16, data []byte) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(n), uint64(len(data))))
}

// drainTyped decodes whatever dec accepts, checking the protocol.
func drainTyped[T any](t *testing.T, dec typed[T], data []byte, n int, rng *rand.Rand) {
	if err := dec.Reset(data, n); err != nil {
		return
	}
	var out []T
	for steps := 0; dec.Remaining() > 0; steps++ {
		if steps > n+1 {
			t.Fatalf("no progress: %d values remain after %d steps", dec.Remaining(), steps)
		}
		before := dec.Remaining()
		k := 1 + rng.IntN(300)
		var err error
		if rng.IntN(3) == 0 {
			err = dec.Skip(min(k, before))
			if err == nil && dec.Remaining() != before-min(k, before) {
				t.Fatalf("Skip(%d) left %d of %d", k, dec.Remaining(), before)
			}
		} else {
			out, err = dec.Decode(out[:0], k)
			if len(out) > k {
				t.Fatalf("Decode(%d) returned %d values", k, len(out))
			}
			if err == nil && (len(out) != min(k, before) || dec.Remaining() != before-len(out)) {
				t.Fatalf("Decode(%d) of %d gave %d, %d left", k, before, len(out), dec.Remaining())
			}
		}
		if err != nil {
			return
		}
	}
}

func drainByteArrays(t *testing.T, dec ByteArrayDecoder, data []byte, n int, rng *rand.Rand) {
	if err := dec.Reset(data, n); err != nil {
		return
	}
	var vals []byte
	var offs []int32
	for steps := 0; dec.Remaining() > 0; steps++ {
		if steps > n+1 {
			t.Fatalf("no progress")
		}
		before := dec.Remaining()
		k := 1 + rng.IntN(300)
		var err error
		if rng.IntN(3) == 0 {
			err = dec.Skip(min(k, before))
		} else {
			vals, offs, err = dec.Decode(vals[:0], offs[:0], k)
			if len(offs) > 0 && (len(offs)-1 > k || int(offs[len(offs)-1]) != len(vals)) {
				t.Fatalf("Decode(%d): %d offsets for %d bytes", k, len(offs), len(vals))
			}
			for i := 1; i < len(offs); i++ {
				if offs[i] < offs[i-1] {
					t.Fatalf("offsets go backwards")
				}
			}
		}
		if err != nil {
			return
		}
	}
}

func fuzzCount(n uint16) int { return int(n) % (maxFuzzValues + 1) }

// int32s etc. view data as values (little-endian).
func int32s(data []byte) []int32 {
	v := make([]int32, len(data)/4)
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return v
}

func int64s(data []byte) []int64 {
	v := make([]int64, len(data)/8)
	for i := range v {
		v[i] = int64(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return v
}

func float32s(data []byte) []float32 {
	v := make([]float32, len(data)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
	}
	return v
}

func float64s(data []byte) []float64 {
	v := make([]float64, len(data)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
	}
	return v
}

// splitValues cuts data into byte arrays at every 0xFF byte.
func splitValues(data []byte) byteArrays {
	return makeByteArrays(bytes.Split(data, []byte{0xFF}))
}

func FuzzPlainInt32(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewInt32Decoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := int32s(data)
		checkTyped(t, "plain", dec, AppendPlainInt32(nil, v), v, rng)
	})
}

func FuzzPlainInt64(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewInt64Decoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := int64s(data)
		checkTyped(t, "plain", dec, AppendPlainInt64(nil, v), v, rng)
	})
}

func FuzzPlainFloat32(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewFloat32Decoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := float32s(data)
		checkTyped(t, "plain", dec, AppendPlainFloat32(nil, v), v, rng)
	})
}

func FuzzPlainFloat64(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewFloat64Decoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := float64s(data)
		checkTyped(t, "plain", dec, AppendPlainFloat64(nil, v), v, rng)
	})
}

func FuzzPlainInt96(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewInt96Decoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := make([][12]byte, len(data)/12)
		for i := range v {
			copy(v[i][:], data[12*i:])
		}
		checkTyped(t, "plain", dec, AppendPlainInt96(nil, v), v, rng)
	})
}

func FuzzPlainBool(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewBoolDecoder(format.Plain)
		drainTyped(t, dec, data, fuzzCount(n), rng)
		v := make([]bool, len(data))
		for i, b := range data {
			v[i] = b&1 == 1
		}
		checkTyped(t, "plain", dec, AppendPlainBool(nil, v), v, rng)
	})
}

func FuzzPlainByteArray(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dec, _ := NewByteArrayDecoder(format.Plain)
		drainByteArrays(t, dec, data, fuzzCount(n), rng)
		b := splitValues(data)
		checkByteArrays(t, "plain", dec, AppendPlainByteArray(nil, b.data, b.offsets), b, rng)
	})
}

func FuzzPlainFixedLen(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		w := 1 + int(n>>12)
		dec, _ := NewFixedLenDecoder(format.Plain, w)
		drainTyped[string](t, fixedAsTyped{dec}, data, fuzzCount(n), rng)
		want := make([]string, len(data)/w)
		for i := range want {
			want[i] = string(data[i*w : i*w+w])
		}
		checkTyped[string](t, "plain", fixedAsTyped{dec}, data[:len(want)*w], want, rng)
	})
}

// FuzzRLE: data[0] is the bit width, the rest the hybrid.
func FuzzRLE(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		if len(data) == 0 {
			return
		}
		rng := fuzzRand(n, data)
		bw := int(data[0])
		drainTyped(t, rleAdapter{&RLEDecoder{}, bw}, data[1:], fuzzCount(n), rng)
		bw %= 33
		mask := uint32(1)<<bw - 1
		if bw == 32 {
			mask = ^uint32(0)
		}
		v := make([]int32, len(data)-1)
		for i := range v {
			// Bytes repeat to make runs; widen to the bit width.
			x := uint32(data[1+i]) * 0x01010101
			v[i] = int32(x & mask)
		}
		checkTyped(t, "rle", rleAdapter{&RLEDecoder{}, bw}, AppendRLE(nil, v, bw), v, rng)
		bools := make([]bool, len(v))
		for i := range v {
			bools[i] = v[i]&1 == 1
		}
		bd, _ := NewBoolDecoder(format.RLE)
		drainTyped(t, bd, data, fuzzCount(n), rng)
		checkTyped(t, "rle bool", bd, AppendRLEBool(nil, bools), bools, rng)
	})
}

// FuzzLevels: data[0] picks the max level (and data[0]&0x80 the v2
// layout), the rest is levels as RLE (v1 or v2) and as BIT_PACKED.
func FuzzLevels(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		if len(data) == 0 {
			return
		}
		rng := fuzzRand(n, data)
		maxLevel := int16(data[0] & 0x7f)
		v2 := data[0]&0x80 != 0
		src := data[1:]
		drainTyped(t, levelAdapter{&LevelDecoder{}, format.RLE, v2, maxLevel}, src, fuzzCount(n), rng)
		drainTyped(t, levelAdapter{&LevelDecoder{}, format.BitPacked, false, maxLevel}, src, fuzzCount(n), rng)
		v := make([]int16, len(src))
		for i, b := range src {
			v[i] = int16(int(b) % (int(maxLevel) + 1))
		}
		checkTyped(t, "v1", levelAdapter{&LevelDecoder{}, format.RLE, false, maxLevel}, AppendLevelsV1(nil, v, maxLevel), v, rng)
		checkTyped(t, "v2", levelAdapter{&LevelDecoder{}, format.RLE, true, maxLevel}, AppendLevelsV2(nil, v, maxLevel), v, rng)
		checkTyped(t, "bit-packed", levelAdapter{&LevelDecoder{}, format.BitPacked, false, maxLevel}, AppendBitPackedLevels(nil, v, maxLevel), v, rng)
	})
}

// FuzzBitPacked decodes the deprecated BIT_PACKED levels at every width.
func FuzzBitPacked(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		maxLevel := int16(n >> 1)
		drainTyped(t, levelAdapter{&LevelDecoder{}, format.BitPacked, false, maxLevel}, data, fuzzCount(n), rng)
		v := make([]int16, len(data))
		for i, b := range data {
			v[i] = int16(int(b) * 257 % (int(maxLevel) + 1))
		}
		checkTyped(t, "bit-packed", levelAdapter{&LevelDecoder{}, format.BitPacked, false, maxLevel}, AppendBitPackedLevels(nil, v, maxLevel), v, rng)
	})
}

// FuzzDictIndices decodes indices and gathers them from dictionaries of
// every physical type, all of n%300 entries.
func FuzzDictIndices(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		dictLen := int(n) % 300
		drainTyped(t, &DictIndexDecoder{}, data, fuzzCount(n), rng)
		d32 := make([]int32, dictLen)
		d64 := make([]float64, dictLen)
		words := make([][]byte, dictLen)
		for i := range d32 {
			d32[i], d64[i] = int32(i*7), float64(i)/3
			words[i] = bytes.Repeat([]byte{byte(i)}, i%5)
		}
		dict := makeByteArrays(words)
		drainTyped(t, NewInt32DictDecoder(d32), data, fuzzCount(n), rng)
		drainTyped(t, NewFloat64DictDecoder(d64), data, fuzzCount(n), rng)
		fd, _ := NewFixedLenDictDecoder(make([]byte, 16*dictLen), 16)
		drainTyped[string](t, fixedAsTyped{fd}, data, fuzzCount(n), rng)
		drainByteArrays(t, NewByteArrayDictDecoder(dict.data, dict.offsets), data, fuzzCount(n), rng)
		if dictLen == 0 {
			return
		}
		idx := make([]int32, len(data))
		want := make([]int32, len(data))
		for i, b := range data {
			idx[i] = int32(int(b) % dictLen)
			want[i] = d32[idx[i]]
		}
		enc := AppendDictIndices(nil, idx, dictLen)
		checkTyped(t, "indices", &DictIndexDecoder{}, enc, idx, rng)
		checkTyped(t, "int32", NewInt32DictDecoder(d32), enc, want, rng)
	})
}

func FuzzDeltaInt32(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainTyped(t, &DeltaInt32Decoder{}, data, fuzzCount(n), rng)
		v := int32s(data)
		e := DeltaBinaryPackedEncoder{BlockSize: 128 * (1 + int(n%4)), Miniblocks: 1 << (n % 3)}
		checkTyped(t, "delta", &DeltaInt32Decoder{}, e.AppendInt32(nil, v), v, rng)
	})
}

func FuzzDeltaInt64(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainTyped(t, &DeltaInt64Decoder{}, data, fuzzCount(n), rng)
		v := int64s(data)
		e := DeltaBinaryPackedEncoder{BlockSize: 128 * (1 + int(n%4)), Miniblocks: 1 << (n % 3)}
		checkTyped(t, "delta", &DeltaInt64Decoder{}, e.AppendInt64(nil, v), v, rng)
	})
}

func FuzzDeltaLengthByteArray(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainByteArrays(t, &DeltaLengthByteArrayDecoder{}, data, fuzzCount(n), rng)
		b := splitValues(data)
		checkByteArrays(t, "dlba", &DeltaLengthByteArrayDecoder{}, AppendDeltaLengthByteArray(nil, b.data, b.offsets), b, rng)
	})
}

func FuzzDeltaByteArray(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainByteArrays(t, &DeltaByteArrayDecoder{}, data, fuzzCount(n), rng)
		w := 1 + int(n>>12)
		fd, _ := NewFixedLenDecoder(format.DeltaByteArray, w)
		drainTyped[string](t, fixedAsTyped{fd}, data, fuzzCount(n), rng)
		b := splitValues(data)
		checkByteArrays(t, "dba", &DeltaByteArrayDecoder{}, AppendDeltaByteArray(nil, b.data, b.offsets), b, rng)
		want := make([]string, len(data)/w)
		for i := range want {
			want[i] = string(data[i*w : i*w+w])
		}
		var e DeltaByteArrayEncoder
		checkTyped[string](t, "dba fixed", fixedAsTyped{fd}, e.AppendFixedLen(nil, data, w), want, rng)
	})
}

// FuzzByteStreamSplit: n%5 picks INT32, INT64, FLOAT, DOUBLE or
// FIXED_LEN_BYTE_ARRAY (width 1+n>>12).
func FuzzByteStreamSplit(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		count := fuzzCount(n)
		switch n % 5 {
		case 0:
			dec, _ := NewInt32Decoder(format.ByteStreamSplit)
			drainTyped(t, dec, data, count, rng)
			v := int32s(data)
			checkTyped(t, "int32", dec, AppendByteStreamSplitInt32(nil, v), v, rng)
		case 1:
			dec, _ := NewInt64Decoder(format.ByteStreamSplit)
			drainTyped(t, dec, data, count, rng)
			v := int64s(data)
			checkTyped(t, "int64", dec, AppendByteStreamSplitInt64(nil, v), v, rng)
		case 2:
			dec, _ := NewFloat32Decoder(format.ByteStreamSplit)
			drainTyped(t, dec, data, count, rng)
			v := float32s(data)
			checkTyped(t, "float", dec, AppendByteStreamSplitFloat32(nil, v), v, rng)
		case 3:
			dec, _ := NewFloat64Decoder(format.ByteStreamSplit)
			drainTyped(t, dec, data, count, rng)
			v := float64s(data)
			checkTyped(t, "double", dec, AppendByteStreamSplitFloat64(nil, v), v, rng)
		default:
			w := 1 + int(n>>12)
			dec, _ := NewFixedLenDecoder(format.ByteStreamSplit, w)
			drainTyped[string](t, fixedAsTyped{dec}, data, count, rng)
			want := make([]string, len(data)/w)
			for i := range want {
				want[i] = string(data[i*w : i*w+w])
			}
			checkTyped[string](t, "fixed", fixedAsTyped{dec}, AppendByteStreamSplitFixedLen(nil, data, w), want, rng)
		}
	})
}

func FuzzALPFloat32(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainTyped(t, &ALPFloat32Decoder{}, data, fuzzCount(n), rng)
		v := float32s(data)
		// Also decimal-like values, so that few are exceptions.
		for i := range v {
			if i%2 == 0 {
				v[i] = float32(int32(binary.LittleEndian.Uint32(data[4*i:]))>>8) / 100
			}
		}
		e := ALPEncoder{LogVectorSize: 3 + int(n%13)}
		checkTyped(t, "alp", &ALPFloat32Decoder{}, e.AppendFloat32(nil, v), v, rng)
	})
}

func FuzzALPFloat64(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, n uint16) {
		rng := fuzzRand(n, data)
		drainTyped(t, &ALPFloat64Decoder{}, data, fuzzCount(n), rng)
		v := float64s(data)
		for i := range v {
			if i%2 == 0 {
				v[i] = float64(int64(binary.LittleEndian.Uint64(data[8*i:]))>>20) / 1000
			}
		}
		e := ALPEncoder{LogVectorSize: 3 + int(n%13)}
		checkTyped(t, "alp", &ALPFloat64Decoder{}, e.AppendFloat64(nil, v), v, rng)
	})
}

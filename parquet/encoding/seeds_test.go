package encoding

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFuzzSeeds regenerates the checked-in seed corpora under
// testdata/fuzz when CARQUET_WRITE_SEEDS=1: for each target, valid
// encodings from our encoders plus truncated and corrupted copies.
func TestWriteFuzzSeeds(t *testing.T) {
	if os.Getenv("CARQUET_WRITE_SEEDS") == "" {
		t.Skip("set CARQUET_WRITE_SEEDS=1 to regenerate testdata/fuzz")
	}
	type seed struct {
		data []byte
		n    uint16
	}
	ints32 := []int32{1, 2, 3, 4, 5, -7, math.MaxInt32, math.MinInt32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9}
	ints64 := []int64{7, 5, 3, 1, 2, 3, 4, 5, math.MinInt64, math.MaxInt64, 1 << 40}
	f64 := []float64{1500, math.NaN(), 2500, 333.5, math.Copysign(0, -1), math.Inf(1), 0.1, 0.2}
	f32 := []float32{1.5, float32(math.NaN()), 2.25, 333.5, 0.1, -4}
	words := makeByteArrays([][]byte{[]byte("axis"), []byte("axle"), []byte("babble"), []byte("babyhood"), nil, []byte("b")})
	levels := []int16{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 0, 1, 2, 3, 3}
	var seq []int32
	for i := 0; i < 300; i++ {
		seq = append(seq, int32(i*i))
	}
	var seq64 []int64
	for i := 0; i < 300; i++ {
		seq64 = append(seq64, int64(i)*1e12)
	}
	long := make([]float64, 3000)
	for i := range long {
		long[i] = float64(i%977) / 100
	}

	valid := map[string][]seed{
		"FuzzPlainInt32":   {{AppendPlainInt32(nil, ints32), uint16(len(ints32))}},
		"FuzzPlainInt64":   {{AppendPlainInt64(nil, ints64), uint16(len(ints64))}},
		"FuzzPlainFloat32": {{AppendPlainFloat32(nil, f32), uint16(len(f32))}},
		"FuzzPlainFloat64": {{AppendPlainFloat64(nil, f64), uint16(len(f64))}},
		"FuzzPlainInt96":   {{make([]byte, 36), 3}},
		"FuzzPlainBool":    {{AppendPlainBool(nil, []bool{true, false, true, true, false, false, true, true, true}), 9}},
		"FuzzPlainByteArray": {{AppendPlainByteArray(nil, words.data, words.offsets), uint16(words.n())},
			{[]byte{0xff, 0xff, 0xff, 0xff, 1}, 1}},
		"FuzzPlainFixedLen": {{[]byte("abcdefghijkl"), 3 | 3<<12}},
		"FuzzRLE": {{append([]byte{3}, AppendRLE(nil, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 3)...), 8},
			{append([]byte{1}, AppendRLEBool(nil, []bool{true, true, true, true, true, true, true, true, true, false})...), 10},
			{append([]byte{20}, AppendRLE(nil, seq, 20)...), 300},
			{[]byte{33, 2, 1}, 1}},
		"FuzzLevels": {{append([]byte{3}, AppendLevelsV1(nil, levels, 3)...), uint16(len(levels))},
			{append([]byte{0x83}, AppendLevelsV2(nil, levels, 3)...), uint16(len(levels))}},
		"FuzzBitPacked":   {{[]byte{0x05, 0x39, 0x77}, 8 | 7<<1}},
		"FuzzDictIndices": {{AppendDictIndices(nil, []int32{0, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1}, 3), 12 + 300*3}, {[]byte{40, 1}, 5}},
		"FuzzDeltaInt32": {{AppendDeltaBinaryPackedInt32(nil, ints32), uint16(len(ints32))},
			{AppendDeltaBinaryPackedInt32(nil, seq), 300},
			{[]byte{8, 1, 5, 2, 2, 0}, 5}},
		"FuzzDeltaInt64": {{AppendDeltaBinaryPackedInt64(nil, ints64), uint16(len(ints64))},
			{AppendDeltaBinaryPackedInt64(nil, seq64), 300},
			{[]byte{8, 1, 8, 14, 3, 2, 0xC0, 0x3F}, 8}},
		"FuzzDeltaLengthByteArray": {{AppendDeltaLengthByteArray(nil, words.data, words.offsets), uint16(words.n())}},
		"FuzzDeltaByteArray":       {{AppendDeltaByteArray(nil, words.data, words.offsets), uint16(words.n())}},
		"FuzzByteStreamSplit": {{AppendByteStreamSplitInt32(nil, ints32), 5*3 + 0}, {AppendByteStreamSplitFloat64(nil, f64), 5*1 + 3},
			{[]byte{0xAA, 0x00, 0xA3, 0xBB, 0x11, 0xB4, 0xCC, 0x22, 0xC5, 0xDD, 0x33, 0xD6}, 3*5 + 2}},
		"FuzzALPFloat32": {{AppendALPFloat32(nil, f32), uint16(len(f32))}},
		"FuzzALPFloat64": {{AppendALPFloat64(nil, f64), uint16(len(f64))},
			{(&ALPEncoder{LogVectorSize: 8}).AppendFloat64(nil, long), 3000}},
	}
	for target, seeds := range valid {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var all []seed
		all = append(all, seed{nil, 0}, seed{nil, 3})
		for _, s := range seeds {
			all = append(all, s)
			if len(s.data) > 1 {
				all = append(all, seed{s.data[:len(s.data)/2], s.n}) // truncated
				bad := append([]byte(nil), s.data...)
				bad[len(bad)/3] ^= 0x5A // corrupted
				all = append(all, seed{bad, s.n}, seed{s.data, s.n + 1000})
			}
		}
		for _, s := range all {
			body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\nuint16(%d)\n", s.data, s.n)
			sum := sha256.Sum256([]byte(body))
			name := filepath.Join(dir, hex.EncodeToString(sum[:8]))
			if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

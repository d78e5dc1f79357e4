package encoding

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// rleAdapter lets checkTyped drive an RLEDecoder at a fixed bit width.
type rleAdapter struct {
	d  *RLEDecoder
	bw int
}

func (a rleAdapter) Reset(src []byte, n int) error              { return a.d.Reset(src, a.bw, n) }
func (a rleAdapter) Decode(dst []int32, n int) ([]int32, error) { return a.d.Decode(dst, n) }
func (a rleAdapter) Skip(n int) error                           { return a.d.Skip(n) }
func (a rleAdapter) Remaining() int                             { return a.d.Remaining() }

func TestRLEAllWidths(t *testing.T) {
	rng := newRand(t)
	for bw := 0; bw <= 32; bw++ {
		mask := uint32(1)<<bw - 1
		if bw == 32 {
			mask = ^uint32(0)
		}
		for _, kind := range []string{"random", "runs", "mixed", "max"} {
			for _, n := range sizes {
				v := make([]int32, n)
				for i := range v {
					switch kind {
					case "random":
						v[i] = int32(rng.Uint32() & mask)
					case "runs":
						v[i] = int32(uint32(i/50) & mask)
					case "mixed":
						if (i/20)%2 == 0 {
							v[i] = int32(rng.Uint32() & mask)
						} else {
							v[i] = int32(mask)
						}
					case "max":
						v[i] = int32(mask)
					}
				}
				enc := AppendRLE(nil, v, bw)
				checkTyped(t, label(kind, n), rleAdapter{&RLEDecoder{}, bw}, enc, v, rng)
			}
		}
	}
}

func TestRLEChoosesRuns(t *testing.T) {
	v := make([]int32, 10000)
	for i := range v {
		v[i] = int32(i / 1000)
	}
	if enc := AppendRLE(nil, v, 4); len(enc) > 40 {
		t.Errorf("10 runs of 1000 took %d bytes", len(enc))
	}
	// Alternating values cannot use runs: bit-packing at 1 bit.
	for i := range v {
		v[i] = int32(i % 2)
	}
	if enc := AppendRLE(nil, v, 1); len(enc) > 10000/8+4 {
		t.Errorf("alternating bits took %d bytes", len(enc))
	}
}

func TestRLESpecExample(t *testing.T) {
	// Encodings.md: 0..7 at bit width 3, bit-packed: 10001000 11000110 11111010.
	src := []byte{0x03, 0x88, 0xC6, 0xFA}
	var d RLEDecoder
	if err := d.Reset(src, 3, 8); err != nil {
		t.Fatal(err)
	}
	got, err := d.Decode(nil, 8)
	if err != nil || len(got) != 8 {
		t.Fatal(got, err)
	}
	for i, v := range got {
		if v != int32(i) {
			t.Fatalf("got %v", got)
		}
	}
	if enc := AppendRLE(nil, []int32{0, 1, 2, 3, 4, 5, 6, 7}, 3); !bytes.Equal(enc, src) {
		t.Fatalf("encoded % x, want % x", enc, src)
	}
	// An RLE run: 300 copies of 5 at width 3.
	enc := AppendRLE(nil, bytes300(5), 3)
	if want := []byte{0xD8, 0x04, 0x05}; !bytes.Equal(enc, want) {
		t.Fatalf("run encoded % x, want % x", enc, want)
	}
}

func bytes300(v int32) []int32 {
	s := make([]int32, 300)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestBitPackedSpecExample(t *testing.T) {
	// Encodings.md: 0..7 at width 3, MSB first: 00000101 00111001 01110111.
	src := []byte{0x05, 0x39, 0x77}
	levels := []int16{0, 1, 2, 3, 4, 5, 6, 7}
	got, n, err := DecodeLevelsV1(nil, format.BitPacked, src, 7, 8)
	if err != nil || n != 3 {
		t.Fatal(n, err)
	}
	for i := range levels {
		if got[i] != levels[i] {
			t.Fatalf("got %v", got)
		}
	}
	if enc := AppendBitPackedLevels(nil, levels, 7); !bytes.Equal(enc, src) {
		t.Fatalf("encoded % x, want % x", enc, src)
	}
}

// levelAdapter drives LevelDecoder through checkTyped.
type levelAdapter struct {
	d        *LevelDecoder
	enc      format.Encoding
	v2       bool
	maxLevel int16
}

func (a levelAdapter) Reset(src []byte, n int) error {
	if a.v2 {
		return a.d.ResetV2(src, a.maxLevel, n)
	}
	_, err := a.d.ResetV1(a.enc, src, a.maxLevel, n)
	return err
}
func (a levelAdapter) Decode(dst []int16, n int) ([]int16, error) { return a.d.Decode(dst, n) }
func (a levelAdapter) Skip(n int) error                           { return a.d.Skip(n) }
func (a levelAdapter) Remaining() int                             { return a.d.Remaining() }

func TestLevels(t *testing.T) {
	rng := newRand(t)
	for _, maxLevel := range []int16{0, 1, 2, 3, 7, 100, 32767} {
		for _, n := range sizes {
			v := make([]int16, n)
			for i := range v {
				if rng.IntN(4) == 0 {
					v[i] = int16(rng.IntN(int(maxLevel) + 1))
				} else {
					v[i] = maxLevel
				}
			}
			name := label("max"+string(rune('0'+maxLevel%10)), n)
			v1 := append(AppendLevelsV1(nil, v, maxLevel), 0xEE, 0xFF) // values follow
			checkTyped(t, "v1/"+name, levelAdapter{&LevelDecoder{}, format.RLE, false, maxLevel}, v1, v, rng)
			_, used, err := DecodeLevelsV1(nil, format.RLE, v1, maxLevel, n)
			if err != nil || used != len(v1)-2 {
				t.Fatalf("%s: consumed %d of %d, %v", name, used, len(v1)-2, err)
			}
			v2 := AppendLevelsV2(nil, v, maxLevel)
			checkTyped(t, "v2/"+name, levelAdapter{&LevelDecoder{}, format.RLE, true, maxLevel}, v2, v, rng)
			bp := append(AppendBitPackedLevels(nil, v, maxLevel), 0xEE)
			checkTyped(t, "bitpacked/"+name, levelAdapter{&LevelDecoder{}, format.BitPacked, false, maxLevel}, bp, v, rng)
			if _, used, err := DecodeLevelsV1(nil, format.BitPacked, bp, maxLevel, n); err != nil || used != len(bp)-1 {
				t.Fatalf("%s: bit-packed consumed %d of %d, %v", name, used, len(bp)-1, err)
			}
		}
	}
}

func TestLevelsAboveMax(t *testing.T) {
	enc := AppendRLELevels(nil, []int16{0, 1, 3, 1}, 2)
	_, err := DecodeLevelsV2(nil, enc, 2, 4)
	mustCorrupt(t, "rle level above max", err)
	bp := AppendBitPackedLevels(nil, []int16{0, 3}, 3)
	_, _, err = DecodeLevelsV1(nil, format.BitPacked, bp, 2, 2)
	mustCorrupt(t, "bit-packed level above max", err)
	v1 := binary.LittleEndian.AppendUint32(nil, 100)
	_, _, err = DecodeLevelsV1(nil, format.RLE, v1, 1, 2)
	mustCorrupt(t, "v1 length past end", err)
}

func TestDictIndexDecoder(t *testing.T) {
	rng := newRand(t)
	for _, dictLen := range []int{1, 2, 3, 255, 256, 70000} {
		for _, n := range sizes {
			idx := make([]int32, n)
			for i := range idx {
				idx[i] = int32(rng.IntN(dictLen))
			}
			enc := AppendDictIndices(nil, idx, dictLen)
			if enc[0] != byte(DictIndexBitWidth(dictLen)) {
				t.Fatalf("bit width byte %d for %d entries", enc[0], dictLen)
			}
			checkTyped(t, label("idx", n), &DictIndexDecoder{}, enc, idx, rng)
		}
	}
}

func TestBitWidths(t *testing.T) {
	for _, c := range []struct{ max, bw int }{{0, 0}, {1, 1}, {2, 2}, {3, 2}, {4, 3}, {255, 8}, {256, 9}, {32767, 15}} {
		if got := MaxBitWidth(c.max); got != c.bw {
			t.Errorf("MaxBitWidth(%d) = %d, want %d", c.max, got, c.bw)
		}
	}
	if DictIndexBitWidth(1) != 0 || DictIndexBitWidth(2) != 1 || DictIndexBitWidth(257) != 9 {
		t.Error("DictIndexBitWidth")
	}
	if BitWidth(0) != 0 || BitWidth(1<<63) != 64 {
		t.Error("BitWidth")
	}
}

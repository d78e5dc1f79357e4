package encoding

import (
	"math/rand"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// TestCountEqual checks CountEqual against decoding, over RLE and
// bit-packed runs, in random chunk sizes, for v1 RLE and BIT_PACKED levels.
func TestCountEqual(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for iter := 0; iter < 200; iter++ {
		maxLevel := int16(1 + rng.Intn(5))
		n := rng.Intn(5000)
		levels := make([]int16, n)
		for i := range levels {
			if rng.Intn(3) == 0 && i > 0 {
				levels[i] = levels[i-1] // runs
			} else {
				levels[i] = int16(rng.Intn(int(maxLevel) + 1))
			}
		}
		for _, enc := range []format.Encoding{format.RLE, format.BitPacked} {
			var src []byte
			if enc == format.RLE {
				src = AppendLevelsV1(nil, levels, maxLevel)
			} else {
				src = AppendBitPackedLevels(nil, levels, maxLevel)
			}
			var d LevelDecoder
			if _, err := d.ResetV1(enc, src, maxLevel, n); err != nil {
				t.Fatal(err)
			}
			for pos := 0; pos < n; {
				k := min(n-pos, 1+rng.Intn(700))
				want := 0
				for _, l := range levels[pos : pos+k] {
					if l == maxLevel {
						want++
					}
				}
				got, err := d.CountEqual(k, maxLevel)
				if err != nil || got != want {
					t.Fatalf("%v: count of %d levels at %d = %d, %v; want %d", enc, k, pos, got, err, want)
				}
				pos += k
			}
			if d.Remaining() != 0 {
				t.Fatalf("%d levels left", d.Remaining())
			}
		}
	}
}

package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// TestLZ4Levels: levels 1-9 select the high-compression encoder, whose
// output decodes the same and is not larger; other levels are refused.
func TestLZ4Levels(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	src := make([]byte, 0, 1<<20)
	for i := 0; i < (1<<20)/8; i++ {
		src = binary.LittleEndian.AppendUint64(src, uint64(1700000000000000+i*1000+rng.Intn(999)))
	}
	for _, c := range []format.CompressionCodec{format.LZ4Raw, format.LZ4} {
		fast, err := NewEncoder(c, 0)
		if err != nil {
			t.Fatal(err)
		}
		hc, err := NewEncoder(c, 9)
		if err != nil {
			t.Fatal(err)
		}
		a, err := fast.Encode(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		b, err := hc.Encode(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > len(a) {
			t.Errorf("%v: level 9 gives %d bytes, fast %d", c, len(b), len(a))
		}
		dec, err := Lookup(c)
		if err != nil {
			t.Fatal(err)
		}
		out, err := dec.Decode(nil, b, len(src))
		if err != nil || !bytes.Equal(out, src) {
			t.Fatalf("%v: level 9 output does not decode back: %v", c, err)
		}
		t.Logf("%v: fast %d bytes, level 9 %d bytes", c, len(a), len(b))
		if _, err := NewEncoder(c, 10); !errors.Is(err, ErrLevel) {
			t.Errorf("%v: level 10 accepted: %v", c, err)
		}
	}
}

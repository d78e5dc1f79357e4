package file

import (
	"errors"
	"testing"

	"github.com/carquet-go/carquet/parquet/vector"
)

// TestCodesOutOfRange: a dictionary index past the dictionary's end is an
// ErrCorrupt error when the reader keeps codes, not a vector that panics
// when a consumer looks the code up.
func TestCodesOutOfRange(t *testing.T) {
	dict := &vector.Vector{Kind: vector.ByteArray, Len: 5, Data: []byte("abcde"), Offsets: []int32{0, 1, 2, 3, 4, 5}}
	d := &dictDecoder{dict: dict, longest: -1}
	// Bit width 3, then an RLE run of 8 values of 2, then one of 8 values of 7.
	if err := d.reset([]byte{3, 8 << 1, 2, 8 << 1, 7}, 16); err != nil {
		t.Fatal(err)
	}
	out := &vector.Vector{Kind: vector.ByteArray}
	if err := d.readCodes(out, 8); err != nil {
		t.Fatal(err)
	}
	if out.Dict != dict || out.Len != 8 || string(out.Bytes(7)) != "c" {
		t.Fatalf("first run: dict %v, len %d", out.Dict == dict, out.Len)
	}
	err := d.readCodes(out, 8)
	if !errors.Is(err, ErrCorrupt) {
		t.Fatalf("code 7 of a 5-entry dictionary: error %v, want ErrCorrupt", err)
	}
}

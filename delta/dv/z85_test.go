package dv

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// The test vector published in the ZeroMQ Z85 specification (RFC 32).
func TestZ85SpecVector(t *testing.T) {
	raw := []byte{0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B}
	enc, err := EncodeZ85(raw)
	if err != nil || enc != "HelloWorld" {
		t.Fatalf("EncodeZ85 = %q, %v; want HelloWorld", enc, err)
	}
	dec, err := DecodeZ85("HelloWorld")
	if err != nil || !bytes.Equal(dec, raw) {
		t.Fatalf("DecodeZ85 = %x, %v; want %x", dec, err, raw)
	}
}

func TestZ85RoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 64; n += 4 {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		if n >= 8 { // extremes
			copy(src, []byte{0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF})
		}
		enc, err := EncodeZ85(src)
		if err != nil || len(enc) != n/4*5 {
			t.Fatalf("n=%d: %q %v", n, enc, err)
		}
		dec, err := DecodeZ85(enc)
		if err != nil || !bytes.Equal(dec, src) {
			t.Fatalf("n=%d: round trip %x != %x (%v)", n, dec, src, err)
		}
	}
	if enc, _ := EncodeZ85([]byte{0xFF, 0xFF, 0xFF, 0xFF}); enc != "%nSc0" {
		t.Errorf("max block encodes to %q, want %%nSc0", enc)
	}
}

func TestZ85Errors(t *testing.T) {
	if _, err := EncodeZ85([]byte{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "multiple of 4") {
		t.Errorf("EncodeZ85 of 3 bytes: %v", err)
	}
	for _, tc := range []struct{ in, want string }{
		{"Hello", ""},
		{"HelloWorl", "multiple of 5"},
		{"Hell\"", "invalid character"},
		{"Hell~", "invalid character"},
		{"Hell\xff", "invalid character"},
		{"#####", "exceeds 32 bits"}, // 85^5-1 > 2^32-1
		{"%nSc1", "exceeds 32 bits"}, // 2^32
	} {
		_, err := DecodeZ85(tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("DecodeZ85(%q): %v", tc.in, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("DecodeZ85(%q) = %v, want error containing %q", tc.in, err, tc.want)
		}
	}
}

package inflate

import (
	"bytes"
	stdflate "compress/flate"
	stdgzip "compress/gzip"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"testing"

	kflate "github.com/klauspost/compress/flate"
)

// corpus returns inputs that reach every block kind and match shape:
// empty, one byte, random (stored blocks at any level), runs (258-byte
// matches), a block repeated 32768 bytes later (the longest distance),
// text-like data, and columns of integers.
func corpus() map[string][]byte {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	far := random(32768)
	far = append(far, far[:4000]...)
	far = append(far, random(100)...)
	text := make([]byte, 0, 200_000)
	words := []string{"parquet", "column", "page", "gzip", "the", "a", "of", "row", "group", "inflate", "\n"}
	for len(text) < 200_000 {
		text = append(text, words[rng.IntN(len(words))]...)
		text = append(text, ' ')
	}
	ints := make([]byte, 0, 80_000)
	for i := range 10_000 {
		v := uint64(1_700_000_000_000 + i*1000 + rng.IntN(7))
		for k := range 8 {
			ints = append(ints, byte(v>>(8*k)))
		}
	}
	small := make([]byte, 0, 3000)
	for len(small) < 3000 {
		small = append(small, byte(rng.IntN(4)))
	}
	return map[string][]byte{
		"empty":   {},
		"one":     {'x'},
		"random":  random(100_000),
		"zeros":   make([]byte, 300_000),
		"runs":    bytes.Repeat([]byte("abcdefghij"), 30_000),
		"period3": bytes.Repeat([]byte("xyz"), 10_001),
		"far":     far,
		"text":    text,
		"ints":    ints,
		"small":   small,
	}
}

// stdDecode inflates with the standard library, as the reference.
func stdDecode(src []byte) ([]byte, error) {
	return io.ReadAll(stdflate.NewReader(bytes.NewReader(src)))
}

func TestDecodeMatchesStdlib(t *testing.T) {
	for name, data := range corpus() {
		for level := -2; level <= 9; level++ { // -2 is Huffman-only
			var encs [][]byte
			var buf bytes.Buffer
			w, err := stdflate.NewWriter(&buf, level)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(data)
			w.Close()
			encs = append(encs, buf.Bytes())
			var kbuf bytes.Buffer
			kw, err := kflate.NewWriter(&kbuf, level)
			if err != nil {
				t.Fatal(err)
			}
			kw.Write(data)
			kw.Close()
			encs = append(encs, kbuf.Bytes())
			for i, enc := range encs {
				got, err := Decode(make([]byte, len(data)), enc)
				if err != nil {
					t.Fatalf("%s level %d writer %d: %v", name, level, i, err)
				}
				if !bytes.Equal(got, data) {
					t.Fatalf("%s level %d writer %d: output differs", name, level, i)
				}
			}
		}
	}
}

// TestDecodeSizeErrors checks that a wrong output size is reported, never
// silently truncated or padded.
func TestDecodeSizeErrors(t *testing.T) {
	data := corpus()["text"]
	enc := deflate(t, data, 6)
	if _, err := Decode(make([]byte, len(data)-1), enc); !errors.Is(err, ErrTooLong) {
		t.Errorf("short dst: %v, want ErrTooLong", err)
	}
	if _, err := Decode(make([]byte, len(data)+1), enc); !errors.Is(err, ErrTooShort) {
		t.Errorf("long dst: %v, want ErrTooShort", err)
	}
	stored := deflate(t, data[:1000], 0)
	if _, err := Decode(make([]byte, 999), stored); !errors.Is(err, ErrTooLong) {
		t.Errorf("stored, short dst: %v, want ErrTooLong", err)
	}
}

func deflate(t testing.TB, data []byte, level int) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := stdflate.NewWriter(&buf, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// TestDecodeTruncated cuts valid streams at every length: each prefix must
// fail cleanly.
func TestDecodeTruncated(t *testing.T) {
	c := corpus()
	for _, name := range []string{"text", "small", "random", "one"} {
		data := c[name][:min(len(c[name]), 5000)]
		for _, level := range []int{0, 1, 6, 9, -2} {
			enc := deflate(t, data, level)
			for n := range len(enc) {
				out, err := Decode(make([]byte, len(data)), enc[:n])
				if err == nil {
					// A prefix can only decode if the rest was an empty
					// final block the cut left out; the reference must agree.
					ref, rerr := stdDecode(enc[:n])
					if rerr != nil || !bytes.Equal(ref, out) {
						t.Fatalf("%s level %d: prefix %d of %d decoded", name, level, n, len(enc))
					}
					continue
				}
				var ce *CorruptError
				if !errors.As(err, &ce) || ce.Offset < 0 || ce.Offset > n {
					t.Fatalf("%s level %d prefix %d: error %v", name, level, n, err)
				}
			}
		}
	}
}

// TestDecodeCorrupt flips bits of valid streams: whatever the reference
// accepts must decode the same; the rest must be errors.
func TestDecodeCorrupt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	c := corpus()
	for _, name := range []string{"text", "small", "far", "ints"} {
		for _, level := range []int{1, 6, 9, -2} {
			enc := deflate(t, c[name][:min(len(c[name]), 40_000)], level)
			for range 60 {
				bad := bytes.Clone(enc)
				for range 1 + rng.IntN(3) {
					bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
				}
				compareWithStdlib(t, bad)
			}
		}
	}
}

// compareWithStdlib decodes src with both decoders: equal output where the
// reference succeeds, an error (and no panic) where it fails.
func compareWithStdlib(t *testing.T, src []byte) {
	t.Helper()
	ref, rerr := io.ReadAll(io.LimitReader(stdflate.NewReader(bytes.NewReader(src)), 1<<22))
	got, err := Decode(make([]byte, len(ref)), src)
	switch {
	case rerr == nil && err != nil:
		t.Fatalf("reference decodes %d bytes, Decode fails: %v (input %x)", len(ref), err, src[:min(len(src), 64)])
	case rerr == nil && !bytes.Equal(got, ref):
		t.Fatalf("output differs from the reference (input %x)", src[:min(len(src), 64)])
	case rerr != nil && err == nil:
		t.Fatalf("reference fails (%v) after %d bytes, Decode succeeds (input %x)", rerr, len(ref), src[:min(len(src), 64)])
	}
}

// TestHandmadeBlocks checks streams written bit by bit: the edge cases an
// encoder never emits.
func TestHandmadeBlocks(t *testing.T) {
	cases := []struct {
		name string
		bits string // block bits in stream order, as written by hand
		out  string
		err  error
	}{
		// Fixed block: literal 'a' (0x61: 8-bit code 0x30+0x61), then end
		// of block (7-bit code 0).
		{"fixed literal", "1 10" + code(0x30+'a', 8) + code(0, 7), "a", nil},
		// length 3 (symbol 257, 7-bit code 1) at distance 1 (5-bit code 0)
		{"fixed overlap", "1 10" + code(0x30+'a', 8) + code(1, 7) + code(0, 5) + code(0, 7), "aaaa", nil},
		// distance 2 with only one byte written
		{"distance too far", "1 10" + code(0x30+'a', 8) + code(1, 7) + code(1, 5) + code(0, 7), "", errDistance},
		// symbol 286 (8-bit code 0xc0+6) is in the fixed code but invalid
		{"symbol 286", "1 10" + code(0xc0+6, 8), "", errSymbol},
		// distance symbol 30 (5-bit code 30)
		{"distance 30", "1 10" + code(0x30+'a', 8) + code(1, 7) + code(30, 5), "", errDistSymbol},
		{"block type 3", "1 11", "", errBlockType},
		// A dynamic block whose code-length code gives two symbols length 1
		// and one length 2... over-subscribed: three codes of length 1.
		{"oversubscribed", "1 01" + lsb(0, 5) + lsb(0, 5) + lsb(0, 4) + lsb(1, 3) + lsb(1, 3) + lsb(1, 3) + lsb(0, 3), "", errOversubscribed},
		// Only one code-length code, of length 2: incomplete.
		{"incomplete", "1 01" + lsb(0, 5) + lsb(0, 5) + lsb(0, 4) + lsb(2, 3) + lsb(0, 3) + lsb(0, 3) + lsb(0, 3), "", errIncomplete},
		// Stored block whose length complement is wrong.
		{"stored complement", "1 00 00000" + lsb(5, 16) + lsb(5, 16), "", errStoredLen},
		{"stored empty", "1 00 00000" + lsb(0, 16) + lsb(0xffff, 16), "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := pack(c.bits)
			size := len(c.out)
			if c.err != nil {
				size = 16 // room, so that the error is the case's own
			}
			got, err := Decode(make([]byte, size), src)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("error %v, want %v", err, c.err)
				}
			} else if err != nil || string(got) != c.out {
				t.Fatalf("got %q, %v; want %q", got, err, c.out)
			}
			// The reference agrees on success or failure.
			_, rerr := stdDecode(src)
			if (rerr == nil) != (c.err == nil) {
				t.Errorf("reference error %v", rerr)
			}
		})
	}
}

// code writes a Huffman code: most significant bit first.
func code(v, n int) string {
	return fmt.Sprintf("%0*b", n, v)
}

// lsb writes an n-bit number least significant bit first, as DEFLATE sends
// everything but Huffman codes.
func lsb(v, n int) string {
	s := make([]byte, n)
	for i := range n {
		s[i] = '0' + byte(v>>i&1)
	}
	return string(s)
}

// pack turns a string of bits in stream order (spaces ignored) into bytes,
// the first bit in the lowest bit of the first byte. A block header is
// BFINAL then BTYPE least significant bit first: "1 10" is a final fixed
// block (BTYPE 1), "1 01" a final dynamic one (BTYPE 2).
func pack(bits string) []byte {
	var clean []byte
	for i := 0; i < len(bits); i++ {
		if bits[i] != ' ' {
			clean = append(clean, bits[i])
		}
	}
	out := make([]byte, (len(clean)+7)/8)
	for i, b := range clean {
		if b == '1' {
			out[i/8] |= 1 << (i % 8)
		}
	}
	return out
}

func TestGzipMatchesStdlib(t *testing.T) {
	for name, data := range corpus() {
		var buf bytes.Buffer
		w, _ := stdgzip.NewWriterLevel(&buf, 6)
		w.Name, w.Comment, w.Extra = "page.bin", "a comment", []byte{1, 2, 3, 4}
		w.Write(data)
		w.Close()
		got, err := DecodeGzip(make([]byte, len(data)), buf.Bytes())
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

func TestGzipMembers(t *testing.T) {
	var all, want []byte
	for i, part := range [][]byte{[]byte("first member "), nil, bytes.Repeat([]byte("second "), 500)} {
		var buf bytes.Buffer
		w, _ := stdgzip.NewWriterLevel(&buf, i%10)
		w.Write(part)
		w.Close()
		all = append(all, buf.Bytes()...)
		want = append(want, part...)
	}
	got, err := DecodeGzip(make([]byte, len(want)), all)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%v", err)
	}
	if _, err := DecodeGzip(make([]byte, len(want)), append(all, 0)); err == nil {
		t.Error("trailing byte accepted")
	}
}

func TestGzipErrors(t *testing.T) {
	data := []byte("hello hello hello gzip")
	var buf bytes.Buffer
	w := stdgzip.NewWriter(&buf)
	w.Write(data)
	w.Close()
	good := buf.Bytes()
	mutate := func(i int, v byte) []byte {
		b := bytes.Clone(good)
		b[i] ^= v
		return b
	}
	n := len(good)
	cases := []struct {
		name string
		src  []byte
		want error
	}{
		{"magic", mutate(0, 1), errMagic},
		{"method", mutate(2, 1), errMagic},
		{"reserved flag", mutate(3, 0x80), errFlags},
		{"crc", mutate(n-8, 1), errDataCRC},
		{"isize", mutate(n-4, 1), errMemberSize},
		{"no trailer", good[:n-8], errTruncated},
		{"empty", nil, errTruncated},
		{"header only", good[:10], errTruncated},
		{"name unterminated", append(append([]byte{0x1f, 0x8b, 8, flagName}, make([]byte, 6)...), 'a', 'b'), errTruncated},
	}
	for _, c := range cases {
		_, err := DecodeGzip(make([]byte, len(data)), c.src)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	// Header CRC: written by hand, since Go's writer never sets FHCRC.
	hdr := []byte{0x1f, 0x8b, 8, flagHCRC, 0, 0, 0, 0, 0, 255}
	crc := crc16(hdr)
	withCRC := append(append(hdr, byte(crc), byte(crc>>8)), good[10:]...)
	if got, err := DecodeGzip(make([]byte, len(data)), withCRC); err != nil || !bytes.Equal(got, data) {
		t.Errorf("FHCRC: %v", err)
	}
	withCRC[10] ^= 1
	if _, err := DecodeGzip(make([]byte, len(data)), withCRC); !errors.Is(err, errHeaderCRC) {
		t.Errorf("bad FHCRC: %v", err)
	}
}

func crc16(b []byte) uint16 { return uint16(crc32.ChecksumIEEE(b)) }

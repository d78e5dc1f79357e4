package compress

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/zstd"
)

// amounts is a PLAIN-encoded DOUBLE page of prices in cents, the events
// table's amount column: the shape on which the fastest encoder wins.
func amounts(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]byte, 0, 8*n)
	for range n {
		cents := r.IntN(100_000)
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(math.Round(float64(cents))/100))
	}
	return out
}

// encodeAt compresses src with the shared encoder of one klauspost speed.
func encodeAt(t *testing.T, level zstd.EncoderLevel, src []byte) []byte {
	t.Helper()
	out, err := zstdEncodeAll(level, nil, src)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// roundTrip checks that out decodes to src.
func roundTrip(t *testing.T, out, src []byte) {
	t.Helper()
	codec, err := Lookup(format.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	got, err := codec.Decode(nil, out, len(src))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, src) {
		t.Fatal("page does not decode to its input")
	}
}

func TestPageEncoderKeepsLevels(t *testing.T) {
	for _, level := range []int{1, 4, 9} {
		c, err := NewEncoder(format.Zstd, level)
		if err != nil {
			t.Fatal(err)
		}
		if NewPageEncoder(c) != c {
			t.Errorf("level %d: the page encoder is not the codec itself", level)
		}
	}
	three, err := NewEncoder(format.Zstd, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := NewPageEncoder(three).(*zstdPages); !ok {
		t.Error("level 3: the page encoder does not pick per column")
	}
	snappy, err := Lookup(format.Snappy)
	if err != nil {
		t.Fatal(err)
	}
	if NewPageEncoder(snappy) != snappy {
		t.Error("snappy: the page encoder is not the codec itself")
	}
}

// TestPageEncoderPicksPerColumn: doubles go to the fastest encoder, smaller
// than the default level's output; text stays at the default level, byte
// for byte; a column of doubles that turns to text goes back to the
// default within zstdReprobe pages.
func TestPageEncoderPicksPerColumn(t *testing.T) {
	codec, err := Lookup(format.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	text := shortStrings(30_000)

	doubles := NewPageEncoder(codec)
	var dst []byte
	for page := range 10 {
		src := amounts(24_576, uint64(page))
		if dst, err = doubles.Encode(dst, src); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, dst, src)
		def := encodeAt(t, zstd.SpeedDefault, src)
		if want := encodeAt(t, zstd.SpeedFastest, src); !bytes.Equal(dst, want) {
			t.Fatalf("doubles, page %d: %d bytes, not the fastest encoder's %d (default %d)", page, len(dst), len(want), len(def))
		}
		if len(dst) >= len(def) {
			t.Fatalf("doubles, page %d: %d bytes, the default level gives %d", page, len(dst), len(def))
		}
	}
	// The data changes: the next probe (page 16 at the latest) goes back.
	back := -1
	for page := range 2 * zstdReprobe {
		if dst, err = doubles.Encode(dst, text); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, dst, text)
		if bytes.Equal(dst, encodeAt(t, zstd.SpeedDefault, text)) && back < 0 {
			back = page
		}
		if back >= 0 && !bytes.Equal(dst, encodeAt(t, zstd.SpeedDefault, text)) {
			t.Fatalf("text after doubles, page %d: left the default level again", page)
		}
	}
	if back < 0 || back >= zstdReprobe {
		t.Fatalf("text after doubles: back to the default level at page %d, want below %d", back, zstdReprobe)
	}

	strs := NewPageEncoder(codec)
	for page := range 3 {
		if dst, err = strs.Encode(dst, text); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(dst, encodeAt(t, zstd.SpeedDefault, text)) {
			t.Fatalf("text, page %d: not the default level's output", page)
		}
	}
	empty, err := NewPageEncoder(codec).Encode(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, empty, nil)
}

func TestStoredFrame(t *testing.T) {
	for _, n := range []int{1, 255, 256, 65536 + 255, 65536 + 256, maxStoredBlock, maxStoredBlock + 1, 3*maxStoredBlock + 7, 1 << 20} {
		src := randomBytes(n, uint64(n))
		out := appendStoredFrame([]byte("kept"), src)
		if string(out[:4]) != "kept" {
			t.Fatalf("%d bytes: dst's prefix overwritten", n)
		}
		out = out[4:]
		if len(out) != storedFrameSize(n) {
			t.Fatalf("%d bytes: frame of %d bytes, storedFrameSize says %d", n, len(out), storedFrameSize(n))
		}
		roundTrip(t, out, src)
		var h zstd.Header
		if err := h.Decode(out); err != nil || !h.HasFCS || h.FrameContentSize != uint64(n) || !h.SingleSegment || h.HasCheckSum {
			t.Fatalf("%d bytes: frame header %+v, %v", n, h, err)
		}
	}
}

// TestPageEncoderStores: pages that do not compress are stored in raw
// blocks, no larger than either encoder makes them, until a probe finds
// data that compresses.
func TestPageEncoderStores(t *testing.T) {
	codec, err := Lookup(format.Zstd)
	if err != nil {
		t.Fatal(err)
	}
	enc := NewPageEncoder(codec)
	var dst []byte
	for page := range 3 {
		src := randomBytes(100_000+page, uint64(page))
		if dst, err = enc.Encode(dst, src); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, dst, src)
		if !bytes.Equal(dst, appendStoredFrame(nil, src)) {
			t.Fatalf("random page %d: not stored", page)
		}
		if def := encodeAt(t, zstd.SpeedDefault, src); len(dst) > len(def) {
			t.Fatalf("random page %d: stored in %d bytes, SpeedDefault makes %d", page, len(dst), len(def))
		}
	}
	// An empty page (values of a page of nulls) between stored ones.
	if dst, err = enc.Encode(dst, nil); err != nil {
		t.Fatal(err)
	}
	roundTrip(t, dst, nil)
	text := shortStrings(30_000)
	back := -1
	for page := range zstdReprobe {
		if dst, err = enc.Encode(dst, text); err != nil {
			t.Fatal(err)
		}
		roundTrip(t, dst, text)
		if back < 0 && bytes.Equal(dst, encodeAt(t, zstd.SpeedDefault, text)) {
			back = page
		}
	}
	if back < 0 {
		t.Fatal("text after random pages: still not compressed after a probe")
	}
}

// TestZstdEncoderReuse: pages compressed one after another reuse one
// encoder (the one whose tables are warm) rather than cycling through
// several, and goroutines at once each get their own.
func TestZstdEncoderReuse(t *testing.T) {
	const level = zstd.SpeedBetterCompression // no other test of this package uses it
	p := &zstdEncoders[level]
	src := shortStrings(2000)
	first, err := zstdEncodeAll(level, nil, src)
	if err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	if len(p.free) != 1 {
		t.Fatalf("%d encoders kept after one page, want 1", len(p.free))
	}
	enc := p.free[0]
	p.mu.Unlock()
	for range 5 {
		out, err := zstdEncodeAll(level, nil, src)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, first) {
			t.Fatal("the same page compressed differently")
		}
	}
	p.mu.Lock()
	if len(p.free) != 1 || p.free[0] != enc {
		t.Fatalf("after five pages in a row: %d encoders kept, the first one reused: %v", len(p.free), len(p.free) > 0 && p.free[0] == enc)
	}
	p.mu.Unlock()

	done := make(chan []byte)
	for range 8 {
		go func() {
			out, err := zstdEncodeAll(level, nil, src)
			if err != nil {
				out = nil
			}
			done <- out
		}()
	}
	for range 8 {
		if out := <-done; !bytes.Equal(out, first) {
			t.Fatal("a page compressed concurrently differs")
		}
	}
}

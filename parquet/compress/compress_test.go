package compress

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/klauspost/compress/gzip"
	"github.com/pierrec/lz4/v4"
)

var allCodecs = []format.CompressionCodec{format.Uncompressed, format.Snappy, format.Gzip, format.LZ4,
	format.Zstd, format.LZ4Raw, format.Brotli}

// timestamps is a PLAIN-encoded INT64 column of sorted microsecond
// timestamps, the shape of a typical event table's time column.
func timestamps(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	out := make([]byte, 8*n)
	ts := int64(1_700_000_000_000_000)
	for i := range n {
		ts += r.Int64N(5_000_000)
		binary.LittleEndian.PutUint64(out[8*i:], uint64(ts))
	}
	return out
}

// shortStrings is a PLAIN-encoded BYTE_ARRAY column of short strings drawn
// from a small vocabulary, like a category or status column.
func shortStrings(n int) []byte {
	words := []string{"books", "garden", "toys", "electronics", "food", "clothing", "sports", "music",
		"pending", "shipped", "delivered", "returned", "EUR", "USD", "GBP"}
	r := rand.New(rand.NewPCG(3, 4))
	var out []byte
	for range n {
		w := words[r.IntN(len(words))]
		if r.IntN(4) == 0 {
			w += fmt.Sprint(r.IntN(1000))
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(len(w)))
		out = append(out, w...)
	}
	return out
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(r.Uint32())
	}
	return out
}

func testInputs() map[string][]byte {
	return map[string][]byte{
		"empty":          {},
		"one":            {42},
		"two":            {0, 0},
		"zeros-100":      make([]byte, 100),
		"random-1k":      randomBytes(1000, 1),
		"random-64k":     randomBytes(64<<10, 2),
		"timestamps-1m":  timestamps(128 << 10),
		"strings":        shortStrings(20000),
		"text":           []byte(strings.Repeat("the quick brown fox jumps over the lazy dog. ", 3000)),
		"zeros-4m":       make([]byte, 4<<20),
		"random-4m":      randomBytes(4<<20, 3),
		"odd-300k":       timestamps(300<<10/8 + 3)[:300<<10+5],
		"hadoop-edge":    make([]byte, hadoopFrameSize),
		"hadoop-edge+1":  make([]byte, hadoopFrameSize+1),
		"hadoop-2frames": timestamps(2 * hadoopFrameSize / 8),
	}
}

func TestRoundTrip(t *testing.T) {
	inputs := testInputs()
	for _, c := range allCodecs {
		codec, err := Lookup(c)
		if err != nil {
			t.Fatal(err)
		}
		if codec.Codec() != c {
			t.Fatalf("Lookup(%v).Codec() = %v", c, codec.Codec())
		}
		for name, in := range inputs {
			t.Run(c.String()+"/"+name, func(t *testing.T) {
				enc, err := codec.Encode(nil, in)
				if err != nil {
					t.Fatal(err)
				}
				dec, err := codec.Decode(nil, enc, len(in))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(dec, in) {
					t.Fatal("round trip differs")
				}
				// Reused buffers, dirty and larger than needed.
				enc2, err := codec.Encode(bytes.Repeat([]byte{7}, 100), in)
				if err != nil {
					t.Fatal(err)
				}
				// andybalholm/brotli's reused writers may pick slightly
				// different (equally valid) encodings than fresh ones.
				if !bytes.Equal(enc2, enc) && c != format.Brotli {
					t.Fatal("re-encode with a dirty dst differs")
				}
				if dec, err := codec.Decode(nil, enc2, len(in)); err != nil || !bytes.Equal(dec, in) {
					t.Fatalf("re-encoded data: %v", err)
				}
				buf := bytes.Repeat([]byte{9}, len(in)+10)
				dec, err = codec.Decode(buf, enc, len(in))
				if err != nil || !bytes.Equal(dec, in) {
					t.Fatalf("decode into reused buffer: %v", err)
				}
				// A wrong claimed size is an error, never a short or long result.
				if _, err := codec.Decode(nil, enc, len(in)+1); err == nil {
					t.Error("claimed size +1 accepted")
				}
				if len(in) > 0 {
					if _, err := codec.Decode(nil, enc, len(in)-1); err == nil {
						t.Error("claimed size -1 accepted")
					}
				}
			})
		}
	}
}

func TestLevels(t *testing.T) {
	in := append(timestamps(1024), shortStrings(800)...)
	levels := map[format.CompressionCodec][]int{
		format.Gzip:   {DefaultLevel, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
		format.Zstd:   {DefaultLevel, -5, 0, 1, 3, 5, 7, 9, 12, 19, 22},
		format.Brotli: {DefaultLevel, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
		format.Snappy: {DefaultLevel, 1, 99},
		format.LZ4:    {DefaultLevel, 9},
		format.LZ4Raw: {DefaultLevel, 9},
	}
	for c, ls := range levels {
		for _, l := range ls {
			enc, err := NewEncoder(c, l)
			if err != nil {
				t.Fatalf("%v level %d: %v", c, l, err)
			}
			out, err := enc.Encode(nil, in)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := enc.Decode(nil, out, len(in))
			if err != nil || !bytes.Equal(dec, in) {
				t.Fatalf("%v level %d: round trip: %v", c, l, err)
			}
		}
	}
	for _, bad := range []struct {
		c     format.CompressionCodec
		level int
	}{{format.Gzip, 10}, {format.Gzip, -2}, {format.Zstd, 23}, {format.Brotli, 12}, {format.Brotli, -1}} {
		if _, err := NewEncoder(bad.c, bad.level); !errors.Is(err, ErrLevel) {
			t.Errorf("%v level %d: err = %v, want ErrLevel", bad.c, bad.level, err)
		}
	}
	// Higher zstd levels must not compress worse on realistic data.
	fast, _ := NewEncoder(format.Zstd, 1)
	best, _ := NewEncoder(format.Zstd, 19)
	a, _ := fast.Encode(nil, in)
	b, _ := best.Encode(nil, in)
	if len(b) > len(a) {
		t.Errorf("zstd level 19 (%d bytes) worse than level 1 (%d bytes)", len(b), len(a))
	}
}

func TestUnsupported(t *testing.T) {
	_, err := Lookup(format.LZO)
	if err == nil || err.Error() != "LZO compression is not supported" || !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Lookup(LZO) = %v", err)
	}
	if _, err := NewEncoder(format.LZO, 1); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("NewEncoder(LZO) = %v", err)
	}
	if _, err := Lookup(format.CompressionCodec(99)); !errors.Is(err, ErrUnsupported) ||
		!strings.Contains(err.Error(), "99") {
		t.Fatalf("Lookup(99) = %v", err)
	}
}

// fakeLZO stands in for a program's own LZO codec.
type fakeLZO struct{ uncompressedCodec }

func (fakeLZO) Codec() format.CompressionCodec { return format.LZO }

func TestRegister(t *testing.T) {
	defer Register(format.LZO, nil)
	Register(format.LZO, func(level int) (Codec, error) { return fakeLZO{}, nil })
	c, err := Lookup(format.LZO)
	if err != nil || c.Codec() != format.LZO {
		t.Fatalf("Lookup after Register: %v, %v", c, err)
	}
	out, err := c.Decode(nil, []byte("abc"), 3)
	if err != nil || string(out) != "abc" {
		t.Fatal(out, err)
	}
	Register(format.LZO, nil)
	if _, err := Lookup(format.LZO); !errors.Is(err, ErrUnsupported) {
		t.Fatal("codec still registered")
	}
}

func TestSizeLimits(t *testing.T) {
	in := timestamps(1000)
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		enc, _ := codec.Encode(nil, in)
		for _, size := range []int{-1, MaxDecodedSize + 1} {
			if _, err := codec.Decode(nil, enc, size); !errors.Is(err, ErrTooLarge) {
				t.Errorf("%v: size %d: err = %v, want ErrTooLarge", c, size, err)
			}
		}
		limited := WithMaxDecodedSize(codec, len(in)-1)
		if _, err := limited.Decode(nil, enc, len(in)); !errors.Is(err, errs.ErrLimit) || errors.Is(err, errs.ErrCorrupt) {
			t.Errorf("%v: limited: err = %v, want errs.ErrLimit (and not ErrCorrupt: the data may be fine)", c, err)
		}
		if limited.Codec() != c {
			t.Errorf("%v: limited codec reports %v", c, limited.Codec())
		}
		// Errors name the codec.
		_, err := codec.Decode(nil, enc, len(in)+3)
		if err == nil || !strings.Contains(err.Error(), c.String()) {
			t.Errorf("%v: error %q does not name the codec", c, err)
		}
	}
	// A claim short of the data is refused, whatever spare capacity the
	// buffer has (zstd decodes with 32 bytes of slack past the claim).
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		enc, _ := codec.Encode(nil, in)
		for _, short := range []int{1, 31, 32, 33, 100} {
			for _, dst := range [][]byte{nil, make([]byte, 0, 2*len(in))} {
				if out, err := codec.Decode(dst, enc, len(in)-short); err == nil {
					t.Errorf("%v: data of %d bytes decoded under a claim of %d (cap(dst) %d): %d bytes, no error", c, len(in), len(in)-short, cap(dst), len(out))
				}
			}
		}
	}
	// A claim a codec cannot reach from the input is refused up front.
	for _, c := range []format.CompressionCodec{format.Snappy, format.LZ4, format.LZ4Raw, format.Gzip, format.Zstd} {
		codec, _ := Lookup(c)
		if _, err := codec.Decode(nil, []byte{1, 2, 3}, 1<<30); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: 3 bytes claiming 1 GiB: err = %v, want ErrTooLarge", c, err)
		}
	}
}

// TestHostileClaims checks that a small input claiming a large size never
// allocates anywhere near the claim.
func TestHostileClaims(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("tiny"))
	zw.Close()
	zstdEnc, _ := Lookup(format.Zstd)
	zs, _ := zstdEnc.Encode(nil, []byte("tiny"))
	brEnc, _ := Lookup(format.Brotli)
	br, _ := brEnc.Encode(nil, []byte("tiny"))
	cases := []struct {
		c   format.CompressionCodec
		src []byte
	}{{format.Gzip, gz.Bytes()}, {format.Zstd, zs}, {format.Brotli, br}}
	for _, tc := range cases {
		codec, _ := Lookup(tc.c)
		claim := 1 << 30
		if tc.c != format.Brotli {
			claim = 1000 * len(tc.src)
		}
		codec.Decode(nil, tc.src, claim) // warm pools
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			if _, err := codec.Decode(nil, tc.src, claim); err == nil {
				t.Fatalf("%v: lying claim accepted", tc.c)
			}
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 4<<20 {
			t.Errorf("%v: %d bytes allocated for a %d-byte input claiming %d", tc.c, per, len(tc.src), claim)
		}
	}
}

func TestConcatenatedGzipMembers(t *testing.T) {
	var buf bytes.Buffer
	want := []byte{}
	for i := range 3 {
		part := timestamps(100 + i)
		zw, _ := gzip.NewWriterLevel(&buf, 1+i)
		zw.Write(part)
		zw.Close()
		want = append(want, part...)
	}
	got, err := gzipDefault.Decode(nil, buf.Bytes(), len(want))
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("concatenated members: %v", err)
	}
	// Trailing garbage after the last member is corruption.
	bad := append(bytes.Clone(buf.Bytes()), 1, 2, 3)
	if _, err := gzipDefault.Decode(nil, bad, len(want)); err == nil {
		t.Error("trailing garbage accepted")
	}
	// A flipped CRC is caught.
	bad = bytes.Clone(buf.Bytes())
	bad[len(bad)-6] ^= 0xff
	if _, err := gzipDefault.Decode(nil, bad, len(want)); err == nil {
		t.Error("bad CRC accepted")
	}
}

func TestHadoopLZ4Framing(t *testing.T) {
	codec := lz4HadoopCodec{}
	in := timestamps(3*hadoopFrameSize/8 + 100)
	enc, err := codec.Encode(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	// Walk the frames the way Arrow's and Hadoop's readers do.
	var got []byte
	frames := 0
	for rest := enc; len(rest) > 0; frames++ {
		usize := binary.BigEndian.Uint32(rest)
		csize := binary.BigEndian.Uint32(rest[4:])
		if usize > hadoopFrameSize {
			t.Fatalf("frame of %d bytes", usize)
		}
		block := make([]byte, usize)
		n, err := lz4.UncompressBlock(rest[8:8+csize], block)
		if err != nil || n != int(usize) {
			t.Fatalf("frame %d: %v", frames, err)
		}
		got = append(got, block...)
		rest = rest[8+csize:]
	}
	if frames != 4 || !bytes.Equal(got, in) {
		t.Fatalf("%d frames, equal=%v", frames, bytes.Equal(got, in))
	}
	// Empty input still yields one frame, as Arrow writes it.
	empty, _ := codec.Encode(nil, nil)
	if len(empty) < 9 || binary.BigEndian.Uint32(empty) != 0 {
		t.Fatalf("empty input: % x", empty)
	}

	// Fallback 1: a bare LZ4 block (old parquet-cpp).
	raw, _ := lz4RawCodec{}.Encode(nil, in)
	if out, err := codec.Decode(nil, raw, len(in)); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("raw block fallback: %v", err)
	}
	// Fallback 2: the LZ4 frame format.
	var fr bytes.Buffer
	zw := lz4.NewWriter(&fr)
	zw.Write(in)
	zw.Close()
	if out, err := codec.Decode(nil, fr.Bytes(), len(in)); err != nil || !bytes.Equal(out, in) {
		t.Fatalf("frame format fallback: %v", err)
	}
	if _, err := codec.Decode(nil, fr.Bytes(), len(in)+1); err == nil {
		t.Fatal("frame format with wrong size accepted")
	}
	// Hadoop frames whose sizes lie fall back and then fail.
	bad := bytes.Clone(enc)
	binary.BigEndian.PutUint32(bad[4:], 1<<30)
	if _, err := codec.Decode(nil, bad, len(in)); err == nil {
		t.Fatal("lying Hadoop frame accepted")
	}
}

// TestHostileInputs feeds every decoder random bytes, truncations and bit
// flips of valid data: errors are fine, panics and wrong-length results are
// not.
func TestHostileInputs(t *testing.T) {
	in := append(timestamps(2000), shortStrings(500)...)
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		enc, _ := codec.Encode(nil, in)
		check := func(src []byte, size int) {
			out, err := codec.Decode(nil, src, size)
			if err == nil && len(out) != size {
				t.Fatalf("%v: success with %d bytes, claimed %d", c, len(out), size)
			}
		}
		for i := range 300 {
			check(randomBytes(r.IntN(200), uint64(i)), r.IntN(5000))
			cut := enc[:r.IntN(len(enc))]
			check(cut, len(in))
			flipped := bytes.Clone(enc)
			for range 1 + r.IntN(4) {
				flipped[r.IntN(len(flipped))] ^= byte(1 << r.IntN(8))
			}
			check(flipped, len(in))
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	in := append(timestamps(8192), shortStrings(3000)...)
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		want, _ := codec.Encode(nil, in)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for range 8 {
			wg.Go(func() {
				var enc, dec []byte
				for range 10 {
					var err error
					if enc, err = codec.Encode(enc, in); err != nil {
						errs <- err
						return
					}
					if dec, err = codec.Decode(dec, want, len(in)); err != nil || !bytes.Equal(dec, in) {
						errs <- fmt.Errorf("%v: concurrent decode: %v", c, err)
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

// TestDecodeAllocations checks that decoding into a reused buffer does not
// allocate per page (pools and shared decoders carry the state).
func TestDecodeAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items under the race detector")
	}
	in := append(timestamps(8192), shortStrings(3000)...)
	for _, c := range allCodecs {
		codec, _ := Lookup(c)
		enc, _ := codec.Encode(nil, in)
		buf := make([]byte, len(in))
		codec.Decode(buf, enc, len(in)) // warm the pools
		allocs := testing.AllocsPerRun(20, func() {
			if _, err := codec.Decode(buf, enc, len(in)); err != nil {
				t.Fatal(err)
			}
		})
		limit := 1.0
		if c == format.Brotli {
			// andybalholm/brotli allocates its context maps per meta-block.
			limit = 8
		}
		if allocs > limit {
			t.Errorf("%v: %.1f allocations per decode into a reused buffer", c, allocs)
		}
	}
}

// TestGzipGrowsOutput checks the gzip codec's output sizing: a page whose
// claim is far above what its input could make without long repeats is
// decoded through growing buffers, and a false claim of that kind costs
// memory in proportion to the data really decoded, not to the claim.
func TestGzipGrowsOutput(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB, ~8 KB compressed
	enc, err := gzipDefault.Encode(nil, data)
	if err != nil {
		t.Fatal(err)
	}
	if firstChunk(len(data), len(enc)) >= len(data) {
		t.Fatalf("test data compresses too little (%d bytes) to need growing", len(enc))
	}
	out, err := gzipDefault.Decode(nil, enc, len(data))
	if err != nil || !bytes.Equal(out, data) {
		t.Fatalf("grown decode: %v", err)
	}
	// 64 KiB that do not compress, claiming as much as gzip could expand
	// them to (67 MB): decoding stops at the first, 2 MB, buffer.
	noise := make([]byte, 64<<10)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	small, _ := gzipDefault.Encode(nil, noise)
	claim := len(small) * gzipMaxRatio
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = gzipDefault.Decode(nil, small, claim)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrSizeMismatch) {
		t.Fatalf("false claim: %v, want ErrSizeMismatch", err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(firstChunk(claim, len(small)))+256<<10 { // the chunk, a pooled decoder
		t.Errorf("false claim of %d bytes allocated %d", claim, got)
	}
}

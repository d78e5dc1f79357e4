package bloom

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/cespare/xxhash/v2"
)

// refFilter is the spec's pseudocode, word by word and bit by bit, to check
// Filter against.
type refFilter struct{ blocks [][8]uint32 }

func (r *refFilter) mask(x uint32) (m [8]uint32) {
	for i := range 8 {
		y := x * salt[i]
		m[i] = 1 << (y >> 27)
	}
	return m
}

func (r *refFilter) insert(h uint64) {
	i := ((h >> 32) * uint64(len(r.blocks))) >> 32
	m := r.mask(uint32(h))
	for w := range 8 {
		for j := range 32 {
			if m[w]&(1<<j) != 0 {
				r.blocks[i][w] |= 1 << j
			}
		}
	}
}

func (r *refFilter) check(h uint64) bool {
	i := ((h >> 32) * uint64(len(r.blocks))) >> 32
	m := r.mask(uint32(h))
	for w := range 8 {
		for j := range 32 {
			if m[w]&(1<<j) != 0 && r.blocks[i][w]&(1<<j) == 0 {
				return false
			}
		}
	}
	return true
}

func (r *refFilter) bytes() []byte {
	var out []byte
	for _, b := range r.blocks {
		for _, w := range b {
			out = binary.LittleEndian.AppendUint32(out, w)
		}
	}
	return out
}

func TestAgainstSpecPseudocode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, nbytes := range []int{32, 64, 96, 1024, 32 * 37, 8192} {
		f, err := FromBytes(make([]byte, nbytes))
		if err != nil {
			t.Fatal(err)
		}
		ref := &refFilter{blocks: make([][8]uint32, nbytes/32)}
		for range 500 {
			h := rng.Uint64()
			f.Insert(h)
			ref.insert(h)
		}
		if !bytes.Equal(f.Bytes(), ref.bytes()) {
			t.Fatalf("%d bytes: bitsets differ", nbytes)
		}
		for range 5000 {
			h := rng.Uint64()
			if f.Check(h) != ref.check(h) {
				t.Fatalf("%d bytes: Check(%x) differs", nbytes, h)
			}
		}
	}
}

func TestNoFalseNegatives(t *testing.T) {
	f := NewForNDV(10000, 0.01)
	var hs []uint64
	for i := range int64(10000) {
		hs = append(hs, HashInt64(i*7919))
	}
	f.InsertHashes(hs)
	for _, h := range hs {
		if !f.Check(h) {
			t.Fatalf("false negative for %x", h)
		}
	}
}

func TestFalsePositiveRate(t *testing.T) {
	for _, tc := range []struct {
		ndv int64
		fpp float64
	}{{1000, 0.1}, {10000, 0.01}, {50000, 0.001}} {
		f := NewForNDV(tc.ndv, tc.fpp)
		for i := range tc.ndv {
			f.Insert(HashInt64(i))
		}
		fp := 0
		const probes = 200000
		for i := range int64(probes) {
			if f.Check(HashInt64(tc.ndv + 1 + i)) {
				fp++
			}
		}
		rate := float64(fp) / probes
		if rate > 1.5*tc.fpp {
			t.Errorf("ndv %d fpp %g: %d bytes, observed rate %g", tc.ndv, tc.fpp, f.NumBytes(), rate)
		}
		t.Logf("ndv %d fpp %g: %d bytes, observed rate %.5f", tc.ndv, tc.fpp, f.NumBytes(), rate)
	}
}

func TestSizing(t *testing.T) {
	for _, tc := range []struct{ in, want int }{
		{-5, 32}, {0, 32}, {1, 32}, {32, 32}, {33, 64}, {1000, 1024}, {1024, 1024},
		{1025, 2048}, {MaxBytes/2 + 1, MaxBytes}, {MaxBytes, MaxBytes}, {math.MaxInt, MaxBytes},
	} {
		got := roundBytes(tc.in)
		if tc.in < 1<<20 {
			got = New(tc.in).NumBytes()
		}
		if got != tc.want {
			t.Errorf("New(%d) has %d bytes, want %d", tc.in, got, tc.want)
		}
	}
	// The spec's table: ~10.5 bits per value for 1%, ~16.9 for 0.1%.
	for _, tc := range []struct {
		ndv      int64
		fpp      float64
		min, max int
	}{
		{0, 0.01, 32, 32},
		{1, 0.01, 32, 32},
		{100_000, 0.01, 100_000 * 10 / 8, 2 * 100_000 * 11 / 8},
		{100_000, 0.001, 100_000 * 16 / 8, 2 * 100_000 * 17 / 8},
		{1 << 40, 0.01, MaxBytes, MaxBytes},
		{1000, 0, 1000 * 10 / 8, 2 * 1000 * 11 / 8},   // bad fpp → 1%
		{1000, 1.5, 1000 * 10 / 8, 2 * 1000 * 11 / 8}, // bad fpp → 1%
		{1000, math.NaN(), 1000 * 10 / 8, 2 * 1000 * 11 / 8},
	} {
		got := OptimalNumBytes(tc.ndv, tc.fpp)
		if got < tc.min || got > tc.max || got&(got-1) != 0 {
			t.Errorf("OptimalNumBytes(%d, %g) = %d, want a power of two in [%d, %d]", tc.ndv, tc.fpp, got, tc.min, tc.max)
		}
	}
}

func TestFromBytesValidation(t *testing.T) {
	for _, n := range []int{0, 1, 31, 33, 100} {
		if _, err := FromBytes(make([]byte, n)); !errors.Is(err, ErrInvalid) {
			t.Errorf("FromBytes(%d bytes): err = %v", n, err)
		}
	}
	if _, err := FromBytes(make([]byte, MaxBytes+32)); !errors.Is(err, ErrInvalid) {
		t.Error("oversized bitset accepted")
	}
	if f, err := FromBytes(make([]byte, 96)); err != nil || f.NumBytes() != 96 {
		t.Errorf("3 blocks: %v", err)
	}
}

func TestHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	le4 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	le8 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	for i := range 10000 {
		v := rng.Uint64()
		if i < 4 {
			v = []uint64{0, 1, math.MaxUint64, 1 << 63}[i]
		}
		if HashInt32(int32(v)) != xxhash.Sum64(le4(uint32(v))) {
			t.Fatalf("HashInt32(%d)", int32(v))
		}
		if HashInt64(int64(v)) != xxhash.Sum64(le8(v)) {
			t.Fatalf("HashInt64(%d)", int64(v))
		}
		f32 := math.Float32frombits(uint32(v))
		if HashFloat32(f32) != xxhash.Sum64(le4(uint32(v))) {
			t.Fatalf("HashFloat32(%g)", f32)
		}
		if HashFloat64(math.Float64frombits(v)) != xxhash.Sum64(le8(v)) {
			t.Fatalf("HashFloat64")
		}
	}
	// XXH64 known answers (seed 0).
	if got := HashBytes(nil); got != 0xef46db3751d8e999 {
		t.Errorf("XXH64(\"\") = %x", got)
	}
	if got := HashString("a"); got != 0xd24ec4f1a98c6e5b {
		t.Errorf("XXH64(\"a\") = %x", got)
	}
	var i96 [12]byte
	copy(i96[:], "abcdefghijkl")
	if HashInt96(i96) != HashBytes([]byte("abcdefghijkl")) || HashFixed(i96[:]) != HashInt96(i96) {
		t.Error("HashInt96")
	}
	got := HashInt32s(nil, []int32{1, 2})
	got = HashInt64s(got, []int64{3})
	got = HashFloat32s(got, []float32{4})
	got = HashFloat64s(got, []float64{5})
	got = HashByteArrays(got, []byte("abcd"), []int32{0, 1, 1, 4})
	want := []uint64{HashInt32(1), HashInt32(2), HashInt64(3), HashFloat32(4), HashFloat64(5),
		HashString("a"), HashString(""), HashString("bcd")}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("batch hashes %v, want %v", got, want)
	}
}

// readBloom reads a BloomFilterHeader (parquet/format) and the bitset
// after it at b[pos:].
func readBloom(t *testing.T, b []byte, pos int) *Filter {
	t.Helper()
	var h format.BloomFilterHeader
	n, err := format.Unmarshal(b[pos:], &h)
	if err != nil {
		t.Fatal(err)
	}
	end, numBytes := pos+n, int(h.NumBytes)
	if end+numBytes > len(b) {
		t.Fatalf("bitset of %d bytes runs past the data", numBytes)
	}
	f, err := FromBytes(b[end : end+numBytes])
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func testingRoot(t testing.TB) string {
	t.Helper()
	return testfiles.Dir(t, "")
}

// TestParquetMRBitset reads bloom_filter.xxhash.bin, which parquet-mr wrote
// after inserting "hello", "parquet", "bloom" and "filter" (data/README.md).
func TestParquetMRBitset(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testingRoot(t), "data", "bloom_filter.xxhash.bin"))
	if err != nil {
		t.Fatal(err)
	}
	f := readBloom(t, data, 0)
	if f.NumBytes() != 1024 {
		t.Fatalf("%d bytes", f.NumBytes())
	}
	words := []string{"hello", "parquet", "bloom", "filter"}
	for _, w := range words {
		if !f.Check(HashString(w)) {
			t.Errorf("%q not found", w)
		}
	}
	fp := 0
	for i := range 10000 {
		if f.Check(HashString(fmt.Sprintf("absent-%d", i))) {
			fp++
		}
	}
	if fp > 10 {
		t.Errorf("%d of 10000 absent strings found", fp)
	}
	// Building the same filter ourselves gives the very same bits.
	ours := New(1024)
	for _, w := range words {
		ours.Insert(HashBytes([]byte(w)))
	}
	if !bytes.Equal(ours.Bytes(), f.Bytes()) {
		t.Error("our bitset differs from parquet-mr's")
	}
}

// TestParquetFileBloom follows data_index_bloom_encoding_stats.parquet's
// bloom_filter_offset, reads its (gzip, PLAIN, optional STRING) data page
// and checks every value against the filter parquet-mr wrote.
func TestParquetFileBloom(t *testing.T) {
	for _, name := range []string{"data_index_bloom_encoding_stats.parquet", "data_index_bloom_encoding_with_length.parquet"} {
		t.Run(name, func(t *testing.T) { testParquetFileBloom(t, name) })
	}
}

func testParquetFileBloom(t *testing.T, name string) {
	data, err := os.ReadFile(filepath.Join(testingRoot(t), "data", name))
	if err != nil {
		t.Fatal(err)
	}
	values := bloomFileValues
	if name == "data_index_bloom_encoding_stats.parquet" {
		values = gzipPageValues(t, data)
		if fmt.Sprint(values) != fmt.Sprint(bloomFileValues) {
			t.Fatalf("page values %q", values)
		}
	}
	off, length := footerBloomOffset(t, data)
	f := readBloom(t, data, off)
	if length >= 0 && length != headerLen(t, data, off)+f.NumBytes() {
		t.Errorf("bloom_filter_length %d does not cover header and bitset", length)
	}
	if name == "data_index_bloom_encoding_with_length.parquet" && length < 0 {
		t.Error("bloom_filter_length missing")
	}
	ours := New(f.NumBytes())
	for _, v := range values {
		if !f.Check(HashString(v)) {
			t.Errorf("%q not found", v)
		}
		ours.Insert(HashString(v))
	}
	for _, v := range []string{"hello", "Today", "cat", "the lazy dog"} {
		if f.Check(HashString(v)) {
			t.Logf("%q: false positive", v)
		}
	}
	if !bytes.Equal(ours.Bytes(), f.Bytes()) {
		t.Error("our bitset differs from parquet-mr's")
	}
}

func headerLen(t *testing.T, data []byte, off int) int {
	var h format.BloomFilterHeader
	n, err := format.Unmarshal(data[off:], &h)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// bloomFileValues are the 14 values of the data_index_bloom_* files (the
// second is the first rewritten with bloom_filter_length, README.md).
var bloomFileValues = []string{"Hello", "This is", "a", "test", "How", "are you", "doing ", "today",
	"the quick", "brown fox", "jumps", "over", "the lazy", "dog"}

// gzipPageValues decodes the only data page of
// data_index_bloom_encoding_stats.parquet: gzip, v1, RLE definition levels
// and PLAIN byte arrays. Its gzip member starts at the file's first 1f 8b.
func gzipPageValues(t *testing.T, data []byte) []string {
	gz := bytes.Index(data, []byte{0x1f, 0x8b})
	zr, err := gzip.NewReader(bytes.NewReader(data[gz:]))
	if err != nil {
		t.Fatal(err)
	}
	zr.Multistream(false)
	page, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	levels := int(binary.LittleEndian.Uint32(page))
	vals := page[4+levels:]
	var values []string
	for len(vals) >= 4 {
		n := int(binary.LittleEndian.Uint32(vals))
		values = append(values, string(vals[4:4+n]))
		vals = vals[4+n:]
	}
	return values
}

// footerBloomOffset decodes the footer and returns the first column's
// ColumnMetaData.bloom_filter_offset (field 14) and bloom_filter_length
// (field 15, -1 when absent).
func footerBloomOffset(t *testing.T, data []byte) (int, int) {
	t.Helper()
	flen := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	var fmd format.FileMetaData
	if _, err := format.Unmarshal(data[len(data)-8-flen:len(data)-8], &fmd); err != nil {
		t.Fatal(err)
	}
	if len(fmd.RowGroups) == 0 || len(fmd.RowGroups[0].Columns) == 0 || fmd.RowGroups[0].Columns[0].MetaData == nil {
		t.Fatal("no first column chunk")
	}
	md := fmd.RowGroups[0].Columns[0].MetaData
	off, ok := md.BloomFilterOffset.Get()
	if !ok {
		t.Fatal("no bloom_filter_offset")
	}
	length := -1
	if l, ok := md.BloomFilterLength.Get(); ok {
		length = int(l)
	}
	return int(off), length
}

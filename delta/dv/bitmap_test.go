package dv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// refSet is the plain model the Bitmap is checked against.
type refSet map[uint64]bool

func (s refSet) sorted() []uint64 {
	out := make([]uint64, 0, len(s))
	for v := range s {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// checkAgainst compares every query of b with the model.
func checkAgainst(t *testing.T, name string, b *Bitmap, ref refSet, r *rand.Rand) {
	t.Helper()
	want := ref.sorted()
	if b.Cardinality() != uint64(len(want)) {
		t.Fatalf("%s: Cardinality = %d, want %d", name, b.Cardinality(), len(want))
	}
	if got := b.ToArray(); !slices.Equal(got, want) {
		t.Fatalf("%s: ToArray differs (len %d vs %d)", name, len(got), len(want))
	}
	for _, v := range want {
		if !b.Contains(v) {
			t.Fatalf("%s: Contains(%d) = false", name, v)
		}
	}
	for i := 0; i < 2000 && len(want) > 0; i++ {
		v := want[r.IntN(len(want))] + uint64(r.IntN(5)) - 2
		if b.Contains(v) != ref[v] {
			t.Fatalf("%s: Contains(%d) = %v, want %v", name, v, !ref[v], ref[v])
		}
	}
	if b.Contains(1<<63) || b.Contains(^uint64(0)) {
		t.Fatalf("%s: Contains of an absent huge row", name)
	}
	// windows around members, plus the whole range
	windows := [][2]uint64{{0, ^uint64(0)}, {0, 0}, {5, 3}}
	for i := 0; i < 200 && len(want) > 0; i++ {
		lo := want[r.IntN(len(want))] - uint64(r.IntN(3))
		windows = append(windows, [2]uint64{lo, lo + uint64(r.IntN(200000))})
	}
	for _, w := range windows {
		i, _ := slices.BinarySearch(want, w[0])
		j, _ := slices.BinarySearch(want, w[1])
		exp := want[i:max(i, j)]
		got := b.AppendRange([]uint64{42}, w[0], w[1])
		if got[0] != 42 || !slices.Equal(got[1:], exp) {
			t.Fatalf("%s: AppendRange(%d, %d) = %d rows, want %d", name, w[0], w[1], len(got)-1, len(exp))
		}
	}
}

// sets returns named random sets covering every container kind.
func sets(r *rand.Rand) map[string]refSet {
	out := map[string]refSet{"empty": {}}
	s := refSet{}
	for range 3000 { // sparse: array containers, many keys
		s[r.Uint64N(1<<40)] = true
	}
	out["sparse"] = s
	s = refSet{}
	for range 30000 { // dense: bitmap containers
		s[r.Uint64N(3<<16)] = true
	}
	out["dense"] = s
	s = refSet{}
	for i := range 40 { // runs, some crossing container boundaries
		lo := uint64(i)*50000 + r.Uint64N(1000)
		for v := lo; v < lo+r.Uint64N(70000); v++ {
			s[v] = true
		}
	}
	out["runs"] = s
	s = refSet{}
	for _, hi := range []uint64{0, 1, 7, 1 << 20, 1<<31 - 1} { // several buckets > 2^32
		for range 500 {
			s[hi<<32|r.Uint64N(1<<32)] = true
		}
		s[hi<<32] = true
		s[hi<<32|0xFFFFFFFF] = true
		for v := uint64(0); v < 5000; v++ {
			s[hi<<32|0x12340000|v] = true
		}
	}
	out["highkeys"] = s
	s = refSet{}
	for v := uint64(0); v < 1<<16; v++ { // one full container
		s[v] = true
	}
	s[1<<16+4095] = true
	out["full"] = s
	s = refSet{}
	for v := uint64(0); v < arrayMax; v++ { // exactly at the array limit, then over it
		s[v*2] = true
	}
	out["array4096"] = s
	s2 := refSet{}
	for v := range s {
		s2[v] = true
	}
	s2[1] = true
	out["array4097"] = s2
	return out
}

func TestBitmapRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, ref := range sets(r) {
		b := New()
		for _, v := range ref.sorted() {
			b.Add(v)
		}
		// adding in random order gives the same set
		b2 := New()
		order := ref.sorted()
		r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, v := range order {
			b2.Add(v)
			b2.Add(v) // duplicates are ignored
		}
		checkAgainst(t, name+"/built", b, ref, r)
		checkAgainst(t, name+"/shuffled", b2, ref, r)
		if !b.Equal(b2) {
			t.Fatalf("%s: Equal = false for the same set", name)
		}
		data, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		got, err := Unmarshal(data)
		if err != nil {
			t.Fatalf("%s: Unmarshal: %v", name, err)
		}
		checkAgainst(t, name+"/decoded", got, ref, r)
		if !got.Equal(b) {
			t.Fatalf("%s: decoded set not Equal", name)
		}
		again, err := got.MarshalBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Fatalf("%s: re-marshal differs (%v)", name, err)
		}
		// Adding to a decoded bitmap (possibly into a run container) works.
		extra := ref.sorted()
		if len(extra) > 0 {
			v := extra[len(extra)/2] + 1
			for ref[v] {
				v++
			}
			got.Add(v)
			ref[v] = true
			checkAgainst(t, name+"/decoded+add", got, ref, r)
		}
	}
}

func TestMarshalContainerKinds(t *testing.T) {
	// count cookies and container kinds in an encoded single-bucket set
	run := New()
	run.AddRange(100, 60000)
	data, _ := run.MarshalBinary()
	if len(data) != 4+8+4+4+1+4+2+4 {
		t.Errorf("one long run: %d bytes, want a single run container", len(data))
	}
	if c := binary.LittleEndian.Uint16(data[16:]); c != cookieRun {
		t.Errorf("cookie %d, want %d", c, cookieRun)
	}
	dense := New()
	for v := uint64(0); v < 20000; v++ {
		dense.Add(v * 3)
	}
	data, _ = dense.MarshalBinary()
	if c := binary.LittleEndian.Uint32(data[16:]); c != cookieNoRun {
		t.Errorf("cookie %d, want %d", c, cookieNoRun)
	}
	if len(data) != 16+8+4+4+8192 {
		t.Errorf("dense: %d bytes, want one bitmap container", len(data))
	}
	if _, err := Of(1 << 63).MarshalBinary(); err == nil {
		t.Error("row 2^63 marshalled; Delta forbids keys with the top bit set")
	}
}

// The serialization of rows 3, 4, 7, 11, 18, 29 written out by hand from
// the Delta protocol and the Roaring format specification.
func TestMarshalKnownBytes(t *testing.T) {
	want := []byte{
		0xD1, 0xD3, 0x39, 0x64, // magic 1681511377, little-endian
		1, 0, 0, 0, 0, 0, 0, 0, // one bucket
		0, 0, 0, 0, // bucket key 0
		0x3A, 0x30, 0, 0, // cookie 12346
		1, 0, 0, 0, // one container
		0, 0, 5, 0, // key 0, cardinality 6-1
		16, 0, 0, 0, // offset of the container from the cookie
		3, 0, 4, 0, 7, 0, 11, 0, 18, 0, 29, 0,
	}
	got, err := Of(29, 3, 18, 4, 11, 7).MarshalBinary()
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got % x (%v)\nwant % x", got, err, want)
	}
	b, err := Unmarshal(want)
	if err != nil || !slices.Equal(b.ToArray(), []uint64{3, 4, 7, 11, 18, 29}) {
		t.Fatalf("Unmarshal: %v %v", b, err)
	}
}

// Hand-built run containers: with fewer than 4 containers the run cookie
// omits offsets; with 4 or more it has them.
func TestUnmarshalRunContainers(t *testing.T) {
	le16 := func(b []byte, v ...uint16) []byte {
		for _, x := range v {
			b = binary.LittleEndian.AppendUint16(b, x)
		}
		return b
	}
	le32 := binary.LittleEndian.AppendUint32
	head := func(key uint32) []byte {
		b := le32(nil, Magic)
		b = binary.LittleEndian.AppendUint64(b, 1)
		return le32(b, key)
	}
	// bucket 5: container 0 is runs {10..19, 30}, container 2 is an array {7}
	b := head(5)
	b = le32(b, cookieRun|1<<16) // two containers
	b = append(b, 0b01)          // first is a run container
	b = le16(b, 0, 10, 2, 0)     // keys and cardinality-1
	b = le16(b, 2, 10, 9, 30, 0) // 2 runs: start 10 len-1 9, start 30 len-1 0
	b = le16(b, 7)
	got, err := Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	var want []uint64
	for v := uint64(10); v < 20; v++ {
		want = append(want, 5<<32|v)
	}
	want = append(want, 5<<32|30, 5<<32|2<<16|7)
	if !slices.Equal(got.ToArray(), want) {
		t.Fatalf("got %v, want %v", got.ToArray(), want)
	}
	// four run containers with offsets
	b = head(0)
	b = le32(b, cookieRun|3<<16)
	b = append(b, 0x0F)
	b = le16(b, 0, 0, 1, 0, 2, 65535, 3, 1)
	hdr := 4 + 1 + 16 + 16
	for i := range 4 {
		b = le32(b, uint32(hdr+6*i))
	}
	b = le16(b, 1, 5, 0)
	b = le16(b, 1, 6, 0)
	b = le16(b, 1, 0, 65535)
	b = le16(b, 1, 100, 1)
	got, err = Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Cardinality() != 1+1+65536+2 || !got.Contains(5) || !got.Contains(1<<16|6) ||
		!got.Contains(2<<16|65535) || !got.Contains(3<<16|101) || got.Contains(3<<16|102) {
		t.Fatalf("run containers decoded wrongly: card %d", got.Cardinality())
	}
	if rows := got.AppendRange(nil, 2<<16+65530, 3<<16+101); len(rows) != 7 {
		t.Fatalf("AppendRange across run containers: %v", rows)
	}
}

func TestUnmarshalHostile(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var valid [][]byte
	for _, ref := range sets(r) {
		b := New()
		for v := range ref {
			b.Add(v)
		}
		data, _ := b.MarshalBinary()
		if len(data) < 200000 {
			valid = append(valid, data)
		}
	}
	for _, data := range valid {
		for n := 0; n < len(data); n += 1 + n/64 {
			if _, err := Unmarshal(data[:n]); err == nil || !errors.Is(err, ErrFormat) {
				t.Fatalf("truncation to %d of %d bytes: err = %v", n, len(data), err)
			}
		}
		if _, err := Unmarshal(append(slices.Clip(data), 0)); err == nil || !strings.Contains(err.Error(), "trailing") {
			t.Fatalf("trailing byte: %v", err)
		}
		for range 200 { // random corruption must not panic
			c := slices.Clone(data)
			c[r.IntN(len(c))] ^= byte(1 + r.IntN(255))
			Unmarshal(c)
		}
	}
	base, _ := Of(3, 4, 7, 11, 18, 29).MarshalBinary()
	patch := func(off int, v ...byte) []byte {
		c := slices.Clone(base)
		copy(c[off:], v)
		return c
	}
	u64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"bad magic", patch(0, 1, 2, 3, 4), "bad magic"},
		{"native magic", patch(0, u32(nativeMagic)...), "native"},
		{"huge bucket count", patch(4, u64(1<<62)...), "bucket count"},
		{"bucket count 2", patch(4, u64(2)...), "truncated"},
		{"key top bit", patch(12, u32(1<<31)...), "most significant bit"},
		{"bad cookie", patch(16, u32(12345)...), "bad roaring cookie"},
		{"huge container count", patch(20, u32(1<<30)...), "container count"},
		{"container count 65536", patch(20, u32(65536)...), "truncated"},
		{"card too big", patch(26, 9, 0), "truncated"},
		{"unsorted array", patch(32, 5, 0), "ascending"},
		{"duplicate in array", patch(34, 3, 0), "ascending"},
		{"run cookie, huge run", patch(16, append(u32(cookieRun), 1, 0, 0, 5, 0, 3, 0, 0xFF, 0xFF)...), "65535"},
	} {
		_, err := Unmarshal(tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrFormat) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// descending bucket keys and a bitmap whose popcount disagrees
	two, _ := Of(5<<32, 9<<32).MarshalBinary()
	second := 12 + 4 + 18
	binary.LittleEndian.PutUint32(two[second:], 5)
	if _, err := Unmarshal(two); err == nil || !strings.Contains(err.Error(), "not above") {
		t.Errorf("repeated bucket key: %v", err)
	}
	// overlapping runs
	c := slices.Clone(base)
	c = append(c[:16], append(u32(cookieRun), 1, 0, 0, 3, 0, 2, 0, 5, 0, 1, 0, 6, 0, 1, 0)...)
	if _, err := Unmarshal(c); err == nil || !strings.Contains(err.Error(), "overlaps") {
		t.Errorf("overlapping runs: %v", err)
	}
	// run total disagrees with cardinality
	c = append(c[:16], append(u32(cookieRun), 1, 0, 0, 9, 0, 1, 0, 5, 0, 1, 0)...)
	if _, err := Unmarshal(c); err == nil || !strings.Contains(err.Error(), "runs hold") {
		t.Errorf("run cardinality: %v", err)
	}
	// a bitmap container whose bits disagree with the cardinality
	bm := New()
	for v := uint64(0); v < 10000; v += 2 {
		bm.Add(v)
	}
	bd, _ := bm.MarshalBinary()
	bd[len(bd)-1] |= 0x80
	if _, err := Unmarshal(bd); err == nil || !strings.Contains(err.Error(), "bitmap container holds") {
		t.Errorf("bitmap popcount: %v", err)
	}
}

func BenchmarkAppendRange(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	bm := New()
	for range 100000 {
		bm.Add(r.Uint64N(10_000_000))
	}
	data, _ := bm.MarshalBinary()
	bm, _ = Unmarshal(data)
	var dst []uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lo := uint64(i*4096) % 10_000_000
		dst = bm.AppendRange(dst[:0], lo, lo+4096)
	}
}

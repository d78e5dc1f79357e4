package dv

import (
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func ptr(v int32) *int32 { return &v }

// The "u" example of the protocol's Deletion Vector Descriptor section: a
// two-character random prefix and a Z85-encoded UUID.
func TestProtocolUUIDExample(t *testing.T) {
	var d Descriptor
	err := json.Unmarshal([]byte(`{"storageType":"u","pathOrInlineDv":"ab^-aqEH.-t@S}K{vb[*k^","offset":4,"sizeInBytes":40,"cardinality":6}`), &d)
	if err != nil {
		t.Fatal(err)
	}
	p, err := d.AbsolutePath("/mytable")
	want := filepath.FromSlash("/mytable/ab/deletion_vector_d2c639aa-8816-431a-aaf6-d3fe2512ff61.bin")
	if err != nil || p != want {
		t.Fatalf("AbsolutePath = %q, %v; want %q", p, err, want)
	}
	if p, _ := d.AbsolutePath("file:///mytable"); p != want {
		t.Fatalf("AbsolutePath with a file URI root = %q", p)
	}
	if id := d.UniqueID(); id != "uab^-aqEH.-t@S}K{vb[*k^@4" {
		t.Fatalf("UniqueID = %q", id)
	}
	d.Offset = nil
	if id := d.UniqueID(); id != "uab^-aqEH.-t@S}K{vb[*k^" {
		t.Fatalf("UniqueID without offset = %q", id)
	}
	out, _ := json.Marshal(d)
	if strings.Contains(string(out), "offset") {
		t.Fatalf("absent offset marshalled: %s", out)
	}
}

// A descriptor as written by Delta for a real table (no random prefix;
// offset 1, the first vector after the version byte; 36 bytes for two rows).
func TestRealTableDescriptor(t *testing.T) {
	d := Descriptor{StorageType: "u", PathOrInlineDv: "vBn[lx{q8@P<9BNH/isA", Offset: ptr(1), SizeInBytes: 36, Cardinality: 2}
	p, err := d.AbsolutePath("/t")
	want := filepath.FromSlash("/t/deletion_vector_61d16c75-6994-46b7-a15b-8b538852e50e.bin")
	if err != nil || p != want {
		t.Fatalf("AbsolutePath = %q, %v; want %q", p, err, want)
	}
	// two rows in one array container serialize to exactly 36 bytes
	if data, _ := Of(0, 9).MarshalBinary(); len(data) != 36 {
		t.Fatalf("two rows: %d bytes, want 36", len(data))
	}
}

// The protocol's inline example ("wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L")
// decodes to a magic number written big-endian, not the little-endian
// portable format the same document specifies (delta-io/delta PR 3063 says
// so too). It must fail with a clear error rather than decode to garbage.
func TestProtocolInlineExampleRejected(t *testing.T) {
	d := Descriptor{StorageType: "i", PathOrInlineDv: "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", SizeInBytes: 40, Cardinality: 6}
	_, err := Load("", d)
	if err == nil || !strings.Contains(err.Error(), "magic") {
		t.Fatalf("err = %v, want a magic-number error", err)
	}
}

func TestInline(t *testing.T) {
	for _, rows := range [][]uint64{{}, {0}, {3, 4, 7, 11, 18, 29}, {1 << 40, 1<<40 + 1, 5 << 32}} {
		b := Of(rows...)
		d, err := Inline(b)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := b.MarshalBinary()
		if d.StorageType != "i" || d.Offset != nil || int(d.SizeInBytes) != len(data) || d.Cardinality != int64(len(rows)) {
			t.Fatalf("descriptor %+v for %d bytes", d, len(data))
		}
		if len(d.PathOrInlineDv) != (len(data)+3)/4*5 {
			t.Fatalf("encoded length %d for %d bytes", len(d.PathOrInlineDv), len(data))
		}
		got, err := Load("/nonexistent", d)
		if err != nil || !got.Equal(b) {
			t.Fatalf("Load(inline %v) = %v, %v", rows, got, err)
		}
		bad := d
		bad.SizeInBytes += 4
		if _, err := Load("", bad); err == nil || !strings.Contains(err.Error(), "sizeInBytes") {
			t.Errorf("inline sizeInBytes too large: %v", err)
		}
		bad = d
		bad.Cardinality++
		if _, err := Load("", bad); err == nil || !strings.Contains(err.Error(), "cardinality") {
			t.Errorf("inline wrong cardinality: %v", err)
		}
	}
	// 34 bytes: padded to 36 for Z85; a size 3 short of the decoded length is
	// not a valid padding of it.
	d, _ := Inline(Of(1))
	if d.SizeInBytes != 34 {
		t.Fatalf("single row serializes to %d bytes, want 34", d.SizeInBytes)
	}
	d.SizeInBytes = 32
	if _, err := Load("", d); err == nil {
		t.Error("inline size 32 of a 36-byte decode accepted")
	}
}

func TestWriteFileLoad(t *testing.T) {
	root := t.TempDir()
	dense := New()
	dense.AddRange(1000, 90000)
	bitmaps := []*Bitmap{Of(3, 4, 7, 11, 18, 29), dense, New(), Of(1<<33, 1<<33+5, 7<<40)}
	descs, err := WriteFile(root, "ab", bitmaps)
	if err != nil {
		t.Fatal(err)
	}
	if len(descs) != len(bitmaps) {
		t.Fatalf("%d descriptors", len(descs))
	}
	ids := map[string]bool{}
	for i, d := range descs {
		if d.StorageType != "u" || !strings.HasPrefix(d.PathOrInlineDv, "ab") || len(d.PathOrInlineDv) != 22 {
			t.Fatalf("descriptor %d: %+v", i, d)
		}
		if i == 0 && *d.Offset != 1 {
			t.Fatalf("first offset %d, want 1", *d.Offset)
		}
		if i > 0 && *d.Offset != *descs[i-1].Offset+descs[i-1].SizeInBytes+8 {
			t.Fatalf("offset %d does not follow the previous vector", *d.Offset)
		}
		ids[d.UniqueID()] = true
		got, err := Load(root, d)
		if err != nil || !got.Equal(bitmaps[i]) {
			t.Fatalf("Load %d: %v", i, err)
		}
		if _, err := Load("file://"+filepath.ToSlash(root), d); err != nil {
			t.Fatalf("Load with a file URI root: %v", err)
		}
	}
	if len(ids) != len(descs) {
		t.Fatal("UniqueIDs repeat")
	}
	path, err := descs[0].AbsolutePath(root)
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(path)
	if filepath.Dir(path) != filepath.Join(root, "ab") || !strings.HasPrefix(name, "deletion_vector_") ||
		!strings.HasSuffix(name, ".bin") || len(name) != len("deletion_vector_")+36+4 || name[16+14] != '4' {
		t.Fatalf("file %s is not <root>/ab/deletion_vector_<v4 uuid>.bin", path)
	}
	raw, err := os.ReadFile(path)
	if err != nil || raw[0] != 1 {
		t.Fatalf("version byte: %v", err)
	}
	// storage type p: absolute path and file URI
	for _, p := range []string{path, "file://" + filepath.ToSlash(path), "file:" + filepath.ToSlash(path)} {
		d := descs[1]
		d.StorageType, d.PathOrInlineDv = "p", p
		if got, err := Load("/elsewhere", d); err != nil || !got.Equal(dense) {
			t.Fatalf("storage type p %q: %v", p, err)
		}
	}
	// A second file in the same place gets another UUID; no prefix works too.
	more, err := WriteFile(root, "", []*Bitmap{Of(1)})
	if err != nil || more[0].PathOrInlineDv[:20] == descs[0].PathOrInlineDv[2:] || len(more[0].PathOrInlineDv) != 20 {
		t.Fatalf("second file: %+v %v", more, err)
	}
	if got, err := Load(root, more[0]); err != nil || !got.Equal(Of(1)) {
		t.Fatalf("no-prefix load: %v", err)
	}
	if d, err := WriteFile(root, "x", nil); d != nil || err != nil {
		t.Fatalf("empty WriteFile: %v %v", d, err)
	}
}

func TestLoadErrors(t *testing.T) {
	root := t.TempDir()
	descs, err := WriteFile(root, "", []*Bitmap{Of(3, 4, 7, 11, 18, 29), Of(100, 200)})
	if err != nil {
		t.Fatal(err)
	}
	path, _ := descs[0].AbsolutePath(root)
	good, _ := os.ReadFile(path)
	restore := func() {
		if err := os.WriteFile(path, good, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(name string, d Descriptor, want ...string) {
		t.Helper()
		_, err := Load(root, d)
		if err == nil {
			t.Errorf("%s: no error", name)
			return
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %v does not mention %q", name, err, w)
			}
		}
	}
	d0, d1 := descs[0], descs[1]
	off1 := "offset " + itoa(*d1.Offset)

	// a flipped bit in the second vector's bitmap: checksum mismatch
	c := slices.Clone(good)
	c[*d1.Offset+4+20] ^= 0x10
	os.WriteFile(path, c, 0o644)
	expect("checksum", d1, "checksum mismatch", path, off1)
	if _, err := Load(root, d0); err != nil {
		t.Errorf("first vector should still load: %v", err)
	}
	// a wrong checksum field
	c = slices.Clone(good)
	c[len(c)-1] ^= 1
	os.WriteFile(path, c, 0o644)
	expect("checksum field", d1, "checksum mismatch")
	restore()

	bad := d1
	bad.SizeInBytes -= 2
	expect("smaller sizeInBytes", bad, "does not match sizeInBytes", off1)
	bad.SizeInBytes += 4
	expect("larger sizeInBytes", bad, "sizeInBytes", path)
	bad = d0
	bad.SizeInBytes = 1 << 30
	expect("huge sizeInBytes", bad, "the file has")
	bad.SizeInBytes = -1
	expect("negative sizeInBytes", bad, "negative")
	bad = d0
	bad.Cardinality = 5
	expect("cardinality", bad, "cardinality is 5")
	bad = d1
	bad.Offset = ptr(2)
	expect("wrong offset", bad, "offset 2")
	bad.Offset = ptr(0)
	expect("offset 0", bad, "offset 0")
	bad = d0
	bad.Offset = nil // defaults to 1, the first vector
	if _, err := Load(root, bad); err != nil {
		t.Errorf("absent offset: %v", err)
	}

	c = slices.Clone(good)
	c[0] = 2
	os.WriteFile(path, c, 0o644)
	expect("version", d0, "version 2")
	restore()

	// stored size disagreeing with a consistent descriptor
	c = slices.Clone(good)
	binary.BigEndian.PutUint32(c[1:], 7)
	os.WriteFile(path, c, 0o644)
	expect("stored size", d0, "stored size 7")
	restore()

	// Another last character of the encoded UUID names a file that is not
	// there (the random UUID may end in "0" already).
	other := "0"
	if strings.HasSuffix(d0.PathOrInlineDv, other) {
		other = "1"
	}
	expect("missing file", Descriptor{StorageType: "u", PathOrInlineDv: d0.PathOrInlineDv[:19] + other, SizeInBytes: 44, Cardinality: 6}, "deletion_vector_")
	expect("short path", Descriptor{StorageType: "u", PathOrInlineDv: "abc"}, "shorter")
	expect("escaping prefix", Descriptor{StorageType: "u", PathOrInlineDv: "../" + d0.PathOrInlineDv}, "leaves the table")
	expect("bad uuid", Descriptor{StorageType: "u", PathOrInlineDv: "~~~~~~~~~~~~~~~~~~~~"}, "invalid character")
	expect("storage type", Descriptor{StorageType: "x"}, "unknown storage type")
	expect("remote p without a store", Descriptor{StorageType: "p", PathOrInlineDv: "s3://bucket/dv.bin"}, "no object store is registered")
	if _, err := WriteFile(root, "../up", []*Bitmap{Of(1)}); err == nil {
		t.Error("WriteFile accepted an escaping prefix")
	}
}

func itoa(v int32) string {
	b, _ := json.Marshal(v)
	return string(b)
}

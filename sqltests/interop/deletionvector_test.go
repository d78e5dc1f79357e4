package interop

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2/roaring64"

	"github.com/carquet-go/carquet/delta/dv"
)

// deletionVectorSets are row sets covering array, bitmap and run containers
// and several 32-bit buckets, as roaring64 bitmaps.
func deletionVectorSets() map[string]*roaring64.Bitmap {
	r := rand.New(rand.NewPCG(11, 12))
	out := map[string]*roaring64.Bitmap{}
	out["empty"] = roaring64.New()
	out["one"] = roaring64.BitmapOf(0)
	out["protocol rows"] = roaring64.BitmapOf(3, 4, 7, 11, 18, 29)
	sparse := roaring64.New()
	for range 5000 {
		sparse.Add(r.Uint64N(1 << 36))
	}
	out["sparse"] = sparse
	dense := roaring64.New()
	for range 60000 {
		dense.Add(r.Uint64N(4 << 16))
	}
	out["dense"] = dense
	runs := roaring64.New()
	for i := range uint64(30) {
		lo := i*100_000 + r.Uint64N(5000)
		runs.AddRange(lo, lo+r.Uint64N(80_000))
	}
	out["runs"] = runs
	high := roaring64.New()
	for _, hi := range []uint64{0, 3, 1 << 16, 1<<31 - 1} {
		for range 2000 {
			high.Add(hi<<32 | r.Uint64N(1<<32))
		}
		high.AddRange(hi<<32|0xFFFF_0000, hi<<32|0x1_0000_0000)
	}
	out["high keys"] = high
	return out
}

// roaring64 (RoaringBitmap/roaring, its portable WriteTo) serializes; the
// Delta magic is prefixed; dv.Unmarshal must give the same set — with and
// without run containers.
func TestDeletionVectorReadsRoaring64(t *testing.T) {
	for name, rb := range deletionVectorSets() {
		for _, optimize := range []bool{false, true} {
			rb := rb.Clone()
			if optimize {
				rb.RunOptimize()
			}
			var buf bytes.Buffer
			buf.Write(binary.LittleEndian.AppendUint32(nil, dv.Magic))
			if _, err := rb.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			got, err := dv.Unmarshal(buf.Bytes())
			if err != nil {
				t.Fatalf("%s (runs %v): %v", name, optimize, err)
			}
			want := rb.ToArray()
			if got.Cardinality() != rb.GetCardinality() || !slices.Equal(got.ToArray(), want) {
				t.Fatalf("%s (runs %v): %d rows, roaring64 has %d", name, optimize, got.Cardinality(), len(want))
			}
			for _, v := range want[:min(len(want), 500)] {
				if !got.Contains(v) || got.Contains(v+1) != rb.Contains(v+1) {
					t.Fatalf("%s: Contains disagrees near %d", name, v)
				}
			}
			if optimize {
				// through a deletion vector file framed as the protocol says
				checkDeletionVectorFile(t, name, buf.Bytes(), rb)
			}
		}
	}
}

// dv's MarshalBinary, magic stripped, read by roaring64.
func TestDeletionVectorWrittenReadByRoaring64(t *testing.T) {
	for name, rb := range deletionVectorSets() {
		b := dv.New()
		for _, v := range rb.ToArray() {
			b.Add(v)
		}
		data, err := b.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if m := binary.LittleEndian.Uint32(data); m != dv.Magic {
			t.Fatalf("%s: magic %d", name, m)
		}
		got := roaring64.New()
		n, err := got.ReadFrom(bytes.NewReader(data[4:]))
		if err != nil {
			t.Fatalf("%s: roaring64 ReadFrom: %v", name, err)
		}
		if n != int64(len(data)-4) {
			t.Fatalf("%s: roaring64 read %d of %d bytes", name, n, len(data)-4)
		}
		if !got.Equals(rb) {
			t.Fatalf("%s: roaring64 reads %d rows, want %d", name, got.GetCardinality(), rb.GetCardinality())
		}
	}
}

// checkDeletionVectorFile stores data (magic + roaring64 bytes) in a
// deletion vector file — version byte 1, big-endian size, data, big-endian
// CRC-32 — and loads it through an absolute-path ("p") descriptor.
func checkDeletionVectorFile(t *testing.T, name string, data []byte, rb *roaring64.Bitmap) {
	t.Helper()
	dir := t.TempDir()
	file := []byte{1, 0xAA, 0xBB} // two filler bytes: the vector starts at offset 3
	off := int32(len(file))
	file = binary.BigEndian.AppendUint32(file, uint32(len(data)))
	file = append(file, data...)
	file = binary.BigEndian.AppendUint32(file, crc32.ChecksumIEEE(data))
	path := filepath.Join(dir, "deletion_vector_00000000-0000-0000-0000-000000000000.bin")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	d := dv.Descriptor{StorageType: "p", PathOrInlineDv: path, Offset: &off,
		SizeInBytes: int32(len(data)), Cardinality: int64(rb.GetCardinality())}
	got, err := dv.Load(dir, d)
	if err != nil {
		t.Fatalf("%s: Load: %v", name, err)
	}
	if !slices.Equal(got.ToArray(), rb.ToArray()) {
		t.Fatalf("%s: file vector differs", name)
	}
}

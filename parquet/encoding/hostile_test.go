package encoding

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

func TestHostileRLE(t *testing.T) {
	var d RLEDecoder
	mustCorrupt(t, "bit width 33", d.Reset([]byte{0}, 33, 1))
	var idx DictIndexDecoder
	mustCorrupt(t, "index bit width 40", idx.Reset([]byte{40, 2, 1}, 1))
	mustCorrupt(t, "no bit width byte", idx.Reset(nil, 3))
	// Run header claiming 2^40 values: refused, nothing allocated.
	hdr := appendUvarint(nil, uint64(1)<<41)
	if err := d.Reset(append(hdr, 1), 1, 5); err != nil {
		t.Fatal(err)
	}
	_, err := d.Decode(nil, 5)
	mustCorrupt(t, "run of 2^40", err)
	// Truncated: a run of 4 when 10 are expected.
	if err := d.Reset([]byte{8, 1}, 1, 10); err != nil {
		t.Fatal(err)
	}
	got, err := d.Decode(nil, 10)
	mustCorrupt(t, "truncated", err)
	if len(got) != 4 {
		t.Fatalf("decoded %d values before the error", len(got))
	}
	if !strings.Contains(err.Error(), "at byte 2") {
		t.Errorf("error does not name the offset: %v", err)
	}
	// A bit-packed run cut short still yields its whole values.
	if err := d.Reset([]byte{0x03, 0xFF}, 4, 2); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Decode(nil, 2); err != nil || len(got) != 2 || got[0] != 15 {
		t.Fatalf("short run: %v %v", got, err)
	}
	// Zero-length runs are skipped, and do not loop forever.
	if err := d.Reset([]byte{0, 1, 0, 1, 0x02, 1}, 1, 1); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Decode(nil, 1); err != nil || len(got) != 1 {
		t.Fatalf("zero runs: %v %v", got, err)
	}
	var b rleBoolDecoder
	mustCorrupt(t, "bool length past end", b.Reset([]byte{9, 0, 0, 0, 1}, 1))
}

func TestHostileDelta(t *testing.T) {
	var d DeltaInt64Decoder
	mustCorrupt(t, "block size 0", d.Reset([]byte{0, 1, 1, 0}, 1))
	mustCorrupt(t, "block size 100", d.Reset([]byte{100, 1, 1, 0}, 1))
	mustCorrupt(t, "miniblocks 0", d.Reset([]byte{0x80, 1, 0, 1, 0}, 1))
	mustCorrupt(t, "miniblocks 3", d.Reset([]byte{0x80, 1, 3, 1, 0}, 1))
	mustCorrupt(t, "fewer values than the page", d.Reset([]byte{0x80, 1, 4, 2, 0}, 3))
	mustCorrupt(t, "truncated header", d.Reset([]byte{0x80, 1, 4}, 1))
	// Bit width 65.
	src := []byte{0x80, 1, 1, 3, 0, 0, 65}
	if err := d.Reset(src, 3); err != nil {
		t.Fatal(err)
	}
	_, err := d.Decode(nil, 3)
	mustCorrupt(t, "bit width 65", err)
	var d32 DeltaInt32Decoder
	if err := d32.Reset(src, 3); err != nil {
		t.Fatal(err)
	}
	_, err = d32.Decode(nil, 3)
	mustCorrupt(t, "bit width 65 int32", err)
	// A header claiming 2^40 values: only what the page holds is read.
	huge := appendUvarint([]byte{0x80, 1, 4}, 1<<40)
	huge = append(huge, 2, 2, 0, 0, 0, 0)
	if err := d.Reset(huge, 3); err != nil {
		t.Fatal(err)
	}
	if got, err := d.Decode(nil, 3); err != nil || !sliceEqual(got, []int64{1, 2, 3}) {
		t.Fatalf("2^40 header: %v %v", got, err)
	}
	if err := d.Reset(huge, 1000); err != nil {
		t.Fatal(err)
	}
	_, err = d.Decode(nil, 1000)
	mustCorrupt(t, "2^40 header, truncated", err)
	// Same header inside DELTA_LENGTH_BYTE_ARRAY must match exactly.
	var l DeltaLengthByteArrayDecoder
	mustCorrupt(t, "dlba count mismatch", l.Reset(huge, 3))
	// Truncated miniblock.
	if err := d.Reset([]byte{0x80, 1, 4, 9, 0, 0, 8, 8, 8, 8, 1, 2}, 9); err != nil {
		t.Fatal(err)
	}
	_, err = d.Decode(nil, 9)
	mustCorrupt(t, "truncated miniblock", err)
	if err := d.Reset([]byte{0x80, 1, 4, 9, 0, 0, 8, 8, 8, 8, 1, 2}, 9); err != nil {
		t.Fatal(err)
	}
	mustCorrupt(t, "truncated miniblock skip", d.Skip(9))
}

func TestHostileByteArrays(t *testing.T) {
	var p plainByteArrayDecoder
	src := binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFF)
	if err := p.Reset(src, 1); err != nil {
		t.Fatal(err)
	}
	_, _, err := p.Decode(nil, nil, 1)
	mustCorrupt(t, "length 2^32-1", err)
	if err := p.Reset(src, 1); err != nil {
		t.Fatal(err)
	}
	mustCorrupt(t, "skip length 2^32-1", p.Skip(1))
	mustCorrupt(t, "more values than bytes", p.Reset(src, 2))

	// DELTA_LENGTH_BYTE_ARRAY with a negative length.
	lens := AppendDeltaBinaryPackedInt32(nil, []int32{3, -5})
	var l DeltaLengthByteArrayDecoder
	if err := l.Reset(append(lens, "abcdefgh"...), 2); err != nil {
		t.Fatal(err)
	}
	_, _, err = l.Decode(nil, nil, 2)
	mustCorrupt(t, "negative length", err)
	// Lengths past the data.
	lens = AppendDeltaBinaryPackedInt32(nil, []int32{3, 50})
	if err := l.Reset(append(lens, "abcdefgh"...), 2); err != nil {
		t.Fatal(err)
	}
	_, _, err = l.Decode(nil, nil, 2)
	mustCorrupt(t, "length past data", err)

	// DELTA_BYTE_ARRAY with a prefix longer than the previous value.
	pre := AppendDeltaBinaryPackedInt32(nil, []int32{0, 9})
	suf := AppendDeltaLengthByteArray(nil, []byte("abc"), []int32{0, 2, 3})
	var dba DeltaByteArrayDecoder
	if err := dba.Reset(append(pre, suf...), 2); err != nil {
		t.Fatal(err)
	}
	_, _, err = dba.Decode(nil, nil, 2)
	mustCorrupt(t, "prefix too long", err)
	// FIXED_LEN_BYTE_ARRAY value of the wrong width.
	fd, _ := NewFixedLenDecoder(format.DeltaByteArray, 4)
	if err := fd.Reset(AppendDeltaByteArray(nil, []byte("abcdefg"), []int32{0, 4, 7}), 2); err != nil {
		t.Fatal(err)
	}
	_, err = fd.Decode(nil, 2)
	mustCorrupt(t, "wrong width", err)
}

func TestHostileDictionary(t *testing.T) {
	enc := AppendDictIndices(nil, []int32{0, 1, 7, 2}, 8)
	dec := NewInt64DictDecoder([]int64{10, 11, 12})
	if err := dec.Reset(enc, 4); err != nil {
		t.Fatal(err)
	}
	got, err := dec.Decode(nil, 4)
	mustCorrupt(t, "index past dictionary", err)
	if !sliceEqual(got, []int64{10, 11}) {
		t.Fatalf("values before the bad index: %v", got)
	}
	_, err = GatherInt32(nil, []int32{1}, []int32{-1})
	mustCorrupt(t, "negative index", err)
	_, _, err = GatherByteArray(nil, nil, []byte("ab"), []int32{0, 1, 2}, []int32{0, 2})
	mustCorrupt(t, "byte array index", err)
	_, err = GatherFixedLen(nil, make([]byte, 30), 3, []int32{9, 10})
	mustCorrupt(t, "fixed index", err)
	_, err = GatherFixedLen(nil, make([]byte, 32), 16, []int32{1, 2})
	mustCorrupt(t, "fixed16 index", err)
	ba := NewByteArrayDictDecoder([]byte("ab"), []int32{0, 1, 2})
	if err := ba.Reset(enc, 4); err != nil {
		t.Fatal(err)
	}
	_, _, err = ba.Decode(nil, nil, 4)
	mustCorrupt(t, "byte array dict decoder", err)
}

func alpPage(logVS byte, n int32, vectors ...[]byte) []byte {
	p := []byte{0, 0, logVS}
	p = binary.LittleEndian.AppendUint32(p, uint32(n))
	off := 4 * len(vectors)
	for _, v := range vectors {
		p = binary.LittleEndian.AppendUint32(p, uint32(off))
		off += len(v)
	}
	for _, v := range vectors {
		p = append(p, v...)
	}
	return p
}

func TestHostileALP(t *testing.T) {
	var d ALPFloat64Decoder
	mustCorrupt(t, "short header", d.Reset([]byte{0, 0, 10}, 1))
	mustCorrupt(t, "mode 1", d.Reset([]byte{1, 0, 10, 1, 0, 0, 0, 0, 0, 0, 0}, 1))
	mustCorrupt(t, "log 2", d.Reset([]byte{0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0}, 1))
	mustCorrupt(t, "log 16", d.Reset([]byte{0, 0, 16, 1, 0, 0, 0, 0, 0, 0, 0}, 1))
	mustCorrupt(t, "negative count", d.Reset([]byte{0, 0, 10, 0, 0, 0, 0x80}, 0))
	mustCorrupt(t, "2^30 values, no offsets", d.Reset([]byte{0, 0, 3, 0, 0, 0, 0x40}, 5))
	good := func(exc uint16, e, f, bw byte) []byte {
		v := []byte{e, f}
		v = binary.LittleEndian.AppendUint16(v, exc)
		v = binary.LittleEndian.AppendUint64(v, 0)
		return append(v, bw)
	}
	decode := func(name string, page []byte, n int) {
		t.Helper()
		if err := d.Reset(page, n); err != nil {
			mustCorrupt(t, name, err)
			return
		}
		_, err := d.Decode(nil, n)
		mustCorrupt(t, name, err)
	}
	decode("exceptions past vector", alpPage(3, 2, good(3, 0, 0, 0)), 2)
	decode("exponent 19", alpPage(3, 2, good(0, 19, 0, 0)), 2)
	decode("factor above exponent", alpPage(3, 2, good(0, 2, 3, 0)), 2)
	decode("bit width 65", alpPage(3, 2, good(0, 0, 0, 65)), 2)
	decode("packed data missing", alpPage(3, 2, good(0, 0, 0, 8)), 2)
	v := append(good(1, 0, 0, 0), 5, 0, 0, 0, 0, 0, 0, 0, 0, 0)
	decode("exception position past vector", alpPage(3, 2, v), 2)
	page := alpPage(3, 2, good(0, 0, 0, 0))
	binary.LittleEndian.PutUint32(page[7:], 1000)
	decode("offset past end", page, 2)
	binary.LittleEndian.PutUint32(page[7:], 0)
	decode("offset into offsets", page, 2)
	var f ALPFloat32Decoder
	v32 := []byte{11, 0, 0, 0, 0, 0, 0, 0, 0}
	if err := f.Reset(alpPage(3, 1, v32), 1); err != nil {
		t.Fatal(err)
	}
	_, err := f.Decode(nil, 1)
	mustCorrupt(t, "float exponent 11", err)
	v32 = []byte{0, 0, 0, 0, 0, 0, 0, 0, 33}
	if err := f.Reset(alpPage(3, 1, v32), 1); err != nil {
		t.Fatal(err)
	}
	_, err = f.Decode(nil, 1)
	mustCorrupt(t, "float bit width 33", err)
}

func TestHostileFixed(t *testing.T) {
	dec, _ := NewInt64Decoder(format.Plain)
	mustCorrupt(t, "plain short", dec.Reset(make([]byte, 15), 2))
	dec, _ = NewInt64Decoder(format.ByteStreamSplit)
	mustCorrupt(t, "bss not whole", dec.Reset(make([]byte, 15), 1))
	mustCorrupt(t, "bss short", dec.Reset(make([]byte, 16), 3))
	b, _ := NewBoolDecoder(format.Plain)
	mustCorrupt(t, "bool short", b.Reset([]byte{1}, 9))
	_, err := NewFixedLenDecoder(format.Plain, 0)
	mustCorrupt(t, "width 0", err)
	_, err = NewInt32Decoder(format.ALP)
	mustCorrupt(t, "ALP int32", err)
	_, err = NewByteArrayDecoder(format.RLEDictionary)
	mustCorrupt(t, "dict without dictionary", err)
	_, err = NewBoolDecoder(format.DeltaBinaryPacked)
	mustCorrupt(t, "delta bool", err)
	mustCorrupt(t, "negative count", dec.Reset(nil, -1))
}

// TestCheckIndices finds the first index out of range, negative or too
// large, wherever it is, and passes indices that are all in range.
func TestCheckIndices(t *testing.T) {
	idx := make([]int32, 1000)
	for i := range idx {
		idx[i] = int32(i % 7)
	}
	if err := CheckIndices(idx, 7); err != nil {
		t.Fatal(err)
	}
	if err := CheckIndices(nil, 0); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []int32{7, -1, 1 << 30, -1 << 31} {
		for _, at := range []int{0, 500, 999} {
			old := idx[at]
			idx[at] = bad
			err := CheckIndices(idx, 7)
			if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("value %d of the batch", at)) {
				t.Errorf("index %d at %d: %v", bad, at, err)
			}
			idx[at] = old
		}
	}
}

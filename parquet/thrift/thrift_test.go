package thrift

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestVarintRoundTrip(t *testing.T) {
	vals := []int64{0, 1, -1, 63, -64, 64, 127, 128, -129, 1 << 20, math.MaxInt32, math.MinInt32, math.MaxInt64, math.MinInt64}
	w := NewWriter(nil)
	for _, v := range vals {
		w.I64(v)
	}
	r := NewReader(w.Bytes())
	for _, want := range vals {
		got, err := r.I64()
		if err != nil || got != want {
			t.Fatalf("I64 = %d, %v; want %d", got, err, want)
		}
	}
	if r.Remaining() != 0 {
		t.Fatalf("%d bytes left", r.Remaining())
	}
}

func TestZigzagBytes(t *testing.T) {
	// Zigzag maps 0,-1,1,-2,2 to 0,1,2,3,4.
	for v, want := range map[int64][]byte{0: {0}, -1: {1}, 1: {2}, -2: {3}, 2: {4}, 64: {0x80, 0x01}} {
		w := NewWriter(nil)
		w.Varint(v)
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("Varint(%d) = %x, want %x", v, w.Bytes(), want)
		}
	}
}

func TestI32Range(t *testing.T) {
	w := NewWriter(nil)
	w.I64(math.MaxInt32 + 1)
	if _, err := NewReader(w.Bytes()).I32(); err == nil {
		t.Fatal("out-of-range i32 accepted")
	}
}

func TestVarintOverflow(t *testing.T) {
	bad := [][]byte{
		{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f},       // 10th byte too big
		{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, // 11 bytes
		{0x80}, // truncated
	}
	for _, b := range bad {
		if _, err := NewReader(b).Uvarint(); err == nil {
			t.Errorf("%x: no error", b)
		}
	}
}

func TestFieldHeaders(t *testing.T) {
	w := NewWriter(nil)
	var last int16
	w.FieldHeader(I32, 1, &last) // short form, delta 1
	w.I32(7)
	w.FieldHeader(I32, 16, &last) // delta 15: still short
	w.I32(8)
	w.FieldHeader(I32, 40, &last) // delta 24: long form
	w.I32(9)
	w.FieldHeader(I32, 2, &last) // negative delta: long form
	w.I32(10)
	w.BoolField(3, &last, true)
	w.BoolField(4, &last, false)
	w.FieldHeader(Binary, ExtensionFieldID, &last)
	w.Binary([]byte("ext"))
	w.FieldStop()
	b := w.Bytes()
	if b[0] != 0x15 {
		t.Fatalf("short header = %x", b[0])
	}
	r := NewReader(b)
	last = 0
	type f struct {
		t  Type
		id int16
	}
	want := []f{{I32, 1}, {I32, 16}, {I32, 40}, {I32, 2}, {BoolTrue, 3}, {BoolFalse, 4}, {Binary, ExtensionFieldID}, {Stop, 0}}
	for i, wf := range want {
		typ, id, err := r.FieldHeader(&last)
		if err != nil || typ != wf.t || id != wf.id {
			t.Fatalf("field %d: %v %d %v, want %v %d", i, typ, id, err, wf.t, wf.id)
		}
		switch typ {
		case I32:
			if _, err := r.I32(); err != nil {
				t.Fatal(err)
			}
		case Binary:
			v, err := r.Binary()
			if err != nil || string(v) != "ext" {
				t.Fatalf("extension = %q %v", v, err)
			}
		}
	}
}

// writeEveryType writes a struct holding one field of every wire type,
// including nested collections, for the skip test.
func writeEveryType(w *Writer) {
	var last int16
	w.BoolField(1, &last, true)
	w.FieldHeader(Byte, 2, &last)
	w.Byte(-3)
	w.FieldHeader(I16, 3, &last)
	w.I16(-300)
	w.FieldHeader(I32, 4, &last)
	w.I32(1 << 30)
	w.FieldHeader(I64, 5, &last)
	w.I64(-1 << 60)
	w.FieldHeader(Double, 6, &last)
	w.Double(3.5)
	w.FieldHeader(Binary, 7, &last)
	w.String("hello")
	w.FieldHeader(List, 8, &last)
	w.ListHeader(I32, 20) // long-form list header
	for i := 0; i < 20; i++ {
		w.I32(int32(i))
	}
	w.FieldHeader(Set, 9, &last)
	w.ListHeader(Bool, 2)
	w.BoolElem(true)
	w.BoolElem(false)
	w.FieldHeader(Map, 10, &last)
	w.MapHeader(Binary, List, 2)
	for i := 0; i < 2; i++ {
		w.String("k")
		w.ListHeader(Double, 1)
		w.Double(1)
	}
	w.FieldHeader(Map, 11, &last)
	w.MapHeader(I32, I32, 0)
	w.FieldHeader(Struct, 200, &last)
	var inner int16
	w.FieldHeader(List, 1, &inner)
	w.ListHeader(Struct, 1)
	w.FieldStop()
	w.FieldStop()
	w.FieldStop()
}

func TestSkipEveryType(t *testing.T) {
	w := NewWriter(nil)
	w.FieldHeader(Struct, 1, new(int16))
	writeEveryType(w)
	w.FieldStop()
	w.Raw([]byte{0xAB}) // a sentinel after the struct
	r := NewReader(w.Bytes())
	var last int16
	typ, _, err := r.FieldHeader(&last)
	if err != nil || typ != Struct {
		t.Fatal(typ, err)
	}
	if err := r.Skip(Struct); err != nil {
		t.Fatal(err)
	}
	if typ, _, _ := r.FieldHeader(&last); typ != Stop {
		t.Fatalf("after skip: %v", typ)
	}
	if r.Remaining() != 1 || r.Bytes()[r.Offset()] != 0xAB {
		t.Fatalf("skip consumed the wrong number of bytes: %d left", r.Remaining())
	}
}

func TestDepthLimit(t *testing.T) {
	// Nested structs a thousand deep: field 1 of type struct, repeatedly.
	b := bytes.Repeat([]byte{0x1c}, 1000)
	b = append(b, bytes.Repeat([]byte{0}, 1001)...)
	err := NewReader(b).Skip(Struct)
	var te *Error
	if !errors.As(err, &te) {
		t.Fatalf("want a depth error, got %v", err)
	}
}

func TestHostileSizes(t *testing.T) {
	// A list claiming 2^40 elements in a 10-byte input.
	w := NewWriter(nil)
	w.ListHeader(I64, 1<<40)
	if _, _, err := NewReader(w.Bytes()).ListHeader(); err == nil {
		t.Fatal("huge list accepted")
	}
	w = NewWriter(nil)
	w.Uvarint(1 << 40)
	if _, err := NewReader(w.Bytes()).Binary(); err == nil {
		t.Fatal("huge binary accepted")
	}
	w = NewWriter(nil)
	w.MapHeader(I32, I32, 1<<30)
	if _, _, _, err := NewReader(w.Bytes()).MapHeader(); err == nil {
		t.Fatal("huge map accepted")
	}
}

func TestBinaryNeverNil(t *testing.T) {
	v, err := NewReader([]byte{0}).Binary()
	if err != nil || v == nil || len(v) != 0 {
		t.Fatalf("empty binary = %v, %v", v, err)
	}
}

func FuzzSkip(f *testing.F) {
	w := NewWriter(nil)
	writeEveryType(w)
	f.Add(w.Bytes())
	f.Add([]byte{0x1c, 0x1c, 0x00})
	f.Add([]byte{0x19, 0x3c, 0x15, 0x02, 0x00, 0x00, 0x16, 0x04, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, typ := range []Type{Struct, List} {
			r := NewReader(b)
			err := r.Skip(typ)
			if r.Offset() > len(b) {
				t.Fatal("read past the input")
			}
			// The fast path agrees with the general code: it succeeds
			// only where that does, at the same position.
			slow := NewReader(b)
			serr := slow.skipSlow(typ)
			if (err == nil) != (serr == nil) || (err == nil && r.Offset() != slow.Offset()) {
				t.Fatalf("skip %v: fast %v at %d, general %v at %d", typ, err, r.Offset(), serr, slow.Offset())
			}
			if err != nil && err.Error() != serr.Error() {
				t.Fatalf("skip %v: errors differ: %v / %v", typ, err, serr)
			}
		}
	})
}

// uvarintRef reads a varint byte by byte, as the compact protocol defines
// it: at most 10 bytes, the tenth at most 1.
func uvarintRef(buf []byte, p int) (uint64, int) {
	var x uint64
	for i := 0; i < 10 && p < len(buf); i++ {
		b := buf[p]
		p++
		if b < 0x80 {
			if i == 9 && b > 1 {
				return 0, -1
			}
			return x | uint64(b)<<(7*i), p
		}
		x |= uint64(b&0x7f) << (7 * i)
	}
	return 0, -1
}

// TestUvarintAtEveryLength checks UvarintAt (whose varints of up to 8
// bytes are read with one load) against the byte-by-byte reading, for
// varints of every length at every distance from the end of the input,
// truncated ones among them.
func TestUvarintAtEveryLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 20000; iter++ {
		n := 1 + rng.IntN(11)
		v := make([]byte, n)
		for i := range v {
			v[i] = byte(rng.Uint32()) | 0x80
		}
		if rng.IntN(8) != 0 {
			v[n-1] &= 0x7f // ends (else runs on, or is cut by the end)
		}
		pad := rng.IntN(10)
		buf := append(make([]byte, pad), v...)
		buf = append(buf, make([]byte, rng.IntN(10))...)
		if rng.IntN(4) == 0 {
			buf = buf[:pad+rng.IntN(n+1)] // truncated
		}
		gx, gp := UvarintAt(buf, pad)
		wx, wp := uvarintRef(buf, pad)
		if gx != wx || gp != wp {
			t.Fatalf("% x at %d: got (%d, %d), want (%d, %d)", buf, pad, gx, gp, wx, wp)
		}
	}
}

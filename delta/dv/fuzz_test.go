package dv

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzUnmarshal feeds arbitrary bytes to Unmarshal: it must never panic, and
// whatever it accepts must answer queries consistently and survive a
// MarshalBinary/Unmarshal round trip unchanged.
func FuzzUnmarshal(f *testing.F) {
	for _, b := range []*Bitmap{New(), Of(3, 4, 7, 11, 18, 29), Of(1<<32, 5<<40)} {
		data, _ := b.MarshalBinary()
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Unmarshal(data)
		if err != nil {
			return
		}
		if b.Cardinality() > 1<<20 {
			// Too many rows to list; still check the round trip below.
			roundTrip(t, b)
			return
		}
		rows := b.ToArray()
		if uint64(len(rows)) != b.Cardinality() {
			t.Fatalf("ToArray has %d rows, Cardinality %d", len(rows), b.Cardinality())
		}
		if !slices.IsSorted(rows) {
			t.Fatal("rows not ascending")
		}
		for i, r := range rows {
			if (i > 0 && rows[i-1] == r) || !b.Contains(r) {
				t.Fatalf("row %d duplicated or not contained", r)
			}
			if i > 1000 {
				break
			}
		}
		if len(rows) > 0 {
			mid := rows[len(rows)/2]
			got := b.AppendRange(nil, mid, mid+70000)
			n := 0
			for _, r := range rows {
				if r >= mid && r < mid+70000 {
					n++
				}
			}
			if len(got) != n {
				t.Fatalf("AppendRange returned %d rows, want %d", len(got), n)
			}
		}
		roundTrip(t, b)
	})
}

func roundTrip(t *testing.T, b *Bitmap) {
	enc, err := b.MarshalBinary()
	if err != nil {
		t.Fatalf("re-marshal: %v", err)
	}
	b2, err := Unmarshal(enc)
	if err != nil {
		t.Fatalf("re-unmarshal: %v", err)
	}
	if !b2.Equal(b) {
		t.Fatal("round trip changed the set")
	}
	enc2, _ := b2.MarshalBinary()
	if !bytes.Equal(enc, enc2) {
		t.Fatal("marshal is not deterministic")
	}
}

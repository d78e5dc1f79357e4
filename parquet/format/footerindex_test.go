package format

import (
	"fmt"
	"reflect"
	"testing"
)

func TestFooterIndex(t *testing.T) {
	fm := wideFooter(50, 3)
	plain := Marshal(nil, fm)
	indexed, err := AddFooterIndex(plain)
	if err != nil {
		t.Fatal(err)
	}
	// Readers that do not know the index decode the same footer.
	var back FileMetaData
	if _, err := Unmarshal(indexed, &back); err != nil {
		t.Fatal(err)
	}
	back.Extension = nil
	if !reflect.DeepEqual(&back, fm) {
		t.Fatal("footer changed by adding the index")
	}
	x, err := ParseFooterIndex(indexed)
	if err != nil {
		t.Fatal(err)
	}
	for rg := 0; rg < 3; rg++ {
		for col := 0; col < 50; col += 7 {
			var cc ColumnChunk
			if err := x.ColumnChunk(rg, col, &cc); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cc, fm.RowGroups[rg].Columns[col]) {
				t.Fatalf("(%d, %d): %+v", rg, col, cc)
			}
		}
	}
	if _, err := ParseFooterIndex(plain); err != ErrNoFooterIndex {
		t.Fatalf("plain footer: %v", err)
	}
	if err := x.Verify(); err != nil {
		t.Fatal(err)
	}
	// A flipped bit in the offsets (entry (2, 47)) is caught by the
	// checksum, and by the lookup of that entry, which checks it against
	// the next one.
	bad := append([]byte(nil), indexed...)
	bad[len(bad)-40] ^= 1
	xb, err := ParseFooterIndex(bad)
	if err != nil {
		t.Fatal(err)
	}
	if xb.Verify() == nil {
		t.Fatal("corrupt index passes Verify")
	}
	var cc ColumnChunk
	if err := xb.ColumnChunk(2, 47, &cc); err == nil {
		t.Fatal("corrupt entry accepted")
	}
	if err := xb.ColumnChunk(2, 45, &cc); err != nil {
		t.Fatalf("intact entry: %v", err)
	}
	// Every single-bit error in an entry that has a successor is caught.
	for e := 0; e < 3*50; e++ {
		if e%50 == 49 {
			continue
		}
		for bit := 0; bit < 32; bit++ {
			bad := append([]byte(nil), indexed...)
			start := len(bad) - 1 - footerIndexTrailer - 4*150
			bad[start+4*e+bit/8] ^= 1 << (bit % 8)
			xb, err := ParseFooterIndex(bad)
			if err != nil {
				t.Fatal(err)
			}
			if err := xb.ColumnChunk(e/50, e%50, &cc); err == nil {
				t.Fatalf("entry %d bit %d: corrupt entry accepted", e, bit)
			}
		}
	}
	// Lazy decoding keeps each row group's column chunks as raw bytes.
	var lazy FileMetaData
	r := newLazyReader(indexed)
	if err := lazy.Decode(r); err != nil {
		t.Fatal(err)
	}
	if lazy.RowGroups[1].Columns != nil || lazy.RowGroups[1].ColumnsRaw == nil {
		t.Fatal("columns decoded despite SkipLazy")
	}
	// And encodes back to the same bytes.
	if got := Marshal(nil, &lazy); string(got) != string(indexed) {
		t.Fatal("lazy footer does not re-encode to the same bytes")
	}
}

// BenchmarkFooterIndexOneColumn measures finding and decoding one column
// chunk through the index: the same at any width.
func BenchmarkFooterIndexOneColumn(b *testing.B) {
	for _, n := range []int{100, 10000, 100000} {
		indexed, err := AddFooterIndex(Marshal(nil, wideFooter(n, 1)))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("cols=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				x, err := ParseFooterIndex(indexed)
				if err != nil {
					b.Fatal(err)
				}
				var cc ColumnChunk
				if err := x.ColumnChunk(0, n*7/10, &cc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

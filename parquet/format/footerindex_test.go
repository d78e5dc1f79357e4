package format

import (
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
	// A flipped bit in the offsets is caught by the checksum.
	bad := append([]byte(nil), indexed...)
	bad[len(bad)-40] ^= 1
	if _, err := ParseFooterIndex(bad); err == nil {
		t.Fatal("corrupt index accepted")
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
// chunk of a 10,000-column footer through the index.
func BenchmarkFooterIndexOneColumn(b *testing.B) {
	indexed, err := AddFooterIndex(Marshal(nil, wideFooter(10000, 1)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		x, err := ParseFooterIndex(indexed)
		if err != nil {
			b.Fatal(err)
		}
		var cc ColumnChunk
		if err := x.ColumnChunk(0, 7777, &cc); err != nil {
			b.Fatal(err)
		}
	}
}

package writer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
)

// TestCompact: a file of 10,000 one-row row groups becomes one of full row
// groups with the same rows, keeping its key-value metadata and bloom
// filters; a reader that had the old file open keeps reading it; a file
// with nothing to merge is left alone.
func TestCompact(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	const n = 10000
	createWith(t, path, appendSchema(t), appendBatch(0, n), WithRowGroupRows(1), WithKeyValue("owner", "x"), WithBloomFilterFor("s", 16, 0))
	old, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if old.NumRowGroups() != n {
		t.Fatalf("%d row groups to start with", old.NumRowGroups())
	}
	did, err := Compact(path, WithRowGroupRows(4000))
	if err != nil || did != n {
		t.Fatalf("Compact: %v %v", did, err)
	}
	f, sizes := openWithSizes(t, path)
	defer f.Close()
	for _, rg := range f.Meta.RowGroups {
		if rg.Columns[1].MetaData.BloomFilterOffset.Set != true {
			t.Errorf("column s lost its bloom filter")
		}
		if rg.Columns[0].MetaData.BloomFilterOffset.Set {
			t.Errorf("column id got a bloom filter")
		}
	}
	if len(sizes) != 3 || sizes[0] != 4000 || sizes[2] != 2000 {
		t.Errorf("row groups of %v rows", sizes)
	}
	if v, _ := f.KeyValue("owner"); v != "x" {
		t.Errorf("owner = %q", v)
	}
	compareRows(t, rowsOf(mustFields(t, appendSchema(t)), appendBatch(0, n)), readRows(t, f, 0))
	verifyMetadata(t, f)
	if got := ids(t, old); len(got) != n {
		t.Errorf("the reader of the old file sees %d rows", len(got))
	}

	// One more time: nothing to merge.
	if did, err := Compact(path, WithRowGroupRows(4000)); err != nil || did != 0 {
		t.Errorf("second Compact: %v %v", did, err)
	}
}

// TestCompactCopiesFullRowGroups: Compact keeps full row groups as they
// are stored (the same chunk bytes, moved), with their statistics, page
// indexes and bloom filters, and merges the small ones between and after
// them, in order.
func TestCompactCopiesFullRowGroups(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.parquet")
	sch := appendSchema(t)
	createWith(t, path, sch, appendBatch(0, 2000), WithRowGroupRows(1000), WithBloomFilterFor("s", 100, 0), WithCompression(format.Zstd))
	for i := range 30 {
		// Appends while a reader holds the file open do not merge.
		hold, err := file.OpenFile(path, file.Options{}, false)
		if err != nil {
			t.Fatal(err)
		}
		appendOne(t, path, int64(2000+i*10), 10, WithRowGroupRows(1000), WithBloomFilterFor("s", 100, 0), WithCompression(format.Zstd))
		hold.Close()
	}
	before, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close()
	if n := before.NumRowGroups(); n != 32 {
		t.Fatalf("%d row groups before Compact", n)
	}
	chunkBytes := func(f *file.File, rg, col int) []byte {
		ch, err := f.Chunk(rg, col)
		if err != nil {
			t.Fatal(err)
		}
		start, n, err := ch.ByteRange()
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.ReadRange(start, n)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	n, err := Compact(path, WithRowGroupRows(1000), WithBloomFilterFor("s", 100, 0), WithCompression(format.Zstd))
	if err != nil || n != 2300 {
		t.Fatalf("Compact: %d rows, %v", n, err)
	}
	f, sizes := openWithSizes(t, path)
	defer f.Close()
	if fmt.Sprint(sizes) != "[1000 1000 300]" {
		t.Errorf("row groups of %v rows", sizes)
	}
	for rg := range 2 {
		for col := range f.Schema.Leaves {
			if !bytes.Equal(chunkBytes(before, rg, col), chunkBytes(f, rg, col)) {
				t.Errorf("row group %d, column %d: not copied as stored", rg, col)
			}
		}
	}
	compareRows(t, rowsOf(mustFields(t, sch), appendBatch(0, 2300)), readRows(t, f, 0))
	verifyMetadata(t, f)
	if n, err := Compact(path, WithRowGroupRows(1000)); err != nil || n != 0 {
		t.Errorf("a second Compact: %d rows, %v", n, err)
	}
}

// openWithSizes opens the file at path and lists its row groups' rows.
func openWithSizes(t *testing.T, path string) (*file.File, []int64) {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var sizes []int64
	for _, rg := range f.Meta.RowGroups {
		sizes = append(sizes, rg.NumRows)
	}
	return f, sizes
}

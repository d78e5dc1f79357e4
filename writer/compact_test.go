package writer

import (
	"path/filepath"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
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
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sizes []int64
	for _, rg := range f.Meta.RowGroups {
		sizes = append(sizes, rg.NumRows)
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

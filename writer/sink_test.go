package writer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

func TestCreateFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.parquet")
	sch, err := NewSchema(Int64("id").Required(), String("name"))
	if err != nil {
		t.Fatal(err)
	}
	ids := &vector.Vector{Kind: vector.Int64, Len: 3, Int64s: []int64{1, 2, 3}}
	names := &vector.Vector{Kind: vector.ByteArray, Len: 3, Data: []byte("ab"), Offsets: []int32{0, 1, 1, 2},
		Valid: vector.Bitmap{0b101}}
	w, err := Create(path, sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch([]*vector.Vector{ids, names}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the file exists before Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != ErrClosed {
		t.Errorf("second Close: %v", err)
	}
	f, err := file.OpenFile(path, file.Options{}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := readRows(t, f, 10)
	compareRows(t, [][]any{{int64(1), "a"}, {int64(2), nil}, {int64(3), "b"}}, rows)
	if f.CreatedBy() != CreatedBy {
		t.Errorf("created_by %q", f.CreatedBy())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
	}

	// Abort leaves nothing behind, not even the temporary file.
	w, err = Create(filepath.Join(dir, "aborted.parquet"), sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteBatch([]*vector.Vector{ids, names}); err != nil {
		t.Fatal(err)
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
	entries, _ = os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("after Abort the directory holds %d entries", len(entries))
	}
}

func TestBadBatches(t *testing.T) {
	sch, err := NewSchema(Int64("id").Required(), List("l", Int32("e")))
	if err != nil {
		t.Fatal(err)
	}
	var buf Buffer
	w, err := New(&buf, sch)
	if err != nil {
		t.Fatal(err)
	}
	ids := &vector.Vector{Kind: vector.Int64, Len: 2, Int64s: []int64{1, 2}}
	good := &vector.Vector{Kind: vector.List, Len: 2, Offsets: []int32{0, 1, 2},
		Children: []*vector.Vector{{Kind: vector.Int32, Len: 2, Int32s: []int32{5, 6}}}}
	bad := []struct {
		name string
		cols []*vector.Vector
	}{
		{"one vector", []*vector.Vector{ids}},
		{"wrong kind", []*vector.Vector{{Kind: vector.Int32, Len: 2, Int32s: []int32{1, 2}}, good}},
		{"lengths differ", []*vector.Vector{ids, {Kind: vector.List, Len: 1, Offsets: []int32{0, 1}, Children: good.Children}}},
		{"offsets past the child", []*vector.Vector{ids, {Kind: vector.List, Len: 2, Offsets: []int32{0, 1, 9}, Children: good.Children}}},
		{"decreasing offsets", []*vector.Vector{ids, {Kind: vector.List, Len: 2, Offsets: []int32{0, 2, 1}, Children: good.Children}}},
		{"short offsets", []*vector.Vector{ids, {Kind: vector.List, Len: 2, Offsets: []int32{0}, Children: good.Children}}},
		{"null in required", []*vector.Vector{{Kind: vector.Int64, Len: 2, Int64s: []int64{1, 2}, Valid: vector.Bitmap{1}}, good}},
		{"short values", []*vector.Vector{{Kind: vector.Int64, Len: 2, Int64s: []int64{1}}, good}},
		{"no children", []*vector.Vector{ids, {Kind: vector.List, Len: 2, Offsets: []int32{0, 1, 2}}}},
	}
	w8, err := New(&Buffer{}, mustSchema(t, Integer("b", 8, false)))
	if err != nil {
		t.Fatal(err)
	}
	if err := w8.WriteBatch([]*vector.Vector{{Kind: vector.Int32, Len: 2, Int32s: []int32{255, 256}}}); err == nil || !strings.Contains(err.Error(), "out of the range of INTEGER(8,false)") {
		t.Errorf("UINT_8 value 256: %v", err)
	}
	for _, c := range bad {
		if err := w.WriteBatch(c.cols); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if err := w.WriteBatch([]*vector.Vector{ids, good}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBuffer(t, &buf)
	compareRows(t, [][]any{{int64(1), []any{int32(5)}}, {int64(2), []any{int32(6)}}}, readRows(t, f, 10))
}

func mustSchema(t testing.TB, fields ...Field) *schema.Schema {
	t.Helper()
	s, err := NewSchema(fields...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

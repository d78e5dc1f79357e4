package writer

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/file"
)

// TestRewriteConformanceFiles reads every conformance file the reader can
// read, writes its rows again with the file's own schema (legacy list and
// map forms, unannotated repeated fields, every type the files hold), and
// checks the copy reads back the same.
func TestRewriteConformanceFiles(t *testing.T) {
	dir := testfiles.Dir(t, "data")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	rewritten := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".parquet") || strings.Contains(name, "large_string_map") {
			continue
		}
		src, err := file.OpenFile(filepath.Join(dir, name), file.Options{}, false)
		if err != nil {
			continue // encrypted or deliberately broken
		}
		want, ok := tryReadRows(src)
		if !ok {
			src.Close()
			continue
		}
		var buf Buffer
		pageRows, rgRows := 7, int64(50)
		if len(want) > 1000 { // keep the big files quick
			pageRows, rgRows = 500, 3000
		}
		w, err := New(&buf, src.Schema, WithCompression(allCodecs[rewritten%len(allCodecs)]), WithDataPageVersion(1+rewritten%2),
			WithPageRowLimit(pageRows), WithRowGroupRows(rgRows))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			src.Close()
			continue
		}
		for rg := range src.NumRowGroups() {
			n := int(src.Meta.RowGroups[rg].NumRows)
			r, err := src.NewReader(file.ReaderOptions{BatchSize: max(n, 1), RowGroups: []int{rg}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := r.Next()
			if err == io.EOF {
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := w.WriteBatch(b.Columns); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		src.Close()
		if err := w.Close(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := openBuffer(t, &buf)
		compareRows(t, want, readRows(t, f, 0))
		verifyMetadata(t, f)
		rewritten++
	}
	if rewritten < 20 {
		t.Errorf("only %d conformance files were rewritten", rewritten)
	}
	t.Logf("%d files rewritten", rewritten)
}

// tryReadRows reads a file whole, reporting failure instead of failing.
func tryReadRows(f *file.File) (rows [][]any, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	for rg := range f.NumRowGroups() {
		n := int(f.Meta.RowGroups[rg].NumRows)
		r, err := f.NewReader(file.ReaderOptions{BatchSize: max(n, 1), RowGroups: []int{rg}})
		if err != nil {
			return nil, false
		}
		for {
			b, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, false
			}
			rows = append(rows, rowsOf(b.Fields, b.Columns)...)
		}
	}
	return rows, true
}

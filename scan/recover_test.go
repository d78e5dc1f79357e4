package scan

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/writer"
)

// TestWorkerPanicIsAnError forces a panic in a scan worker goroutine: the
// scan must end with an "internal error" carrying the panic and its stack,
// never crash the program, and never end as if all rows were read.
func TestWorkerPanicIsAnError(t *testing.T) {
	tbl, err := Open(testfiles.Path(t, "data/alltypes_tiny_pages_plain.parquet"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	testHookRunUnit = func(*unit) { panic("boom in a worker") }
	defer func() { testHookRunUnit = nil }()
	for _, unordered := range []bool{false, true} {
		s, err := tbl.Scan(context.Background(), Request{Columns: []string{"id"}, Unordered: unordered, Threads: 2})
		if err != nil {
			t.Fatal(err)
		}
		for {
			_, err = s.Next()
			if err != nil {
				break
			}
		}
		s.Close()
		if err == io.EOF || err == nil || !strings.Contains(err.Error(), "internal error: boom in a worker") ||
			!strings.Contains(err.Error(), "recoverInternal") {
			t.Errorf("unordered=%v: err = %v, want the internal error with its stack", unordered, err)
		}
	}
}

// TestIncompatibleFilesAreSchemaMismatch checks the kind of the error for
// a table whose files disagree on a column's type.
func TestIncompatibleFilesAreSchemaMismatch(t *testing.T) {
	dir := t.TempDir()
	for name, field := range map[string]writer.Field{"a.parquet": writer.Int64("x"), "b.parquet": writer.String("x")} {
		sch, err := writer.NewSchema(field)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		w, err := writer.New(f, sch)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	_, err := Open(dir, Options{})
	if !errors.Is(err, file.ErrSchemaMismatch) || !strings.Contains(err.Error(), "a.parquet") || !strings.Contains(err.Error(), "b.parquet") {
		t.Fatalf("err = %v, want ErrSchemaMismatch naming both files", err)
	}
}

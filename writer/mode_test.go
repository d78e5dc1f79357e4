//go:build unix

package writer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// New files get 0666 less the umask, as other tools' files do; a
// Rewrite keeps the mode the file had.
func TestFileModes(t *testing.T) {
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.parquet")
	sch := appendSchema(t)
	createWith(t, path, sch, appendBatch(10, 1))
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o640 {
		t.Fatalf("Create under umask 027: mode %v, %v; want 0640", st.Mode().Perm(), err)
	}
	if err := os.Chmod(path, 0o604); err != nil {
		t.Fatal(err)
	}
	if err := Rewrite(path, sch, func(w *Writer) error { return w.WriteBatch(appendBatch(5, 2)) }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o604 {
		t.Fatalf("after Rewrite: mode %v, %v; want 0604 kept", st.Mode().Perm(), err)
	}
	a, err := Append(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.WriteBatch(appendBatch(3, 3)); err != nil {
		t.Fatal(err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o604 {
		t.Fatalf("after Append: mode %v, %v; want 0604 kept", st.Mode().Perm(), err)
	}
}

// CreateNew never replaces a file: of writers racing to create one path,
// exactly one wins and the others fail with fs.ErrExist, leaving the
// winner's file whole.
func TestCreateNewRace(t *testing.T) {
	dir := t.TempDir()
	sch := appendSchema(t)
	for run := range 50 {
		path := filepath.Join(dir, "r.parquet")
		os.Remove(path)
		const writers = 4
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for i := range writers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w, err := CreateNew(path, sch)
				if err == nil {
					if err = w.WriteBatch(appendBatch(int64(100*i), 10+i)); err == nil {
						err = w.Close()
					}
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		won := 0
		for _, err := range errs {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, fs.ErrExist):
				t.Fatalf("run %d: %v", run, err)
			}
		}
		if won != 1 {
			t.Fatalf("run %d: %d writers created the file, want 1", run, won)
		}
		m, _ := filepath.Glob(filepath.Join(dir, ".*"))
		if len(m) > 0 {
			t.Fatalf("run %d: temporary files left: %v", run, m)
		}
	}
}

package writer

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
)

// Create returns a Writer of a new file at path. The file is written under
// a temporary name in the same directory; Close syncs it, renames it into
// place (replacing any file there) and syncs the directory, so path holds
// either its old content or the complete new file. Abort, or an error,
// removes the temporary file.
func Create(path string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createLockedTemp(dir, base)
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	tmp := f.Name()
	w, err := New(hooked(f), sch, opts...)
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	w.undone = "nothing was written to " + path
	w.finalize = func(commit bool) error {
		if !commit {
			os.Remove(tmp)
			f.Close()
			return nil
		}
		if err := f.Sync(); err != nil {
			os.Remove(tmp)
			f.Close()
			return fmt.Errorf("writer: %s: %w", path, err)
		}
		// Rename before closing, while the lock is held: RemoveStaleTemps
		// leaves a locked temporary file alone.
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			f.Close()
			return fmt.Errorf("writer: %w", err)
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("writer: %s: %w", path, err)
		}
		return syncDir(dir)
	}
	return w, nil
}

// createLockedTemp creates Create's temporary file for base in dir and
// holds an exclusive lock on it until it is closed, so that
// RemoveStaleTemps can tell it from one left behind by a dead process.
// Where there is no flock the file is not locked (and RemoveStaleTemps
// removes nothing).
func createLockedTemp(dir, base string) (*os.File, error) {
	for range 100 {
		f, err := os.CreateTemp(dir, "."+base+tempMark+"*")
		if err != nil {
			return nil, err
		}
		if lockFile(f) != nil {
			return f, nil
		}
		// RemoveStaleTemps may have removed the file between its creation
		// and the lock: then make another.
		st1, err1 := f.Stat()
		st2, err2 := os.Stat(f.Name())
		if err1 == nil && err2 == nil && os.SameFile(st1, st2) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("cannot keep a temporary file in %s", dir)
}

// tempMark is what the names of Create's temporary files have between the
// final name and a random number (and a leading dot).
const tempMark = ".tmp-"

// isTempName reports whether name is one of Create's temporary files for
// a .parquet file.
func isTempName(name string) bool {
	i := strings.LastIndex(name, tempMark)
	if !strings.HasPrefix(name, ".") || i < 1 || !strings.HasSuffix(name[:i], ".parquet") {
		return false
	}
	digits := name[i+len(tempMark):]
	if digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// RemoveStaleTemps removes from dir the temporary files of writers that
// died (a crash, a kill) between Create and Close: files named as Create
// names them for a .parquet file (".NAME.parquet.tmp-DIGITS") that no
// live writer holds locked. It returns how many it
// removed. Where there is no flock it removes nothing.
func RemoveStaleTemps(dir string) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, fmt.Errorf("writer: %w", err)
	}
	n := 0
	for _, e := range ents {
		if !e.Type().IsRegular() || !isTempName(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		f, err := os.Open(p)
		if err != nil {
			continue // gone already
		}
		if ok, err := tryLockFile(f); err == nil && ok {
			if os.Remove(p) == nil {
				n++
			}
		}
		f.Close()
	}
	return n, nil
}

// syncDir makes a rename or a file creation in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("writer: sync %s: %w", dir, err)
	}
	return nil
}

// Buffer is an in-memory sink: pass it to New, and read the finished file
// back with Bytes, or open it with parquet/file (it is an io.ReaderAt).
type Buffer struct {
	b []byte
}

// Write appends p.
func (b *Buffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}

// Bytes returns the bytes written so far; they alias the buffer.
func (b *Buffer) Bytes() []byte { return b.b }

// Size is the number of bytes written.
func (b *Buffer) Size() int64 { return int64(len(b.b)) }

// Reset empties the buffer, keeping its memory.
func (b *Buffer) Reset() { b.b = b.b[:0] }

// ReadAt reads len(p) bytes at off.
func (b *Buffer) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("writer: negative offset")
	}
	if off >= int64(len(b.b)) {
		return 0, io.EOF
	}
	n := copy(p, b.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

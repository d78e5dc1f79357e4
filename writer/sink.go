package writer

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

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
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
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
	w.finalize = func(commit bool) error {
		if !commit {
			f.Close()
			os.Remove(tmp)
			return nil
		}
		if err := f.Sync(); err != nil {
			f.Close()
			os.Remove(tmp)
			return fmt.Errorf("writer: %s: %w", path, err)
		}
		if err := f.Close(); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("writer: %s: %w", path, err)
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("writer: %w", err)
		}
		return syncDir(dir)
	}
	return w, nil
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

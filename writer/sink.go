package writer

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
)

// Create returns a Writer of a new file at path. The file is written under
// a temporary name in the same directory; Close syncs it, renames it into
// place (replacing any file there) and syncs the directory, so path holds
// either its old content or the complete new file. Abort, or an error,
// removes the temporary file. The file's mode is 0666 less the umask, as
// other tools create files.
func Create(path string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	return create(path, sch, placement{replace: true}, opts)
}

// CreateNew is Create for a file that must not exist: Close puts the file
// in place only if no file has the name by then (a hard link, which fails
// when the name is taken, where Create renames over it), and otherwise
// fails with an error that is fs.ErrExist, leaving the other file alone.
// Two writers racing to create one file: exactly one wins.
func CreateNew(path string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	return create(path, sch, placement{}, opts)
}

// placement says how create puts its file in place: replacing a file of
// the name or failing, and with the mode keep (exactly) when it is set,
// else 0666 less the umask.
type placement struct {
	replace bool
	keep    os.FileMode
}

// create writes path through a locked temporary file, put in place as pl
// says.
func create(path string, sch *schema.Schema, pl placement, opts []Option) (*Writer, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := createLockedTemp(dir, base)
	if err != nil {
		return nil, fmt.Errorf("writer: %w", err)
	}
	tmp := f.Name()
	if pl.keep != 0 {
		if err := f.Chmod(pl.keep); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, fmt.Errorf("writer: %w", err)
		}
	}
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
		// Put the file in place before closing, while the lock is held:
		// RemoveStaleTemps leaves a locked temporary file alone.
		if err := place(tmp, path, pl.replace); err != nil {
			os.Remove(tmp)
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return fmt.Errorf("writer: %s: %w", path, err)
		}
		return syncDir(dir)
	}
	return w, nil
}

// place gives the finished temporary file tmp the name path: by rename
// (replacing what is there) or by a hard link that fails when the name is
// taken, then dropping the temporary name.
func place(tmp, path string, replace bool) error {
	if replace {
		if err := os.Rename(tmp, path); err != nil {
			return fmt.Errorf("writer: %w", err)
		}
		return nil
	}
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("writer: %s: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("writer: %w", err)
	}
	return os.Remove(tmp)
}

// createLockedTemp creates Create's temporary file for base in dir, of
// mode 0666 less the umask, and holds an exclusive lock on it until it is
// closed, so that RemoveStaleTemps can tell it from one left behind by a
// dead process. Where there is no flock the file is not locked (and
// RemoveStaleTemps removes nothing).
func createLockedTemp(dir, base string) (*os.File, error) {
	for range 100 {
		f, err := createTemp(dir, "."+base+tempMark)
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

// createTemp creates a new file in dir named prefix plus random digits,
// of mode 0666 less the umask (os.CreateTemp always makes 0600).
func createTemp(dir, prefix string) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("no free temporary name in %s", dir)
}

// tempMark is what the names of Create's temporary files have between the
// final name and a random number (and a leading dot).
const tempMark = ".tmp-"

// IsTempName reports whether name is one of Create's temporary files for
// a .parquet file.
func IsTempName(name string) bool {
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
		if !e.Type().IsRegular() || !IsTempName(e.Name()) {
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

// SyncDir makes the renames and file creations in dir durable (for
// callers that rename files themselves, as a transaction's commit does).
func SyncDir(dir string) error { return syncDir(dir) }

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

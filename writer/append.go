package writer

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/journal"
	"github.com/carquet-go/carquet/parquet/schema"
)

// The append protocol is described in doc.go.

// JournalSuffix is appended to a file's path to name its append journal.
const JournalSuffix = journal.Suffix

// ErrSchemaMismatch is wrapped by Append errors when the schema given
// differs from the file's. It is a kind of errs.ErrSchemaMismatch.
var ErrSchemaMismatch = errs.New("schema differs from the file's", errs.ErrSchemaMismatch)

func writeJournal(path string, j journal.Journal) error {
	tmp := path + JournalSuffix + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := hooked(f).Write(j.Marshal()); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path+JournalSuffix); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

func removeJournal(path string) error {
	if err := os.Remove(path + JournalSuffix); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// recoverLocked rolls back an append that did not commit. The caller holds
// the file's exclusive lock. It reports whether bytes were cut off.
func recoverLocked(path string, f *os.File) (bool, error) {
	os.Remove(path + JournalSuffix + ".tmp") // a journal that was never put in place
	j, ok, err := journal.Read(path)
	if err != nil || !ok {
		return false, err
	}
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	match, err := j.Matches(f, st.Size())
	if err != nil {
		return false, err
	}
	cut := false
	if match && st.Size() > j.OldSize {
		if err := f.Truncate(j.OldSize); err != nil {
			return false, err
		}
		if err := f.Sync(); err != nil {
			return false, err
		}
		cut = true
	}
	// A journal that does not match belongs to a file since replaced: it
	// has nothing to roll back.
	return cut, removeJournal(path)
}

// Recover rolls back an append to the file at path that did not commit
// (a crash, a kill), under the append lock. It reports whether bytes were
// removed. Append does this by itself; readers need not (OpenCommitted
// reads around an unrecovered append).
func Recover(path string) (bool, error) {
	f, err := openLocked(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	defer unlockFile(f)
	cut, err := recoverLocked(path, f)
	if err != nil {
		return false, fmt.Errorf("writer: recover %s: %w", path, err)
	}
	return cut, nil
}

// Append opens the Parquet file at path to add row groups to it. sch is
// the schema of the rows to append: nil takes the file's; otherwise it
// must match the file's column for column (an error wrapping
// ErrSchemaMismatch names the first difference). Options apply to the new
// row groups. Close commits the append (see the protocol above); Abort or
// an error rolls it back. Appenders in other processes wait for the lock.
func Append(path string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	release := func() {
		unlockFile(f)
		f.Close()
	}
	if _, err := recoverLocked(path, f); err != nil {
		release()
		return nil, fmt.Errorf("writer: recover %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		release()
		return nil, fmt.Errorf("writer: %w", err)
	}
	size := st.Size()
	old, err := file.Open(f, size, file.Options{Name: path})
	if err != nil {
		release()
		return nil, fmt.Errorf("writer: append to %s: %w", path, err)
	}
	if sch == nil {
		sch = old.Schema
	} else if err := sameSchema(old.Schema, sch); err != nil {
		release()
		return nil, fmt.Errorf("writer: append to %s: %w", path, err)
	}
	// Write with the file's own schema elements, so that the footer keeps
	// them exactly.
	w, err := newWriter(f, old.Schema, opts)
	if err != nil {
		release()
		return nil, err
	}
	tlen, tcrc, err := journal.TailCRC(f, size)
	if err != nil {
		release()
		return nil, fmt.Errorf("writer: %w", err)
	}
	if err := writeJournal(path, journal.Journal{OldSize: size, TailLen: tlen, TailCRC: tcrc}); err != nil {
		release()
		return nil, fmt.Errorf("writer: journal for %s: %w", path, err)
	}
	if _, err := f.Seek(size, io.SeekStart); err != nil {
		removeJournal(path)
		release()
		return nil, fmt.Errorf("writer: %w", err)
	}
	w.out = &countingWriter{bw: bufio.NewWriterSize(hooked(f), 1<<16), off: size}
	w.prev = old.Meta
	w.undone = "the append was rolled back: " + path + " is as it was"
	w.finalize = func(commit bool) error {
		defer release()
		if commit {
			if err := f.Sync(); err != nil {
				commit = false
				_ = err
			} else if err := removeJournal(path); err != nil {
				return fmt.Errorf("writer: commit append to %s: %w", path, err)
			} else {
				return nil
			}
		}
		// Roll back: cut the file to its old end, then drop the journal.
		if err := f.Truncate(size); err != nil {
			return fmt.Errorf("writer: roll back append to %s: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("writer: roll back append to %s: %w", path, err)
		}
		if err := removeJournal(path); err != nil {
			return fmt.Errorf("writer: roll back append to %s: %w", path, err)
		}
		if commit {
			return fmt.Errorf("writer: sync %s failed; the append was rolled back", path)
		}
		return nil
	}
	return w, nil
}

// sameSchema checks that want describes the same columns as have.
func sameSchema(have, want *schema.Schema) error {
	if len(have.Leaves) != len(want.Leaves) {
		return fmt.Errorf("%w: the file has %d columns, the rows have %d", ErrSchemaMismatch, len(have.Leaves), len(want.Leaves))
	}
	for i, h := range have.Leaves {
		w := want.Leaves[i]
		hp, wp := h.PathString(), w.PathString()
		if hp != wp {
			return fmt.Errorf("%w: column %d is %q in the file, %q in the rows", ErrSchemaMismatch, i, hp, wp)
		}
		if ht, wt := describeLeaf(h), describeLeaf(w); ht != wt {
			return fmt.Errorf("%w: column %q is %s in the file, %s in the rows", ErrSchemaMismatch, hp, ht, wt)
		}
		for hn, wn := h, w; hn != nil && wn != nil; hn, wn = hn.Parent, wn.Parent {
			if hn.Repetition != wn.Repetition || hn.Kind != wn.Kind {
				return fmt.Errorf("%w: field %q is %s %s in the file, %s %s in the rows", ErrSchemaMismatch,
					hn.PathString(), hn.Repetition, hn.Kind, wn.Repetition, wn.Kind)
			}
		}
	}
	return nil
}

func describeLeaf(n *schema.Node) string {
	var b strings.Builder
	b.WriteString(n.Physical.String())
	if n.Physical == format.FixedLenByteArray {
		fmt.Fprintf(&b, "(%d)", n.TypeLength)
	}
	if a := schema.AnnotationString(n); a != "" {
		b.WriteString(" " + a)
	}
	return b.String()
}

// Snapshot is a file opened at its committed length.
type Snapshot struct {
	*file.File
	osf *os.File
}

// Close closes the file.
func (s *Snapshot) Close() error { return s.osf.Close() }

// CommittedSize is the length of the file at path that holds its last
// committed append: the old length while a journal exists (an append in
// progress or one that crashed), the file's size otherwise. It never
// writes and takes no lock.
func CommittedSize(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return journal.CommittedSize(path, f)
}

// OpenCommitted opens the file at path at its committed length (see
// CommittedSize), so that an append in progress, or a crashed one not yet
// recovered, is invisible.
func OpenCommitted(path string, opts file.Options) (*Snapshot, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	size, err := journal.CommittedSize(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	if opts.Name == "" {
		opts.Name = path
	}
	pf, err := file.Open(f, size, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Snapshot{File: pf, osf: f}, nil
}

// openLocked opens the file at path for writing and takes its exclusive
// lock. A Rewrite may replace the file while this waits for the lock: the
// lock is then the old file's, and it starts again on the new one.
func openLocked(path string) (*os.File, error) {
	return openLockedFlag(path, os.O_RDWR)
}

func openLockedFlag(path string, flag int) (*os.File, error) {
	for range 100 {
		f, err := os.OpenFile(path, flag, 0)
		if err != nil {
			return nil, fmt.Errorf("writer: %w", err)
		}
		if err := lockFile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("writer: lock %s: %w", path, err)
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		unlockFile(f)
		f.Close()
		if err2 != nil {
			return nil, fmt.Errorf("writer: %w", err2)
		}
	}
	return nil, fmt.Errorf("writer: %s keeps being replaced", path)
}

// Remove deletes the file at path (and an interrupted append's journal)
// under the file's append lock: an append in progress, in this process or
// another, finishes first, and one waiting for the lock then fails (the
// file is gone) instead of writing to a removed file.
func Remove(path string) error {
	f, err := openLockedFlag(path, os.O_RDONLY)
	if err != nil {
		return err
	}
	defer f.Close()
	defer unlockFile(f)
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	os.Remove(path + JournalSuffix)
	return syncDir(filepath.Dir(path))
}

// Rewrite replaces the file at path by the one fill writes (with schema
// sch and opts), holding the file's append lock from before fill runs
// until the new file is in place: fill, which reads the old file, sees
// every append that committed before it, and appends that wait for the
// lock go to the new file. An interrupted append is rolled back first.
// When fill or the write fails the old file is left as it was.
func Rewrite(path string, sch *schema.Schema, fill func(w *Writer) error, opts ...Option) error {
	f, err := openLocked(path)
	if err != nil {
		return err
	}
	defer f.Close()
	defer unlockFile(f)
	if _, err := recoverLocked(path, f); err != nil {
		return fmt.Errorf("writer: recover %s: %w", path, err)
	}
	// The new file keeps the old one's mode.
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("writer: %w", err)
	}
	w, err := create(path, sch, placement{replace: true, keep: st.Mode().Perm()}, opts)
	if err != nil {
		return err
	}
	if err := fill(w); err != nil {
		if aerr := w.Abort(); aerr != nil {
			return errors.Join(err, aerr)
		}
		return err
	}
	return w.Close()
}

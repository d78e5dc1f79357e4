package writer

import (
	"encoding/binary"
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
	"github.com/carquet-go/carquet/parquet/vector"
)

// The append protocol is described in doc.go.

// JournalSuffix is appended to a file's path to name its append journal.
const JournalSuffix = journal.Suffix

// ErrSchemaMismatch is wrapped by Append errors when the schema given
// differs from the file's. It is a kind of errs.ErrSchemaMismatch.
var ErrSchemaMismatch = errs.New("schema differs from the file's", errs.ErrSchemaMismatch)

// writeJournal puts j in the file's journal and syncs it. The journal file
// stays from one append to the next, and keeps its room: written in place
// at the start, a record costs one sync of data only, where a new file
// would cost its creation, a rename and syncs of the folder, and a file
// that changes length a sync of its inode too. Bytes after the record
// are ignored (journal.Parse).
func writeJournal(path string, j journal.Journal) error {
	name := path + JournalSuffix
	f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	b := j.Marshal()
	fail := func(err error) error {
		// A journal cut short does not parse (readers and Recover take it
		// for none); cleared is tidier.
		f.WriteAt(make([]byte, min(st.Size(), int64(len(b)))), 0)
		f.Close()
		return err
	}
	if room := int64(len(b)); st.Size() < room {
		// Grow by whole blocks, so that most appends find room.
		if err := f.Truncate((room + journalBlock - 1) / journalBlock * journalBlock); err != nil {
			return fail(err)
		}
	}
	if _, err := hooked(f).Write(b); err != nil {
		return fail(err)
	}
	if err := syncData(f); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if st.Size() == 0 {
		// A new journal file: its name must be durable too.
		return syncDir(filepath.Dir(path))
	}
	return nil
}

// journalBlock is the unit the journal file grows by.
const journalBlock = 4 << 10

// clearJournal clears the file's journal, durably: the append it recorded
// is over (committed, or rolled back). It overwrites the record's magic,
// which keeps the file's length and so costs a sync of data only.
func clearJournal(path string) error { return emptyJournal(path, true) }

// emptyJournal clears the file's journal, synced or not. An append whose
// journal says that it landed (journal.Landed) empties it without a sync:
// should the emptying be lost with the machine, the journal that comes
// back is of an append that landed, which readers and recovery keep. Such
// an emptying writes unsyncedMagic (which no reader takes for a journal)
// where a synced one writes zeros, so that settleJournal syncs only
// journals that may need it.
func emptyJournal(path string, durable bool) error {
	f, err := os.OpenFile(path+JournalSuffix, os.O_WRONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	if st.Size() == 0 {
		return f.Close()
	}
	mark := make([]byte, 4)
	if !durable {
		mark = []byte(unsyncedMagic)
	}
	if _, err := f.WriteAt(mark[:min(st.Size(), 4)], 0); err != nil {
		f.Close()
		return err
	}
	if durable {
		if err := syncData(f); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// unsyncedMagic starts a journal emptied without a sync.
const unsyncedMagic = "CQJ0"

// settleJournal makes the emptying of the file's journal durable: one
// that an append left unsynced could come back after a crash and, once
// the file is replaced by one with the same bytes before its cut, be
// taken for this new file's. Callers that replace or rewrite the file
// settle it first; appends need not (they overwrite it, synced, before
// they write a byte of the file). It syncs, and never writes: callers
// (a transaction's COMMIT) compare the journal's size and time with what
// they saw before.
func settleJournal(path string) error {
	f, err := os.OpenFile(path+JournalSuffix, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, len(unsyncedMagic))
	if _, err := f.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if string(head) != unsyncedMagic {
		return nil // empty (nothing to settle), or emptied synced
	}
	return syncData(f)
}

// recoverLocked finishes an append that was interrupted: one that landed
// (journal.Landed: all its bytes are in the file) is kept, its bytes
// synced; any other is rolled back. The caller holds the file's exclusive
// lock; settle makes an earlier unsynced emptying of the journal durable
// too (settleJournal), for callers that are not appends. It reports
// whether bytes were cut off.
func recoverLocked(path string, f *os.File, settle bool) (bool, error) {
	os.Remove(path + JournalSuffix + ".tmp") // left by versions that renamed journals into place
	j, ok, err := journal.Read(path)
	if err != nil {
		return false, err
	}
	if !ok {
		if settle {
			return false, settleJournal(path)
		}
		return false, nil
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
	if match {
		landed, err := j.Landed(f, st.Size())
		if err != nil {
			return false, err
		}
		if landed {
			// Its appender may have died before its sync.
			if err := syncData(f); err != nil {
				return false, err
			}
		} else {
			// Put back what the append overwrote (its saved bytes) and
			// cut off what it added.
			if err := j.Restore(f); err != nil {
				return false, err
			}
			cut = true
		}
	}
	// A journal that does not match belongs to a file since replaced: it
	// has nothing to roll back.
	return cut, clearJournal(path)
}

// Recover finishes an append to the file at path that was interrupted (a
// crash, a kill), under the append lock: it keeps one that landed and
// rolls back any other. It reports whether bytes were removed. Append
// does this by itself; readers need not (OpenCommitted reads the file as
// recovery will leave it).
func Recover(path string) (bool, error) {
	f, err := openLocked(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	defer unlockFile(f)
	cut, err := recoverLocked(path, f, true)
	if err != nil {
		return false, fmt.Errorf("writer: recover %s: %w", path, err)
	}
	return cut, nil
}

// Append opens the Parquet file at path to add row groups to it. sch is
// the schema of the rows to append: nil takes the file's; otherwise it
// must match the file's column for column (an error wrapping
// ErrSchemaMismatch names the first difference). Options apply to the new
// row groups. Close commits the append (see the protocol in doc.go); Abort
// or an error rolls it back. Appenders in other processes wait for the
// lock. The file's last row groups, when they are small, are read and
// written again with the new rows, as one row group.
func Append(path string, sch *schema.Schema, opts ...Option) (*Writer, error) {
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	a := &appendFile{path: path, f: f}
	fail := func(err error) (*Writer, error) {
		a.release()
		return nil, err
	}
	a.marked = journal.MarkAppending(f)
	if _, err := recoverLocked(path, f, false); err != nil {
		return fail(fmt.Errorf("writer: recover %s: %w", path, err))
	}
	st, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("writer: %w", err))
	}
	a.size = st.Size()
	given := defaultConfig()
	for _, o := range opts {
		o(given)
	}
	old, err := file.Open(f, a.size, file.Options{Name: path, Decryption: given.encryption.decryption()})
	if err != nil {
		return fail(fmt.Errorf("writer: append to %s: %w", path, err))
	}
	if opts, err = appendEncryption(old, given.encryption, opts); err != nil {
		return fail(fmt.Errorf("writer: append to %s: %w", path, err))
	}
	if sch == nil {
		sch = old.Schema
	} else if err := sameSchema(old.Schema, sch); err != nil {
		return fail(fmt.Errorf("writer: append to %s: %w", path, err))
	}
	// Write with the file's own schema elements, so that the footer keeps
	// them exactly.
	w, err := newWriter(f, old.Schema, opts)
	if err != nil {
		return fail(err)
	}
	a.w = w
	// The footer's length as the file stores it: for an encrypted file,
	// the encrypted footer or the signed one, not the Thrift decoded.
	var tail [8]byte
	if _, err := f.ReadAt(tail[:], a.size-8); err != nil {
		return fail(fmt.Errorf("writer: append to %s: %w", path, err))
	}
	a.footerStart = a.size - 8 - int64(binary.LittleEndian.Uint32(tail[:4]))
	meta := *old.Meta
	if err := a.mergeTail(old, &meta, opts); err != nil {
		return fail(err)
	}
	w = a.w
	a.reclaimCut = reclaimCut(old, meta.RowGroups, a.footerStart)
	w.prev = &meta
	for _, c := range w.cols {
		if c.enc != nil {
			// Pages are encrypted for the ordinal of the row group they
			// go to: after the file's.
			c.enc.rg = w.prevRowGroups()
		}
	}
	w.out = nil // placed by begin, when the first bytes are written
	w.begin = a.begin
	w.undone = "the append was rolled back: " + path + " is as it was"
	w.finalize = a.finalize
	return w, nil
}

// appendFile is the state of an append between Append and Close.
type appendFile struct {
	path string
	f    *os.File
	w    *Writer
	size int64 // the file's length before the append
	// footerStart is where the old footer begins: an append overwrites it
	// (readers parse a footer once, as they open the file).
	footerStart int64
	// reclaimCut is the end of the last byte the kept row groups refer
	// to: when no reader has the file open, the append writes from there,
	// over the row groups it merged and any bytes no footer refers to.
	reclaimCut int64
	merged     bool // the last row groups were read into the writer
	exclusive  bool // the readers' lock is held
	marked     bool // the appenders' mark is held (journal.MarkAppending)
	begun      bool // the journal is written; the file may have changed
	cut        int64
	saved      []byte
	// tailLen and tailCRC identify the bytes before the cut (journal.TailCRC).
	tailLen, tailCRC uint32
	sink             *tailSink // where the writer's bytes go, from begin on
}

// mergeBytes bounds the compressed size of the last row groups an append
// reads and writes again: what each small append costs beyond its rows.
const mergeBytes = 1 << 20

// mergeTail reads the file's last row groups into the writer when they
// are small (together under the writer's row group size and mergeBytes)
// and no reader has the file open, and drops them from meta: they are
// written again, ahead of the new rows, as one row group. A file read by
// others keeps them (its readers may still read them).
func (a *appendFile) mergeTail(old *file.File, meta *format.FileMetaData, opts []Option) error {
	rgs := meta.RowGroups
	first := len(rgs)
	var rows, bytes int64
	for first > 0 {
		rg := &rgs[first-1]
		rows += rg.NumRows
		for _, cc := range rg.Columns {
			if cc.MetaData == nil || cc.CryptoMetadata != nil || cc.EncryptedColumnMetadata != nil {
				bytes = mergeBytes + 1
				break
			}
			bytes += cc.MetaData.TotalCompressedSize
		}
		if rows >= a.w.cfg.rowGroupRows || bytes > mergeBytes {
			break
		}
		first--
	}
	if first == len(rgs) || len(rgs)-first == 1 && rgs[first].NumRows == 0 {
		return nil
	}
	// A probe: a reader that opens the file from here on waits for the
	// lock at Close, or, when one holds it then, the merged row groups
	// stay as bytes no footer refers to, reclaimed by a later append.
	if ok, err := journal.TryExclusive(a.f); err != nil || !ok {
		return err
	}
	journal.ReleaseExclusive(a.f)
	run := make([]int, 0, len(rgs)-first)
	for i := first; i < len(rgs); i++ {
		run = append(run, i)
	}
	if err := carryRows(a.w, old, run); err != nil {
		// Rows that do not read (a damaged row group) or do not write
		// back: the row groups stay as they are, and the append goes on
		// with a fresh writer.
		w, err := newWriter(a.f, old.Schema, opts)
		if err != nil {
			return err
		}
		a.w = w
		return nil
	}
	a.w.carried = a.w.NumRows()
	a.merged = true
	meta.RowGroups = rgs[:first:first]
	return nil
}

// carryRows writes the rows of the row groups run of old to w.
func carryRows(w *Writer, old *file.File, run []int) error {
	r, err := old.NewReader(file.ReaderOptions{RowGroups: run, Fresh: true})
	if err != nil {
		return err
	}
	var batches [][]*vector.Vector
	for {
		b, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		batches = append(batches, b.Columns)
	}
	for _, b := range batches {
		if err := w.WriteBatch(b); err != nil {
			return err
		}
	}
	return nil
}

// reclaimCut is the end of the last byte that the row groups kept refer
// to (their pages, page indexes and bloom filters), at most footerStart.
func reclaimCut(old *file.File, kept []format.RowGroup, footerStart int64) int64 {
	end := int64(len(magic))
	extend := func(off int64, n int64) bool {
		if off < 0 || n < 0 || off+n > footerStart {
			return false
		}
		end = max(end, off+n)
		return true
	}
	for i := range kept {
		for c := range kept[i].Columns {
			cc := &kept[i].Columns[c]
			ch, err := old.Chunk(i, c)
			if err != nil {
				return footerStart
			}
			start, n, err := ch.ByteRange()
			if err != nil || !extend(start, n) {
				return footerStart
			}
			if off, ok := cc.ColumnIndexOffset.Get(); ok && !extend(off, int64(cc.ColumnIndexLength.Value)) {
				return footerStart
			}
			if off, ok := cc.OffsetIndexOffset.Get(); ok && !extend(off, int64(cc.OffsetIndexLength.Value)) {
				return footerStart
			}
			if off, ok := cc.MetaData.BloomFilterOffset.Get(); ok {
				n, known := cc.MetaData.BloomFilterLength.Get()
				if !known || !extend(off, int64(n)) {
					return footerStart // a bloom filter of unknown length
				}
			}
		}
	}
	return end
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

// Snapshot is a file opened as committed.
type Snapshot struct {
	*file.File
}

// Close closes the file.
func (s *Snapshot) Close() error { return s.File.Close() }

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

// OpenCommitted opens the file at path as committed, so that an append in
// progress, or a crashed one not yet recovered, is invisible: it is
// file.OpenFile, which does so for every reader.
func OpenCommitted(path string, opts file.Options) (*Snapshot, error) {
	f, err := file.OpenFile(path, opts, false)
	if err != nil {
		return nil, err
	}
	return &Snapshot{File: f}, nil
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

// LockFile takes the append lock of the file at path, waiting for it, as
// Rewrite does, and rolls back an interrupted append: until unlock, no
// append (of any process) changes the file, and one waiting for the lock
// while the file is replaced by a rename starts again on the new file.
// It lets a caller that replaces the file itself (a transaction's
// commit) check what it replaces and replace it with nothing in between.
func LockFile(path string) (unlock func(), err error) {
	f, err := openLocked(path)
	if err != nil {
		return nil, err
	}
	if _, err := recoverLocked(path, f, true); err != nil {
		unlockFile(f)
		f.Close()
		return nil, fmt.Errorf("writer: recover %s: %w", path, err)
	}
	return func() {
		unlockFile(f)
		f.Close()
	}, nil
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
	if _, err := recoverLocked(path, f, true); err != nil {
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

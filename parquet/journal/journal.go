// Package journal reads and writes the append journal of carquet's
// crash-safe appends (the protocol is described in writer/doc.go): a small
// side file, <file>.carquet-journal, empty between appends, that records a file's length before an
// append and the bytes the append overwrites (its old footer, and the small
// row groups it merges), and, for an append whose bytes were all known
// before it wrote any, its new length and the CRC-32C of its bytes. While
// it exists, the committed file is the bytes before the cut followed by
// the saved ones, unless the append wrote all its bytes and is no longer
// running (Landed): then it is the file after the append.
//
// The writer writes it; readers (parquet/file) use it to open a file as
// committed (View), so that an append in progress, or one that crashed and
// was never recovered, is invisible to them. The package also holds the
// reader lock (ShareReaders, TryExclusive) that tells an append whether
// it may overwrite row groups. It sits beside parquet/file.
package journal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// Suffix is appended to a file's path to name its append journal.
const Suffix = ".carquet-journal"

const (
	magic = "CQJ1"
	// Version 1 journals record an append that only adds bytes; version 2
	// ones also save the bytes from the cut to the old end; version 3 ones
	// also hold the new length and the CRC-32C of the bytes from the cut.
	size1 = 4 + 4 + 8 + 4 + 4 + 4
	size2 = size1 + 8
	size3 = size2 + 8 + 4
	// Tail is how many bytes before the cut the journal's CRC covers.
	Tail = 64 << 10
)

// Journal records the state of a file before an append.
type Journal struct {
	OldSize int64
	// Cut is where the append starts writing: bytes before it never
	// change. Zero means the old end (an append that overwrites nothing).
	Cut int64
	// Saved holds the old bytes from Cut to OldSize.
	Saved []byte
	// TailLen and TailCRC describe the bytes before the cut, which
	// identify the file the journal belongs to.
	TailLen uint32
	TailCRC uint32
	// NewSize and NewCRC describe the append's own bytes, when it knew
	// them all before it wrote its journal: the file's length after it,
	// and the CRC-32C (Checksum) of its bytes from the cut to NewSize.
	// Zero NewSize: unknown (recovery always rolls such an append back).
	NewSize int64
	NewCRC  uint32
	// sum is the record's own CRC, as Parse read it: it tells one record
	// from another.
	sum uint32
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checksum is the CRC-32C of an append's bytes, as NewCRC holds it.
func Checksum(b []byte) uint32 { return crc32.Checksum(b, castagnoli) }

// cut is where the append starts writing.
func (j Journal) cut() int64 {
	if j.Cut == 0 {
		return j.OldSize
	}
	return j.Cut
}

// Marshal encodes the journal with its own CRC.
func (j Journal) Marshal() []byte {
	v := uint32(1)
	switch {
	case j.NewSize > 0:
		v = 3
	case j.cut() != j.OldSize:
		v = 2
	}
	b := make([]byte, 0, size3+len(j.Saved))
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, v)
	b = binary.LittleEndian.AppendUint64(b, uint64(j.OldSize))
	b = binary.LittleEndian.AppendUint32(b, j.TailLen)
	b = binary.LittleEndian.AppendUint32(b, j.TailCRC)
	if v >= 2 {
		b = binary.LittleEndian.AppendUint64(b, uint64(j.cut()))
	}
	if v == 3 {
		b = binary.LittleEndian.AppendUint64(b, uint64(j.NewSize))
		b = binary.LittleEndian.AppendUint32(b, j.NewCRC)
	}
	if v >= 2 {
		b = append(b, j.Saved...)
	}
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// Parse decodes and checks a journal. Bytes after the record (the journal
// file keeps its room from one append to the next) are ignored.
func Parse(b []byte) (Journal, error) {
	if len(b) < size1 || string(b[:4]) != magic {
		return Journal{}, fmt.Errorf("not an append journal (%d bytes)", len(b))
	}
	b = b[:recordLen(b)]
	sum := binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32.ChecksumIEEE(b[:len(b)-4]) != sum {
		return Journal{}, fmt.Errorf("append journal checksum mismatch")
	}
	v := binary.LittleEndian.Uint32(b[4:])
	if v < 1 || v > 3 || len(b) < [4]int{0, size1, size2, size3}[v] || v == 1 && len(b) != size1 {
		return Journal{}, fmt.Errorf("append journal version %d of %d bytes is not supported", v, len(b))
	}
	j := Journal{
		OldSize: int64(binary.LittleEndian.Uint64(b[8:])),
		TailLen: binary.LittleEndian.Uint32(b[16:]),
		TailCRC: binary.LittleEndian.Uint32(b[20:]),
		sum:     sum,
	}
	j.Cut = j.OldSize
	saved := size2 - 4
	if v >= 2 {
		j.Cut = int64(binary.LittleEndian.Uint64(b[24:]))
	}
	if v == 3 {
		j.NewSize = int64(binary.LittleEndian.Uint64(b[32:]))
		j.NewCRC = binary.LittleEndian.Uint32(b[40:])
		saved = size3 - 4
	}
	if v >= 2 {
		j.Saved = b[saved : len(b)-4]
	}
	if j.OldSize < 0 || j.Cut <= 0 && v >= 2 || j.Cut > j.OldSize || v >= 2 && int64(len(j.Saved)) != j.OldSize-j.Cut ||
		int64(j.TailLen) > j.Cut || v == 3 && j.NewSize <= j.Cut {
		return Journal{}, fmt.Errorf("append journal with old length %d, cut %d, %d saved bytes, tail %d and new length %d", j.OldSize, j.Cut, len(j.Saved), j.TailLen, j.NewSize)
	}
	return j, nil
}

// recordLen is the length of the record that starts b (at least size1
// bytes), from its header: a version 2 record holds the saved bytes from
// its cut to its old length. A header that does not fit b gives len(b),
// which Parse then refuses.
func recordLen(b []byte) int {
	head := size2
	switch v := binary.LittleEndian.Uint32(b[4:]); {
	case v == 3:
		head = size3
	case v != 2:
		return min(len(b), size1)
	}
	if len(b) < head {
		return len(b)
	}
	oldSize := int64(binary.LittleEndian.Uint64(b[8:]))
	cut := int64(binary.LittleEndian.Uint64(b[24:]))
	if cut < 0 || cut > oldSize || oldSize-cut > int64(len(b)-head) {
		return len(b)
	}
	return head + int(oldSize-cut)
}

// Read reads path's journal; ok is false when there is none.
func Read(path string) (j Journal, ok bool, err error) {
	b, err := os.ReadFile(path + Suffix)
	if errors.Is(err, os.ErrNotExist) {
		return Journal{}, false, nil
	}
	if err != nil {
		return Journal{}, false, err
	}
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return Journal{}, false, nil // between appends: empty, or cleared
	}
	j, err = Parse(b)
	if err != nil {
		// The journal is written in place and synced before the append
		// overwrites a byte of the file: one that does not parse was cut
		// short by a crash (or is being written), and nothing depends on
		// it yet.
		return Journal{}, false, nil
	}
	return j, true, nil
}

// Active reports whether the file at path has a journal that records an
// append (in progress, or one that crashed).
func Active(path string) bool {
	_, ok, _ := Read(path)
	return ok
}

// TailCRC is the length and CRC of the up to Tail bytes before size (the
// cut).
func TailCRC(f io.ReaderAt, size int64) (uint32, uint32, error) {
	n := min(size, Tail)
	b := make([]byte, n)
	if _, err := f.ReadAt(b, size-n); err != nil && !(err == io.EOF && n == 0) {
		return 0, 0, err
	}
	return uint32(n), crc32.ChecksumIEEE(b), nil
}

// Matches reports whether the journal describes this file: the bytes
// before its cut are still the ones recorded.
func (j Journal) Matches(f io.ReaderAt, size int64) (bool, error) {
	cut := j.cut()
	if size < cut {
		return false, nil
	}
	b := make([]byte, j.TailLen)
	if _, err := f.ReadAt(b, cut-int64(j.TailLen)); err != nil && !(err == io.EOF && j.TailLen == 0) {
		return false, err
	}
	return crc32.ChecksumIEEE(b) == j.TailCRC, nil
}

// Restore puts the file back as it was before the append: the saved bytes
// at the cut, the old length, synced.
func (j Journal) Restore(f *os.File) error {
	if len(j.Saved) > 0 {
		if _, err := f.WriteAt(j.Saved, j.cut()); err != nil {
			return err
		}
	}
	if err := f.Truncate(j.OldSize); err != nil {
		return err
	}
	return f.Sync()
}

// ReaderAt reads the file as it was before the append: f before the cut,
// the saved bytes after it, up to the old length.
func (j Journal) ReaderAt(f io.ReaderAt) io.ReaderAt {
	if len(j.Saved) == 0 {
		return f
	}
	return &overlay{f: f, cut: j.cut(), saved: j.Saved}
}

type overlay struct {
	f     io.ReaderAt
	cut   int64
	saved []byte
}

func (o *overlay) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, fmt.Errorf("journal: negative offset %d", off)
	}
	n := 0
	if off < o.cut {
		m := int(min(int64(len(p)), o.cut-off))
		k, err := o.f.ReadAt(p[:m], off)
		n += k
		if err != nil {
			return n, err
		}
		p, off = p[m:], off+int64(m)
	}
	if len(p) == 0 {
		return n, nil
	}
	k := 0
	if i := off - o.cut; i < int64(len(o.saved)) {
		k = copy(p, o.saved[i:])
	}
	n += k
	if k < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Landed reports whether the append the journal records wrote all its
// bytes to f (of length size): the file is NewSize long and its bytes from
// the cut have the recorded CRC. Such an append is kept by recovery (its
// bytes synced, its journal emptied) instead of rolled back. A journal
// without NewSize never landed.
func (j Journal) Landed(f io.ReaderAt, size int64) (bool, error) {
	if j.NewSize <= 0 || size != j.NewSize {
		return false, nil
	}
	h := crc32.New(castagnoli)
	// size is the file's own length, so the read is bounded by the file.
	if _, err := io.Copy(h, io.NewSectionReader(f, j.cut(), j.NewSize-j.cut())); err != nil {
		return false, err
	}
	return h.Sum32() == j.NewCRC, nil
}

// same reports whether j and o are the same record.
func (j Journal) same(o Journal) bool {
	return j.sum == o.sum && j.OldSize == o.OldSize && j.cut() == o.cut() && j.NewSize == o.NewSize && j.NewCRC == o.NewCRC
}

// View is how a reader sees a file: the committed bytes, Size of them.
type View struct {
	R    io.ReaderAt
	Size int64
	// Journaled is set when an append was in progress (or had crashed):
	// R then reads the file as it was before it, whatever the append
	// writes, and needs no later check.
	Journaled bool
	// landed is the journal of an append that landed and whose appender
	// is gone (a crash, or an emptying of the journal lost with the
	// machine): the view is the file after it, as recovery will leave it.
	landed *Journal
}

// Committed is the committed view of the file at path (open as f): the
// file before the append while a journal that matches it exists (an
// append in progress, or one that crashed), unless that append landed and
// no appender holds the file (Appending): then the file after it, as
// recovery will leave it; else the file at its size.
// It never writes: it reads the journal, the size, the journal
// again and the size again, and trusts the size only when no journal was
// seen and the size held still. A reader that reads the footer of a view
// that is not Journaled then checks Unchanged: an append may have started,
// overwriting the footer, in between.
func Committed(path string, f *os.File) (View, error) {
	for range 100 {
		if v, ok, err := journaledView(path, f); err != nil || ok {
			return v, err
		}
		st1, err := f.Stat()
		if err != nil {
			return View{}, err
		}
		if v, ok, err := journaledView(path, f); err != nil || ok {
			return v, err
		}
		st2, err := f.Stat()
		if err != nil {
			return View{}, err
		}
		// No journal before or after the first look at the size: no append
		// was writing then, unless one ran whole in between, which grew
		// the file past it.
		if st1.Size() == st2.Size() {
			return View{R: f, Size: st1.Size()}, nil
		}
	}
	return View{}, fmt.Errorf("%s keeps changing size", path)
}

// journaledView is the view of f by its journal, when one that matches f
// exists (ok); ok is also false when the journal changed while it was
// read (an appender started): the caller looks again.
func journaledView(path string, f *os.File) (View, bool, error) {
	j, ok, err := committed(path, f)
	if err != nil || !ok {
		return View{}, false, err
	}
	if j.NewSize > 0 && !Appending(f) {
		st, err := f.Stat()
		if err != nil {
			return View{}, false, err
		}
		landed, err := j.Landed(f, st.Size())
		if err != nil {
			return View{}, false, err
		}
		if landed {
			// The appender may have died before its sync: the bytes
			// are made durable before anyone reads them, as recovery
			// does. (fsync of a file open for reading is allowed.)
			if err := f.Sync(); err != nil {
				return View{}, false, err
			}
			// An appender that started meanwhile has recovered the
			// file (keeping these bytes) and written its own journal.
			if again, ok, err := committed(path, f); err != nil || !ok || !again.same(j) {
				return View{}, false, err
			}
			return View{R: f, Size: j.NewSize, landed: &j}, true, nil
		}
	}
	return View{R: j.ReaderAt(f), Size: j.OldSize, Journaled: true}, true, nil
}

// Unchanged reports whether no append has touched the file at path (open
// as f) since Committed returned v, a view that is not Journaled: an
// append writes its journal before it overwrites a byte and, when it
// commits, leaves the file longer than it found it (its footer lists one
// more row group), or else holds the readers' lock (TryExclusive), which
// a reader of the view holds shared. A landed view stays unchanged while
// its journal does, or once recovery has emptied it.
func Unchanged(path string, f *os.File, v View) (bool, error) {
	j, ok, err := committed(path, f)
	if err != nil {
		return false, err
	}
	if ok && (v.landed == nil || !j.same(*v.landed)) {
		return false, nil
	}
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	return st.Size() == v.Size, nil
}

// CommittedSize is the committed length of the file at path (open as f).
func CommittedSize(path string, f *os.File) (int64, error) {
	v, err := Committed(path, f)
	return v.Size, err
}

// committed returns a journal that matches f.
func committed(path string, f *os.File) (Journal, bool, error) {
	j, ok, err := Read(path)
	if err != nil || !ok {
		return Journal{}, false, err
	}
	st, err := f.Stat()
	if err != nil {
		return Journal{}, false, err
	}
	match, err := j.Matches(f, st.Size())
	if err != nil {
		return Journal{}, false, err
	}
	// A journal that does not match belongs to a file since replaced: the
	// next append drops it; it says nothing about this file.
	return j, match, nil
}

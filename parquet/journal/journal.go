// Package journal reads and writes the append journal of carquet's
// crash-safe appends (the protocol is described in writer/doc.go): a small
// side file, <file>.carquet-journal, empty between appends, that records a file's length before an
// append and the bytes the append overwrites (its old footer, and the small
// row groups it merges). While it exists, the committed file is the bytes
// before the cut followed by the saved ones.
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
	// ones also save the bytes from the cut to the old end.
	size1 = 4 + 4 + 8 + 4 + 4 + 4
	size2 = size1 + 8
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
}

// cut is where the append starts writing.
func (j Journal) cut() int64 {
	if j.Cut == 0 {
		return j.OldSize
	}
	return j.Cut
}

// Marshal encodes the journal with its own CRC.
func (j Journal) Marshal() []byte {
	v2 := j.cut() != j.OldSize
	b := make([]byte, 0, size2+len(j.Saved))
	b = append(b, magic...)
	if v2 {
		b = binary.LittleEndian.AppendUint32(b, 2)
	} else {
		b = binary.LittleEndian.AppendUint32(b, 1)
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(j.OldSize))
	b = binary.LittleEndian.AppendUint32(b, j.TailLen)
	b = binary.LittleEndian.AppendUint32(b, j.TailCRC)
	if v2 {
		b = binary.LittleEndian.AppendUint64(b, uint64(j.Cut))
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
	if crc32.ChecksumIEEE(b[:len(b)-4]) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return Journal{}, fmt.Errorf("append journal checksum mismatch")
	}
	v := binary.LittleEndian.Uint32(b[4:])
	if v != 1 && v != 2 || v == 1 && len(b) != size1 || v == 2 && len(b) < size2 {
		return Journal{}, fmt.Errorf("append journal version %d of %d bytes is not supported", v, len(b))
	}
	j := Journal{
		OldSize: int64(binary.LittleEndian.Uint64(b[8:])),
		TailLen: binary.LittleEndian.Uint32(b[16:]),
		TailCRC: binary.LittleEndian.Uint32(b[20:]),
	}
	j.Cut = j.OldSize
	if v == 2 {
		j.Cut = int64(binary.LittleEndian.Uint64(b[24:]))
		j.Saved = b[32 : len(b)-4]
	}
	if j.OldSize < 0 || j.Cut <= 0 && v == 2 || j.Cut > j.OldSize || int64(len(j.Saved)) != j.OldSize-j.Cut && v == 2 || int64(j.TailLen) > j.Cut {
		return Journal{}, fmt.Errorf("append journal with old length %d, cut %d, %d saved bytes and tail %d", j.OldSize, j.Cut, len(j.Saved), j.TailLen)
	}
	return j, nil
}

// recordLen is the length of the record that starts b (at least size1
// bytes), from its header: a version 2 record holds the saved bytes from
// its cut to its old length. A header that does not fit b gives len(b),
// which Parse then refuses.
func recordLen(b []byte) int {
	if binary.LittleEndian.Uint32(b[4:]) != 2 || len(b) < size2 {
		return min(len(b), size1)
	}
	oldSize := int64(binary.LittleEndian.Uint64(b[8:]))
	cut := int64(binary.LittleEndian.Uint64(b[24:]))
	if cut < 0 || cut > oldSize || oldSize-cut > int64(len(b)-size2) {
		return len(b)
	}
	return size2 + int(oldSize-cut)
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

// View is how a reader sees a file: the committed bytes, Size of them.
type View struct {
	R    io.ReaderAt
	Size int64
	// Journaled is set when an append was in progress (or had crashed):
	// R then reads the file as it was before it, whatever the append
	// writes, and needs no later check.
	Journaled bool
}

// Committed is the committed view of the file at path (open as f): the
// file before the append while a journal that matches it exists (an
// append in progress, or one that crashed), else the file at its size.
// It never writes or locks: it reads the journal, the size, the journal
// again and the size again, and trusts the size only when no journal was
// seen and the size held still. A reader that reads the footer of a view
// that is not Journaled then checks Unchanged: an append may have started,
// overwriting the footer, in between.
func Committed(path string, f *os.File) (View, error) {
	for range 100 {
		if j, ok, err := committed(path, f); err != nil || ok {
			return journaledView(f, j), err
		}
		st1, err := f.Stat()
		if err != nil {
			return View{}, err
		}
		if j, ok, err := committed(path, f); err != nil || ok {
			return journaledView(f, j), err
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

func journaledView(f *os.File, j Journal) View {
	return View{R: j.ReaderAt(f), Size: j.OldSize, Journaled: true}
}

// Unchanged reports whether no append has touched the file at path (open
// as f) since Committed returned a view of size bytes without a journal:
// an append writes its journal before it overwrites a byte and, when it
// commits, leaves the file longer than it found it (its footer lists one
// more row group), or else holds the readers' lock (TryExclusive), which
// a reader of the view holds shared.
func Unchanged(path string, f *os.File, size int64) (bool, error) {
	if _, ok, err := committed(path, f); err != nil || ok {
		return false, err
	}
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	return st.Size() == size, nil
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

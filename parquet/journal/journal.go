// Package journal reads and writes the append journal of carquet's
// crash-safe appends (the protocol is described in writer/doc.go): a small
// side file, <file>.carquet-journal, that records a file's length before an
// append. While it exists, the committed file ends at that length.
//
// The writer writes it; readers (parquet/file) use it to open a file at its
// committed length, so that an append in progress, or one that crashed and
// was never recovered, is invisible to them. It sits beside parquet/file,
// importing only the standard library.
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
	magic   = "CQJ1"
	version = 1
	size    = 4 + 4 + 8 + 4 + 4 + 4
	// Tail is how many bytes before the old end the journal's CRC covers.
	Tail = 64 << 10
)

// Journal records the state of a file before an append.
type Journal struct {
	OldSize int64
	TailLen uint32
	TailCRC uint32
}

// Marshal encodes the journal with its own CRC.
func (j Journal) Marshal() []byte {
	b := make([]byte, 0, size)
	b = append(b, magic...)
	b = binary.LittleEndian.AppendUint32(b, version)
	b = binary.LittleEndian.AppendUint64(b, uint64(j.OldSize))
	b = binary.LittleEndian.AppendUint32(b, j.TailLen)
	b = binary.LittleEndian.AppendUint32(b, j.TailCRC)
	return binary.LittleEndian.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// Parse decodes and checks a journal.
func Parse(b []byte) (Journal, error) {
	if len(b) != size || string(b[:4]) != magic {
		return Journal{}, fmt.Errorf("not an append journal (%d bytes)", len(b))
	}
	if crc32.ChecksumIEEE(b[:size-4]) != binary.LittleEndian.Uint32(b[size-4:]) {
		return Journal{}, fmt.Errorf("append journal checksum mismatch")
	}
	if v := binary.LittleEndian.Uint32(b[4:]); v != version {
		return Journal{}, fmt.Errorf("append journal version %d is not supported", v)
	}
	j := Journal{
		OldSize: int64(binary.LittleEndian.Uint64(b[8:])),
		TailLen: binary.LittleEndian.Uint32(b[16:]),
		TailCRC: binary.LittleEndian.Uint32(b[20:]),
	}
	if j.OldSize < 0 || int64(j.TailLen) > j.OldSize {
		return Journal{}, fmt.Errorf("append journal with old length %d and tail %d", j.OldSize, j.TailLen)
	}
	return j, nil
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
	j, err = Parse(b)
	if err != nil {
		return Journal{}, false, fmt.Errorf("%s: %w", path+Suffix, err)
	}
	return j, true, nil
}

// TailCRC is the length and CRC of the up to Tail bytes before size.
func TailCRC(f io.ReaderAt, size int64) (uint32, uint32, error) {
	n := min(size, Tail)
	b := make([]byte, n)
	if _, err := f.ReadAt(b, size-n); err != nil && !(err == io.EOF && n == 0) {
		return 0, 0, err
	}
	return uint32(n), crc32.ChecksumIEEE(b), nil
}

// Matches reports whether the journal describes this file: the bytes
// before its old end are still the ones recorded.
func (j Journal) Matches(f io.ReaderAt, size int64) (bool, error) {
	if size < j.OldSize {
		return false, nil
	}
	b := make([]byte, j.TailLen)
	if _, err := f.ReadAt(b, j.OldSize-int64(j.TailLen)); err != nil && !(err == io.EOF && j.TailLen == 0) {
		return false, err
	}
	return crc32.ChecksumIEEE(b) == j.TailCRC, nil
}

// CommittedSize is the committed length of the file at path (open as f):
// the old length while a journal that matches the file exists (an append
// in progress, or one that crashed), else its size. It never writes or
// locks: it reads the journal, the size, the journal again and the size
// again, and trusts the size only when no journal was seen and the size
// held still.
func CommittedSize(path string, f *os.File) (int64, error) {
	for range 100 {
		if j, ok, err := committed(path, f); err != nil || ok {
			return j, err
		}
		st1, err := f.Stat()
		if err != nil {
			return 0, err
		}
		if j, ok, err := committed(path, f); err != nil || ok {
			return j, err
		}
		st2, err := f.Stat()
		if err != nil {
			return 0, err
		}
		// No journal before or after the first look at the size: no append
		// was writing then, unless one ran whole in between, which grew
		// the file past it.
		if st1.Size() == st2.Size() {
			return st1.Size(), nil
		}
	}
	return 0, fmt.Errorf("%s keeps changing size", path)
}

// committed returns the old length of a journal that matches f.
func committed(path string, f *os.File) (int64, bool, error) {
	j, ok, err := Read(path)
	if err != nil || !ok {
		return 0, false, err
	}
	st, err := f.Stat()
	if err != nil {
		return 0, false, err
	}
	match, err := j.Matches(f, st.Size())
	if err != nil {
		return 0, false, err
	}
	// A journal that does not match belongs to a file since replaced: the
	// next append drops it; it says nothing about this file.
	return j.OldSize, match, nil
}

//go:build linux

package journal

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// The readers' lock is an open-file-description lock (F_OFD_SETLK) on one
// byte far beyond any file's end: readers hold it shared for as long as
// they have the file open, and an append that would overwrite row groups
// (merging small ones) needs it exclusive. Unlike flock, which serialises
// the appenders themselves, it is a separate lock on Linux; unlike classic
// fcntl locks it belongs to the open file, so two opens within one
// process exclude each other too.
const readersLockByte = 1 << 62

func readersLock(f *os.File, typ int16, cmd int) error {
	lk := unix.Flock_t{Type: typ, Whence: io.SeekStart, Start: readersLockByte, Len: 1}
	for {
		err := unix.FcntlFlock(f.Fd(), cmd, &lk)
		if err != unix.EINTR {
			return err
		}
	}
}

// ShareReaders takes the readers' lock shared on f (open for reading),
// waiting while an append that overwrites row groups holds it. It is
// released when f is closed.
func ShareReaders(f *os.File) error {
	return readersLock(f, unix.F_RDLCK, unix.F_OFD_SETLKW)
}

// UnshareReaders gives back the lock ShareReaders took, before f is
// closed. Closing alone is not enough when the file is memory-mapped: a
// mapping holds the open file description, and with it the lock, until
// it is unmapped, and parquet/file keeps closed files' mappings for reuse.
func UnshareReaders(f *os.File) error {
	return readersLock(f, unix.F_UNLCK, unix.F_OFD_SETLK)
}

// TryExclusive takes the readers' lock exclusive on f (open for writing)
// if no reader holds it; it reports false when one does or the file system
// has no such locks.
func TryExclusive(f *os.File) (bool, error) {
	switch err := readersLock(f, unix.F_WRLCK, unix.F_OFD_SETLK); err {
	case nil:
		return true, nil
	case unix.EAGAIN, unix.EACCES, unix.ENOLCK, unix.EINVAL, unix.EOPNOTSUPP:
		return false, nil
	default:
		return false, err
	}
}

// ReleaseExclusive gives back the lock TryExclusive took.
func ReleaseExclusive(f *os.File) error {
	return readersLock(f, unix.F_UNLCK, unix.F_OFD_SETLK)
}

// appendingByte is the appenders' mark: an append holds it exclusive
// (F_OFD_SETLK, released at the latest when its process dies) from before
// it writes its journal until it is done, so that a reader that finds a
// journal can tell an append that is running from one whose appender is
// gone. Readers only test it (F_OFD_GETLK), which blocks no one.
const appendingByte = readersLockByte + 1

// MarkAppending takes the appenders' mark on f (open for writing, under
// the file's append lock). It reports false where the file system has no
// such locks: readers then take every journal for a running append.
func MarkAppending(f *os.File) bool {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: io.SeekStart, Start: appendingByte, Len: 1}
	for {
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
		if err != unix.EINTR {
			return err == nil
		}
	}
}

// UnmarkAppending gives back the mark MarkAppending took.
func UnmarkAppending(f *os.File) {
	lk := unix.Flock_t{Type: unix.F_UNLCK, Whence: io.SeekStart, Start: appendingByte, Len: 1}
	for unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk) == unix.EINTR {
	}
}

// Appending reports whether an appender holds the mark on the file open
// as f; when that cannot be known, it reports true.
func Appending(f *os.File) bool {
	lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: io.SeekStart, Start: appendingByte, Len: 1}
	for {
		err := unix.FcntlFlock(f.Fd(), unix.F_OFD_GETLK, &lk)
		if err == unix.EINTR {
			continue
		}
		return err != nil || lk.Type != unix.F_UNLCK
	}
}

//go:build !linux

package journal

import "os"

// Without open-file-description locks there is no readers' lock: appends
// never overwrite row groups (they still overwrite the old footer, which
// readers guard against by the journal and Unchanged).

// ShareReaders does nothing on this platform.
func ShareReaders(f *os.File) error { return nil }

// UnshareReaders does nothing on this platform.
func UnshareReaders(f *os.File) error { return nil }

// TryExclusive reports false: no append may overwrite row groups here.
func TryExclusive(f *os.File) (bool, error) { return false, nil }

// ReleaseExclusive does nothing on this platform.
func ReleaseExclusive(f *os.File) error { return nil }

// MarkAppending reports false: there is no appenders' mark here, and
// appends empty their journals durably before they return.
func MarkAppending(f *os.File) bool { return false }

// UnmarkAppending does nothing on this platform.
func UnmarkAppending(f *os.File) {}

// Appending reports true: whether an appender runs cannot be known here.
func Appending(f *os.File) bool { return true }

package file

import (
	"errors"
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
)

// The kinds of error, for errors.Is. They are the values of parquet/errs,
// re-exported here: every error this package returns wraps one of them
// (through the more specific sentinels of parquet/encoding,
// parquet/compress, parquet/thrift, ... where those found the problem) and
// is an *Error naming the file and, where known, the row group, column
// path and byte offset.
var (
	// ErrCorrupt marks structurally invalid data.
	ErrCorrupt = errs.ErrCorrupt
	// ErrChecksum marks a page whose CRC32 does not match (checked unless
	// Options.SkipChecksums); it is also ErrCorrupt.
	ErrChecksum = errs.ErrChecksum
	// ErrUnsupported marks features this package does not implement: LZO
	// compression, unknown encodings, column data in other files.
	ErrUnsupported = errs.ErrUnsupported
	// ErrEncrypted is returned for files and columns that use Parquet
	// Modular Encryption when no key was given for them (Options.Decryption).
	ErrEncrypted = errs.ErrEncrypted
	// ErrDecrypt marks a module that does not decrypt with the key given
	// (a wrong key or AAD prefix, or tampered bytes); it is also
	// ErrEncrypted.
	ErrDecrypt = errs.ErrDecrypt
	// ErrNotParquet is returned when the magic bytes are missing.
	ErrNotParquet = errs.ErrNotParquet
	// ErrSchemaMismatch marks schemas that should agree and do not.
	ErrSchemaMismatch = errs.ErrSchemaMismatch
	// ErrLimit marks a size or count above one of Options' limits.
	ErrLimit = errs.ErrLimit
)

// Error locates a failure: the file, and where known the row group, column
// path and byte offset.
type Error struct {
	File     string
	RowGroup int    // -1 when not known
	Column   string // dotted column path, "" when not known
	Offset   int64  // -1 when not known
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("parquet")
	}
	if e.RowGroup >= 0 {
		fmt.Fprintf(&b, ": row group %d", e.RowGroup)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %s", e.Column)
	}
	if e.Offset >= 0 {
		fmt.Fprintf(&b, ": offset %d", e.Offset)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

func (f *File) errorf(rowGroup int, column string, offset int64, format string, args ...any) error {
	return &Error{File: f.name, RowGroup: rowGroup, Column: column, Offset: offset, Err: fmt.Errorf(format, args...)}
}

func (f *File) wrap(rowGroup int, column string, offset int64, err error) error {
	var fe *Error
	if errors.As(err, &fe) {
		return err
	}
	return &Error{File: f.name, RowGroup: rowGroup, Column: column, Offset: offset, Err: err}
}

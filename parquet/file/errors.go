package file

import (
	"errors"
	"fmt"
	"strings"
)

// ErrEncrypted is returned for files that use Parquet Modular Encryption,
// which this package does not decrypt.
var ErrEncrypted = errors.New("encrypted file: Parquet modular encryption is not supported")

// ErrNotParquet is returned when the magic bytes are missing.
var ErrNotParquet = errors.New("not a Parquet file")

// ErrCorrupt marks structurally invalid data.
var ErrCorrupt = errors.New("corrupt Parquet data")

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

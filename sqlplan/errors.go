package sqlplan

import (
	"errors"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/sqlplan/dml"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Error is an error in a SQL statement. Line and Column (1-based) point
// into the text the user wrote, after every rewrite has been undone; they
// are 0 when the error has no position. It is defined by the syntax
// stage, which reports the first errors of a statement.
type Error = parse.Error

// Sentinel errors for errors.Is.
var (
	// ErrUnsupported marks SQL the engine recognizes but does not run,
	// and features of files it cannot read (LZO compression, an unknown
	// encoding): it is errs.ErrUnsupported.
	ErrUnsupported = errs.ErrUnsupported
	// ErrReadOnly is returned for writes on a read-only engine.
	ErrReadOnly = errors.New("the database is read-only (mode=ro)")
	// ErrNoTable marks a reference to a table that does not exist.
	ErrNoTable = errors.New("no such table")
	// ErrNoColumn marks a reference to a column that does not exist.
	ErrNoColumn = errors.New("no such column")
	// ErrConflict is returned by a COMMIT that found a table the
	// transaction changed changed by another connection meanwhile.
	ErrConflict = dml.ErrConflict
)

// The kinds of error of reading and writing Parquet files (the values of
// parquet/errs, re-exported), for errors.Is. Errors about a file are a
// *file.Error naming the file and, where known, the row group, column path
// and byte offset.
var (
	// ErrCorrupt marks a structurally invalid file, page or value.
	ErrCorrupt = errs.ErrCorrupt
	// ErrChecksum marks a page whose CRC32 does not match (checked unless
	// Options.SkipChecksums); it is also ErrCorrupt.
	ErrChecksum = errs.ErrChecksum
	// ErrEncrypted marks files or columns using Parquet Modular
	// Encryption whose keys were not given (Options.Decryption).
	ErrEncrypted = errs.ErrEncrypted
	// ErrDecrypt marks a file or column that does not decrypt with the
	// key given: a wrong key or AAD prefix, or tampered bytes. It is also
	// ErrEncrypted.
	ErrDecrypt = errs.ErrDecrypt
	// ErrNotParquet marks files without the Parquet magic bytes.
	ErrNotParquet = errs.ErrNotParquet
	// ErrSchemaMismatch marks an INSERT whose rows do not fit the file's
	// schema, or a table of files with incompatible columns.
	ErrSchemaMismatch = errs.ErrSchemaMismatch
	// ErrLimit marks a size in a file above the reader's limits.
	ErrLimit = errs.ErrLimit
)

// errAt returns an Error at byte offset off of the statement text src.
func errAt(src string, off int, format string, args ...any) *Error {
	return parse.ErrAt(src, off, format, args...)
}

// unsupported returns an error naming a feature that is not supported.
func unsupported(feature string) *Error { return function.Unsupported(feature) }

// errorf is an Error without a position (parse.Errorf).
func errorf(format string, args ...any) *Error { return parse.Errorf(format, args...) }

// suggest is parse.Suggest: ` (did you mean "x"?)` or "".
func suggest(name string, candidates []string) string { return parse.Suggest(name, candidates) }

package sqlplan

import (
	"errors"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/sqlplan/dml"
)

// Sentinel errors for errors.Is.
var (
	// ErrReadOnly is returned for writes on a read-only engine.
	ErrReadOnly = errors.New("the database is read-only (mode=ro)")
	// ErrNoTable marks a reference to a table that does not exist.
	ErrNoTable = errors.New("no such table")
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

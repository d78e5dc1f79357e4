package driver

import (
	"fmt"
	"runtime/debug"

	"github.com/carquet-go/carquet/sqlplan"
)

// The kinds of error a query or statement can end with, for errors.Is
// (re-exported from sqlplan, which re-exports parquet/errs: the same values
// at every layer). Errors about a file also name the file and, where
// known, the row group, column path and byte offset. A bug in carquet
// gives an error containing "internal error" and the stack, never a panic
// in the calling program.
var (
	// ErrCorrupt marks a structurally invalid file, page or value.
	ErrCorrupt = sqlplan.ErrCorrupt
	// ErrChecksum marks a page whose CRC32 does not match (checked unless
	// verify_checksums=false); it is also ErrCorrupt.
	ErrChecksum = sqlplan.ErrChecksum
	// ErrUnsupported marks SQL or file features carquet does not
	// implement (LZO compression, an unknown encoding, UPDATE).
	ErrUnsupported = sqlplan.ErrUnsupported
	// ErrEncrypted marks files or columns using Parquet Modular
	// Encryption whose keys were not given (see "Encrypted files").
	ErrEncrypted = sqlplan.ErrEncrypted
	// ErrDecrypt marks a file or column that does not decrypt with the
	// key given (a wrong key or AAD prefix, or tampered bytes); it is also
	// ErrEncrypted.
	ErrDecrypt = sqlplan.ErrDecrypt
	// ErrNotParquet marks files without the Parquet magic bytes.
	ErrNotParquet = sqlplan.ErrNotParquet
	// ErrSchemaMismatch marks an INSERT whose rows do not fit the file's
	// schema, or a table of files with incompatible columns.
	ErrSchemaMismatch = sqlplan.ErrSchemaMismatch
	// ErrLimit marks a size in a file above the reader's limits.
	ErrLimit = sqlplan.ErrLimit
)

// recoverInternal turns a panic in the driver's own code (converting
// values, handing out rows) into an error, so that a bug never takes down
// the program; the engine below recovers its own.
func recoverInternal(err *error) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("carquet: internal error: %v\n%s", p, debug.Stack())
	}
}

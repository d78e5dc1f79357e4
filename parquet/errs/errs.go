// Package errs defines the kinds of error every layer of carquet reports,
// in one place, so that errors.Is works the same whichever layer found the
// problem: a corrupt page found by a decoder, a codec or the page reader
// is errors.Is(err, errs.ErrCorrupt) in every case.
//
// It is a leaf: it imports only the standard library, and every other
// package may import it. parquet/file, sqlplan and the driver re-export
// these values under the same names.
package errs

import "errors"

var (
	// ErrCorrupt marks structurally invalid data: a file, page, encoded
	// run or compressed stream that cannot be what it claims to be.
	ErrCorrupt = errors.New("corrupt Parquet data")
	// ErrChecksum marks a page whose CRC32 does not match its bytes. It is
	// a kind of ErrCorrupt.
	ErrChecksum = New("checksum mismatch", ErrCorrupt)
	// ErrUnsupported marks a valid feature this build does not implement:
	// a compression codec (LZO), an encoding, a type.
	ErrUnsupported = errors.New("not supported")
	// ErrEncrypted marks files or columns that use Parquet Modular
	// Encryption and cannot be read as asked: no key was given for them,
	// or (ErrDecrypt) the key given does not decrypt them.
	ErrEncrypted = errors.New("encrypted (Parquet modular encryption)")
	// ErrDecrypt marks an encrypted module that does not decrypt: a wrong
	// key or AAD prefix, or bytes changed since the file was written. It
	// is a kind of ErrEncrypted.
	ErrDecrypt = New("decryption failed", ErrEncrypted)
	// ErrNotParquet marks input that is not a Parquet file at all (no PAR1
	// magic).
	ErrNotParquet = errors.New("not a Parquet file")
	// ErrSchemaMismatch marks schemas that should agree and do not: rows
	// appended to a file with a different schema, or the files of one
	// table with incompatible columns.
	ErrSchemaMismatch = errors.New("schema mismatch")
	// ErrLimit marks a size or count read from a file that is above a
	// configured limit (file.Options): the data may be valid, but reading
	// it would take more memory than the reader allows.
	ErrLimit = errors.New("above the reader's limit")
)

// New returns a sentinel error with its own message that is also its
// parent's kind: errors.Is(New(msg, ErrCorrupt), ErrCorrupt) holds. Packages
// use it to keep their specific sentinels (encoding.ErrCorrupt, ...) while
// sharing the kinds above.
func New(msg string, parent error) error { return &kind{msg: msg, parent: parent} }

type kind struct {
	msg    string
	parent error
}

func (k *kind) Error() string { return k.msg }
func (k *kind) Unwrap() error { return k.parent }

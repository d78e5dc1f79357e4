package sqlplan

import (
	"errors"
	"fmt"
	"sort"
	"strings"

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

func errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Offset: -1}
}

// suggest returns ` (did you mean "x"?)` for the candidate closest to name,
// or "" when none is close.
func suggest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	ln := strings.ToLower(name)
	sorted := append([]string(nil), candidates...)
	sort.Strings(sorted)
	for _, c := range sorted {
		d := editDistance(ln, strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" || bestD > max(2, len(name)/3) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// editDistance is the optimal string alignment distance: insertions,
// deletions, substitutions and transpositions of neighbours cost 1.
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

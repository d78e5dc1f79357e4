package plan

import (
	"errors"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// The errors the planner makes; the engine re-exports the public ones.

// Error is an error in a SQL statement. Line and Column (1-based) point
// into the text the user wrote, after every rewrite has been undone; they
// are 0 when the error has no position. It is defined by the syntax
// stage, which reports the first errors of a statement.
type Error = parse.Error

// Sentinel errors of binding, for errors.Is.
var (
	// ErrUnsupported marks SQL the engine recognizes but does not run,
	// and features of files it cannot read (LZO compression, an unknown
	// encoding): it is errs.ErrUnsupported.
	ErrUnsupported = errs.ErrUnsupported
	// ErrNoColumn marks a reference to a column that does not exist.
	ErrNoColumn = errors.New("no such column")
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

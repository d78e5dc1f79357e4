package parse

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
)

// Error is an error in a SQL statement. Line and Column (1-based) point
// into the text the user wrote, after every rewrite has been undone; they
// are 0 when the error has no position. The package sqlplan re-exports it
// as sqlplan.Error: every stage reports errors in statements with it.
type Error struct {
	Msg          string
	Line, Column int
	// Offset is the byte offset in the statement text, -1 when unknown.
	Offset int
	Err    error
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

func (e *Error) Unwrap() error { return e.Err }

// LineCol converts a byte offset in src into a 1-based line and column
// (0, 0 for a negative offset).
func LineCol(src string, off int) (int, int) {
	if off < 0 {
		return 0, 0
	}
	if off > len(src) {
		off = len(src)
	}
	line := 1 + strings.Count(src[:off], "\n")
	col := off - strings.LastIndexByte(src[:off], '\n')
	return line, col
}

// ErrAt returns an Error at byte offset off of src.
func ErrAt(src string, off int, format string, args ...any) *Error {
	e := &Error{Msg: fmt.Sprintf(format, args...), Offset: off}
	e.Line, e.Column = LineCol(src, off)
	return e
}

// UnsupportedAt is an errs.ErrUnsupported error at pos naming what is
// not supported.
func UnsupportedAt(src string, pos int, what string) error {
	e := ErrAt(src, pos, "%s is not supported", what)
	e.Err = errs.ErrUnsupported
	return e
}

package parse

import (
	"fmt"
	"sort"
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

// Errorf is an Error without a position in the statement.
func Errorf(format string, args ...any) *Error {
	return &Error{Msg: fmt.Sprintf(format, args...), Offset: -1}
}

// Suggest returns ` (did you mean "x"?)` for the candidate closest to name,
// or "" when none is close.
func Suggest(name string, candidates []string) string {
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

package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The planner's names that are this package's API since before the
// planner became package sqlplan/plan (issue 27), re-exported, and the
// error helpers the engine's side keeps a copy of (the planner has its
// own, plan/planerrors.go).

type (
	// Arg is a statement argument: positional (Ordinal from 1) or named.
	Arg = plan.Arg
	// Column describes a result column.
	Column = plan.Column
	// Error is an error in a SQL statement. Line and Column (1-based)
	// point into the text the user wrote, after every rewrite has been
	// undone; they are 0 when the error has no position. It is defined by
	// the syntax stage, which reports the first errors of a statement.
	Error = parse.Error
)

// Sentinel errors of binding and execution, for errors.Is.
var (
	// ErrUnsupported marks SQL the engine recognizes but does not run,
	// and features of files it cannot read (LZO compression, an unknown
	// encoding): it is errs.ErrUnsupported.
	ErrUnsupported = plan.ErrUnsupported
	// ErrNoColumn marks a reference to a column that does not exist.
	ErrNoColumn = plan.ErrNoColumn
	// ErrMemoryLimit is what a query that would hold more than
	// memory_limit fails with.
	ErrMemoryLimit = plan.ErrMemoryLimit
)

// IsUnion reports whether t is a UNION type.
func IsUnion(t Type) bool { return plan.IsUnion(t) }

// UnionMember is the value of its member that a UNION value v of type t
// holds, and the member's name; nil and "" for a NULL union.
func UnionMember(t Type, v any) (any, string) { return plan.UnionMember(t, v) }

// The engine's column vectors and types (package sqlplan/vec), under the
// names of the package's API.
type (
	// Col is one column of values in the engine (see vec.Col).
	Col = vec.Col
	// Batch is a set of rows as columns (see vec.Batch).
	Batch = vec.Batch
	// Type is the type of a column or expression (see vec.Type).
	Type = vec.Type
	// Kind is the SQL type family of a value (see vec.Kind).
	Kind = vec.Kind
	// NamedType is a struct field in CREATE TABLE (see vec.NamedType).
	NamedType = vec.NamedType
)

// The kinds of values (see vec.Kind).
const (
	KNull      = vec.KNull
	KBool      = vec.KBool
	KInt       = vec.KInt
	KUint      = vec.KUint
	KFloat     = vec.KFloat
	KDecimal   = vec.KDecimal
	KString    = vec.KString
	KBytes     = vec.KBytes
	KDate      = vec.KDate
	KTime      = vec.KTime
	KTimestamp = vec.KTimestamp
	KUUID      = vec.KUUID
	KInterval  = vec.KInterval
	KNested    = vec.KNested
	KTimeTZ    = vec.KTimeTZ
	KUHuge     = vec.KUHuge
	KEnum      = vec.KEnum
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

package function

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/errs"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Scalar is a scalar function of the library.
type Scalar struct {
	// Min and Max bound the number of arguments (Max -1: any).
	Min, Max int
	// Rule types a call.
	Rule TypeRule
	// Row computes row i from the argument columns, cast as Rule asked.
	// It sees no NULL argument unless NonStrict: the engine gives NULL
	// for a row where one is NULL without calling it.
	Row func(args []*vec.Col, i int) (any, error)
	// RowFor, when set, chooses Row by the types of the bound arguments
	// (a function whose computation depends on them, as hex's of an
	// integer or of text).
	RowFor func(types []vec.Type) func(args []*vec.Col, i int) (any, error)
	// Batch, when set, computes a whole batch of n rows at once (and sees
	// the NULL rows, which it makes NULL); the engine calls it instead of
	// Row.
	Batch func(args []*vec.Col, n int) (*vec.Col, error)
	// Exact functions have their arguments cast as CAST casts them
	// (TIMESTAMP_NS to TIMESTAMP converts, INTEGER to BIGINT widens), an
	// argument the rule gives its own type staying as it is; the others
	// only across kinds (an INTEGER read as a BIGINT stays an INTEGER).
	Exact bool
	// NonStrict functions see NULL arguments.
	NonStrict bool
	// Volatile functions give a new value per call (random and the like).
	Volatile bool
}

// TypeRule types a call of a function from the types of its arguments:
// the types the binder casts them to (the last repeating for any further
// arguments; nil leaves the arguments as they are) and the type of the
// result. An error says the call does not fit.
type TypeRule func(args []vec.Type) (casts []vec.Type, result vec.Type, err error)

// Sig is the type rule of a function with a fixed signature: its
// arguments cast to args (the last repeating), its result of type result.
func Sig(result vec.Type, args ...vec.Type) TypeRule {
	return func([]vec.Type) ([]vec.Type, vec.Type, error) { return args, result, nil }
}

// TextOrBlob is the type rule of a function of one VARCHAR that reads a
// BLOB's bytes as they are (DuckDB's BLOB forms of md5, sha1, sha256);
// other types cast to VARCHAR.
func TextOrBlob(result vec.Type) TypeRule {
	return func(args []vec.Type) ([]vec.Type, vec.Type, error) {
		if len(args) == 1 && args[0].Kind == vec.KBytes {
			return nil, result, nil
		}
		return []vec.Type{tString}, result, nil
	}
}

// The types of most signatures.
var (
	tString = vec.Type{Kind: vec.KString}
	tInt    = vec.Type{Kind: vec.KInt}
	tFloat  = vec.Type{Kind: vec.KFloat}
	tBool   = vec.Type{Kind: vec.KBool}

	tDate      = vec.Type{Kind: vec.KDate}
	tTimestamp = vec.Type{Kind: vec.KTimestamp}
)

var scalars = make(map[string]*Scalar, 64)

// register adds functions to the library; each file's init calls it. A
// name defined twice is a bug of the library.
func register(m map[string]*Scalar) {
	for name, f := range m {
		if _, dup := scalars[name]; dup {
			panic("function: " + name + " is defined twice")
		}
		scalars[name] = f
	}
}

// Scalars returns the library's scalar functions by lower-case name.
// The map is the library's own: callers read it.
func Scalars() map[string]*Scalar { return scalars }

// errorf is an error of a statement with no position in its text (the
// engine's Error, as the binder's own errors).
func errorf(format string, args ...any) *parse.Error {
	return &parse.Error{Msg: fmt.Sprintf(format, args...), Offset: -1}
}

// Unsupported is the error of a feature the engine recognizes but does
// not run (errs.ErrUnsupported, for errors.Is).
func Unsupported(feature string) *parse.Error {
	return &parse.Error{Msg: feature + " is not supported", Offset: -1, Err: errs.ErrUnsupported}
}

// str is a string row as a Go string.
func str(c *vec.Col, i int) string { return string(c.Str(i)) }

package textfile

import (
	"context"
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Column is a column a scan gives.
type Column struct {
	Name string
	Type vec.Type
	// Nullable is false only for columns never NULL (read_json's
	// filename).
	Nullable bool
}

// Scan is a file source's rows: each Next gives a batch, io.EOF after
// the last; Label is its line in EXPLAIN. The planner makes it a node.
type Scan interface {
	Next(ctx context.Context) (*vec.Batch, error)
	Close()
	Label() string
}

// TypeParser reads a type name as a statement writes it ('INTEGER',
// 'DECIMAL(10,2)', 'VARCHAR[]').
type TypeParser func(text string) (vec.Type, error)

// The types the readers name.
var (
	tString      = vec.Type{Kind: vec.KString}
	tBigint      = vec.Type{Kind: vec.KInt}
	tFloat       = vec.Type{Kind: vec.KFloat}
	tBool        = vec.Type{Kind: vec.KBool}
	tDate        = vec.Type{Kind: vec.KDate}
	tTime        = vec.Type{Kind: vec.KTime}
	tTimestamp   = vec.Type{Kind: vec.KTimestamp}
	tTimestampTZ = vec.Type{Kind: vec.KTimestamp, TZ: true}
	tHugeint     = vec.Type{Kind: vec.KDecimal, Prec: 38, Huge: true}
	tUUID        = vec.Type{Kind: vec.KUUID}
	tBlob        = vec.Type{Kind: vec.KBytes}
	tJSON        = vec.Type{Kind: vec.KString, JSON: true}
)

// errorf is an error of a statement without a position in its text, as
// the engine reports errors about files.
func errorf(format string, args ...any) *parse.Error {
	return &parse.Error{Msg: fmt.Sprintf(format, args...), Offset: -1}
}

// unsupported is errorf marked errs.ErrUnsupported.
func unsupported(format string, args ...any) *parse.Error {
	e := errorf(format, args...)
	e.Err = errs.ErrUnsupported
	return e
}

// sqlString is s as a SQL string literal.
func sqlString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

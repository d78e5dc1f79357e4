package plan

import "github.com/carquet-go/carquet/sqlplan/function"

// Casts of column vectors between every pair of types (function.CastCol), with
// DuckDB's rules for overflow, rounding and text.

// castExpr converts values to another type.
type castExpr struct {
	named
	e   Expr
	to  Type
	try bool // TRY_CAST: values that do not convert are NULL
}

func (e *castExpr) Type() Type { return e.to }

func (e *castExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	return function.CastCol(c, e.to, e.try)
}

// CastCol converts a column to type to.
func CastCol(c *Col, to Type) (*Col, error) { return function.CastCol(c, to, false) }

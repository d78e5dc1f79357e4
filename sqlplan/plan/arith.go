package plan

import (
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// Arithmetic on column vectors: integer, decimal (18-digit and 128-bit),
// float and interval operands, with DuckDB's overflow errors.

// arithExpr is + - * / % on numbers, dates and times.
type arithExpr struct {
	named
	op   byte // + - * / %
	l, r Expr
	t    Type
	zone *time.Location // TIMESTAMPTZ arithmetic: DuckDB's calendar in this zone (function/zonearith.go)
}

func (e *arithExpr) Type() Type { return e.t }

func (e *arithExpr) Eval(b *Batch) (*Col, error) {
	lc, err := e.operand(e.l, b)
	if err != nil {
		return nil, err
	}
	n := b.N
	// Temporal arithmetic with a constant interval keeps calendar months.
	if k, ok := IsConst(e.r); ok && e.t.Kind != KInterval && e.zone == nil {
		if iv, ok := k.V.(Interval); ok {
			return function.AddInterval(lc, iv, e.op == '-', e.t)
		}
	}
	rc, err := e.operand(e.r, b)
	if err != nil {
		return nil, err
	}
	if e.zone != nil {
		return function.ZonedArith(e.op, lc, rc, e.t, e.zone)
	}
	out, err := function.Arith(e.op, e.l.Type(), e.r.Type(), e.t, lc, rc, n)
	if err != nil {
		return nil, err
	}
	release(lc)
	release(rc)
	return out, nil
}

// vectorKernel reports whether e runs on one of the kernels of
// arithkernels.go, which take a constant operand as a one-row column.
func (e *arithExpr) vectorKernel() bool {
	switch e.t.Kind {
	case KFloat:
		return e.op != '%'
	case KDecimal:
		return e.t.Prec <= 18 && (e.op == '+' || e.op == '-' || e.op == '*')
	}
	return false
}

// operand evaluates one side of e: a constant that a kernel broadcasts as
// a one-row column, anything else as a column of the batch's rows.
func (e *arithExpr) operand(side Expr, b *Batch) (*Col, error) {
	if k, ok := IsConst(side); ok && b.N > 1 && e.vectorKernel() {
		switch v := k.V.(type) {
		case float64:
			if e.t.Kind == KFloat {
				return &Col{T: k.T, Len: 1, F: []float64{v}}, nil
			}
		case int64:
			if e.t.Kind == KDecimal && k.T.Kind == KDecimal {
				return &Col{T: k.T, Len: 1, I: []int64{v}}, nil
			}
		}
	}
	return side.Eval(b)
}

// negExpr is unary minus.
type negExpr struct {
	named
	e Expr
}

func (e *negExpr) Type() Type { return e.e.Type() }

func (e *negExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	return function.Negate(c, e.String())
}

// uhugeOperand reports an operand that arithmetic with a UHUGEINT keeps
// UHUGEINT, as DuckDB: a UHUGEINT, an unsigned integer, or an integer
// literal that is not negative.
func uhugeOperand(e Expr) bool {
	t := e.Type()
	switch {
	case t.Kind == KUHuge || t.Kind == KUint:
		return true
	case t.Op() == KInt:
		v, lit := intLiteral(e)
		return lit && v >= 0
	}
	return false
}

package plan

import (
	"bytes"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// likeExpr is `e [NOT] LIKE pattern` (ILIKE when fold is set).
type likeExpr struct {
	named
	e, pat Expr
	esc    byte
	not    bool
	fold   bool
	m      *function.LikeMatcher // for a constant pattern
}

func (e *likeExpr) Type() Type { return Type{Kind: KBool} }

func (e *likeExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	n := b.N
	var pc *Col
	if e.m == nil {
		if pc, err = e.pat.Eval(b); err != nil {
			return nil, err
		}
	}
	out := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n)}
	if pc != nil {
		out.Null = mergeNulls(n, c, pc)
	} else {
		out.Null = mergeNulls(n, c)
	}
	for i := 0; i < n; i++ {
		if out.IsNull(i) {
			continue
		}
		m := e.m
		if m == nil {
			m = function.CompileLike(string(pc.Str(i)), e.esc, e.fold)
		}
		s := c.Str(i)
		if e.fold {
			s = bytes.ToLower(s)
		}
		out.B[i] = m.Match(s) != e.not
	}
	return out, nil
}

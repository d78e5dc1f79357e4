package plan

import (
	"bytes"
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"strings"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/value"
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/xwb1989/sqlparser"
)

// Expr is a bound expression evaluated on whole batches: what the
// operators of package exec evaluate (exec.Expr), with its SQL text.
type Expr interface {
	kernels.Expr
	writeText(*strings.Builder)
	setText(string)
	setNode(sqlparser.Expr)
	hasText() bool
}

// named carries an expression's SQL text for EXPLAIN and error messages,
// formatted from the parser's node, or joined from parts (strings and
// operands), only when asked for. Operators keep their operands' texts
// as parts rather than copying them, so that binding a chain of n
// operators takes O(n), not O(n²).
type named struct {
	text  string
	node  sqlparser.Expr
	parts []any // string or expr
}

func (n *named) String() string {
	if n.text == "" {
		if n.node != nil {
			n.text = sqlparser.String(n.node)
		} else if n.parts != nil {
			var b strings.Builder
			n.writeParts(&b)
			n.text = b.String()
		}
	}
	return n.text
}

// writeText appends the text to b without keeping the texts of the
// operands it joins.
func (n *named) writeText(b *strings.Builder) {
	if n.text != "" || n.parts == nil {
		b.WriteString(n.String())
		return
	}
	n.writeParts(b)
}

func (n *named) writeParts(b *strings.Builder) {
	for _, p := range n.parts {
		switch p := p.(type) {
		case string:
			b.WriteString(p)
		case Expr:
			p.writeText(b)
		}
	}
}

func (n *named) setText(s string)         { n.text, n.parts = s, nil }
func (n *named) setParts(parts ...any)    { n.text, n.parts = "", parts }
func (n *named) setNode(e sqlparser.Expr) { n.node = e }
func (n *named) hasText() bool            { return n.text != "" || n.node != nil || n.parts != nil }
func withText(e Expr, s string) Expr      { e.setText(s); return e }

// Slot is a column position in the batches an expression sees; it is
// filled in once the plan knows which columns it reads.
type Slot struct{ Idx int }

type ColExpr struct {
	named
	S   *Slot
	T   Type
	col *ScopeCol // the table column, nil for computed inputs
}

func (e *ColExpr) Type() Type { return e.T }
func (e *ColExpr) Eval(b *Batch) (*Col, error) {
	return b.Cols[e.S.Idx], nil
}

type ConstExpr struct {
	named
	T Type
	V any
}

func (e *ConstExpr) Type() Type { return e.T }
func (e *ConstExpr) Eval(b *Batch) (*Col, error) {
	return ConstCol(e.T, e.V, b.N), nil
}

func IsConst(e Expr) (*ConstExpr, bool) { c, ok := e.(*ConstExpr); return c, ok }

// cmpOp is a comparison operator.
type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
	opNullSafeEq
)

var cmpNames = [...]string{"=", "<>", "<", "<=", ">", ">=", "<=>"}

// cmpOps are the comparison operators by the parser's spelling.
var cmpOps = map[string]cmpOp{"=": opEq, "!=": opNe, "<>": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe, "<=>": opNullSafeEq}

// flipCmp is op with its operands exchanged (a < b is b > a).
func flipCmp(op cmpOp) cmpOp {
	switch op {
	case opLt:
		return opGt
	case opLe:
		return opGe
	case opGt:
		return opLt
	case opGe:
		return opLe
	}
	return op
}

func holds(op cmpOp, c int) bool {
	switch op {
	case opEq, opNullSafeEq:
		return c == 0
	case opNe:
		return c != 0
	case opLt:
		return c < 0
	case opLe:
		return c <= 0
	case opGt:
		return c > 0
	}
	return c >= 0
}

type cmpExpr struct {
	named
	op   cmpOp
	l, r Expr
}

func (e *cmpExpr) Type() Type { return Type{Kind: KBool} }

func (e *cmpExpr) Eval(b *Batch) (*Col, error) {
	lc, err := e.l.Eval(b)
	if err != nil {
		return nil, err
	}
	n := b.N
	out := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n)}
	if k, ok := IsConst(e.r); ok && k.V != nil && e.op != opNullSafeEq {
		out.Null = mergeNulls(n, lc)
		cmpConst(e.op, lc, k.V, out.B)
		return out, nil
	}
	rc, err := e.r.Eval(b)
	if err != nil {
		return nil, err
	}
	if e.op == opNullSafeEq {
		for i := 0; i < n; i++ {
			ln, rn := lc.IsNull(i), rc.IsNull(i)
			switch {
			case ln || rn:
				out.B[i] = ln && rn
			default:
				out.B[i] = vec.CompareAt(lc, i, rc, i) == 0
			}
		}
		return out, nil
	}
	out.Null = mergeNulls(n, lc, rc)
	switch {
	case lc.I != nil && rc.I != nil && lc.T.Kind != KUint:
		x, y := lc.I[:n], rc.I[:n]
		for i := range x {
			out.B[i] = holds(e.op, cmpOrdered(x[i], y[i]))
		}
	case lc.F != nil && rc.F != nil:
		x, y := lc.F[:n], rc.F[:n]
		for i := range x {
			out.B[i] = holds(e.op, vec.CmpFloat(x[i], y[i]))
		}
	case lc.Off != nil && rc.Off != nil:
		for i := 0; i < n; i++ {
			out.B[i] = holds(e.op, compareStrings(lc.T, lc.Str(i), rc.Str(i)))
		}
	default:
		for i := 0; i < n; i++ {
			if !lc.IsNull(i) && !rc.IsNull(i) {
				out.B[i] = holds(e.op, vec.CompareAt(lc, i, rc, i))
			}
		}
	}
	return out, nil
}

// cmpConst compares every row of c with constant k (same type).
func cmpConst(op cmpOp, c *Col, k any, out []bool) {
	n := c.Len
	switch {
	case c.I != nil && c.T.Kind != KUint:
		x := c.I[:n]
		y := k.(int64)
		switch op {
		case opEq:
			for i, v := range x {
				out[i] = v == y
			}
		case opNe:
			for i, v := range x {
				out[i] = v != y
			}
		case opLt:
			for i, v := range x {
				out[i] = v < y
			}
		case opLe:
			for i, v := range x {
				out[i] = v <= y
			}
		case opGt:
			for i, v := range x {
				out[i] = v > y
			}
		case opGe:
			for i, v := range x {
				out[i] = v >= y
			}
		}
	case c.F != nil:
		x := c.F[:n]
		y := k.(float64)
		if y != y {
			for i, v := range x {
				out[i] = holds(op, vec.CmpFloat(v, y))
			}
			return
		}
		switch op {
		case opEq:
			for i, v := range x {
				out[i] = v == y
			}
		case opNe:
			for i, v := range x {
				out[i] = v != y
			}
		case opLt:
			for i, v := range x {
				out[i] = v < y
			}
		case opLe:
			for i, v := range x {
				out[i] = v <= y
			}
		case opGt:
			for i, v := range x {
				out[i] = v > y || v != v
			}
		case opGe:
			for i, v := range x {
				out[i] = v >= y || v != v
			}
		}
	case c.Off != nil:
		var y []byte
		switch s := k.(type) {
		case string:
			y = []byte(s)
		case []byte:
			y = s
		}
		if op == opEq || op == opNe {
			for i := 0; i < n; i++ {
				out[i] = bytes.Equal(c.Data[c.Off[i]:c.Off[i+1]], y) == (op == opEq)
			}
			return
		}
		for i := 0; i < n; i++ {
			out[i] = holds(op, compareStrings(c.T, c.Data[c.Off[i]:c.Off[i+1]], y))
		}
	case c.H != nil && c.Dict == nil && c.T.Kind == KUHuge:
		y := uhugeSlot(k) // the constant has the column's type
		for i, v := range c.H[:n] {
			out[i] = holds(op, v.Cmp(y))
		}
	case c.H != nil && c.Dict == nil && hugeConst(k, c.T.Scale):
		y := hugeScalar(k, c.T.Scale)
		for i, v := range c.H[:n] {
			out[i] = holds(op, v.Cmp(y))
		}
	default:
		for i := 0; i < n; i++ {
			if !c.IsNull(i) {
				out[i] = holds(op, vec.CompareScalars(c.T, c.Get(i), k))
			}
		}
	}
}

// hugeConst reports whether k is a decimal of the given scale that a
// 128-bit integer holds (a DECIMAL(p > 18) constant compared with a
// column of its type).
func hugeConst(k any, scale int) bool {
	d, ok := k.(value.Decimal)
	return ok && d.Unscaled != nil && int(d.Scale) == scale && d.Unscaled.BitLen() < 127
}

// Boolean connectives with SQL's three-valued logic.

type AndExpr struct {
	named
	Terms []Expr
}

func (e *AndExpr) Type() Type { return Type{Kind: KBool} }
func (e *AndExpr) Eval(b *Batch) (*Col, error) {
	return evalLogic(b, e.Terms, true)
}

type orExpr struct {
	named
	terms []Expr
}

func (e *orExpr) Type() Type { return Type{Kind: KBool} }
func (e *orExpr) Eval(b *Batch) (*Col, error) {
	return evalLogic(b, e.terms, false)
}

func evalLogic(b *Batch, terms []Expr, and bool) (*Col, error) {
	n := b.N
	out := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n)}
	// Start from the identity: TRUE for AND, FALSE for OR.
	for i := range out.B {
		out.B[i] = and
	}
	for _, t := range terms {
		c, err := t.Eval(b)
		if err != nil {
			return nil, err
		}
		for i := 0; i < n; i++ {
			cn := c.IsNull(i)
			on := out.IsNull(i)
			cv := !cn && c.B[i]
			if and {
				switch {
				case !cn && !cv, !on && !out.B[i]:
					out.B[i] = false
					if on {
						out.Null[i] = false
					}
				case cn || on:
					out.SetNull(i)
					out.B[i] = false
				default:
					out.B[i] = true
				}
			} else {
				switch {
				case cv, !on && out.B[i]:
					out.B[i] = true
					if on {
						out.Null[i] = false
					}
				case cn || on:
					out.SetNull(i)
					out.B[i] = false
				default:
					out.B[i] = false
				}
			}
		}
	}
	return out, nil
}

type notExpr struct {
	named
	e Expr
}

func (e *notExpr) Type() Type { return Type{Kind: KBool} }
func (e *notExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &Col{T: c.T, Len: b.N, B: make([]bool, b.N), Null: c.Null}
	for i := 0; i < b.N; i++ {
		out.B[i] = !c.B[i] && !c.IsNull(i)
	}
	return out, nil
}

type isNullExpr struct {
	named
	e   Expr
	not bool
}

func (e *isNullExpr) Type() Type { return Type{Kind: KBool} }
func (e *isNullExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &Col{T: Type{Kind: KBool}, Len: b.N, B: make([]bool, b.N)}
	for i := range out.B {
		out.B[i] = c.IsNull(i) != e.not
	}
	return out, nil
}

// isBoolExpr is IS [NOT] TRUE / FALSE: never NULL.
type isBoolExpr struct {
	named
	e         Expr
	want, not bool
}

func (e *isBoolExpr) Type() Type { return Type{Kind: KBool} }
func (e *isBoolExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	out := &Col{T: Type{Kind: KBool}, Len: b.N, B: make([]bool, b.N)}
	for i := range out.B {
		out.B[i] = (!c.IsNull(i) && c.B[i] == e.want) != e.not
	}
	return out, nil
}

// inExpr is `e [NOT] IN (constants)`: vals, looked up in ints or strs
// (prepare), or a set of integers alone (inIntSet).
type inExpr struct {
	named
	e       Expr
	vals    []any // scalars of e's type, no NULLs
	hasNull bool
	not     bool
	ints    *intset.Set
	strs    map[string]struct{}
}

func (e *inExpr) Type() Type { return Type{Kind: KBool} }

// inIntSet is `e IN (set)` for an integer e and a set given as such (the
// outer keys a grouped correlated subquery is restricted to, reduce.go),
// not as listed values.
func inIntSet(e Expr, set *intset.Set) *inExpr {
	x := &inExpr{e: e, ints: set}
	lo, hi, _ := set.Range()
	x.setParts("", e, fmt.Sprintf(" IN (%d integers from %d to %d)", set.Len(), lo, hi))
	return x
}

func (e *inExpr) prepare() {
	switch Storage(e.e.Type()) {
	case stInt:
		ints := make([]int64, 0, len(e.vals))
		for _, v := range e.vals {
			switch x := v.(type) {
			case int64:
				ints = append(ints, x)
			case uint64:
				ints = append(ints, int64(x))
			}
		}
		e.ints = intset.New(ints)
	case stBytes:
		e.strs = make(map[string]struct{}, len(e.vals))
		for _, v := range e.vals {
			switch x := v.(type) {
			case string:
				e.strs[x] = struct{}{}
			case []byte:
				e.strs[string(x)] = struct{}{}
			}
		}
	}
}

func (e *inExpr) Eval(b *Batch) (*Col, error) {
	c, err := e.e.Eval(b)
	if err != nil {
		return nil, err
	}
	n := b.N
	out := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n)}
	if c.Null != nil {
		out.Null = append([]bool(nil), c.Null[:n]...)
	}
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			continue
		}
		var found bool
		switch {
		case e.ints != nil:
			found = e.ints.Has(c.I[i])
		case e.strs != nil:
			_, found = e.strs[string(c.Str(i))]
		default:
			x := c.Get(i)
			for _, v := range e.vals {
				if vec.CompareScalars(c.T, x, v) == 0 {
					found = true
					break
				}
			}
		}
		switch {
		case found:
			out.B[i] = !e.not
		case e.hasNull:
			out.SetNull(i)
		default:
			out.B[i] = e.not
		}
	}
	return out, nil
}

// caseExpr is a searched CASE (a simple CASE is bound as one).
type caseExpr struct {
	named
	conds []Expr
	vals  []Expr
	els   Expr
	t     Type
}

func (e *caseExpr) Type() Type { return e.t }
func (e *caseExpr) Eval(b *Batch) (*Col, error) {
	n := b.N
	// src[i] is the branch whose value row i takes (-1: NULL), at[i] the
	// row's position among that branch's rows.
	src := make([]int32, n)
	for i := range src {
		src[i] = -1
	}
	at := make([]int32, n)
	rows := make([][]int32, len(e.vals)+1)
	open := make([]int32, n) // rows no condition has taken yet
	for i := range open {
		open[i] = int32(i)
	}
	for k, cond := range e.conds {
		if len(open) == 0 {
			break
		}
		// A condition sees only the rows still open, a branch's value only
		// the rows that take it: what SQL does not evaluate raises no error.
		cc, err := evalOn(cond, b, open)
		if err != nil {
			return nil, err
		}
		still := open[:0:0]
		for j, i := range open {
			if cc.IsNull(j) || !cc.B[j] {
				still = append(still, i)
				continue
			}
			src[i], at[i] = int32(k), int32(len(rows[k]))
			rows[k] = append(rows[k], i)
		}
		open = still
	}
	if e.els != nil {
		for _, i := range open {
			k := len(e.vals)
			src[i], at[i] = int32(k), int32(len(rows[k]))
			rows[k] = append(rows[k], i)
		}
	}
	vals := make([]*Col, len(e.vals)+1)
	for k, idx := range rows {
		if len(idx) == 0 {
			continue
		}
		ve := e.els
		if k < len(e.vals) {
			ve = e.vals[k]
		}
		c, err := evalOn(ve, b, idx)
		if err != nil {
			return nil, err
		}
		// The gathering below reads values in place, not a coded
		// column's codes (a GROUP BY key's column comes coded: GROUP BY
		// coalesce(g, s1), g indexed an empty Off and panicked).
		vals[k] = c.Decoded()
	}
	out := newCol(e.t, n)
	st := Storage(e.t)
	if st == stBytes {
		out.Off = out.Off[:1]
	}
	for i := 0; i < n; i++ {
		k := src[i]
		j := int(at[i])
		if k < 0 || vals[k].IsNull(j) || vals[k].T.Kind == KNull {
			out.SetNull(i)
			if st == stBytes {
				out.Off = append(out.Off, int32(len(out.Data)))
			}
			continue
		}
		c := vals[k]
		switch st {
		case stInt:
			out.I[i] = c.I[j]
		case stFloat:
			out.F[i] = c.F[j]
		case stBool:
			out.B[i] = c.B[j]
		case stBytes:
			out.Data = append(out.Data, c.Str(j)...)
			out.Off = append(out.Off, int32(len(out.Data)))
		case stHuge:
			out.H[i] = c.H[j]
		default:
			out.A[i] = c.Get(j)
		}
	}
	return out, nil
}

// evalOn evaluates e on the rows idx of b (all of them without a copy
// when idx is every row, in order).
func evalOn(e Expr, b *Batch, idx []int32) (*Col, error) {
	if len(idx) == b.N {
		return e.Eval(b)
	}
	return e.Eval(kernels.TakeBatch(b, idx))
}

// funcExpr is a scalar function evaluated row by row on typed accessors;
// the common functions have vectorized bodies in vec.
type funcExpr struct {
	named
	name string
	args []Expr
	t    Type
	// row computes one row; args hold the evaluated argument columns.
	row func(args []*Col, i int) (any, error)
	// strict functions return NULL when any argument is NULL.
	strict bool
	vec    func(args []*Col, n int) (*Col, error)
}

func (e *funcExpr) Type() Type { return e.t }
func (e *funcExpr) Eval(b *Batch) (*Col, error) {
	args := make([]*Col, len(e.args))
	for i, a := range e.args {
		c, err := a.Eval(b)
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	if e.vec != nil {
		return e.vec(args, b.N)
	}
	bld := NewBuilder(e.t, b.N)
	for i := 0; i < b.N; i++ {
		if e.strict {
			null := false
			for _, a := range args {
				if a.IsNull(i) {
					null = true
					break
				}
			}
			if null {
				bld.Add(nil)
				continue
			}
		}
		v, err := e.row(args, i)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.name, err)
		}
		bld.Add(v)
	}
	return bld.C, nil
}

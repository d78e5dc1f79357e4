package exec

import (
	"context"
	"io"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// CastFunc converts a column to type t: the planner's casts, which the
// operators that bring their inputs to one type (UNION, INTERSECT and
// EXCEPT, a materialized input) are given.
type CastFunc func(c *vec.Col, t vec.Type) (*vec.Col, error)

// OutBatch is the number of rows an operator that materialized its result
// returns per batch.
const OutBatch = 4096

// TakeBatch is the rows idx of b.
func TakeBatch(b *vec.Batch, idx []int32) *vec.Batch {
	out := &vec.Batch{N: len(idx), Cols: make([]*vec.Col, len(b.Cols))}
	for i, c := range b.Cols {
		if c != nil {
			out.Cols[i] = c.Take(idx)
		}
	}
	return out
}

// NextSlice returns the rows of a materialized result from *pos on, at
// most OutBatch of them, and moves *pos past them; io.EOF at the end.
func NextSlice(out *vec.Batch, pos *int) (*vec.Batch, error) {
	if *pos >= out.N {
		return nil, io.EOF
	}
	end := min(*pos+OutBatch, out.N)
	idx := make([]int32, 0, end-*pos)
	for i := *pos; i < end; i++ {
		idx = append(idx, int32(i))
	}
	*pos = end
	if len(idx) == out.N {
		return out, nil
	}
	return TakeBatch(out, idx), nil
}

// Passing lists the rows of b for which pred is true.
func Passing(b *vec.Batch, pred Expr) ([]int32, error) {
	c, err := pred.Eval(b)
	if err != nil {
		return nil, err
	}
	idx := make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		if c.B[i] && !c.IsNull(i) {
			idx = append(idx, int32(i))
		}
	}
	return idx, nil
}

// FilterRows keeps the rows of b for which pred is true.
func FilterRows(b *vec.Batch, pred Expr) (*vec.Batch, error) {
	idx, err := Passing(b, pred)
	if err != nil || len(idx) == b.N {
		return b, err
	}
	return TakeBatch(b, idx), nil
}

// ProjectBatch evaluates exprs on b, one column each; a NULL-typed result
// becomes a column of NULLs of its expression's type.
func ProjectBatch[E Expr](b *vec.Batch, exprs []E) (*vec.Batch, error) {
	out := &vec.Batch{N: b.N, Cols: make([]*vec.Col, len(exprs))}
	for i, e := range exprs {
		c, err := e.Eval(b)
		if err != nil {
			return nil, err
		}
		if c.T.Kind == vec.KNull {
			c = vec.NullCol(e.Type(), b.N)
		}
		out.Cols[i] = c
	}
	return out, nil
}

// NeedsCast reports whether values of type a must be converted to be
// stored and compared as type b.
func NeedsCast(a, b vec.Type) bool {
	return a.Kind != b.Kind || vec.Storage(a) != vec.Storage(b) || a.Kind == vec.KDecimal && a.Scale != b.Scale ||
		vec.IsUnion(b) && a.SQLName() != b.SQLName() // a UNION's tags are positions in its own members
}

// CastBatch brings b's columns to the given types, in place.
func CastBatch(b *vec.Batch, types []vec.Type, cast CastFunc) (*vec.Batch, error) {
	for i, c := range b.Cols {
		if NeedsCast(c.T, types[i]) {
			cc, err := cast(c, types[i])
			if err != nil {
				return nil, err
			}
			b.Cols[i] = cc
		}
	}
	return b, nil
}

// DrainHeld reads every batch of n into one batch of the given types,
// each column's storage allocated once at its final size, accounting what
// it holds to m (nil: not accounted) as operator what, batch by batch.
// Columns of another storage are converted by cast.
func DrainHeld(ctx context.Context, n Node, types []vec.Type, cast CastFunc, m *OpMemory, what func() string) (*vec.Batch, error) {
	parts := make([][]*vec.Col, len(types))
	total := 0
	for {
		b, err := n.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		for i, c := range b.Cols {
			if c.T.Kind != types[i].Kind && vec.Storage(c.T) != vec.Storage(types[i]) {
				if c, err = cast(c, types[i]); err != nil {
					return nil, err
				}
			}
			parts[i] = append(parts[i], c)
		}
		total += b.N
		if m != nil {
			if err := m.Add(ctx, BatchBytes(b), what); err != nil {
				return nil, err
			}
		}
	}
	out := &vec.Batch{N: total, Cols: make([]*vec.Col, len(types))}
	for i, t := range types {
		out.Cols[i] = ConcatCols(t, parts[i], total)
	}
	if m != nil {
		// The batches and their concatenation are both held until here.
		if err := m.Add(ctx, BatchBytes(out), what); err != nil {
			return nil, err
		}
		if err := m.Set(ctx, BatchBytes(out), what); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// ConcatCols appends cols (of type t's storage, total rows) into one
// column allocated at its final size.
func ConcatCols(t vec.Type, cols []*vec.Col, total int) *vec.Col {
	for _, c := range cols {
		if c.Dropped {
			return vec.DroppedCol(t, total)
		}
	}
	dst := vec.EmptyCol(t)
	data, nulls := 0, false
	for _, c := range cols {
		if c.Off != nil && c.Len > 0 {
			data += int(c.Off[c.Len] - c.Off[0])
		}
		nulls = nulls || c.Null != nil
	}
	if nulls {
		dst.Null = make([]bool, 0, total)
	}
	switch vec.Storage(t) {
	case vec.StInt:
		dst.I = make([]int64, 0, total)
	case vec.StFloat:
		dst.F = make([]float64, 0, total)
	case vec.StBool:
		dst.B = make([]bool, 0, total)
	case vec.StBytes:
		dst.Off = make([]int32, 1, total+1)
		dst.Data = make([]byte, 0, data)
	case vec.StHuge:
		dst.H = make([]num.Int128, 0, total)
	default:
		dst.A = make([]any, 0, total)
	}
	for _, c := range cols {
		vec.AppendCol(dst, c.Decoded())
	}
	return dst
}

package scan

import (
	"github.com/carquet-go/carquet/parquet/schema"
)

// binding resolves a predicate's column names for one file: the batch
// vector index and primitive field of a file column, or the constant value
// of a partition column.
type binding interface {
	// column returns the vector index and field of a column the file holds,
	// ok false when the name is a partition column or missing from the file
	// (its value is then partValue, nil for a missing column).
	column(name string) (idx int, f *schema.Field, partValue any, ok bool)
}

// compile turns a predicate into an evaluator for one file.
func compile(p Predicate, b binding) evaluator {
	switch x := p.(type) {
	case And:
		terms := make([]evaluator, len(x.Terms))
		for i, t := range x.Terms {
			terms[i] = compile(t, b)
		}
		return andEval{terms}
	case Or:
		terms := make([]evaluator, len(x.Terms))
		for i, t := range x.Terms {
			terms[i] = compile(t, b)
		}
		return orEval{terms}
	case Not:
		return notEval{compile(x.Term, b)}
	}
	name := Columns(nil, p)[0]
	idx, f, part, ok := b.column(name)
	if !ok {
		return constTerm(p, part)
	}
	e := &leafEval{col: idx, pred: p, field: f}
	if f.Kind != schema.Primitive {
		// Only IS [NOT] NULL applies to a whole struct, list or map.
		e.ci = colInfo{node: f.Node, dom: domNone}
		return e
	}
	e.ci = describe(f.Node)
	var consts []any
	switch x := p.(type) {
	case Compare:
		consts = []any{x.Value}
	case In:
		consts = x.Values
		if x.Ints != nil && e.ci.dom == domInt {
			e.inInts = x.Ints
			return e
		}
		if x.Ints != nil {
			// Another domain (unsigned integers): compared value by value.
			consts = nil
			for _, v := range x.Ints.Values() {
				consts = append(consts, v)
			}
		}
	}
	e.bounds = make([]bound, 0, len(consts))
	for _, c := range consts {
		bd, ok := bindConst(e.ci, c)
		if !ok {
			e.byValue = true
		}
		bd.origin = c
		e.bounds = append(e.bounds, bd)
	}
	if e.byValue {
		for i := range e.bounds {
			e.bounds[i] = bound{origin: e.bounds[i].origin}
		}
	}
	if _, ok := p.(In); ok {
		e.buildInSet()
	}
	return e
}

// constTerm evaluates a leaf predicate on a constant (a partition value, or
// NULL for a column the file lacks).
func constTerm(p Predicate, v any) evaluator {
	if x, ok := p.(IsNull); ok {
		return constEval{value: (v == nil) != x.Not}
	}
	if v == nil {
		return constEval{null: true}
	}
	switch x := p.(type) {
	case Compare:
		c, ok := compareConst(v, x.Value)
		if !ok {
			return constEval{null: true}
		}
		return constEval{value: holds(x.Op, c)}
	case In:
		if x.Ints != nil {
			if i, ok := v.(int64); ok {
				return constEval{value: x.Ints.Has(i) != x.Not}
			}
			return constEval{null: true}
		}
		for _, c := range x.Values {
			if r, ok := compareConst(v, c); ok && r == 0 {
				return constEval{value: !x.Not}
			}
		}
		return constEval{value: x.Not}
	case Prefix:
		s, ok := v.(string)
		return constEval{value: ok && len(s) >= len(x.Prefix) && s[:len(x.Prefix)] == x.Prefix}
	}
	return constEval{null: true}
}

// compareConst compares a partition value (int64 or string) with a constant.
func compareConst(v, c any) (int, bool) {
	switch x := v.(type) {
	case int64:
		r, ok := toRat(c)
		if !ok {
			return 0, false
		}
		xr, _ := toRat(x)
		return xr.Cmp(r), true
	case string:
		switch y := c.(type) {
		case string:
			return cmpS(x, y), true
		case int64, float64:
			// A string partition compared with a number: compare as numbers
			// when the partition value is numeric, else as text.
			if r, ok := toRat(x); ok {
				yr, _ := toRat(y)
				return r.Cmp(yr), true
			}
		}
	}
	return compareAny(v, c)
}

package plan

import (
	"math"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// List functions of DuckDB's list that carquet lacked, with DuckDB's
// (v1.5) results and errors: the vector distances and products
// (list_distance, list_cosine_similarity, ... and their array_ names),
// array_cross_product, list_resize, list_select, list_where,
// list_grade_up, and the aliases array_aggr and array_zip.
//
// DuckDB's array_ forms of the distances ask for fixed-size arrays;
// carquet has no ARRAY type, so they take lists of equal length, as the
// list_ forms do.

// vectorOps are the distance and product functions: their result from
// the dot product and the squared norms and distance of two vectors.
var vectorOps = map[string]func(dot, nx, ny, dist2 float64, n int) (float64, bool){
	"distance":               func(_, _, _, d2 float64, _ int) (float64, bool) { return math.Sqrt(d2), true },
	"dot_product":            func(dot, _, _, _ float64, _ int) (float64, bool) { return dot, true },
	"inner_product":          func(dot, _, _, _ float64, _ int) (float64, bool) { return dot, true },
	"negative_dot_product":   func(dot, _, _, _ float64, _ int) (float64, bool) { return -dot, true },
	"negative_inner_product": func(dot, _, _, _ float64, _ int) (float64, bool) { return -dot, true },
	"cosine_similarity":      cosineSimilarity,
	"cosine_distance": func(dot, nx, ny, d2 float64, n int) (float64, bool) {
		s, ok := cosineSimilarity(dot, nx, ny, d2, n)
		return 1 - s, ok
	},
}

// cosineSimilarity is dot / (|x| |y|) kept within [-1, 1] as DuckDB keeps
// it (a zero vector's NaN becomes -1); empty vectors have none.
func cosineSimilarity(dot, nx, ny, _ float64, n int) (float64, bool) {
	if n == 0 {
		return 0, false
	}
	s := dot / math.Sqrt(nx*ny)
	if math.IsNaN(s) {
		return -1, true
	}
	return math.Max(-1, math.Min(1, s)), true
}

// listFuncArity bounds the arguments of this file's functions.
var listFuncArity = map[string][2]int{
	"list_resize": {2, 3}, "array_resize": {2, 3},
	"list_select": {2, 2}, "array_select": {2, 2},
	"list_where": {2, 2}, "array_where": {2, 2},
	"list_grade_up": {1, 3}, "array_grade_up": {1, 3}, "grade_up": {1, 3},
	"array_aggr": {2, -1}, "array_zip": {1, -1}, "array_cross_product": {2, 2},
}

func init() {
	m := map[string]*fn{}
	for op := range vectorOps {
		m["list_"+op] = &fn{Min: 2, Max: 2}
		m["array_"+op] = &fn{Min: 2, Max: 2}
	}
	for name, a := range listFuncArity {
		m[name] = &fn{Min: a[0], Max: a[1]}
	}
	addFuncs(m)
}

// bindListMore binds this file's functions; ok is false for other names.
func (p *Planner) bindListMore(name string, args []Expr) (Expr, bool, error) {
	op := strings.TrimPrefix(strings.TrimPrefix(name, "list_"), "array_")
	if f := vectorOps[op]; f != nil && op != name {
		e, err := p.bindVectorOp(name, f, args)
		return e, true, err
	}
	var e Expr
	var err error
	switch name {
	case "list_resize", "array_resize":
		e, err = p.bindListResize(name, args)
	case "list_select", "array_select", "list_where", "array_where":
		e, err = p.bindListPick(name, args)
	case "list_grade_up", "array_grade_up", "grade_up":
		e, err = p.bindGradeUp(name, args)
	case "array_aggr": // DuckDB's alias of list_aggregate
		e, err = p.bindListAggregate(name, args)
	case "array_zip": // and of list_zip
		e, err = p.bindListZip(args)
	case "array_cross_product":
		e, err = p.bindCrossProduct(name, args)
	default:
		return nil, false, nil
	}
	return e, true, err
}

// bindVectorOp binds a distance or product of two lists of numbers, read
// as DOUBLE (FLOAT when both are FLOAT lists, as DuckDB types it).
func (p *Planner) bindVectorOp(name string, f func(dot, nx, ny, dist2 float64, n int) (float64, bool), args []Expr) (Expr, error) {
	rt, cast, err := p.castVectors(args)
	if err != nil {
		return nil, err
	}
	return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", rt, cast, func(v []any) (any, error) {
		x, y := v[0].([]any), v[1].([]any)
		if len(x) != len(y) {
			return nil, errorf("%s: list dimensions must be equal, got left length '%d' and right length '%d'", name, len(x), len(y))
		}
		var dot, nx, ny, d2 float64
		for i := range x {
			a, err := vectorElem(name, "left", x[i])
			if err != nil {
				return nil, err
			}
			b, err := vectorElem(name, "right", y[i])
			if err != nil {
				return nil, err
			}
			dot, nx, ny, d2 = dot+a*b, nx+a*a, ny+b*b, d2+(a-b)*(a-b)
		}
		r, ok := f(dot, nx, ny, d2, len(x))
		if !ok {
			return nil, nil
		}
		if rt.Float32 {
			r = float64(float32(r))
		}
		return r, nil
	}), nil
}

// bindCrossProduct binds array_cross_product(x, y) of two vectors of
// three numbers (DOUBLE, or FLOAT for two FLOAT lists).
func (p *Planner) bindCrossProduct(name string, args []Expr) (Expr, error) {
	rt, cast, err := p.castVectors(args)
	if err != nil {
		return nil, err
	}
	return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", Type{Kind: KNested, Elem: &rt}, cast, func(v []any) (any, error) {
		var x, y [3]float64
		for k, side := range []string{"left", "right"} {
			l := v[k].([]any)
			if len(l) != 3 {
				return nil, errorf("%s: %s argument must have 3 elements, not %d", name, side, len(l))
			}
			for i := range l {
				f, err := vectorElem(name, side, l[i])
				if err != nil {
					return nil, err
				}
				if k == 0 {
					x[i] = f
				} else {
					y[i] = f
				}
			}
		}
		return []any{x[1]*y[2] - x[2]*y[1], x[2]*y[0] - x[0]*y[2], x[0]*y[1] - x[1]*y[0]}, nil
	}), nil
}

// castVectors casts two lists of numbers to lists of their element type
// rt: DOUBLE, or FLOAT when both are FLOAT lists, as DuckDB types them.
func (p *Planner) castVectors(args []Expr) (rt Type, cast []Expr, err error) {
	rt = tFloat
	if isFloat32List(args[0].Type()) && isFloat32List(args[1].Type()) {
		rt.Float32 = true
	}
	cast, err = castAll(p, args, Type{Kind: KNested, Elem: &rt})
	return rt, cast, err
}

// isFloat32List reports whether t is a list of FLOAT.
func isFloat32List(t Type) bool {
	et, ok := listElem(t)
	return ok && et.Kind == KFloat && et.Float32
}

// vectorElem is an element of a vector as a float64; NULL is an error.
func vectorElem(name, side string, x any) (float64, error) {
	s, err := fromGo(tFloat, x)
	if err != nil {
		return 0, err
	}
	if s == nil {
		return 0, errorf("%s: %s argument can not contain NULL values", name, side)
	}
	return s.(float64), nil
}

// listOrNull is the element type of list argument a of function name;
// a bare NULL instead makes the call a NULL constant (null), as in DuckDB.
func listOrNull(name string, a Expr) (et Type, null Expr, err error) {
	if a.Type().Kind == KNull {
		return Type{}, &ConstExpr{T: Type{Kind: KNull}}, nil
	}
	et, err = listArgElem(name, a)
	return et, nil, err
}

// bindListResize binds list_resize(list, size[, value]): the list cut or
// padded to size elements with value (NULL by default). A NULL size gives
// an empty list; a negative size is an error.
func (p *Planner) bindListResize(name string, args []Expr) (Expr, error) {
	et, null, err := listOrNull(name, args[0])
	if null != nil || err != nil {
		return null, err
	}
	size, err := p.cast(args[1], TInt)
	if err != nil {
		return nil, err
	}
	parts := []Expr{args[0], size}
	if len(args) == 3 {
		fill, err := p.cast(args[2], plainType(et))
		if err != nil {
			return nil, err
		}
		parts = append(parts, fill)
	}
	e := nestedFunc(name+"(...)", args[0].Type(), parts, func(v []any) (any, error) {
		l, ok := v[0].([]any)
		if !ok {
			return nil, nil
		}
		n, _ := v[1].(int64)
		switch {
		case n < 0:
			return nil, errorf("%s: size %d is out of range (it must be 0 or more)", name, n)
		case n > maxSeries:
			return nil, errorf("%s: cannot resize a list to %d elements (at most %d)", name, n, maxSeries)
		}
		out := make([]any, n)
		copy(out, l)
		if len(v) == 3 && v[2] != nil {
			fill := toGo(plainType(et), v[2])
			for i := len(l); i < len(out); i++ {
				out[i] = fill
			}
		}
		return out, nil
	})
	e.strict = false
	return e, nil
}

// bindListPick binds list_select(list, indexes) (the elements at the
// 1-based indexes, NULL for one out of range) and list_where(list, mask)
// (the elements whose mask is true; a mask longer than the list gives
// NULLs). NULLs in the second list are an error, as in DuckDB.
func (p *Planner) bindListPick(name string, args []Expr) (Expr, error) {
	if _, null, err := listOrNull(name, args[0]); null != nil || err != nil {
		return null, err
	}
	where := strings.HasSuffix(name, "_where")
	st := TInt
	if where {
		st = TBool
	}
	sel, err := p.cast(args[1], Type{Kind: KNested, Elem: &st})
	if err != nil {
		return nil, err
	}
	return nestedFunc(name+"(...)", args[0].Type(), []Expr{args[0], sel}, func(v []any) (any, error) {
		l, picks := v[0].([]any), v[1].([]any)
		out := make([]any, 0, len(picks))
		for i, x := range picks {
			s, err := fromGo(st, x)
			if err != nil {
				return nil, err
			}
			if s == nil {
				return nil, errorf("NULLs are not allowed as list elements in the second input parameter.")
			}
			at := i
			if where {
				if !s.(bool) {
					continue
				}
			} else {
				at = int(min(max(s.(int64), 0), int64(len(l))+1)) - 1
			}
			if at < 0 || at >= len(l) {
				out = append(out, nil)
				continue
			}
			out = append(out, l[at])
		}
		return out, nil
	}), nil
}

// bindGradeUp binds list_grade_up(list[, 'ASC'|'DESC'[, 'NULLS FIRST'|
// 'NULLS LAST']]): the 1-based positions of the elements in sorted order
// (a stable sort; NULLs last unless asked).
func (p *Planner) bindGradeUp(name string, args []Expr) (Expr, error) {
	et, null, err := listOrNull(name, args[0])
	if null != nil || err != nil {
		return null, err
	}
	var opts [2]string
	for k, a := range args[1:] {
		c, ok := IsConst(a)
		s, isStr := c.V.(string)
		if !ok || !isStr {
			return nil, errorf("%s: the sort order must be a constant string", name)
		}
		opts[k] = strings.ToUpper(strings.TrimSpace(s))
	}
	desc, nullsFirst, err := gradeUpOrder(opts[0], opts[1])
	if err != nil {
		return nil, err
	}
	pt := plainType(et)
	return nestedFunc(name+"("+args[0].String()+")", Type{Kind: KNested, Elem: &TInt}, args[:1], func(v []any) (any, error) {
		vals, err := scalarsOf(et, v[0].([]any))
		if err != nil {
			return nil, err
		}
		idx := make([]int, len(vals))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := vals[idx[a]], vals[idx[b]]
			switch {
			case x == nil && y == nil:
				return false
			case x == nil:
				return nullsFirst
			case y == nil:
				return !nullsFirst
			}
			c := vec.CompareScalars(pt, x, y)
			return desc && c > 0 || !desc && c < 0
		})
		out := make([]any, len(idx))
		for k, i := range idx {
			out[k] = int64(i + 1)
		}
		return out, nil
	}), nil
}

// gradeUpOrder reads list_grade_up's order and NULL order ("" for the
// default: ascending, NULLs last).
func gradeUpOrder(order, nulls string) (desc, nullsFirst bool, err error) {
	switch order {
	case "", "ASC", "ASCENDING":
	case "DESC", "DESCENDING":
		desc = true
	default:
		return false, false, errorf("unrecognized value %q for the sort order: 'ASC' or 'DESC'", order)
	}
	switch nulls {
	case "", "NULLS LAST":
	case "NULLS FIRST":
		nullsFirst = true
	default:
		return false, false, errorf("unrecognized value %q for the NULL order: 'NULLS FIRST' or 'NULLS LAST'", nulls)
	}
	return desc, nullsFirst, nil
}

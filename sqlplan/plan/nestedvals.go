package plan

import (
	"fmt"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/function"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"github.com/xwb1989/sqlparser"
)

// Nested values (lists, structs, maps) between Go and the engine's
// representation, list/map helpers, indexing and unnest.

// listElem is the element type of a list type.
// listArgElem is the element type of argument a of function name, or the
// error that a is not a list.
func listArgElem(name string, a Expr) (Type, error) {
	et, ok := listElem(a.Type())
	if !ok {
		return Type{}, errorf("%s needs a list, not %s", name, a.Type().SQLName())
	}
	return et, nil
}

func listElem(t Type) (Type, bool) {
	if t.Kind != KNested {
		return Type{}, false
	}
	if f := t.Field; f != nil {
		if f.Kind == schema.List && len(f.Children) == 1 {
			return TypeOfField(f.Children[0]), true
		}
		return Type{}, false
	}
	if t.Elem != nil {
		return *t.Elem, true
	}
	return Type{}, false
}

// mapKV is the key and value types of a map type.
func mapKV(t Type) (Type, Type, bool) {
	if t.Kind != KNested {
		return Type{}, Type{}, false
	}
	if f := t.Field; f != nil {
		if f.Kind != schema.Map || len(f.Children) == 0 {
			return Type{}, Type{}, false
		}
		v := Type{Kind: KNull}
		if len(f.Children) > 1 {
			v = TypeOfField(f.Children[1])
		}
		return TypeOfField(f.Children[0]), v, true
	}
	if t.MapOf && len(t.Fields) == 2 {
		return t.Fields[0].Type, t.Fields[1].Type, true
	}
	return Type{}, Type{}, false
}

// structField is the type of a struct type's field (by name, any case)
// and its exact name.
func structField(t Type, name string) (Type, string, bool) {
	if t.Kind != KNested {
		return Type{}, "", false
	}
	if f := t.Field; f != nil {
		if f.Kind != schema.Struct {
			return Type{}, "", false
		}
		for _, c := range f.Children {
			if strings.EqualFold(c.Name, name) {
				return TypeOfField(c), c.Name, true
			}
		}
		return Type{}, "", false
	}
	if t.MapOf || t.Elem != nil {
		return Type{}, "", false
	}
	for _, f := range t.Fields {
		if strings.EqualFold(f.Name, name) {
			return f.Type, f.Name, true
		}
	}
	return Type{}, "", false
}

// plainType is t without its Parquet field, except for nested types,
// which need it to know their elements.
func plainType(t Type) Type {
	if t.Kind == KNested {
		return t
	}
	return WithoutField(t)
}

// fromGo converts a leaf of a nested value to the scalar of type t.
func fromGo(t Type, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	bad := func() (any, error) { return nil, errorf("cannot read %T as %s", v, t.SQLName()) }
	switch t.Kind {
	case KNested:
		return v, nil
	case KInt, KUint:
		switch x := v.(type) {
		case int8:
			return int64(x), nil
		case int16:
			return int64(x), nil
		case int32:
			return int64(x), nil
		case int64:
			return x, nil
		case uint8:
			return int64(x), nil
		case uint16:
			return int64(x), nil
		case uint32:
			return int64(x), nil
		case uint64:
			if t.Kind == KUint {
				return x, nil
			}
			return int64(x), nil
		}
		return bad()
	case KFloat:
		switch x := v.(type) {
		case float32:
			return float64(x), nil
		case float64:
			return x, nil
		}
		return bad()
	case KBool:
		if x, ok := v.(bool); ok {
			return x, nil
		}
		return bad()
	case KInterval:
		switch x := v.(type) {
		case Interval:
			return x, nil
		case value.Interval:
			return vec.ParquetInterval(x), nil
		case string:
			iv, err := function.ParseIntervalText(x)
			if err != nil {
				return bad()
			}
			return iv, nil
		}
		return bad()
	case KString, KUUID:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		case [16]byte:
			return fmt.Sprintf("%x-%x-%x-%x-%x", x[:4], x[4:6], x[6:8], x[8:10], x[10:]), nil
		}
		return fmt.Sprint(v), nil
	case KBytes:
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
		return bad()
	case KTimeTZ:
		// A list's TIMETZ is vec.TimeTZValue's time.Time: the time of
		// day after 0001-01-01 in a fixed zone of the offset (24:00:00
		// is the next day's midnight).
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		_, off := x.Zone()
		day := time.Date(1, 1, 1, 0, 0, 0, 0, x.Location())
		return timetzKey(x.Sub(day).Microseconds(), int64(off)), nil
	case KDate, KTimestamp, KTime:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		switch t.Kind {
		case KDate:
			return function.TimeToDays(x), nil
		case KTime:
			return function.ConvertTimeUnit(nanosOfDay(x.UTC()), Type{Kind: KTime, Nanos: true}, t)
		}
		if t.Nanos {
			return function.TimeToNanos(x)
		}
		return x.UnixMicro(), nil
	case KDecimal:
		var d value.Decimal
		switch x := v.(type) {
		case value.Decimal:
			d = x
		case string:
			r, ok := new(big.Rat).SetString(x)
			if !ok {
				return bad()
			}
			d = ratDecimal(r, t.Scale)
		default:
			return bad()
		}
		d = ratDecimal(decRat(d), t.Scale)
		if t.Prec <= 18 {
			return d.Unscaled.Int64(), nil
		}
		return d, nil
	}
	return bad()
}

// listAndValue binds f(list, value) (list_contains, list_position): the
// list, the value cast to its element type, and that type.
func (p *Planner) listAndValue(name string, args []Expr) (Expr, Expr, Type, error) {
	if len(args) != 2 {
		return nil, nil, Type{}, errorf("%s takes a list and a value", name)
	}
	et, err := listArgElem(name, args[0])
	if err != nil {
		return nil, nil, Type{}, err
	}
	v, err := p.cast(args[1], plainType(et))
	if err != nil {
		return nil, nil, Type{}, err
	}
	return args[0], v, et, nil
}

// listIndex is the index of the first element of l equal to v, or -1.
func listIndex(et Type, l []any, v any) (int, error) {
	for i, el := range l {
		s, err := fromGo(et, el)
		if err != nil {
			return -1, err
		}
		if s != nil && vec.CompareScalars(plainType(et), s, v) == 0 {
			return i, nil
		}
	}
	return -1, nil
}

// castAll casts every argument to t.
func castAll(p *Planner, args []Expr, t Type) ([]Expr, error) {
	out := make([]Expr, len(args))
	for i, a := range args {
		c, err := p.cast(a, t)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// scalarsOf converts a list's elements to scalars of the element type.
func scalarsOf(et Type, l []any) ([]any, error) {
	out := make([]any, len(l))
	for i, x := range l {
		s, err := fromGo(et, x)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// sortedAnyKeys returns the keys of a map with keys of type kt in their
// order (Go maps keep none, so this one makes map functions and text
// deterministic).
func sortedAnyKeys(kt Type, m map[any]any) ([]any, error) {
	type keyed struct{ go_, v any }
	ks := make([]keyed, 0, len(m))
	for k := range m {
		v, err := fromGo(kt, k)
		if err != nil {
			return nil, err
		}
		ks = append(ks, keyed{k, v})
	}
	pt := plainType(kt)
	sort.Slice(ks, func(i, j int) bool {
		a, b := ks[i].v, ks[j].v
		if a == nil || b == nil {
			return a != nil
		}
		return vec.CompareScalars(pt, a, b) < 0
	})
	out := make([]any, len(ks))
	for i, k := range ks {
		out[i] = k.go_
	}
	return out, nil
}

// nestedFunc is a function of nested values computed row by row from the
// arguments' scalars.
func nestedFunc(text string, t Type, args []Expr, f func(v []any) (any, error)) *funcExpr {
	e := &funcExpr{name: text, args: args, t: t, strict: true, row: func(a []*Col, i int) (any, error) {
		v := make([]any, len(a))
		for k, c := range a {
			v[k] = c.Get(i)
		}
		return f(v)
	}}
	e.setText(text)
	return e
}

// bindIndex binds x[i]: a list element, a map value or a struct field.
func (p *Planner) bindIndex(x, i Expr) (Expr, error) {
	xt := x.Type()
	text := x.String() + "[" + i.String() + "]"
	if et, ok := listElem(xt); ok {
		idx, err := p.cast(i, TInt)
		if err != nil {
			return nil, err
		}
		return nestedFunc(text, plainType(et), []Expr{x, idx}, func(v []any) (any, error) {
			l := v[0].([]any)
			n := v[1].(int64)
			if n < 0 {
				n += int64(len(l)) + 1
			}
			if n < 1 || n > int64(len(l)) {
				return nil, nil
			}
			return fromGo(et, l[n-1])
		}), nil
	}
	if kt, vt, ok := mapKV(xt); ok {
		key, err := p.cast(i, plainType(kt))
		if err != nil {
			return nil, err
		}
		return nestedFunc(text, plainType(vt), []Expr{x, key}, func(v []any) (any, error) {
			got, _, err := mapLookup(kt, vt, v[0], v[1])
			return got, err
		}), nil
	}
	if k, ok := IsConst(i); ok && xt.Kind == KNested {
		if n, isInt := k.V.(int64); isInt && isIntKind(k.T) {
			return p.bindStructPosition(x, n) // s[1] of an unnamed struct
		}
		name, isStr := k.V.(string)
		if !isStr {
			return nil, errorf("No function matches the given name and argument types 'array_extract(%s, %s)'. You might need to add explicit type casts.", xt.SQLName(), k.T.SQLName())
		}
		if xt.Unnamed {
			return nil, errorf("struct_extract with a string key cannot be used on an unnamed struct, use a numeric index instead")
		}
		ft, exact, ok := structField(xt, name)
		if !ok {
			return nil, errNoStructKey(xt, name) // rowstructs.go
		}
		return nestedFunc(text, plainType(ft), []Expr{x}, func(v []any) (any, error) {
			m, ok := v[0].(map[string]any)
			if !ok {
				return nil, nil
			}
			return fromGo(ft, m[exact])
		}), nil
	}
	return nil, errorf("cannot index %s with %s", xt.SQLName(), i.Type().SQLName())
}

// unnestItem is unnest(list) as a select item: its value is the list, its
// type the element type; exec.Unnest expands the rows.
type unnestItem struct {
	named
	list Expr
	elem Type
}

func (e *unnestItem) Type() Type { return e.elem }

func (e *unnestItem) Eval(b *Batch) (*Col, error) { return e.list.Eval(b) }

// bindUnnest binds unnest(l) of a bound l as a select item.
func (p *Planner) bindUnnest(l Expr) (Expr, error) {
	et, ok := listElem(l.Type())
	if !ok {
		if l.Type().Kind == KNull {
			et = TInt
		} else {
			return nil, errorf("unnest needs a list or a struct, not %s", l.Type().SQLName())
		}
	}
	e := &unnestItem{list: l, elem: plainType(et)}
	if et.Kind == KNested {
		e.elem = et
	}
	e.setText("unnest(" + l.String() + ")")
	return e, nil
}

// isUnnest reports a select item unnest(...), in parentheses or not (a
// macro's body is put in them: regexp_split_to_table).
func isUnnest(e sqlparser.Expr) (*sqlparser.FuncExpr, bool) {
	for {
		pe, isParen := e.(*sqlparser.ParenExpr)
		if !isParen {
			break
		}
		e = pe.Expr
	}
	f, ok := e.(*sqlparser.FuncExpr)
	return f, ok && f.Qualifier.IsEmpty() && f.Name.Lowered() == "unnest"
}

// castList casts v, of type from (a list, or a string in the list's text
// form such as [1, 2, NULL]), to the list type to, element by element;
// with try, an element that does not convert is NULL.
func castList(v any, from, to Type, try bool) (any, error) {
	te, _ := listElem(to)
	var xs []any
	fe, isList := listElem(from)
	switch {
	case isList:
		var ok bool
		if xs, ok = v.([]any); !ok {
			return nil, errorf("cannot cast %T to %s", v, to.SQLName())
		}
	case from.IsStringy():
		s, _ := v.(string)
		return castNestedText(s, to, try) // nestedparse.go
	default:
		return nil, errorf("cannot cast %s to %s", from.SQLName(), to.SQLName())
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		if x == nil {
			continue
		}
		s, err := fromGo(plainType(fe), x)
		if err != nil {
			return nil, err
		}
		y, err := function.CastScalar(s, plainType(fe), te, try)
		if err != nil {
			if try {
				continue // NULL
			}
			return nil, err
		}
		out[i] = toGo(te, y)
	}
	return out, nil
}

// bindSeries binds the list functions range(stop), range(start, stop[,
// step]) (stop excluded) and generate_series (stop included), of integers,
// or of timestamps from DATE or TIMESTAMP bounds and a constant INTERVAL
// step.
func (p *Planner) bindSeries(name string, args []Expr) (Expr, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, errorf("%s takes 1 to 3 arguments", name)
	}
	incl := name == "generate_series"
	if k := args[0].Type().Kind; k == KDate || k == KTimestamp {
		if len(args) != 3 {
			return nil, errorf("%s of dates or timestamps takes a start, a stop and an interval", name)
		}
		c, ok := IsConst(args[2])
		var step Interval
		switch v := c.V.(type) {
		case Interval:
			// Days step as 24 hours here (timestamps without zones).
			step = Interval{Months: v.Months, Micros: v.Days*microsPerDay + v.Micros}
		default:
			ok = false
		}
		if !ok || c.T.Kind != KInterval {
			return nil, errorf("the step of %s must be a constant INTERVAL", name)
		}
		if step.Months == 0 && step.Micros == 0 || step.Months < 0 && step.Micros > 0 || step.Months > 0 && step.Micros < 0 {
			return nil, errorf("the step of %s must be an interval that is not 0 nor of mixed signs", name)
		}
		bounds, err := castAll(p, args[:2], tTS)
		if err != nil {
			return nil, err
		}
		elem := tTS
		return nestedFunc(name+"(...)", Type{Kind: KNested, Elem: &elem}, bounds, func(v []any) (any, error) {
			cur, stop := v[0].(int64), v[1].(int64)
			up := step.Months > 0 || step.Micros > 0
			var out []any
			for up && (cur < stop || incl && cur == stop) || !up && (cur > stop || incl && cur == stop) {
				if len(out) == maxSeries {
					return nil, errorf("%s would make more than %d values", name, maxSeries)
				}
				out = append(out, toGo(tTS, cur))
				if step.Months != 0 {
					cur = addMonths(microsToTime(cur), step.Months).UnixMicro()
				}
				cur += step.Micros
			}
			return append([]any{}, out...), nil // [] rather than nil when empty
		}), nil
	}
	ints, err := castAll(p, args, TInt)
	if err != nil {
		return nil, err
	}
	elem := TInt
	return nestedFunc(name+"(...)", Type{Kind: KNested, Elem: &elem}, ints, func(v []any) (any, error) {
		start, stop, step := int64(0), v[0].(int64), int64(1)
		if len(v) > 1 {
			start, stop = v[0].(int64), v[1].(int64)
		}
		if len(v) > 2 {
			step = v[2].(int64)
		}
		if step == 0 {
			return nil, errorf("the step of %s cannot be 0", name)
		}
		out := []any{}
		for x := start; step > 0 && (x < stop || incl && x == stop) || step < 0 && (x > stop || incl && x == stop); {
			if len(out) == maxSeries {
				return nil, errorf("%s would make more than %d values", name, maxSeries)
			}
			out = append(out, x)
			next, overflow := function.AddInt64(x, step)
			if overflow {
				break
			}
			x = next
		}
		return out, nil
	}), nil
}

// elemKey identifies a list element (a Go value of a list) for set
// operations on lists.
func elemKey(x any) string { return fmt.Sprintf("%T:%v", x, x) }

// isListConcat tells whether a || b joins lists: one side is a list and
// the other a list or NULL.
func isListConcat(a, b Expr) bool {
	_, la := listElem(a.Type())
	_, lb := listElem(b.Type())
	return (la || a.Type().Kind == KNull) && (lb || b.Type().Kind == KNull) && (la || lb)
}

// bindListConcatOp binds list || list: list_concat, but NULL when either
// side is (as DuckDB's operator, unlike the function).
func (p *Planner) bindListConcatOp(a, b Expr) (Expr, error) {
	if a.Type().Kind == KNull {
		a, b = b, a
	}
	e, _, err := p.bindNested("list_concat", []Expr{a, b})
	if err != nil {
		return nil, err
	}
	if f, ok := e.(*funcExpr); ok {
		f.strict = true
		f.setParts(a, " || ", b)
	}
	return e, nil
}

// bindMapLiteral binds MAP {k: v, ...}: the keys share one type, the
// values another; a NULL or repeated key is an error (as in DuckDB).
func (p *Planner) bindMapLiteral(keys, vals []Expr) (Expr, error) {
	kt, err := mapPartType(keys)
	if err != nil {
		return nil, err
	}
	vt, err := mapPartType(vals)
	if err != nil {
		return nil, err
	}
	if keys, err = castAll(p, keys, kt); err != nil {
		return nil, err
	}
	if vals, err = castAll(p, vals, vt); err != nil {
		return nil, err
	}
	texts := make([]string, len(keys))
	for i := range keys {
		texts[i] = keys[i].String() + ": " + vals[i].String()
	}
	n := len(keys)
	e := nestedFunc("MAP {"+strings.Join(texts, ", ")+"}", mapType(kt, vt), append(keys, vals...), func(v []any) (any, error) {
		return buildMap(kt, vt, v[:n], v[n:])
	})
	e.strict = false
	return e, nil
}

// bindMapFunc binds map() (an empty map) and map(keys, values), which
// pairs two lists of the same length.
func (p *Planner) bindMapFunc(args []Expr) (Expr, error) {
	if len(args) == 0 {
		return p.bindMapLiteral(nil, nil)
	}
	if len(args) != 2 {
		return nil, errorf("map takes a list of keys and a list of values")
	}
	kt, err := listArgElem("map", args[0])
	if err != nil {
		return nil, err
	}
	vt, err := listArgElem("map", args[1])
	if err != nil {
		return nil, err
	}
	kt, vt = plainType(kt), plainType(vt)
	return nestedFunc("map("+args[0].String()+", "+args[1].String()+")", mapType(kt, vt), args, func(v []any) (any, error) {
		ks, _ := v[0].([]any)
		vs, _ := v[1].([]any)
		if len(ks) != len(vs) {
			return nil, errorf("map: %d keys and %d values", len(ks), len(vs))
		}
		kv, vv := make([]any, len(ks)), make([]any, len(vs))
		for i := range ks {
			var err error
			if kv[i], err = fromGo(kt, ks[i]); err != nil {
				return nil, err
			}
			if vv[i], err = fromGo(vt, vs[i]); err != nil {
				return nil, err
			}
		}
		return buildMap(kt, vt, kv, vv)
	}), nil
}

func mapType(kt, vt Type) Type {
	return Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: kt}, {Name: "value", Type: vt}}}
}

// mapPartType is the common type of a map literal's keys or values
// (VARCHAR when there are none or all are NULL).
func mapPartType(es []Expr) (Type, error) {
	t, err := commonType(es)
	if err != nil {
		return Type{}, err
	}
	if t.Kind == KNull {
		t = TString
	}
	return plainType(t), nil
}

// buildMap makes the Go value of a map from engine scalars: string keys
// make a map[string]any, others a map[any]any.
func buildMap(kt, vt Type, keys, vals []any) (any, error) {
	if kt.Kind == KNested {
		// Go cannot key a map by a list or a struct value.
		return nil, unsupported("map keys of type " + kt.SQLName())
	}
	seen := make(map[string]bool, len(keys))
	var strMap map[string]any
	var anyMap map[any]any
	if kt.Op() == KString {
		strMap = make(map[string]any, len(keys))
	} else {
		anyMap = make(map[any]any, len(keys))
	}
	for i, k := range keys {
		if k == nil {
			return nil, errorf("map keys cannot be NULL")
		}
		ks := FormatScalar(kt, k)
		if seen[ks] {
			return nil, errorf("map keys must be unique: %s appears twice", ks)
		}
		seen[ks] = true
		if strMap != nil {
			strMap[ks] = toGo(vt, vals[i])
		} else {
			anyMap[toGo(kt, k)] = toGo(vt, vals[i])
		}
	}
	if strMap != nil {
		return strMap, nil
	}
	return anyMap, nil
}

// mapLookup returns the value (a scalar of type vt) under key in Go map
// m, and whether key is there.
func mapLookup(kt, vt Type, m, key any) (any, bool, error) {
	switch m := m.(type) {
	case map[string]any:
		k, ok := key.(string)
		if !ok {
			return nil, false, nil
		}
		x, found := m[k]
		if !found {
			return nil, false, nil
		}
		v, err := fromGo(vt, x)
		return v, true, err
	case map[any]any:
		for mk, mv := range m {
			s, err := fromGo(kt, mk)
			if err != nil {
				return nil, false, err
			}
			if s != nil && vec.CompareScalars(plainType(kt), s, key) == 0 {
				v, err := fromGo(vt, mv)
				return v, true, err
			}
		}
	}
	return nil, false, nil
}

// bindMapExtract binds map_extract(m, key) (and element_at on a map): the
// value under key as a one-element list, an empty list when key is not
// there.
func (p *Planner) bindMapExtract(args []Expr) (Expr, bool, error) {
	if len(args) != 2 {
		return nil, true, errorf("map_extract takes a map and a key")
	}
	kt, vt, ok := mapKV(args[0].Type())
	if !ok {
		return nil, true, errorf("map_extract needs a map, not %s", args[0].Type().SQLName())
	}
	key, err := p.cast(args[1], plainType(kt))
	if err != nil {
		return nil, true, err
	}
	et := plainType(vt)
	e := nestedFunc("map_extract("+args[0].String()+", "+args[1].String()+")", Type{Kind: KNested, Elem: &et}, []Expr{args[0], key}, func(x []any) (any, error) {
		if x[0] == nil {
			return nil, nil
		}
		v, found, err := mapLookup(kt, vt, x[0], x[1])
		if err != nil || !found {
			return []any{}, err
		}
		return []any{toGo(et, v)}, nil
	})
	e.strict = false
	return e, true, nil
}

// bindListAggregate binds list_aggregate(list, 'name', extra...): the
// aggregate name over the list's elements, as over the rows of a group
// (the GROUP BY accumulators, one list at a time); the extra arguments
// are constants (string_agg's separator, a quantile's fraction).
func (p *Planner) bindListAggregate(name string, args []Expr) (Expr, error) {
	if len(args) < 2 {
		return nil, errorf("%s takes a list and the name of an aggregate", name)
	}
	et, err := listArgElem(name, args[0])
	if err != nil {
		return nil, err
	}
	k, ok := IsConst(args[1])
	fn, isStr := k.V.(string)
	if !ok || !isStr {
		return nil, errorf("%s: the aggregate is named by a constant string", name)
	}
	fn = strings.ToLower(fn)
	if !AggNames[fn] || fn == "grouping" || fn == "grouping_id" {
		return nil, errorf("%s: %q is not an aggregate", name, fn)
	}
	// The elements are column x of a one-column relation.
	rel := &Relation{Alias: "list"}
	elem := &ScopeCol{Rel: rel, Name: "x", T: plainType(et), Slot: &Slot{}}
	rel.Cols = []*ScopeCol{elem} // slot 0: the batch of the elements
	call := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(fn), Exprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.ColName{Name: sqlparser.NewColIdent("x")}}}}
	for _, a := range args[2:] {
		c, ok := IsConst(a)
		if !ok {
			return nil, errorf("%s: the arguments after the aggregate's name must be constants", name)
		}
		call.Exprs = append(call.Exprs, &sqlparser.AliasedExpr{Expr: sqlLiteral(c)})
	}
	one := &aggCtx{inScope: &Scope{Rels: []*Relation{rel}}}
	if _, err := p.bindAggregate(call, one); err != nil {
		return nil, err
	}
	spec := one.aggs[0]
	if spec.Arg2 != nil || spec.Order != nil {
		return nil, unsupported(name + " of " + fn)
	}
	e := nestedFunc(name+"("+args[0].String()+", '"+fn+"')", spec.T, args[:1], func(v []any) (any, error) {
		vals, err := scalarsOf(et, v[0].([]any))
		if err != nil {
			return nil, err
		}
		b := NewBuilder(elem.T, len(vals))
		for _, x := range vals {
			b.Add(x)
		}
		batch := &Batch{N: len(vals), Cols: []*Col{b.C}}
		acc := kernels.NewAccumulator(spec)
		var in *Col
		if spec.Arg != nil {
			if in, err = spec.Arg.Eval(batch); err != nil {
				return nil, err
			}
		}
		acc.Update(make([]int32, len(vals)), 1, in)
		if err := function.AccError(acc); err != nil {
			return nil, err
		}
		return acc.Result(1).Get(0), nil
	})
	return e, nil
}

// sqlLiteral writes constant c back as a literal for the parser's tree.
func sqlLiteral(c *ConstExpr) sqlparser.Expr {
	switch {
	case c.V == nil:
		return &sqlparser.NullVal{}
	case c.T.Op() == KInt:
		return sqlparser.NewIntVal([]byte(FormatScalar(c.T, c.V)))
	case c.T.IsNumeric():
		return sqlparser.NewFloatVal([]byte(FormatScalar(c.T, c.V)))
	}
	return sqlparser.NewStrVal([]byte(FormatScalar(c.T, c.V)))
}

package sqlplan

import (
	"context"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/xwb1989/sqlparser"
)

// Lists, maps and structs in expressions: x[i] (lists, 1-based, negative
// from the end), m[key], s['field'], list literals [a, b] (list_value),
// len / array_length / cardinality, list_contains, map_keys, map_values,
// and unnest(list) as a select item (one output row per element; several
// unnests in one SELECT are zipped, the shorter padded with NULLs).
//
// Nested values are Go values (col.A): []any for lists, map[string]any
// for structs and string-keyed maps, map[any]any for other maps, with the
// leaves as the Parquet reader gives them (value.Get) or as toGo renders
// scalars; fromGo turns a leaf back into the engine's scalar of its type.

// indexMarker is what the rewrite makes of x[i].
const indexMarker = "__carquet_index__"

// listElem is the element type of a list type.
// listArgElem is the element type of argument a of function name, or the
// error that a is not a list.
func listArgElem(name string, a expr) (Type, error) {
	et, ok := listElem(a.typ())
	if !ok {
		return Type{}, errorf("%s needs a list, not %s", name, a.typ().SQLName())
	}
	return et, nil
}

func listElem(t Type) (Type, bool) {
	if t.Kind != KNested {
		return Type{}, false
	}
	if f := t.Field; f != nil {
		if f.Kind == schema.List && len(f.Children) == 1 {
			return typeOfField(f.Children[0]), true
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
			v = typeOfField(f.Children[1])
		}
		return typeOfField(f.Children[0]), v, true
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
				return typeOfField(c), c.Name, true
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
	return withoutField(t)
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
		case interval:
			return x, nil
		case value.Interval:
			return parquetInterval(x), nil
		case string:
			iv, err := parseIntervalText(x)
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
	case KDate, KTimestamp, KTime:
		x, ok := v.(time.Time)
		if !ok {
			return bad()
		}
		switch t.Kind {
		case KDate:
			return timeToDays(x), nil
		case KTime:
			return convertTimeUnit(nanosOfDay(x.UTC()), Type{Kind: KTime, Nanos: true}, t)
		}
		if t.Nanos {
			return timeToNanos(x)
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

// nestedNames are the functions bindNested knows.
var nestedNames = map[string]bool{
	indexMarker: true, "list_extract": true, "struct_extract": true, "to_json": true, mapMarker: true, "map": true, "map_extract": true, "array_extract": true, "element_at": true, "list_element": true,
	"len": true, "length": true, "array_length": true, "cardinality": true, "list_length": true,
	"list_contains": true, "array_contains": true, "list_has": true, "array_has": true,
	"map_keys": true, "map_values": true, "list_value": true, "list_pack": true,
	structMarker: true, "struct_pack": true,
	"string_split": true, "str_split": true, "string_to_array": true, "split": true,
	"array_to_string": true, "array_join": true, "list_string_agg": true,
	"list_sort": true, "array_sort": true, "list_reverse_sort": true, "array_reverse_sort": true,
	"list_distinct": true, "array_distinct": true, "list_reverse": true, "array_reverse": true,
	"list_sum": true, "list_min": true, "list_max": true, "list_avg": true,
	"list_aggregate": true, "array_aggregate": true, "list_aggr": true, "aggregate": true,
	"flatten": true, "list_slice": true, "array_slice": true,
	"list_concat": true, "array_concat": true, "list_cat": true, "array_cat": true,
	"list_position": true, "array_position": true, "list_indexof": true, "array_indexof": true,
	"list_append": true, "array_append": true, "array_push_back": true, "list_prepend": true, "array_prepend": true, "array_push_front": true,
	"range": true, "generate_series": true,
	"list_has_any": true, "array_has_any": true, "list_has_all": true, "array_has_all": true,
	"list_intersect": true, "array_intersect": true, "list_unique": true, "array_unique": true,
	"list_count": true, "list_any_value": true,
	"regexp_extract_all": true, "regexp_split_to_array": true, "string_split_regex": true, "str_split_regex": true,
}

// maxSeries bounds the lists of range and generate_series.
const maxSeries = 10_000_000

// bindNested binds the nested-value functions; ok is false for a call
// that is not one of them (or whose arguments are not nested).
func (p *planner) bindNested(name string, args []expr) (expr, bool, error) {
	switch name {
	case "range", "generate_series":
		e, err := p.bindSeries(name, args)
		return e, true, err
	case mapMarker:
		if len(args)%2 != 0 {
			return nil, true, errorf("malformed map literal")
		}
		var keys, vals []expr
		for k := 0; k < len(args); k += 2 {
			keys, vals = append(keys, args[k]), append(vals, args[k+1])
		}
		e, err := p.bindMapLiteral(keys, vals)
		return e, true, err
	case "map":
		e, err := p.bindMapFunc(args)
		return e, true, err
	case "to_json":
		if len(args) != 1 {
			return nil, true, errorf("to_json takes one argument")
		}
		t := args[0].typ()
		return nestedFunc("to_json("+args[0].String()+")", Type{Kind: KString, JSON: true}, args, func(v []any) (any, error) {
			if t.Kind == KNested {
				return nestedText(t, v[0], true)
			}
			return scalarJSON(t, v[0]), nil
		}), true, nil
	case "struct_extract":
		if len(args) != 2 {
			return nil, true, errorf("struct_extract takes a struct and a field name")
		}
		if _, ok := structFields(args[0].typ()); !ok && args[0].typ().Kind != KNull {
			return nil, true, errorf("struct_extract needs a struct, not %s", args[0].typ().SQLName())
		}
		e, err := p.bindIndex(args[0], args[1])
		return e, true, err
	case indexMarker, "list_extract", "array_extract", "element_at", "list_element":
		if len(args) != 2 || args[0].typ().Kind != KNested {
			if len(args) == 2 && args[0].typ().Kind == KNull {
				return &constExpr{t: Type{Kind: KNull}}, true, nil
			}
			if len(args) == 2 {
				return nil, true, errorf("cannot index %s with [ ]", args[0].typ().SQLName())
			}
			return nil, true, errorf("%s takes two arguments", name)
		}
		if _, _, isMap := mapKV(args[0].typ()); isMap && name == "element_at" {
			return p.bindMapExtract(args)
		}
		e, err := p.bindIndex(args[0], args[1])
		return e, true, err
	case "map_extract":
		return p.bindMapExtract(args)
	case "len", "length", "array_length", "cardinality", "list_length":
		if len(args) != 1 || args[0].typ().Kind != KNested {
			if name == "len" || name == "length" {
				return nil, false, nil // of a string (funcs.go)
			}
			if len(args) == 1 {
				return nil, true, errorf("%s needs a list or a map, not %s", name, args[0].typ().SQLName())
			}
			return nil, true, errorf("%s takes one argument", name)
		}
		return nestedFunc(name+"("+args[0].String()+")", tInt, args, func(v []any) (any, error) {
			switch x := v[0].(type) {
			case []any:
				return int64(len(x)), nil
			case map[string]any:
				return int64(len(x)), nil
			case map[any]any:
				return int64(len(x)), nil
			}
			return nil, errorf("%s of %T", name, v[0])
		}), true, nil
	case "list_contains", "array_contains", "list_has", "array_has":
		l, needle, et, err := p.listAndValue(name, args)
		if err != nil {
			return nil, true, err
		}
		return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", tBool, []expr{l, needle}, func(v []any) (any, error) {
			at, err := listIndex(et, v[0].([]any), v[1])
			return at >= 0, err
		}), true, nil
	case "map_keys", "map_values":
		if len(args) != 1 {
			return nil, true, errorf("%s takes one argument", name)
		}
		kt, vt, ok := mapKV(args[0].typ())
		if !ok {
			return nil, true, errorf("%s needs a map, not %s", name, args[0].typ().SQLName())
		}
		et := kt
		if name == "map_values" {
			et = vt
		}
		et = plainType(et)
		return nestedFunc(name+"("+args[0].String()+")", Type{Kind: KNested, Elem: &et}, args, func(v []any) (any, error) {
			var out []any
			each := func(k, x any) {
				if name == "map_keys" {
					out = append(out, k)
				} else {
					out = append(out, x)
				}
			}
			switch m := v[0].(type) {
			case map[string]any:
				for _, k := range sortedKeys(m) {
					each(k, m[k])
				}
			case map[any]any:
				keys, err := sortedAnyKeys(kt, m)
				if err != nil {
					return nil, err
				}
				for _, k := range keys {
					each(k, m[k])
				}
			}
			if out == nil {
				out = []any{}
			}
			return out, nil
		}), true, nil
	case structMarker, "struct_pack":
		if name == "struct_pack" {
			return nil, true, unsupported("struct_pack (write {'name': value})")
		}
		if len(args)%2 != 0 || len(args) == 0 {
			return nil, true, errorf("malformed struct literal")
		}
		var fields []NamedType
		var vals []expr
		var texts []string
		for k := 0; k < len(args); k += 2 {
			c, ok := isConst(args[k])
			fname, isStr := c.v.(string)
			if !ok || !isStr {
				return nil, true, errorf("malformed struct literal")
			}
			ft := plainType(args[k+1].typ())
			if ft.Kind == KNull {
				ft = tInt
			}
			fields = append(fields, NamedType{Name: fname, Type: ft})
			v, err := p.cast(args[k+1], ft)
			if err != nil {
				return nil, true, err
			}
			vals = append(vals, v)
			texts = append(texts, "'"+fname+"': "+args[k+1].String())
		}
		e := nestedFunc("{"+strings.Join(texts, ", ")+"}", Type{Kind: KNested, Fields: fields}, vals, func(v []any) (any, error) {
			m := make(map[string]any, len(v))
			for i, x := range v {
				m[fields[i].Name] = toGo(fields[i].Type, x)
			}
			return m, nil
		})
		e.strict = false
		return e, true, nil
	case "string_split", "str_split", "string_to_array", "split":
		if len(args) != 2 {
			return nil, true, errorf("%s takes a string and a separator", name)
		}
		cast, err := castAll(p, args, tString)
		if err != nil {
			return nil, true, err
		}
		return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", Type{Kind: KNested, Elem: &tString}, cast, func(v []any) (any, error) {
			s, sep := v[0].(string), v[1].(string)
			var parts []string
			if sep == "" {
				for _, r := range s {
					parts = append(parts, string(r))
				}
			} else {
				parts = strings.Split(s, sep)
			}
			out := make([]any, len(parts))
			for i, x := range parts {
				out[i] = x
			}
			return out, nil
		}), true, nil
	case "regexp_extract_all", "regexp_split_to_array", "string_split_regex", "str_split_regex":
		if len(args) < 2 || len(args) > 3 || len(args) == 3 && name != "regexp_extract_all" {
			return nil, true, errorf("%s takes a string and a regular expression", name)
		}
		cast, err := castAll(p, args[:2], tString)
		if err != nil {
			return nil, true, err
		}
		if len(args) == 3 {
			g, err := p.cast(args[2], tInt)
			if err != nil {
				return nil, true, err
			}
			cast = append(cast, g)
		}
		split := name != "regexp_extract_all"
		return nestedFunc(name+"(...)", Type{Kind: KNested, Elem: &tString}, cast, func(v []any) (any, error) {
			re, err := cachedRegexp(v[1].(string))
			if err != nil {
				return nil, err
			}
			s := v[0].(string)
			out := []any{}
			if split {
				for _, part := range re.Split(s, -1) {
					out = append(out, part)
				}
				return out, nil
			}
			g := int64(0)
			if len(v) > 2 {
				g = v[2].(int64)
			}
			for _, m := range re.FindAllStringSubmatch(s, -1) {
				if g < 0 || g >= int64(len(m)) {
					return nil, errorf("regexp_extract_all: no group %d", g)
				}
				out = append(out, m[g])
			}
			return out, nil
		}), true, nil
	case "array_to_string", "array_join", "list_string_agg":
		if len(args) < 1 || len(args) > 2 {
			return nil, true, errorf("%s takes a list and a separator", name)
		}
		et, err := listArgElem(name, args[0])
		if err != nil {
			return nil, true, err
		}
		in := []expr{args[0]}
		if len(args) == 2 {
			sep, err := p.cast(args[1], tString)
			if err != nil {
				return nil, true, err
			}
			in = append(in, sep)
		}
		return nestedFunc(name+"(...)", tString, in, func(v []any) (any, error) {
			sep := ","
			if len(v) > 1 {
				sep = v[1].(string)
			}
			var parts []string
			for _, el := range v[0].([]any) {
				s, err := fromGo(et, el)
				if err != nil {
					return nil, err
				}
				if s == nil {
					continue
				}
				parts = append(parts, formatScalar(plainType(et), s))
			}
			return strings.Join(parts, sep), nil
		}), true, nil
	case "list_sort", "array_sort", "list_reverse_sort", "array_reverse_sort", "list_distinct", "array_distinct", "list_reverse", "array_reverse":
		if len(args) < 1 || len(args) > 3 {
			return nil, true, errorf("%s takes a list", name)
		}
		et, err := listArgElem(name, args[0])
		if err != nil {
			return nil, true, err
		}
		desc := strings.Contains(name, "reverse_sort")
		if len(args) > 1 {
			k, ok := isConst(args[1])
			s, isStr := k.v.(string)
			if !ok || !isStr {
				return nil, true, errorf("the order of %s must be 'ASC' or 'DESC'", name)
			}
			desc = strings.EqualFold(s, "desc")
		}
		pt := plainType(et)
		return nestedFunc(name+"("+args[0].String()+")", args[0].typ(), args[:1], func(v []any) (any, error) {
			l := v[0].([]any)
			vals, err := scalarsOf(et, l)
			if err != nil {
				return nil, err
			}
			idx := make([]int, len(l))
			for i := range idx {
				idx[i] = i
			}
			switch {
			case strings.Contains(name, "sort"):
				sort.SliceStable(idx, func(a, b int) bool {
					x, y := vals[idx[a]], vals[idx[b]]
					switch {
					case x == nil || y == nil:
						return y == nil && x != nil // NULLs last
					case desc:
						return compareScalars(pt, x, y) > 0
					}
					return compareScalars(pt, x, y) < 0
				})
			case strings.Contains(name, "distinct"):
				var keep []int
				for _, i := range idx {
					if vals[i] == nil {
						continue // list_distinct drops NULLs
					}
					dup := false
					for _, j := range keep {
						dup = dup || compareScalars(pt, vals[i], vals[j]) == 0
					}
					if !dup {
						keep = append(keep, i)
					}
				}
				idx = keep
			default: // reverse
				for a, b := 0, len(idx)-1; a < b; a, b = a+1, b-1 {
					idx[a], idx[b] = idx[b], idx[a]
				}
			}
			out := make([]any, len(idx))
			for k, i := range idx {
				out[k] = l[i]
			}
			return out, nil
		}), true, nil
	case "list_aggregate", "array_aggregate", "list_aggr", "aggregate":
		e, err := p.bindListAggregate(name, args)
		return e, true, err
	case "list_sum", "list_min", "list_max", "list_avg":
		if len(args) != 1 {
			return nil, true, errorf("%s takes a list", name)
		}
		et, err := listArgElem(name, args[0])
		if err != nil {
			return nil, true, err
		}
		pt := plainType(et)
		rt := pt
		switch {
		case name == "list_avg":
			rt = tFloat
		case name == "list_sum" && pt.Kind == KDecimal:
			rt = Type{Kind: KDecimal, Prec: 38, Scale: pt.Scale, Huge: pt.Huge}
		case name == "list_sum" && pt.op() == KInt:
			rt = tInt
		case name == "list_sum" && pt.Kind != KFloat:
			return nil, true, errorf("%s of %s is not defined", name, pt.SQLName())
		}
		return nestedFunc(name+"("+args[0].String()+")", rt, args, func(v []any) (any, error) {
			vals, err := scalarsOf(et, v[0].([]any))
			if err != nil {
				return nil, err
			}
			var acc any
			var n int64
			var sumF float64
			var sumI int64
			var sumD decSum
			for _, x := range vals {
				if x == nil {
					continue
				}
				n++
				switch name {
				case "list_min", "list_max":
					if acc == nil || (compareScalars(pt, x, acc) < 0) == (name == "list_min") && compareScalars(pt, x, acc) != 0 {
						acc = x
					}
				default:
					switch pt.Kind {
					case KDecimal:
						if d, ok := x.(value.Decimal); ok {
							sumD.addDecimal(d, pt.Scale)
						} else {
							sumD.addUnscaled(x.(int64))
						}
					case KFloat:
						sumF += x.(float64)
					default:
						s, overflow := addInt64(sumI, x.(int64))
						if overflow {
							return nil, errorf("%s: integer overflow", name)
						}
						sumI = s
						sumF += float64(x.(int64))
					}
				}
			}
			if n == 0 {
				return nil, nil
			}
			switch name {
			case "list_min", "list_max":
				return acc, nil
			case "list_avg":
				if pt.Kind == KDecimal {
					f, _ := decRat(sumD.value(pt.Scale)).Float64()
					return f / float64(n), nil
				}
				return sumF / float64(n), nil
			}
			switch pt.Kind {
			case KDecimal:
				return sumD.value(pt.Scale), nil
			case KFloat:
				return sumF, nil
			}
			return sumI, nil
		}), true, nil
	case "flatten":
		if len(args) != 1 {
			return nil, true, errorf("flatten takes a list of lists")
		}
		et, ok := listElem(args[0].typ())
		if _, inner := listElem(et); !ok || !inner {
			return nil, true, errorf("flatten needs a list of lists, not %s", args[0].typ().SQLName())
		}
		return nestedFunc("flatten("+args[0].String()+")", et, args, func(v []any) (any, error) {
			out := []any{}
			for _, x := range v[0].([]any) {
				if l, ok := x.([]any); ok {
					out = append(out, l...)
				}
			}
			return out, nil
		}), true, nil
	case "list_slice", "array_slice":
		if len(args) != 3 {
			return nil, true, errorf("%s takes a list, a start and an end", name)
		}
		_, isList := listElem(args[0].typ())
		isString := args[0].typ().Kind == KString
		if !isList && !isString {
			return nil, true, errorf("%s needs a list or a string, not %s", name, args[0].typ().SQLName())
		}
		bounds, err := castAll(p, args[1:], tInt)
		if err != nil {
			return nil, true, err
		}
		e := nestedFunc(name+"(...)", args[0].typ(), append([]expr{args[0]}, bounds...), func(v []any) (any, error) {
			var l []any
			switch x := v[0].(type) {
			case []any:
				l = x
			case string:
				// A string slices by characters.
				for _, r := range x {
					l = append(l, string(r))
				}
			default:
				return nil, nil
			}
			n := int64(len(l))
			pos := func(x any, def int64) int64 {
				i, ok := x.(int64)
				if !ok {
					return def
				}
				if i < 0 {
					i += n + 1
				}
				return max(min(i, n), 0)
			}
			from, to := pos(v[1], 1), pos(v[2], n)
			from = max(from, 1)
			if isString {
				var b strings.Builder
				for _, c := range l[min(from-1, to):to] {
					b.WriteString(c.(string))
				}
				return b.String(), nil
			}
			if from > to {
				return []any{}, nil
			}
			return append([]any{}, l[from-1:to]...), nil
		})
		e.strict = false
		return e, true, nil
	case "list_has_any", "array_has_any", "list_has_all", "array_has_all", "list_intersect", "array_intersect":
		if len(args) != 2 {
			return nil, true, errorf("%s takes two lists", name)
		}
		if _, ok := listElem(args[0].typ()); !ok {
			return nil, true, errorf("%s needs lists, not %s", name, args[0].typ().SQLName())
		}
		other, err := p.cast(args[1], args[0].typ())
		if err != nil {
			return nil, true, err
		}
		t := tBool
		if strings.HasSuffix(name, "intersect") {
			t = args[0].typ()
		}
		return nestedFunc(name+"(...)", t, []expr{args[0], other}, func(v []any) (any, error) {
			a, b := v[0].([]any), v[1].([]any)
			inB := map[string]bool{}
			for _, x := range b {
				if x != nil {
					inB[elemKey(x)] = true
				}
			}
			switch {
			case strings.HasSuffix(name, "has_any"):
				for _, x := range a {
					if x != nil && inB[elemKey(x)] {
						return true, nil
					}
				}
				return false, nil
			case strings.HasSuffix(name, "has_all"):
				inA := map[string]bool{}
				for _, x := range a {
					if x != nil {
						inA[elemKey(x)] = true
					}
				}
				for k := range inB {
					if !inA[k] {
						return false, nil
					}
				}
				return true, nil
			}
			// The distinct elements of a that b has, in a's order.
			out, seen := []any{}, map[string]bool{}
			for _, x := range a {
				if k := elemKey(x); x != nil && inB[k] && !seen[k] {
					seen[k] = true
					out = append(out, x)
				}
			}
			return out, nil
		}), true, nil
	case "list_unique", "array_unique", "list_count", "list_any_value":
		if len(args) != 1 {
			return nil, true, errorf("%s takes a list", name)
		}
		et, err := listArgElem(name, args[0])
		if err != nil {
			return nil, true, err
		}
		t := tInt
		if name == "list_any_value" {
			t = et
		}
		return nestedFunc(name+"(...)", t, args, func(v []any) (any, error) {
			seen := map[string]bool{}
			n := int64(0)
			for _, x := range v[0].([]any) {
				if x == nil {
					continue
				}
				if name == "list_any_value" {
					return fromGo(et, x) // the first element that is not NULL
				}
				if k := elemKey(x); name == "list_count" || !seen[k] {
					seen[k] = true
					n++
				}
			}
			if name == "list_any_value" {
				return nil, nil
			}
			return n, nil
		}), true, nil
	case "list_concat", "array_concat", "list_cat", "array_cat":
		if len(args) != 2 {
			return nil, true, errorf("%s takes two lists", name)
		}
		if _, ok := listElem(args[0].typ()); !ok {
			return nil, true, errorf("%s needs lists, not %s", name, args[0].typ().SQLName())
		}
		e := nestedFunc(name+"(...)", args[0].typ(), args, func(v []any) (any, error) {
			a, _ := v[0].([]any)
			b, _ := v[1].([]any)
			if v[0] == nil && v[1] == nil {
				return nil, nil
			}
			return append(append([]any{}, a...), b...), nil
		})
		e.strict = false
		return e, true, nil
	case "list_position", "array_position", "list_indexof", "array_indexof":
		l, needle, et, err := p.listAndValue(name, args)
		if err != nil {
			return nil, true, err
		}
		return nestedFunc(name+"(...)", tInt, []expr{l, needle}, func(v []any) (any, error) {
			at, err := listIndex(et, v[0].([]any), v[1])
			if at < 0 || err != nil {
				return nil, err
			}
			return int64(at + 1), nil
		}), true, nil
	case "list_append", "array_append", "array_push_back", "list_prepend", "array_prepend", "array_push_front":
		if len(args) != 2 {
			return nil, true, errorf("%s takes a list and a value", name)
		}
		li, vi := 0, 1
		if name == "list_prepend" || name == "array_prepend" {
			li, vi = 1, 0 // list_prepend(value, list)
		}
		et, err := listArgElem(name, args[li])
		if err != nil {
			return nil, true, err
		}
		val, err := p.cast(args[vi], plainType(et))
		if err != nil {
			return nil, true, err
		}
		front := strings.Contains(name, "prepend") || strings.Contains(name, "front")
		e := nestedFunc(name+"(...)", args[li].typ(), []expr{args[li], val}, func(v []any) (any, error) {
			l, ok := v[0].([]any)
			if !ok {
				return nil, nil
			}
			x := toGo(plainType(et), v[1])
			if front {
				return append([]any{x}, l...), nil
			}
			return append(append([]any{}, l...), x), nil
		})
		e.strict = false
		return e, true, nil
	case "list_value", "list_pack":
		var et Type
		if len(args) > 0 {
			var err error
			if et, err = commonType(args); err != nil {
				return nil, true, err
			}
		} else {
			et = tInt
		}
		if et.Kind == KNull {
			et = tInt
		}
		et = plainType(et)
		cast := make([]expr, len(args))
		texts := make([]string, len(args))
		for i, a := range args {
			c, err := p.cast(a, et)
			if err != nil {
				return nil, true, err
			}
			cast[i], texts[i] = c, a.String()
		}
		e := nestedFunc("["+strings.Join(texts, ", ")+"]", Type{Kind: KNested, Elem: &et}, cast, func(v []any) (any, error) {
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = toGo(et, x)
			}
			return out, nil
		})
		e.strict = false
		return e, true, nil
	}
	return nil, false, nil
}

// listAndValue binds f(list, value) (list_contains, list_position): the
// list, the value cast to its element type, and that type.
func (p *planner) listAndValue(name string, args []expr) (expr, expr, Type, error) {
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
		if s != nil && compareScalars(plainType(et), s, v) == 0 {
			return i, nil
		}
	}
	return -1, nil
}

// castAll casts every argument to t.
func castAll(p *planner, args []expr, t Type) ([]expr, error) {
	out := make([]expr, len(args))
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
		return compareScalars(pt, a, b) < 0
	})
	out := make([]any, len(ks))
	for i, k := range ks {
		out[i] = k.go_
	}
	return out, nil
}

// nestedFunc is a function of nested values computed row by row from the
// arguments' scalars.
func nestedFunc(text string, t Type, args []expr, f func(v []any) (any, error)) *funcExpr {
	e := &funcExpr{name: text, args: args, t: t, strict: true, row: func(a []*Col, i int) (any, error) {
		v := make([]any, len(a))
		for k, c := range a {
			v[k] = c.get(i)
		}
		return f(v)
	}}
	e.setText(text)
	return e
}

// bindIndex binds x[i]: a list element, a map value or a struct field.
func (p *planner) bindIndex(x, i expr) (expr, error) {
	xt := x.typ()
	text := x.String() + "[" + i.String() + "]"
	if et, ok := listElem(xt); ok {
		idx, err := p.cast(i, tInt)
		if err != nil {
			return nil, err
		}
		return nestedFunc(text, plainType(et), []expr{x, idx}, func(v []any) (any, error) {
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
		return nestedFunc(text, plainType(vt), []expr{x, key}, func(v []any) (any, error) {
			got, _, err := mapLookup(kt, vt, v[0], v[1])
			return got, err
		}), nil
	}
	if k, ok := isConst(i); ok && xt.Kind == KNested {
		name, isStr := k.v.(string)
		if !isStr {
			return nil, errorf("a struct field is named by a string: %s", text)
		}
		ft, exact, ok := structField(xt, name)
		if !ok {
			return nil, errorf("%s has no field %q", xt.SQLName(), name)
		}
		return nestedFunc(text, plainType(ft), []expr{x}, func(v []any) (any, error) {
			m, ok := v[0].(map[string]any)
			if !ok {
				return nil, nil
			}
			return fromGo(ft, m[exact])
		}), nil
	}
	return nil, errorf("cannot index %s with %s", xt.SQLName(), i.typ().SQLName())
}

// unnestItem is unnest(list) as a select item: its value is the list, its
// type the element type; unnestNode expands the rows.
type unnestItem struct {
	named
	list expr
	elem Type
}

func (e *unnestItem) typ() Type                   { return e.elem }
func (e *unnestItem) eval(b *Batch) (*Col, error) { return e.list.eval(b) }

// bindUnnest binds unnest(x) as a select item.
func (p *planner) bindUnnest(f *sqlparser.FuncExpr, sc *scope) (expr, error) {
	if len(f.Exprs) != 1 {
		return nil, errorf("unnest takes one list")
	}
	ae, ok := f.Exprs[0].(*sqlparser.AliasedExpr)
	if !ok {
		return nil, errorf("unnest takes one list")
	}
	l, err := p.bindExpr(ae.Expr, sc, nil)
	if err != nil {
		return nil, err
	}
	et, ok := listElem(l.typ())
	if !ok {
		if l.typ().Kind == KNull {
			et = tInt
		} else {
			return nil, errorf("unnest needs a list, not %s", l.typ().SQLName())
		}
	}
	e := &unnestItem{list: l, elem: plainType(et)}
	if et.Kind == KNested {
		e.elem = et
	}
	e.setText("unnest(" + l.String() + ")")
	return e, nil
}

// isUnnest reports a select item unnest(...).
func isUnnest(e sqlparser.Expr) (*sqlparser.FuncExpr, bool) {
	f, ok := e.(*sqlparser.FuncExpr)
	return f, ok && f.Qualifier.IsEmpty() && f.Name.Lowered() == "unnest"
}

// unnestNode expands each row into one row per element of its unnested
// columns (the longest list; the others padded with NULLs); a row whose
// lists are all NULL or empty gives no row.
type unnestNode struct {
	in    node
	cols  []int  // the unnested columns
	elems []Type // their element types
}

func (n *unnestNode) next(ctx context.Context) (*Batch, error) {
	for {
		b, err := n.in.next(ctx)
		if err != nil {
			return nil, err
		}
		var rows []int32
		var pos []int
		for i := 0; i < b.N; i++ {
			longest := 0
			for _, c := range n.cols {
				if l, ok := b.Cols[c].get(i).([]any); ok {
					longest = max(longest, len(l))
				}
			}
			for k := 0; k < longest; k++ {
				rows = append(rows, int32(i))
				pos = append(pos, k)
			}
		}
		if len(rows) == 0 {
			continue
		}
		out := &Batch{N: len(rows), Cols: make([]*Col, len(b.Cols))}
		for c := range b.Cols {
			out.Cols[c] = b.Cols[c].take(rows)
		}
		for k, c := range n.cols {
			bl := newBuilder(n.elems[k], len(rows))
			src := b.Cols[c]
			for r, row := range rows {
				var v any
				if l, ok := src.get(int(row)).([]any); ok && pos[r] < len(l) {
					if v, err = fromGo(n.elems[k], l[pos[r]]); err != nil {
						return nil, err
					}
				}
				bl.add(v)
			}
			out.Cols[c] = bl.c
		}
		return out, nil
	}
}

func (n *unnestNode) close() { n.in.close() }

func (n *unnestNode) explain(x *explainer, depth int) {
	x.line(depth, "UNNEST columns %v", n.cols)
	n.in.explain(x, depth+1)
}

// sameNested reports whether two types are not two different nested types
// (a cast between them changes nothing).
func sameNested(a, b Type) bool {
	return a.Kind != KNested || b.Kind != KNested || a.SQLName() == b.SQLName()
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
	case from.isStringy():
		s, _ := v.(string)
		parts, err := splitListText(s)
		if err != nil {
			return nil, errorf("cannot cast %s to %s: %v", quoteText(s), to.SQLName(), err)
		}
		xs, fe = parts, Type{Kind: KString}
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
		y, err := castScalarTry(s, plainType(fe), te, try)
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

// splitListText splits the text form of a list, [a, 'b', [c, d], NULL],
// into its elements' texts (quotes removed; nil for NULL).
func splitListText(s string) ([]any, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return nil, errorf("not a list")
	}
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if inner == "" {
		return []any{}, nil
	}
	var out []any
	depth, start := 0, 0
	var quote byte
	add := func(e string) {
		e = strings.TrimSpace(e)
		switch {
		case strings.EqualFold(e, "null"):
			out = append(out, nil)
		case len(e) >= 2 && (e[0] == '\'' || e[0] == '"') && e[len(e)-1] == e[0]:
			q := string(e[0])
			out = append(out, strings.ReplaceAll(e[1:len(e)-1], q+q, q))
		default:
			out = append(out, e)
		}
	}
	for i := 0; i < len(inner); i++ {
		c := inner[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
		case c == ',' && depth == 0:
			add(inner[start:i])
			start = i + 1
		}
	}
	if quote != 0 || depth != 0 {
		return nil, errorf("unbalanced brackets or quotes")
	}
	add(inner[start:])
	return out, nil
}

// bindSeries binds the list functions range(stop), range(start, stop[,
// step]) (stop excluded) and generate_series (stop included), of integers,
// or of timestamps from DATE or TIMESTAMP bounds and a constant INTERVAL
// step.
func (p *planner) bindSeries(name string, args []expr) (expr, error) {
	if len(args) < 1 || len(args) > 3 {
		return nil, errorf("%s takes 1 to 3 arguments", name)
	}
	incl := name == "generate_series"
	if k := args[0].typ().Kind; k == KDate || k == KTimestamp {
		if len(args) != 3 {
			return nil, errorf("%s of dates or timestamps takes a start, a stop and an interval", name)
		}
		c, ok := isConst(args[2])
		var step interval
		switch v := c.v.(type) {
		case interval:
			// Days step as 24 hours here (timestamps without zones).
			step = interval{months: v.months, micros: v.days*microsPerDay + v.micros}
		default:
			ok = false
		}
		if !ok || c.t.Kind != KInterval {
			return nil, errorf("the step of %s must be a constant INTERVAL", name)
		}
		if step.months == 0 && step.micros == 0 || step.months < 0 && step.micros > 0 || step.months > 0 && step.micros < 0 {
			return nil, errorf("the step of %s must be an interval that is not 0 nor of mixed signs", name)
		}
		bounds, err := castAll(p, args[:2], tTS)
		if err != nil {
			return nil, err
		}
		elem := tTS
		return nestedFunc(name+"(...)", Type{Kind: KNested, Elem: &elem}, bounds, func(v []any) (any, error) {
			cur, stop := v[0].(int64), v[1].(int64)
			up := step.months > 0 || step.micros > 0
			var out []any
			for up && (cur < stop || incl && cur == stop) || !up && (cur > stop || incl && cur == stop) {
				if len(out) == maxSeries {
					return nil, errorf("%s would make more than %d values", name, maxSeries)
				}
				out = append(out, toGo(tTS, cur))
				if step.months != 0 {
					cur = addMonths(microsToTime(cur), step.months).UnixMicro()
				}
				cur += step.micros
			}
			return append([]any{}, out...), nil // [] rather than nil when empty
		}), nil
	}
	ints, err := castAll(p, args, tInt)
	if err != nil {
		return nil, err
	}
	elem := tInt
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
			next, overflow := addInt64(x, step)
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
func isListConcat(a, b expr) bool {
	_, la := listElem(a.typ())
	_, lb := listElem(b.typ())
	return (la || a.typ().Kind == KNull) && (lb || b.typ().Kind == KNull) && (la || lb)
}

// bindListConcatOp binds list || list: list_concat, but NULL when either
// side is (as DuckDB's operator, unlike the function).
func (p *planner) bindListConcatOp(a, b expr) (expr, error) {
	if a.typ().Kind == KNull {
		a, b = b, a
	}
	e, _, err := p.bindNested("list_concat", []expr{a, b})
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
func (p *planner) bindMapLiteral(keys, vals []expr) (expr, error) {
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
func (p *planner) bindMapFunc(args []expr) (expr, error) {
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
func mapPartType(es []expr) (Type, error) {
	t, err := commonType(es)
	if err != nil {
		return Type{}, err
	}
	if t.Kind == KNull {
		t = tString
	}
	return plainType(t), nil
}

// buildMap makes the Go value of a map from engine scalars: string keys
// make a map[string]any, others a map[any]any.
func buildMap(kt, vt Type, keys, vals []any) (any, error) {
	seen := make(map[string]bool, len(keys))
	var strMap map[string]any
	var anyMap map[any]any
	if kt.op() == KString {
		strMap = make(map[string]any, len(keys))
	} else {
		anyMap = make(map[any]any, len(keys))
	}
	for i, k := range keys {
		if k == nil {
			return nil, errorf("map keys cannot be NULL")
		}
		ks := formatScalar(kt, k)
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
			if s != nil && compareScalars(plainType(kt), s, key) == 0 {
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
func (p *planner) bindMapExtract(args []expr) (expr, bool, error) {
	if len(args) != 2 {
		return nil, true, errorf("map_extract takes a map and a key")
	}
	kt, vt, ok := mapKV(args[0].typ())
	if !ok {
		return nil, true, errorf("map_extract needs a map, not %s", args[0].typ().SQLName())
	}
	key, err := p.cast(args[1], plainType(kt))
	if err != nil {
		return nil, true, err
	}
	et := plainType(vt)
	e := nestedFunc("map_extract("+args[0].String()+", "+args[1].String()+")", Type{Kind: KNested, Elem: &et}, []expr{args[0], key}, func(x []any) (any, error) {
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
func (p *planner) bindListAggregate(name string, args []expr) (expr, error) {
	if len(args) < 2 {
		return nil, errorf("%s takes a list and the name of an aggregate", name)
	}
	et, err := listArgElem(name, args[0])
	if err != nil {
		return nil, err
	}
	k, ok := isConst(args[1])
	fn, isStr := k.v.(string)
	if !ok || !isStr {
		return nil, errorf("%s: the aggregate is named by a constant string", name)
	}
	fn = strings.ToLower(fn)
	if !aggNames[fn] || fn == "grouping" || fn == "grouping_id" {
		return nil, errorf("%s: %q is not an aggregate", name, fn)
	}
	// The elements are column x of a one-column relation.
	rel := &relation{alias: "list"}
	elem := &scopeCol{rel: rel, name: "x", t: plainType(et), slot: &slot{}}
	rel.cols = []*scopeCol{elem} // slot 0: the batch of the elements
	call := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(fn), Exprs: sqlparser.SelectExprs{&sqlparser.AliasedExpr{Expr: &sqlparser.ColName{Name: sqlparser.NewColIdent("x")}}}}
	for _, a := range args[2:] {
		c, ok := isConst(a)
		if !ok {
			return nil, errorf("%s: the arguments after the aggregate's name must be constants", name)
		}
		call.Exprs = append(call.Exprs, &sqlparser.AliasedExpr{Expr: sqlLiteral(c)})
	}
	one := &aggCtx{inScope: &scope{rels: []*relation{rel}}}
	if _, err := p.bindAggregate(call, one); err != nil {
		return nil, err
	}
	spec := one.aggs[0]
	if spec.arg2 != nil || spec.order != nil {
		return nil, unsupported(name + " of " + fn)
	}
	e := nestedFunc(name+"("+args[0].String()+", '"+fn+"')", spec.t, args[:1], func(v []any) (any, error) {
		vals, err := scalarsOf(et, v[0].([]any))
		if err != nil {
			return nil, err
		}
		b := newBuilder(elem.t, len(vals))
		for _, x := range vals {
			b.add(x)
		}
		batch := &Batch{N: len(vals), Cols: []*Col{b.c}}
		acc := newAccumulator(spec)
		var in *Col
		if spec.arg != nil {
			if in, err = spec.arg.eval(batch); err != nil {
				return nil, err
			}
		}
		acc.update(make([]int32, len(vals)), 1, in)
		return acc.result(1).get(0), nil
	})
	return e, nil
}

// sqlLiteral writes constant c back as a literal for the parser's tree.
func sqlLiteral(c *constExpr) sqlparser.Expr {
	switch {
	case c.v == nil:
		return &sqlparser.NullVal{}
	case c.t.op() == KInt:
		return sqlparser.NewIntVal([]byte(formatScalar(c.t, c.v)))
	case c.t.isNumeric():
		return sqlparser.NewFloatVal([]byte(formatScalar(c.t, c.v)))
	}
	return sqlparser.NewStrVal([]byte(formatScalar(c.t, c.v)))
}

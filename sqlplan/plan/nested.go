package plan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/parse"
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

// NestedNames are the functions bindNested knows.
var NestedNames = map[string]bool{
	parse.IndexMarker: true, "list_extract": true, "struct_extract": true, "to_json": true, parse.MapMarker: true, "map": true, "map_extract": true, "array_extract": true, "element_at": true, "list_element": true,
	"len": true, "length": true, "array_length": true, "cardinality": true, "list_length": true,
	"list_contains": true, "array_contains": true, "list_has": true, "array_has": true,
	"map_keys": true, "map_values": true, "list_value": true, "list_pack": true,
	parse.StructMarker: true, "struct_pack": true, "row": true, "list_zip": true, "struct_insert": true, "struct_concat": true, "struct_extract_at": true,
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
func (p *Planner) bindNested(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "range", "generate_series":
		e, err := p.bindSeries(name, args)
		return e, true, err
	case parse.MapMarker:
		if len(args)%2 != 0 {
			return nil, true, errorf("malformed map literal")
		}
		var keys, vals []Expr
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
		t := args[0].Type()
		return nestedFunc("to_json("+args[0].String()+")", Type{Kind: KString, JSON: true}, args, func(v []any) (any, error) {
			if t.Kind == KNested {
				return NestedText(t, v[0], true)
			}
			return ScalarJSON(t, v[0]), nil
		}), true, nil
	case "struct_extract":
		if len(args) != 2 {
			return nil, true, errorf("struct_extract takes a struct and a field name")
		}
		if _, ok := structFields(args[0].Type()); !ok && args[0].Type().Kind != KNull {
			return nil, true, errorf("struct_extract needs a struct, not %s", args[0].Type().SQLName())
		}
		if c, ok := IsConst(args[1]); ok && args[0].Type().Kind != KNull {
			if n, isInt := c.V.(int64); isInt && isIntKind(c.T) {
				e, err := p.bindStructPosition(args[0], n)
				return e, true, err
			}
		}
		e, err := p.bindIndex(args[0], args[1])
		return e, true, err
	case parse.IndexMarker, "list_extract", "array_extract", "element_at", "list_element":
		if len(args) != 2 || args[0].Type().Kind != KNested {
			if len(args) == 2 && args[0].Type().Kind == KNull {
				return &ConstExpr{T: Type{Kind: KNull}}, true, nil
			}
			if len(args) == 2 {
				return nil, true, errorf("cannot index %s with [ ]", args[0].Type().SQLName())
			}
			return nil, true, errorf("%s takes two arguments", name)
		}
		if _, _, isMap := mapKV(args[0].Type()); isMap && name == "element_at" {
			return p.bindMapExtract(args)
		}
		e, err := p.bindIndex(args[0], args[1])
		return e, true, err
	case "map_extract":
		return p.bindMapExtract(args)
	case "len", "length", "array_length", "cardinality", "list_length":
		if len(args) != 1 || args[0].Type().Kind != KNested {
			if name == "len" || name == "length" {
				return nil, false, nil // of a string (funcs.go)
			}
			if len(args) == 1 {
				return nil, true, errorf("%s needs a list or a map, not %s", name, args[0].Type().SQLName())
			}
			return nil, true, errorf("%s takes one argument", name)
		}
		return nestedFunc(name+"("+args[0].String()+")", TInt, args, func(v []any) (any, error) {
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
		return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", TBool, []Expr{l, needle}, func(v []any) (any, error) {
			at, err := listIndex(et, v[0].([]any), v[1])
			return at >= 0, err
		}), true, nil
	case "map_keys", "map_values":
		if len(args) != 1 {
			return nil, true, errorf("%s takes one argument", name)
		}
		kt, vt, ok := mapKV(args[0].Type())
		if !ok {
			return nil, true, errorf("%s needs a map, not %s", name, args[0].Type().SQLName())
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
	case parse.StructMarker, "struct_pack":
		if name == "struct_pack" {
			return nil, true, unsupported("struct_pack (write {'name': value})")
		}
		if len(args)%2 != 0 || len(args) == 0 {
			return nil, true, errorf("malformed struct literal")
		}
		var names []string
		var vals []Expr
		for k := 0; k < len(args); k += 2 {
			c, ok := IsConst(args[k])
			fname, isStr := c.V.(string)
			if !ok || !isStr {
				return nil, true, errorf("malformed struct literal")
			}
			names, vals = append(names, fname), append(vals, args[k+1])
		}
		e, err := p.bindStructValue(names, vals, false)
		return e, true, err
	case "row":
		e, err := p.bindRowValue(args)
		return e, true, err
	case "list_zip":
		e, err := p.bindListZip(args)
		return e, true, err
	case "struct_insert":
		e, err := p.bindStructInsert(args)
		return e, true, err
	case "struct_concat":
		e, err := p.bindStructConcat(args) // structfuncs.go
		return e, true, err
	case "struct_extract_at":
		e, err := p.bindStructExtractAt(args)
		return e, true, err
	case "string_split", "str_split", "string_to_array", "split":
		if len(args) != 2 {
			return nil, true, errorf("%s takes a string and a separator", name)
		}
		cast, err := castAll(p, args, TString)
		if err != nil {
			return nil, true, err
		}
		return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", Type{Kind: KNested, Elem: &TString}, cast, func(v []any) (any, error) {
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
		cast, err := castAll(p, args[:2], TString)
		if err != nil {
			return nil, true, err
		}
		if len(args) == 3 {
			g, err := p.cast(args[2], TInt)
			if err != nil {
				return nil, true, err
			}
			cast = append(cast, g)
		}
		split := name != "regexp_extract_all"
		return nestedFunc(name+"(...)", Type{Kind: KNested, Elem: &TString}, cast, func(v []any) (any, error) {
			re, err := function.CachedRegexp(v[1].(string))
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
		in := []Expr{args[0]}
		if len(args) == 2 {
			sep, err := p.cast(args[1], TString)
			if err != nil {
				return nil, true, err
			}
			in = append(in, sep)
		}
		return nestedFunc(name+"(...)", TString, in, func(v []any) (any, error) {
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
				parts = append(parts, FormatScalar(plainType(et), s))
			}
			if parts == nil && len(v[0].([]any)) > 0 {
				// As DuckDB's string_agg over the elements: NULL when
				// there are elements and all are NULL ([] gives '').
				return nil, nil
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
			k, ok := IsConst(args[1])
			s, isStr := k.V.(string)
			if !ok || !isStr {
				return nil, true, errorf("the order of %s must be 'ASC' or 'DESC'", name)
			}
			desc = strings.EqualFold(s, "desc")
		}
		pt := plainType(et)
		return nestedFunc(name+"("+args[0].String()+")", args[0].Type(), args[:1], func(v []any) (any, error) {
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
						return vec.CompareScalars(pt, x, y) > 0
					}
					return vec.CompareScalars(pt, x, y) < 0
				})
			case strings.Contains(name, "distinct"):
				var keep []int
				for _, i := range idx {
					if vals[i] == nil {
						continue // list_distinct drops NULLs
					}
					dup := false
					for _, j := range keep {
						dup = dup || vec.CompareScalars(pt, vals[i], vals[j]) == 0
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
		case name == "list_sum" && pt.Op() == KInt:
			rt = TInt
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
			var sumD function.DecSum
			for _, x := range vals {
				if x == nil {
					continue
				}
				n++
				switch name {
				case "list_min", "list_max":
					if acc == nil || (function.ExtremeCmp(pt, x, acc) < 0) == (name == "list_min") && function.ExtremeCmp(pt, x, acc) != 0 {
						acc = x
					}
				default:
					switch pt.Kind {
					case KDecimal:
						if d, ok := x.(value.Decimal); ok {
							sumD.AddDecimal(d, pt.Scale)
						} else {
							sumD.AddUnscaled(x.(int64))
						}
					case KFloat:
						sumF += x.(float64)
					default:
						s, overflow := function.AddInt64(sumI, x.(int64))
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
					f, _ := decRat(sumD.Value(pt.Scale)).Float64()
					return f / float64(n), nil
				}
				return sumF / float64(n), nil
			}
			switch pt.Kind {
			case KDecimal:
				return sumD.Value(pt.Scale), nil
			case KFloat:
				return sumF, nil
			}
			return sumI, nil
		}), true, nil
	case "flatten":
		if len(args) != 1 {
			return nil, true, errorf("flatten takes a list of lists")
		}
		et, ok := listElem(args[0].Type())
		if _, inner := listElem(et); !ok || !inner {
			return nil, true, errorf("flatten needs a list of lists, not %s", args[0].Type().SQLName())
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
		_, isList := listElem(args[0].Type())
		isString := args[0].Type().Kind == KString
		if !isList && !isString {
			return nil, true, errorf("%s needs a list or a string, not %s", name, args[0].Type().SQLName())
		}
		bounds, err := castAll(p, args[1:], TInt)
		if err != nil {
			return nil, true, err
		}
		e := nestedFunc(name+"(...)", args[0].Type(), append([]Expr{args[0]}, bounds...), func(v []any) (any, error) {
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
			pos := func(x any, def, hi int64) int64 {
				i, ok := x.(int64)
				if !ok {
					return def
				}
				if i < 0 {
					i += n + 1
				}
				return max(min(i, hi), 0)
			}
			// A start past the end gives nothing ([-1][2:] is []), so
			// it is kept one past the last element, not clamped to it.
			from, to := pos(v[1], 1, n+1), pos(v[2], n, n)
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
		if _, ok := listElem(args[0].Type()); !ok {
			return nil, true, errorf("%s needs lists, not %s", name, args[0].Type().SQLName())
		}
		other, err := p.cast(args[1], args[0].Type())
		if err != nil {
			return nil, true, err
		}
		t := TBool
		if strings.HasSuffix(name, "intersect") {
			t = args[0].Type()
		}
		return nestedFunc(name+"(...)", t, []Expr{args[0], other}, func(v []any) (any, error) {
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
		t := TInt
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
		if _, ok := listElem(args[0].Type()); !ok {
			return nil, true, errorf("%s needs lists, not %s", name, args[0].Type().SQLName())
		}
		e := nestedFunc(name+"(...)", args[0].Type(), args, func(v []any) (any, error) {
			// NULL lists count as empty: list_concat(NULL, NULL) is []
			// in DuckDB (its || operator is strict, bindListConcatOp).
			a, _ := v[0].([]any)
			b, _ := v[1].([]any)
			return append(append([]any{}, a...), b...), nil
		})
		e.strict = false
		return e, true, nil
	case "list_position", "array_position", "list_indexof", "array_indexof":
		l, needle, et, err := p.listAndValue(name, args)
		if err != nil {
			return nil, true, err
		}
		return nestedFunc(name+"(...)", TInt, []Expr{l, needle}, func(v []any) (any, error) {
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
		e := nestedFunc(name+"(...)", args[li].Type(), []Expr{args[li], val}, func(v []any) (any, error) {
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
			et = TInt
		}
		if et.Kind == KNull {
			et = TInt
		}
		et = plainType(et)
		cast := make([]Expr, len(args))
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

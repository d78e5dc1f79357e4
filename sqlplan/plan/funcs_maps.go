package plan

import "strings"

// Map functions of DuckDB's list that carquet lacked, with DuckDB's
// (v1.5) results and errors: map_concat, map_entries, map_from_entries,
// map_extract_value and map_contains. Maps are the Go maps of
// nestedvals.go; their entries come in key order, as map_keys gives them.

func init() {
	addFuncs(map[string]*fn{
		"map_concat":        {Min: 2, Max: -1},
		"map_entries":       {Min: 1, Max: 1},
		"map_from_entries":  {Min: 1, Max: 1},
		"map_extract_value": {Min: 2, Max: 2},
		"map_contains":      {Min: 2, Max: 2},
	})
}

// bindMapMore binds this file's functions; ok is false for other names.
func (p *Planner) bindMapMore(name string, args []Expr) (Expr, bool, error) {
	var e Expr
	var err error
	switch name {
	case "map_concat":
		e, err = p.bindMapConcat(args)
	case "map_entries":
		e, err = p.bindMapEntries(args[0])
	case "map_from_entries":
		e, err = p.bindMapFromEntries(args[0])
	case "map_extract_value", "map_contains":
		e, err = p.bindMapKeyFunc(name, args)
	default:
		return nil, false, nil
	}
	return e, true, err
}

// mapArg is the key and value types of argument a of function name, or
// the error that a is not a map.
func mapArg(name string, a Expr) (Type, Type, error) {
	kt, vt, ok := mapKV(a.Type())
	if !ok {
		return Type{}, Type{}, errorf("%s needs a map, not %s", name, a.Type().SQLName())
	}
	return plainType(kt), plainType(vt), nil
}

// mapEntries calls f with each entry of Go map m, in key order.
func mapEntries(kt Type, m any, f func(k, v any)) error {
	switch m := m.(type) {
	case map[string]any:
		for _, k := range sortedKeys(m) {
			f(k, m[k])
		}
	case map[any]any:
		keys, err := sortedAnyKeys(kt, m)
		if err != nil {
			return err
		}
		for _, k := range keys {
			f(k, m[k])
		}
	}
	return nil
}

// bindMapConcat binds map_concat(m1, m2, ...): the maps merged, a later
// map's value winning for a key in several; NULL maps are skipped (all
// NULL: NULL). The maps must have one type, as DuckDB asks.
func (p *Planner) bindMapConcat(args []Expr) (Expr, error) {
	var kt, vt Type
	var typed Expr
	for _, a := range args {
		if a.Type().Kind == KNull {
			continue
		}
		k, v, err := mapArg("map_concat", a)
		if err != nil {
			return nil, err
		}
		if typed == nil {
			kt, vt, typed = k, v, a
			continue
		}
		if k.SQLName() != kt.SQLName() || v.SQLName() != vt.SQLName() {
			return nil, errorf("map_concat: 'value' type of map differs between arguments, expected '%s', found '%s' instead", typed.Type().SQLName(), a.Type().SQLName())
		}
	}
	if typed == nil {
		return &ConstExpr{T: Type{Kind: KNull}}, nil
	}
	texts := make([]string, len(args))
	for i, a := range args {
		texts[i] = a.String()
	}
	e := nestedFunc("map_concat("+strings.Join(texts, ", ")+")", mapType(kt, vt), args, func(v []any) (any, error) {
		var keys, vals []any
		at := map[string]int{} // a key's text: its place in keys
		for _, m := range v {
			err := mapEntries(kt, m, func(k, x any) {
				s, err := fromGo(kt, k)
				if err != nil || s == nil {
					return
				}
				text := FormatScalar(kt, s)
				val, _ := fromGo(vt, x)
				if i, dup := at[text]; dup {
					vals[i] = val
					return
				}
				at[text] = len(keys)
				keys, vals = append(keys, s), append(vals, val)
			})
			if err != nil {
				return nil, err
			}
		}
		if allNil(v) {
			return nil, nil
		}
		return buildMap(kt, vt, keys, vals)
	})
	e.strict = false
	return e, nil
}

// orErr is err, or alt when err is nil.
func orErr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// allNil reports whether every value is NULL.
func allNil(v []any) bool {
	for _, x := range v {
		if x != nil {
			return false
		}
	}
	return true
}

// entryType is the struct of a map entry: {key, value}.
func entryType(kt, vt Type) Type {
	return Type{Kind: KNested, Fields: []NamedType{{Name: "key", Type: kt}, {Name: "value", Type: vt}}}
}

// bindMapEntries binds map_entries(m): the entries as a list of {key,
// value} structs, in key order.
func (p *Planner) bindMapEntries(m Expr) (Expr, error) {
	kt, vt, err := mapArg("map_entries", m)
	if err != nil {
		if m.Type().Kind == KNull {
			return &ConstExpr{T: Type{Kind: KNull}}, nil
		}
		return nil, err
	}
	et := entryType(kt, vt)
	return nestedFunc("map_entries("+m.String()+")", Type{Kind: KNested, Elem: &et}, []Expr{m}, func(v []any) (any, error) {
		out := []any{}
		err := mapEntries(kt, v[0], func(k, x any) {
			out = append(out, map[string]any{"key": k, "value": x})
		})
		return out, err
	}), nil
}

// bindMapFromEntries binds map_from_entries(list): a map from a list of
// two-field structs (key, then value, whatever their names); a NULL or
// repeated key is an error, as a NULL entry is.
func (p *Planner) bindMapFromEntries(l Expr) (Expr, error) {
	if l.Type().Kind == KNull {
		return &ConstExpr{T: Type{Kind: KNull}}, nil
	}
	et, err := listArgElem("map_from_entries", l)
	if err != nil {
		return nil, err
	}
	fields, ok := structFields(et)
	if !ok || len(fields) != 2 {
		return nil, errorf("map_from_entries needs a list of structs of two fields (key, value), not %s", l.Type().SQLName())
	}
	kt, vt := plainType(fields[0].Type), plainType(fields[1].Type)
	return nestedFunc("map_from_entries("+l.String()+")", mapType(kt, vt), []Expr{l}, func(v []any) (any, error) {
		entries := v[0].([]any)
		keys, vals := make([]any, len(entries)), make([]any, len(entries))
		for i, x := range entries {
			s, _ := x.(map[string]any)
			if s == nil {
				return nil, errorf("Map keys can not be NULL.")
			}
			var err error
			if keys[i], err = fromGo(kt, s[fields[0].Name]); err != nil || keys[i] == nil {
				return nil, orErr(err, errorf("Map keys can not be NULL."))
			}
			if vals[i], err = fromGo(vt, s[fields[1].Name]); err != nil {
				return nil, err
			}
		}
		return buildMap(kt, vt, keys, vals)
	}), nil
}

// bindMapKeyFunc binds map_extract_value(m, key) (the value under key, or
// NULL) and map_contains(m, key) (whether key is there).
func (p *Planner) bindMapKeyFunc(name string, args []Expr) (Expr, error) {
	if args[0].Type().Kind == KNull {
		return &ConstExpr{T: Type{Kind: KNull}}, nil
	}
	kt, vt, err := mapArg(name, args[0])
	if err != nil {
		return nil, err
	}
	key, err := p.cast(args[1], kt)
	if err != nil {
		return nil, err
	}
	t := vt
	if name == "map_contains" {
		t = TBool
	}
	return nestedFunc(name+"("+args[0].String()+", "+args[1].String()+")", t, []Expr{args[0], key}, func(v []any) (any, error) {
		x, found, err := mapLookup(kt, vt, v[0], v[1])
		if name == "map_contains" {
			return found, err
		}
		return x, err
	}), nil
}

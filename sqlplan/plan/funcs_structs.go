package plan

import (
	"strings"
)

// Struct functions of DuckDB's list that carquet lacked, with DuckDB's
// (v1.5) results and errors: struct_keys and struct_values (a struct's
// field names as a list, its values as an unnamed struct), struct_has /
// struct_contains and struct_indexof / struct_position (an unnamed
// struct searched for a value, as list_contains and list_position search
// a list) and struct_update (fields replaced or added by name := value).

func init() {
	addFuncs(map[string]*fn{
		"struct_keys":     {Min: 1, Max: 1},
		"struct_values":   {Min: 1, Max: 1},
		"struct_has":      {Min: 2, Max: 2},
		"struct_contains": {Min: 2, Max: 2},
		"struct_indexof":  {Min: 2, Max: 2},
		"struct_position": {Min: 2, Max: 2},
		"struct_update":   {Min: 1, Max: -1},
	})
}

// bindStructMore binds this file's functions; ok is false for other names.
func (p *Planner) bindStructMore(name string, args []Expr) (Expr, bool, error) {
	var e Expr
	var err error
	switch name {
	case "struct_keys":
		e, err = p.bindStructKeys(args[0])
	case "struct_values":
		e, err = p.bindStructValues(args[0])
	case "struct_has", "struct_contains", "struct_indexof", "struct_position":
		e, err = p.bindStructSearch(name, args[0], args[1])
	case "struct_update":
		e, err = p.bindStructUpdate(args)
	case "remap_struct":
		e, err = p.bindRemapStruct(args) // funcs_remap.go
	default:
		return nil, false, nil
	}
	return e, true, err
}

// bindStructKeys is struct_keys(s): the field names of a named struct.
func (p *Planner) bindStructKeys(s Expr) (Expr, error) {
	lt := Type{Kind: KNested, Elem: &TString}
	if s.Type().Kind == KNull {
		return &ConstExpr{T: lt}, nil
	}
	fields, ok := structFields(s.Type())
	if !ok {
		return nil, errorf("struct_keys() expects a STRUCT argument")
	}
	if s.Type().Unnamed {
		return nil, errorf("struct_keys() cannot be applied to an unnamed STRUCT")
	}
	keys := make([]any, len(fields))
	for i, f := range fields {
		keys[i] = f.Name
	}
	return nestedFunc("struct_keys("+s.String()+")", lt, []Expr{s}, func([]any) (any, error) {
		return keys, nil
	}), nil
}

// bindStructValues is struct_values(s): the fields' values as an unnamed
// struct of the same types.
func (p *Planner) bindStructValues(s Expr) (Expr, error) {
	if s.Type().Kind == KNull {
		return &ConstExpr{T: tInt32Null}, nil // DuckDB's type of struct_values(NULL)
	}
	fields, ok := structFields(s.Type())
	if !ok {
		return nil, errorf("struct_values() expects a STRUCT argument")
	}
	out := make([]NamedType, len(fields))
	for i, f := range fields {
		out[i] = NamedType{Name: unnamedField(i), Type: plainType(f.Type)}
	}
	return nestedFunc("struct_values("+s.String()+")", Type{Kind: KNested, Fields: out, Unnamed: true}, []Expr{s}, func(v []any) (any, error) {
		m, _ := v[0].(map[string]any)
		vals := make(map[string]any, len(fields))
		for i, f := range fields {
			vals[out[i].Name] = m[f.Name]
		}
		return vals, nil
	}), nil
}

// bindStructSearch is struct_has / struct_contains (is x one of the
// fields of unnamed struct s?) and struct_indexof / struct_position (the
// last such field's position, from 1, as DuckDB gives it; NULL when
// none is). A field is
// compared only when its type and x's are of one family (numbers with
// numbers, text with text): DuckDB finds no '2' among INTEGER fields.
// NULL when s or x is NULL.
func (p *Planner) bindStructSearch(name string, s, x Expr) (Expr, error) {
	position := name == "struct_indexof" || name == "struct_position"
	rt := TBool
	if position {
		rt = TInteger
	}
	if s.Type().Kind == KNull || x.Type().Kind == KNull {
		return &ConstExpr{T: rt}, nil
	}
	fields, ok := structFields(s.Type())
	if !ok {
		return nil, errorf("%s() expects a STRUCT argument", name)
	}
	if !s.Type().Unnamed {
		return nil, errorf("%s can only be used on unnamed structs", name)
	}
	// One equality per comparable field: the comparisons run on the
	// fields' vectors; eval picks the match per row.
	args := []Expr{s, x}
	var at []int // the field position of each comparison
	for i, f := range fields {
		if !sameFamily(f.Type, x.Type()) {
			continue
		}
		field, err := p.structAt(s, int64(i+1), "struct_extract")
		if err != nil {
			return nil, err
		}
		eq, err := p.compare(opEq, field, x)
		if err != nil {
			return nil, err
		}
		args, at = append(args, eq), append(at, i+1)
	}
	e := &funcExpr{name: name, args: args, t: rt, vec: func(a []*Col, n int) (*Col, error) {
		bld := NewBuilder(rt, n)
		for i := range n {
			if a[0].IsNull(i) || a[1].IsNull(i) {
				bld.Add(nil)
				continue
			}
			found := 0
			for k, eq := range a[2:] {
				if !eq.IsNull(i) && eq.B[i] {
					found = at[k] // DuckDB gives the last match
				}
			}
			switch {
			case !position:
				bld.Add(found > 0)
			case found > 0:
				bld.Add(int64(found))
			default:
				bld.Add(nil)
			}
		}
		return bld.C, nil
	}}
	e.setText(name + "(" + s.String() + ", " + x.String() + ")")
	return e, nil
}

// sameFamily reports whether values of types a and b compare in DuckDB's
// struct search: both numbers, or both of one kind (nested values of one
// type).
func sameFamily(a, b Type) bool {
	switch {
	case a.IsNumeric() && b.IsNumeric():
		return true
	case a.Kind != b.Kind || a.Kind == KNull:
		return false
	case a.Kind == KNested:
		return a.SQLName() == b.SQLName()
	}
	return true
}

// bindStructUpdate is struct_update(s, name := value, ...): s with the
// named fields replaced in place (any case; the new name shows) and the
// others added at the end. A NULL struct gives NULL to the fields not
// updated.
func (p *Planner) bindStructUpdate(args []Expr) (Expr, error) {
	if len(args) == 1 {
		return nil, errorf("Can't update nothing into a STRUCT")
	}
	if len(args)%2 == 0 {
		return nil, errorf("Need named argument for struct update, e.g., a := b")
	}
	s := args[0]
	old, ok := structFields(s.Type())
	if !ok || s.Type().Unnamed {
		return nil, errorf("struct_update needs a struct with named fields, not %s", s.Type().SQLName())
	}
	upd, err := p.bindNamedFields(args[1:], "Need named argument for struct update, e.g., a := b")
	if err != nil {
		return nil, err
	}
	// from[i] is where field i of the result comes from: the old struct's
	// field of that name, or "" for an updated one.
	fields := make([]NamedType, 0, len(old)+len(upd.t.Fields))
	from := make([]string, 0, cap(fields))
	replaced := make(map[int]bool, len(upd.t.Fields))
	for _, f := range old {
		nt, src := f, f.Name
		for k, nf := range upd.t.Fields {
			if strings.EqualFold(nf.Name, f.Name) {
				nt, src, replaced[k] = nf, "", true
			}
		}
		fields, from = append(fields, NamedType{Name: nt.Name, Type: plainType(nt.Type)}), append(from, src)
	}
	for k, nf := range upd.t.Fields {
		if !replaced[k] {
			fields, from = append(fields, nf), append(from, "")
		}
	}
	e := nestedFunc("struct_update("+s.String()+", "+upd.String()+")", Type{Kind: KNested, Fields: fields}, []Expr{s, upd}, func(v []any) (any, error) {
		m, _ := v[0].(map[string]any)
		u := v[1].(map[string]any)
		out := make(map[string]any, len(fields))
		for i, f := range fields {
			if from[i] != "" {
				out[f.Name] = m[from[i]]
			} else {
				out[f.Name] = u[f.Name]
			}
		}
		return out, nil
	})
	e.strict = false // a NULL struct still takes the new fields
	return e, nil
}

// tInt32Null is the type DuckDB gives getvariable of an unset variable.
var tInt32Null = Type{Kind: KInt, Bits: 32}

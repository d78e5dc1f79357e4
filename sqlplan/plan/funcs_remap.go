package plan

import (
	"strings"
)

// remap_struct(s, target, mapping, defaults) as DuckDB (v1.5) has it: s
// rebuilt as a struct of target's type (a typed NULL gives it), each
// target field taken from the source field mapping names ({'x': 'a'}),
// or remapped from a struct field in turn (ROW('a', {'r': 'q'})), or
// given by defaults ({'z': 'none'}; NULL for none); the values cast to
// the target's types. The mapping and defaults are constants, checked
// when the call is bound, with DuckDB's errors.

func init() {
	addFuncs(map[string]*fn{"remap_struct": {Min: 4, Max: 4}})
}

// remapField is how one field of the target is made.
type remapField struct {
	name string
	t    Type
	// src is the source field (its exact name and type), or "" for a
	// default, def.
	src  string
	from Type
	sub  []remapField // a struct field remapped in turn
	def  any
}

// bindRemapStruct binds remap_struct.
func (p *Planner) bindRemapStruct(args []Expr) (Expr, error) {
	for k, a := range args {
		if _, isStruct := structFields(a.Type()); !isStruct && !(k == 3 && a.Type().Kind == KNull) {
			return nil, errorf("Struct remap can only remap nested types, not '%s'", a.Type().SQLName())
		}
	}
	mapping, ok := constValue(args[2])
	if !ok {
		return nil, errorf("The mapping argument of remap_struct must be a constant")
	}
	defaults, ok := constValue(args[3])
	if !ok {
		return nil, errorf("The defaults argument of remap_struct must be a constant")
	}
	target := args[1].Type()
	fields, err := remapPlan(args[0].Type(), target, args[2].Type(), mapping, args[3].Type(), defaults)
	if err != nil {
		return nil, err
	}
	t := Type{Kind: KNested, Fields: append([]NamedType(nil), mustFields(target)...)}
	text := "remap_struct(" + args[0].String() + ", " + args[1].String() + ", " + args[2].String() + ", " + args[3].String() + ")"
	return nestedFunc(text, t, args[:1], func(v []any) (any, error) {
		return remapValue(v[0], fields)
	}), nil
}

// mustFields is the fields of a struct type (none for another type).
func mustFields(t Type) []NamedType {
	f, _ := structFields(t)
	return f
}

// remapPlan checks a mapping (of type mt, value m) and defaults (dt, d)
// from struct type from to struct type to, and says how each field of to
// is made.
func remapPlan(from, to, mt Type, m any, dt Type, d any) ([]remapField, error) {
	targets := mustFields(to)
	out := make([]remapField, len(targets))
	given := make([]bool, len(targets))
	targetAt := func(name, missing string) (int, error) {
		for k, f := range targets {
			if strings.EqualFold(f.Name, name) {
				if given[k] {
					return 0, errorf("Duplicate value provided for target %s", f.Name)
				}
				given[k] = true
				return k, nil
			}
		}
		return 0, errorf(missing, name)
	}
	mv, _ := m.(map[string]any)
	for _, mf := range mustFields(mt) {
		k, err := targetAt(mf.Name, "Target value %s not found")
		if err != nil {
			return nil, err
		}
		f := remapField{name: targets[k].Name, t: plainType(targets[k].Type)}
		srcName, sub, subType := mv[mf.Name], any(nil), Type{}
		if pair, isRow := srcName.(map[string]any); isRow && mf.Type.Unnamed {
			// ROW(source, mapping): a struct field remapped in turn.
			pf := mustFields(mf.Type)
			if len(pf) != 2 {
				return nil, errorf("Struct remap of %s needs ROW(source, mapping)", f.name)
			}
			srcName, sub, subType = pair[pf[0].Name], pair[pf[1].Name], pf[1].Type
		}
		name, isStr := srcName.(string)
		if !isStr {
			return nil, errorf("Struct remap of %s needs a source field name", f.name)
		}
		ft, exact, found := structField(from, name)
		if !found {
			return nil, errorf("Source value %s not found", name)
		}
		f.src, f.from = exact, plainType(ft)
		if subType.Kind != KNull && sub != nil {
			if f.sub, err = remapPlan(ft, targets[k].Type, subType, sub, Type{}, nil); err != nil {
				return nil, err
			}
		}
		out[k] = f
	}
	dv, _ := d.(map[string]any)
	for _, df := range mustFields(dt) {
		k, err := targetAt(df.Name, "Default value %s not found for remap")
		if err != nil {
			return nil, err
		}
		t := plainType(targets[k].Type)
		def, err := castLeaf(dv[df.Name], df.Type, t, false)
		if err != nil {
			return nil, err
		}
		out[k] = remapField{name: targets[k].Name, t: t, def: def}
	}
	for k, f := range targets {
		if !given[k] {
			return nil, errorf("Missing target value %s for remap", f.Name)
		}
	}
	return out, nil
}

// remapValue makes the target struct of source struct value v.
func remapValue(v any, fields []remapField) (any, error) {
	m, isStruct := v.(map[string]any)
	if !isStruct {
		return nil, nil
	}
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		var x any
		var err error
		switch {
		case f.src == "":
			x = f.def
		case f.sub != nil:
			x, err = remapValue(m[f.src], f.sub)
		default:
			x, err = castLeaf(m[f.src], f.from, f.t, false)
		}
		if err != nil {
			return nil, err
		}
		out[f.name] = x
	}
	return out, nil
}

// constValue is the value of an expression of constants only (a struct
// or list literal is a function of its constants), as the engine's Go
// value; false when it reads a column or is volatile.
func constValue(e Expr) (any, bool) {
	switch x := e.(type) {
	case *ConstExpr:
		return toGo(x.T, x.V), true
	case *funcExpr:
		if x.name == "random" || x.name == "setseed" || x.name == "sleep_ms" {
			return nil, false
		}
		for _, a := range x.args {
			if _, ok := constValue(a); !ok {
				return nil, false
			}
		}
		c, err := x.Eval(&Batch{N: 1})
		if err != nil {
			return nil, false
		}
		return c.Get(0), true
	case *castExpr:
		if _, ok := constValue(x.e); !ok {
			return nil, false
		}
		c, err := x.Eval(&Batch{N: 1})
		if err != nil {
			return nil, false
		}
		return c.Get(0), true
	}
	return nil, false
}

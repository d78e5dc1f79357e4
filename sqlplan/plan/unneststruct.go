package plan

import (
	"strconv"

	"github.com/xwb1989/sqlparser"
)

// unnest in the select list, as DuckDB has it: unnest(list) gives a row
// per element; unnest(struct) gives its fields as columns (an unnamed
// struct's named element1, element2, ...), in the same row;
// unnest(x, recursive := true) also flattens lists of lists and splits
// the fields of structs, nested ones too (a list of structs: a column
// per field, each unnested, so that the zip of the unnests keeps the
// fields of one element in one row); unnest(x, max_depth := n) flattens n
// levels of lists.

// maxUnnestDepth bounds max_depth (a list type is rarely deeper).
const maxUnnestDepth = 64

// unnestOut is one select column of an unnest item: its expression, its
// name ("" for the item's own) and whether it is unnested (a row per
// element) or a plain value.
type unnestOut struct {
	e    Expr
	name string
	rows bool
}

// bindUnnestItem binds unnest(...) as a select item into its columns.
func (p *Planner) bindUnnestItem(f *sqlparser.FuncExpr, sc *Scope) ([]unnestOut, error) {
	args := funcArgExprs(f)
	if len(args) == 0 || len(args) != len(f.Exprs) || len(args)%2 == 0 {
		return nil, errorf("unnest takes one list or struct, and recursive := or max_depth :=")
	}
	x, err := p.BindExpr(args[0], sc, nil)
	if err != nil {
		return nil, err
	}
	recursive, depth := false, 1
	for k := 1; k < len(args); k += 2 {
		name, v, err := p.unnestOption(args[k], args[k+1], sc)
		if err != nil {
			return nil, err
		}
		switch name {
		case "recursive":
			recursive = v.(bool)
		case "max_depth":
			n := v.(int64)
			if n < 1 || n > maxUnnestDepth {
				return nil, errorf("unnest: max_depth must be between 1 and %d", maxUnnestDepth)
			}
			depth = int(n)
		}
	}
	if _, isStruct := structFields(x.Type()); isStruct {
		return p.unnestFields(x, recursive, false), nil
	}
	if recursive {
		depth = maxUnnestDepth
	}
	l := flattenLists(x, depth)
	et, _ := listElem(l.Type())
	if _, isStruct := structFields(et); isStruct && recursive {
		return p.unnestFields(l, true, true), nil
	}
	e, err := p.bindUnnest(l)
	if err != nil {
		return nil, err
	}
	return []unnestOut{{e: e, rows: true}}, nil
}

// unnestOption reads a named option of unnest (the rewrite made name :=
// value a name string and a value): recursive (a boolean) or max_depth
// (an integer), constants.
func (p *Planner) unnestOption(name, value sqlparser.Expr, sc *Scope) (string, any, error) {
	n, err := p.BindExpr(name, sc, nil)
	if err != nil {
		return "", nil, err
	}
	c, _ := IsConst(n)
	s, _ := c.V.(string)
	v, err := p.BindExpr(value, sc, nil)
	if err != nil {
		return "", nil, err
	}
	want := map[string]Type{"recursive": TBool, "max_depth": TInt}[s]
	if want.Kind == KNull {
		return "", nil, errorf("unnest takes the named arguments recursive and max_depth, not %q", s)
	}
	if v, err = p.cast(v, want); err != nil {
		return "", nil, err
	}
	k, ok := IsConst(v)
	if !ok || k.V == nil {
		return "", nil, errorf("unnest: %s must be a constant", s)
	}
	return s, k.V, nil
}

// unnestFields splits x, a struct (or with ofList a list of structs),
// into a column per field, nested structs too with recursive; the columns
// of a list are lists of the field's values, unnested.
func (p *Planner) unnestFields(x Expr, recursive, ofList bool) []unnestOut {
	st := x.Type()
	if ofList {
		st, _ = listElem(st)
	}
	fields, _ := structFields(st)
	var out []unnestOut
	for i, f := range fields {
		name := f.Name
		if st.Unnamed {
			name = "element" + strconv.Itoa(i+1)
		}
		fe := fieldOfValue(x, f, ofList)
		if _, isStruct := structFields(f.Type); isStruct && recursive {
			out = append(out, p.unnestFields(fe, true, ofList)...)
			continue
		}
		if ofList {
			u, _ := p.bindUnnest(fe) // a list: bindUnnest cannot fail
			fe = u
		}
		out = append(out, unnestOut{e: withText(fe, name), name: name, rows: ofList})
	}
	return out
}

// fieldOfValue is field f of struct x, or with ofList the list of field
// f of each struct of list x (NULL for a NULL struct).
func fieldOfValue(x Expr, f NamedType, ofList bool) Expr {
	text := x.String() + "." + f.Name
	if !ofList {
		e := nestedFunc(text, plainType(f.Type), []Expr{x}, func(v []any) (any, error) {
			m, _ := v[0].(map[string]any)
			return fromGo(plainType(f.Type), m[f.Name])
		})
		e.strict = false // a NULL struct: NULL fields
		return e
	}
	ft := plainType(f.Type)
	return nestedFunc(text, Type{Kind: KNested, Elem: &ft}, []Expr{x}, func(v []any) (any, error) {
		l := asList(v[0])
		out := make([]any, len(l))
		for i, el := range l {
			m, _ := el.(map[string]any)
			out[i] = m[f.Name]
		}
		return out, nil
	})
}

// flattenLists is x with up to depth-1 levels of lists of lists
// flattened into one list (unnest(x, max_depth := depth) then unnests
// it).
func flattenLists(x Expr, depth int) Expr {
	for ; depth > 1; depth-- {
		et, ok := listElem(x.Type())
		if !ok {
			return x
		}
		inner, ok := listElem(et)
		if !ok {
			return x
		}
		inner = plainType(inner)
		x = nestedFunc("flatten("+x.String()+")", Type{Kind: KNested, Elem: &inner}, []Expr{x}, func(v []any) (any, error) {
			out := []any{}
			for _, l := range asList(v[0]) {
				out = append(out, asList(l)...)
			}
			return out, nil
		})
	}
	return x
}

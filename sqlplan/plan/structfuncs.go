package plan

import (
	"strconv"
	"strings"
)

// DuckDB's struct_concat(s1, s2, ...) and struct_extract_at(s, n).

// bindStructConcat is struct_concat: one struct of the arguments' fields
// in order (a NULL struct gives its fields NULL), all named or all
// unnamed, no name twice; DuckDB's errors otherwise.
func (p *Planner) bindStructConcat(args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, errorf("struct_concat: At least one argument is required")
	}
	var out []NamedType
	var from [][2]string // for each field out: the argument's field name
	unnamed := args[0].Type().Unnamed
	seen := map[string]bool{}
	texts := make([]string, len(args))
	for i, a := range args {
		fields, ok := structFields(a.Type())
		if !ok || a.Type().MapOf {
			return nil, errorf("struct_concat: Argument at position \"%d\" is not a STRUCT", i+1)
		}
		if a.Type().Unnamed != unnamed {
			return nil, errorf("struct_concat: Cannot mix named and unnamed STRUCTs")
		}
		for _, f := range fields {
			name := f.Name
			if unnamed {
				name = unnamedField(len(out))
			} else if low := strings.ToLower(name); seen[low] {
				return nil, errorf("struct_concat: Arguments contain duplicate STRUCT entry %q", f.Name)
			} else {
				seen[low] = true
			}
			out = append(out, NamedType{Name: name, Type: f.Type})
			from = append(from, [2]string{strconv.Itoa(i), f.Name})
		}
		texts[i] = a.String()
	}
	t := Type{Kind: KNested, Fields: out, Unnamed: unnamed}
	e := nestedFunc("struct_concat("+strings.Join(texts, ", ")+")", t, args, func(v []any) (any, error) {
		m := make(map[string]any, len(out))
		for k, f := range out {
			arg, _ := strconv.Atoi(from[k][0])
			if s, ok := v[arg].(map[string]any); ok {
				m[f.Name] = s[from[k][1]]
			} else {
				m[f.Name] = nil
			}
		}
		return m, nil
	})
	e.strict = false // a NULL argument gives NULL fields, not a NULL struct
	return e, nil
}

// bindStructExtractAt is struct_extract_at(s, n): the n-th field (from
// 1) of a named or unnamed struct, n a constant as DuckDB requires.
func (p *Planner) bindStructExtractAt(args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, errorf("struct_extract_at takes a struct and a position")
	}
	if args[0].Type().Kind == KNull {
		return &ConstExpr{T: Type{Kind: KNull}}, nil
	}
	if _, ok := structFields(args[0].Type()); !ok || args[0].Type().MapOf {
		return nil, errorf("struct_extract_at needs a struct, not %s", args[0].Type().SQLName())
	}
	if k, ok := IsConst(args[1]); ok && k.V == nil {
		return &ConstExpr{T: Type{Kind: KNull}}, nil // a NULL position: NULL
	} else if ok && isIntKind(k.T) {
		if n, isInt := k.V.(int64); isInt {
			return p.structAt(args[0], n, "struct_extract_at")
		}
	}
	return nil, errorf("Key index for struct_extract needs to be a constant value")
}

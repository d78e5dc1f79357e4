package plan

import (
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB's functions of ENUM types: enum_range, enum_first, enum_last and
// enum_range_boundary read the type of their argument (not its value,
// which may be NULL), enum_code the value's code.

func init() {
	addFuncs(map[string]*fn{
		"enum_range":          {Min: 1, Max: 1},
		"enum_first":          {Min: 1, Max: 1},
		"enum_last":           {Min: 1, Max: 1},
		"enum_code":           {Min: 1, Max: 1},
		"enum_range_boundary": {Min: 2, Max: 2},
	})
}

// errNeedsEnum is DuckDB's error for an argument that is not an ENUM.
func errNeedsEnum() error { return errorf("This function needs an ENUM as an argument") }

// bindEnumFunc binds the ENUM functions; ok is false for other names.
func (p *Planner) bindEnumFunc(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "enum_range", "enum_first", "enum_last", "enum_code":
	case "enum_range_boundary":
		e, err := p.bindEnumBoundary(args)
		return e, true, err
	default:
		return nil, false, nil
	}
	t := args[0].Type()
	if t.Kind != KEnum {
		return nil, true, errNeedsEnum()
	}
	values := t.Enum.Values
	switch name {
	case "enum_range":
		return &ConstExpr{T: tStrings, V: EnumList(values)}, true, nil
	case "enum_first", "enum_last":
		if len(values) == 0 {
			return &ConstExpr{T: TString}, true, nil
		}
		v := values[0]
		if name == "enum_last" {
			v = values[len(values)-1]
		}
		return &ConstExpr{T: TString, V: v}, true, nil
	}
	// enum_code: the codes are the column's integers, retyped.
	ct := t.Enum.CodeType()
	e := &funcExpr{name: name, args: args, t: ct, strict: true, vec: func(a []*Col, n int) (*Col, error) {
		out := *a[0]
		out.T = ct
		return &out, nil
	}}
	e.setParts("enum_code(", args[0], ")")
	folded, err := p.fold(e, args...)
	return folded, true, err
}

// bindEnumBoundary binds enum_range_boundary(a, b): the values from a
// (the first when NULL) to b (the last when NULL), empty when b comes
// before a; both are of one ENUM, and one at least is typed so.
func (p *Planner) bindEnumBoundary(args []Expr) (Expr, error) {
	lt, rt := args[0].Type(), args[1].Type()
	var t Type
	switch {
	case lt.Kind == KEnum && (rt.Kind == KNull || rt.Kind == KEnum && vec.SameEnum(lt.Enum, rt.Enum)):
		t = lt
	case rt.Kind == KEnum && lt.Kind == KNull:
		t = rt
	default:
		return nil, errNeedsEnum()
	}
	for i := range args {
		c, err := p.cast(args[i], WithoutField(t))
		if err != nil {
			return nil, err
		}
		args[i] = c
	}
	values := t.Enum.Values
	e := &funcExpr{name: "enum_range_boundary", args: args, t: tStrings, row: func(a []*Col, i int) (any, error) {
		from, to := 0, len(values)-1
		if !a[0].IsNull(i) {
			from = int(a[0].I[i])
		}
		if !a[1].IsNull(i) {
			to = int(a[1].I[i])
		}
		if to < from {
			return []any{}, nil
		}
		return EnumList(values[from : to+1]), nil
	}}
	e.setParts("enum_range_boundary(", args[0], ", ", args[1], ")")
	return p.fold(e, args...)
}

// EnumList is values as a list value.
func EnumList(values []string) []any {
	out := make([]any, len(values))
	for i, v := range slices.Clone(values) {
		out[i] = v
	}
	return out
}

// unifyEnum is the type an ENUM meets another in: the ENUM itself with
// the same ENUM or a NULL, else VARCHAR (DuckDB compares an ENUM with
// text, or with another ENUM, as text).
func unifyEnum(a, b Type) Type {
	switch {
	case a.Kind == KEnum && b.Kind == KEnum && vec.SameEnum(a.Enum, b.Enum), b.Kind == KNull:
		return WithoutField(a)
	case a.Kind == KNull:
		return WithoutField(b)
	}
	return Type{Kind: KString}
}

// enumEqualityConst is the text constant k of an = or <> with an ENUM
// column of type t as that ENUM's code, when it is one of its values:
// equal text is an equal code, so the comparison runs on the codes
// instead of on the column's text (as DuckDB's rule, text, would have
// it). Other comparisons, and text of no value, compare as text.
func enumEqualityConst(op cmpOp, t Type, k *ConstExpr) (*ConstExpr, bool) {
	s, isText := k.V.(string)
	if t.Kind != KEnum || !isText || k.T.Kind != KString || op != opEq && op != opNe {
		return nil, false
	}
	code, ok := t.Enum.Code(s)
	if !ok {
		return nil, false
	}
	return &ConstExpr{named: k.named, T: WithoutField(t), V: code}, true
}

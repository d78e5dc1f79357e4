package plan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The UNION functions (uniontype.go): union_value(tag := x), which the
// rewrite passes as union_value('tag', x); union_tag(u), the tag as an
// ENUM of the member names; union_extract(u, 'tag'), the member's value
// or NULL (u.tag is the same, as a struct field).

// UnionFuncNames are the functions bindUnionFunc binds.
var UnionFuncNames = map[string]bool{"union_value": true, "union_tag": true, "union_extract": true}

// bindUnionFunc binds the UNION functions; ok is false for other names.
func (p *Planner) bindUnionFunc(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "union_value":
		e, err := p.bindUnionValue(args)
		return e, true, err
	case "union_tag":
		e, err := bindUnionTag(args)
		return e, true, err
	case "union_extract":
		e, err := p.bindUnionExtract(args)
		return e, true, err
	}
	return nil, false, nil
}

// bindUnionValue is union_value('tag', x): a UNION of the one member tag
// of x's type. The value is never NULL: its tag is set even when x is.
func (p *Planner) bindUnionValue(args []Expr) (Expr, error) {
	c, isConst := Expr(nil), false
	if len(args) == 2 {
		c, isConst = args[0].(*ConstExpr)
	}
	if !isConst {
		if len(args) == 1 {
			return nil, errorf("Need named argument for union tag, e.g. UNION_VALUE(a := b)")
		}
		return nil, errorf("union_value takes exactly one argument")
	}
	tag, isStr := c.(*ConstExpr).V.(string)
	if !isStr {
		return nil, errorf("Need named argument for union tag, e.g. UNION_VALUE(a := b)")
	}
	members := []NamedType{{Name: tag, Type: plainType(args[1].Type())}}
	t := unionType(members)
	x, err := p.cast(args[1], members[0].Type)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("union_value(%s := %s)", tag, args[1].String())
	e := nestedFunc(text, t, []Expr{x}, func(v []any) (any, error) {
		return unionValue(members, 0, toGo(members[0].Type, v[0])), nil
	})
	e.strict = false
	return e, nil
}

// bindUnionTag is union_tag(u): the name of u's member, an ENUM of the
// member names; NULL for a NULL union.
func bindUnionTag(args []Expr) (Expr, error) {
	if len(args) != 1 {
		return nil, errorf("union_tag takes one argument")
	}
	members, ok := unionMembers(args[0].Type())
	if !ok {
		return nil, errorf("No function matches the given name and argument types 'union_tag(%s)'", args[0].Type().SQLName())
	}
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.Name
	}
	e, err := vec.NewEnum(names)
	if err != nil {
		return nil, err
	}
	return nestedFunc("union_tag("+args[0].String()+")", Type{Kind: KEnum, Enum: e}, args, func(v []any) (any, error) {
		tag, ok := unionTagOf(v[0], members)
		if !ok {
			return nil, nil
		}
		return int64(tag), nil
	}), nil
}

// bindUnionExtract is union_extract(u, 'tag'): the member's value when u
// holds it, else NULL.
func (p *Planner) bindUnionExtract(args []Expr) (Expr, error) {
	if len(args) != 2 {
		return nil, errorf("union_extract takes a union and a member name")
	}
	members, ok := unionMembers(args[0].Type())
	c, isConst := args[1].(*ConstExpr)
	name, isStr := "", false
	if isConst {
		name, isStr = c.V.(string)
	}
	if !ok || !isStr {
		return nil, errorf("No function matches the given name and argument types 'union_extract(%s, %s)'", args[0].Type().SQLName(), args[1].Type().SQLName())
	}
	for _, m := range members {
		if strings.EqualFold(m.Name, name) {
			return p.bindIndex(args[0], args[1])
		}
	}
	return nil, unionKeyError(name, members)
}

// unionKeyError is DuckDB's error for a member a union does not have.
func unionKeyError(name string, members []NamedType) error {
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = fmt.Sprintf("%q", m.Name)
	}
	return errorf("Could not find key %q in union\n\nCandidate Entries: %s", name, strings.Join(names, ", "))
}

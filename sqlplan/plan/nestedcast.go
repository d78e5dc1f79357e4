package plan

import (
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Casts to nested types written out: CAST(x AS STRUCT(a INTEGER)),
// x::MAP(VARCHAR, INTEGER), TRY_CAST(x AS STRUCT(a INTEGER)[]). The
// rewrite layer passes the type as text (parse.CastMarker); a struct
// casts to a struct field by field (by name, or by position from an
// unnamed struct, as DuckDB), a map key by key and value by value.

// bindNestedCast binds parse.CastMarker(x, 'type'); with try, a value
// that does not convert is NULL.
func (p *Planner) bindNestedCast(x *sqlparser.FuncExpr, sc *Scope, agg *aggCtx, try bool) (Expr, error) {
	args := funcArgExprs(x)
	lit, ok := sqlparser.Expr(nil), false
	if len(args) == 2 {
		lit = args[1]
		_, ok = lit.(*sqlparser.SQLVal)
	}
	if !ok {
		return nil, errorf("bad CAST to a nested type")
	}
	t, err := nestedTypeOf(string(lit.(*sqlparser.SQLVal).Val), p.Cat.UserType)
	if err != nil {
		return nil, err
	}
	e, err := p.BindExpr(args[0], sc, agg)
	if err != nil {
		return nil, err
	}
	if err := checkNestedCast(e.Type(), t); err != nil {
		return nil, err
	}
	if k, isConst := IsConst(e); isConst && try {
		v, err := function.CastScalar(k.V, k.T, t, true)
		if err != nil {
			v = nil
		}
		return &ConstExpr{T: t, V: v}, nil
	}
	c, err := p.cast(e, t)
	if err != nil {
		return nil, err
	}
	if ce, isCast := c.(*castExpr); isCast && try {
		ce.try = true
		ce.setText("TRY_" + ce.String())
	}
	return c, nil
}

// nestedTypeOf reads a nested type as a statement wrote it, or a type
// of CREATE TYPE that ut resolves.
func nestedTypeOf(text string, ut UserTypes) (Type, error) {
	toks, err := parse.Lex(text)
	if err != nil {
		return Type{}, err
	}
	toks = parse.Significant(toks)
	t, j, err := ReadNestedType(text, toks, 0, ut)
	if err != nil {
		return Type{}, err
	}
	if j != len(toks) {
		return Type{}, errAt(text, toks[j].Pos, "unexpected %q after the type", toks[j].Text)
	}
	return t, nil
}

// checkNestedCast refuses, before any row is read, the casts between
// nested types that no value can make: a number to a struct, a struct to
// a struct sharing no field name with it (DuckDB's errors).
func checkNestedCast(from, to Type) error {
	if members, ok := unionMembers(to); ok {
		return checkUnionCast(from, to, members) // uniontype_cast.go
	}
	if to.Kind != KNested || from.Kind == KNull || from.Kind == KNested && function.SameNested(from, to) {
		return nil // scalars: the cast hub tells at the value
	}
	if from.IsStringy() {
		return nil // the text of a nested value (nestedparse.go)
	}
	bad := errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
	if te, isList := listElem(to); isList {
		if fe, ok := listElem(from); ok {
			return checkNestedCast(fe, te)
		}
		return bad
	}
	if tk, tv, isMap := mapKV(to); isMap {
		fk, fv, ok := mapKV(from)
		if !ok {
			return bad
		}
		if err := checkNestedCast(fk, tk); err != nil {
			return err
		}
		return checkNestedCast(fv, tv)
	}
	tf, _ := structFields(to)
	ff, ok := structFields(from)
	if !ok {
		return bad
	}
	pairs, err := structCastPairs(from, ff, tf)
	if err != nil {
		return err
	}
	for i, k := range pairs {
		if k >= 0 {
			if err := checkNestedCast(ff[k].Type, tf[i].Type); err != nil {
				return err
			}
		}
	}
	return nil
}

// structCastPairs tells, for each field of the target struct, which field
// of the source gives its value (-1: none, NULL): the one of the same
// name (any case), or from an unnamed struct the one at its position.
func structCastPairs(from Type, ff, tf []NamedType) ([]int, error) {
	pairs := make([]int, len(tf))
	if from.Unnamed {
		if len(ff) != len(tf) {
			return nil, errorf("cannot cast %s to %s: they have %d and %d fields", from.SQLName(), structName(tf), len(ff), len(tf))
		}
		for i := range pairs {
			pairs[i] = i
		}
		return pairs, nil
	}
	matched := false
	for i, t := range tf {
		pairs[i] = -1
		for k, f := range ff {
			if strings.EqualFold(f.Name, t.Name) {
				pairs[i], matched = k, true
				break
			}
		}
	}
	if !matched {
		return nil, errorf("STRUCT to STRUCT cast must have at least one matching member")
	}
	return pairs, nil
}

func structName(fields []NamedType) string {
	return Type{Kind: KNested, Fields: fields}.SQLName()
}

// castNested casts v, of type from, to the nested type to (function's
// Nested.CastList): lists element by element (castList), structs field
// by field, maps entry by entry.
func castNested(v any, from, to Type, try bool) (any, error) {
	if members, ok := unionMembers(to); ok {
		return castToUnion(v, from, to, members, try) // uniontype_cast.go
	}
	if _, isList := listElem(to); isList {
		return castList(v, from, to, try)
	}
	if from.IsStringy() {
		s, _ := v.(string)
		return castNestedText(s, to, try) // nestedparse.go
	}
	if tk, tv, isMap := mapKV(to); isMap {
		return castMap(v, from, tk, tv, try)
	}
	tf, isStruct := structFields(to)
	ff, ok := structFields(from)
	if !isStruct || !ok {
		return nil, errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
	}
	pairs, err := structCastPairs(from, ff, tf)
	if err != nil {
		return nil, err
	}
	m, _ := v.(map[string]any)
	out := make(map[string]any, len(tf))
	for i, t := range tf {
		if pairs[i] < 0 {
			out[t.Name] = nil
			continue
		}
		f := ff[pairs[i]]
		x, err := castLeaf(m[f.Name], f.Type, t.Type, try)
		if err != nil {
			return nil, err
		}
		out[t.Name] = x
	}
	return out, nil
}

// castMap casts a map to MAP(tk, tv).
func castMap(v any, from, tk, tv Type, try bool) (any, error) {
	fk, fv, ok := mapKV(from)
	if !ok {
		return nil, errorf("Unimplemented type for cast (%s -> MAP)", from.SQLName())
	}
	var keys, vals []any
	add := func(k, x any) error {
		ck, err := castLeaf(k, fk, tk, try)
		if err != nil {
			return err
		}
		cv, err := castLeaf(x, fv, tv, try)
		if err != nil {
			return err
		}
		ks, err := fromGo(plainType(tk), ck)
		if err != nil {
			return err
		}
		vs, err := fromGo(plainType(tv), cv)
		keys, vals = append(keys, ks), append(vals, vs)
		return err
	}
	switch m := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(m) {
			if err := add(k, m[k]); err != nil {
				return nil, err
			}
		}
	case map[any]any:
		for k, x := range m {
			if err := add(k, x); err != nil {
				return nil, err
			}
		}
	}
	return buildMap(tk, tv, keys, vals)
}

// castLeaf casts x, a Go value of a nested value of type from, to the Go
// value of type to; with try, one that does not convert is NULL.
func castLeaf(x any, from, to Type, try bool) (any, error) {
	if x == nil {
		return nil, nil
	}
	if from.Kind == KNested && function.SameNested(from, to) {
		return x, nil
	}
	s, err := fromGo(plainType(from), x)
	if err != nil {
		return nil, err
	}
	y, err := function.CastScalar(s, plainType(from), plainType(to), try)
	if err != nil {
		if try {
			return nil, nil
		}
		return nil, err
	}
	return toGo(to, y), nil
}

// commonNested is the type two nested values of types a and b meet in,
// in comparisons, lists, CASE and coalesce, by DuckDB's rules: lists meet
// in their elements; named structs in the union of their fields (a's
// order, then b's new names; a value lacking one has it NULL), each field
// in the common type of both; a named and an unnamed struct, or two
// unnamed ones, field by field in position, which needs as many fields
// (DuckDB's 'Cannot cast STRUCTs of different size'), the named one's
// names kept. A field that is a bare NULL's ("NULL") takes the other
// side's type. Other pairs (maps) stay a's, for the casts to settle.
func commonNested(a, b Type) (Type, error) {
	switch {
	case a.Kind == KNull:
		return b, nil
	case b.Kind == KNull:
		return a, nil
	case a.Kind != KNested || b.Kind != KNested:
		if a.Kind == KNested || b.Kind == KNested {
			return a, nil
		}
		return UnifyTypes(a, b)
	case function.SameNested(a, b):
		return a, nil
	}
	if t, ok, err := commonUnion(a, b); ok {
		return t, err // uniontype_cast.go
	}
	if ae, ok := listElem(a); ok {
		be, isList := listElem(b)
		if !isList {
			return a, nil
		}
		e, err := commonNested(ae, be)
		return Type{Kind: KNested, Elem: &e}, err
	}
	af, aStruct := structFields(a)
	bf, bStruct := structFields(b)
	if !aStruct || !bStruct || a.MapOf || b.MapOf {
		return a, nil
	}
	if a.Unnamed || b.Unnamed {
		return commonStructByPosition(a, b, af, bf)
	}
	return commonStructByName(af, bf)
}

// commonStructByPosition is commonNested of two structs, one of them
// unnamed at least: field i with field i.
func commonStructByPosition(a, b Type, af, bf []NamedType) (Type, error) {
	if len(af) != len(bf) {
		return Type{}, errorf("Mismatch Type Error: Type %s does not match with %s. Cannot cast STRUCTs of different size", b.SQLName(), a.SQLName())
	}
	names := af
	if a.Unnamed {
		names = bf // a named struct's names win
	}
	out := Type{Kind: KNested, Fields: make([]NamedType, len(af)), Unnamed: a.Unnamed && b.Unnamed}
	for i := range af {
		t, err := commonNested(af[i].Type, bf[i].Type)
		if err != nil {
			return Type{}, err
		}
		out.Fields[i] = NamedType{Name: names[i].Name, Type: t}
	}
	return out, nil
}

// commonStructByName is commonNested of two named structs: the union of
// their fields, matched by name in any case.
func commonStructByName(af, bf []NamedType) (Type, error) {
	out := Type{Kind: KNested, Fields: append([]NamedType(nil), af...)}
	for _, g := range bf {
		k := slices.IndexFunc(out.Fields, func(f NamedType) bool { return strings.EqualFold(f.Name, g.Name) })
		if k < 0 {
			out.Fields = append(out.Fields, g)
			continue
		}
		t, err := commonNested(out.Fields[k].Type, g.Type)
		if err != nil {
			return Type{}, err
		}
		out.Fields[k].Type = t
	}
	return out, nil
}

// unifyNestedExprs casts nested l and r, of different types, to their
// common type (commonNested), which DuckDB compares them in:
// {'b': 1, 'a': 2} < {'a': 3, 'b': 0} compares b first.
func (p *Planner) unifyNestedExprs(l, r Expr) (Expr, Expr, error) {
	t, err := commonNested(l.Type(), r.Type())
	if err != nil {
		return nil, nil, err
	}
	if l, err = p.cast(l, t); err != nil {
		return nil, nil, err
	}
	r, err = p.cast(r, t)
	return l, r, err
}

package plan

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DuckDB's functions about expressions rather than values, bound here
// because they read the bound argument, not its rows:
//
//   - alias(x): the name a SELECT gives x's column (carquet's name: an
//     operator's is written without DuckDB's parentheses, x + 1);
//   - stats(x): DuckDB's text of the statistics of x. carquet propagates no
//     statistics through a plan, so it knows those of a constant (its
//     value, and for text its length and whether it has non-ASCII bytes)
//     and nothing of any other expression, which it says as DuckDB says
//     it (Min and Max NULL, Has Null and Has No Null both true);
//   - switch(key, map[, default]): the map's value of key, else default
//     (NULL without one);
//   - unpivot_list(...): list_value under the name DuckDB's UNPIVOT uses;
//   - replace_type(x, a, b): x cast so that every part of a's type (the
//     whole, a list's element, a struct's field, a map's key or value)
//     has b's type, as DuckDB's; a and b are typed NULLs.

func init() {
	addFuncs(map[string]*fn{
		"alias":        {Min: 1, Max: 1},
		"stats":        {Min: 1, Max: 1},
		"switch":       {Min: 2, Max: 3},
		"unpivot_list": {Min: 0, Max: -1},
		"replace_type": {Min: 3, Max: 3},
	})
}

// bindMetaFunc binds this file's functions; ok is false for other names.
func (p *Planner) bindMetaFunc(name string, args []Expr) (Expr, bool, error) {
	switch name {
	case "alias":
		return &ConstExpr{T: TString, V: aliasOf(args[0])}, true, nil
	case "stats":
		return &ConstExpr{T: TString, V: statsText(args[0])}, true, nil
	case "switch":
		e, err := p.bindSwitch(args)
		return e, true, err
	case "unpivot_list":
		return p.bindNested("list_value", args)
	case "replace_type":
		t := replaceType(args[0].Type(), args[1].Type(), args[2].Type())
		e, err := p.cast(args[0], t)
		return e, true, err
	}
	return nil, false, nil
}

// aliasOf is the name a SELECT gives e's column (itemName): a column's
// own name, else the expression's text with the rewrite layer's marks
// undone.
func aliasOf(e Expr) string {
	if c, ok := e.(*ColExpr); ok && c.col != nil {
		return c.col.Name
	}
	return parse.Unmark(unmarkCasts(e.String()))
}

// bindSwitch is switch(key, map[, default]) as CASE WHEN map_contains(map,
// key) THEN map_extract_value(map, key) ELSE default END.
func (p *Planner) bindSwitch(args []Expr) (Expr, error) {
	if args[1].Type().Kind != KNested || !args[1].Type().MapOf {
		return nil, errorf("switch takes a MAP as its second argument, not %s", args[1].Type().SQLName())
	}
	has, err := p.bindFunc("map_contains", []Expr{args[1], args[0]})
	if err != nil {
		return nil, err
	}
	val, err := p.bindFunc("map_extract_value", []Expr{args[1], args[0]})
	if err != nil {
		return nil, err
	}
	var els Expr = &ConstExpr{T: val.Type()}
	if len(args) == 3 {
		if els, err = p.cast(args[2], val.Type()); err != nil {
			return nil, err
		}
	}
	ce := &caseExpr{t: val.Type(), conds: []Expr{has}, vals: []Expr{val}, els: els}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	ce.setText("switch(" + strings.Join(parts, ", ") + ")")
	return ce, nil
}

// replaceType is t with every part of type from made type to.
func replaceType(t, from, to Type) Type {
	if t.SQLName() == from.SQLName() {
		return to
	}
	if t.Kind != KNested {
		return t
	}
	if t.Elem != nil {
		elem := replaceType(*t.Elem, from, to)
		t.Elem = &elem
	}
	if len(t.Fields) > 0 {
		fields := make([]NamedType, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = NamedType{Name: f.Name, Type: replaceType(f.Type, from, to)}
		}
		t.Fields = fields
	}
	t.Field = nil // no longer the Parquet field of a table's column
	return t
}

// statsText is DuckDB's text of what is known of e's values: for a
// constant its value as both bounds, with "Approx Unique: 1"; for anything
// else the bounds unknown and NULLs possible.
func statsText(e Expr) string {
	t := e.Type()
	k, isConst := IsConst(e)
	if !isConst {
		switch {
		case t.Op() == KString || t.Op() == KBytes:
			return `[Min: , Max: \xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF, Has Unicode: true, Max String Length: ?][Has Null: true, Has No Null: true]`
		case hasStatsBounds(t):
			return "[Min: NULL, Max: NULL][Has Null: true, Has No Null: true]"
		}
		return "[Has Null: true, Has No Null: true]"
	}
	const unique = "[Approx Unique: 1]"
	switch {
	case k.V == nil && t.Kind == KNull:
		return "[Has Null: true, Has No Null: false]" + unique
	case k.V == nil && hasStatsBounds(t):
		return "[Min: NULL, Max: NULL][Has Null: true, Has No Null: false]" + unique
	case k.V == nil:
		return "[Has Null: true, Has No Null: false]" + unique
	case t.Op() == KString || t.Op() == KBytes:
		s := fmt.Sprint(k.V)
		if b, ok := k.V.([]byte); ok {
			s = string(b)
		}
		text, unicode := statsString(s)
		return fmt.Sprintf("[Min: %s, Max: %s, Has Unicode: %t, Max String Length: %d][Has Null: false, Has No Null: true]%s", text, text, unicode, len(s), unique)
	case hasStatsBounds(t):
		v := FormatScalar(t, k.V)
		return fmt.Sprintf("[Min: %s, Max: %s][Has Null: false, Has No Null: true]%s", v, v, unique)
	}
	return "[Has Null: false, Has No Null: true]" + unique
}

// hasStatsBounds reports whether DuckDB keeps a minimum and maximum for
// values of type t: numbers, booleans, dates and times.
func hasStatsBounds(t Type) bool {
	switch t.Kind {
	case KInt, KUint, KFloat, KDecimal, KUHuge, KBool, KDate, KTime, KTimeTZ, KTimestamp:
		return true
	}
	return false
}

// statsString is a string as DuckDB's statistics show it, its first 8
// bytes with each non-ASCII byte as \xHH, and whether it has one.
func statsString(s string) (string, bool) {
	var b strings.Builder
	unicode := false
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			unicode = true
			if i < 8 {
				fmt.Fprintf(&b, `\x%02X`, c)
			}
		} else if i < 8 {
			b.WriteByte(c)
		}
	}
	return b.String(), unicode
}

// timestampTZWord matches TIMESTAMPTZ as a word of a type's name.
var timestampTZWord = regexp.MustCompile(`\bTIMESTAMPTZ\b`)

// typeofName is typeof's name of t: DuckDB's typeof spells TIMESTAMPTZ
// as TIMESTAMP WITH TIME ZONE (in nested types too), where SQLName keeps
// the short name its driver's DatabaseTypeName uses.
func typeofName(t Type) string {
	return timestampTZWord.ReplaceAllString(t.SQLName(), "TIMESTAMP WITH TIME ZONE")
}

package plan

import (
	"strconv"
	"strings"
)

// Struct values: {'a': 1} (named), and DuckDB's unnamed structs, row(1,
// 'a') and (1, 'a') as a value, typed STRUCT(INTEGER, VARCHAR) and shown
// as (1, a). An unnamed struct is an ordinary struct whose fields are
// named v1, v2, ... inside the engine (Type.Unnamed hides the names), so
// comparison, ORDER BY, grouping and unnest treat both alike.

// maxListZip bounds the lists list_zip takes.
const maxListZip = 1_000

// unnamedField is the engine's name of an unnamed struct's field i (0-based).
func unnamedField(i int) string { return "v" + strconv.Itoa(i+1) }

// bindStructValue builds a struct of the values vals, the field i named
// names[i] (unnamed: v1, v2, ...). A NULL without a type is a field of
// type "NULL", as in DuckDB (typeof shows it; a table stores INTEGER).
func (p *Planner) bindStructValue(names []string, vals []Expr, unnamed bool) (*funcExpr, error) {
	fields := make([]NamedType, len(vals))
	cast := make([]Expr, len(vals))
	texts := make([]string, len(vals))
	seen := make(map[string]bool, len(names))
	for i, a := range vals {
		low := strings.ToLower(names[i])
		if seen[low] {
			return nil, errorf("Duplicate struct entry name %q", names[i])
		}
		seen[low] = true
		ft := plainType(a.Type()) // a bare NULL keeps DuckDB's type "NULL" (INTEGER when stored)
		fields[i] = NamedType{Name: names[i], Type: ft}
		v, err := p.cast(a, ft)
		if err != nil {
			return nil, err
		}
		cast[i] = v
		texts[i] = a.String()
		if !unnamed {
			texts[i] = "'" + names[i] + "': " + texts[i]
		}
	}
	text := "{" + strings.Join(texts, ", ") + "}"
	if unnamed {
		text = "row(" + strings.Join(texts, ", ") + ")"
	}
	e := nestedFunc(text, Type{Kind: KNested, Fields: fields, Unnamed: unnamed}, cast, func(v []any) (any, error) {
		m := make(map[string]any, len(v))
		for i, x := range v {
			m[fields[i].Name] = toGo(fields[i].Type, x)
		}
		return m, nil
	})
	e.strict = false // a struct of NULLs is a struct, not NULL
	return e, nil
}

// bindRowValue is row(a, b, ...) and (a, b, ...) as a value: an unnamed
// struct.
func (p *Planner) bindRowValue(args []Expr) (Expr, error) {
	if len(args) == 0 {
		return nil, errorf("row() needs at least one value")
	}
	names := make([]string, len(args))
	for i := range args {
		names[i] = unnamedField(i)
	}
	return p.bindStructValue(names, args, true)
}

// bindStructPosition is struct_extract(s, n) of an unnamed struct: its
// n-th field (from 1), n a constant as DuckDB requires.
func (p *Planner) bindStructPosition(s Expr, n int64) (Expr, error) {
	if !s.Type().Unnamed {
		return nil, errorf("struct_extract with an integer key can only be used on unnamed structs, use a string key instead")
	}
	return p.structAt(s, n, "struct_extract")
}

// structAt is the n-th field (from 1) of struct s, extracted by the
// function name.
func (p *Planner) structAt(s Expr, n int64, name string) (Expr, error) {
	fields, _ := structFields(s.Type())
	if n < 1 || n > int64(len(fields)) {
		return nil, errorf("Key index %d for struct_extract out of range - expected an index between 1 and %d", n, len(fields))
	}
	f := fields[n-1]
	return nestedFunc(name+"("+s.String()+", "+strconv.FormatInt(n, 10)+")", plainType(f.Type), []Expr{s}, func(v []any) (any, error) {
		m, ok := v[0].(map[string]any)
		if !ok {
			return nil, nil
		}
		return fromGo(f.Type, m[f.Name])
	}), nil
}

// errNoStructKey is DuckDB's error for a field name that struct type t
// does not have, with its candidates.
func errNoStructKey(t Type, name string) error {
	fields, _ := structFields(t)
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strconv.Quote(f.Name)
	}
	return errorf("Could not find key %q in struct\n\nCandidate Entries: %s", name, strings.Join(names, ", "))
}

// bindNamedFields binds the name := value arguments of struct_insert and
// struct_update (the rewrite made them 'name', value) as a struct of
// those fields; notNamed is the error for an argument without a name.
func (p *Planner) bindNamedFields(args []Expr, notNamed string) (*funcExpr, error) {
	names := make([]string, 0, len(args)/2)
	vals := make([]Expr, 0, len(args)/2)
	for k := 0; k+1 < len(args); k += 2 {
		c, isC := IsConst(args[k])
		name, isStr := c.V.(string)
		if !isC || !isStr {
			return nil, errorf("%s", notNamed)
		}
		names, vals = append(names, name), append(vals, args[k+1])
	}
	return p.bindStructValue(names, vals, false)
}

// bindListZip is list_zip(l1, ..., lk [, truncate]): a list of unnamed
// structs, the i-th holding the i-th element of each list; as long as
// the longest list (shorter ones give NULLs), or the shortest when
// truncate is true.
func (p *Planner) bindListZip(args []Expr) (Expr, error) {
	lists := args
	var trunc Expr
	if n := len(args); n > 0 && args[n-1].Type().Kind == KBool {
		lists, trunc = args[:n-1], args[n-1]
	}
	if len(lists) == 0 || len(lists) > maxListZip {
		return nil, errorf("list_zip takes 1 to %d lists", maxListZip)
	}
	fields := make([]NamedType, len(lists))
	for i, l := range lists {
		et, ok := listElem(l.Type())
		switch {
		case ok:
			et = plainType(et)
		case l.Type().Kind == KNull:
			et = l.Type() // "NULL", as DuckDB
		default:
			return nil, errorf("list_zip needs lists, not %s (argument %d)", l.Type().SQLName(), i+1)
		}
		fields[i] = NamedType{Name: unnamedField(i), Type: et}
	}
	st := Type{Kind: KNested, Fields: fields, Unnamed: true}
	in := append([]Expr(nil), lists...)
	if trunc != nil {
		in = append(in, trunc)
	}
	texts := make([]string, len(in))
	for i, a := range in {
		texts[i] = a.String()
	}
	e := nestedFunc("list_zip("+strings.Join(texts, ", ")+")", Type{Kind: KNested, Elem: &st}, in, func(v []any) (any, error) {
		short := trunc != nil && v[len(v)-1] == true
		return zipLists(v[:len(lists)], fields, short), nil
	})
	e.strict = false // a NULL list zips as an empty one
	return e, nil
}

// zipLists zips the Go lists ls (nil for NULL) into structs of fields.
func zipLists(ls []any, fields []NamedType, short bool) []any {
	n := -1
	for _, l := range ls {
		k := len(asList(l))
		switch {
		case n < 0:
			n = k
		case short && k < n, !short && k > n:
			n = k
		}
	}
	out := make([]any, n)
	for i := range out {
		m := make(map[string]any, len(fields))
		for j, l := range ls {
			var x any
			if el := asList(l); i < len(el) {
				x = el[i]
			}
			m[fields[j].Name] = x
		}
		out[i] = m
	}
	return out
}

// asList is a Go list value, nil (empty) for NULL.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// bindStructInsert is struct_insert(s, 'name', value, ...), the rewrite
// of struct_insert(s, name := value, ...): s with the fields added after
// its own.
func (p *Planner) bindStructInsert(args []Expr) (Expr, error) {
	if len(args) < 3 || len(args)%2 == 0 {
		return nil, errorf("struct_insert takes a struct and name := value arguments")
	}
	s := args[0]
	st := s.Type()
	old, ok := structFields(st)
	if !ok || st.Unnamed {
		return nil, errorf("struct_insert needs a struct with named fields, not %s", st.SQLName())
	}
	added, err := p.bindNamedFields(args[1:], "struct_insert names its new fields: name := value")
	if err != nil {
		return nil, err
	}
	fields := append(append([]NamedType(nil), old...), added.t.Fields...)
	seen := make(map[string]bool, len(fields))
	for _, f := range fields {
		low := strings.ToLower(f.Name)
		if seen[low] {
			return nil, errorf("Duplicate struct entry name %q", f.Name)
		}
		seen[low] = true
	}
	e := nestedFunc("struct_insert("+s.String()+", "+added.String()+")", Type{Kind: KNested, Fields: fields}, []Expr{s, added}, func(v []any) (any, error) {
		m, _ := v[0].(map[string]any) // a NULL struct gives NULL fields, as in DuckDB
		out := make(map[string]any, len(fields))
		for _, f := range old {
			out[f.Name] = m[f.Name]
		}
		for k, x := range v[1].(map[string]any) {
			out[k] = x
		}
		return out, nil
	})
	e.strict = false
	return e, nil
}

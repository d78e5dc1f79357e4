package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB's UNION type: UNION(num INTEGER, str VARCHAR) holds one value of
// one of its members. It is a struct laid out as DuckDB writes a UNION
// to Parquet (vec/union.go): a tag field named "" (the member's position,
// UTINYINT) and one field per member, NULL but the tagged one. So values
// are map[string]any as for every struct, and order (tag, then value),
// member access (u.str, NULL unless str is the tag), storage and reading
// are the struct's; this file adds the type's syntax, union_value,
// union_tag, union_extract, the casts into a UNION, and the text.

// maxUnionMembers is DuckDB's limit (the tag is a UTINYINT).
const maxUnionMembers = 255

// unionMembers lists the members of UNION type t; ok is false for other
// types.
func unionMembers(t Type) ([]NamedType, bool) {
	fields, ok := structFields(t)
	if !ok || t.Unnamed || len(fields) < 2 || fields[0].Name != vec.UnionTag {
		return nil, false
	}
	if k := fields[0].Type.Kind; k != KUint && k != KInt {
		return nil, false
	}
	return fields[1:], true
}

// unionType is the UNION of members.
func unionType(members []NamedType) Type {
	fields := make([]NamedType, 0, len(members)+1)
	fields = append(fields, NamedType{Name: vec.UnionTag, Type: vec.UnionTagType})
	for _, m := range members {
		fields = append(fields, NamedType{Name: m.Name, Type: plainType(m.Type)})
	}
	return Type{Kind: KNested, Fields: fields}
}

// readUnionType reads the members of UNION( from toks[j], after the '(',
// and returns the type and the index after the ')'.
func readUnionType(text string, toks []parse.Token, j int, ut UserTypes) (Type, int, error) {
	at := parse.TokPos(text, toks, j)
	members, j, err := readFieldList(text, toks, j, ut, "UNION")
	if err != nil {
		return Type{}, j, err
	}
	if len(members) > maxUnionMembers {
		return Type{}, j, errAt(text, at, "UNION types can have at most %d members", maxUnionMembers)
	}
	seen := map[string]bool{}
	for _, m := range members {
		low := strings.ToLower(m.Name)
		if seen[low] || m.Name == vec.UnionTag {
			return Type{}, j, errAt(text, at, "Duplicate UNION type member name %q", m.Name)
		}
		seen[low] = true
	}
	return unionType(members), j, nil
}

// unionValue is the value of member i of members holding v (a Go value
// of a nested value's leaves).
func unionValue(members []NamedType, i int, v any) map[string]any {
	m := make(map[string]any, len(members)+1)
	m[vec.UnionTag] = toGo(vec.UnionTagType, int64(i))
	for k, f := range members {
		m[f.Name] = nil
		if k == i {
			m[f.Name] = v
		}
	}
	return m
}

// unionTagOf is the position of the member union value v holds; ok is
// false for a value without a valid tag (a NULL union).
func unionTagOf(v any, members []NamedType) (int, bool) {
	m, _ := v.(map[string]any)
	x, err := fromGo(vec.UnionTagType, m[vec.UnionTag])
	if err != nil || x == nil {
		return 0, false
	}
	var tag int64
	switch n := x.(type) {
	case int64:
		tag = n
	case uint64:
		tag = int64(n)
	default:
		return 0, false
	}
	if tag < 0 || tag >= int64(len(members)) {
		return 0, false
	}
	return int(tag), true
}

// isUnionWithScalar reports whether u is a UNION and x a value of a type
// not nested, which meet in u (u = 1 compares u with 1 cast into u).
func isUnionWithScalar(u, x Type) bool {
	_, ok := unionMembers(u)
	return ok && x.Kind != KNested && x.Kind != KNull
}

// IsUnion reports whether t is a UNION type.
func IsUnion(t Type) bool { return vec.IsUnion(t) }

// UnionMember is the value of its member that a UNION value v of type t
// holds (as nested values hold their leaves), and the member's name;
// nil and "" for a NULL union. The driver hands out a UNION's value so.
func UnionMember(t Type, v any) (any, string) {
	members, ok := unionMembers(t)
	if !ok {
		return nil, ""
	}
	tag, ok := unionTagOf(v, members)
	if !ok {
		return nil, ""
	}
	m, _ := v.(map[string]any)
	return m[members[tag].Name], members[tag].Name
}

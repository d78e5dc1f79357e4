package vec

import (
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
)

// A UNION is a STRUCT laid out as DuckDB writes a UNION to Parquet: a
// first field named "" that holds the tag (the position of the member
// the value is, a UTINYINT), then one field per member, NULL but for
// the tagged one. Values, order (tag first, then the member's value),
// field access and storage are a struct's; only the name, the text and
// the casts tell a UNION apart.

// UnionTag is the name of a UNION's tag field.
const UnionTag = ""

// UnionTagType is the type of a UNION's tag field.
var UnionTagType = Type{Kind: KUint, Bits: 8}

// IsUnionLayout reports whether struct fields named names, the first of
// kind first, are a UNION's: a tag field first and at least one member.
func IsUnionLayout(names []string, first Kind) bool {
	return len(names) >= 2 && names[0] == UnionTag && (first == KUint || first == KInt)
}

// unionName is the SQL name of a UNION of the members named names, of
// the types named types.
func unionName(names, types []string) string {
	parts := make([]string, len(names))
	for i := range names {
		parts[i] = fieldNameSQL(names[i]) + " " + types[i]
	}
	return "UNION(" + strings.Join(parts, ", ") + ")"
}

// fieldsUnionName is the name of struct fields fs when they are a
// UNION's; ok is false otherwise.
func fieldsUnionName(fs []NamedType) (string, bool) {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.Name
	}
	if len(fs) == 0 || !IsUnionLayout(names, fs[0].Type.Kind) {
		return "", false
	}
	types := make([]string, len(fs)-1)
	for i, f := range fs[1:] {
		types[i] = f.Type.SQLName()
	}
	return unionName(names[1:], types), true
}

// schemaUnionName is the name of a Parquet struct field's type when its
// children are a UNION's; ok is false otherwise.
func schemaUnionName(f *schema.Field) (string, bool) {
	names := make([]string, len(f.Children))
	for i, c := range f.Children {
		names[i] = c.Name
	}
	if len(f.Children) == 0 || f.Children[0].Kind != schema.Primitive || !IsUnionLayout(names, TypeOfField(f.Children[0]).Kind) {
		return "", false
	}
	types := make([]string, len(f.Children)-1)
	for i, c := range f.Children[1:] {
		types[i] = fieldSQLName(c)
	}
	return unionName(names[1:], types), true
}

// IsUnion reports whether t is a UNION (a struct of a UNION's layout).
func IsUnion(t Type) bool {
	if t.Kind != KNested || t.Unnamed || t.MapOf || t.Elem != nil {
		return false
	}
	if t.Field != nil {
		if t.Field.Kind != schema.Struct {
			return false
		}
		_, ok := schemaUnionName(t.Field)
		return ok
	}
	_, ok := fieldsUnionName(t.Fields)
	return ok
}

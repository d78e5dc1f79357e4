package plan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// The engine's side of the syntax stage (package parse): the statement's
// source with what planning adds to it, and the types of casts, which the
// syntax stage reads as names and the engine resolves.

// Source is a statement's text as the syntax stage rewrote it, with the
// recursive CTEs of the statement, which planning runs (recursive.go).
type Source struct {
	parse.Source
	recs []*RecCTE
}

// Locate fills in the position of an error that names an identifier (see
// parse.Source.Locate); a statement without a source leaves it as it is.
func (s *Source) Locate(e *Error, ident string) *Error {
	if s == nil {
		return e
	}
	return s.Source.Locate(e, ident)
}

// RewriteTokens rewrites the significant tokens of text into SQL the
// parser reads (parse.Rewrite), casts spelled with the engine's types.
func RewriteTokens(text string, toks []parse.Token) (*Source, error) {
	ps, err := parse.Rewrite(text, toks, castTypeSpelling)
	if err != nil {
		return nil, err
	}
	return &Source{Source: *ps}, nil
}

// ReadType reads a type name at toks[i:] (words, then optional
// parameters in parentheses, then optional [] pairs) and returns its type
// and the index after it.
func ReadType(src string, toks []parse.Token, i int) (Type, int, error) {
	tn, j, err := parse.ReadTypeName(src, toks, i, IsTypeName)
	if err != nil {
		return Type{}, j, err
	}
	t, err := typeOfName(tn)
	if err != nil {
		return Type{}, j, tn.PositionedAt(src, err)
	}
	return t, j, nil
}

// IsTypeName reports whether name, without parameters, names a type.
func IsTypeName(name string) bool {
	_, err := function.ParseTypeName(name, nil)
	return err == nil
}

// typeOfName resolves a type name as written; its errors have no
// position.
func typeOfName(tn parse.TypeName) (Type, error) {
	t, err := function.ParseTypeName(tn.Name, tn.Params)
	if err != nil {
		return Type{}, err
	}
	for depth := 1; depth <= tn.ListDepth; depth++ {
		if depth > maxCastListDepth || t.Kind == KDecimal || t.Kind == KNested && t.Elem == nil {
			return Type{}, unsupported("casts to lists of " + t.SQLName())
		}
		elem := t
		t = Type{Kind: KNested, Elem: &elem}
	}
	return t, nil
}

// castTypeSpelling is the parse.CastSpelling of the engine: the type a
// name stands for, written as castSpelling does.
func castTypeSpelling(tn parse.TypeName) (string, error) {
	t, err := typeOfName(tn)
	if err != nil {
		return "", err
	}
	return castSpelling(t), nil
}

// castSpelling writes a type so that the parser's CAST accepts it.
func castSpelling(t Type) string {
	if t.Kind == KDecimal && !t.Huge {
		return fmt.Sprintf("decimal(%d, %d)", t.Prec, t.Scale)
	}
	depth := 0 // lists: the code of the element's type plus castListStep per level
	for t.Elem != nil {
		t, depth = *t.Elem, depth+1
	}
	name := t.SQLName()
	for i, c := range castTypes {
		if c == name {
			return fmt.Sprintf("char(%d)", castCodeBase+depth*castListStep+i)
		}
	}
	return "char"
}

// ReadNestedType reads a column type, including T[], LIST<T>, STRUCT<...>
// / STRUCT(...), MAP<K, V> / MAP(K, V), ENUM('a', ...) and the types of
// CREATE TYPE that ut resolves (nil: none).
func ReadNestedType(text string, toks []parse.Token, i int, ut UserTypes) (Type, int, error) {
	if t, j, ok, err := readUserType(text, toks, i, ut); ok || err != nil {
		return t, j, err
	}
	if i < len(toks) && toks[i].Kind == parse.Ident {
		w := strings.ToLower(toks[i].Text)
		open := func(k int) bool {
			return k < len(toks) && toks[k].Kind == parse.Op && (toks[k].Text == "<" || toks[k].Text == "(")
		}
		closeAt := func(k int) bool {
			return k < len(toks) && toks[k].Kind == parse.Op && (toks[k].Text == ">" || toks[k].Text == ")")
		}
		var t Type
		var err error
		j := i + 1
		switch {
		case (w == "list" || w == "array") && open(j):
			var elem Type
			elem, j, err = ReadNestedType(text, toks, j+1, ut)
			if err != nil {
				return Type{}, j, err
			}
			if !closeAt(j) {
				return Type{}, j, errAt(text, parse.TokPos(text, toks, j), "expected > after the list element type")
			}
			t = Type{Kind: KNested, Elem: &elem}
			j++
		case (w == "struct" || w == "row") && open(j):
			var fields []NamedType
			fields, j, err = readFieldList(text, toks, j+1, ut, "STRUCT")
			if err != nil {
				return Type{}, j, err
			}
			t = Type{Kind: KNested, Fields: fields}
		case w == "union" && open(j):
			t, j, err = readUnionType(text, toks, j+1, ut) // uniontype.go
			if err != nil {
				return Type{}, j, err
			}
		case w == "enum" && open(j):
			t, j, err = readEnumValues(text, toks, j)
			if err != nil {
				return Type{}, j, err
			}
		case w == "map" && open(j):
			var k, v Type
			k, j, err = ReadNestedType(text, toks, j+1, ut)
			if err != nil {
				return Type{}, j, err
			}
			if j >= len(toks) || toks[j].Text != "," {
				return Type{}, j, errAt(text, parse.TokPos(text, toks, j), "expected , in MAP")
			}
			v, j, err = ReadNestedType(text, toks, j+1, ut)
			if err != nil {
				return Type{}, j, err
			}
			if !closeAt(j) {
				return Type{}, j, errAt(text, parse.TokPos(text, toks, j), "expected > after MAP")
			}
			j++
			t = Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: k}, {Name: "value", Type: v}}}
		default:
			t, j, err = ReadType(text, toks, i)
			if err != nil {
				return Type{}, j, err
			}
		}
		// T[] and T ARRAY suffixes.
		for n := parse.ListSuffix(toks, j); n > 0; n = parse.ListSuffix(toks, j) {
			elem := t
			t = Type{Kind: KNested, Elem: &elem}
			j += n
		}
		return t, j, nil
	}
	return Type{}, i, errAt(text, parse.TokPos(text, toks, i), "expected a type")
}

// readFieldList reads the fields of a STRUCT or the members of a UNION
// (what) from toks[j], after the '(' or '<', to the ')' or '>' that
// closes them; j is the index after it.
func readFieldList(text string, toks []parse.Token, j int, ut UserTypes, what string) ([]NamedType, int, error) {
	fields := []NamedType{}
	for {
		if j >= len(toks) {
			return nil, j, errAt(text, len(text), "unterminated %s", what)
		}
		name := toks[j].Name()
		j++
		if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == ":" {
			j++
		}
		ft, k, err := ReadNestedType(text, toks, j, ut)
		if err != nil {
			return nil, k, err
		}
		j = k
		fields = append(fields, NamedType{Name: name, Type: ft})
		if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "," {
			j++
			continue
		}
		if j < len(toks) && toks[j].Kind == parse.Op && (toks[j].Text == ">" || toks[j].Text == ")") {
			return fields, j + 1, nil
		}
		return nil, j, errAt(text, parse.TokPos(text, toks, j), "expected , or > in %s", what)
	}
}

// UserTypes resolves a type name that is none of the engine's own (nil
// resolves none).
type UserTypes func(name string) (Type, bool)

// readUserType reads at toks[i] the name of a type that ut resolves, with
// any [] after it; ok is false for the engine's own types and the words
// that start a written-out one. A name that is neither is DuckDB's error.
func readUserType(text string, toks []parse.Token, i int, ut UserTypes) (Type, int, bool, error) {
	if ut == nil || i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.DQuoted {
		return Type{}, i, false, nil
	}
	name := toks[i].Name()
	if toks[i].Kind == parse.Ident {
		switch strings.ToLower(name) {
		case "list", "array", "struct", "row", "map", "enum", "union":
			return Type{}, i, false, nil
		}
		if IsTypeName(name) || i+1 < len(toks) && toks[i+1].Kind == parse.Ident && IsTypeName(name+" "+toks[i+1].Text) {
			return Type{}, i, false, nil
		}
	}
	t, found := ut(name)
	if !found {
		return Type{}, i, true, errAt(text, toks[i].Pos, "Type with name %s does not exist!", name)
	}
	j := i + 1
	for n := parse.ListSuffix(toks, j); n > 0; n = parse.ListSuffix(toks, j) {
		elem := t
		t = Type{Kind: KNested, Elem: &elem}
		j += n
	}
	return t, j, true, nil
}

// readEnumValues reads the ('a', 'b', ...) of an ENUM at toks[open] (its
// opening parenthesis) and returns the type and the index after it.
func readEnumValues(text string, toks []parse.Token, open int) (Type, int, error) {
	var values []string
	j := open + 1
	for j < len(toks) && !(toks[j].Kind == parse.Op && toks[j].Text == ")") {
		if toks[j].Kind != parse.String {
			return Type{}, j, errAt(text, toks[j].Pos, "ENUM takes string literals: syntax error at or near %q", toks[j].Text)
		}
		values = append(values, toks[j].Unquoted())
		j++
		if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "," {
			j++
		}
	}
	if j >= len(toks) {
		return Type{}, j, errAt(text, len(text), "unterminated ENUM(...)")
	}
	e, err := vec.NewEnum(values)
	if err != nil {
		return Type{}, j, errAt(text, toks[open].Pos, "%v", err)
	}
	return Type{Kind: KEnum, Enum: e}, j + 1, nil
}

package sqlplan

import (
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/function"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// The engine's side of the syntax stage (package parse): the statement's
// source with what planning adds to it, and the types of casts, which the
// syntax stage reads as names and the engine resolves.

// source is a statement's text as the syntax stage rewrote it, with the
// recursive CTEs of the statement, which planning runs (recursive.go).
type source struct {
	parse.Source
	recs []*recCTE
}

// Locate fills in the position of an error that names an identifier (see
// parse.Source.Locate); a statement without a source leaves it as it is.
func (s *source) Locate(e *Error, ident string) *Error {
	if s == nil {
		return e
	}
	return s.Source.Locate(e, ident)
}

// rewriteTokens rewrites the significant tokens of text into SQL the
// parser reads (parse.Rewrite), casts spelled with the engine's types.
func rewriteTokens(text string, toks []parse.Token) (*source, error) {
	ps, err := parse.Rewrite(text, toks, castTypeSpelling)
	if err != nil {
		return nil, err
	}
	return &source{Source: *ps}, nil
}

// readType reads a type name at toks[i:] (words, then optional
// parameters in parentheses, then optional [] pairs) and returns its type
// and the index after it.
func readType(src string, toks []parse.Token, i int) (Type, int, error) {
	tn, j, err := parse.ReadTypeName(src, toks, i, isTypeName)
	if err != nil {
		return Type{}, j, err
	}
	t, err := typeOfName(tn)
	if err != nil {
		return Type{}, j, tn.PositionedAt(src, err)
	}
	return t, j, nil
}

// isTypeName reports whether name, without parameters, names a type.
func isTypeName(name string) bool {
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

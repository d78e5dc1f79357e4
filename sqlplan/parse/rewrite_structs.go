package parse

import "strings"

// Field access on a value that is not a column name: DuckDB's (s).a,
// {'a': 1}.a, struct_pack(a := 1).a, l[1].a. The parser reads a dot only
// inside names (t.c, s.a.b), so a dot after a closing parenthesis (the
// rewritten forms of these values all end in one) becomes
// struct_extract(value, 'name').

// fieldAccess rewrites the operand just emitted and the field name after
// dot into struct_extract(operand, 'name'); it reports whether it did.
func (r *rewriter) fieldAccess(dot, name Token) bool {
	if n := len(r.out); n == 0 || r.out[n-1].text != ")" {
		return false
	}
	if name.Kind != Ident && name.Kind != DQuoted && name.Kind != Quoted {
		return false
	}
	start := operandStart(r.out)
	if start < 0 {
		return false
	}
	operand := append([]otok(nil), r.out[start:]...)
	head := []otok{{text: "struct_extract", orig: operand[0].orig}, {text: "(", orig: operand[0].orig}}
	r.out = append(append(r.out[:start], head...), operand...)
	r.emit(",", dot)
	r.emit(mysqlString(name.Unquoted()), name)
	r.emit(")", name)
	return true
}

// CastMarker is what the rewrite makes of a cast to a nested type
// written out (CAST(x AS STRUCT(a INTEGER)), x::MAP(VARCHAR, INTEGER)[]):
// CastMarker(x, 'STRUCT(a INTEGER)'), the type as the user wrote it, read
// by the engine (the parser's CAST takes only its own type names).
const CastMarker = "__carquet_cast__"

// nestedType is a nested type's text in a statement and the index of the
// token after it.
type nestedType struct {
	text string
	end  int
}

// nestedCastType reads a STRUCT(...), ROW(...), MAP(...) or UNION(...) type at
// toks[i:], with any [] or ARRAY after it; ok is false for other types (read by
// ReadTypeName) and for an unclosed parenthesis (which the parser
// reports).
func nestedCastType(src string, toks []Token, i int) (nestedType, bool) {
	if i+1 >= len(toks) || !(toks[i].Is("struct") || toks[i].Is("row") || toks[i].Is("map") || toks[i].Is("union")) || toks[i+1].Kind != Op || toks[i+1].Text != "(" {
		return nestedType{}, false
	}
	k := ClosingParen(toks, i+1)
	if k < 0 {
		return nestedType{}, false
	}
	end := k + 1
	for n := ListSuffix(toks, end); n > 0; n = ListSuffix(toks, end) {
		end += n
	}
	return nestedType{text: tokensText(src, toks[i:end]), end: end}, true
}

// tokensText is the text of toks as the statement has it, or the tokens'
// own texts spaced when they are not in their places in src (a macro's
// body, whose tokens all point at the call).
func tokensText(src string, toks []Token) string {
	first, last := toks[0], toks[len(toks)-1]
	inPlace := last.Pos > first.Pos || len(toks) == 1
	for _, t := range []Token{first, last} {
		inPlace = inPlace && t.Pos >= 0 && t.Pos+len(t.Text) <= len(src) && src[t.Pos:t.Pos+len(t.Text)] == t.Text
	}
	if inPlace {
		return src[first.Pos : last.Pos+len(last.Text)]
	}
	parts := make([]string, len(toks))
	for j, t := range toks {
		parts[j] = t.Text
	}
	return strings.Join(parts, " ")
}

// markedCastType is nestedCastType, and also an ENUM('a', ...) and a name
// that is none of the engine's types (a type of CREATE TYPE, which the
// engine resolves when it binds the cast, or reports unknown there).
func (r *rewriter) markedCastType(toks []Token, i int) (nestedType, bool) {
	if nt, ok := nestedCastType(r.src, toks, i); ok {
		return nt, true
	}
	if i >= len(toks) || toks[i].Kind != Ident && toks[i].Kind != DQuoted {
		return nestedType{}, false
	}
	end := i + 1
	switch {
	case toks[i].Is("enum") && end < len(toks) && toks[end].Kind == Op && toks[end].Text == "(":
		k := ClosingParen(toks, end)
		if k < 0 {
			return nestedType{}, false
		}
		end = k + 1
	case toks[i].Kind == Ident:
		if isOperatorWord(toks[i].Text) || clauseWords[strings.ToLower(toks[i].Text)] {
			return nestedType{}, false // no type: readCastType says so
		}
		if _, err := r.cast(TypeName{Name: toks[i].Text}); err == nil {
			return nestedType{}, false // the engine's own type, read by readCastType
		}
		if end < len(toks) && toks[end].Kind == Op && toks[end].Text == "(" {
			return nestedType{}, false // a type with parameters: readCastType says what is wrong
		}
	}
	for n := ListSuffix(toks, end); n > 0; n = ListSuffix(toks, end) {
		end += n
	}
	last := toks[end-1]
	return nestedType{text: r.src[toks[i].Pos : last.Pos+len(last.Text)], end: end}, true
}

// clauseWords are keywords that start a clause or end an expression
// (beside isOperatorWord's): never the name of a type after ::.
var clauseWords = map[string]bool{"group": true, "order": true, "union": true, "except": true, "intersect": true,
	"join": true, "window": true, "end": true, "into": true, "using": true, "with": true, "asc": true, "desc": true, "null": true}

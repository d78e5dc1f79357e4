package parse

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

// nestedCastType reads a STRUCT(...), ROW(...) or MAP(...) type at
// toks[i:], with any [] or ARRAY after it; ok is false for other types (read by
// ReadTypeName) and for an unclosed parenthesis (which the parser
// reports).
func nestedCastType(src string, toks []Token, i int) (nestedType, bool) {
	if i+1 >= len(toks) || !(toks[i].Is("struct") || toks[i].Is("row") || toks[i].Is("map")) || toks[i+1].Kind != Op || toks[i+1].Text != "(" {
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
	last := toks[end-1]
	return nestedType{text: src[toks[i].Pos : last.Pos+len(last.Text)], end: end}, true
}

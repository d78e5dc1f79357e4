package parse

import (
	"strings"
)

// Nested literals and lambdas in the rewrite layer: {'a': x} structs,
// MAP {k: v}, [list comprehensions], x -> expr lambdas.

// StructMarker is what the rewrite makes of a struct literal.
const StructMarker = "__carquet_struct__"

// structLiteral reads the struct literal whose '{' is toks[i] and returns
// the tokens of StructMarker('name', value, ...) and the index of its '}'.
func structLiteral(src string, toks []Token, i int) ([]Token, int, error) {
	k := closingBrace(toks, i)
	if k < 0 {
		return nil, 0, ErrAt(src, toks[i].Pos, "unterminated struct literal {...}")
	}
	pos := toks[i].Pos
	call := []Token{{Kind: Ident, Text: StructMarker, Pos: pos}, {Kind: Op, Text: "(", Pos: pos}}
	if k == i+1 {
		return nil, 0, ErrAt(src, pos, "a struct literal needs at least one field")
	}
	for n, entry := range SplitList(toks[i+1 : k]) {
		key, value, ok := splitMapEntry(entry)
		if !ok || len(key) != 1 || key[0].Kind != String && key[0].Kind != Ident && key[0].Kind != DQuoted {
			at := pos
			if len(entry) > 0 {
				at = entry[0].Pos
			}
			return nil, 0, ErrAt(src, at, "a struct literal takes 'name': value entries")
		}
		name := key[0]
		if n > 0 {
			call = append(call, Token{Kind: Op, Text: ",", Pos: name.Pos})
		}
		call = append(call, Token{Kind: String, Text: "'" + strings.ReplaceAll(name.Name(), "'", "''") + "'", Pos: name.Pos}, Token{Kind: Op, Text: ",", Pos: name.Pos})
		call = append(call, value...)
	}
	return append(call, Token{Kind: Op, Text: ")", Pos: toks[k].Pos}), k, nil
}

// DescMarker, as the last argument of quantile_cont or quantile_disc,
// ranks the values in descending order (WITHIN GROUP (ORDER BY x DESC)).
const DescMarker = "__carquet_desc__"

// MapMarker is what the rewrite makes of a map literal.
const MapMarker = "__carquet_map__"

// mapLiteral reads the map literal MAP {key: value, ...} whose '{' is
// toks[i] and returns the tokens of MapMarker(key, value, ...) and the
// index of its '}'.
func mapLiteral(src string, toks []Token, i int) ([]Token, int, error) {
	k := closingBrace(toks, i)
	if k < 0 {
		return nil, 0, ErrAt(src, toks[i].Pos, "unterminated map literal MAP {...}")
	}
	pos := toks[i].Pos
	call := []Token{{Kind: Ident, Text: MapMarker, Pos: pos}, {Kind: Op, Text: "(", Pos: pos}}
	if k == i+1 {
		return append(call, Token{Kind: Op, Text: ")", Pos: toks[k].Pos}), k, nil
	}
	for n, entry := range SplitList(toks[i+1 : k]) {
		key, value, ok := splitMapEntry(entry)
		if !ok {
			at := pos
			if len(entry) > 0 {
				at = entry[0].Pos
			}
			return nil, 0, ErrAt(src, at, "a map literal takes key: value entries")
		}
		if n > 0 {
			call = append(call, Token{Kind: Op, Text: ",", Pos: key[0].Pos})
		}
		call = append(append(call, key...), Token{Kind: Op, Text: ",", Pos: key[0].Pos})
		call = append(call, value...)
	}
	return append(call, Token{Kind: Op, Text: ")", Pos: toks[k].Pos}), k, nil
}

// closingBrace is the index of the '}' that closes the '{' at toks[i], or
// -1.
func closingBrace(toks []Token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].Kind == Op && (toks[k].Text == "{" || toks[k].Text == "(" || toks[k].Text == "["):
			depth++
		case toks[k].Kind == Op && (toks[k].Text == "}" || toks[k].Text == ")" || toks[k].Text == "]"):
			depth--
		}
		if depth == 0 {
			if toks[k].Text != "}" {
				return -1
			}
			return k
		}
	}
	return -1
}

// splitMapEntry splits key: value at its first ':' outside brackets (a
// ':1' after the key lexes as a parameter and is taken apart).
func splitMapEntry(entry []Token) (key, value []Token, ok bool) {
	depth := 0
	for x, t := range entry {
		switch {
		case t.Kind == Op && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			depth++
		case t.Kind == Op && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			depth--
		case depth == 0 && x > 0 && t.Kind == Op && t.Text == ":":
			return entry[:x], entry[x+1:], x+1 < len(entry)
		case depth == 0 && x > 0 && t.Kind == Param && strings.HasPrefix(t.Text, ":"):
			kind := Ident
			if c := t.Text[1]; c >= '0' && c <= '9' {
				kind = Number
			}
			return entry[:x], append([]Token{{Kind: kind, Text: t.Text[1:], Pos: t.Pos + 1}}, entry[x+1:]...), true
		}
	}
	return nil, nil, false
}

// LambdaMarker is what the rewrite makes of a lambda: x -> body, (x, y) ->
// body and lambda x, y: body read LambdaMarker('x', ['y',] body).
const LambdaMarker = "__carquet_lambda__"

// lambdaFuncs are the functions that take a lambda (bindLambdaCall).
var lambdaFuncs = map[string]bool{
	"list_transform": true, "array_transform": true, "apply": true, "list_apply": true, "array_apply": true,
	"list_filter": true, "array_filter": true, "filter": true,
	"list_reduce": true, "array_reduce": true, "reduce": true,
	"columns": true, // COLUMNS(c -> ...) (columns.go)
}

// TakesLambda reports whether the function name (lower case) takes a
// lambda among its arguments.
func TakesLambda(name string) bool { return lambdaFuncs[name] }

// rewriteLambdas turns the lambdas among the arguments of the call whose
// '(' is (*toks)[open] into LambdaMarker calls; false when there is none.
func rewriteLambdas(toks *[]Token, open int) bool {
	ts := *toks
	end := ClosingParen(ts, open)
	if end < 0 {
		return false
	}
	var out []Token
	changed := false
	for n, arg := range SplitList(ts[open+1 : end]) {
		if len(arg) == 0 {
			return false // f(a,,b): the parser reports it
		}
		if n > 0 {
			out = append(out, Token{Kind: Op, Text: ",", Pos: arg[0].Pos})
		}
		params, body, ok := lambdaParts(arg)
		if !ok {
			out = append(out, arg...)
			continue
		}
		changed = true
		at := arg[0].Pos
		out = append(out, Token{Kind: Ident, Text: LambdaMarker, Pos: at}, Token{Kind: Op, Text: "(", Pos: at})
		for _, p := range params {
			out = append(out, Token{Kind: String, Text: "'" + strings.ReplaceAll(p, "'", "''") + "'", Pos: at}, Token{Kind: Op, Text: ",", Pos: at})
		}
		out = append(append(out, body...), Token{Kind: Op, Text: ")", Pos: at})
	}
	if !changed {
		return false
	}
	*toks = append(append(append([]Token{}, ts[:open+1]...), out...), ts[end:]...)
	return true
}

// lambdaParts splits a lambda argument into its parameter names and its
// body: x -> body, (x, y) -> body, or lambda x, y: body.
func lambdaParts(arg []Token) ([]string, []Token, bool) {
	names := func(ts []Token) ([]string, bool) {
		var out []string
		for x, t := range ts {
			switch {
			case x%2 == 0 && (t.Kind == Ident || t.Kind == DQuoted):
				out = append(out, t.Unquoted())
			case x%2 == 1 && t.Kind == Op && t.Text == ",":
			default:
				return nil, false
			}
		}
		return out, len(out) > 0 && len(ts)%2 == 1
	}
	if len(arg) > 2 && arg[0].Is("lambda") {
		for x := 1; x < len(arg); x++ {
			t := arg[x]
			var body []Token
			switch {
			case t.Kind == Op && t.Text == ":":
				body = arg[x+1:]
			case t.Kind == Param && strings.HasPrefix(t.Text, ":"): // x:body lexed as a parameter
				body = append([]Token{{Kind: Ident, Text: t.Text[1:], Pos: t.Pos + 1}}, arg[x+1:]...)
				if c := t.Text[1]; c >= '0' && c <= '9' {
					body[0].Kind = Number
				}
			default:
				continue
			}
			ps, ok := names(arg[1:x])
			return ps, body, ok && len(body) > 0
		}
		return nil, nil, false
	}
	depth := 0
	for x, t := range arg {
		if t.Kind == Op && (t.Text == "(" || t.Text == "[" || t.Text == "{") {
			depth++
		} else if t.Kind == Op && (t.Text == ")" || t.Text == "]" || t.Text == "}") {
			depth--
		} else if depth == 0 && t.Kind == Op && t.Text == "->" {
			head := arg[:x]
			if len(head) > 2 && head[0].Kind == Op && head[0].Text == "(" && head[len(head)-1].Kind == Op && head[len(head)-1].Text == ")" {
				head = head[1 : len(head)-1]
			}
			ps, ok := names(head)
			return ps, arg[x+1:], ok && x+1 < len(arg)
		}
	}
	return nil, nil, false
}

// listComprehension rewrites the list comprehension whose '[' is toks[i],
// [e FOR x IN l [IF c]], into list_transform(list_filter(l, x -> c), x ->
// e) (without IF, list_transform(l, x -> e)), returning the tokens and the
// index of its ']'; false for a plain list literal.
func listComprehension(toks []Token, i int) ([]Token, int, bool) {
	depth, forAt, inAt, ifAt, end := 0, -1, -1, -1, -1
	for x := i + 1; x < len(toks) && end < 0; x++ {
		t := toks[x]
		switch {
		case t.Kind == Op && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			depth++
		case t.Kind == Op && (t.Text == ")" || t.Text == "}"):
			depth--
		case t.Kind == Op && t.Text == "]":
			if depth == 0 {
				end = x
			}
			depth--
		case depth != 0:
		case t.Is("for") && forAt < 0:
			forAt = x
		case t.Is("in") && forAt >= 0 && inAt < 0:
			inAt = x
		case t.Is("if") && inAt >= 0 && ifAt < 0:
			ifAt = x
		}
	}
	if end < 0 || forAt < 0 || inAt != forAt+2 || forAt == i+1 || toks[forAt+1].Kind != Ident {
		return nil, 0, false
	}
	at := toks[i].Pos
	word := func(s string) Token { return Token{Kind: Ident, Text: s, Pos: at} }
	op := func(s string) Token { return Token{Kind: Op, Text: s, Pos: at} }
	v := toks[forAt+1]
	elem, list := toks[i+1:forAt], toks[inAt+1:end]
	if ifAt >= 0 {
		list = append(append(append([]Token{word("list_filter"), op("(")}, toks[inAt+1:ifAt]...), op(","), v, op("->")), toks[ifAt+1:end]...)
		list = append(list, op(")"))
	}
	if len(list) == 0 || len(elem) == 0 {
		return nil, 0, false
	}
	out := append([]Token{word("list_transform"), op("(")}, list...)
	out = append(append(append(out, op(","), v, op("->")), elem...), op(")"))
	return out, end, true
}

// IndexMarker is what the rewrite makes of x[i].
const IndexMarker = "__carquet_index__"

// namedArgCall rewrites struct_pack(a := 1, b := x, c) and
// struct_insert(s, c := 2), whose toks[i] is the function's name, into
// StructMarker('a', 1, 'b', x, 'c', c) and struct_insert(s, 'c', 2): the
// named arguments become a name string and a value, and a column of
// struct_pack is named after itself. ok is false (nothing to rewrite) for
// a struct_insert without named arguments; k is the index of the ')'.
func namedArgCall(src string, toks []Token, i int) (call []Token, k int, ok bool, err error) {
	k = ClosingParen(toks, i+1)
	if k < 0 {
		return nil, 0, false, nil // the parser reports the parenthesis
	}
	args := SplitList(toks[i+2 : k])
	named := func(a []Token) bool {
		return len(a) > 3 && a[1].Kind == Op && a[1].Text == ":" && a[2].Kind == Op && a[2].Text == "=" && a[1].Pos+1 == a[2].Pos
	}
	pack := toks[i].Is("struct_pack")
	for _, a := range args {
		ok = ok || named(a)
	}
	if !ok && !pack {
		return nil, 0, false, nil
	}
	if pack && k == i+2 {
		return nil, 0, false, ErrAt(src, toks[i].Pos, "Can't pack nothing into a struct")
	}
	name := toks[i]
	if pack {
		name.Text = StructMarker
	}
	call = []Token{name, toks[i+1]}
	for n, a := range args {
		if len(a) == 0 {
			return nil, 0, false, ErrAt(src, toks[k].Pos, "an empty argument of %s", toks[i].Text)
		}
		if n > 0 {
			call = append(call, Token{Kind: Op, Text: ",", Pos: a[0].Pos})
		}
		field, value := Token{}, a
		switch {
		case named(a):
			if a[0].Kind != Ident && a[0].Kind != DQuoted && a[0].Kind != Quoted {
				return nil, 0, false, ErrAt(src, a[0].Pos, "an argument is named by a name before :=")
			}
			field, value = a[0], a[3:]
		case pack:
			// struct_pack(x) names the field after the column x (DuckDB).
			col, isCol := columnRef(a)
			if !isCol {
				return nil, 0, false, ErrAt(src, a[0].Pos, "Need named argument for struct pack, e.g. STRUCT_PACK(a := b)")
			}
			field = col
		default:
			call = append(call, a...)
			continue
		}
		text := Token{Kind: String, Text: "'" + strings.ReplaceAll(field.Unquoted(), "'", "''") + "'", Pos: field.Pos}
		call = append(call, text, Token{Kind: Op, Text: ",", Pos: field.Pos})
		call = append(call, value...)
	}
	return append(call, toks[k]), k, true, nil
}

// columnRef reports whether the tokens a are a column's name, plain or
// qualified (t.c), and returns the token of its last part.
func columnRef(a []Token) (Token, bool) {
	for n, t := range a {
		if n%2 == 1 {
			if t.Kind != Op || t.Text != "." {
				return Token{}, false
			}
			continue
		}
		switch {
		case t.Kind == DQuoted || t.Kind == Quoted:
		case t.Kind == Ident && !t.Is("null") && !t.Is("true") && !t.Is("false"):
		default:
			return Token{}, false
		}
	}
	if len(a)%2 == 0 {
		return Token{}, false
	}
	return a[len(a)-1], true
}

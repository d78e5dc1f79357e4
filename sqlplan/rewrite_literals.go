package sqlplan

import (
	"strings"
)

// Nested literals and lambdas in the rewrite layer: {'a': x} structs,
// MAP {k: v}, [list comprehensions], x -> expr lambdas.

// structMarker is what the rewrite makes of a struct literal.
const structMarker = "__carquet_struct__"

// structLiteral reads the struct literal whose '{' is toks[i] and returns
// the tokens of structMarker('name', value, ...) and the index of its '}'.
func structLiteral(src string, toks []token, i int) ([]token, int, error) {
	k := closingBrace(toks, i)
	if k < 0 {
		return nil, 0, errAt(src, toks[i].pos, "unterminated struct literal {...}")
	}
	pos := toks[i].pos
	call := []token{{kind: tkIdent, text: structMarker, pos: pos}, {kind: tkOp, text: "(", pos: pos}}
	if k == i+1 {
		return nil, 0, errAt(src, pos, "a struct literal needs at least one field")
	}
	for n, entry := range splitList(toks[i+1 : k]) {
		key, value, ok := splitMapEntry(entry)
		if !ok || len(key) != 1 || key[0].kind != tkString && key[0].kind != tkIdent && key[0].kind != tkDQuoted {
			at := pos
			if len(entry) > 0 {
				at = entry[0].pos
			}
			return nil, 0, errAt(src, at, "a struct literal takes 'name': value entries")
		}
		name := key[0]
		if n > 0 {
			call = append(call, token{kind: tkOp, text: ",", pos: name.pos})
		}
		call = append(call, token{kind: tkString, text: "'" + strings.ReplaceAll(tableToken(name), "'", "''") + "'", pos: name.pos}, token{kind: tkOp, text: ",", pos: name.pos})
		call = append(call, value...)
	}
	return append(call, token{kind: tkOp, text: ")", pos: toks[k].pos}), k, nil
}

// descMarker, as the last argument of quantile_cont or quantile_disc,
// ranks the values in descending order (WITHIN GROUP (ORDER BY x DESC)).
const descMarker = "__carquet_desc__"

// mapMarker is what the rewrite makes of a map literal.
const mapMarker = "__carquet_map__"

// mapLiteral reads the map literal MAP {key: value, ...} whose '{' is
// toks[i] and returns the tokens of mapMarker(key, value, ...) and the
// index of its '}'.
func mapLiteral(src string, toks []token, i int) ([]token, int, error) {
	k := closingBrace(toks, i)
	if k < 0 {
		return nil, 0, errAt(src, toks[i].pos, "unterminated map literal MAP {...}")
	}
	pos := toks[i].pos
	call := []token{{kind: tkIdent, text: mapMarker, pos: pos}, {kind: tkOp, text: "(", pos: pos}}
	if k == i+1 {
		return append(call, token{kind: tkOp, text: ")", pos: toks[k].pos}), k, nil
	}
	for n, entry := range splitList(toks[i+1 : k]) {
		key, value, ok := splitMapEntry(entry)
		if !ok {
			at := pos
			if len(entry) > 0 {
				at = entry[0].pos
			}
			return nil, 0, errAt(src, at, "a map literal takes key: value entries")
		}
		if n > 0 {
			call = append(call, token{kind: tkOp, text: ",", pos: key[0].pos})
		}
		call = append(append(call, key...), token{kind: tkOp, text: ",", pos: key[0].pos})
		call = append(call, value...)
	}
	return append(call, token{kind: tkOp, text: ")", pos: toks[k].pos}), k, nil
}

// closingBrace is the index of the '}' that closes the '{' at toks[i], or
// -1.
func closingBrace(toks []token, i int) int {
	depth := 0
	for k := i; k < len(toks); k++ {
		switch {
		case toks[k].kind == tkOp && (toks[k].text == "{" || toks[k].text == "(" || toks[k].text == "["):
			depth++
		case toks[k].kind == tkOp && (toks[k].text == "}" || toks[k].text == ")" || toks[k].text == "]"):
			depth--
		}
		if depth == 0 {
			if toks[k].text != "}" {
				return -1
			}
			return k
		}
	}
	return -1
}

// splitMapEntry splits key: value at its first ':' outside brackets (a
// ':1' after the key lexes as a parameter and is taken apart).
func splitMapEntry(entry []token) (key, value []token, ok bool) {
	depth := 0
	for x, t := range entry {
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
		case depth == 0 && x > 0 && t.kind == tkOp && t.text == ":":
			return entry[:x], entry[x+1:], x+1 < len(entry)
		case depth == 0 && x > 0 && t.kind == tkParam && strings.HasPrefix(t.text, ":"):
			kind := tkIdent
			if c := t.text[1]; c >= '0' && c <= '9' {
				kind = tkNumber
			}
			return entry[:x], append([]token{{kind: kind, text: t.text[1:], pos: t.pos + 1}}, entry[x+1:]...), true
		}
	}
	return nil, nil, false
}

// lambdaMarker is what the rewrite makes of a lambda: x -> body, (x, y) ->
// body and lambda x, y: body read lambdaMarker('x', ['y',] body).
const lambdaMarker = "__carquet_lambda__"

// lambdaFuncs are the functions that take a lambda (bindLambdaCall).
var lambdaFuncs = map[string]bool{
	"list_transform": true, "array_transform": true, "apply": true, "list_apply": true, "array_apply": true,
	"list_filter": true, "array_filter": true, "filter": true,
	"list_reduce": true, "array_reduce": true, "reduce": true,
	"columns": true, // COLUMNS(c -> ...) (columns.go)
}

// rewriteLambdas turns the lambdas among the arguments of the call whose
// '(' is (*toks)[open] into lambdaMarker calls; false when there is none.
func rewriteLambdas(toks *[]token, open int) bool {
	ts := *toks
	end := closingParen(ts, open)
	if end < 0 {
		return false
	}
	var out []token
	changed := false
	for n, arg := range splitList(ts[open+1 : end]) {
		if len(arg) == 0 {
			return false // f(a,,b): the parser reports it
		}
		if n > 0 {
			out = append(out, token{kind: tkOp, text: ",", pos: arg[0].pos})
		}
		params, body, ok := lambdaParts(arg)
		if !ok {
			out = append(out, arg...)
			continue
		}
		changed = true
		at := arg[0].pos
		out = append(out, token{kind: tkIdent, text: lambdaMarker, pos: at}, token{kind: tkOp, text: "(", pos: at})
		for _, p := range params {
			out = append(out, token{kind: tkString, text: "'" + strings.ReplaceAll(p, "'", "''") + "'", pos: at}, token{kind: tkOp, text: ",", pos: at})
		}
		out = append(append(out, body...), token{kind: tkOp, text: ")", pos: at})
	}
	if !changed {
		return false
	}
	*toks = append(append(append([]token{}, ts[:open+1]...), out...), ts[end:]...)
	return true
}

// lambdaParts splits a lambda argument into its parameter names and its
// body: x -> body, (x, y) -> body, or lambda x, y: body.
func lambdaParts(arg []token) ([]string, []token, bool) {
	names := func(ts []token) ([]string, bool) {
		var out []string
		for x, t := range ts {
			switch {
			case x%2 == 0 && (t.kind == tkIdent || t.kind == tkDQuoted):
				out = append(out, t.unquoted())
			case x%2 == 1 && t.kind == tkOp && t.text == ",":
			default:
				return nil, false
			}
		}
		return out, len(out) > 0 && len(ts)%2 == 1
	}
	if len(arg) > 2 && arg[0].is("lambda") {
		for x := 1; x < len(arg); x++ {
			t := arg[x]
			var body []token
			switch {
			case t.kind == tkOp && t.text == ":":
				body = arg[x+1:]
			case t.kind == tkParam && strings.HasPrefix(t.text, ":"): // x:body lexed as a parameter
				body = append([]token{{kind: tkIdent, text: t.text[1:], pos: t.pos + 1}}, arg[x+1:]...)
				if c := t.text[1]; c >= '0' && c <= '9' {
					body[0].kind = tkNumber
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
		if t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{") {
			depth++
		} else if t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}") {
			depth--
		} else if depth == 0 && t.kind == tkOp && t.text == "->" {
			head := arg[:x]
			if len(head) > 2 && head[0].kind == tkOp && head[0].text == "(" && head[len(head)-1].kind == tkOp && head[len(head)-1].text == ")" {
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
func listComprehension(toks []token, i int) ([]token, int, bool) {
	depth, forAt, inAt, ifAt, end := 0, -1, -1, -1, -1
	for x := i + 1; x < len(toks) && end < 0; x++ {
		t := toks[x]
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == tkOp && (t.text == ")" || t.text == "}"):
			depth--
		case t.kind == tkOp && t.text == "]":
			if depth == 0 {
				end = x
			}
			depth--
		case depth != 0:
		case t.is("for") && forAt < 0:
			forAt = x
		case t.is("in") && forAt >= 0 && inAt < 0:
			inAt = x
		case t.is("if") && inAt >= 0 && ifAt < 0:
			ifAt = x
		}
	}
	if end < 0 || forAt < 0 || inAt != forAt+2 || forAt == i+1 || toks[forAt+1].kind != tkIdent {
		return nil, 0, false
	}
	at := toks[i].pos
	word := func(s string) token { return token{kind: tkIdent, text: s, pos: at} }
	op := func(s string) token { return token{kind: tkOp, text: s, pos: at} }
	v := toks[forAt+1]
	elem, list := toks[i+1:forAt], toks[inAt+1:end]
	if ifAt >= 0 {
		list = append(append(append([]token{word("list_filter"), op("(")}, toks[inAt+1:ifAt]...), op(","), v, op("->")), toks[ifAt+1:end]...)
		list = append(list, op(")"))
	}
	if len(list) == 0 || len(elem) == 0 {
		return nil, 0, false
	}
	out := append([]token{word("list_transform"), op("(")}, list...)
	out = append(append(append(out, op(","), v, op("->")), elem...), op(")"))
	return out, end, true
}

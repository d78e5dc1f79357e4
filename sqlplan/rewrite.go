package sqlplan

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The rewrite layer turns the SQL users write (DuckDB / PostgreSQL
// habits) into text github.com/xwb1989/sqlparser parses, keeping for every
// output token the offset of the input token it came from, so that errors
// point into the user's text.

// otok is one token of the rewritten text.
type otok struct {
	text    string
	orig    int // offset in the original text
	origLen int
}

// source is a statement's original text and its rewritten form.
type source struct {
	orig string
	text string
	segs []otok // with orig; out offsets in outPos
	outs []int  // output offset of each seg
	toks []token
	// recs are the recursive CTEs of the statement (recursive.go).
	recs []*recCTE
	// setOps are the queries with INTERSECT or EXCEPT inside parentheses,
	// by the number of their marker table (extractSetOps).
	setOps [][]token
}

// origOffset maps an offset in the rewritten text to the original text.
func (s *source) origOffset(p int) int {
	if len(s.outs) == 0 {
		return 0
	}
	k := 0
	for k+1 < len(s.outs) && s.outs[k+1] <= p {
		k++
	}
	d := p - s.outs[k]
	if d > s.segs[k].origLen {
		d = s.segs[k].origLen
	}
	if d < 0 {
		d = 0
	}
	return s.segs[k].orig + d
}

// errAt returns an error at an original offset.
func (s *source) errAt(off int, format string, args ...any) *Error {
	return errAt(s.orig, off, format, args...)
}

// locate fills in the position of an error that names an identifier, by
// the first occurrence of that identifier in the statement.
func (s *source) locate(e *Error, ident string) *Error {
	if e.Offset >= 0 || s == nil {
		return e
	}
	last := ident
	if i := strings.LastIndexByte(ident, '.'); i >= 0 {
		last = ident[i+1:]
	}
	for _, t := range s.toks {
		if (t.kind == tkIdent || t.kind == tkQuoted || t.kind == tkDQuoted || t.kind == tkString) && strings.EqualFold(t.unquoted(), last) {
			e.Offset = t.pos
			e.Line, e.Column = lineCol(s.orig, t.pos)
			return e
		}
	}
	return e
}

var syntaxPos = regexp.MustCompile(`^(.*) at position (\d+)(?: near '(.*)')?$`)

// parseError converts a parser error into an Error at the user's position.
func (s *source) parseError(err error) *Error {
	m := syntaxPos.FindStringSubmatch(err.Error())
	if m == nil {
		return &Error{Msg: err.Error(), Offset: -1}
	}
	p, _ := strconv.Atoi(m[2])
	if m[3] != "" {
		p -= 1 + len(m[3])
	} else {
		// The tokenizer stands one character past the offending token.
		p -= 2
		for p > 0 && p < len(s.text) && s.text[p] == ' ' {
			p--
		}
		for p > 0 && p <= len(s.text) && s.text[p-1] != ' ' {
			p--
		}
	}
	if p < 0 {
		p = 0
	}
	off := s.origOffset(p)
	msg := m[1]
	if m[3] != "" {
		msg += fmt.Sprintf(" near %q", s.nearText(off, m[3]))
	} else if off >= len(strings.TrimRight(s.orig, " \t\r\n;")) {
		msg += " at the end of the statement"
	}
	return s.errAt(off, "%s", msg)
}

// nearText returns the original token at off (the parser names the
// rewritten one).
func (s *source) nearText(off int, fallback string) string {
	for _, t := range s.toks {
		if t.pos == off {
			return t.text
		}
	}
	return fallback
}

// rewriter builds the rewritten text.
type rewriter struct {
	src    string
	toks   []token
	out    []otok
	params int // ? seen so far
	setOps [][]token
}

func (r *rewriter) emit(text string, t token) {
	r.out = append(r.out, otok{text: text, orig: t.pos, origLen: len(t.text)})
}

func (r *rewriter) source() *source {
	s := &source{orig: r.src, toks: r.toks, setOps: r.setOps}
	var b strings.Builder
	for i, o := range r.out {
		if i > 0 {
			b.WriteByte(' ')
		}
		s.outs = append(s.outs, b.Len())
		s.segs = append(s.segs, o)
		b.WriteString(o.text)
	}
	s.text = b.String()
	return s
}

func backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// dropLateral removes the word LATERAL after a comma or JOIN: a derived
// table or table function that names the FROM items before it is lateral
// anyway (lateral.go).
func dropLateral(toks []token) []token {
	out := toks[:0:0]
	for i, t := range toks {
		if t.is("lateral") && i > 0 && i+1 < len(toks) {
			prev, next := toks[i-1], toks[i+1]
			if (prev.kind == tkOp && prev.text == "," || prev.is("join")) && (next.kind == tkOp && next.text == "(" || next.kind == tkIdent) {
				continue
			}
		}
		out = append(out, t)
	}
	return out
}

// mysqlString writes a string literal the MySQL tokenizer reads back as
// the same bytes (it treats backslashes as escapes; SQL does not).
func mysqlString(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// clauseAfterFrom are the words that end a FROM list.
var clauseAfterFrom = map[string]bool{"where": true, "group": true, "having": true, "order": true, "limit": true, "offset": true,
	"window": true, "qualify": true, "union": true, "except": true, "intersect": true, "select": true, "fetch": true}

var unsupportedWords = map[string]string{
	"intersect": "INTERSECT here (only between whole SELECTs)", "except": "EXCEPT here (only between whole SELECTs)", "pivot": "PIVOT here (as a statement or in parentheses it is)", "unpivot": "UNPIVOT here (as a statement or in parentheses it is)",
	"rlike": "the RLIKE operator (use regexp_matches())", "regexp": "the REGEXP operator (use regexp_matches())",
	"recursive": "WITH RECURSIVE", "window": "WINDOW here (WINDOW name AS (...) after HAVING)",
	"asof": "ASOF here (ASOF [INNER | LEFT | RIGHT | FULL] JOIN ... ON or USING)", "positional": "POSITIONAL here (POSITIONAL JOIN)", "semi": "SEMI JOIN here (only in the top level of a query, with ON)", "anti": "ANTI JOIN here (only in the top level of a query, with ON)",
}

// rewriteTokens rewrites toks (significant tokens of src).
func rewriteTokens(src string, toks []token) (*source, error) {
	toks = quoteKeywordNames(toks)
	toks, err := inlineWindows(src, toks)
	if err != nil {
		return nil, err
	}
	if toks, err = valuesToSelect(src, toks); err != nil {
		return nil, err
	}
	toks = normalizeLimits(toks)
	toks = dropLateral(toks)
	toks, setOps := extractSetOps(toks)
	r := &rewriter{src: src, toks: toks, setOps: setOps}
	type paren struct {
		fn  string
		out int // index in r.out of the '('
		// derived marks a subquery in FROM or JOIN, which SQL users may
		// leave without an alias (the parser needs one).
		derived bool
		// query marks a parenthesis that holds a query (SELECT or WITH).
		query bool
	}
	unnamed := 0
	excludeEnd := -1 // the ")" of the last SELECT * EXCLUDE (...)
	var parens []paren
	// brackets are the open [ ... ]: the parenthesis depth each was opened
	// at and, for an index x[i], where its indexMarker call starts in
	// r.out (-1 for a list literal); slice: x[a:b] seen ':'.
	type bracket struct {
		depth, head int
		slice       bool
	}
	var brackets []bracket
	inIndex := func() *bracket {
		if len(brackets) == 0 {
			return nil
		}
		b := &brackets[len(brackets)-1]
		if b.head < 0 || b.depth != len(parens) {
			return nil
		}
		return b
	}
	// QUALIFY cond becomes HAVING qualifyMarker(cond), or, after a HAVING
	// of the same SELECT, (h) AND qualifyMarker(cond): havingAt is where
	// the last HAVING at each parenthesis depth was emitted, qualifyOpen
	// the depth of a qualifyMarker call not yet closed (-1: none).
	havingAt := map[int]int{}
	qualifyOpen := -1
	// DISTINCT ON (keys) becomes QUALIFY row_number() OVER (PARTITION BY
	// keys ORDER BY the query's ORDER BY) = 1, whose tokens are put in
	// before the clause that ends the SELECT (distinctOn: its keys and
	// depth; nil when none is pending).
	type distinctOnState struct {
		depth int
		keys  []token
		pos   int
	}
	var distinctOn *distinctOnState
	qualifies := map[int]bool{} // depths whose SELECT has a QUALIFY
	closeQualify := func(t token) {
		if qualifyOpen >= 0 && len(parens) == qualifyOpen {
			r.emit(")", t)
			qualifyOpen = -1
		}
	}
	at := func(i int) token {
		if i >= 0 && i < len(toks) {
			return toks[i]
		}
		return token{kind: tkSpace}
	}
	inFrom := map[int]bool{}
	for i := 0; ; i++ {
		if i >= len(toks) {
			if distinctOn == nil {
				break
			}
			synth, err := distinctOnTokens(src, distinctOn.keys, distinctOn.pos, nil)
			if err != nil {
				return nil, err
			}
			toks = append(toks, synth...)
			distinctOn = nil
		}
		t := toks[i]
		if distinctOn != nil && len(parens) == distinctOn.depth && (t.kind == tkOp && (t.text == ")" || t.text == ";") ||
			t.kind == tkIdent && (t.is("order") || t.is("limit") || t.is("offset") || t.is("union") || t.is("except") || t.is("intersect") || t.is("window"))) {
			if qualifies[distinctOn.depth] {
				return nil, unsupportedErr(src, distinctOn.pos, "DISTINCT ON together with QUALIFY")
			}
			var order []token
			if t.is("order") && at(i+1).is("by") {
				order = orderByTokens(toks[i+2:])
			}
			synth, err := distinctOnTokens(src, distinctOn.keys, distinctOn.pos, order)
			if err != nil {
				return nil, err
			}
			toks = append(toks[:i:i], append(synth, toks[i:]...)...)
			distinctOn = nil
			t = toks[i]
		}
		prev, next := at(i-1), at(i+1)
		// afterFrom: the token follows the FROM of a table list, a comma
		// of that list, or a JOIN (not the FROM of IS [NOT] DISTINCT FROM).
		// inFrom marks the parenthesis depths whose FROM list is open.
		fromWord := prev.is("from") && !at(i-2).is("distinct")
		if fromWord {
			inFrom[len(parens)] = true
		} else if t.kind == tkIdent && clauseAfterFrom[strings.ToLower(t.text)] {
			delete(inFrom, len(parens))
		}
		afterFrom := fromWord || prev.is("join") || prev.kind == tkOp && prev.text == "," && inFrom[len(parens)]
		if qualifyOpen >= 0 && len(parens) == qualifyOpen && (t.kind == tkOp && (t.text == ")" || t.text == ";") ||
			t.kind == tkIdent && (t.is("order") || t.is("limit") || t.is("offset") || t.is("union") || t.is("except") || t.is("intersect") || t.is("window"))) {
			closeQualify(t)
		}
		switch t.kind {
		case tkDQuoted, tkQuoted:
			r.emit(backquote(t.unquoted()), t)
		case tkString:
			if afterFrom {
				r.emit(backquote(t.unquoted()), t)
			} else {
				r.emit(mysqlString(t.unquoted()), t)
			}
		case tkParam:
			if t.text[0] == ':' && inIndex() != nil {
				// x[a:b]: the lexer read :b as a named parameter.
				rest := token{kind: tkIdent, text: t.text[1:], pos: t.pos + 1}
				if c := rest.text[0]; c >= '0' && c <= '9' {
					rest.kind = tkNumber
				}
				toks = append(toks[:i:i], append([]token{{kind: tkOp, text: ":", pos: t.pos}, rest}, toks[i+1:]...)...)
				i--
				continue
			}
			switch t.text[0] {
			case '?':
				r.params++
				r.emit(":v"+strconv.Itoa(r.params), t)
			case '$':
				n, err := strconv.Atoi(t.text[1:])
				switch {
				case err != nil:
					r.emit(":n_"+t.text[1:], t)
				case n < 1:
					return nil, errAt(src, t.pos, "bad parameter %s", t.text)
				default:
					r.emit(":v"+t.text[1:], t)
				}
			default:
				// Named parameters get a prefix of their own, so that a
				// name like v1 never meets the positional :v1.
				r.emit(":n_"+t.text[1:], t)
			}
		case tkNumber:
			r.emit(t.text, t)
		case tkOp:
			switch t.text {
			case "::":
				typ, n, err := readType(src, toks, i+1)
				if err != nil {
					return nil, err
				}
				start := operandStart(r.out)
				if start < 0 {
					return nil, errAt(src, t.pos, "nothing to cast before ::")
				}
				operand := append([]otok(nil), r.out[start:]...)
				r.out = r.out[:start]
				r.out = append(r.out, otok{text: "cast", orig: operand[0].orig, origLen: 0}, otok{text: "(", orig: operand[0].orig})
				r.out = append(r.out, operand...)
				r.out = append(r.out, otok{text: "as " + castSpelling(typ), orig: t.pos, origLen: len(t.text)}, otok{text: ")", orig: t.pos})
				i = n - 1
			case "->", "->>":
				// JSON: l -> p is json_extract(l, p), l ->> p
				// json_extract_string(l, p) (lambdas were rewritten with
				// their calls).
				start := operandStart(r.out)
				end := operandEnd(toks, i+1)
				if start < 0 || end <= i+1 {
					return nil, errAt(src, t.pos, "%s needs a value on each side", t.text)
				}
				fn := "json_extract"
				if t.text == "->>" {
					fn = "json_extract_string"
				}
				head := []otok{{text: fn, orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
				r.out = append(r.out[:start], append(head, r.out[start:]...)...)
				r.emit(",", t)
				closer := token{kind: tkOp, text: ")", pos: toks[end-1].pos}
				toks = append(toks[:end:end], append([]token{closer}, toks[end:]...)...)
			case "||":
				r.emit("|", t)
			case "|":
				// The parser has one token for | and ||, and || is
				// concatenation: a bitwise OR marks its right operand's
				// first term with BINARY (see bitOrOperand).
				r.emit("|", t)
				r.out = append(r.out, otok{text: "binary", orig: t.pos + 1})
			case "(":
				fn := ""
				if prev.kind == tkIdent {
					fn = strings.ToLower(prev.text)
				}
				derived := afterFrom && (next.is("select") || next.is("with"))
				parens = append(parens, paren{fn: fn, out: len(r.out), derived: derived, query: next.is("select") || next.is("with")})
				r.emit("(", t)
			case ")":
				derived, try := false, false
				openAt := 0
				delete(inFrom, len(parens))
				if len(parens) > 0 {
					derived, try = parens[len(parens)-1].derived, parens[len(parens)-1].fn == "try_cast"
					openAt = parens[len(parens)-1].out
					parens = parens[:len(parens)-1]
				}
				r.emit(")", t)
				if try {
					r.emit(")", t)
				}
				if derived {
					if k, ok := r.derivedColumnList(toks, i, openAt); ok {
						i = k
						continue
					}
				}
				if derived && !aliasFollows(next) {
					// DuckDB's name for a subquery without an alias.
					unnamed++
					name := "unnamed_subquery"
					if unnamed > 1 {
						name += strconv.Itoa(unnamed)
					}
					r.emit("as "+name, t)
				}
			case "{":
				// A struct literal {'a': 1, 'b': x} is structMarker('a', 1,
				// 'b', x): the tokens are reordered and rewritten; a map
				// literal MAP {k: v, ...} is mapMarker(k, v, ...).
				literal := structLiteral
				if n := len(r.out); n > 0 && strings.EqualFold(r.out[n-1].text, "map") {
					r.out, literal = r.out[:n-1], mapLiteral
				}
				call, k, err := literal(src, toks, i)
				if err != nil {
					return nil, err
				}
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case "[":
				// x[i] is indexMarker(x, i); [a, b] (no operand before) is
				// list_value(a, b). brackets remembers which, for the ']'.
				start := operandStart(r.out)
				operand := len(r.out) > 0 && start >= 0
				if operand {
					switch last := r.out[len(r.out)-1].text; {
					case last == ")" || last == "]" || strings.HasPrefix(last, "'") || strings.HasPrefix(last, "`"):
					case isWord(last) && !isOperatorWord(last):
					default:
						operand = false
					}
				}
				if operand {
					head := []otok{{text: indexMarker, orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
					r.out = append(r.out[:start], append(head, r.out[start:]...)...)
					r.emit(",", t)
					brackets = append(brackets, bracket{depth: len(parens), head: start})
				} else if comp, end, ok := listComprehension(toks, i); ok {
					toks = append(toks[:i:i], append(comp, toks[end+1:]...)...)
					i--
				} else {
					r.emit("list_value", t)
					r.emit("(", t)
					brackets = append(brackets, bracket{depth: len(parens), head: -1})
				}
			case ":":
				// x[a:b] is list_slice(x, a, b), a bound left out the
				// first or the last element.
				b := inIndex()
				if b == nil || b.slice || r.out[b.head].text != indexMarker {
					return nil, errAt(src, t.pos, "unexpected :")
				}
				b.slice = true
				r.out[b.head].text = "list_slice"
				if r.out[len(r.out)-1].text == "," {
					r.emit("1", t)
				}
				r.emit(",", t)
			case "]":
				if len(brackets) == 0 {
					return nil, errAt(src, t.pos, "unmatched ]")
				}
				if b := brackets[len(brackets)-1]; b.slice && r.out[len(r.out)-1].text == "," {
					r.emit("-1", t)
				}
				brackets = brackets[:len(brackets)-1]
				r.emit(")", t)
			case "~", "!", "^":
				// x ~ p and x !~ p (regular expression matching the whole
				// string, as SIMILAR TO: x [NOT] LIKE marker(p)), x ^@ p
				// (starts_with(x, p)); a unary ~ or ! stays.
				neg, starts := t.text == "!" && next.kind == tkOp && next.text == "~", t.text == "^" && next.kind == tkOp && next.text == "@"
				if !endsOperand(prev) || t.text == "!" && !neg || t.text == "^" && !starts {
					r.emit(t.text, t)
					break
				}
				op := i + 1
				if neg || starts {
					op = i + 2
				}
				end := operandEnd(toks, op)
				if end <= op {
					return nil, errAt(src, t.pos, "%s needs a value on its right", t.text)
				}
				var call []token
				if starts {
					start := operandStart(r.out)
					if start < 0 {
						return nil, errAt(src, t.pos, "^@ needs a value on its left")
					}
					head := []otok{{text: "starts_with", orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
					r.out = append(r.out[:start], append(head, r.out[start:]...)...)
					r.emit(",", t)
					call = append(call, toks[op:end]...)
				} else {
					if neg {
						call = append(call, token{kind: tkIdent, text: "not", pos: t.pos})
					}
					call = append(call, token{kind: tkIdent, text: "like", pos: t.pos}, token{kind: tkIdent, text: similarMarker, pos: t.pos}, token{kind: tkOp, text: "(", pos: t.pos})
					call = append(call, toks[op:end]...)
				}
				call = append(call, token{kind: tkOp, text: ")", pos: toks[end-1].pos})
				toks = append(toks[:i:i], append(call, toks[end:]...)...)
				i-- // the call (or, for ^@, the right operand and its ')') comes next
			case "//":
				r.emit("div", t) // integer division (bind.go)
			case "**":
				r.emit("^", t) // power (the parser's ^ is bound as power)
			default:
				r.emit(t.text, t)
			}
		case tkIdent:
			low := strings.ToLower(t.text)
			if feat, ok := unsupportedWords[low]; ok && !(prev.kind == tkOp && prev.text == ".") && !(next.kind == tkOp && next.text == "(") {
				e := errAt(src, t.pos, "%s is not supported", feat)
				e.Err = ErrUnsupported
				return nil, e
			}
			switch {
			case low == "at" && next.is("time") && at(i+2).is("zone"):
				// x AT TIME ZONE z is timezone(z, x).
				start := operandStart(r.out)
				zone := at(i + 3)
				if start < 0 || zone.kind != tkString {
					return nil, errAt(src, t.pos, "AT TIME ZONE takes a value before it and a zone name (a string constant) after it")
				}
				operand := append([]otok(nil), r.out[start:]...)
				r.out = append(r.out[:start], otok{text: "timezone", orig: operand[0].orig}, otok{text: "(", orig: operand[0].orig})
				r.emit(mysqlString(zone.unquoted()), zone)
				r.emit(",", t)
				r.out = append(r.out, operand...)
				r.emit(")", zone)
				i += 3
			case (low == "x" || low == "b") && next.kind == tkString && next.pos == t.pos+1:
				// X'00ff' hex (and B'0101' bit) literals.
				r.emit(t.text+next.text, t)
				i++
			case (low == "time" || low == "timestamp") && next.is("with") && at(i+2).is("time") && at(i+3).is("zone") && at(i+4).kind == tkString:
				// TIME WITH TIME ZONE '...' and TIMESTAMP WITH TIME ZONE '...'.
				typ, _ := parseTypeName(low+" with time zone", nil)
				r.typedLiteral(typ, t, at(i+4))
				i += 4
			case (low == "date" || low == "timestamp" || low == "time" || low == "timestamptz" || low == "datetime" || low == "timestamp_ns" || low == "time_ns" || low == "timestamp_ms" || low == "timestamp_s" || low == "timetz") && next.kind == tkString:
				typ, _ := parseTypeName(low, nil)
				r.typedLiteral(typ, t, next)
				i++
			case low == "interval" && next.kind == tkString && len(strings.Fields(next.unquoted())) > 2 || low == "interval" && next.kind == tkString && strings.Contains(next.unquoted(), ":"):
				// INTERVAL '1 month 2 days 03:00:00': intervalMarker('...').
				r.emit(intervalMarker, t)
				r.emit("(", t)
				r.emit(mysqlString(next.unquoted()), next)
				r.emit(")", next)
				i++
			case low == "interval" && next.kind == tkString:
				num, unit, ok := strings.Cut(strings.TrimSpace(next.unquoted()), " ")
				if !ok {
					// INTERVAL '3' DAY
					r.emit("interval", t)
					r.emit(mysqlString(next.unquoted()), next)
				} else {
					r.emit("interval", t)
					r.emit(mysqlString(num), next)
					r.emit(strings.TrimSpace(unit), next)
				}
				i++
			case low == "extract" && next.kind == tkOp && next.text == "(":
				part, from := at(i+2), at(i+3)
				if part.kind != tkIdent && part.kind != tkString || !from.is("from") {
					return nil, errAt(src, t.pos, "EXTRACT needs (part FROM value)")
				}
				r.emit("date_part", t)
				parens = append(parens, paren{fn: "date_part", out: len(r.out)})
				r.emit("(", next)
				r.emit(mysqlString(strings.ToLower(part.unquoted()))+",", part)
				i += 3
			case (low == "read_parquet" || low == "parquet_scan") && next.kind == tkOp && next.text == "(":
				arg, close := at(i+2), at(i+3)
				if arg.kind != tkString || close.kind != tkOp || close.text != ")" {
					return nil, errAt(src, t.pos, "%s takes one quoted path", low)
				}
				r.emit(backquote(arg.unquoted()), t)
				i += 3
			case (low == "substring" || low == "substr") && next.kind == tkOp && next.text == "(" && topLevelWord(toks, i+1, "from") < 0:
				r.emit("substring_fn", t)
			case (low == "group" || low == "order") && next.is("by") && at(i+2).is("all"):
				// GROUP BY ALL / ORDER BY ALL: a marker the planner expands.
				r.emit(t.text, t)
				r.emit("by", next)
				r.emit("`"+byAllMarker+"`", at(i+2))
				i += 2
			case low == "exclude" && prev.kind == tkOp && prev.text == "*" && next.kind == tkOp && next.text == "(":
				// SELECT * EXCLUDE (a, b): a marker call after the star.
				r.emit(", "+excludeMarker, t)
				excludeEnd = levelEnd(toks, i+2)
			case low == "replace" && (prev.kind == tkOp && prev.text == "*" || i-1 == excludeEnd) && next.kind == tkOp && next.text == "(":
				// SELECT * [EXCLUDE (...)] REPLACE (e AS c, ...): a marker
				// call after the star, its arguments e, c, ... (each AS of
				// the list made a comma).
				toks = append([]token(nil), toks...)
				end, d := levelEnd(toks, i+2), 0
				for j := i + 2; j < end; j++ {
					switch {
					case toks[j].kind == tkOp && toks[j].text == "(":
						d++
					case toks[j].kind == tkOp && toks[j].text == ")":
						d--
					case d == 0 && toks[j].is("as"):
						toks[j] = token{kind: tkOp, text: ",", pos: toks[j].pos}
					}
				}
				r.emit(", "+replaceMarker, t)
			case low == "filter" && prev.kind == tkOp && prev.text == ")" && next.kind == tkOp && next.text == "(" && !at(i+2).is("where"):
				// FILTER (c) is FILTER (WHERE c), as DuckDB allows.
				where := token{kind: tkIdent, text: "where", pos: next.pos}
				toks = append(toks[:i+2:i+2], append([]token{where}, toks[i+2:]...)...)
				i--
			case low == "is" && (next.is("unknown") || next.is("not") && at(i+2).is("unknown")):
				// IS [NOT] UNKNOWN is IS [NOT] NULL (of a boolean).
				if next.is("not") {
					r.emit("is not null", t)
					i += 2
				} else {
					r.emit("is null", t)
					i++
				}
			case low == "filter" && prev.kind == tkOp && prev.text == ")" && next.kind == tkOp && next.text == "(" && at(i+2).is("where"):
				// agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END).
				if err := r.aggFilter(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "as" && len(parens) > 0 && (parens[len(parens)-1].fn == "cast" || parens[len(parens)-1].fn == "try_cast" || parens[len(parens)-1].fn == "convert"):
				typ, n, err := readType(src, toks, i+1)
				if err != nil {
					return nil, err
				}
				r.emit("as "+castSpelling(typ), t)
				i = n - 1
			case low == "try_cast" && next.kind == tkOp && next.text == "(":
				// TRY_CAST(x AS t) is __carquet_try__(cast(x AS t)): the ')'
				// of its parenthesis closes both.
				r.emit(tryMarker+"(cast", t)
			case low == "within" && next.is("group") && prev.kind == tkOp && prev.text == ")":
				if err := r.withinGroup(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "order" && next.is("by") && len(parens) > 0 && parens[len(parens)-1].fn != "" && !parens[len(parens)-1].query:
				// agg(x ORDER BY k): the keys become trailing arguments
				// after aggOrderMarker (bindAggregate reads them back).
				k := levelEnd(toks, i+2)
				if k >= len(toks) || toks[k].text != ")" || k == i+2 {
					return nil, errAt(src, t.pos, "ORDER BY inside a function call needs its keys and a closing parenthesis")
				}
				items, err := listTokens(src, splitList(toks[i+2:k]), aggOrderMarker, true, t.pos)
				if err != nil {
					return nil, err
				}
				r.out = append(r.out, items...)
				i = k - 1
			case low == "grouping" && next.is("sets") && at(i+2).kind == tkOp && at(i+2).text == "(":
				// GROUPING SETS ((a, b), a, ()): groupingSetsMarker(
				// groupingSetMarker(a, b), a, groupingSetMarker()), which the
				// parser takes as calls (it has no empty tuple).
				k := closingParen(toks, i+2)
				if k < 0 {
					return nil, errAt(src, t.pos, "unterminated GROUPING SETS (...)")
				}
				spliced := []token{{kind: tkIdent, text: groupingSetsMarker, pos: t.pos}}
				depth := 0
				for _, tk := range toks[i+2 : k+1] {
					if tk.kind == tkOp && tk.text == "(" {
						if depth == 1 {
							spliced = append(spliced, token{kind: tkIdent, text: groupingSetMarker, pos: tk.pos})
						}
						depth++
					} else if tk.kind == tkOp && tk.text == ")" {
						depth--
					}
					spliced = append(spliced, tk)
				}
				toks = append(toks[:i:i], append(spliced, toks[k+1:]...)...)
				i--
			case low == "trim" && next.kind == tkOp && next.text == "(" && topLevelWord(toks, i+1, "from") > 0:
				// trim([BOTH|LEADING|TRAILING] [chars] FROM s) is trim, ltrim
				// or rtrim(s[, chars]).
				k, from := closingParen(toks, i+1), topLevelWord(toks, i+1, "from")
				spec := toks[i+2 : from]
				fn := "trim"
				if len(spec) > 0 && (spec[0].is("both") || spec[0].is("leading") || spec[0].is("trailing")) {
					fn = map[string]string{"both": "trim", "leading": "ltrim", "trailing": "rtrim"}[strings.ToLower(spec[0].text)]
					spec = spec[1:]
				}
				call := []token{{kind: tkIdent, text: fn, pos: t.pos}, toks[i+1]}
				call = append(call, toks[from+1:k]...)
				if len(spec) > 0 {
					call = append(append(call, token{kind: tkOp, text: ",", pos: toks[from].pos}), spec...)
				}
				call = append(call, toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "substring" || low == "substr") && next.kind == tkOp && next.text == "(" && topLevelWord(toks, i+1, "from") > 0:
				// substring(s FROM a [FOR b]) is substring(s, a[, b]).
				k, from := closingParen(toks, i+1), topLevelWord(toks, i+1, "from")
				call := append([]token{t, toks[i+1]}, toks[i+2:from]...)
				call = append(call, token{kind: tkOp, text: ",", pos: toks[from].pos})
				rest := toks[from+1 : k]
				for j, tk := range rest {
					if tk.is("for") {
						rest = append(append(append([]token(nil), rest[:j]...), token{kind: tkOp, text: ",", pos: tk.pos}), rest[j+1:]...)
						break
					}
				}
				call = append(append(call, rest...), toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "any" || low == "some" || low == "all") && next.kind == tkOp && next.text == "(" && prev.kind == tkOp && isComparisonOp(prev.text):
				// x op ANY|SOME|ALL (subquery) is x op quantMarker((subquery)),
				// bound by bindQuantified.
				k := closingParen(toks, i+1)
				if k < 0 {
					return nil, errAt(src, t.pos, "unterminated %s (...)", strings.ToUpper(low))
				}
				name := anyMarker
				if low == "all" {
					name = allMarker
				}
				call := []token{{kind: tkIdent, text: name, pos: t.pos}, {kind: tkOp, text: "(", pos: t.pos}}
				call = append(call, toks[i+1:k+1]...)
				call = append(call, token{kind: tkOp, text: ")", pos: toks[k].pos})
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case low == "position" && next.kind == tkOp && next.text == "(" && positionIn(toks, i+1) > 0:
				// position(x IN y) is strpos(y, x): the tokens are reordered
				// and rewritten from the function name on.
				k, in := closingParen(toks, i+1), positionIn(toks, i+1)
				name := token{kind: tkIdent, text: "strpos", pos: t.pos}
				comma := token{kind: tkOp, text: ",", pos: toks[in].pos}
				call := append([]token{name, toks[i+1]}, toks[in+1:k]...)
				call = append(append(append(call, comma), toks[i+2:in]...), toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "duckdb_settings" || low == "duckdb_variables") && afterFrom && next.kind == tkOp && next.text == "(" && at(i+2).kind == tkOp && at(i+2).text == ")":
				// The table functions of the settings (settings.go) and
				// the variables (variables.go).
				r.emit(backquote(low+"()"), t)
				i += 2
			case (low == "range" || low == "generate_series" || low == "unnest") && afterFrom && next.kind == tkOp && next.text == "(":
				// A table function: the parser knows none, so it becomes a
				// table name that relationOf plans (series.go), or a
				// derived table when it renames its column or unnests.
				k := closingParen(toks, i+1)
				if k < 0 {
					return nil, errAt(src, t.pos, "unterminated %s(...)", low)
				}
				_, seriesErr := seriesTableName(src, low, t.pos, toks[i+2:k])
				if derived, end, ok := tableFunctionQuery(toks, i, k, seriesErr != nil); ok {
					toks = append(toks[:i:i], append(derived, toks[end+1:]...)...)
					i--
					continue
				}
				name, err := seriesTableName(src, low, t.pos, toks[i+2:k])
				if err != nil {
					return nil, err
				}
				r.emit(backquote(name), t)
				i = k
			case low == "select":
				delete(havingAt, len(parens))
				delete(qualifies, len(parens))
				r.emit(t.text, t)
			case low == "distinct" && next.is("on") && at(i+2).kind == tkOp && at(i+2).text == "(":
				if distinctOn != nil {
					return nil, unsupportedErr(src, t.pos, "DISTINCT ON in a subquery of a DISTINCT ON query")
				}
				k := closingParen(toks, i+2)
				if k <= i+3 {
					return nil, errAt(src, t.pos, "expected DISTINCT ON (expressions)")
				}
				distinctOn = &distinctOnState{depth: len(parens), keys: toks[i+3 : k], pos: t.pos}
				i = k
			case low == "having":
				havingAt[len(parens)] = len(r.out)
				r.emit(t.text, t)
			case low == "qualify":
				if qualifyOpen >= 0 {
					return nil, errAt(src, t.pos, "QUALIFY appears twice")
				}
				if h, ok := havingAt[len(parens)]; ok {
					// HAVING h QUALIFY q: HAVING (h) AND qualifyMarker(q).
					r.out = append(r.out[:h+1], append([]otok{{text: "(", orig: t.pos}}, r.out[h+1:]...)...)
					r.emit(") and "+qualifyMarker+"(", t)
				} else {
					r.emit("having "+qualifyMarker+"(", t)
				}
				qualifyOpen = len(parens)
				qualifies[len(parens)] = true
			case lambdaFuncs[low] && next.kind == tkOp && next.text == "(" && rewriteLambdas(&toks, i+1):
				i-- // the call again, its lambdas now marker calls
			case low == "ilike":
				r.emit("regexp", t)
			case (low == "glob" || low == "similar" && next.is("to")) && endsOperand(prev):
				// x GLOB p, x SIMILAR TO p: x LIKE marker(p) (bindPatternMatch).
				op := i + 1
				marker := globMarker
				if low == "similar" {
					op, marker = i+2, similarMarker
				}
				end := operandEnd(toks, op)
				if end <= op {
					return nil, errAt(src, t.pos, "%s needs a pattern", strings.ToUpper(low))
				}
				call := []token{{kind: tkIdent, text: "like", pos: t.pos}, {kind: tkIdent, text: marker, pos: t.pos}, {kind: tkOp, text: "(", pos: t.pos}}
				call = append(append(call, toks[op:end]...), token{kind: tkOp, text: ")", pos: toks[end-1].pos})
				toks = append(toks[:i:i], append(call, toks[end:]...)...)
				i--
			case low == "over" && next.kind == tkOp && next.text == "(":
				if err := r.window(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "full" && (next.is("join") || next.is("outer") && at(i+2).is("join")):
				// FULL [OUTER] JOIN ... ON becomes the parser's STRAIGHT_JOIN
				// (which takes ON but not USING), read back as a full outer
				// join by tableExpr; STRAIGHT_JOIN itself is refused below.
				if next.is("outer") {
					i++
				}
				i++
				if u := fullJoinUsing(toks, i+1); u > 0 {
					// USING (cols) becomes ON usingMarker(cols), which the
					// parser takes after STRAIGHT_JOIN.
					marker := token{kind: tkIdent, text: usingMarker, pos: toks[u].pos}
					on := token{kind: tkIdent, text: "on", pos: toks[u].pos}
					toks = append(toks[:u:u], append([]token{on, marker}, toks[u+1:]...)...)
				}
				r.emit("straight_join", t)
			case low == "straight_join":
				return nil, unsupportedErr(src, t.pos, "STRAIGHT_JOIN")
			case low == "nulls" && (next.is("first") || next.is("last")):
				// x [ASC|DESC] NULLS FIRST: nullsFirstMarker(x) [ASC|DESC]
				// (NULLS LAST: nullsLastMarker), for the planner tells
				// them from the default (default_null_order).
				start, end := orderItemStart(r.out), len(r.out)
				if end > 0 && (strings.EqualFold(r.out[end-1].text, "asc") || strings.EqualFold(r.out[end-1].text, "desc")) {
					end--
				}
				if start < 0 || start >= end {
					return nil, errAt(src, t.pos, "NULLS %s must follow an ORDER BY item", strings.ToUpper(next.text))
				}
				marker := nullsFirstMarker
				if next.is("last") {
					marker = nullsLastMarker
				}
				r.wrapOrderItem(start, end, marker)
				i++
			case low == "asc" && orderItemStart(r.out) >= 0 && orderItemStart(r.out) < len(r.out):
				// x ASC: ascMarker(x) ASC, for the planner tells it from
				// the default direction (default_order).
				r.wrapOrderItem(orderItemStart(r.out), len(r.out), ascMarker)
				r.emit(t.text, t)
			case low == "is" && next.is("not") && at(i+2).is("distinct") && at(i+3).is("from"):
				// a IS NOT DISTINCT FROM b is MySQL's null-safe a <=> b.
				r.emit("<=>", t)
				i += 3
			case low == "is" && next.is("distinct") && at(i+2).is("from"):
				// a IS DISTINCT FROM b is NOT (a <=> b): NOT goes before the
				// left operand, which must stand alone (a name, literal or
				// parenthesized expression after a keyword, comma or paren).
				start := operandStart(r.out)
				okBefore := start == 0
				if start > 0 {
					switch strings.ToLower(r.out[start-1].text) {
					case "(", ",", "select", "where", "and", "or", "on", "when", "then", "else", "having", "not":
						okBefore = true
					}
				}
				if start < 0 || !okBefore {
					e := errAt(src, t.pos, "IS DISTINCT FROM needs a parenthesized left operand here")
					e.Err = ErrUnsupported
					return nil, e
				}
				r.out = append(r.out[:start], append([]otok{{text: "not", orig: r.out[start].orig}}, r.out[start:]...)...)
				r.emit("<=>", t)
				i += 2
			default:
				r.emit(t.text, t)
			}
		}
	}
	if qualifyOpen >= 0 {
		r.emit(")", token{pos: len(src)})
	}
	return r.source(), nil
}

// typedLiteral writes TYPE 'text' (the type's first word at t) as
// CAST('text' AS TYPE).
func (r *rewriter) typedLiteral(typ Type, t, lit token) {
	r.emit("cast", t)
	r.emit("(", t)
	r.emit(mysqlString(lit.unquoted()), lit)
	r.emit("as "+castSpelling(typ), lit)
	r.emit(")", lit)
}

// operatorWordCall reports out[w], a word that is an operator and a
// function both (xor, mod), as a call: no operand ends before it (a xor
// (b) is the operator, SELECT xor(a, b) the call).
func operatorWordCall(out []otok, w int) bool {
	switch strings.ToLower(out[w].text) {
	case "xor", "mod":
	default:
		return false
	}
	if w == 0 {
		return true
	}
	prev := out[w-1].text
	return prev == "(" || prev == "," || isOperatorWord(prev) && !strings.EqualFold(prev, "not")
}

// operandStart finds where the operand before a :: begins in out: a
// parenthesized group with an optional function name before it, or one
// (possibly dotted) name or literal.
func operandStart(out []otok) int {
	i := len(out) - 1
	if i < 0 {
		return -1
	}
	if out[i].text == ")" {
		depth := 0
		for ; i >= 0; i-- {
			switch out[i].text {
			case ")":
				depth++
			case "(":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if i > 0 && isWord(out[i-1].text) && (!isOperatorWord(out[i-1].text) || operatorWordCall(out, i-1)) {
			i-- // a function call, not SELECT (x) or AND (x)
		}
		return i
	}
	for i > 1 && out[i-1].text == "." {
		i -= 2
	}
	if i > 0 && (out[i-1].text == "-") && (i == 1 || unaryBefore(out[i-2].text)) {
		i--
	}
	return i
}

// unaryBefore reports whether a minus after token s is a sign (s ends no
// operand: an operator or an open parenthesis), not a subtraction (after
// a name, a number, a string or a closing parenthesis).
func unaryBefore(s string) bool {
	if s == "" || isWord(s) || s == ")" {
		return false
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '.' && len(s) > 1, c == '\'', c == '"', c == ':':
		return false // a number, a string, a quoted name, a parameter
	}
	return true
}

// aliasFollows reports whether the token after a FROM item names its
// alias (AS, or a word that is not a clause keyword).
func aliasFollows(t token) bool {
	if t.kind == tkQuoted || t.kind == tkDQuoted {
		return true
	}
	if t.kind != tkIdent {
		return false
	}
	switch strings.ToLower(t.text) {
	case "where", "group", "order", "limit", "offset", "join", "inner", "left", "right", "cross", "natural",
		"full", "union", "except", "intersect", "having", "window", "qualify", "on", "using", "straight_join":
		return false
	}
	return true
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	return isIdentStart(s[0]) || s[0] == '`'
}

// readType reads a type name at toks[i:] (words, then optional
// parameters in parentheses) and returns it and the index after it.
func readType(src string, toks []token, i int) (Type, int, error) {
	if i >= len(toks) || toks[i].kind != tkIdent {
		pos := len(src)
		if i < len(toks) {
			pos = toks[i].pos
		}
		return Type{}, i, errAt(src, pos, "expected a type name")
	}
	start := toks[i]
	name := toks[i].text
	j := i + 1
	// Multi-word names: extend while the longer name is a type.
	for k := 1; k <= 3 && i+k < len(toks) && toks[i+k].kind == tkIdent; k++ {
		cand := name
		for m := 1; m <= k; m++ {
			cand += " " + toks[i+m].text
		}
		if _, err := parseTypeName(cand, nil); err == nil {
			name, j = cand, i+k+1
		}
	}
	var params []int
	if j < len(toks) && toks[j].kind == tkOp && toks[j].text == "(" {
		j++
		for j < len(toks) && !(toks[j].kind == tkOp && toks[j].text == ")") {
			if toks[j].kind == tkNumber {
				n, _ := strconv.Atoi(toks[j].text)
				params = append(params, n)
			} else if !(toks[j].kind == tkOp && toks[j].text == ",") {
				return Type{}, j, errAt(src, toks[j].pos, "unexpected %q in type parameters", toks[j].text)
			}
			j++
		}
		j++
	}
	t, err := parseTypeName(name, params)
	if err != nil {
		e := errAt(src, start.pos, "%v", err)
		if ue, ok := err.(*Error); ok {
			e.Err = ue.Err
		}
		return Type{}, j, e
	}
	// T[] (and T[][], ...): a list type.
	for depth := 1; j+1 < len(toks) && toks[j].kind == tkOp && toks[j].text == "[" && toks[j+1].kind == tkOp && toks[j+1].text == "]"; depth++ {
		if depth > maxCastListDepth || t.Kind == KDecimal || t.Kind == KNested && t.Elem == nil {
			return Type{}, j, unsupportedErr(src, start.pos, "casts to lists of "+t.SQLName())
		}
		elem := t
		t = Type{Kind: KNested, Elem: &elem}
		j += 2
	}
	return t, j, nil
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

const (
	byAllMarker   = "__carquet_by_all__"
	excludeMarker = "__carquet_exclude__"
	replaceMarker = "__carquet_replace__"
	globMarker    = "__carquet_glob__"
	similarMarker = "__carquet_similar__"
)

// aggFilter rewrites the aggregate call that ends r.out, followed by
// FILTER (WHERE cond) at toks[*i], into agg(CASE WHEN cond THEN arg END);
// count(*) becomes count(CASE WHEN cond THEN 1 END).
func (r *rewriter) aggFilter(src string, toks []token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" {
		return errAt(src, t.pos, "FILTER must follow an aggregate call")
	}
	// The condition: tokens after WHERE up to the matching ')'.
	j := *i + 3
	k := closingParen(toks, *i+1)
	if k < 0 {
		return errAt(src, t.pos, "unterminated FILTER (WHERE ...)")
	}
	sub, err := rewriteTokens(src, toks[j:k])
	if err != nil {
		return err
	}
	call := r.out[start:]
	args := call[2 : len(call)-1]
	if len(args) == 0 {
		return errAt(src, t.pos, "FILTER must follow an aggregate call with an argument")
	}
	distinct := []otok{}
	if strings.EqualFold(args[0].text, "distinct") {
		distinct, args = args[:1], args[1:]
	}
	if len(args) == 1 && args[0].text == "*" {
		args = []otok{{text: "1", orig: args[0].orig, origLen: 1}}
	}
	// Each value argument becomes NULL on the rows the condition drops
	// (rows aggregates skip); constants (a separator, a fraction) and the
	// ORDER BY keys after aggOrderMarker stay. list and array_agg keep
	// NULLs: their values go in one-element lists, flattened after.
	fn := strings.ToLower(call[0].text)
	keepsNulls := (fn == "list" || fn == "array_agg") && len(distinct) == 0
	marker := mysqlString(aggOrderMarker)
	rebuilt := append([]otok(nil), call[:2]...)
	rebuilt = append(rebuilt, distinct...)
	ordered := false
	for n, arg := range splitOtoks(args) {
		if n > 0 {
			rebuilt = append(rebuilt, otok{text: ",", orig: t.pos})
		}
		ordered = ordered || len(arg) > 0 && arg[0].text == marker
		if ordered || n > 0 && len(arg) == 1 && isLiteralText(arg[0].text) {
			rebuilt = append(rebuilt, arg...)
			continue
		}
		rebuilt = append(rebuilt, otok{text: "case when", orig: t.pos, origLen: len(t.text)})
		rebuilt = append(rebuilt, sub.segs...)
		rebuilt = append(rebuilt, otok{text: "then", orig: t.pos})
		if keepsNulls {
			rebuilt = append(rebuilt, otok{text: "list_value(", orig: t.pos})
			rebuilt = append(rebuilt, arg...)
			rebuilt = append(rebuilt, otok{text: ")", orig: t.pos})
		} else {
			rebuilt = append(rebuilt, arg...)
		}
		rebuilt = append(rebuilt, otok{text: "end", orig: t.pos})
	}
	rebuilt = append(rebuilt, call[len(call)-1])
	if keepsNulls {
		rebuilt = append(append([]otok{{text: "flatten(", orig: t.pos}}, rebuilt...), otok{text: ")", orig: t.pos})
	}
	r.out = append(r.out[:start], rebuilt...)
	*i = k
	return nil
}

// splitOtoks splits a call's arguments at the commas outside parentheses.
func splitOtoks(args []otok) [][]otok {
	var out [][]otok
	depth, from := 0, 0
	for n, a := range args {
		switch {
		case strings.HasSuffix(a.text, "("):
			depth++
		case a.text == ")":
			depth--
		case a.text == "," && depth == 0:
			out = append(out, args[from:n])
			from = n + 1
		}
	}
	return append(out, args[from:])
}

// isLiteralText reports whether a rewritten token is a number or a string.
func isLiteralText(s string) bool {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return true
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

const windowMarker = "__carquet_window__"

// distinctSuffix marks, on the name in a windowMarker call, an
// aggregate of DISTINCT values.
const distinctSuffix = "|distinct"

// ignoreNullsSuffix marks, on the name in a windowMarker call, IGNORE
// NULLS.
const ignoreNullsSuffix = "|ignorenulls"

// qualifyMarker wraps the QUALIFY condition, carried in the HAVING clause
// (the parser knows no QUALIFY) and taken out of it by the planner.
const qualifyMarker = "__carquet_qualify__"

// tryMarker wraps the CAST that TRY_CAST is rewritten to.
const tryMarker = "__carquet_try__"

// window rewrites fn(args) OVER (PARTITION BY p ORDER BY o [DESC]) at
// toks[*i] into a call the parser accepts:
// __carquet_window__('fn', args, '|p', p..., '|o', o, '|asc'|'|desc', ...)
// (with 'nf' after asc or desc for NULLS FIRST).
func (r *rewriter) window(src string, toks []token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" || !isWord(r.out[start].text) {
		return errAt(src, t.pos, "OVER must follow a function call")
	}
	call := r.out[start:]
	name := strings.ToLower(call[0].text)
	args := call[2 : len(call)-1]
	if len(args) > 0 && strings.EqualFold(args[0].text, "distinct") {
		// agg(DISTINCT x) OVER (...): the name carries it (bindWindow).
		name, args = name+distinctSuffix, args[1:]
	}
	if n := len(args); n >= 2 && strings.EqualFold(args[n-1].text, "nulls") {
		// f(x IGNORE NULLS) OVER (...) likewise; RESPECT NULLS is the
		// default.
		switch {
		case strings.EqualFold(args[n-2].text, "ignore"):
			name, args = name+ignoreNullsSuffix, args[:n-2]
		case strings.EqualFold(args[n-2].text, "respect"):
			args = args[:n-2]
		}
	}
	// The window specification, up to the matching ')'.
	j := *i + 2
	k := closingParen(toks, *i+1)
	if k < 0 {
		return errAt(src, t.pos, "unterminated OVER (...)")
	}
	spec := toks[j:k]
	var part, order []token
	x := 0
	if x+1 < len(spec) && spec[x].is("partition") && spec[x+1].is("by") {
		x += 2
		from := x
		for x < len(spec) && !(spec[x].is("order") && x+1 < len(spec) && spec[x+1].is("by")) && !spec[x].is("rows") && !spec[x].is("range") && !spec[x].is("groups") {
			x++
		}
		part = spec[from:x]
	}
	if x+1 < len(spec) && spec[x].is("order") && spec[x+1].is("by") {
		x += 2
		from := x
		for x < len(spec) && !spec[x].is("rows") && !spec[x].is("range") && !spec[x].is("groups") {
			x++
		}
		order = spec[from:x]
	}
	var frame string
	var offsets [][]token
	if x < len(spec) {
		var err error
		if frame, offsets, err = windowFrame(src, spec[x:]); err != nil {
			return err
		}
	}
	out := []otok{{text: windowMarker, orig: call[0].orig, origLen: call[0].origLen}, {text: "(", orig: t.pos}, {text: mysqlString(name), orig: call[0].orig}}
	if len(args) > 0 {
		out = append(out, otok{text: ",", orig: t.pos})
		out = append(out, args...)
	}
	if len(part) > 0 {
		items, err := listTokens(src, splitList(part), "|p", false, t.pos)
		if err != nil {
			return err
		}
		out = append(out, items...)
	}
	if len(order) > 0 {
		items, err := listTokens(src, splitList(order), "|o", true, t.pos)
		if err != nil {
			return err
		}
		out = append(out, items...)
	}
	if frame != "" {
		out = append(out, otok{text: ",", orig: t.pos}, otok{text: mysqlString(frame), orig: t.pos})
	}
	for _, off := range offsets {
		// A RANGE offset follows the frame, after '|fo'.
		sub, err := rewriteTokens(src, off)
		if err != nil {
			return err
		}
		out = append(out, otok{text: ",", orig: t.pos}, otok{text: mysqlString("|fo"), orig: t.pos}, otok{text: ",", orig: t.pos})
		out = append(out, sub.segs...)
	}
	out = append(out, otok{text: ")", orig: toks[k].pos, origLen: 1})
	r.out = append(r.out[:start], out...)
	*i = k
	return nil
}

// tableFunctionQuery rewrites the table function call toks[i..k] (its
// name, then its parenthesized arguments), with the alias and column list
// that may follow, into a derived table: FROM unnest(l) [AS] t(c) reads
// FROM (SELECT unnest(l) AS c) AS t (the names default to unnest, as in
// DuckDB), and FROM range(n) [AS] t(c) reads FROM (SELECT range AS c FROM
// range(n)) AS t; with unnestList, range and generate_series of other
// than integer constants (timestamps, expressions) read FROM (SELECT
// unnest(range(...)) AS c) AS t, through the list functions. It returns
// the new tokens and the index of the last token they replace; false
// leaves a range or generate_series of constants without a column list
// alone.
func tableFunctionQuery(toks []token, i, k int, unnestList bool) ([]token, int, bool) {
	fn := toks[i]
	word := func(text string) token { return token{kind: tkIdent, text: text, pos: fn.pos} }
	op := func(text string) token { return token{kind: tkOp, text: text, pos: fn.pos} }
	alias, col := word(strings.ToLower(fn.text)), word(strings.ToLower(fn.text))
	end := k // the last token the rewrite replaces
	j := k + 1
	if j < len(toks) && toks[j].is("as") {
		j++
	}
	named := func(t token) bool {
		return t.kind == tkQuoted || t.kind == tkDQuoted || t.kind == tkIdent && aliasFollows(t) && !isClauseWord(t.text)
	}
	hasList := false
	if j < len(toks) && named(toks[j]) {
		alias, end = toks[j], j
		if j+3 < len(toks) && toks[j+1].kind == tkOp && toks[j+1].text == "(" && named(toks[j+2]) && toks[j+3].kind == tkOp && toks[j+3].text == ")" {
			col, end, hasList = toks[j+2], j+3, true
		}
	}
	if !fn.is("unnest") && !hasList && !unnestList {
		return nil, 0, false
	}
	out := []token{op("("), word("select")}
	switch {
	case fn.is("unnest"):
		out = append(out, toks[i:k+1]...)
		out = append(out, word("as"), col)
	case unnestList:
		out = append(out, word("unnest"), op("("))
		out = append(out, toks[i:k+1]...)
		out = append(out, op(")"), word("as"), col)
	default:
		out = append(out, word(strings.ToLower(fn.text)), word("as"), col, word("from"))
		out = append(out, toks[i:k+1]...)
	}
	return append(out, op(")"), word("as"), alias), end, true
}

// derivedColumnList handles a derived table with a column list, (q) [AS]
// t (a, b): toks[i] is the ')' just emitted, the '(' at r.out[openAt].
// The query becomes (SELECT * FROM (q) AS renaming alias) AS t (see
// colsMarker); it returns the index of the list's ')'.
func (r *rewriter) derivedColumnList(toks []token, i, openAt int) (int, bool) {
	j := i + 1
	if j < len(toks) && toks[j].is("as") {
		j++
	}
	if j+1 >= len(toks) || toks[j].kind != tkIdent && toks[j].kind != tkQuoted && toks[j].kind != tkDQuoted || isClauseWord(toks[j].text) || toks[j+1].kind != tkOp || toks[j+1].text != "(" {
		return 0, false
	}
	k := closingParen(toks, j+1)
	if k < 0 {
		return 0, false
	}
	var cols []string
	for x := j + 2; x < k; x += 2 {
		t := toks[x]
		if t.kind != tkIdent && t.kind != tkQuoted && t.kind != tkDQuoted || x+1 < k && !(toks[x+1].kind == tkOp && toks[x+1].text == ",") {
			return 0, false
		}
		cols = append(cols, tableToken(t))
	}
	if len(cols) == 0 {
		return 0, false
	}
	open := r.out[openAt]
	head := []otok{{text: "(", orig: open.orig}, {text: "select", orig: open.orig}, {text: "*", orig: open.orig}, {text: "from", orig: open.orig}}
	r.out = append(r.out[:openAt], append(head, r.out[openAt:]...)...)
	alias := colsMarker + "\x1f" + strings.Join(cols, "\x1f")
	r.emit("as "+backquote(alias)+" )", toks[i])
	r.emit("as "+backquote(tableToken(toks[j])), toks[j])
	return k, true
}

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

// levelEnd returns the index of the ')' that closes the level toks[from]
// is at, or of a ';' at that level, or len(toks).
// endsOperand reports whether t can end the left operand of a binary
// operator written as a word (or be the NOT of NOT GLOB): a name that is
// not a keyword, a literal, a parameter, a closing parenthesis.
func endsOperand(t token) bool {
	switch t.kind {
	case tkIdent:
		return t.is("not") || !isOperatorWord(t.text)
	case tkString, tkNumber, tkParam, tkQuoted, tkDQuoted:
		return true
	case tkOp:
		return t.text == ")" || t.text == "]"
	}
	return false
}

// operandEnd returns where the operand that starts at toks[i] ends: a
// parenthesized expression, a function call, a (qualified) name, a
// literal or a parameter, with a sign before it.
func operandEnd(toks []token, i int) int {
	for i < len(toks) && toks[i].kind == tkOp && (toks[i].text == "-" || toks[i].text == "+") {
		i++
	}
	if i >= len(toks) {
		return i
	}
	switch t := toks[i]; {
	case t.kind == tkOp && t.text == "(":
		return min(levelEnd(toks, i+1)+1, len(toks))
	case t.kind == tkOp:
		return i
	}
	i++
	for i < len(toks) {
		switch {
		case toks[i].kind == tkOp && toks[i].text == "(":
			i = levelEnd(toks, i+1) + 1
		case toks[i].kind == tkOp && toks[i].text == "." && i+1 < len(toks) && toks[i+1].kind != tkOp:
			i += 2
		default:
			return min(i, len(toks))
		}
	}
	return min(i, len(toks))
}

func levelEnd(toks []token, from int) int {
	k, d := from, 0
	for ; k < len(toks); k++ {
		switch {
		case toks[k].kind == tkOp && toks[k].text == "(":
			d++
		case toks[k].kind == tkOp && toks[k].text == ")":
			if d == 0 {
				return k
			}
			d--
		case d == 0 && toks[k].kind == tkOp && toks[k].text == ";":
			return k
		}
	}
	return k
}

// normalizeLimits writes the SQL-standard and PostgreSQL forms of LIMIT
// as the parser's LIMIT n OFFSET m: OFFSET m [ROW|ROWS] without LIMIT,
// FETCH FIRST|NEXT [n] ROW|ROWS ONLY, LIMIT ALL, in any order.
func normalizeLimits(toks []token) []token {
	var out []token
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			depth--
		}
		if !(t.is("offset") || t.is("fetch") || t.is("limit")) {
			out = append(out, t)
			continue
		}
		// The clause runs to the ')' closing this level, or the end.
		end := levelEnd(toks, i)
		limit, offset, ok := limitClause(toks[i:end])
		if !ok {
			out = append(out, t)
			continue
		}
		pos := t.pos
		if limit == nil {
			limit = []token{{kind: tkNumber, text: "9223372036854775807", pos: pos}}
		}
		out = append(out, token{kind: tkIdent, text: "limit", pos: pos})
		out = append(out, limit...)
		if offset != nil {
			out = append(out, token{kind: tkIdent, text: "offset", pos: pos})
			out = append(out, offset...)
		}
		i = end - 1
	}
	return out
}

// limitClause reads LIMIT / OFFSET / FETCH clauses (ts is all of them);
// ok is false for anything else.
func limitClause(ts []token) (limit, offset []token, ok bool) {
	stop := func(t token) bool {
		return t.is("offset") || t.is("fetch") || t.is("limit") || t.is("row") || t.is("rows") || t.is("only")
	}
	value := func(j int) ([]token, int) {
		k, d := j, 0
		for ; k < len(ts); k++ {
			if ts[k].kind == tkOp && ts[k].text == "(" {
				d++
			} else if ts[k].kind == tkOp && ts[k].text == ")" {
				d--
			} else if d == 0 && stop(ts[k]) {
				break
			}
		}
		for _, t := range ts[j:k] {
			if t.is("from") || t.is("where") || t.is("select") || t.is("group") || t.is("having") || t.is("order") || t.is("union") || t.is("join") || t.is("on") || t.is("as") {
				return nil, k // not a LIMIT clause (a column named offset, ...)
			}
		}
		return ts[j:k], k
	}
	for j := 0; j < len(ts); {
		switch {
		case ts[j].is("limit") && j+1 < len(ts) && ts[j+1].is("all"):
			j += 2
		case ts[j].is("limit"):
			limit, j = value(j + 1)
			if len(limit) == 0 {
				return nil, nil, false
			}
		case ts[j].is("offset"):
			offset, j = value(j + 1)
			if len(offset) == 0 {
				return nil, nil, false
			}
			if j < len(ts) && (ts[j].is("row") || ts[j].is("rows")) {
				j++
			}
		case ts[j].is("fetch") && j+1 < len(ts) && (ts[j+1].is("first") || ts[j+1].is("next")):
			var n []token
			n, j = value(j + 2)
			if len(n) == 0 {
				n = []token{{kind: tkNumber, text: "1", pos: ts[j-1].pos}}
			}
			if j+1 >= len(ts) || !(ts[j].is("row") || ts[j].is("rows")) || !ts[j+1].is("only") {
				return nil, nil, false
			}
			limit, j = n, j+2
		default:
			return nil, nil, false
		}
	}
	return limit, offset, true
}

// intervalMarker is what the rewrite makes of an INTERVAL literal with
// several parts.
const intervalMarker = "__carquet_interval__"

// setOpMarker names a parenthesized query with INTERSECT or EXCEPT.
const setOpMarker = "__carquet_setop__"

// extractSetOps takes out the parenthesized queries that hold INTERSECT or
// EXCEPT at their top level (the parser knows neither) and puts SELECT *
// FROM setOpMarker:N in their place; relationOf prepares and plans them
// as statements of their own.
func extractSetOps(toks []token) ([]token, [][]token) {
	var defs [][]token
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		out = append(out, t)
		if t.kind != tkOp || t.text != "(" || i+1 >= len(toks) || !(toks[i+1].is("select") || toks[i+1].is("with") || toks[i+1].kind == tkOp && toks[i+1].text == "(") {
			continue
		}
		k := closingParen(toks, i)
		if k < 0 || topLevelWord(toks, i, "intersect") < 0 && topLevelWord(toks, i, "except") < 0 {
			continue
		}
		pos := toks[i+1].pos
		whole := i == 0 && k == len(toks)-1 // the statement is the parenthesized query
		if whole {
			out = out[:0]
		}
		out = append(out, token{kind: tkIdent, text: "select", pos: pos}, token{kind: tkOp, text: "*", pos: pos}, token{kind: tkIdent, text: "from", pos: pos},
			token{kind: tkQuoted, text: backquote(setOpMarker + ":" + strconv.Itoa(len(defs))), pos: pos})
		defs = append(defs, toks[i+1:k])
		i = k - 1
		if whole {
			i = k
		}
	}
	if defs == nil {
		return toks, nil
	}
	return out, defs
}

// anyMarker and allMarker wrap the subquery of x op ANY|SOME|ALL (q).
const (
	anyMarker = "__carquet_any__"
	allMarker = "__carquet_all__"
)

func isComparisonOp(s string) bool {
	switch s {
	case "=", "<>", "!=", "<", "<=", ">", ">=":
		return true
	}
	return false
}

// isOperatorWord reports the keywords after which [ starts a list literal
// (not an index).
func isOperatorWord(w string) bool {
	switch strings.ToLower(w) {
	case "select", "and", "or", "not", "in", "is", "then", "else", "when", "case", "like", "ilike", "between", "by", "on", "where", "having", "distinct", "as", "from", "values", "all", "any", "some", "exists", "array", "interval", "div", "mod", "xor", "regexp", "set", "limit", "offset", "qualify":
		return true
	}
	return false
}

// valuesToSelect writes a VALUES list used as a query — at the start, in
// parentheses or after a set operator — as SELECTs joined by UNION ALL,
// with DuckDB's column names col0, col1, ... A VALUES list that is a FROM
// item without parentheses (FROM VALUES (1), (2) t(a), after JOIN or a
// comma of the FROM list too) is put in parentheses, a derived table the
// alias after it names.
func valuesToSelect(src string, toks []token) ([]token, error) {
	var out []token
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		query := i == 0 || toks[i-1].kind == tkOp && toks[i-1].text == "(" || toks[i-1].is("union") || toks[i-1].is("all")
		item := t.is("values") && !query && valuesFromItem(toks, i-1)
		if !t.is("values") || !query && !item || i+1 >= len(toks) || toks[i+1].kind != tkOp || toks[i+1].text != "(" {
			out = append(out, t)
			continue
		}
		if item {
			out = append(out, token{kind: tkOp, text: "(", pos: t.pos})
		}
		j := i + 1
		first := true
		for {
			k := closingParen(toks, j)
			if k < 0 {
				return nil, errAt(src, toks[j].pos, "unterminated row of VALUES")
			}
			items := splitList(toks[j+1 : k])
			if !first {
				out = append(out, token{kind: tkIdent, text: "union", pos: toks[j].pos}, token{kind: tkIdent, text: "all", pos: toks[j].pos})
			}
			out = append(out, token{kind: tkIdent, text: "select", pos: toks[j].pos})
			for c, it := range items {
				if len(it) == 0 {
					return nil, errAt(src, toks[j].pos, "empty value in a row of VALUES")
				}
				if c > 0 {
					out = append(out, token{kind: tkOp, text: ",", pos: it[0].pos})
				}
				out = append(out, it...)
				if first {
					out = append(out, token{kind: tkIdent, text: "as", pos: it[0].pos}, token{kind: tkIdent, text: "col" + strconv.Itoa(c), pos: it[0].pos})
				}
			}
			first = false
			j = k + 1
			if j+1 < len(toks) && toks[j].kind == tkOp && toks[j].text == "," && toks[j+1].kind == tkOp && toks[j+1].text == "(" {
				j++
				continue
			}
			break
		}
		if item {
			// DuckDB's grammar has no VALUES FROM item without an alias.
			if j >= len(toks) || !toks[j].is("as") && !aliasToken(toks[j]) {
				return nil, errAt(src, t.pos, "syntax error: VALUES in FROM needs an alias: FROM VALUES (1, 'a') t(a, b)")
			}
			out = append(out, token{kind: tkOp, text: ")", pos: toks[j-1].pos})
		}
		i = j - 1
	}
	return out, nil
}

// notAlias are the words after a FROM item that cannot be its alias.
var notAlias = map[string]bool{"join": true, "inner": true, "left": true, "right": true, "full": true, "cross": true, "natural": true,
	"on": true, "using": true, "asof": true, "positional": true, "anti": true, "semi": true, "lateral": true, "returning": true}

// aliasToken reports whether t can be the alias of a FROM item.
func aliasToken(t token) bool {
	switch t.kind {
	case tkQuoted, tkDQuoted:
		return true
	case tkIdent:
		w := strings.ToLower(t.text)
		return !clauseAfterFrom[w] && !notAlias[w]
	}
	return false
}

// valuesFromItem reports whether toks[p] is what comes before a FROM item:
// FROM, JOIN, or a comma of a FROM list (the nearest clause word before it,
// outside parentheses, is FROM).
func valuesFromItem(toks []token, p int) bool {
	switch t := toks[p]; {
	case t.is("from"), t.is("join"):
		return true
	case t.kind != tkOp || t.text != ",":
		return false
	}
	depth := 0
	for k := p - 1; k >= 0; k-- {
		t := toks[k]
		switch {
		case t.kind == tkOp && t.text == ")":
			depth++
		case t.kind == tkOp && t.text == "(":
			if depth == 0 {
				return false
			}
			depth--
		case depth > 0:
		case t.is("from"):
			return true
		case t.kind == tkIdent && (clauseAfterFrom[strings.ToLower(t.text)] || t.is("set") || t.is("into")):
			return false
		}
	}
	return false
}

// inlineWindows takes out the WINDOW clauses (WINDOW w AS (spec), ...)
// and writes each OVER w as OVER (spec), and OVER (w more) as OVER (spec
// more). The names are the statement's: a name defined twice must be
// defined the same way.
func inlineWindows(src string, toks []token) ([]token, error) {
	defs := map[string][]token{}
	var out []token
	for i := 0; i < len(toks); i++ {
		if !toks[i].is("window") || i+3 >= len(toks) || toks[i+1].kind != tkIdent || !toks[i+2].is("as") {
			out = append(out, toks[i])
			continue
		}
		j := i + 1
		for {
			if j+2 >= len(toks) || toks[j].kind != tkIdent || !toks[j+1].is("as") || toks[j+2].kind != tkOp || toks[j+2].text != "(" {
				return nil, errAt(src, toks[j-1].pos, "WINDOW takes name AS (PARTITION BY ... ORDER BY ...)")
			}
			k := closingParen(toks, j+2)
			if k < 0 {
				return nil, errAt(src, toks[j+2].pos, "unterminated WINDOW definition")
			}
			name := strings.ToLower(toks[j].text)
			def := toks[j+3 : k]
			if old, ok := defs[name]; ok && !sameTokens(old, def) {
				return nil, errAt(src, toks[j].pos, "window %q is defined twice", toks[j].text)
			}
			defs[name] = def
			j = k + 1
			if j+1 < len(toks) && toks[j].kind == tkOp && toks[j].text == "," && toks[j+1].kind == tkIdent && j+2 < len(toks) && toks[j+2].is("as") {
				j++
				continue
			}
			break
		}
		i = j - 1
	}
	if len(defs) == 0 {
		return toks, nil
	}
	var res []token
	for i := 0; i < len(out); i++ {
		t := out[i]
		res = append(res, t)
		if !t.is("over") || i+1 >= len(out) {
			continue
		}
		switch next := out[i+1]; {
		case next.kind == tkIdent:
			def, ok := defs[strings.ToLower(next.text)]
			if !ok {
				return nil, errAt(src, next.pos, "window %q is not defined", next.text)
			}
			res = append(res, token{kind: tkOp, text: "(", pos: next.pos})
			res = append(res, def...)
			res = append(res, token{kind: tkOp, text: ")", pos: next.pos})
			i++
		case next.kind == tkOp && next.text == "(" && i+2 < len(out) && out[i+2].kind == tkIdent:
			// OVER (w ORDER BY ...): the named window, then the rest.
			if def, ok := defs[strings.ToLower(out[i+2].text)]; ok {
				res = append(res, next)
				res = append(res, def...)
				i += 2
			}
		}
	}
	return res, nil
}

func sameTokens(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].kind != b[i].kind || !strings.EqualFold(a[i].text, b[i].text) {
			return false
		}
	}
	return true
}

// splitList splits a list of tokens (call arguments, PARTITION BY and
// ORDER BY items) at the commas outside parentheses, brackets and braces;
// the last item is there even when empty.
func splitList(ts []token) [][]token {
	var out [][]token
	depth, from := 0, 0
	for x, t := range ts {
		switch {
		case t.kind == tkOp && (t.text == "(" || t.text == "[" || t.text == "{"):
			depth++
		case t.kind == tkOp && (t.text == ")" || t.text == "]" || t.text == "}"):
			depth--
		case depth == 0 && t.kind == tkOp && t.text == ",":
			out = append(out, ts[from:x])
			from = x + 1
		}
	}
	return append(out, ts[from:])
}

// listTokens rewrites the items of a PARTITION BY or ORDER BY list into
// arguments of a marker call: , 'marker', item, ... and, for ORDER BY
// (dirs), each item followed by its direction: '|asc', '|desc' or '|dft'
// (none written), with "nf" appended for NULLS FIRST, "nl" for NULLS LAST.
func listTokens(src string, items [][]token, marker string, dirs bool, pos int) ([]otok, error) {
	out := []otok{{text: ",", orig: pos}, {text: mysqlString(marker), orig: pos}}
	for _, it := range items {
		if len(it) == 0 {
			return nil, errAt(src, pos, "empty item in a PARTITION BY or ORDER BY list")
		}
		dir, nulls := "|dft", ""
		if dirs {
			if n := len(it); n > 2 && it[n-2].is("nulls") && (it[n-1].is("first") || it[n-1].is("last")) {
				nulls = "nl"
				if it[n-1].is("first") {
					nulls = "nf"
				}
				it = it[:n-2]
			}
			if n := len(it); n > 1 && (it[n-1].is("asc") || it[n-1].is("desc")) {
				dir = "|asc"
				if it[n-1].is("desc") {
					dir = "|desc"
				}
				it = it[:n-1]
			}
			dir += nulls
		}
		sub, err := rewriteTokens(src, it)
		if err != nil {
			return nil, err
		}
		out = append(out, otok{text: ",", orig: pos})
		out = append(out, sub.segs...)
		if dirs {
			out = append(out, otok{text: ",", orig: pos}, otok{text: mysqlString(dir), orig: pos})
		}
	}
	return out, nil
}

// unmarkAggOrder writes agg(x, '__carquet_order__', k, '|desc') back as
// agg(x ORDER BY k DESC).
func unmarkAggOrder(s string) string {
	m := ", " + mysqlString(aggOrderMarker)
	for {
		i := strings.Index(s, m)
		if i < 0 {
			return s
		}
		// The keys run to the ')' closing the call.
		parts, end := splitCallArgs(s, i+len(m)+1)
		if end < 0 {
			return s
		}
		var items []string
		for _, part := range parts {
			if d, ok := parseDirMarker(strings.Trim(part, "'")); ok && len(items) > 0 {
				items[len(items)-1] += d.text()
				continue
			}
			items = append(items, part)
		}
		if len(items) == 0 {
			return s
		}
		s = s[:i] + " ORDER BY " + strings.Join(items, ", ") + s[end-1:]
	}
}

// groupingSetsMarker and groupingSetMarker stand for GROUPING SETS (...)
// and one parenthesized set in it (grouping.go).
const (
	groupingSetsMarker = "__carquet_grouping_sets__"
	groupingSetMarker  = "__carquet_set__"
)

// aggOrderMarker starts the ORDER BY items of an aggregate call:
// agg(x ORDER BY k DESC) is agg(x, '__carquet_order__', k, '|desc').
const aggOrderMarker = "__carquet_order__"

// closingParen returns the index of the ')' that closes the '(' at
// toks[open], or -1.
func closingParen(toks []token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		if toks[k].kind == tkOp && toks[k].text == "(" {
			depth++
		} else if toks[k].kind == tkOp && toks[k].text == ")" {
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// nullsFirstMarker, nullsLastMarker and ascMarker wrap an ORDER BY item
// written with NULLS FIRST, NULLS LAST and ASC (orderItem).
const (
	nullsFirstMarker = "__carquet_nulls_first__"
	nullsLastMarker  = "__carquet_nulls_last__"
	ascMarker        = "__carquet_asc__"
)

// wrapOrderItem wraps r.out[start:end] in a call of marker.
func (r *rewriter) wrapOrderItem(start, end int, marker string) {
	open := otok{text: marker + "(", orig: r.out[start].orig}
	shut := otok{text: ")", orig: r.out[end-1].orig}
	rest := append([]otok{shut}, r.out[end:]...)
	r.out = append(append(append(r.out[:start:start], open), r.out[start:end]...), rest...)
}

// orderItemStart finds where the last ORDER BY item of out begins: after
// the BY or comma before it at its parenthesis depth (-1: none).
func orderItemStart(out []otok) int {
	depth := 0
	for j := len(out) - 1; j >= 0; j-- {
		switch t := strings.ToLower(out[j].text); {
		case t == ")":
			depth++
		case strings.HasSuffix(t, "("):
			if depth == 0 {
				return -1
			}
			depth--
		case depth == 0 && (t == "," || t == "by"):
			return j + 1
		}
	}
	return -1
}

// usingMarker carries the columns of FULL JOIN ... USING (cols) in ON.
const usingMarker = "__carquet_using__"

// fullJoinUsing returns the index of the USING of the join whose right
// side starts at toks[from] (the first ON or USING at its parenthesis
// depth), or -1 when it takes ON.
func fullJoinUsing(toks []token, from int) int {
	depth := 0
	for j := from; j < len(toks); j++ {
		switch {
		case toks[j].kind == tkOp && toks[j].text == "(":
			depth++
		case toks[j].kind == tkOp && toks[j].text == ")":
			if depth--; depth < 0 {
				return -1
			}
		case depth == 0 && toks[j].is("on"):
			return -1
		case depth == 0 && toks[j].is("using"):
			return j
		}
	}
	return -1
}

// topLevelWord returns the index of the keyword word at the top level of
// the parenthesis opening at toks[open], or -1.
func topLevelWord(toks []token, open int, word string) int {
	k := closingParen(toks, open)
	if k < 0 {
		return -1
	}
	at := -1
	eachTopLevelWord(toks[open+1:k], func(x int, t token) bool {
		if t.is(word) {
			at = open + 1 + x
			return false
		}
		return true
	})
	return at
}

// positionIn returns the index of the IN at the top level of the
// parenthesis opening at toks[open] (position(x IN y)), or -1.
func positionIn(toks []token, open int) int { return topLevelWord(toks, open, "in") }

// unsupportedErr is an ErrUnsupported error at pos naming what is not
// supported.
func unsupportedErr(src string, pos int, what string) error {
	e := errAt(src, pos, "%s is not supported", what)
	e.Err = ErrUnsupported
	return e
}

// orderByTokens returns the items of an ORDER BY whose first item starts
// ts: up to LIMIT, OFFSET, a set operation, ';' or the ')' that closes the
// enclosing parenthesis.
func orderByTokens(ts []token) []token {
	depth := 0
	for k, t := range ts {
		switch {
		case t.kind == tkOp && t.text == "(":
			depth++
		case t.kind == tkOp && t.text == ")":
			if depth == 0 {
				return ts[:k]
			}
			depth--
		case depth == 0 && (t.kind == tkOp && t.text == ";" || t.is("limit") || t.is("offset") || t.is("union") || t.is("except") || t.is("intersect")):
			return ts[:k]
		}
	}
	return ts
}

// distinctOnTokens builds QUALIFY row_number() OVER (PARTITION BY keys
// [ORDER BY order]) = 1, the filter DISTINCT ON (keys) stands for: the
// first row of each key in the query's order. ORDER BY positions are
// refused: inside OVER they would be constants.
func distinctOnTokens(src string, keys []token, pos int, order []token) ([]token, error) {
	for k, t := range order {
		if t.kind == tkNumber && (k == 0 || order[k-1].kind == tkOp && order[k-1].text == ",") {
			return nil, unsupportedErr(src, t.pos, "DISTINCT ON with ORDER BY positions")
		}
	}
	id := func(s string) token { return token{kind: tkIdent, text: s, pos: pos} }
	op := func(s string) token { return token{kind: tkOp, text: s, pos: pos} }
	out := []token{id("qualify"), id("row_number"), op("("), op(")"), id("over"), op("("), id("partition"), id("by")}
	out = append(out, keys...)
	if len(order) > 0 {
		out = append(out, id("order"), id("by"))
		out = append(out, order...)
	}
	return append(out, op(")"), op("="), token{kind: tkNumber, text: "1", pos: pos}), nil
}

// withinGroup rewrites the ordered-set aggregates percentile_cont(f),
// percentile_disc(f) and mode() followed by WITHIN GROUP (ORDER BY x) at
// toks[*i] into quantile_cont(x, f), quantile_disc(x, f) and mode(x).
func (r *rewriter) withinGroup(src string, toks []token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" || !isWord(r.out[start].text) {
		return errAt(src, t.pos, "WITHIN GROUP must follow an aggregate call")
	}
	call := r.out[start:]
	name := strings.ToLower(call[0].text)
	args := append([]otok(nil), call[2:len(call)-1]...)
	fn := map[string]string{"percentile_cont": "quantile_cont", "percentile_disc": "quantile_disc", "mode": "mode"}[name]
	if fn == "" {
		e := errAt(src, t.pos, "WITHIN GROUP is not supported for %s (only percentile_cont, percentile_disc and mode)", name)
		e.Err = ErrUnsupported
		return e
	}
	j := *i + 2
	if j+2 >= len(toks) || !(toks[j].kind == tkOp && toks[j].text == "(") || !toks[j+1].is("order") || !toks[j+2].is("by") {
		return errAt(src, t.pos, "expected WITHIN GROUP (ORDER BY ...)")
	}
	k := closingParen(toks, j)
	if k < 0 {
		return errAt(src, t.pos, "unterminated WITHIN GROUP (...)")
	}
	order := toks[j+3 : k]
	desc := false
	if n := len(order); n > 0 && order[n-1].is("asc") {
		order = order[:n-1]
	} else if n > 0 && order[n-1].is("desc") {
		order, desc = order[:n-1], fn != "mode"
	}
	if len(order) == 0 {
		return errAt(src, t.pos, "expected WITHIN GROUP (ORDER BY ...)")
	}
	sub, err := rewriteTokens(src, order)
	if err != nil {
		return err
	}
	out := []otok{{text: fn, orig: call[0].orig, origLen: call[0].origLen}, {text: "(", orig: t.pos}}
	out = append(out, sub.segs...)
	if len(args) > 0 {
		out = append(out, otok{text: ",", orig: t.pos})
		out = append(out, args...)
	}
	if desc {
		// quantile_cont(x, q, descMarker): ranked in descending order.
		out = append(out, otok{text: ",", orig: t.pos}, otok{text: mysqlString(descMarker), orig: t.pos})
	}
	out = append(out, otok{text: ")", orig: toks[k].pos, origLen: 1})
	r.out = append(r.out[:start], out...)
	*i = k
	return nil
}

// windowFrame reads a frame clause — ROWS or RANGE, BETWEEN bound AND bound
// or a single start bound (ending at CURRENT ROW) — and encodes it for
// bindWindow as "|f:rows:START:END" or "|f:range:START:END". A bound is u
// (UNBOUNDED), c (CURRENT ROW) or a signed row offset (n PRECEDING is -n, n
// FOLLOWING is n); a RANGE bound with a value offset (a number, an
// INTERVAL, any constant expression) is v- (PRECEDING) or v+ (FOLLOWING),
// its expression returned in offsets. GROUPS and EXCLUDE are refused by
// name.
func windowFrame(src string, ts []token) (frame string, offsets [][]token, err error) {
	unsupportedAt := func(pos int, format string, args ...any) error {
		e := errAt(src, pos, format, args...)
		e.Err = ErrUnsupported
		return e
	}
	mode := strings.ToLower(ts[0].text)
	if mode == "groups" {
		return "", nil, unsupportedAt(ts[0].pos, "GROUPS window frames are not supported (ROWS and RANGE are)")
	}
	x := 1
	// bound reads one frame bound at ts[x]; which is "start" or "end".
	bound := func(which string) (string, error) {
		if x >= len(ts) {
			return "", errAt(src, ts[len(ts)-1].pos, "incomplete window frame")
		}
		t := ts[x]
		switch {
		case t.is("unbounded") && x+1 < len(ts) && (ts[x+1].is("preceding") || ts[x+1].is("following")):
			x += 2
			if ts[x-1].is("preceding") != (which == "start") {
				return "", errAt(src, t.pos, "a window frame cannot %s at UNBOUNDED %s", which, strings.ToUpper(ts[x-1].text))
			}
			return "u", nil
		case t.is("current") && x+1 < len(ts) && ts[x+1].is("row"):
			x += 2
			return "c", nil
		case mode == "range":
			// A value offset: the expression up to PRECEDING or FOLLOWING.
			end, depth := x, 0
			for ; end < len(ts); end++ {
				if ts[end].kind == tkOp && ts[end].text == "(" {
					depth++
				} else if ts[end].kind == tkOp && ts[end].text == ")" {
					depth--
				} else if depth == 0 && (ts[end].is("preceding") || ts[end].is("following")) {
					break
				}
			}
			if end == x || end >= len(ts) {
				break
			}
			offsets = append(offsets, ts[x:end])
			x = end + 1
			if ts[end].is("preceding") {
				return "v-", nil
			}
			return "v+", nil
		case t.kind == tkNumber && x+1 < len(ts) && (ts[x+1].is("preceding") || ts[x+1].is("following")):
			n, err := strconv.ParseInt(t.text, 10, 64)
			if err != nil || n < 0 {
				return "", errAt(src, t.pos, "a window frame offset must be a non-negative integer, not %s", t.text)
			}
			x += 2
			if ts[x-1].is("preceding") {
				n = -n
			}
			return strconv.FormatInt(n, 10), nil
		}
		return "", errAt(src, t.pos, "bad window frame bound near %q", t.text)
	}
	var start, end string
	if x < len(ts) && ts[x].is("between") {
		x++
		if start, err = bound("start"); err != nil {
			return "", nil, err
		}
		if x >= len(ts) || !ts[x].is("and") {
			return "", nil, errAt(src, ts[min(x, len(ts)-1)].pos, "expected AND in the window frame")
		}
		x++
		if end, err = bound("end"); err != nil {
			return "", nil, err
		}
	} else {
		if start, err = bound("start"); err != nil {
			return "", nil, err
		}
		end = "c"
	}
	// As the SQL standard (and DuckDB): a frame may not end before the
	// kind of row it starts at.
	following := func(b string) bool { return b != "u" && b != "c" && !strings.HasPrefix(b, "-") && b != "v-" }
	preceding := func(b string) bool { return strings.HasPrefix(b, "-") || b == "v-" }
	switch {
	case start == "c" && preceding(end):
		return "", nil, errAt(src, ts[0].pos, "a window frame starting from current row cannot have preceding rows")
	case following(start) && (preceding(end) || end == "c"):
		return "", nil, errAt(src, ts[0].pos, "a window frame starting from following rows cannot end at the current row or preceding rows")
	}
	if x < len(ts) {
		if ts[x].is("exclude") {
			return "", nil, unsupportedAt(ts[x].pos, "EXCLUDE in window frames is not supported")
		}
		return "", nil, errAt(src, ts[x].pos, "unexpected %q after the window frame", ts[x].text)
	}
	return "|f:" + mode + ":" + start + ":" + end, offsets, nil
}

// unmarkRewrites turns the window calls that window() rewrote, and the
// TRY_CAST calls, back into SQL in formatted text (column names): __carquet_window__('sum', x, '|p', a,
// '|o', b, '|desc', '|f:rows:-1:c') reads sum(x) OVER (PARTITION BY a ORDER
// BY b DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW).
func unmarkRewrites(s string) string {
	s = unmarkAggOrder(s)
	s = unmarkOperators(s)
	for {
		if i := callOutsideQuotes(s, indexMarker); i >= 0 {
			// x[i]
			args, end := splitCallArgs(s, i+len(indexMarker)+1)
			if end < 0 || len(args) != 2 {
				return s
			}
			s = s[:i] + args[0] + "[" + args[1] + "]" + s[end:]
			continue
		}
		if i := callOutsideQuotes(s, lambdaMarker); i >= 0 {
			args, end := splitCallArgs(s, i+len(lambdaMarker)+1)
			if end < 0 || len(args) < 2 {
				return s
			}
			params := make([]string, len(args)-1)
			for k, a := range args[:len(args)-1] {
				params[k] = strings.Trim(a, "'")
			}
			head := params[0]
			if len(params) > 1 {
				head = "(" + strings.Join(params, ", ") + ")"
			}
			s = s[:i] + head + " -> " + args[len(args)-1] + s[end:]
			continue
		}
		if i, m := orderMarkerCall(s); i >= 0 {
			// An ORDER BY item's marker: the item (ASC and NULLS FIRST or
			// LAST follow it in the parser's text only as ASC).
			args, end := splitCallArgs(s, i+len(m)+1)
			if end < 0 || len(args) != 1 {
				return s
			}
			s = s[:i] + args[0] + s[end:]
			continue
		}
		if i := callOutsideQuotes(s, tryMarker); i >= 0 {
			args, end := splitCallArgs(s, i+len(tryMarker)+1)
			if end < 0 || len(args) != 1 {
				return s
			}
			s = s[:i] + "TRY_" + args[0] + s[end:]
			continue
		}
		i := callOutsideQuotes(s, windowMarker)
		if i < 0 {
			break
		}
		args, end := splitCallArgs(s, i+len(windowMarker)+1)
		if end < 0 || len(args) == 0 {
			return s
		}
		s = s[:i] + windowCallText(args) + s[end:]
	}
	// [a, b] as written, last: splitCallArgs splits at commas in brackets.
	for {
		i := callOutsideQuotes(s, "list_value")
		if i < 0 {
			return s
		}
		args, end := splitCallArgs(s, i+len("list_value("))
		if end < 0 {
			return s
		}
		s = s[:i] + "[" + strings.Join(args, ", ") + "]" + s[end:]
	}
}

// callOutsideQuotes is the index of the first call name( in s outside
// quotes and not inside a longer name, -1 if none.
func callOutsideQuotes(s, name string) int {
	call := name + "("
	for j := 0; j < len(s); j++ {
		switch c := s[j]; c {
		case '\'', '"', '`':
			for j++; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
		default:
			if strings.HasPrefix(s[j:], call) && (j == 0 || !isIdentByte(s[j-1])) {
				return j
			}
		}
	}
	return -1
}

// unmarkOperators turns the operators that the rewrite carries in other
// forms back into their text, outside quotes: | for ||, and | without the
// BINARY after it for a bitwise | (see bitOrOperand), REGEXP for ILIKE, LIKE marker(p) for GLOB p and
// SIMILAR TO p, and substring_fn for substring.
func unmarkOperators(s string) string {
	if !strings.Contains(s, "| ") && !strings.Contains(s, " regexp ") && !strings.Contains(s, "like __carquet_") && !strings.Contains(s, "substring_fn(") {
		return s
	}
	var b strings.Builder
	for j := 0; j < len(s); j++ {
		switch c := s[j]; c {
		case '\'', '"', '`':
			k := j + 1
			for ; k < len(s) && s[k] != c; k++ {
				if s[k] == '\\' {
					k++
				}
			}
			k = min(k, len(s)-1)
			b.WriteString(s[j : k+1])
			j = k
			continue
		}
		rest := s[j:]
		switch {
		case strings.HasPrefix(rest, "| binary "):
			b.WriteString("| ")
			j += len("| binary ") - 1
		case strings.HasPrefix(rest, "| "): // || is the parser's |
			b.WriteString("|| ")
			j++
		case strings.HasPrefix(rest, "substring_fn(") && (j == 0 || !isIdentByte(s[j-1])):
			b.WriteString("substring(")
			j += len("substring_fn(") - 1
		case strings.HasPrefix(rest, " regexp "):
			b.WriteString(" ILIKE ")
			j += len(" regexp ") - 1
		case strings.HasPrefix(rest, "like "+globMarker+"(") || strings.HasPrefix(rest, "like "+similarMarker+"("):
			op, open := "GLOB ", len("like "+globMarker+"(")
			if strings.HasPrefix(rest, "like "+similarMarker) {
				op, open = "SIMILAR TO ", len("like "+similarMarker+"(")
			}
			args, end := splitCallArgs(s, j+open)
			if end < 0 || len(args) != 1 {
				b.WriteByte(s[j])
				continue
			}
			b.WriteString(op + args[0])
			j = end - 1
		default:
			b.WriteByte(s[j])
		}
	}
	return b.String()
}

// splitCallArgs splits the arguments of a call whose '(' ends before s[from]
// at top-level commas, and returns them with the index after the ')'
// (-1 if there is none).
func splitCallArgs(s string, from int) ([]string, int) {
	var args []string
	depth, start := 0, from
	for j := from; j < len(s); j++ {
		switch c := s[j]; c {
		case '\'', '"', '`':
			for j++; j < len(s) && s[j] != c; j++ {
				if s[j] == '\\' {
					j++
				}
			}
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return append(args, strings.TrimSpace(s[start:j])), j + 1
			}
			depth--
		case ',':
			if depth == 0 {
				args = append(args, strings.TrimSpace(s[start:j]))
				start = j + 1
			}
		}
	}
	return nil, -1
}

// windowCallText renders the marker call's arguments as fn(args) OVER (...).
func windowCallText(args []string) string {
	unq := func(a string) string { return strings.Trim(a, "'") }
	var fnArgs, part, order, offsets []string
	var frame string
	mode := 'a'
	for _, a := range args[1:] {
		switch m := unq(a); {
		case m == "|p":
			mode = 'p'
		case m == "|o":
			mode = 'o'
		case m == "|fo":
			mode = 'f'
		case isDirMarker(m):
			if d, _ := parseDirMarker(m); len(order) > 0 {
				order[len(order)-1] += d.text()
			}
		case strings.HasPrefix(m, "|f:"):
			frame = frameText(m)
		default:
			switch a = unmarkRewrites(a); mode {
			case 'a':
				fnArgs = append(fnArgs, a)
			case 'p':
				part = append(part, a)
			case 'f':
				offsets = append(offsets, a)
			default:
				order = append(order, a)
			}
		}
	}
	if frame != "" {
		for _, off := range offsets {
			i := strings.IndexByte(frame, 0)
			if i < 0 {
				break
			}
			frame = frame[:i] + off + frame[i+1:]
		}
	}
	var over []string
	if len(part) > 0 {
		over = append(over, "PARTITION BY "+strings.Join(part, ", "))
	}
	if len(order) > 0 {
		over = append(over, "ORDER BY "+strings.Join(order, ", "))
	}
	if frame != "" {
		over = append(over, frame)
	}
	return unq(args[0]) + "(" + strings.Join(fnArgs, ", ") + ") OVER (" + strings.Join(over, " ") + ")"
}

// frameText renders windowFrame's "|f:MODE:START:END" as SQL.
func frameText(m string) string {
	parts := strings.Split(m, ":")
	if len(parts) != 4 {
		return ""
	}
	bound := func(b string, start bool) string {
		switch b {
		case "u":
			if start {
				return "UNBOUNDED PRECEDING"
			}
			return "UNBOUNDED FOLLOWING"
		case "c":
			return "CURRENT ROW"
		case "v-":
			return "\x00 PRECEDING" // the offset, filled in by windowCallText
		case "v+":
			return "\x00 FOLLOWING"
		}
		if strings.HasPrefix(b, "-") {
			return b[1:] + " PRECEDING"
		}
		return b + " FOLLOWING"
	}
	return strings.ToUpper(parts[1]) + " BETWEEN " + bound(parts[2], true) + " AND " + bound(parts[3], false)
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

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

const (
	byAllMarker   = "__carquet_by_all__"
	excludeMarker = "__carquet_exclude__"
	replaceMarker = "__carquet_replace__"
	globMarker    = "__carquet_glob__"
	similarMarker = "__carquet_similar__"
)

// tryMarker wraps the CAST that TRY_CAST is rewritten to.
const tryMarker = "__carquet_try__"

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

// intervalMarker is what the rewrite makes of an INTERVAL literal with
// several parts.
const intervalMarker = "__carquet_interval__"

// anyMarker and allMarker wrap the subquery of x op ANY|SOME|ALL (q).
const (
	anyMarker = "__carquet_any__"
	allMarker = "__carquet_all__"
)

// groupingSetsMarker and groupingSetMarker stand for GROUPING SETS (...)
// and one parenthesized set in it (grouping.go).
const (
	groupingSetsMarker = "__carquet_grouping_sets__"
	groupingSetMarker  = "__carquet_set__"
)

// unsupportedErr is an ErrUnsupported error at pos naming what is not
// supported.
func unsupportedErr(src string, pos int, what string) error {
	e := errAt(src, pos, "%s is not supported", what)
	e.Err = ErrUnsupported
	return e
}

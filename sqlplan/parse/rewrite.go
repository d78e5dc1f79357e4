package parse

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
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

// Source is a statement's original text and its rewritten form.
type Source struct {
	// Orig is the text the user wrote.
	Orig string
	// Text is the rewritten text, which the parser reads.
	Text string
	segs []otok // with orig; out offsets in outPos
	outs []int  // output offset of each seg
	// Toks are the significant tokens of Orig that were rewritten.
	Toks []Token
	// SetOps are the queries with INTERSECT or EXCEPT inside parentheses,
	// by the number of their marker table (extractSetOps).
	SetOps [][]Token
}

// OrigOffset maps an offset in the rewritten text to the original text.
func (s *Source) OrigOffset(p int) int {
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
	// A token the rewrite made up may be longer than the one it stands
	// for (a lambda's parameter becomes a string): stay inside the text.
	return min(s.segs[k].orig+d, len(s.Orig))
}

// errAt returns an error at an original offset.
func (s *Source) errAt(off int, format string, args ...any) *Error {
	return ErrAt(s.Orig, off, format, args...)
}

// Locate fills in the position of an error that names an identifier, by
// the first occurrence of that identifier in the statement.
func (s *Source) Locate(e *Error, ident string) *Error {
	if e.Offset >= 0 || s == nil {
		return e
	}
	last := ident
	if i := strings.LastIndexByte(ident, '.'); i >= 0 {
		last = ident[i+1:]
	}
	for _, t := range s.Toks {
		if (t.Kind == Ident || t.Kind == Quoted || t.Kind == DQuoted || t.Kind == String) && strings.EqualFold(t.Unquoted(), last) {
			e.Offset = t.Pos
			e.Line, e.Column = LineCol(s.Orig, t.Pos)
			return e
		}
	}
	return e
}

var syntaxPos = regexp.MustCompile(`^(.*) at position (\d+)(?: near '(.*)')?$`)

// ParseError converts a parser error into an Error at the user's position.
func (s *Source) ParseError(err error) *Error {
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
		for p > 0 && p < len(s.Text) && s.Text[p] == ' ' {
			p--
		}
		for p > 0 && p <= len(s.Text) && s.Text[p-1] != ' ' {
			p--
		}
	}
	if p < 0 {
		p = 0
	}
	off := s.OrigOffset(p)
	msg := m[1]
	if m[3] != "" {
		msg += fmt.Sprintf(" near %q", s.nearText(off, m[3]))
	} else if off >= len(strings.TrimRight(s.Orig, " \t\r\n;")) {
		msg += " at the end of the statement"
	}
	return s.errAt(off, "%s", msg)
}

// nearText returns the original token at off (the parser names the
// rewritten one).
func (s *Source) nearText(off int, fallback string) string {
	for _, t := range s.Toks {
		if t.Pos == off {
			return t.Text
		}
	}
	return fallback
}

// rewriter builds the rewritten text.
type rewriter struct {
	src    string
	toks   []Token
	out    []otok
	params int // ? seen so far
	setOps [][]Token
	// cast spells the types of casts for the parser.
	cast CastSpelling
}

func (r *rewriter) emit(text string, t Token) {
	r.out = append(r.out, otok{text: text, orig: t.Pos, origLen: len(t.Text)})
}

func (r *rewriter) source() *Source {
	s := &Source{Orig: r.src, Toks: r.toks, SetOps: r.setOps}
	var b strings.Builder
	for i, o := range r.out {
		if i > 0 {
			b.WriteByte(' ')
		}
		s.outs = append(s.outs, b.Len())
		s.segs = append(s.segs, o)
		b.WriteString(o.text)
	}
	s.Text = b.String()
	return s
}

// Backquote quotes name as an identifier of the parser.
func Backquote(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// dropLateral removes the word LATERAL after a comma or JOIN: a derived
// table or table function that names the FROM items before it is lateral
// anyway (lateral.go).
func dropLateral(toks []Token) []Token {
	out := toks[:0:0]
	for i, t := range toks {
		if t.Is("lateral") && i > 0 && i+1 < len(toks) {
			prev, next := toks[i-1], toks[i+1]
			if (prev.Kind == Op && prev.Text == "," || prev.Is("join")) && (next.Kind == Op && next.Text == "(" || next.Kind == Ident) {
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

// EndsFromList reports whether word (any case) is a keyword that ends a
// FROM list, so that it cannot be the alias of the last item.
func EndsFromList(word string) bool { return clauseAfterFrom[strings.ToLower(word)] }

var unsupportedWords = map[string]string{
	"intersect": "INTERSECT here (only between whole SELECTs)", "except": "EXCEPT here (only between whole SELECTs)", "pivot": "PIVOT here (as a statement or in parentheses it is)", "unpivot": "UNPIVOT here (as a statement or in parentheses it is)",
	"rlike": "the RLIKE operator (use regexp_matches())", "regexp": "the REGEXP operator (use regexp_matches())",
	"recursive": "WITH RECURSIVE", "window": "WINDOW here (WINDOW name AS (...) after HAVING)",
	"asof": "ASOF here (ASOF [INNER | LEFT | RIGHT | FULL] JOIN ... ON or USING)", "positional": "POSITIONAL here (POSITIONAL JOIN)", "semi": "SEMI JOIN here (only in the top level of a query, with ON)", "anti": "ANTI JOIN here (only in the top level of a query, with ON)",
}

// Rewrite rewrites toks, the significant tokens of src, into text the
// parser reads, spelling the types of casts with cast. Its errors are
// Errors at their position in src.
func Rewrite(src string, toks []Token, cast CastSpelling) (*Source, error) {
	toks = quoteKeywordNames(toks)
	toks, err := inlineWindows(src, toks)
	if err != nil {
		return nil, err
	}
	if toks, err = ValuesToSelect(src, toks); err != nil {
		return nil, err
	}
	toks = normalizeLimits(toks)
	toks = dropLateral(toks)
	toks, setOps := extractSetOps(toks)
	r := &rewriter{src: src, toks: toks, setOps: setOps, cast: cast}
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
	// at and, for an index x[i], where its IndexMarker call starts in
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
	// QUALIFY cond becomes HAVING QualifyMarker(cond), or, after a HAVING
	// of the same SELECT, (h) AND QualifyMarker(cond): havingAt is where
	// the last HAVING at each parenthesis depth was emitted, qualifyOpen
	// the depth of a QualifyMarker call not yet closed (-1: none).
	havingAt := map[int]int{}
	qualifyOpen := -1
	// DISTINCT ON (keys) becomes QUALIFY row_number() OVER (PARTITION BY
	// keys ORDER BY the query's ORDER BY) = 1, whose tokens are put in
	// before the clause that ends the SELECT (distinctOn: its keys and
	// depth; nil when none is pending).
	type distinctOnState struct {
		depth int
		keys  []Token
		pos   int
		items [][]Token // the select list, for ORDER BY positions
	}
	var distinctOn *distinctOnState
	qualifies := map[int]bool{} // depths whose SELECT has a QUALIFY
	closeQualify := func(t Token) {
		if qualifyOpen >= 0 && len(parens) == qualifyOpen {
			r.emit(")", t)
			qualifyOpen = -1
		}
	}
	at := func(i int) Token {
		if i >= 0 && i < len(toks) {
			return toks[i]
		}
		return Token{Kind: Space}
	}
	inFrom := map[int]bool{}
	for i := 0; ; i++ {
		if i >= len(toks) {
			if distinctOn == nil {
				break
			}
			synth, err := distinctOnTokens(src, distinctOn.keys, distinctOn.pos, nil, nil)
			if err != nil {
				return nil, err
			}
			toks = append(toks, synth...)
			distinctOn = nil
		}
		t := toks[i]
		if distinctOn != nil && len(parens) == distinctOn.depth && (t.Kind == Op && (t.Text == ")" || t.Text == ";") ||
			t.Kind == Ident && (t.Is("order") || t.Is("limit") || t.Is("offset") || t.Is("union") || t.Is("except") || t.Is("intersect") || t.Is("window"))) {
			if qualifies[distinctOn.depth] {
				return nil, UnsupportedAt(src, distinctOn.pos, "DISTINCT ON together with QUALIFY")
			}
			var order []Token
			if t.Is("order") && at(i+1).Is("by") {
				order = orderByTokens(toks[i+2:])
			}
			synth, err := distinctOnTokens(src, distinctOn.keys, distinctOn.pos, order, distinctOn.items)
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
		fromWord := prev.Is("from") && !at(i-2).Is("distinct")
		if fromWord {
			inFrom[len(parens)] = true
		} else if t.Kind == Ident && clauseAfterFrom[strings.ToLower(t.Text)] {
			delete(inFrom, len(parens))
		}
		afterFrom := fromWord || prev.Is("join") || prev.Kind == Op && prev.Text == "," && inFrom[len(parens)]
		if qualifyOpen >= 0 && len(parens) == qualifyOpen && (t.Kind == Op && (t.Text == ")" || t.Text == ";") ||
			t.Kind == Ident && (t.Is("order") || t.Is("limit") || t.Is("offset") || t.Is("union") || t.Is("except") || t.Is("intersect") || t.Is("window"))) {
			closeQualify(t)
		}
		if t.Kind == DQuoted && afterFrom && next.Kind == Op && next.Text == "(" && quotedTableFunctions[strings.ToLower(t.Unquoted())] {
			// FROM "range"(n), as DuckDB writes its table macros'
			// queries (EXPORT DATABASE): the table function.
			toks = append([]Token(nil), toks...)
			t = Token{Kind: Ident, Text: t.Unquoted(), Pos: t.Pos}
			toks[i] = t
		}
		switch t.Kind {
		case DQuoted, Quoted:
			r.emit(Backquote(t.Unquoted()), t)
		case String:
			if afterFrom && IsJSONPath(t.Unquoted()) {
				r.emit(Backquote(JSONPathTable(t.Unquoted())), t) // jsonread.go
			} else if afterFrom {
				r.emit(Backquote(fromFileName(t.Unquoted())), t) // csvcall.go
			} else {
				r.emit(mysqlString(t.Unquoted()), t)
			}
		case Param:
			if t.Text[0] == ':' && inIndex() != nil {
				// x[a:b]: the lexer read :b as a named parameter.
				rest := Token{Kind: Ident, Text: t.Text[1:], Pos: t.Pos + 1}
				if c := rest.Text[0]; c >= '0' && c <= '9' {
					rest.Kind = Number
				}
				toks = append(toks[:i:i], append([]Token{{Kind: Op, Text: ":", Pos: t.Pos}, rest}, toks[i+1:]...)...)
				i--
				continue
			}
			switch t.Text[0] {
			case '?':
				r.params++
				r.emit(":v"+strconv.Itoa(r.params), t)
			case '$':
				n, err := strconv.Atoi(t.Text[1:])
				switch {
				case err != nil:
					r.emit(":n_"+t.Text[1:], t)
				case n < 1:
					return nil, ErrAt(src, t.Pos, "bad parameter %s", t.Text)
				default:
					r.emit(":v"+t.Text[1:], t)
				}
			default:
				// Named parameters get a prefix of their own, so that a
				// name like v1 never meets the positional :v1.
				r.emit(":n_"+t.Text[1:], t)
			}
		case Number:
			r.emit(t.Text, t)
		case Op:
			switch t.Text {
			case "::":
				nested, isNested := r.markedCastType(toks, i+1)
				spelling, n := "", 0
				if !isNested {
					var err error
					if spelling, n, err = r.readCastType(toks, i+1); err != nil {
						return nil, err
					}
				}
				start := operandStart(r.out)
				if start < 0 {
					return nil, ErrAt(src, t.Pos, "nothing to cast before ::")
				}
				operand := append([]otok(nil), r.out[start:]...)
				r.out = r.out[:start]
				fn, target := "cast", otok{text: "as " + spelling, orig: t.Pos, origLen: len(t.Text)}
				if isNested {
					fn, target = CastMarker, otok{text: ", " + mysqlString(nested.text), orig: t.Pos, origLen: len(t.Text)}
					n = nested.end
				}
				r.out = append(r.out, otok{text: fn, orig: operand[0].orig, origLen: 0}, otok{text: "(", orig: operand[0].orig})
				r.out = append(r.out, operand...)
				r.out = append(r.out, target, otok{text: ")", orig: t.Pos})
				i = n - 1
			case "->", "->>", "@>", "<@", "&&":
				// JSON: l -> p is json_extract(l, p), l ->> p
				// json_extract_string(l, p) (lambdas were rewritten with
				// their calls); lists: a @> b is list_has_all(a, b), a <@ b
				// list_has_all(b, a) (ContainedMarker), a && b
				// list_has_any(a, b), as in DuckDB.
				start := operandStart(r.out)
				end := operandEnd(toks, i+1)
				if start < 0 || end <= i+1 {
					return nil, ErrAt(src, t.Pos, "%s needs a value on each side", t.Text)
				}
				fn := map[string]string{"->": "json_extract", "->>": "json_extract_string", "@>": "list_has_all", "<@": ContainedMarker, "&&": "list_has_any"}[t.Text]
				head := []otok{{text: fn, orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
				r.out = append(r.out[:start], append(head, r.out[start:]...)...)
				r.emit(",", t)
				closer := Token{Kind: Op, Text: ")", Pos: toks[end-1].Pos}
				toks = append(toks[:end:end], append([]Token{closer}, toks[end:]...)...)
			case ".":
				if r.fieldAccess(t, next) {
					i++ // the field's name
					continue
				}
				r.emit(t.Text, t)
			case "||":
				r.emit("|", t)
			case "|":
				// The parser has one token for | and ||, and || is
				// concatenation: a bitwise OR marks its right operand's
				// first term with BINARY (see bitOrOperand).
				r.emit("|", t)
				r.out = append(r.out, otok{text: "binary", orig: t.Pos + 1})
			case "(":
				fn := ""
				if prev.Kind == Ident {
					fn = strings.ToLower(prev.Text)
				}
				derived := afterFrom && (next.Is("select") || next.Is("with"))
				parens = append(parens, paren{fn: fn, out: len(r.out), derived: derived, query: next.Is("select") || next.Is("with")})
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
				// A struct literal {'a': 1, 'b': x} is StructMarker('a', 1,
				// 'b', x): the tokens are reordered and rewritten; a map
				// literal MAP {k: v, ...} is MapMarker(k, v, ...).
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
				// x[i] is IndexMarker(x, i); [a, b] (no operand before) is
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
					head := []otok{{text: IndexMarker, orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
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
				if b == nil || b.slice || r.out[b.head].text != IndexMarker {
					return nil, ErrAt(src, t.Pos, "unexpected :")
				}
				b.slice = true
				r.out[b.head].text = "list_slice"
				if r.out[len(r.out)-1].text == "," {
					r.emit("1", t)
				}
				r.emit(",", t)
			case "]":
				if len(brackets) == 0 {
					return nil, ErrAt(src, t.Pos, "unmatched ]")
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
				neg, starts := t.Text == "!" && next.Kind == Op && next.Text == "~", t.Text == "^" && next.Kind == Op && next.Text == "@"
				if !endsOperand(prev) || t.Text == "!" && !neg || t.Text == "^" && !starts {
					r.emit(t.Text, t)
					break
				}
				op := i + 1
				if neg || starts {
					op = i + 2
				}
				end := operandEnd(toks, op)
				if end <= op {
					return nil, ErrAt(src, t.Pos, "%s needs a value on its right", t.Text)
				}
				var call []Token
				if starts {
					start := operandStart(r.out)
					if start < 0 {
						return nil, ErrAt(src, t.Pos, "^@ needs a value on its left")
					}
					head := []otok{{text: "starts_with", orig: r.out[start].orig}, {text: "(", orig: r.out[start].orig}}
					r.out = append(r.out[:start], append(head, r.out[start:]...)...)
					r.emit(",", t)
					call = append(call, toks[op:end]...)
				} else {
					if neg {
						call = append(call, Token{Kind: Ident, Text: "not", Pos: t.Pos})
					}
					call = append(call, Token{Kind: Ident, Text: "like", Pos: t.Pos}, Token{Kind: Ident, Text: SimilarMarker, Pos: t.Pos}, Token{Kind: Op, Text: "(", Pos: t.Pos})
					call = append(call, toks[op:end]...)
				}
				call = append(call, Token{Kind: Op, Text: ")", Pos: toks[end-1].Pos})
				toks = append(toks[:i:i], append(call, toks[end:]...)...)
				i-- // the call (or, for ^@, the right operand and its ')') comes next
			case "//":
				r.emit("div", t) // integer division (bind.go)
			case "**":
				r.emit("^", t) // power (the parser's ^ is bound as power)
			default:
				r.emit(t.Text, t)
			}
		case Ident:
			low := strings.ToLower(t.Text)
			if feat, ok := unsupportedWords[low]; ok && !(prev.Kind == Op && prev.Text == ".") && !(next.Kind == Op && next.Text == "(") {
				e := ErrAt(src, t.Pos, "%s is not supported", feat)
				e.Err = errs.ErrUnsupported
				return nil, e
			}
			if (low == "struct_pack" || low == "struct_insert" || low == "struct_update" || low == "unnest" || low == "union_value") && next.Kind == Op && next.Text == "(" {
				// Named arguments, name := value (DuckDB's struct functions).
				call, k, ok, err := namedArgCall(src, toks, i)
				if err != nil {
					return nil, err
				}
				if ok {
					toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
					i--
					continue
				}
			}
			switch {
			case low == "at" && next.Is("time") && at(i+2).Is("zone"):
				// x AT TIME ZONE z is timezone(z, x).
				start := operandStart(r.out)
				zone := at(i + 3)
				if start < 0 || zone.Kind != String {
					return nil, ErrAt(src, t.Pos, "AT TIME ZONE takes a value before it and a zone name (a string constant) after it")
				}
				operand := append([]otok(nil), r.out[start:]...)
				r.out = append(r.out[:start], otok{text: "timezone", orig: operand[0].orig}, otok{text: "(", orig: operand[0].orig})
				r.emit(mysqlString(zone.Unquoted()), zone)
				r.emit(",", t)
				r.out = append(r.out, operand...)
				r.emit(")", zone)
				i += 3
			case (low == "x" || low == "b") && next.Kind == String && next.Pos == t.Pos+1:
				// X'00ff' hex (and B'0101' bit) literals.
				r.emit(t.Text+next.Text, t)
				i++
			case (low == "time" || low == "timestamp") && next.Is("with") && at(i+2).Is("time") && at(i+3).Is("zone") && at(i+4).Kind == String:
				// TIME WITH TIME ZONE '...' and TIMESTAMP WITH TIME ZONE '...'.
				spelling, _ := r.cast(TypeName{Name: low + " with time zone"})
				r.typedLiteral(spelling, t, at(i+4))
				i += 4
			case (low == "date" || low == "timestamp" || low == "time" || low == "timestamptz" || low == "datetime" || low == "timestamp_ns" || low == "time_ns" || low == "timestamp_ms" || low == "timestamp_s" || low == "timetz" || low == "uuid" || low == "blob") && next.Kind == String:
				spelling, _ := r.cast(TypeName{Name: low})
				r.typedLiteral(spelling, t, next)
				i++
			case low == "interval" && next.Kind == String && len(strings.Fields(next.Unquoted())) > 2 || low == "interval" && next.Kind == String && strings.Contains(next.Unquoted(), ":"):
				// INTERVAL '1 month 2 days 03:00:00': IntervalMarker('...').
				r.emit(IntervalMarker, t)
				r.emit("(", t)
				r.emit(mysqlString(next.Unquoted()), next)
				r.emit(")", next)
				i++
			case low == "interval" && next.Kind == String:
				num, unit, ok := strings.Cut(strings.TrimSpace(next.Unquoted()), " ")
				if !ok {
					// INTERVAL '3' DAY
					r.emit("interval", t)
					r.emit(mysqlString(next.Unquoted()), next)
				} else {
					r.emit("interval", t)
					r.emit(mysqlString(num), next)
					r.emit(strings.TrimSpace(unit), next)
				}
				i++
			case low == "extract" && next.Kind == Op && next.Text == "(":
				part, from := at(i+2), at(i+3)
				if part.Kind != Ident && part.Kind != String || !from.Is("from") {
					return nil, ErrAt(src, t.Pos, "EXTRACT needs (part FROM value)")
				}
				r.emit("date_part", t)
				parens = append(parens, paren{fn: "date_part", out: len(r.out)})
				r.emit("(", next)
				r.emit(mysqlString(strings.ToLower(part.Unquoted()))+",", part)
				i += 3
			case (low == "read_parquet" || low == "parquet_scan") && next.Kind == Op && next.Text == "(":
				arg, close := at(i+2), at(i+3)
				if arg.Kind != String || close.Kind != Op || close.Text != ")" {
					return nil, ErrAt(src, t.Pos, "%s takes one quoted path", low)
				}
				r.emit(Backquote(arg.Unquoted()), t)
				i += 3
			case (low == "substring" || low == "substr") && next.Kind == Op && next.Text == "(" && topLevelWord(toks, i+1, "from") < 0:
				r.emit("substring_fn", t)
			case (low == "group" || low == "order") && next.Is("by") && at(i+2).Is("all"):
				// GROUP BY ALL / ORDER BY ALL: a marker the planner expands.
				r.emit(t.Text, t)
				r.emit("by", next)
				r.emit("`"+ByAllMarker+"`", at(i+2))
				i += 2
			case low == "exclude" && prev.Kind == Op && prev.Text == "*" && next.Kind == Op && next.Text == "(":
				// SELECT * EXCLUDE (a, b): a marker call after the star.
				r.emit(", "+ExcludeMarker, t)
				excludeEnd = levelEnd(toks, i+2)
			case low == "replace" && (prev.Kind == Op && prev.Text == "*" || i-1 == excludeEnd) && next.Kind == Op && next.Text == "(":
				// SELECT * [EXCLUDE (...)] REPLACE (e AS c, ...): a marker
				// call after the star, its arguments e, c, ... (each AS of
				// the list made a comma).
				toks = append([]Token(nil), toks...)
				end, d := levelEnd(toks, i+2), 0
				for j := i + 2; j < end; j++ {
					switch {
					case toks[j].Kind == Op && toks[j].Text == "(":
						d++
					case toks[j].Kind == Op && toks[j].Text == ")":
						d--
					case d == 0 && toks[j].Is("as"):
						toks[j] = Token{Kind: Op, Text: ",", Pos: toks[j].Pos}
					}
				}
				r.emit(", "+ReplaceMarker, t)
			case low == "filter" && prev.Kind == Op && prev.Text == ")" && next.Kind == Op && next.Text == "(" && !at(i+2).Is("where"):
				// FILTER (c) is FILTER (WHERE c), as DuckDB allows.
				where := Token{Kind: Ident, Text: "where", Pos: next.Pos}
				toks = append(toks[:i+2:i+2], append([]Token{where}, toks[i+2:]...)...)
				i--
			case low == "is" && (next.Is("unknown") || next.Is("not") && at(i+2).Is("unknown")):
				// IS [NOT] UNKNOWN is IS [NOT] NULL (of a boolean).
				if next.Is("not") {
					r.emit("is not null", t)
					i += 2
				} else {
					r.emit("is null", t)
					i++
				}
			case low == "filter" && prev.Kind == Op && prev.Text == ")" && next.Kind == Op && next.Text == "(" && at(i+2).Is("where"):
				// agg(x) FILTER (WHERE c) is agg(CASE WHEN c THEN x END).
				if err := r.aggFilter(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "as" && len(parens) > 0 && (parens[len(parens)-1].fn == "cast" || parens[len(parens)-1].fn == "try_cast" || parens[len(parens)-1].fn == "convert"):
				if nested, ok := r.markedCastType(toks, i+1); ok && parens[len(parens)-1].fn != "convert" {
					// CAST(x AS STRUCT(...)) is CastMarker(x, 'STRUCT(...)').
					if open := parens[len(parens)-1].out; open > 0 {
						r.out[open-1].text = CastMarker
					}
					r.emit(", "+mysqlString(nested.text), t)
					i = nested.end - 1
					continue
				}
				spelling, n, err := r.readCastType(toks, i+1)
				if err != nil {
					return nil, err
				}
				r.emit("as "+spelling, t)
				i = n - 1
			case low == "try_cast" && next.Kind == Op && next.Text == "(":
				// TRY_CAST(x AS t) is __carquet_try__(cast(x AS t)): the ')'
				// of its parenthesis closes both. Separate tokens, so that
				// a :: after it finds the call's opening parenthesis.
				r.emit(TryMarker, t)
				r.emit("(", t)
				r.emit("cast", t)
			case low == "within" && next.Is("group") && prev.Kind == Op && prev.Text == ")":
				if err := r.withinGroup(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "order" && next.Is("by") && len(parens) > 0 && parens[len(parens)-1].fn != "" && !parens[len(parens)-1].query:
				// agg(x ORDER BY k): the keys become trailing arguments
				// after AggOrderMarker (bindAggregate reads them back).
				k := levelEnd(toks, i+2)
				if k >= len(toks) || toks[k].Text != ")" || k == i+2 {
					return nil, ErrAt(src, t.Pos, "ORDER BY inside a function call needs its keys and a closing parenthesis")
				}
				items, err := listTokens(src, r.cast, SplitList(toks[i+2:k]), AggOrderMarker, true, t.Pos)
				if err != nil {
					return nil, err
				}
				r.out = append(r.out, items...)
				i = k - 1
			case low == "grouping" && next.Is("sets") && at(i+2).Kind == Op && at(i+2).Text == "(":
				// GROUPING SETS ((a, b), a, ()): GroupingSetsMarker(
				// GroupingSetMarker(a, b), a, GroupingSetMarker()), which the
				// parser takes as calls (it has no empty tuple).
				k := ClosingParen(toks, i+2)
				if k < 0 {
					return nil, ErrAt(src, t.Pos, "unterminated GROUPING SETS (...)")
				}
				spliced := []Token{{Kind: Ident, Text: GroupingSetsMarker, Pos: t.Pos}}
				depth := 0
				for _, tk := range toks[i+2 : k+1] {
					if tk.Kind == Op && tk.Text == "(" {
						if depth == 1 {
							spliced = append(spliced, Token{Kind: Ident, Text: GroupingSetMarker, Pos: tk.Pos})
						}
						depth++
					} else if tk.Kind == Op && tk.Text == ")" {
						depth--
					}
					spliced = append(spliced, tk)
				}
				toks = append(toks[:i:i], append(spliced, toks[k+1:]...)...)
				i--
			case low == "trim" && next.Kind == Op && next.Text == "(" && topLevelWord(toks, i+1, "from") > 0:
				// trim([BOTH|LEADING|TRAILING] [chars] FROM s) is trim, ltrim
				// or rtrim(s[, chars]).
				k, from := ClosingParen(toks, i+1), topLevelWord(toks, i+1, "from")
				spec := toks[i+2 : from]
				fn := "trim"
				if len(spec) > 0 && (spec[0].Is("both") || spec[0].Is("leading") || spec[0].Is("trailing")) {
					fn = map[string]string{"both": "trim", "leading": "ltrim", "trailing": "rtrim"}[strings.ToLower(spec[0].Text)]
					spec = spec[1:]
				}
				call := []Token{{Kind: Ident, Text: fn, Pos: t.Pos}, toks[i+1]}
				call = append(call, toks[from+1:k]...)
				if len(spec) > 0 {
					call = append(append(call, Token{Kind: Op, Text: ",", Pos: toks[from].Pos}), spec...)
				}
				call = append(call, toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "substring" || low == "substr") && next.Kind == Op && next.Text == "(" && topLevelWord(toks, i+1, "from") > 0:
				// substring(s FROM a [FOR b]) is substring(s, a[, b]).
				k, from := ClosingParen(toks, i+1), topLevelWord(toks, i+1, "from")
				call := append([]Token{t, toks[i+1]}, toks[i+2:from]...)
				call = append(call, Token{Kind: Op, Text: ",", Pos: toks[from].Pos})
				rest := toks[from+1 : k]
				for j, tk := range rest {
					if tk.Is("for") {
						rest = append(append(append([]Token(nil), rest[:j]...), Token{Kind: Op, Text: ",", Pos: tk.Pos}), rest[j+1:]...)
						break
					}
				}
				call = append(append(call, rest...), toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "any" || low == "some" || low == "all") && next.Kind == Op && next.Text == "(" && prev.Kind == Op && isComparisonOp(prev.Text):
				// x op ANY|SOME|ALL (subquery) is x op quantMarker((subquery)),
				// bound by bindQuantified.
				k := ClosingParen(toks, i+1)
				if k < 0 {
					return nil, ErrAt(src, t.Pos, "unterminated %s (...)", strings.ToUpper(low))
				}
				name := AnyMarker
				if low == "all" {
					name = AllMarker
				}
				call := []Token{{Kind: Ident, Text: name, Pos: t.Pos}, {Kind: Op, Text: "(", Pos: t.Pos}}
				call = append(call, toks[i+1:k+1]...)
				call = append(call, Token{Kind: Op, Text: ")", Pos: toks[k].Pos})
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case low == "position" && next.Kind == Op && next.Text == "(" && positionIn(toks, i+1) > 0:
				// position(x IN y) is strpos(y, x): the tokens are reordered
				// and rewritten from the function name on.
				k, in := ClosingParen(toks, i+1), positionIn(toks, i+1)
				name := Token{Kind: Ident, Text: "strpos", Pos: t.Pos}
				comma := Token{Kind: Op, Text: ",", Pos: toks[in].Pos}
				call := append([]Token{name, toks[i+1]}, toks[in+1:k]...)
				call = append(append(append(call, comma), toks[i+2:in]...), toks[k])
				toks = append(toks[:i:i], append(call, toks[k+1:]...)...)
				i--
			case (low == "duckdb_settings" || low == "duckdb_variables" || CatalogFunctions[low]) && afterFrom && next.Kind == Op && next.Text == "(" && at(i+2).Kind == Op && at(i+2).Text == ")":
				// The table functions of the settings (settings.go), the
				// variables (variables.go) and the catalog (catalog_duckdb.go).
				r.emit(Backquote(low+"()"), t)
				i += 2
			case hasParquetMeta(low) && afterFrom && next.Kind == Op && next.Text == "(":
				// parquet_metadata('f') and its kin, glob('p') (pqmeta.go).
				name, k, err := parquetMetaCall(src, toks, i, low)
				if err != nil {
					return nil, err
				}
				r.emit(Backquote(name), t)
				i = k
			case hasFileRead(low) && afterFrom && next.Kind == Op && next.Text == "(":
				// read_json('f') and its kin, read_text, read_blob (jsonread.go).
				name, k, err := fileReadCall(src, toks, i, low)
				if err != nil {
					return nil, err
				}
				r.emit(Backquote(name), t)
				i = k
			case CSVFunctions[low] && afterFrom && next.Kind == Op && next.Text == "(":
				// read_csv('f', ...) and its kin (csvcall.go).
				name, k, err := csvCall(src, toks, i, low)
				if err != nil {
					return nil, err
				}
				r.emit(Backquote(name), t)
				i = k
			case low == "pragma_table_info" && afterFrom && next.Kind == Op && next.Text == "(":
				// pragma_table_info('t'): a table name the catalog plans.
				arg := at(i + 2)
				if arg.Kind != String && arg.Kind != Ident && arg.Kind != DQuoted && arg.Kind != Quoted || at(i+3).Kind != Op || at(i+3).Text != ")" {
					return nil, ErrAt(src, t.Pos, "pragma_table_info takes one table name")
				}
				r.emit(Backquote(TableInfoMarker+arg.Name()), t)
				i += 3
			case (low == "range" || low == "generate_series" || low == "unnest") && afterFrom && next.Kind == Op && next.Text == "(":
				// A table function: the parser knows none, so it becomes a
				// table name that relationOf plans (series.go), or a
				// derived table when it renames its column or unnests.
				k := ClosingParen(toks, i+1)
				if k < 0 {
					return nil, ErrAt(src, t.Pos, "unterminated %s(...)", low)
				}
				_, seriesErr := seriesTableName(src, low, t.Pos, toks[i+2:k])
				if derived, end, ok := tableFunctionQuery(toks, i, k, seriesErr != nil); ok {
					toks = append(toks[:i:i], append(derived, toks[end+1:]...)...)
					i--
					continue
				}
				name, err := seriesTableName(src, low, t.Pos, toks[i+2:k])
				if err != nil {
					return nil, err
				}
				r.emit(Backquote(name), t)
				i = k
			case low == "select":
				delete(havingAt, len(parens))
				delete(qualifies, len(parens))
				r.emit(t.Text, t)
			case low == "distinct" && next.Is("on") && at(i+2).Kind == Op && at(i+2).Text == "(":
				if distinctOn != nil {
					return nil, UnsupportedAt(src, t.Pos, "DISTINCT ON in a subquery of a DISTINCT ON query")
				}
				k := ClosingParen(toks, i+2)
				if k <= i+3 {
					return nil, ErrAt(src, t.Pos, "expected DISTINCT ON (expressions)")
				}
				distinctOn = &distinctOnState{depth: len(parens), keys: toks[i+3 : k], pos: t.Pos, items: selectItems(toks, k+1)}
				i = k
			case low == "having":
				havingAt[len(parens)] = len(r.out)
				r.emit(t.Text, t)
			case low == "qualify":
				if qualifyOpen >= 0 {
					return nil, ErrAt(src, t.Pos, "QUALIFY appears twice")
				}
				if h, ok := havingAt[len(parens)]; ok {
					// HAVING h QUALIFY q: HAVING (h) AND QualifyMarker(q).
					r.out = append(r.out[:h+1], append([]otok{{text: "(", orig: t.Pos}}, r.out[h+1:]...)...)
					r.emit(") and "+QualifyMarker+"(", t)
				} else {
					r.emit("having "+QualifyMarker+"(", t)
				}
				qualifyOpen = len(parens)
				qualifies[len(parens)] = true
			case lambdaFuncs[low] && next.Kind == Op && next.Text == "(" && rewriteLambdas(&toks, i+1):
				i-- // the call again, its lambdas now marker calls
			case low == "ilike":
				r.emit("regexp", t)
			case (low == "glob" || low == "similar" && next.Is("to")) && endsOperand(prev):
				// x GLOB p, x SIMILAR TO p: x LIKE marker(p) (bindPatternMatch).
				op := i + 1
				marker := GlobMarker
				if low == "similar" {
					op, marker = i+2, SimilarMarker
				}
				end := operandEnd(toks, op)
				if end <= op {
					return nil, ErrAt(src, t.Pos, "%s needs a pattern", strings.ToUpper(low))
				}
				call := []Token{{Kind: Ident, Text: "like", Pos: t.Pos}, {Kind: Ident, Text: marker, Pos: t.Pos}, {Kind: Op, Text: "(", Pos: t.Pos}}
				call = append(append(call, toks[op:end]...), Token{Kind: Op, Text: ")", Pos: toks[end-1].Pos})
				toks = append(toks[:i:i], append(call, toks[end:]...)...)
				i--
			case low == "over" && next.Kind == Op && next.Text == "(":
				if err := r.window(src, toks, &i); err != nil {
					return nil, err
				}
			case low == "natural" && next.Is("full"):
				// NATURAL FULL [OUTER] JOIN t: FULL JOIN t ON
				// NaturalMarker(), whose columns the planner finds
				// (the parser has no NATURAL FULL JOIN).
				j := i + 2
				if at(j).Is("outer") {
					j++
				}
				if !at(j).Is("join") {
					return nil, ErrAt(src, t.Pos, "expected JOIN after NATURAL FULL")
				}
				k := fromItemEnd(toks, j+1)
				on := []Token{{Kind: Ident, Text: "on", Pos: t.Pos}, {Kind: Ident, Text: NaturalMarker, Pos: t.Pos},
					{Kind: Op, Text: "(", Pos: t.Pos}, {Kind: Op, Text: ")", Pos: t.Pos}}
				toks = append(toks[:i:i], append(append(toks[i+1:k:k], on...), toks[k:]...)...)
				i--
			case low == "full" && (next.Is("join") || next.Is("outer") && at(i+2).Is("join")):
				// FULL [OUTER] JOIN ... ON becomes the parser's STRAIGHT_JOIN
				// (which takes ON but not USING), read back as a full outer
				// join by tableExpr; STRAIGHT_JOIN itself is refused below.
				if next.Is("outer") {
					i++
				}
				i++
				if u := fullJoinUsing(toks, i+1); u > 0 {
					// USING (cols) becomes ON UsingMarker(cols), which the
					// parser takes after STRAIGHT_JOIN.
					marker := Token{Kind: Ident, Text: UsingMarker, Pos: toks[u].Pos}
					on := Token{Kind: Ident, Text: "on", Pos: toks[u].Pos}
					toks = append(toks[:u:u], append([]Token{on, marker}, toks[u+1:]...)...)
				}
				r.emit("straight_join", t)
			case low == "straight_join":
				return nil, UnsupportedAt(src, t.Pos, "STRAIGHT_JOIN")
			case low == "nulls" && (next.Is("first") || next.Is("last")):
				// x [ASC|DESC] NULLS FIRST: NullsFirstMarker(x) [ASC|DESC]
				// (NULLS LAST: NullsLastMarker), for the planner tells
				// them from the default (default_null_order).
				start, end := orderItemStart(r.out), len(r.out)
				if end > 0 && (strings.EqualFold(r.out[end-1].text, "asc") || strings.EqualFold(r.out[end-1].text, "desc")) {
					end--
				}
				if start < 0 || start >= end {
					return nil, ErrAt(src, t.Pos, "NULLS %s must follow an ORDER BY item", strings.ToUpper(next.Text))
				}
				marker := NullsFirstMarker
				if next.Is("last") {
					marker = NullsLastMarker
				}
				r.wrapOrderItem(start, end, marker)
				i++
			case low == "asc" && orderItemStart(r.out) >= 0 && orderItemStart(r.out) < len(r.out):
				// x ASC: AscMarker(x) ASC, for the planner tells it from
				// the default direction (default_order).
				r.wrapOrderItem(orderItemStart(r.out), len(r.out), AscMarker)
				r.emit(t.Text, t)
			case low == "is" && next.Is("not") && at(i+2).Is("distinct") && at(i+3).Is("from"):
				// a IS NOT DISTINCT FROM b is MySQL's null-safe a <=> b.
				r.emit("<=>", t)
				i += 3
			case low == "is" && next.Is("distinct") && at(i+2).Is("from"):
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
					e := ErrAt(src, t.Pos, "IS DISTINCT FROM needs a parenthesized left operand here")
					e.Err = errs.ErrUnsupported
					return nil, e
				}
				r.out = append(r.out[:start], append([]otok{{text: "not", orig: r.out[start].orig}}, r.out[start:]...)...)
				r.emit("<=>", t)
				i += 2
			default:
				r.emit(t.Text, t)
			}
		}
	}
	if qualifyOpen >= 0 {
		r.emit(")", Token{Pos: len(src)})
	}
	return r.source(), nil
}

// typedLiteral writes TYPE 'text' (the type's first word at t) as
// CAST('text' AS TYPE).
func (r *rewriter) typedLiteral(spelling string, t, lit Token) {
	r.emit("cast", t)
	r.emit("(", t)
	r.emit(mysqlString(lit.Unquoted()), lit)
	r.emit("as "+spelling, lit)
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

// The markers of GROUP BY ALL and ORDER BY ALL (a table name), of SELECT
// * EXCLUDE (...) and * REPLACE (...) (calls after the star), and of GLOB
// and SIMILAR TO patterns (calls around the pattern of a LIKE).
const (
	ByAllMarker   = "__carquet_by_all__"
	ExcludeMarker = "__carquet_exclude__"
	ReplaceMarker = "__carquet_replace__"
	GlobMarker    = "__carquet_glob__"
	SimilarMarker = "__carquet_similar__"
)

// ContainedMarker(a, b) is a <@ b: list_has_all(b, a), its operands in
// the order written.
const ContainedMarker = "__carquet_contained__"

// TryMarker wraps the CAST that TRY_CAST is rewritten to.
const TryMarker = "__carquet_try__"

// derivedColumnList handles a derived table with a column list, (q) [AS]
// t (a, b): toks[i] is the ')' just emitted, the '(' at r.out[openAt].
// The query becomes (SELECT * FROM (q) AS renaming alias) AS t (see
// ColsMarker); it returns the index of the list's ')'.
func (r *rewriter) derivedColumnList(toks []Token, i, openAt int) (int, bool) {
	j := i + 1
	if j < len(toks) && toks[j].Is("as") {
		j++
	}
	if j+1 >= len(toks) || toks[j].Kind != Ident && toks[j].Kind != Quoted && toks[j].Kind != DQuoted || IsClauseWord(toks[j].Text) || toks[j+1].Kind != Op || toks[j+1].Text != "(" {
		return 0, false
	}
	k := ClosingParen(toks, j+1)
	if k < 0 {
		return 0, false
	}
	var cols []string
	for x := j + 2; x < k; x += 2 {
		t := toks[x]
		if t.Kind != Ident && t.Kind != Quoted && t.Kind != DQuoted || x+1 < k && !(toks[x+1].Kind == Op && toks[x+1].Text == ",") {
			return 0, false
		}
		cols = append(cols, t.Name())
	}
	if len(cols) == 0 {
		return 0, false
	}
	open := r.out[openAt]
	head := []otok{{text: "(", orig: open.orig}, {text: "select", orig: open.orig}, {text: "*", orig: open.orig}, {text: "from", orig: open.orig}}
	r.out = append(r.out[:openAt], append(head, r.out[openAt:]...)...)
	alias := ColsMarker + "\x1f" + strings.Join(cols, "\x1f")
	r.emit("as "+Backquote(alias)+" )", toks[i])
	r.emit("as "+Backquote(toks[j].Name()), toks[j])
	return k, true
}

// IntervalMarker is what the rewrite makes of an INTERVAL literal with
// several parts.
const IntervalMarker = "__carquet_interval__"

// AnyMarker and AllMarker wrap the subquery of x op ANY|SOME|ALL (q).
const (
	AnyMarker = "__carquet_any__"
	AllMarker = "__carquet_all__"
)

// GroupingSetsMarker and GroupingSetMarker stand for GROUPING SETS (...)
// and one parenthesized set in it (grouping.go).
const (
	GroupingSetsMarker = "__carquet_grouping_sets__"
	GroupingSetMarker  = "__carquet_set__"
)

package parse

import (
	"strconv"
	"strings"
)

// Token helpers of the rewrite layer: operands, types, lists and
// parentheses, and the markers undone after parsing.

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
func aliasFollows(t Token) bool {
	if t.Kind == Quoted || t.Kind == DQuoted {
		return true
	}
	if t.Kind != Ident {
		return false
	}
	switch strings.ToLower(t.Text) {
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

// TypeName is a type as a statement writes it, not yet resolved (the
// engine knows the types; the syntax stage only reads their names).
type TypeName struct {
	// Name is the type's name as written, its words joined by one space
	// (DOUBLE PRECISION, TIMESTAMP WITH TIME ZONE).
	Name string
	// Params are the numbers in parentheses after the name (DECIMAL(10, 2)).
	Params []int
	// ListDepth counts the [] after the name: INTEGER[][] is 2.
	ListDepth int
	// Pos is the byte offset of the name's first word.
	Pos int
}

// CastSpelling resolves a type name for a cast (CAST, TRY_CAST, :: and
// typed literals such as DATE '...'): it returns the text the parser's
// CAST takes for the type, which the binder reads back, or an error
// without a position when the name is not a type the engine casts to.
// The package sqlplan provides it: the syntax stage does not know types.
type CastSpelling func(TypeName) (string, error)

// ReadTypeName reads a type name at toks[i:] (words, then optional
// numbers in parentheses, then optional [] pairs) and returns it and the
// index after it. known tells which words, and runs of up to four words,
// name a type: the name is the longest run that is a known name.
func ReadTypeName(src string, toks []Token, i int, known func(name string) bool) (TypeName, int, error) {
	if i >= len(toks) || toks[i].Kind != Ident {
		pos := len(src)
		if i < len(toks) {
			pos = toks[i].Pos
		}
		return TypeName{}, i, ErrAt(src, pos, "expected a type name")
	}
	tn := TypeName{Name: toks[i].Text, Pos: toks[i].Pos}
	j := i + 1
	// Multi-word names: extend while the longer name is a type.
	for k := 1; k <= 3 && i+k < len(toks) && toks[i+k].Kind == Ident; k++ {
		cand := tn.Name
		for m := 1; m <= k; m++ {
			cand += " " + toks[i+m].Text
		}
		if known(cand) {
			tn.Name, j = cand, i+k+1
		}
	}
	if j < len(toks) && toks[j].Kind == Op && toks[j].Text == "(" {
		j++
		for j < len(toks) && !(toks[j].Kind == Op && toks[j].Text == ")") {
			if toks[j].Kind == Number {
				n, _ := strconv.Atoi(toks[j].Text)
				tn.Params = append(tn.Params, n)
			} else if !(toks[j].Kind == Op && toks[j].Text == ",") {
				return TypeName{}, j, ErrAt(src, toks[j].Pos, "unexpected %q in type parameters", toks[j].Text)
			}
			j++
		}
		j++
	}
	// T[] (and T[][], ...), or the standard's T ARRAY: a list type.
	for {
		n := ListSuffix(toks, j)
		if n == 0 {
			return tn, j, nil
		}
		tn.ListDepth++
		j += n
	}
}

// ListSuffix is the number of tokens at toks[j:] that make a type a list
// of it: 2 for [], 1 for the word ARRAY, 0 for none.
func ListSuffix(toks []Token, j int) int {
	switch {
	case j+1 < len(toks) && toks[j].Kind == Op && toks[j].Text == "[" && toks[j+1].Kind == Op && toks[j+1].Text == "]":
		return 2
	case j < len(toks) && toks[j].Kind == Ident && toks[j].Is("array"):
		return 1
	}
	return 0
}

// PositionedAt returns err, an error of resolving a type name, as an
// Error at the name in src, keeping what err wraps when it is an Error.
func (tn TypeName) PositionedAt(src string, err error) *Error {
	e := ErrAt(src, tn.Pos, "%v", err)
	if ue, ok := err.(*Error); ok {
		e.Err = ue.Err
	}
	return e
}

// readCastType reads a type name at toks[i:] as readTypeName does and
// returns its spelling for the parser's CAST and the index after it.
func (r *rewriter) readCastType(toks []Token, i int) (string, int, error) {
	known := func(name string) bool {
		_, err := r.cast(TypeName{Name: name})
		return err == nil
	}
	tn, j, err := ReadTypeName(r.src, toks, i, known)
	if err != nil {
		return "", j, err
	}
	spelling, err := r.cast(tn)
	if err != nil {
		return "", j, tn.PositionedAt(r.src, err)
	}
	return spelling, j, nil
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

// levelEnd returns the index of the ')' that closes the level toks[from]
// is at, or of a ';' at that level, or len(toks).
// endsOperand reports whether t can end the left operand of a binary
// operator written as a word (or be the NOT of NOT GLOB): a name that is
// not a keyword, a literal, a parameter, a closing parenthesis.
func endsOperand(t Token) bool {
	switch t.Kind {
	case Ident:
		return t.Is("not") || !isOperatorWord(t.Text)
	case String, Number, Param, Quoted, DQuoted:
		return true
	case Op:
		return t.Text == ")" || t.Text == "]"
	}
	return false
}

// operandEnd returns where the operand that starts at toks[i] ends: a
// parenthesized expression, a function call, a (qualified) name, a
// literal or a parameter, with a sign before it.
func operandEnd(toks []Token, i int) int {
	for i < len(toks) && toks[i].Kind == Op && (toks[i].Text == "-" || toks[i].Text == "+") {
		i++
	}
	if i >= len(toks) {
		return i
	}
	switch t := toks[i]; {
	case t.Kind == Op && t.Text == "(":
		return min(levelEnd(toks, i+1)+1, len(toks))
	case t.Kind == Op && (t.Text == "[" || t.Text == "{"):
		i = bracketEnd(toks, i) // a list or struct literal, maybe indexed
	case t.Kind == Op:
		return i
	default:
		i++
	}
	for i < len(toks) {
		switch {
		case toks[i].Kind == Op && toks[i].Text == "(":
			i = levelEnd(toks, i+1) + 1
		case toks[i].Kind == Op && toks[i].Text == "[":
			i = bracketEnd(toks, i) // an index or a slice
		case toks[i].Kind == Op && toks[i].Text == "." && i+1 < len(toks) && toks[i+1].Kind != Op:
			i += 2
		default:
			return min(i, len(toks))
		}
	}
	return min(i, len(toks))
}

// bracketEnd returns the index after the bracket or brace that closes
// the one at toks[i] (len(toks) when none does).
func bracketEnd(toks []Token, i int) int {
	d := 0
	for k := i; k < len(toks); k++ {
		if toks[k].Kind != Op {
			continue
		}
		switch toks[k].Text {
		case "[", "{", "(":
			d++
		case "]", "}", ")":
			if d--; d == 0 {
				return k + 1
			}
		}
	}
	return len(toks)
}

func levelEnd(toks []Token, from int) int {
	k, d := from, 0
	for ; k < len(toks); k++ {
		switch {
		case toks[k].Kind == Op && toks[k].Text == "(":
			d++
		case toks[k].Kind == Op && toks[k].Text == ")":
			if d == 0 {
				return k
			}
			d--
		case d == 0 && toks[k].Kind == Op && toks[k].Text == ";":
			return k
		}
	}
	return k
}

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

func sameTokens(a, b []Token) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || !strings.EqualFold(a[i].Text, b[i].Text) {
			return false
		}
	}
	return true
}

// SplitList splits a list of tokens (call arguments, PARTITION BY and
// ORDER BY items) at the commas outside parentheses, brackets and braces;
// the last item is there even when empty.
func SplitList(ts []Token) [][]Token {
	var out [][]Token
	depth, from := 0, 0
	for x, t := range ts {
		switch {
		case t.Kind == Op && (t.Text == "(" || t.Text == "[" || t.Text == "{"):
			depth++
		case t.Kind == Op && (t.Text == ")" || t.Text == "]" || t.Text == "}"):
			depth--
		case depth == 0 && t.Kind == Op && t.Text == ",":
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
func listTokens(src string, cast CastSpelling, items [][]Token, marker string, dirs bool, pos int) ([]otok, error) {
	out := []otok{{text: ",", orig: pos}, {text: mysqlString(marker), orig: pos}}
	for _, it := range items {
		if len(it) == 0 {
			return nil, ErrAt(src, pos, "empty item in a PARTITION BY or ORDER BY list")
		}
		dir, nulls := "|dft", ""
		if dirs {
			if n := len(it); n > 2 && it[n-2].Is("nulls") && (it[n-1].Is("first") || it[n-1].Is("last")) {
				nulls = "nl"
				if it[n-1].Is("first") {
					nulls = "nf"
				}
				it = it[:n-2]
			}
			if n := len(it); n > 1 && (it[n-1].Is("asc") || it[n-1].Is("desc")) {
				dir = "|asc"
				if it[n-1].Is("desc") {
					dir = "|desc"
				}
				it = it[:n-1]
			}
			dir += nulls
		}
		sub, err := Rewrite(src, it, cast)
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

// ClosingParen returns the index of the ')' that closes the '(' at
// toks[open], or -1.
func ClosingParen(toks []Token, open int) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		if toks[k].Kind == Op && toks[k].Text == "(" {
			depth++
		} else if toks[k].Kind == Op && toks[k].Text == ")" {
			if depth--; depth == 0 {
				return k
			}
		}
	}
	return -1
}

// topLevelWord returns the index of the keyword word at the top level of
// the parenthesis opening at toks[open], or -1.
func topLevelWord(toks []Token, open int, word string) int {
	k := ClosingParen(toks, open)
	if k < 0 {
		return -1
	}
	at := -1
	EachTopLevelWord(toks[open+1:k], func(x int, t Token) bool {
		if t.Is(word) {
			at = open + 1 + x
			return false
		}
		return true
	})
	return at
}

// positionIn returns the index of the IN at the top level of the
// parenthesis opening at toks[open] (position(x IN y)), or -1.
func positionIn(toks []Token, open int) int { return topLevelWord(toks, open, "in") }

// Unmark turns the marker calls of the rewrite in formatted text (the
// parser's text of an expression, which names a result column) back into
// the SQL they stand for: window calls, TRY_CAST, x[i], lambdas, ORDER BY
// items and their directions, list literals and the operators the parser
// spells otherwise. __carquet_window__('sum', x, '|p', a, '|o', b,
// '|desc', '|f:rows:-1:c') reads sum(x) OVER (PARTITION BY a ORDER BY b
// DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW).
func Unmark(s string) string {
	s = unmarkAggOrder(s)
	s = unmarkOperators(s)
	for {
		if i := callOutsideQuotes(s, IndexMarker); i >= 0 {
			// x[i]
			args, end := SplitCallArgs(s, i+len(IndexMarker)+1)
			if end < 0 || len(args) != 2 {
				return s
			}
			s = s[:i] + args[0] + "[" + args[1] + "]" + s[end:]
			continue
		}
		if i := callOutsideQuotes(s, LambdaMarker); i >= 0 {
			args, end := SplitCallArgs(s, i+len(LambdaMarker)+1)
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
			args, end := SplitCallArgs(s, i+len(m)+1)
			if end < 0 || len(args) != 1 {
				return s
			}
			s = s[:i] + args[0] + s[end:]
			continue
		}
		if i := callOutsideQuotes(s, ContainedMarker); i >= 0 {
			args, end := SplitCallArgs(s, i+len(ContainedMarker)+1)
			if end < 0 || len(args) != 2 {
				return s
			}
			s = s[:i] + args[0] + " <@ " + args[1] + s[end:]
			continue
		}
		if i := callOutsideQuotes(s, TryMarker); i >= 0 {
			args, end := SplitCallArgs(s, i+len(TryMarker)+1)
			if end < 0 || len(args) != 1 {
				return s
			}
			s = s[:i] + "TRY_" + args[0] + s[end:]
			continue
		}
		i := callOutsideQuotes(s, WindowMarker)
		if i < 0 {
			break
		}
		args, end := SplitCallArgs(s, i+len(WindowMarker)+1)
		if end < 0 || len(args) == 0 {
			return s
		}
		s = s[:i] + windowCallText(args) + s[end:]
	}
	s = unmarkLiterals(s)
	// [a, b] as written, last: SplitCallArgs splits at commas in brackets.
	for {
		i := callOutsideQuotes(s, "list_value")
		if i < 0 {
			return s
		}
		args, end := SplitCallArgs(s, i+len("list_value("))
		if end < 0 {
			return s
		}
		s = s[:i] + "[" + strings.Join(args, ", ") + "]" + s[end:]
	}
}

// unmarkLiterals writes struct and map literals back as written: {'a':
// 1} and MAP {'k': 1} (before the lists, whose commas SplitCallArgs does
// not see inside brackets; a list's own split only joins its parts again).
func unmarkLiterals(s string) string {
	for _, m := range []struct{ marker, open string }{{StructMarker, "{"}, {MapMarker, "MAP {"}} {
		for {
			i := callOutsideQuotes(s, m.marker)
			if i < 0 {
				break
			}
			args, end := SplitCallArgs(s, i+len(m.marker)+1)
			if len(args) == 1 && args[0] == "" {
				args = nil // MAP {}
			}
			if end < 0 || len(args)%2 != 0 {
				return s
			}
			pairs := make([]string, 0, len(args)/2)
			for k := 0; k+1 < len(args); k += 2 {
				pairs = append(pairs, args[k]+": "+args[k+1])
			}
			s = s[:i] + m.open + strings.Join(pairs, ", ") + "}" + s[end:]
		}
	}
	return s
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
			if strings.HasPrefix(s[j:], call) && (j == 0 || !IsIdentByte(s[j-1])) {
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
		case strings.HasPrefix(rest, "substring_fn(") && (j == 0 || !IsIdentByte(s[j-1])):
			b.WriteString("substring(")
			j += len("substring_fn(") - 1
		case strings.HasPrefix(rest, " regexp "):
			b.WriteString(" ILIKE ")
			j += len(" regexp ") - 1
		case strings.HasPrefix(rest, "like "+GlobMarker+"(") || strings.HasPrefix(rest, "like "+SimilarMarker+"("):
			op, open := "GLOB ", len("like "+GlobMarker+"(")
			if strings.HasPrefix(rest, "like "+SimilarMarker) {
				op, open = "SIMILAR TO ", len("like "+SimilarMarker+"(")
			}
			args, end := SplitCallArgs(s, j+open)
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

// SplitCallArgs splits the arguments of a call whose '(' ends before s[from]
// at top-level commas, and returns them with the index after the ')'
// (-1 if there is none).
func SplitCallArgs(s string, from int) ([]string, int) {
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

// EachTopLevelWord calls f with each identifier of toks outside
// parentheses, and its index, until f returns false.
func EachTopLevelWord(toks []Token, f func(x int, t Token) bool) {
	depth := 0
	for x, t := range toks {
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			depth--
		case depth == 0 && t.Kind == Ident:
			if !f(x, t) {
				return
			}
		}
	}
}

// IsClauseWord reports whether w (any case) starts a clause or a join,
// so that it cannot be a name after a table.
func IsClauseWord(w string) bool {
	switch strings.ToLower(w) {
	case "where", "group", "having", "order", "limit", "union", "on", "using", "join", "left", "right", "inner", "cross",
		"natural", "straight_join", "full", "outer", "offset", "intersect", "except", "window", "qualify":
		return true
	}
	return false
}

package parse

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/errs"
)

// Window functions, WITHIN GROUP, FILTER and ordered aggregates in the
// rewrite layer: OVER clauses and frames become marker calls the binder reads
// back (window.go, aggorder.go).

// aggFilter rewrites the aggregate call that ends r.out, followed by
// FILTER (WHERE cond) at toks[*i], into agg(CASE WHEN cond THEN arg END);
// count(*) becomes count(CASE WHEN cond THEN 1 END).
func (r *rewriter) aggFilter(src string, toks []Token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" {
		return ErrAt(src, t.Pos, "FILTER must follow an aggregate call")
	}
	// The condition: tokens after WHERE up to the matching ')'.
	j := *i + 3
	k := ClosingParen(toks, *i+1)
	if k < 0 {
		return ErrAt(src, t.Pos, "unterminated FILTER (WHERE ...)")
	}
	sub, err := Rewrite(src, toks[j:k], r.cast)
	if err != nil {
		return err
	}
	call := r.out[start:]
	args := call[2 : len(call)-1]
	if len(args) == 0 {
		return ErrAt(src, t.Pos, "FILTER must follow an aggregate call with an argument")
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
	// ORDER BY keys after AggOrderMarker stay. list and array_agg keep
	// NULLs: their values go in one-element lists, flattened after.
	fn := strings.ToLower(call[0].text)
	keepsNulls := (fn == "list" || fn == "array_agg") && len(distinct) == 0
	marker := mysqlString(AggOrderMarker)
	rebuilt := append([]otok(nil), call[:2]...)
	rebuilt = append(rebuilt, distinct...)
	ordered := false
	for n, arg := range splitOtoks(args) {
		if n > 0 {
			rebuilt = append(rebuilt, otok{text: ",", orig: t.Pos})
		}
		ordered = ordered || len(arg) > 0 && arg[0].text == marker
		if ordered || n > 0 && len(arg) == 1 && isLiteralText(arg[0].text) {
			rebuilt = append(rebuilt, arg...)
			continue
		}
		rebuilt = append(rebuilt, otok{text: "case when", orig: t.Pos, origLen: len(t.Text)})
		rebuilt = append(rebuilt, sub.segs...)
		rebuilt = append(rebuilt, otok{text: "then", orig: t.Pos})
		if keepsNulls {
			rebuilt = append(rebuilt, otok{text: "list_value(", orig: t.Pos})
			rebuilt = append(rebuilt, arg...)
			rebuilt = append(rebuilt, otok{text: ")", orig: t.Pos})
		} else {
			rebuilt = append(rebuilt, arg...)
		}
		rebuilt = append(rebuilt, otok{text: "end", orig: t.Pos})
	}
	rebuilt = append(rebuilt, call[len(call)-1])
	if keepsNulls {
		rebuilt = append(append([]otok{{text: "flatten(", orig: t.Pos}}, rebuilt...), otok{text: ")", orig: t.Pos})
	}
	r.out = append(r.out[:start], rebuilt...)
	*i = k
	return nil
}

// WindowMarker names the call a window function with its OVER clause
// becomes (window).
const WindowMarker = "__carquet_window__"

// DistinctSuffix marks, on the name in a WindowMarker call, an
// aggregate of DISTINCT values.
const DistinctSuffix = "|distinct"

// IgnoreNullsSuffix marks, on the name in a WindowMarker call, IGNORE
// NULLS.
const IgnoreNullsSuffix = "|ignorenulls"

// QualifyMarker wraps the QUALIFY condition, carried in the HAVING clause
// (the parser knows no QUALIFY) and taken out of it by the planner.
const QualifyMarker = "__carquet_qualify__"

// window rewrites fn(args) OVER (PARTITION BY p ORDER BY o [DESC]) at
// toks[*i] into a call the parser accepts:
// __carquet_window__('fn', args, '|p', p..., '|o', o, '|asc'|'|desc', ...)
// (with 'nf' after asc or desc for NULLS FIRST).
func (r *rewriter) window(src string, toks []Token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" || !isWord(r.out[start].text) {
		return ErrAt(src, t.Pos, "OVER must follow a function call")
	}
	call := r.out[start:]
	name := strings.ToLower(call[0].text)
	args := call[2 : len(call)-1]
	if len(args) > 0 && strings.EqualFold(args[0].text, "distinct") {
		// agg(DISTINCT x) OVER (...): the name carries it (bindWindow).
		name, args = name+DistinctSuffix, args[1:]
	}
	if n := len(args); n >= 2 && strings.EqualFold(args[n-1].text, "nulls") {
		// f(x IGNORE NULLS) OVER (...) likewise; RESPECT NULLS is the
		// default.
		switch {
		case strings.EqualFold(args[n-2].text, "ignore"):
			name, args = name+IgnoreNullsSuffix, args[:n-2]
		case strings.EqualFold(args[n-2].text, "respect"):
			args = args[:n-2]
		}
	}
	// The window specification, up to the matching ')'.
	j := *i + 2
	k := ClosingParen(toks, *i+1)
	if k < 0 {
		return ErrAt(src, t.Pos, "unterminated OVER (...)")
	}
	spec := toks[j:k]
	var part, order []Token
	x := 0
	if x+1 < len(spec) && spec[x].Is("partition") && spec[x+1].Is("by") {
		x += 2
		from := x
		for x < len(spec) && !(spec[x].Is("order") && x+1 < len(spec) && spec[x+1].Is("by")) && !spec[x].Is("rows") && !spec[x].Is("range") && !spec[x].Is("groups") && !isExcludeClause(spec[x:]) {
			x++
		}
		part = spec[from:x]
	}
	if x+1 < len(spec) && spec[x].Is("order") && spec[x+1].Is("by") {
		x += 2
		from := x
		for x < len(spec) && !spec[x].Is("rows") && !spec[x].Is("range") && !spec[x].Is("groups") && !isExcludeClause(spec[x:]) {
			x++
		}
		order = spec[from:x]
	}
	var frame string
	var offsets [][]Token
	if x < len(spec) && isExcludeClause(spec[x:]) {
		// As DuckDB: EXCLUDE belongs to a frame clause.
		return ErrAt(src, spec[x].Pos, "EXCLUDE needs a ROWS, RANGE or GROUPS frame before it")
	}
	if x < len(spec) {
		var err error
		if frame, offsets, err = windowFrame(src, spec[x:]); err != nil {
			return err
		}
	}
	out := []otok{{text: WindowMarker, orig: call[0].orig, origLen: call[0].origLen}, {text: "(", orig: t.Pos}, {text: mysqlString(name), orig: call[0].orig}}
	if len(args) > 0 {
		out = append(out, otok{text: ",", orig: t.Pos})
		out = append(out, args...)
	}
	if len(part) > 0 {
		items, err := listTokens(src, r.cast, SplitList(part), "|p", false, t.Pos)
		if err != nil {
			return err
		}
		out = append(out, items...)
	}
	if len(order) > 0 {
		items, err := listTokens(src, r.cast, SplitList(order), "|o", true, t.Pos)
		if err != nil {
			return err
		}
		out = append(out, items...)
	}
	if frame != "" {
		out = append(out, otok{text: ",", orig: t.Pos}, otok{text: mysqlString(frame), orig: t.Pos})
	}
	for _, off := range offsets {
		// A RANGE offset follows the frame, after '|fo'.
		sub, err := Rewrite(src, off, r.cast)
		if err != nil {
			return err
		}
		out = append(out, otok{text: ",", orig: t.Pos}, otok{text: mysqlString("|fo"), orig: t.Pos}, otok{text: ",", orig: t.Pos})
		out = append(out, sub.segs...)
	}
	out = append(out, otok{text: ")", orig: toks[k].Pos, origLen: 1})
	r.out = append(r.out[:start], out...)
	*i = k
	return nil
}

// inlineWindows takes out the WINDOW clauses (WINDOW w AS (spec), ...)
// and writes each OVER w as OVER (spec), and OVER (w more) as OVER (spec
// more). The names are the statement's: a name defined twice must be
// defined the same way.
func inlineWindows(src string, toks []Token) ([]Token, error) {
	defs := map[string][]Token{}
	var out []Token
	for i := 0; i < len(toks); i++ {
		if !toks[i].Is("window") || i+3 >= len(toks) || toks[i+1].Kind != Ident || !toks[i+2].Is("as") {
			out = append(out, toks[i])
			continue
		}
		j := i + 1
		for {
			if j+2 >= len(toks) || toks[j].Kind != Ident || !toks[j+1].Is("as") || toks[j+2].Kind != Op || toks[j+2].Text != "(" {
				return nil, ErrAt(src, toks[j-1].Pos, "WINDOW takes name AS (PARTITION BY ... ORDER BY ...)")
			}
			k := ClosingParen(toks, j+2)
			if k < 0 {
				return nil, ErrAt(src, toks[j+2].Pos, "unterminated WINDOW definition")
			}
			name := strings.ToLower(toks[j].Text)
			def := toks[j+3 : k]
			if old, ok := defs[name]; ok && !sameTokens(old, def) {
				return nil, ErrAt(src, toks[j].Pos, "window %q is defined twice", toks[j].Text)
			}
			defs[name] = def
			j = k + 1
			if j+1 < len(toks) && toks[j].Kind == Op && toks[j].Text == "," && toks[j+1].Kind == Ident && j+2 < len(toks) && toks[j+2].Is("as") {
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
	var res []Token
	for i := 0; i < len(out); i++ {
		t := out[i]
		res = append(res, t)
		if !t.Is("over") || i+1 >= len(out) {
			continue
		}
		switch next := out[i+1]; {
		case next.Kind == Ident:
			def, ok := defs[strings.ToLower(next.Text)]
			if !ok {
				return nil, ErrAt(src, next.Pos, "window %q is not defined", next.Text)
			}
			res = append(res, Token{Kind: Op, Text: "(", Pos: next.Pos})
			res = append(res, def...)
			res = append(res, Token{Kind: Op, Text: ")", Pos: next.Pos})
			i++
		case next.Kind == Op && next.Text == "(" && i+2 < len(out) && out[i+2].Kind == Ident:
			// OVER (w ORDER BY ...): the named window, then the rest.
			if def, ok := defs[strings.ToLower(out[i+2].Text)]; ok {
				res = append(res, next)
				res = append(res, def...)
				i += 2
			}
		}
	}
	return res, nil
}

// unmarkAggOrder writes agg(x, '__carquet_order__', k, '|desc') back as
// agg(x ORDER BY k DESC).
func unmarkAggOrder(s string) string {
	m := ", " + mysqlString(AggOrderMarker)
	for {
		i := strings.Index(s, m)
		if i < 0 {
			return s
		}
		// The keys run to the ')' closing the call.
		parts, end := SplitCallArgs(s, i+len(m)+1)
		if end < 0 {
			return s
		}
		var items []string
		for _, part := range parts {
			if d, ok := ParseOrderDir(strings.Trim(part, "'")); ok && len(items) > 0 {
				items[len(items)-1] += d.Text()
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

// AggOrderMarker starts the ORDER BY items of an aggregate call:
// agg(x ORDER BY k DESC) is agg(x, '__carquet_order__', k, '|desc').
const AggOrderMarker = "__carquet_order__"

// NullsFirstMarker, NullsLastMarker and AscMarker wrap an ORDER BY item
// written with NULLS FIRST, NULLS LAST and ASC (orderItem).
const (
	NullsFirstMarker = "__carquet_nulls_first__"
	NullsLastMarker  = "__carquet_nulls_last__"
	AscMarker        = "__carquet_asc__"
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

// orderByTokens returns the items of an ORDER BY whose first item starts
// ts: up to LIMIT, OFFSET, a set operation, ';' or the ')' that closes the
// enclosing parenthesis.
func orderByTokens(ts []Token) []Token {
	depth := 0
	for k, t := range ts {
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			if depth == 0 {
				return ts[:k]
			}
			depth--
		case depth == 0 && (t.Kind == Op && t.Text == ";" || t.Is("limit") || t.Is("offset") || t.Is("union") || t.Is("except") || t.Is("intersect")):
			return ts[:k]
		}
	}
	return ts
}

// distinctOnTokens builds QUALIFY row_number() OVER (PARTITION BY keys
// [ORDER BY order]) = 1, the filter DISTINCT ON (keys) stands for: the
// first row of each key in the query's order. ORDER BY positions become
// the select items they name (items): inside OVER they would be
// constants.
func distinctOnTokens(src string, keys []Token, pos int, order []Token, items [][]Token) ([]Token, error) {
	var err error
	if order, err = positionsToItems(src, order, items); err != nil {
		return nil, err
	}
	id := func(s string) Token { return Token{Kind: Ident, Text: s, Pos: pos} }
	op := func(s string) Token { return Token{Kind: Op, Text: s, Pos: pos} }
	out := []Token{id("qualify"), id("row_number"), op("("), op(")"), id("over"), op("("), id("partition"), id("by")}
	out = append(out, keys...)
	if len(order) > 0 {
		out = append(out, id("order"), id("by"))
		out = append(out, order...)
	}
	return append(out, op(")"), op("="), Token{Kind: Number, Text: "1", Pos: pos}), nil
}

// withinGroup rewrites the ordered-set aggregates percentile_cont(f),
// percentile_disc(f) and mode() followed by WITHIN GROUP (ORDER BY x) at
// toks[*i] into quantile_cont(x, f), quantile_disc(x, f) and mode(x).
func (r *rewriter) withinGroup(src string, toks []Token, i *int) error {
	t := toks[*i]
	start := operandStart(r.out)
	if start < 0 || start+2 >= len(r.out) || r.out[start+1].text != "(" || !isWord(r.out[start].text) {
		return ErrAt(src, t.Pos, "WITHIN GROUP must follow an aggregate call")
	}
	call := r.out[start:]
	name := strings.ToLower(call[0].text)
	args := append([]otok(nil), call[2:len(call)-1]...)
	fn := map[string]string{"percentile_cont": "quantile_cont", "percentile_disc": "quantile_disc", "mode": "mode"}[name]
	if fn == "" {
		e := ErrAt(src, t.Pos, "WITHIN GROUP is not supported for %s (only percentile_cont, percentile_disc and mode)", name)
		e.Err = errs.ErrUnsupported
		return e
	}
	j := *i + 2
	if j+2 >= len(toks) || !(toks[j].Kind == Op && toks[j].Text == "(") || !toks[j+1].Is("order") || !toks[j+2].Is("by") {
		return ErrAt(src, t.Pos, "expected WITHIN GROUP (ORDER BY ...)")
	}
	k := ClosingParen(toks, j)
	if k < 0 {
		return ErrAt(src, t.Pos, "unterminated WITHIN GROUP (...)")
	}
	order := toks[j+3 : k]
	desc := false
	if n := len(order); n > 0 && order[n-1].Is("asc") {
		order = order[:n-1]
	} else if n > 0 && order[n-1].Is("desc") {
		order, desc = order[:n-1], fn != "mode"
	}
	if len(order) == 0 {
		return ErrAt(src, t.Pos, "expected WITHIN GROUP (ORDER BY ...)")
	}
	sub, err := Rewrite(src, order, r.cast)
	if err != nil {
		return err
	}
	out := []otok{{text: fn, orig: call[0].orig, origLen: call[0].origLen}, {text: "(", orig: t.Pos}}
	out = append(out, sub.segs...)
	if len(args) > 0 {
		out = append(out, otok{text: ",", orig: t.Pos})
		out = append(out, args...)
	}
	if desc {
		// quantile_cont(x, q, DescMarker): ranked in descending order.
		out = append(out, otok{text: ",", orig: t.Pos}, otok{text: mysqlString(DescMarker), orig: t.Pos})
	}
	out = append(out, otok{text: ")", orig: toks[k].Pos, origLen: 1})
	r.out = append(r.out[:start], out...)
	*i = k
	return nil
}

// windowFrame reads a frame clause — ROWS, RANGE or GROUPS, BETWEEN bound
// AND bound or a single start bound (ending at CURRENT ROW) — and encodes
// it for bindWindow as "|f:MODE:START:END" (MODE rows, range or groups).
// A bound is u (UNBOUNDED), c (CURRENT ROW) or a signed offset in rows or
// peer groups (n PRECEDING is -n, n FOLLOWING is n); a RANGE bound with a
// value offset (a number, an INTERVAL, any constant expression) is v-
// (PRECEDING) or v+ (FOLLOWING), its expression returned in offsets.
// An EXCLUDE clause adds a fifth part (frameExclude).
func windowFrame(src string, ts []Token) (frame string, offsets [][]Token, err error) {
	mode := strings.ToLower(ts[0].Text)
	x := 1
	// bound reads one frame bound at ts[x]; which is "start" or "end".
	bound := func(which string) (string, error) {
		if x >= len(ts) {
			return "", ErrAt(src, ts[len(ts)-1].Pos, "incomplete window frame")
		}
		t := ts[x]
		switch {
		case t.Is("unbounded") && x+1 < len(ts) && (ts[x+1].Is("preceding") || ts[x+1].Is("following")):
			x += 2
			if ts[x-1].Is("preceding") != (which == "start") {
				return "", ErrAt(src, t.Pos, "a window frame cannot %s at UNBOUNDED %s", which, strings.ToUpper(ts[x-1].Text))
			}
			return "u", nil
		case t.Is("current") && x+1 < len(ts) && ts[x+1].Is("row"):
			x += 2
			return "c", nil
		case mode == "range":
			// A value offset: the expression up to PRECEDING or FOLLOWING.
			end, depth := x, 0
			for ; end < len(ts); end++ {
				if ts[end].Kind == Op && ts[end].Text == "(" {
					depth++
				} else if ts[end].Kind == Op && ts[end].Text == ")" {
					depth--
				} else if depth == 0 && (ts[end].Is("preceding") || ts[end].Is("following")) {
					break
				}
			}
			if end == x || end >= len(ts) {
				break
			}
			offsets = append(offsets, ts[x:end])
			x = end + 1
			if ts[end].Is("preceding") {
				return "v-", nil
			}
			return "v+", nil
		case t.Kind == Number && x+1 < len(ts) && (ts[x+1].Is("preceding") || ts[x+1].Is("following")):
			n, err := strconv.ParseInt(t.Text, 10, 64)
			if err != nil || n < 0 {
				return "", ErrAt(src, t.Pos, "a window frame offset must be a non-negative integer, not %s", t.Text)
			}
			x += 2
			if ts[x-1].Is("preceding") {
				// "-0" for 0 PRECEDING: it is a preceding bound for the
				// checks below (0 PRECEDING AND 2 PRECEDING is an empty
				// frame, not an error).
				return "-" + strconv.FormatInt(n, 10), nil
			}
			return strconv.FormatInt(n, 10), nil
		}
		return "", ErrAt(src, t.Pos, "bad window frame bound near %q", t.Text)
	}
	var start, end string
	if x < len(ts) && ts[x].Is("between") {
		x++
		if start, err = bound("start"); err != nil {
			return "", nil, err
		}
		if x >= len(ts) || !ts[x].Is("and") {
			return "", nil, ErrAt(src, ts[min(x, len(ts)-1)].Pos, "expected AND in the window frame")
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
		return "", nil, ErrAt(src, ts[0].Pos, "a window frame starting from current row cannot have preceding rows")
	case following(start) && (preceding(end) || end == "c"):
		return "", nil, ErrAt(src, ts[0].Pos, "a window frame starting from following rows cannot end at the current row or preceding rows")
	}
	exclude, err := frameExclude(src, ts[x:])
	if err != nil {
		return "", nil, err
	}
	return "|f:" + mode + ":" + start + ":" + end + exclude, offsets, nil
}

// isExcludeClause: ts starts with EXCLUDE CURRENT, GROUP, TIES or NO.
func isExcludeClause(ts []Token) bool {
	return len(ts) > 1 && ts[0].Is("exclude") && (ts[1].Is("current") || ts[1].Is("group") || ts[1].Is("ties") || ts[1].Is("no"))
}

// frameExclude reads what may follow a frame's bounds: EXCLUDE CURRENT ROW,
// GROUP, TIES or NO OTHERS, encoded as the frame marker's fifth part
// (":c", ":g", ":t"; nothing for NO OTHERS, which excludes nothing).
func frameExclude(src string, ts []Token) (string, error) {
	if len(ts) == 0 {
		return "", nil
	}
	if !ts[0].Is("exclude") {
		return "", ErrAt(src, ts[0].Pos, "unexpected %q after the window frame", ts[0].Text)
	}
	var code string
	n := 2
	switch {
	case len(ts) >= 3 && ts[1].Is("current") && ts[2].Is("row"):
		code, n = ":c", 3
	case len(ts) >= 2 && ts[1].Is("group"):
		code = ":g"
	case len(ts) >= 2 && ts[1].Is("ties"):
		code = ":t"
	case len(ts) >= 3 && ts[1].Is("no") && ts[2].Is("others"):
		n = 3
	default:
		return "", ErrAt(src, ts[0].Pos, "EXCLUDE takes CURRENT ROW, GROUP, TIES or NO OTHERS")
	}
	if n < len(ts) {
		return "", ErrAt(src, ts[n].Pos, "unexpected %q after the window frame", ts[n].Text)
	}
	return code, nil
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
			if d, _ := ParseOrderDir(m); len(order) > 0 {
				order[len(order)-1] += d.Text()
			}
		case strings.HasPrefix(m, "|f:"):
			frame = frameText(m)
		default:
			switch a = Unmark(a); mode {
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

// frameText renders windowFrame's "|f:MODE:START:END[:EXCLUDE]" as SQL.
func frameText(m string) string {
	parts := strings.Split(m, ":")
	if len(parts) != 4 && len(parts) != 5 {
		return ""
	}
	exclude := ""
	if len(parts) == 5 {
		exclude = map[string]string{"c": " EXCLUDE CURRENT ROW", "g": " EXCLUDE GROUP", "t": " EXCLUDE TIES"}[parts[4]]
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
	return strings.ToUpper(parts[1]) + " BETWEEN " + bound(parts[2], true) + " AND " + bound(parts[3], false) + exclude
}

// orderMarkerCall finds the first call of an ORDER BY item's marker in
// s outside quotes: its index and the marker (-1 if none).
func orderMarkerCall(s string) (int, string) {
	best, which := -1, ""
	for _, m := range []string{NullsFirstMarker, NullsLastMarker, AscMarker} {
		if i := callOutsideQuotes(s, m); i >= 0 && (best < 0 || i < best) {
			best, which = i, m
		}
	}
	return best, which
}

// OrderDir is the direction and NULL placement of a window's or an
// aggregate's ORDER BY item as the rewrite passes it (listTokens), in a
// string argument after the item: '|asc', '|desc' or '|dft' (none
// written), then 'nf' (NULLS FIRST), 'nl' (NULLS LAST) or nothing.
type OrderDir struct {
	// Dir is 1 for ASC, -1 for DESC, 0 when none is written.
	Dir int8
	// Nulls is 1 for NULLS FIRST, -1 for NULLS LAST, 0 when none is written.
	Nulls int8
}

func isDirMarker(m string) bool { _, ok := ParseOrderDir(m); return ok }

// ParseOrderDir reads the marker m (without its quotes); false when m
// is not one.
func ParseOrderDir(m string) (OrderDir, bool) {
	var d OrderDir
	rest, ok := strings.CutPrefix(m, "|")
	if !ok {
		return d, false
	}
	switch {
	case strings.HasPrefix(rest, "asc"):
		d.Dir, rest = 1, rest[3:]
	case strings.HasPrefix(rest, "desc"):
		d.Dir, rest = -1, rest[4:]
	case strings.HasPrefix(rest, "dft"):
		rest = rest[3:]
	default:
		return d, false
	}
	switch rest {
	case "nf":
		d.Nulls = 1
	case "nl":
		d.Nulls = -1
	case "":
	default:
		return d, false
	}
	return d, true
}

// Text is the marker as SQL written after the item (" DESC NULLS FIRST").
func (d OrderDir) Text() string {
	s := ""
	switch d.Dir {
	case 1:
		s = " ASC"
	case -1:
		s = " DESC"
	}
	switch d.Nulls {
	case 1:
		s += " NULLS FIRST"
	case -1:
		s += " NULLS LAST"
	}
	return s
}

// positionsToItems replaces each ORDER BY item of order that is a
// position (a number alone) by the select item it names, in parentheses.
func positionsToItems(src string, order []Token, items [][]Token) ([]Token, error) {
	var out []Token
	depth := 0
	for k := 0; k < len(order); k++ {
		t := order[k]
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			depth--
		}
		itemStart := k == 0 || depth == 0 && order[k-1].Kind == Op && order[k-1].Text == ","
		itemEnd := k+1 == len(order) || order[k+1].Kind == Op && order[k+1].Text == "," ||
			order[k+1].Is("asc") || order[k+1].Is("desc") || order[k+1].Is("nulls")
		if t.Kind != Number || !itemStart || !itemEnd {
			out = append(out, t)
			continue
		}
		n, err := strconv.Atoi(t.Text)
		if err != nil || n < 1 || n > len(items) || len(items[n-1]) == 0 || len(items[n-1]) == 1 && items[n-1][0].Text == "*" {
			return nil, UnsupportedAt(src, t.Pos, "DISTINCT ON with ORDER BY position "+t.Text)
		}
		out = append(out, Token{Kind: Op, Text: "(", Pos: t.Pos})
		out = append(out, items[n-1]...)
		out = append(out, Token{Kind: Op, Text: ")", Pos: t.Pos})
	}
	return out, nil
}

// selectItems splits the select list that starts at toks[from] (up to
// its FROM, or the end of its SELECT) into its items, without their
// aliases.
func selectItems(toks []Token, from int) [][]Token {
	var items [][]Token
	depth, start := 0, from
	cut := func(end int) {
		item := toks[start:end]
		if n := len(item); n >= 2 && item[n-2].Is("as") {
			item = item[:n-2]
		} else if n >= 2 && (item[n-1].Kind == Ident || item[n-1].Kind == DQuoted) && !item[n-1].Is("end") && endsOperand(item[n-2]) {
			item = item[:n-1] // an alias without AS
		}
		items = append(items, append([]Token(nil), item...))
	}
	for j := from; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.Kind == Op && t.Text == "(":
			depth++
		case t.Kind == Op && t.Text == ")":
			if depth == 0 {
				cut(j)
				return items
			}
			depth--
		case depth == 0 && t.Kind == Op && t.Text == ",":
			cut(j)
			start = j + 1
		case depth == 0 && (t.Is("from") || t.Kind == Op && t.Text == ";"):
			cut(j)
			return items
		}
	}
	cut(len(toks))
	return items
}

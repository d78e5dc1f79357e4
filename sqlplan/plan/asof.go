package plan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// ASOF and POSITIONAL joins (DuckDB's).
//
// The parser knows neither: asofJoins rewrites, on tokens,
//
//	a ASOF [INNER | LEFT [OUTER]] JOIN b ON cond   -> a [LEFT] JOIN b ON asofMarker(cond)
//	a ASOF [INNER | LEFT [OUTER]] JOIN b USING (k, t) -> a [LEFT] JOIN b ON asofUsingMarker(k, t)
//	a POSITIONAL JOIN b                    -> a JOIN b ON positionalMarker()
//
// (ASOF RIGHT and FULL joins are JOINs whose marker names end in _right__
// or _full__.)
//
// and tableExpr reads the markers back into joinStep.asof and
// joinStep.positional. The planner splits an ASOF condition into equality
// keys and one inequality (asofKeys) and runs it as an exec.AsofJoin: the
// right side sorted by (key group, inequality value), each left row's
// match found by a binary search within its group, O((n + m) log m). A
// POSITIONAL join is an exec.PositionalJoin, which pairs rows by their
// place.
const (
	asofMarker       = "__carquet_asof__"
	asofUsingMarker  = "__carquet_asof_using__"
	positionalMarker = "__carquet_positional__"
)

// joinEnds are the words that end a FROM item or a join condition.
var joinEnds = map[string]bool{"where": true, "group": true, "having": true, "qualify": true, "window": true, "order": true,
	"limit": true, "offset": true, "union": true, "except": true, "intersect": true, "join": true, "left": true,
	"right": true, "inner": true, "full": true, "cross": true, "natural": true, "semi": true, "anti": true, "asof": true,
	"positional": true, "straight_join": true, "returning": true, "fetch": true}

// joinItemEnd is the index, from toks[from] on, of the first token that
// ends the FROM item or condition starting there: a word of joinEnds (not
// a function call), ',' or ';' outside parentheses, an unmatched ')', or
// (stop) ON or USING.
func joinItemEnd(toks []parse.Token, from int, stopOnUsing bool) int {
	depth := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == parse.Op && t.Text == "(":
			depth++
		case t.Kind == parse.Op && t.Text == ")":
			if depth == 0 {
				return i
			}
			depth--
		case depth > 0:
		case t.Kind == parse.Op && (t.Text == "," || t.Text == ";"):
			return i
		case t.Kind == parse.Ident && joinEnds[strings.ToLower(t.Text)] && !(i+1 < len(toks) && toks[i+1].Kind == parse.Op && toks[i+1].Text == "(") &&
			!(i > 0 && toks[i-1].Kind == parse.Op && toks[i-1].Text == "."):
			return i
		case stopOnUsing && (t.Is("on") || t.Is("using")):
			return i
		}
	}
	return len(toks)
}

// AsofJoins rewrites ASOF and POSITIONAL joins into joins the parser
// takes, with markers its planner reads back (see above). Forms it does
// not know are left for the rewrite to refuse.
func AsofJoins(src string, toks []parse.Token) ([]parse.Token, error) {
	at := func(i int) parse.Token {
		if i < len(toks) {
			return toks[i]
		}
		return parse.Token{}
	}
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if !t.Is("asof") && !t.Is("positional") || toks[i-1].Kind == parse.Op && toks[i-1].Text == "." {
			continue
		}
		j, left, suffix := i+1, false, "__"
		if t.Is("asof") {
			switch w := strings.ToLower(at(j).Text); {
			case at(j).Kind != parse.Ident:
			case w == "inner":
				j++
			case w == "left" || w == "right" || w == "full":
				left, j = w == "left", j+1
				if w != "left" {
					suffix = "_" + w + "__"
				}
				if at(j).Is("outer") {
					j++
				}
			}
		}
		if !at(j).Is("join") {
			continue
		}
		pos := t.Pos
		id := func(w string) parse.Token { return parse.Token{Kind: parse.Ident, Text: w, Pos: pos} }
		op := func(o string) parse.Token { return parse.Token{Kind: parse.Op, Text: o, Pos: pos} }
		head := []parse.Token{id("join")}
		if left {
			head = []parse.Token{id("left"), id("join")}
		}
		if t.Is("positional") {
			end := joinItemEnd(toks, j+1, false)
			if end == j+1 {
				return nil, errAt(src, pos, "POSITIONAL JOIN needs a table after it")
			}
			out := append(append([]parse.Token(nil), toks[:i]...), head...)
			out = append(out, toks[j+1:end]...)
			out = append(out, id("on"), id(positionalMarker), op("("), op(")"))
			toks = append(out, toks[end:]...)
			continue
		}
		k := joinItemEnd(toks, j+1, true)
		if k == len(toks) || !toks[k].Is("on") && !toks[k].Is("using") {
			return nil, errAt(src, pos, "ASOF JOIN needs an ON or USING condition")
		}
		out := append(append([]parse.Token(nil), toks[:i]...), head...)
		out = append(out, toks[j+1:k]...)
		if toks[k].Is("using") {
			if nx := at(k + 1); nx.Kind != parse.Op || nx.Text != "(" {
				return nil, errAt(src, toks[k].Pos, "USING takes a list of columns in parentheses")
			}
			out = append(out, parse.Token{Kind: parse.Ident, Text: "on", Pos: toks[k].Pos}, parse.Token{Kind: parse.Ident, Text: strings.TrimSuffix(asofUsingMarker, "__") + suffix, Pos: toks[k].Pos})
			toks = append(out, toks[k+1:]...)
			continue
		}
		end := joinItemEnd(toks, k+1, false)
		if end == k+1 {
			return nil, errAt(src, toks[k].Pos, "ON needs a condition")
		}
		out = append(out, toks[k], parse.Token{Kind: parse.Ident, Text: strings.TrimSuffix(asofMarker, "__") + suffix, Pos: toks[k].Pos}, parse.Token{Kind: parse.Op, Text: "(", Pos: toks[k].Pos})
		out = append(out, toks[k+1:end]...)
		out = append(out, parse.Token{Kind: parse.Op, Text: ")", Pos: toks[end-1].Pos})
		toks = append(out, toks[end:]...)
	}
	return toks, nil
}

// asofKeys splits the conjuncts of an ASOF join's condition into the
// equality keys and the one inequality, with the left side's operand
// first (l op r: l reads the relations before the join, r the joined
// one).
func (p *Planner) asofKeys(rel *Relation, on []Expr, j *joinKeys) error {
	onlyRight := func(e Expr) bool { rs := relsOf(e); return len(rs) == 1 && rs[rel] }
	onlyLeft := func(e Expr) bool { rs := relsOf(e); return len(rs) > 0 && !rs[rel] }
	for _, c := range on {
		e, ok := c.(*cmpExpr)
		if !ok {
			return errorf("ASOF JOIN conditions must be equalities and one inequality (>=, >, <=, <) between the two sides, not %s", c)
		}
		l, r, op := e.l, e.r, e.op
		switch {
		case onlyLeft(l) && onlyRight(r):
		case onlyRight(l) && onlyLeft(r):
			l, r, op = r, l, flipCmp(op)
		default:
			return errorf("ASOF JOIN conditions must compare the two sides, not %s", c)
		}
		switch op {
		case opEq:
			j.lkeys, j.rkeys = append(j.lkeys, l), append(j.rkeys, r)
		case opGe, opGt, opLe, opLt:
			if j.asofL != nil {
				return errorf("ASOF JOIN takes one inequality, not %s and %s", j.asofText, c)
			}
			j.asofL, j.asofR, j.asofOp, j.asofText = l, r, op, c.String()
		default:
			return errorf("ASOF JOIN conditions must be equalities and one inequality (>=, >, <=, <), not %s", c)
		}
	}
	if j.asofL == nil {
		return errorf("ASOF JOIN needs an inequality (>=, >, <=, <) between the two sides")
	}
	return nil
}

// asofOp is the inequality op of an ASOF join as exec takes it.
func asofOp(op cmpOp) kernels.AsofOp {
	switch op {
	case opGt:
		return kernels.AsofGt
	case opLe:
		return kernels.AsofLe
	case opLt:
		return kernels.AsofLt
	}
	return kernels.AsofGe // asofKeys lets no other through
}

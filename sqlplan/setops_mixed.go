package sqlplan

import (
	"context"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// A query with INTERSECT or EXCEPT at its top level is split here, at
// the parser's tokens (sqlparser knows neither), into its operands and
// the set operators between them. As in DuckDB and the SQL standard,
// INTERSECT binds tighter than UNION and EXCEPT, which associate left to
// right: a UNION b INTERSECT c EXCEPT d is (a UNION (b INTERSECT c))
// EXCEPT d. A run of INTERSECTs becomes one part, a kindSetOp statement
// of its own; the chain of UNIONs and EXCEPTs between the parts runs left
// to right (lowerUnion). A query of UNIONs alone is the parser's.

// setOpRange is one operand of a set operation: toks[from:to].
type setOpRange struct{ from, to int }

// setOpSplit is a query split at its top-level set operators: operands,
// ops[i] between operands i and i+1 (intersect, except, union, each
// maybe with " all"), and the ORDER BY / LIMIT / OFFSET after the last
// operand, which apply to the whole.
type setOpSplit struct {
	operands []setOpRange
	ops      []string
	trailer  []parse.Token
}

// splitSetOps splits toks at its top-level UNION, INTERSECT and EXCEPT;
// the split has no ops when there is no INTERSECT or EXCEPT.
func splitSetOps(text string, toks []parse.Token) (setOpSplit, error) {
	var sp setOpSplit
	var err error
	hasOther := false
	start := 0
	parse.EachTopLevelWord(toks, func(i int, t parse.Token) bool {
		if i < start || !isSetOpWord(toks, i) {
			return true
		}
		op := strings.ToLower(t.Text)
		next := i + 1
		if next < len(toks) && toks[next].Is("all") {
			op += " all"
			next++
		} else if next < len(toks) && toks[next].Is("distinct") {
			next++
		}
		if op == "union" || op == "union all" {
			if byNameAt(toks, next) && err == nil {
				// An error only with an INTERSECT or EXCEPT too.
				err = unsupportedAt(text, t.Pos, "UNION BY NAME together with INTERSECT or EXCEPT")
			}
		} else {
			hasOther = true
		}
		sp.operands = append(sp.operands, setOpRange{start, i})
		sp.ops = append(sp.ops, op)
		start = next
		return true
	})
	if !hasOther {
		return setOpSplit{}, nil
	}
	if err != nil {
		return setOpSplit{}, err
	}
	last := setOpRange{start, len(toks)}
	// ORDER BY / LIMIT after the last operand apply to the whole.
	parse.EachTopLevelWord(toks[start:], func(i int, t parse.Token) bool {
		if t.Is("order") || t.Is("limit") || t.Is("offset") {
			sp.trailer = toks[start+i:]
			last.to = start + i
			return false
		}
		return true
	})
	sp.operands = append(sp.operands, last)
	return sp, nil
}

// byNameAt reports whether the SELECT at toks[i] follows UNION BY NAME:
// unionByName gave it byNameMarker as its first column.
func byNameAt(toks []parse.Token, i int) bool {
	for k := i; k < len(toks) && k < i+5; k++ {
		if toks[k].Kind == parse.Ident && toks[k].Text == plan.ByNameMarker {
			return true
		}
	}
	return false
}

// isSetOpWord reports whether toks[i] is a set operator: UNION, INTERSECT
// or EXCEPT, not the type UNION(...) after :: nor EXCEPT in SELECT *
// EXCLUDE's spelling * EXCEPT (...).
func isSetOpWord(toks []parse.Token, i int) bool {
	t := toks[i]
	if !t.Is("union") && !t.Is("intersect") && !t.Is("except") {
		return false
	}
	if i > 0 && toks[i-1].Kind == parse.Op && (toks[i-1].Text == "::" || toks[i-1].Text == "*") {
		return false
	}
	return true
}

func unsupportedAt(text string, pos int, feature string) *Error {
	err := errAt(text, pos, "%s is not supported", feature)
	err.Err = ErrUnsupported
	return err
}

// prepareSetOp prepares a query with top-level INTERSECT or EXCEPT; ok
// is false when there is none.
func (e *Engine) prepareSetOp(ctx context.Context, text string, toks []parse.Token) (*Stmt, bool, error) {
	sp, err := splitSetOps(text, toks)
	if err != nil {
		return nil, true, err
	}
	if sp.ops == nil {
		return nil, false, nil
	}
	// The parts are prepared one by one: each ? would count from the
	// first argument again (numberPlaceholders, macros.go).
	toks = parse.NumberPlaceholders(toks)
	// Group the runs of INTERSECT: each group is one part of the chain
	// of UNIONs and EXCEPTs.
	var groups [][]int // operand indexes
	var outer []string
	groups = append(groups, []int{0})
	for i, op := range sp.ops {
		if strings.HasPrefix(op, "intersect") {
			groups[len(groups)-1] = append(groups[len(groups)-1], i+1)
			continue
		}
		groups = append(groups, []int{i + 1})
		outer = append(outer, unionKind(op))
	}
	var s *Stmt
	if len(groups) == 1 {
		s, err = e.prepareSetOpChain(ctx, text, toks, sp, groups[0])
	} else {
		s = &Stmt{e: e, kind: kindSetOp, Parsed: plan.Parsed{Src: &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}, SetOp: true, SetOps: outer}}
		for _, g := range groups {
			var part *Stmt
			if len(g) == 1 {
				part, err = e.prepareSetOpPart(ctx, text, toks, sp.operands[g[0]])
			} else {
				part, err = e.prepareSetOpChain(ctx, text, toks, sp, g)
			}
			if err != nil {
				break
			}
			s.Parts = append(s.Parts, &part.Parsed)
		}
	}
	if err != nil {
		return nil, true, err
	}
	s.Trailer = sp.trailer
	return s, true, nil
}

// unionKind spells a UNION as lUnion's kinds do (the parser's words);
// INTERSECT and EXCEPT stay as written.
func unionKind(op string) string {
	switch op {
	case "union":
		return sqlparser.UnionStr
	case "union all":
		return sqlparser.UnionAllStr
	}
	return op
}

// prepareSetOpChain prepares the operands g of sp, joined by the
// operators between them, as one kindSetOp statement.
func (e *Engine) prepareSetOpChain(ctx context.Context, text string, toks []parse.Token, sp setOpSplit, g []int) (*Stmt, error) {
	first, last := sp.operands[g[0]], sp.operands[g[len(g)-1]]
	s := &Stmt{e: e, kind: kindSetOp, Parsed: plan.Parsed{Src: &plan.Source{Source: parse.Source{Orig: text, Toks: toks[first.from:last.to]}}, SetOp: true}}
	for k, i := range g {
		if k > 0 {
			s.SetOps = append(s.SetOps, sp.ops[i-1])
		}
		part, err := e.prepareSetOpPart(ctx, text, toks, sp.operands[i])
		if err != nil {
			return nil, err
		}
		s.Parts = append(s.Parts, &part.Parsed)
	}
	return s, nil
}

// prepareSetOpPart prepares one operand of a set operation: a SELECT (or
// a query in parentheses).
func (e *Engine) prepareSetOpPart(ctx context.Context, text string, toks []parse.Token, r setOpRange) (*Stmt, error) {
	part := toks[r.from:r.to]
	if len(part) == 0 {
		return nil, errAt(text, parse.TokPos(text, toks, r.from), "expected a SELECT")
	}
	part = unwrapQuery(part)
	ps, err := e.prepareTokens(ctx, text, part)
	if err != nil {
		return nil, err
	}
	if ps.kind != kindSelect && ps.kind != kindSetOp {
		return nil, errAt(text, part[0].Pos, "INTERSECT, EXCEPT and UNION take SELECTs")
	}
	return ps, nil
}

// unwrapQuery takes the parentheses off an operand that is one query in
// parentheses ((SELECT ... ORDER BY ... LIMIT n), (SELECT ... UNION ...)),
// which the parser does not read as a statement. One with INTERSECT or
// EXCEPT inside keeps them: with its own ORDER BY or LIMIT it is a
// derived table (extractSetOps), as a statement of its own would drop
// them.
func unwrapQuery(toks []parse.Token) []parse.Token {
	for len(toks) > 2 && toks[0].Kind == parse.Op && toks[0].Text == "(" && parse.ClosingParen(toks, 0) == len(toks)-1 {
		inner := toks[1 : len(toks)-1]
		setOp := false
		parse.EachTopLevelWord(inner, func(i int, t parse.Token) bool {
			setOp = (t.Is("intersect") || t.Is("except")) && isSetOpWord(inner, i)
			return !setOp
		})
		if setOp {
			break
		}
		toks = inner
	}
	return toks
}

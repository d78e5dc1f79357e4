package plan

import (
	"strconv"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// Parsed is a prepared statement as the planner reads it: its source (the
// text, the tokens and the markers the rewrite made) and its syntax tree,
// and for a query the form it is planned in: a SELECT (ast), or a chain
// of INTERSECT and EXCEPT (setOp: the parts, each with its own source,
// the operators between them, and the ORDER BY / LIMIT after the last
// part). Stmt embeds it; the planner sees no more of a statement.
type Parsed struct {
	Src     *Source
	AST     sqlparser.Statement
	SetOp   bool
	Parts   []*Parsed
	SetOps  []string
	Trailer []parse.Token
}

// plan plans a query statement (a SELECT or a chain of INTERSECT/EXCEPT).
func (s *Parsed) Plan(p *Planner) (*SelectPlan, error) {
	if !s.SetOp {
		ast := parse.CloneAST(s.AST.(sqlparser.SelectStatement))
		if p.shared == nil {
			p.shared = countDerived(ast)
		}
		return p.PlanSelect(ast, nil)
	}
	q, err := s.bindSetOp(p)
	if err != nil {
		return nil, err
	}
	if err := p.optimize(q); err != nil {
		return nil, err
	}
	sp, err := p.lower(q)
	if err != nil {
		return nil, err
	}
	return s.applyTrailer(p, sp)
}

// applyTrailer applies ORDER BY (output positions or names) and LIMIT /
// OFFSET written after the last part of an INTERSECT or EXCEPT.
func (s *Parsed) applyTrailer(p *Planner, sp *SelectPlan) (*SelectPlan, error) {
	toks := s.Trailer
	if len(toks) == 0 {
		return sp, nil
	}
	i := 0
	var keys []sortKey
	lim, off := int64(-1), int64(0)
	fail := func() (*SelectPlan, error) {
		sp.Root.Close()
		return nil, errAt(s.Src.Orig, parse.TokPos(s.Src.Orig, toks, i), "after INTERSECT or EXCEPT, ORDER BY takes output positions or names, LIMIT and OFFSET numbers")
	}
	if i < len(toks) && toks[i].Is("order") {
		i++
		if i >= len(toks) || !toks[i].Is("by") {
			return fail()
		}
		i++
		for {
			if i >= len(toks) {
				return fail()
			}
			idx := -1
			switch toks[i].Kind {
			case parse.Number:
				n, err := strconv.Atoi(toks[i].Text)
				if err != nil || n < 1 || n > len(sp.Cols) {
					return fail()
				}
				idx = n - 1
			case parse.Ident, parse.Quoted, parse.DQuoted:
				for k, c := range sp.Cols {
					if strings.EqualFold(c.Name, toks[i].Unquoted()) {
						idx = k
						break
					}
				}
			}
			if idx < 0 {
				return fail()
			}
			i++
			desc := false
			if i < len(toks) && (toks[i].Is("asc") || toks[i].Is("desc")) {
				desc = toks[i].Is("desc")
				i++
			}
			keys = append(keys, sortKey{Col: idx, Desc: desc, Text: sp.Cols[idx].Name})
			if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "," {
				i++
				continue
			}
			break
		}
	}
	for i < len(toks) {
		switch {
		case toks[i].Is("limit") && i+1 < len(toks) && toks[i+1].Kind == parse.Number:
			lim, _ = strconv.ParseInt(toks[i+1].Text, 10, 64)
			i += 2
		case toks[i].Is("offset") && i+1 < len(toks) && toks[i+1].Kind == parse.Number:
			off, _ = strconv.ParseInt(toks[i+1].Text, 10, 64)
			i += 2
		default:
			return fail()
		}
	}
	types := make([]Type, len(sp.Cols))
	for k, c := range sp.Cols {
		types[k] = c.Type
	}
	root := sp.Root
	if len(keys) > 0 {
		need := int64(-1)
		if lim >= 0 {
			need = lim + off
		}
		root = &kernels.Sort{In: root, Keys: keys, Limit: need, Types: types, Cast: CastCol}
	}
	if lim >= 0 || off > 0 {
		root = &kernels.Limit{In: root, Limit: lim, Offset: off}
	}
	return &SelectPlan{Root: root, Cols: sp.Cols}, nil
}

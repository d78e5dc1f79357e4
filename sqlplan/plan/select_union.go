package plan

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"
)

// ByNameMarker is the first select item the rewrite gives the query after
// UNION [ALL] BY NAME (unionByName).
const ByNameMarker = "__carquet_byname__"

// alignByName lines up the parts of a UNION of which all but the first
// come BY NAME (their first column is byNameMarker): the columns are the
// first part's, then the names the later parts add (any case), each part
// giving NULL for the names it lacks.
func alignByName(plans []*LQuery) error {
	byName := false
	for i, sp := range plans[1:] {
		marked := len(sp.cols) > 0 && sp.cols[0].Name == ByNameMarker
		if i > 0 && marked != byName {
			return unsupported("UNION BY NAME mixed with UNION by position in one chain")
		}
		byName = marked
	}
	if !byName {
		return nil
	}
	var names []string
	index := map[string]int{}
	for i, sp := range plans {
		cols := sp.cols
		if i > 0 {
			cols = cols[1:]
		}
		for _, c := range cols {
			k := strings.ToLower(c.Name)
			if _, ok := index[k]; !ok {
				index[k] = len(names)
				names = append(names, c.Name)
			}
		}
	}
	for i, sp := range plans {
		from := 0
		if i > 0 {
			from = 1
		}
		exprs := make([]Expr, len(names))
		cols := make([]Column, len(names))
		for j, name := range names {
			exprs[j] = &ConstExpr{T: Type{Kind: KNull}}
			cols[j] = Column{Name: name, Type: Type{Kind: KNull}, Nullable: true}
		}
		for j := from; j < len(sp.cols); j++ {
			c := sp.cols[j]
			at := index[strings.ToLower(c.Name)]
			exprs[at] = &ColExpr{S: &Slot{Idx: j}, T: c.Type}
			cols[at] = c
			cols[at].Name = names[at]
		}
		// A projection above the part's own: no filter goes into it
		// nor is an output pruned (onlyOrderAbove, onlyKeepAbove).
		sp.Root = &lProject{in: sp.Root, exprs: exprs}
		sp.cols = cols
	}
	return nil
}

// planUnion plans a chain of UNIONs: bind, optimize (each part's own
// rules), lower.
func (p *Planner) planUnion(u *sqlparser.Union, outer *Scope) (*SelectPlan, error) {
	q, err := p.bindUnion(u, outer)
	if err != nil {
		return nil, err
	}
	if p.OnLogical != nil {
		p.OnLogical("bind", q)
	}
	if err := p.optimize(q); err != nil {
		return nil, err
	}
	if p.OnLogical != nil {
		p.OnLogical("optimize", q)
	}
	return p.lower(q)
}

// bindQuery binds a query (a SELECT, or a UNION) into its logical tree
// without optimizing or lowering it: a derived table or a UNION's part,
// whose parent gives it filters and prunes its outputs first.
func (p *Planner) bindQuery(stmt sqlparser.SelectStatement, outer *Scope) (*LQuery, error) {
	switch s := stmt.(type) {
	case *sqlparser.Select:
		return p.bindDerived(s, outer)
	case *sqlparser.ParenSelect:
		return p.bindQuery(s.Select, outer)
	case *sqlparser.Union:
		leave, err := p.enterQuery()
		defer leave()
		if err != nil {
			return nil, err
		}
		return p.bindUnion(s, outer)
	}
	return nil, unsupported(fmt.Sprintf("%T", stmt))
}

// bindUnion binds the parts of a chain of UNIONs and the chain into a
// logical tree: the union of the parts, then its ORDER BY and LIMIT.
func (p *Planner) bindUnion(u *sqlparser.Union, outer *Scope) (*LQuery, error) {
	parts, kinds := unionParts(u)
	var plans []*LQuery
	for _, part := range parts {
		q, err := p.bindQuery(part, outer)
		if err != nil {
			return nil, err
		}
		plans = append(plans, q)
	}
	if err := alignByName(plans); err != nil {
		return nil, err
	}
	cols, err := unionColumns(plans)
	if err != nil {
		return nil, err
	}
	types := make([]Type, len(cols))
	for i, c := range cols {
		types[i] = c.Type
	}
	un := &lUnion{parts: plans, kinds: kinds, types: types}
	var n LNode = un
	if len(u.OrderBy) > 0 {
		var keys []sortKey
		for _, o := range u.OrderBy {
			item, desc, nullsFirst := p.orderKey(o)
			idx, err := p.outputIndex(item, cols, nil)
			if err != nil {
				return nil, err
			}
			if idx < 0 {
				return nil, errorf("ORDER BY of a UNION must name an output column: %s", sqlparser.String(item))
			}
			keys = append(keys, sortKey{Col: idx, Desc: desc, NullsFirst: nullsFirst, Text: cols[idx].Name})
		}
		lim, _, _, err := p.limitValues(u.Limit)
		if err != nil {
			return nil, err
		}
		n = &lSort{in: n, keys: keys, limit: lim, types: types}
	}
	if u.Limit != nil {
		lim, off, pct, err := p.limitValues(u.Limit)
		if err != nil {
			return nil, err
		}
		if l := newLimit(n, lim, off, pct); l != nil {
			n = l
		}
	}
	return &LQuery{Root: n, cols: cols, union: un}, nil
}

// unionParts flattens a chain of UNIONs into its parts and the kinds of
// UNION between them; a UNION (distinct) anywhere removes duplicates of
// everything to its left, as the parser nests left.
func unionParts(u *sqlparser.Union) (parts []sqlparser.SelectStatement, kinds []string) {
	var walk func(s sqlparser.SelectStatement)
	walk = func(s sqlparser.SelectStatement) {
		if x, ok := s.(*sqlparser.Union); ok && len(x.OrderBy) == 0 && x.Limit == nil {
			walk(x.Left)
			kinds = append(kinds, x.Type)
			parts = append(parts, x.Right)
			return
		}
		parts = append(parts, s)
	}
	walk(u.Left)
	kinds = append(kinds, u.Type)
	parts = append(parts, u.Right)
	return parts, kinds
}

// unionColumns checks that the parts of a UNION have as many columns, and
// returns the union's: the first part's names, each of the type all the
// parts' values fit (text when a part's is text and the others do not
// unify with it).
func unionColumns(plans []*LQuery) ([]Column, error) {
	for _, sp := range plans[1:] {
		if len(sp.cols) != len(plans[0].cols) {
			return nil, errorf("each UNION query must have the same number of columns (%d and %d)", len(plans[0].cols), len(sp.cols))
		}
	}
	cols := append([]Column(nil), plans[0].cols...)
	for _, sp := range plans[1:] {
		for i, c := range sp.cols {
			t, err := setOpType(cols[i].Type, c.Type)
			if err != nil {
				return nil, err
			}
			cols[i].Type = withoutScalarField(t)
			cols[i].Nullable = cols[i].Nullable || c.Nullable
		}
	}
	return cols, nil
}

// setOpType is the type of a set operation's column of types a and b:
// text when one is text and the other a scalar of another type (DuckDB:
// SELECT 1 UNION SELECT 'a' is VARCHAR, where a comparison would cast
// the text to the number), else the type both fit.
func setOpType(a, b Type) (Type, error) {
	ak, bk := a.Op(), b.Op()
	scalars := ak != KNull && bk != KNull && ak != KEnum && bk != KEnum && a.Kind != KNested && b.Kind != KNested
	if scalars && (ak == KString) != (bk == KString) {
		return TString, nil
	}
	return UnifyTypes(a, b)
}

// bindSetOp binds a chain of set operations (s.parts, s.setOps)
// into a logical tree like a UNION's: the parts, each bound by a planner
// of its own source (their markers are numbered in it), which also
// optimizes and lowers it. The ORDER BY and LIMIT after the last part
// (s.trailer) are the caller's.
func (s *Parsed) bindSetOp(p *Planner) (*LQuery, error) {
	u := &lUnion{kinds: s.SetOps}
	for _, part := range s.Parts {
		pp := p.Child(part.Src)
		q, err := part.bindSetOpPart(pp)
		p.adopt(pp)
		if err != nil {
			return nil, err
		}
		u.parts = append(u.parts, q)
		u.planners = append(u.planners, pp)
	}
	cols, err := setOpColumns(u.parts, s.SetOps)
	if err != nil {
		return nil, err
	}
	for _, c := range cols {
		u.types = append(u.types, c.Type)
	}
	return &LQuery{Root: u, cols: cols, union: u}, nil
}

// bindSetOpPart binds one part of a set operation with its own planner:
// a SELECT, or a run of INTERSECTs between UNIONs or EXCEPTs.
func (s *Parsed) bindSetOpPart(p *Planner) (*LQuery, error) {
	if s.SetOp {
		return s.bindSetOp(p)
	}
	ast := parse.CloneAST(s.AST.(sqlparser.SelectStatement))
	if p.shared == nil {
		p.shared = countDerived(ast)
	}
	return p.bindQuery(ast, nil)
}

// setOpColumns checks that the parts of a chain of INTERSECT and EXCEPT
// have as many columns, and returns the chain's: the first part's names,
// each of the type all the parts' values fit (setOpType).
func setOpColumns(parts []*LQuery, ops []string) ([]Column, error) {
	cols := append([]Column(nil), parts[0].cols...)
	for i, q := range parts[1:] {
		if len(q.cols) != len(cols) {
			return nil, errorf("each %s query must have the same number of columns (%d and %d)", strings.ToUpper(ops[i]), len(cols), len(q.cols))
		}
		for k := range cols {
			t, err := setOpType(cols[k].Type, q.cols[k].Type)
			if err != nil {
				return nil, err
			}
			cols[k].Type = withoutScalarField(t)
		}
	}
	return cols, nil
}

// adopt takes over the tables a child planner opened, to release them
// with the statement's.
func (p *Planner) adopt(child *Planner) {
	if child == p {
		return
	}
	p.acquired = append(p.acquired, child.acquired...)
	child.acquired = nil
}

package plan

import (
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Lateral derived tables: a subquery in FROM that names columns of the
// FROM items before it, with or without the word LATERAL; table functions
// over such columns (FROM t, unnest(t.list) u(x), FROM t, range(t.n))
// are rewritten into one. Planning the subquery on its own fails on those
// names; it is then planned like a correlated subquery (correlated.go):
// probed once with the outer values NULL, for its columns and the outer
// columns it names, and run for each distinct combination of those values
// among a batch of left rows. Each left row pairs with the rows of its
// run; ON and LEFT JOIN work as for other joins.

// lateralSpec is what a lateral relation runs.
type lateralSpec struct {
	stmt  sqlparser.SelectStatement
	sc    *Scope      // the scope of the FROM items before it
	refs  []*ScopeCol // the outer columns the subquery names
	outer []Expr      // those columns, bound in sc
	types []Type      // the relation's column types
}

// lateralRelation plans sub, named alias, as a lateral derived table over
// the steps before it.
func (p *Planner) lateralRelation(sub *sqlparser.Subquery, alias string, before []joinStep, outer *Scope) (*Relation, error) {
	left := &Scope{outer: outer}
	for _, st := range before {
		left.Rels = append(left.Rels, st.rel)
	}
	frame := &corrFrame{}
	sp, err := p.PlanSelect(sub.Select, &Scope{outer: left, corr: frame})
	if err != nil {
		return nil, err
	}
	sp.Root.Close()
	if len(frame.refs) == 0 {
		return nil, errorf("not a lateral subquery")
	}
	frame.fixed = true
	spec := &lateralSpec{stmt: sub.Select, sc: left, refs: frame.refs}
	for _, name := range frame.names {
		o, err := p.BindExpr(name, left, nil)
		if err != nil {
			return nil, err
		}
		spec.outer = append(spec.outer, o)
	}
	for _, c := range sp.Cols {
		spec.types = append(spec.types, c.Type)
	}
	if alias == "" {
		alias = "subquery"
	}
	return DerivedRelation(alias, sp.Cols, &Relation{lateral: spec})
}

// lateralJoin is the join of a lateral relation (spec) on jn's layout
// and condition: exec.LateralJoin, with the subquery planned and run by
// a planner of its own for each distinct combination of outer values.
func (p *Planner) lateralJoin(spec *lateralSpec, jn *kernels.HashJoin) *kernels.LateralJoin {
	return &kernels.LateralJoin{J: jn, Outer: execExprs(spec.outer), Types: spec.types, Run: func(vals []any) (*Batch, error) {
		return p.runLateral(spec, vals)
	}}
}

// runLateral plans and runs the subquery of spec for one set of outer
// values, with a planner of its own (see corrExpr.instantiate), and
// returns its rows in the relation's column types.
func (p *Planner) runLateral(spec *lateralSpec, vals []any) (*Batch, error) {
	p = p.Child(p.Src)
	defer p.ReleaseAll()
	sc := &Scope{outer: spec.sc, corr: &corrFrame{refs: spec.refs, vals: vals, fixed: true}}
	rows, err := p.runSubquery(spec.stmt, sc, -1)
	if err != nil {
		return nil, err
	}
	if len(rows.Cols) != len(spec.types) {
		return nil, errorf("internal error: the lateral subquery returned %d columns, planned %d", len(rows.Cols), len(spec.types))
	}
	for k, t := range spec.types {
		if c := rows.Cols[k]; c.T.Kind != t.Kind || c.T.Scale != t.Scale {
			if rows.Cols[k], err = CastCol(c, t); err != nil {
				return nil, err
			}
		}
	}
	return rows, nil
}

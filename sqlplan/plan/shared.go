package plan

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Derived tables computed once. A query that names the same derived table
// twice — a CTE referenced twice (TPC-H Q15's revenue0, joined and also
// asked for its maximum), or a view — would plan and run it once per
// reference. When a statement holds the same uncorrelated, deterministic
// derived table more than once, the first reference runs it to the end
// and every reference reads the rows kept (as DuckDB materializes a CTE
// named more than once).

// sharedDerived is what a statement's planners share about its derived
// tables: how often each occurs (by its text) and the results computed.
type sharedDerived struct {
	counts map[string]int
	done   map[string]*derivedResult
}

type derivedResult struct {
	b    *Batch
	cols []Column
}

// countDerived counts the derived tables of a statement by their text.
func countDerived(stmt sqlparser.SQLNode) *sharedDerived {
	sh := &sharedDerived{counts: map[string]int{}, done: map[string]*derivedResult{}}
	sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if t, ok := n.(*sqlparser.AliasedTableExpr); ok {
			if sub, ok := t.Expr.(*sqlparser.Subquery); ok {
				sh.counts[sqlparser.String(sub.Select)]++
			}
		}
		return true, nil
	}, stmt)
	return sh
}

// sharedRelation returns the relation of derived table sub under alias,
// read from its computed rows when the statement names it more than once;
// ok is false when it is to be planned as usual.
func (p *Planner) sharedRelation(sub *sqlparser.Subquery, alias string) (rel *Relation, ok bool, err error) {
	sh := p.shared
	if sh == nil {
		return nil, false, nil
	}
	key := sqlparser.String(sub.Select)
	if sh.counts[key] < 2 {
		return nil, false, nil
	}
	d, done := sh.done[key]
	if !done {
		if volatile(sub.Select) {
			sh.counts[key] = 0
			return nil, false, nil
		}
		// Planned without the enclosing queries: one that names them
		// (correlated) fails here and is planned per reference.
		sp, err := p.PlanSelect(parse.CloneAST(sub.Select), nil)
		if err != nil {
			sh.counts[key] = 0
			return nil, false, nil
		}
		b, err := sp.DrainAll(p.Ctx)
		if err != nil {
			return nil, true, err
		}
		d = &derivedResult{b: b, cols: sp.Cols}
		sh.done[key] = d
	}
	cols := append([]Column(nil), d.cols...)
	what := fmt.Sprintf("DERIVED TABLE computed once for %d references (%d rows)", sh.counts[key], d.b.N)
	rel, err = DerivedRelation(alias, cols, &Relation{Sub: &SelectPlan{Root: &kernels.Const{Batches: []*Batch{d.b}, What: what}, Cols: cols}})
	return rel, true, err
}

// volatile reports whether a query calls a function whose value changes
// from one call to the next: each reference must run it.
func volatile(n sqlparser.SQLNode) bool {
	found := false
	sqlparser.Walk(func(x sqlparser.SQLNode) (bool, error) {
		if f, ok := x.(*sqlparser.FuncExpr); ok {
			found = volatileFunc(f.Name.String())
		}
		return !found, nil
	}, n)
	return found
}

package plan

import (
	"context"
	"io"
	"slices"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Semi-join reduction of grouped correlated subqueries. The grouped form
// of (SELECT agg FROM s WHERE s.k = outer.c AND rest) aggregates all of s
// by k, and that of EXISTS (SELECT ... FROM s WHERE s.k = outer.c AND
// ...) hashes all of s by k, although the outer query often asks for a
// few keys only (TPC-H Q17: the 204 parts of one brand and container
// against the 200,000 parts of lineitem; Q21: the orders of one nation's
// late suppliers). So before the filter that holds such a subquery
// evaluates its first row, it reads its input ahead (up to reduceMaxRows
// rows after its other conjuncts), collects the distinct outer values,
// and the grouped run is restricted to s.k IN (those values) — bound into
// its WHERE, so that the scan drops the other keys' rows (and the row
// groups and pages without them) before anything is aggregated or hashed.
// The rows read ahead are then filtered as usual. When the input is
// longer, or a string key has more than reduceMaxStrings distinct values,
// or a key is not an integer or a string, the subquery runs over all of s
// as before.

const (
	reduceMaxRows    = 1 << 20
	reduceMaxStrings = 1 << 16
	// reduceMaxSparse bounds the integer keys of a restriction that is a
	// hash set (dense keys are a bitmap).
	reduceMaxSparse = 1 << 20
)

// reducer is the grouped form of a correlated subquery that can be
// restricted to the outer values it will be asked for.
type reducer interface {
	// reducible reports whether the form has neither run nor been
	// restricted, and its keys are of types a restriction handles.
	reducible() bool
	// keyed reports whether outer reference k is a key the run can be
	// restricted by (the others' values are not collected).
	keyed(k int) bool
	// restrict restricts the run to the values in sets (one per outer
	// reference); false when no key could be.
	restrict(sets []keySet) bool
	// keysAsked is the number of values of its largest restriction.
	keysAsked() int
}

// reducible lists the grouped correlated subqueries in pred that can be
// reduced.
func reducible(pred Expr) []*corrExpr {
	var out []*corrExpr
	var walk func(e Expr)
	walk = func(e Expr) {
		if c, ok := e.(*corrExpr); ok && c.reducer() != nil && !slices.Contains(out, c) {
			out = append(out, c) // once (COALESCE holds its argument twice)
		}
		for _, ch := range children(e) {
			walk(ch)
		}
	}
	walk(pred)
	return out
}

// reducer returns e's grouped form when it can be reduced.
func (e *corrExpr) reducer() reducer {
	switch {
	case e.existsG != nil && e.existsG.reducible():
		return e.existsG
	case e.grouped != nil && e.kind == corrScalar && e.left == nil && e.grouped.reducible():
		return e.grouped
	}
	return nil
}

func (g *groupedCorr) reducible() bool {
	return !g.built && g.restrictions == nil && reducibleTypes(g.outerTs)
}

func (g *groupedExists) reducible() bool {
	return !g.built && g.restrictions == nil && reducibleTypes(g.outerTs[g.keyRef:g.keyRef+1])
}

func (g *groupedCorr) keyed(int) bool     { return true } // each reference is a key
func (g *groupedExists) keyed(k int) bool { return k == g.keyRef }

func reducibleTypes(ts []Type) bool {
	for _, t := range ts {
		if t.Kind != KInt && t.Kind != KString {
			return false
		}
	}
	return true
}

// reduceCorrelated reads in ahead for the grouped subqueries of pred that
// can be reduced, restricts them to the outer values seen, and returns the
// node to read from instead of in. view gives the batch pred reads for an
// input batch (a relation filter shifts it).
func reduceCorrelated(ctx context.Context, in Node, pred Expr, view func(*Batch) *Batch) (Node, error) {
	subs := reducible(pred)
	if len(subs) == 0 {
		return in, nil
	}
	cheap, _ := splitCostly(pred)
	ahead := &kernels.ReadAhead{In: in}
	sets := make([][]keySet, len(subs))
	for i, e := range subs {
		sets[i] = make([]keySet, len(e.outer))
	}
	for {
		b, err := in.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ahead.Held = append(ahead.Held, b)
		v := view(b)
		var idx []int32
		if cheap != nil {
			if idx, err = kernels.Passing(v, cheap); err != nil {
				return nil, err
			}
		}
		n := b.N
		if cheap != nil {
			n = len(idx)
		}
		if ahead.Rows += n; ahead.Rows > reduceMaxRows {
			return ahead, nil
		}
		if n == 0 {
			continue
		}
		for i, e := range subs {
			r := e.reducer()
			for k, o := range e.outer {
				if !r.keyed(k) {
					continue
				}
				c, err := o.Eval(v)
				if err != nil {
					return nil, err
				}
				sets[i][k].add(c.Decoded(), idx, cheap != nil)
				release(c)
			}
		}
	}
	for i, e := range subs {
		if r := e.reducer(); r.restrict(sets[i]) {
			ahead.Keys = append(ahead.Keys, r.keysAsked())
		}
	}
	return ahead, nil
}

// keySet is the non-NULL values one outer reference took: integers as
// read (duplicates are removed when the set is built), distinct strings.
type keySet struct {
	ints  []int64
	strs  map[string]struct{}
	other bool // values of another storage
	over  bool // more than reduceMaxStrings strings
}

// add adds c's values at rows idx (all rows when !sel).
func (s *keySet) add(c *Col, idx []int32, sel bool) {
	if s.over || s.other {
		return
	}
	n := c.Len
	if sel {
		n = len(idx)
	}
	for j := 0; j < n; j++ {
		i := j
		if sel {
			i = int(idx[j])
		}
		if c.IsNull(i) {
			continue
		}
		switch {
		case c.I != nil:
			s.ints = append(s.ints, c.I[i])
		case c.Off != nil:
			if s.strs == nil {
				s.strs = map[string]struct{}{}
			}
			s.strs[string(c.Str(i))] = struct{}{}
			if len(s.strs) > reduceMaxStrings {
				s.over, s.strs = true, nil
				return
			}
		default:
			s.other, s.ints, s.strs = true, nil, nil
			return
		}
	}
}

// size is the number of values the restriction lists.
func (r keyRestriction) size() int {
	if r.ints != nil {
		return r.ints.Len()
	}
	return len(r.strs)
}

func largest(rs []keyRestriction) int {
	n := 0
	for _, r := range rs {
		n = max(n, r.size())
	}
	return n
}

func (g *groupedCorr) keysAsked() int   { return largest(g.restrictions) }
func (g *groupedExists) keysAsked() int { return largest(g.restrictions) }

// keyRestriction restricts a grouped run to the rows whose inner key is
// among the outer values: inner IN ints, or IN strs.
type keyRestriction struct {
	inner sqlparser.Expr
	ints  *intset.Set
	strs  []any
}

// restrictionOf is the restriction of inner by s, ok false when s cannot
// restrict (too many values, or of another storage).
func restrictionOf(inner sqlparser.Expr, s *keySet) (keyRestriction, bool) {
	switch {
	case s.over || s.other:
		return keyRestriction{}, false
	case len(s.strs) > 0:
		r := keyRestriction{inner: inner}
		for v := range s.strs {
			r.strs = append(r.strs, v)
		}
		return r, true
	}
	set, ok := intset.NewBounded(s.ints, reduceMaxSparse)
	return keyRestriction{inner: inner, ints: set}, ok
}

// restrict restricts the grouped run to the keys in sets (one per key, in
// order); keys that cannot be are left open.
func (g *groupedCorr) restrict(sets []keySet) bool {
	for k := range sets {
		if r, ok := restrictionOf(g.grouped.GroupBy[k], &sets[k]); ok {
			g.restrictions = append(g.restrictions, r)
		}
	}
	return g.restrictions != nil
}

// restrict restricts the EXISTS's run to the keys in sets[keyRef].
func (g *groupedExists) restrict(sets []keySet) bool {
	inner := g.sel.SelectExprs[0].(*sqlparser.AliasedExpr).Expr
	if r, ok := restrictionOf(inner, &sets[g.keyRef]); ok {
		g.restrictions = []keyRestriction{r}
	}
	return g.restrictions != nil
}

// runRestricted runs sel, a grouped subquery, with its restrictions bound
// into its WHERE (bindRestrictions).
func runRestricted(p *Planner, sel *sqlparser.Select, rs []keyRestriction, sc *Scope) (*Batch, error) {
	if len(rs) > 0 {
		p.restrict = map[*sqlparser.Select][]keyRestriction{sel: rs}
	}
	return p.runSubquery(sel, sc, -1)
}

// bindRestrictions binds the restrictions of a grouped subquery as
// conjuncts of its WHERE: IN tests of the inner key, by an integer set
// (which the scan evaluates) or a list of strings. A
// restriction whose inner key is not of the kind of its values is left
// out (the run is then not restricted by it, which is still exact).
func (p *Planner) bindRestrictions(rs []keyRestriction, sc *Scope) ([]Expr, error) {
	var out []Expr
	for _, r := range rs {
		e, err := p.BindExpr(r.inner, sc, nil)
		if err != nil {
			return nil, err
		}
		switch {
		case r.ints != nil && e.Type().Kind == KInt:
			out = append(out, inIntSet(e, r.ints))
		case r.strs != nil && e.Type().Kind == KString:
			in := &inExpr{e: e, vals: r.strs}
			in.prepare()
			out = append(out, in)
		}
	}
	return out, nil
}

// reduceOnBuild restricts the grouped subqueries in a hash join's build
// keys to the outer values of the build rows b, which the join holds
// whole before it evaluates its keys (TPC-H Q02: ps_supplycost = (SELECT
// min(ps_supplycost) ... WHERE ps_partkey = p_partkey) is a key of the
// build side of the few thousand parts of one size and type; unrestricted,
// its grouped run aggregates all 200,000 parts' rows of partsupp at SF 1).
// It returns the number of values of each restriction made, for EXPLAIN
// ANALYZE.
func reduceOnBuild(keys []Expr, b *Batch) ([]int, error) {
	if b.N > reduceMaxRows {
		return nil, nil
	}
	var asked []int
	for _, key := range keys {
		for _, e := range reducible(key) {
			sets := make([]keySet, len(e.outer))
			r := e.reducer()
			for k, o := range e.outer {
				if !r.keyed(k) {
					continue
				}
				c, err := o.Eval(b)
				if err != nil {
					return nil, err
				}
				sets[k].add(c.Decoded(), nil, false)
				release(c)
			}
			if r.restrict(sets) {
				asked = append(asked, r.keysAsked())
			}
		}
	}
	return asked, nil
}

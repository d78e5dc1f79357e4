package sqlplan

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Semi-join reduction of grouped correlated subqueries. The grouped form
// of (SELECT agg FROM s WHERE s.k = outer.c AND rest) aggregates all of s
// by k, although the outer query often asks for a few keys only (TPC-H
// Q17: the 204 parts of one brand and container against the 200,000
// parts of lineitem; Q20: the partsupp rows of 'forest' parts). So before
// the filter that holds such a subquery evaluates its first row, it reads
// its input ahead (up to reduceMaxRows rows after its other conjuncts),
// collects the distinct outer values, and the grouped run gets the
// conjunct s.k IN (those values): the scan drops the other keys' rows
// before anything is aggregated. The rows read ahead are then filtered as
// usual. When the input is longer, or a key has more than reduceMaxKeys
// distinct values, or its type is not an integer or a string, the
// subquery runs over all of s as before.

const (
	reduceMaxRows = 1 << 20
	reduceMaxKeys = 1 << 16
)

// reducible lists the grouped correlated subqueries in pred that can be
// reduced: not yet run, scalar, keyed by integers or strings.
func reducible(pred expr) []*corrExpr {
	var out []*corrExpr
	var walk func(e expr)
	walk = func(e expr) {
		if c, ok := e.(*corrExpr); ok && c.grouped != nil && c.kind == corrScalar && c.left == nil &&
			!c.grouped.built && c.grouped.reduced == nil && reducibleTypes(c.grouped.outerTs) {
			out = append(out, c)
		}
		for _, ch := range children(e) {
			walk(ch)
		}
	}
	walk(pred)
	return out
}

func reducibleTypes(ts []Type) bool {
	for _, t := range ts {
		if t.Kind != KInt && t.Kind != KString {
			return false
		}
	}
	return true
}

// readAhead is the input of a filter whose correlated subqueries were
// reduced: the batches read ahead, then the rest of the input.
type readAhead struct {
	held []*Batch
	in   node
	// rows were read ahead; keys lists, for EXPLAIN ANALYZE, how many
	// outer values each restricted subquery was given (none: too many
	// rows to restrict).
	rows int
	keys []int
}

func (r *readAhead) next(ctx context.Context) (*Batch, error) {
	if len(r.held) > 0 {
		b := r.held[0]
		r.held[0] = nil
		r.held = r.held[1:]
		return b, nil
	}
	return r.in.next(ctx)
}

func (r *readAhead) close() { r.in.close() }

func (r *readAhead) explain(x *explainer, depth int) {
	if len(r.keys) == 0 {
		x.line(depth, "READ AHEAD %d rows (correlated subqueries not restricted)", r.rows)
	} else {
		x.line(depth, "READ AHEAD %d rows: correlated subqueries restricted to %s outer keys", r.rows, strings.Trim(fmt.Sprint(r.keys), "[]"))
	}
	r.in.explain(x, depth+1)
}

// reduceCorrelated reads in ahead for the grouped subqueries of pred that
// can be reduced, restricts them to the outer values seen, and returns the
// node to read from instead of in. view gives the batch pred reads for an
// input batch (a relation filter shifts it).
func reduceCorrelated(ctx context.Context, in node, pred expr, view func(*Batch) *Batch) (node, error) {
	subs := reducible(pred)
	if len(subs) == 0 {
		return in, nil
	}
	cheap, _ := splitCostly(pred)
	ahead := &readAhead{in: in}
	sets := make([][]keySet, len(subs))
	for i, e := range subs {
		sets[i] = make([]keySet, len(e.outer))
	}
	for {
		b, err := in.next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ahead.held = append(ahead.held, b)
		v := view(b)
		var idx []int32
		if cheap != nil {
			if idx, err = passing(v, cheap); err != nil {
				return nil, err
			}
		}
		n := b.N
		if cheap != nil {
			n = len(idx)
		}
		if ahead.rows += n; ahead.rows > reduceMaxRows {
			return ahead, nil
		}
		if n == 0 {
			continue
		}
		for i, e := range subs {
			for k, o := range e.outer {
				c, err := o.eval(v)
				if err != nil {
					return nil, err
				}
				sets[i][k].add(c.decoded(), idx, cheap != nil)
				release(c)
			}
		}
	}
	for i, e := range subs {
		if !e.grouped.restrict(sets[i]) {
			continue
		}
		k := 0
		for _, s := range sets[i] {
			k = max(k, len(s.ints)+len(s.strs))
		}
		ahead.keys = append(ahead.keys, k)
	}
	return ahead, nil
}

// keySet is the distinct non-NULL values one outer reference took.
type keySet struct {
	ints map[int64]struct{}
	strs map[string]struct{}
	over bool // more than reduceMaxKeys values: not listed
}

// add adds c's values at rows idx (all rows when !sel).
func (s *keySet) add(c *Col, idx []int32, sel bool) {
	if s.over {
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
		if c.isNull(i) {
			continue
		}
		switch {
		case c.I != nil:
			if s.ints == nil {
				s.ints = map[int64]struct{}{}
			}
			s.ints[c.I[i]] = struct{}{}
		case c.Off != nil:
			if s.strs == nil {
				s.strs = map[string]struct{}{}
			}
			if _, ok := s.strs[string(c.str(i))]; !ok {
				s.strs[string(c.str(i))] = struct{}{}
			}
		default:
			s.over = true // not stored as the type says: do not list
			return
		}
		if len(s.ints)+len(s.strs) > reduceMaxKeys {
			s.over, s.ints, s.strs = true, nil, nil
			return
		}
	}
}

// literals is the set as SQL literals, for an IN list.
func (s *keySet) literals() sqlparser.ValTuple {
	out := make(sqlparser.ValTuple, 0, len(s.ints)+len(s.strs))
	for v := range s.ints {
		out = append(out, sqlparser.NewIntVal(strconv.AppendInt(nil, v, 10)))
	}
	for v := range s.strs {
		out = append(out, sqlparser.NewStrVal([]byte(v)))
	}
	return out
}

// restrict makes the grouped run aggregate only the rows whose keys are
// among the outer values in sets (one set per key, in order). Keys with
// too many values are left open; a key with no value at all means that no
// outer row will look anything up, and nothing is aggregated.
func (g *groupedCorr) restrict(sets []keySet) bool {
	var conds []sqlparser.Expr
	for k, s := range sets {
		if s.over {
			continue
		}
		if len(s.ints)+len(s.strs) == 0 {
			conds = []sqlparser.Expr{sqlparser.BoolVal(false)}
			break
		}
		conds = append(conds, &sqlparser.ComparisonExpr{Operator: sqlparser.InStr, Left: g.grouped.GroupBy[k], Right: s.literals()})
	}
	if len(conds) == 0 {
		return false
	}
	r := *g.grouped
	w := conds[0]
	for _, c := range conds[1:] {
		w = &sqlparser.AndExpr{Left: w, Right: c}
	}
	if r.Where != nil {
		w = &sqlparser.AndExpr{Left: r.Where.Expr, Right: w}
	}
	r.Where = &sqlparser.Where{Type: sqlparser.WhereStr, Expr: w}
	g.reduced = &r
	return true
}

package sqlplan

import (
	"context"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"io"
	"strings"
)

// groupCountJoinNode answers a GROUP BY of a join's probe-side key with
// counts over the join (TPC-H Q13: customer LEFT JOIN orders ... GROUP BY
// c_custkey, COUNT(o_orderkey)) without making the joined rows. A hash
// join would build the table on the right side (orders, the large one)
// and list every (customer, order) pair only for the aggregate to count
// them; here the left side's keys are the table and each right row adds
// one to its key's counts as it streams past, so memory is one counter
// per left row and no pair is ever materialized.
//
// Per group key k: with m left rows of key k and c right rows of key k
// (c' of them with a non-NULL counted column), COUNT(col) is m*c' and
// COUNT(*) is m*c, or m when c is 0 and the join is a LEFT join (each
// unmatched left row is one joined row). Left rows with a NULL key match
// nothing: under a LEFT join they make one NULL group, under an inner join
// none.
type groupCountJoinNode struct {
	left, right node
	leftWidth   int
	lkey, rkey  expr
	keyType     Type
	counts      []groupCount
	leftOuter   bool
	done        bool
}

// noGroupCountJoin turns groupCountJoin off, for tests that compare its
// answers with the hash join and aggregation it replaces.
var noGroupCountJoin bool

// groupCount is one aggregate: COUNT(arg), or COUNT(*) when arg is nil.
type groupCount struct {
	arg  expr // evaluated on right batches placed at leftWidth
	text string
}

// groupCountJoin returns the node for an aggregation agg over the join
// root, ok false when the plan is not of that shape: an inner or LEFT hash
// join on one integer key, with no other join condition, grouped by that
// key of the left side alone, whose aggregates are all COUNT(*) or
// COUNT(column of the right side).
func groupCountJoin(root node, agg *aggCtx) (*groupCountJoinNode, bool) {
	jn, ok := root.(*joinNode)
	if !ok || noGroupCountJoin || jn.rightOuter || jn.cond != nil || len(jn.lkeys) != 1 || agg.sets != nil || len(agg.keys) != 1 || len(agg.aggs) == 0 {
		return nil, false
	}
	lk, lok := jn.lkeys[0].(*colExpr)
	gk, gok := agg.keys[0].(*colExpr)
	if !lok || !gok || lk.s != gk.s || lk.s.idx < 0 || lk.s.idx >= jn.leftWidth {
		return nil, false
	}
	lt, rt := jn.lkeys[0].Type(), jn.rkeys[0].Type()
	if storage(lt) != stInt || storage(rt) != stInt || lt.Kind != rt.Kind || lt.Scale != rt.Scale || lt.Nanos != rt.Nanos {
		return nil, false
	}
	n := &groupCountJoinNode{left: jn.left, right: jn.right, leftWidth: jn.leftWidth, lkey: lk, rkey: jn.rkeys[0], keyType: withoutField(lt), leftOuter: jn.leftOuter}
	for _, a := range agg.aggs {
		switch {
		case a.Fn == "count_star" && a.Arg == nil && !a.Distinct && a.Order == nil:
			n.counts = append(n.counts, groupCount{text: a.Text})
		case a.Fn == "count" && !a.Distinct && a.Order == nil && a.Arg2 == nil:
			c, ok := a.Arg.(*colExpr)
			if !ok || c.s.idx < jn.leftWidth || c.s.idx >= jn.leftWidth+len(jn.rightTypes) {
				return nil, false
			}
			n.counts = append(n.counts, groupCount{arg: c, text: a.Text})
		default:
			return nil, false
		}
	}
	return n, true
}

func (n *groupCountJoinNode) Next(ctx context.Context) (*Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	n.done = true
	keys, err := n.leftKeys(ctx)
	if err != nil {
		return nil, err
	}
	g := groupLeftKeys(keys)
	// matches[k]: right rows of distinct key k; nonNull[j][k]: those whose
	// j-th counted column is not NULL.
	matches := make([]int64, g.keys.Len)
	nonNull := make([][]int64, len(n.counts))
	for j, c := range n.counts {
		if c.arg != nil {
			nonNull[j] = make([]int64, g.keys.Len)
		}
	}
	if err := n.countRight(ctx, g.table, matches, nonNull); err != nil {
		return nil, err
	}
	out := n.result(g, matches, nonNull)
	if out.N == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// leftGroups are the left side's distinct non-NULL keys, indexed by a
// table of unique keys.
type leftGroups struct {
	keys  *Col
	table *rowTable
	mult  []int64 // left rows per key (nil: one each)
	nulls int64   // left rows with a NULL key
}

// groupLeftKeys indexes the distinct keys of keys. Keys that are already
// unique (a primary key, as Q13's c_custkey) are indexed as they are.
func groupLeftKeys(keys *Col) leftGroups {
	g := leftGroups{}
	for i := range keys.Len {
		if keys.IsNull(i) {
			g.nulls++
		}
	}
	t := kernels.BuildInts(keys, keys.Len)
	if t.Unique() && g.nulls == 0 {
		g.keys, g.table = keys, t
		return g
	}
	var firsts []int32
	count := make([]int64, keys.Len)
	for i := range keys.Len {
		if keys.IsNull(i) {
			continue
		}
		r := t.FindInt(keys.I[i])
		if int(r) == i {
			firsts = append(firsts, r)
		}
		count[r]++
	}
	g.keys = keys.Take(firsts)
	g.mult = make([]int64, len(firsts))
	for k, r := range firsts {
		g.mult[k] = count[r]
	}
	g.table = kernels.BuildInts(g.keys, g.keys.Len)
	return g
}

// leftKeys reads the left side and returns its join key column, decoded
// to int64s.
func (n *groupCountJoinNode) leftKeys(ctx context.Context) (*Col, error) {
	var parts []*Col
	total := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.left.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		k, err := n.lkey.Eval(b)
		if err != nil {
			return nil, err
		}
		parts = append(parts, intKeyCol(k.Decoded(), b.N))
		total += b.N
	}
	keys := kernels.ConcatCols(Type{Kind: KInt}, parts, total)
	if keys.I == nil {
		keys.I = make([]int64, total) // only NULLs
	}
	return keys, nil
}

// intKeyCol is k as a column of int64s, NULL rows included (a column of
// only NULLs may come without values).
func intKeyCol(k *Col, rows int) *Col {
	out := &Col{T: Type{Kind: KInt}, Len: rows, I: k.I, Null: k.Null}
	if len(out.I) < rows {
		out.I = make([]int64, rows)
		if out.Null == nil {
			out.Null = make([]bool, rows)
			for i := range out.Null {
				out.Null[i] = true
			}
		}
	}
	return out
}

// countRight streams the right side and adds each row to the counters of
// the first left row of its key.
func (n *groupCountJoinNode) countRight(ctx context.Context, table *rowTable, matches []int64, nonNull [][]int64) error {
	var padded Batch
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := n.right.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if cap(padded.Cols) < n.leftWidth+len(b.Cols) {
			padded.Cols = make([]*Col, n.leftWidth+len(b.Cols))
		}
		padded.N, padded.Cols = b.N, padded.Cols[:n.leftWidth+len(b.Cols)]
		copy(padded.Cols[n.leftWidth:], b.Cols)
		kc, err := n.rkey.Eval(&padded)
		if err != nil {
			return err
		}
		k := kc.Decoded()
		if len(k.I) < b.N {
			continue // only NULLs, which match nothing
		}
		rows := make([]int32, b.N) // left row of each right row, or -1
		for i, x := range k.I[:b.N] {
			rows[i] = -1
			if !k.IsNull(i) {
				if r := table.FindInt(x); r >= 0 {
					rows[i] = r
					matches[r]++
				}
			}
		}
		for j, c := range n.counts {
			if c.arg == nil {
				continue
			}
			v, err := c.arg.Eval(&padded)
			if err != nil {
				return err
			}
			cnt := nonNull[j]
			for i, r := range rows {
				if r >= 0 && !v.IsNull(i) {
					cnt[r]++
				}
			}
		}
	}
}

// result is the aggregation's output: one row per distinct left key (and
// one for the NULL key under a LEFT join), the key then the counts.
func (n *groupCountJoinNode) result(g leftGroups, matches []int64, nonNull [][]int64) *Batch {
	var groups []int32
	for k := range g.keys.Len {
		// An inner join has no group for a key no right row matched.
		if n.leftOuter || matches[k] > 0 {
			groups = append(groups, int32(k))
		}
	}
	nullGroup := n.leftOuter && g.nulls > 0
	rows := len(groups)
	if nullGroup {
		rows++
	}
	key := &Col{T: n.keyType, Len: rows, I: make([]int64, rows)}
	for i, k := range groups {
		key.I[i] = g.keys.I[k]
	}
	if nullGroup {
		key.SetNull(rows - 1)
	}
	out := &Batch{N: rows, Cols: []*Col{key}}
	for j, c := range n.counts {
		col := &Col{T: tInt, Len: rows, I: make([]int64, rows)}
		for i, k := range groups {
			m := int64(1)
			if g.mult != nil {
				m = g.mult[k]
			}
			if c.arg != nil {
				col.I[i] = m * nonNull[j][k]
			} else {
				col.I[i] = m * max(matches[k], 1)
			}
		}
		if nullGroup && c.arg == nil {
			// NULL keys matched nothing: one joined row each.
			col.I[rows-1] = g.nulls
		}
		out.Cols = append(out.Cols, col)
	}
	return out
}

func (n *groupCountJoinNode) Close() {
	n.left.Close()
	n.right.Close()
}

func (n *groupCountJoinNode) Explain(x *explainer, depth int) {
	kind := "INNER"
	if n.leftOuter {
		kind = "LEFT"
	}
	var aggs []string
	for _, c := range n.counts {
		aggs = append(aggs, c.text)
	}
	x.Line(depth, "GROUP COUNT JOIN %s on %s = %s group by: %s aggregates: %s", kind, n.lkey, n.rkey, n.lkey, strings.Join(aggs, ", "))
	n.left.Explain(x, depth+1)
	x.Line(depth+1, "counted side:")
	n.right.Explain(x, depth+2)
}

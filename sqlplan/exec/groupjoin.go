package exec

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// GroupCountJoin answers a GROUP BY of a join's probe-side key with
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
type GroupCountJoin struct {
	Left, Right Node
	// LeftWidth is the number of the left side's columns: the right
	// side's batches are read at that offset.
	LeftWidth  int
	LKey, RKey Expr
	KeyType    vec.Type
	Counts     []GroupCount
	LeftOuter  bool
	done       bool
}

// GroupCount is one aggregate: COUNT(Arg), or COUNT(*) when Arg is nil.
type GroupCount struct {
	Arg  Expr // evaluated on right batches placed at LeftWidth
	Text string
}

func (n *GroupCountJoin) Next(ctx context.Context) (*vec.Batch, error) {
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
	nonNull := make([][]int64, len(n.Counts))
	for j, c := range n.Counts {
		if c.Arg != nil {
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
	keys  *vec.Col
	table *RowTable
	mult  []int64 // left rows per key (nil: one each)
	nulls int64   // left rows with a NULL key
}

// groupLeftKeys indexes the distinct keys of keys. Keys that are already
// unique (a primary key, as Q13's c_custkey) are indexed as they are.
func groupLeftKeys(keys *vec.Col) leftGroups {
	g := leftGroups{}
	for i := range keys.Len {
		if keys.IsNull(i) {
			g.nulls++
		}
	}
	t := BuildInts(keys, keys.Len)
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
	g.table = BuildInts(g.keys, g.keys.Len)
	return g
}

// leftKeys reads the left side and returns its join key column, decoded
// to int64s.
func (n *GroupCountJoin) leftKeys(ctx context.Context) (*vec.Col, error) {
	var parts []*vec.Col
	total := 0
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.Left.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		k, err := n.LKey.Eval(b)
		if err != nil {
			return nil, err
		}
		parts = append(parts, intKeyCol(k.Decoded(), b.N))
		total += b.N
	}
	keys := ConcatCols(vec.Type{Kind: vec.KInt}, parts, total)
	if keys.I == nil {
		keys.I = make([]int64, total) // only NULLs
	}
	return keys, nil
}

// intKeyCol is k as a column of int64s, NULL rows included (a column of
// only NULLs may come without values).
func intKeyCol(k *vec.Col, rows int) *vec.Col {
	out := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: rows, I: k.I, Null: k.Null}
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
func (n *GroupCountJoin) countRight(ctx context.Context, table *RowTable, matches []int64, nonNull [][]int64) error {
	var padded vec.Batch
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		b, err := n.Right.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if cap(padded.Cols) < n.LeftWidth+len(b.Cols) {
			padded.Cols = make([]*vec.Col, n.LeftWidth+len(b.Cols))
		}
		padded.N, padded.Cols = b.N, padded.Cols[:n.LeftWidth+len(b.Cols)]
		copy(padded.Cols[n.LeftWidth:], b.Cols)
		kc, err := n.RKey.Eval(&padded)
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
		for j, c := range n.Counts {
			if c.Arg == nil {
				continue
			}
			v, err := c.Arg.Eval(&padded)
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
func (n *GroupCountJoin) result(g leftGroups, matches []int64, nonNull [][]int64) *vec.Batch {
	var groups []int32
	for k := range g.keys.Len {
		// An inner join has no group for a key no right row matched.
		if n.LeftOuter || matches[k] > 0 {
			groups = append(groups, int32(k))
		}
	}
	nullGroup := n.LeftOuter && g.nulls > 0
	rows := len(groups)
	if nullGroup {
		rows++
	}
	key := &vec.Col{T: n.KeyType, Len: rows, I: make([]int64, rows)}
	for i, k := range groups {
		key.I[i] = g.keys.I[k]
	}
	if nullGroup {
		key.SetNull(rows - 1)
	}
	out := &vec.Batch{N: rows, Cols: []*vec.Col{key}}
	for j, c := range n.Counts {
		col := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: rows, I: make([]int64, rows)}
		for i, k := range groups {
			m := int64(1)
			if g.mult != nil {
				m = g.mult[k]
			}
			if c.Arg != nil {
				col.I[i] = m * nonNull[j][k]
			} else {
				col.I[i] = m * max(matches[k], 1)
			}
		}
		if nullGroup && c.Arg == nil {
			// NULL keys matched nothing: one joined row each.
			col.I[rows-1] = g.nulls
		}
		out.Cols = append(out.Cols, col)
	}
	return out
}

func (n *GroupCountJoin) Close() {
	n.Left.Close()
	n.Right.Close()
}

func (n *GroupCountJoin) Explain(x *Explainer, depth int) {
	kind := "INNER"
	if n.LeftOuter {
		kind = "LEFT"
	}
	var aggs []string
	for _, c := range n.Counts {
		aggs = append(aggs, c.Text)
	}
	x.Line(depth, "GROUP COUNT JOIN %s on %s = %s group by: %s aggregates: %s", kind, n.LKey, n.RKey, n.LKey, strings.Join(aggs, ", "))
	n.Left.Explain(x, depth+1)
	x.Line(depth+1, "counted side:")
	n.Right.Explain(x, depth+2)
}

package exec

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"math"
	"slices"
	"sort"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// AsofOp is an ASOF join's inequality, left value op right value.
type AsofOp uint8

const (
	AsofGe AsofOp = iota // the largest right value <= the left one
	AsofGt               // the largest right value < the left one
	AsofLe               // the smallest right value >= the left one
	AsofLt               // the smallest right value > the left one
)

// AsofJoin is an ASOF join (DuckDB's): for each left row, the right row
// with equal keys whose inequality value is the closest that meets the
// condition (LT Op RT); an inner one drops the left rows without one, a
// LEFT one keeps them with NULLs, a RIGHT or FULL one adds the right rows
// no left row chose. The right side is sorted by (key group, inequality
// value) and each left row's match found by a binary search within its
// group, O((n + m) log m). Output batches are laid out as J's, which
// holds the inputs, layout, keys and outer flags (its Cond and hooks are
// not used).
type AsofJoin struct {
	J      *HashJoin
	LT, RT Expr // the inequality's operands: LT on left batches, RT on right ones at LeftWidth
	Op     AsofOp
	Text   string // the inequality as written, for EXPLAIN

	built        bool
	buildErr     error
	table        *RowTable // right rows by key; nil without keys
	intKey       bool
	packer       *KeyPacker
	gstart, gend []int32 // per group's first row (in table): its range in order
	order        []int32 // right rows sorted by (group, value)
	ints         []int64 // the sorted values (ints, ordered as signed) ...
	floats       []float64
	strs         [][]byte
	wide         []num.Int128
	kind         int // 0 ints, 1 floats, 2 bytes, 3 wide decimals
}

// asofValues reads an inequality column: its values as ordered int64s,
// float64s, byte strings or 128-bit integers (kind 0, 1, 2, 3).
func asofValues(c *vec.Col) (ints []int64, floats []float64, strs [][]byte, wide []num.Int128, kind int, err error) {
	c = c.Decoded()
	switch k := c.T.Op(); k {
	case vec.KInt, vec.KDate, vec.KTime, vec.KTimestamp, vec.KUint:
		ints = c.I
		if k == vec.KUint {
			ints = make([]int64, len(c.I))
			for i, x := range c.I {
				ints[i] = x ^ math.MinInt64
			}
		}
		return ints, nil, nil, nil, 0, nil
	case vec.KDecimal:
		if c.T.Prec <= 18 {
			return c.I, nil, nil, nil, 0, nil
		}
		wide = c.H
		if wide == nil {
			wide = make([]num.Int128, c.Len)
			for i := range wide {
				if !c.IsNull(i) {
					var ok bool
					if wide[i], ok = num.FromBig(c.Decimal(i).Unscaled); !ok {
						return nil, nil, nil, nil, 0, errors.New("ASOF JOIN: a DECIMAL value out of range")
					}
				}
			}
		}
		return nil, nil, nil, wide, 3, nil
	case vec.KFloat:
		return nil, c.F, nil, nil, 1, nil
	case vec.KString, vec.KBytes, vec.KUUID:
		strs = make([][]byte, c.Len)
		for i := range strs {
			if !c.IsNull(i) {
				strs[i] = c.Str(i)
			}
		}
		return nil, nil, strs, nil, 2, nil
	}
	return nil, nil, nil, nil, 0, function.Unsupported("an ASOF JOIN inequality on " + c.T.SQLName())
}

func (n *AsofJoin) build(ctx context.Context) error {
	j := n.J
	if err := j.drainRight(ctx, func() string { return "ASOF join's right side" }); err != nil {
		return err
	}
	padded := j.padded()
	tc, err := n.RT.Eval(padded)
	if err != nil {
		return err
	}
	ints, floats, strs, wide, kind, err := asofValues(tc)
	if err != nil {
		return err
	}
	n.kind = kind
	// group[r] is the first right row with r's keys (-1: a NULL key or
	// value, never matched).
	group := make([]int32, j.rall.N)
	if len(j.RKeys) > 0 {
		if err := n.buildGroups(padded, group); err != nil {
			return err
		}
	}
	order := make([]int32, 0, j.rall.N)
	for r := range group {
		if group[r] >= 0 && !tc.IsNull(r) && !(kind == 1 && math.IsNaN(floats[r])) {
			order = append(order, int32(r))
		}
	}
	switch kind {
	case 0:
		n.ints = sortByGroup(order, group, ints, cmp.Compare[int64])
	case 1:
		n.floats = sortByGroup(order, group, floats, cmp.Compare[float64])
	case 2:
		n.strs = sortByGroup(order, group, strs, bytes.Compare)
	case 3:
		n.wide = sortByGroup(order, group, wide, num.Int128.Cmp)
	}
	n.order = order
	if n.table != nil {
		n.gstart, n.gend = make([]int32, j.rall.N), make([]int32, j.rall.N)
		for k := 0; k < len(order); {
			g := group[order[k]]
			e := k + 1
			for e < len(order) && group[order[e]] == g {
				e++
			}
			n.gstart[g], n.gend[g] = int32(k), int32(e)
			k = e
		}
	}
	return nil
}

// buildGroups builds the table of the right rows' keys and sets group[r]
// to the first right row with r's keys (-1: a NULL key).
func (n *AsofJoin) buildGroups(padded *vec.Batch, group []int32) error {
	keys, err := evalAll(n.J.RKeys, padded)
	if err != nil {
		return err
	}
	for i := range keys {
		keys[i] = keys[i].Decoded()
	}
	rows := len(group)
	var find func(r int) int32
	switch {
	case len(keys) == 1 && keys[0].I != nil:
		n.table, n.intKey = BuildInts(keys[0], rows), true
		find = func(r int) int32 { return n.table.FindInt(keys[0].I[r]) }
	default:
		if pk, ok := n.J.keyPacker(keys); ok {
			packed := pk.Pack(keys, rows)
			n.table, n.packer, n.intKey = BuildInts(packed, rows), pk, true
			find = func(r int) int32 { return n.table.FindInt(packed.I[r]) }
		} else {
			n.table = BuildKeys(keys, rows)
			find = func(r int) int32 { return n.table.FindKey(n.table.Key(r)) }
		}
	}
	for r := range group {
		if n.table.IsNull(r) {
			group[r] = -1
		} else {
			group[r] = find(r)
		}
	}
	return nil
}

func (n *AsofJoin) prepare(ctx context.Context) error {
	if !n.built {
		n.built = true
		n.buildErr = n.build(ctx)
	}
	return n.buildErr
}

func (n *AsofJoin) Next(ctx context.Context) (*vec.Batch, error) {
	if err := n.prepare(ctx); err != nil {
		return nil, err
	}
	// An ASOF RIGHT or FULL JOIN ends with the right rows no left row
	// chose, as a hash join's.
	return n.J.pull(ctx, n.J.Left.Next, n.probe)
}

// groups sets lo[i], hi[i] to the range in order of left row i's key
// group (lo == hi: none).
func (n *AsofJoin) groups(b *vec.Batch, lo, hi []int32) error {
	if n.table == nil {
		for i := range lo {
			lo[i], hi[i] = 0, int32(len(n.order))
		}
		return nil
	}
	keys, err := evalAll(n.J.LKeys, b)
	if err != nil {
		return err
	}
	for i := range keys {
		keys[i] = keys[i].Decoded()
	}
	find := func(i int, g int32) {
		if g >= 0 {
			lo[i], hi[i] = n.gstart[g], n.gend[g]
		}
	}
	if n.packer != nil {
		keys[0] = n.packer.Pack(keys, b.N)
	}
	if n.intKey {
		k := keys[0]
		if len(k.I) < b.N {
			return nil
		}
		for i, x := range k.I[:b.N] {
			if !k.IsNull(i) {
				find(i, n.table.FindInt(x))
			}
		}
		return nil
	}
	var buf []byte
	for i := 0; i < b.N; i++ {
		var ok bool
		if buf, ok = JoinKey(buf, keys, i); ok {
			find(i, n.table.FindKey(buf))
		}
	}
	return nil
}

// asofSearch returns the index in [lo, hi) of the closest value v that
// meets x op v, or -1; at(k) compares the k-th sorted value with x.
func asofSearch(op AsofOp, lo, hi int, at func(k int) int) int {
	// first k with value > x (upper) or >= x (lower)
	upper := func() int { return lo + sort.Search(hi-lo, func(k int) bool { return at(lo+k) > 0 }) }
	lower := func() int { return lo + sort.Search(hi-lo, func(k int) bool { return at(lo+k) >= 0 }) }
	k := -1
	switch op {
	case AsofGe: // the largest v <= x
		k = upper() - 1
	case AsofGt: // the largest v < x
		k = lower() - 1
	case AsofLe: // the smallest v >= x
		k = lower()
	case AsofLt: // the smallest v > x
		k = upper()
	}
	if k < lo || k >= hi {
		return -1
	}
	return k
}

func (n *AsofJoin) probe(b *vec.Batch) (*vec.Batch, error) {
	lo, hi := make([]int32, b.N), make([]int32, b.N)
	if err := n.groups(b, lo, hi); err != nil {
		return nil, err
	}
	tc, err := n.LT.Eval(b)
	if err != nil {
		return nil, err
	}
	ints, floats, strs, wide, kind, err := asofValues(tc)
	if err != nil {
		return nil, err
	}
	if kind != n.kind {
		return nil, errors.New("ASOF JOIN: the inequality's sides have different types")
	}
	li, ri := make([]int32, 0, b.N), make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		k := -1
		if lo[i] < hi[i] && !tc.IsNull(i) {
			switch kind {
			case 0:
				x, vs := ints[i], n.ints
				k = asofSearch(n.Op, int(lo[i]), int(hi[i]), func(k int) int { return cmp.Compare(vs[k], x) })
			case 1:
				if x, vs := floats[i], n.floats; !math.IsNaN(x) {
					k = asofSearch(n.Op, int(lo[i]), int(hi[i]), func(k int) int { return cmp.Compare(vs[k], x) })
				}
			case 2:
				x, vs := strs[i], n.strs
				k = asofSearch(n.Op, int(lo[i]), int(hi[i]), func(k int) int { return bytes.Compare(vs[k], x) })
			case 3:
				x, vs := wide[i], n.wide
				k = asofSearch(n.Op, int(lo[i]), int(hi[i]), func(k int) int { return vs[k].Cmp(x) })
			}
		}
		switch {
		case k >= 0:
			li, ri = append(li, int32(i)), append(ri, n.order[k])
		case n.J.LeftOuter:
			li, ri = append(li, int32(i)), append(ri, -1)
		}
	}
	n.J.markMatched(ri)
	return n.J.joined(b, li, ri), nil
}

func (n *AsofJoin) Close() { n.J.Close() }

func (n *AsofJoin) Memory() *OpMemory { return &n.J.mem }

func (n *AsofJoin) WrapInputs(wrap func(Node) Node) { n.J.WrapInputs(wrap) }

func (n *AsofJoin) Explain(x *Explainer, depth int) {
	j := n.J
	if len(j.LKeys) > 0 {
		x.Line(depth, "ASOF JOIN %s on %s = %s and %s", j.kindText(), ExprList(j.LKeys), ExprList(j.RKeys), n.Text)
	} else {
		x.Line(depth, "ASOF JOIN %s on %s", j.kindText(), n.Text)
	}
	j.Left.Explain(x, depth+1)
	x.Line(depth+1, "sorted side:")
	j.Right.Explain(x, depth+2)
}

// sortByGroup sorts the rows order by (group, value) and returns their
// values in that order.
func sortByGroup[T any](order []int32, group []int32, vals []T, compare func(a, b T) int) []T {
	slices.SortStableFunc(order, func(a, b int32) int {
		if c := cmp.Compare(group[a], group[b]); c != 0 {
			return c
		}
		return compare(vals[a], vals[b])
	})
	out := make([]T, len(order))
	for k, r := range order {
		out[k] = vals[r]
	}
	return out
}

// positionalChunk is the most rows of the right side's tail a
// PositionalJoin sends at a time.
const positionalChunk = 1 << 16

// PositionalJoin is a POSITIONAL join (DuckDB's): the left and right rows
// paired by their place, the shorter side padded with NULLs. J holds the
// inputs and layout (Left, Right, LeftWidth, RightTypes, LeftTypes, Keep,
// Cast).
type PositionalJoin struct {
	J        *HashJoin
	built    bool
	buildErr error
	at       int  // the next right row
	leftDone bool // the left input ended
}

func (n *PositionalJoin) Next(ctx context.Context) (*vec.Batch, error) {
	j := n.J
	if !n.built {
		n.built = true
		n.buildErr = j.drainRight(ctx, func() string { return "positional join's right side" })
	}
	if n.buildErr != nil {
		return nil, n.buildErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !n.leftDone {
		b, err := j.Left.Next(ctx)
		if err == io.EOF {
			n.leftDone = true
		} else if err != nil {
			return nil, err
		} else {
			li, ri := make([]int32, b.N), make([]int32, b.N)
			for i := range li {
				li[i], ri[i] = int32(i), -1
				if n.at < j.rall.N {
					ri[i] = int32(n.at)
					n.at++
				}
			}
			return j.joined(b, li, ri), nil
		}
	}
	if n.at >= j.rall.N {
		return nil, io.EOF
	}
	// The right rows past the left side's end, with NULL left columns.
	end := min(j.rall.N, n.at+positionalChunk)
	ri := make([]int32, 0, end-n.at)
	for r := n.at; r < end; r++ {
		ri = append(ri, int32(r))
	}
	n.at = end
	return j.rightOnly(ri), nil
}

func (n *PositionalJoin) Close() { n.J.Close() }

func (n *PositionalJoin) Memory() *OpMemory { return &n.J.mem }

func (n *PositionalJoin) WrapInputs(wrap func(Node) Node) { n.J.WrapInputs(wrap) }

func (n *PositionalJoin) Explain(x *Explainer, depth int) {
	x.Line(depth, "POSITIONAL JOIN")
	n.J.Left.Explain(x, depth+1)
	n.J.Right.Explain(x, depth+1)
}

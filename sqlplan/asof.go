package sqlplan

import (
	"bytes"
	"cmp"
	"context"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// ASOF and POSITIONAL joins (DuckDB's).
//
// The parser knows neither: asofJoins rewrites, on tokens,
//
//	a ASOF [INNER | LEFT [OUTER]] JOIN b ON cond   -> a [LEFT] JOIN b ON asofMarker(cond)
//	a ASOF [INNER | LEFT [OUTER]] JOIN b USING (k, t) -> a [LEFT] JOIN b ON asofUsingMarker(k, t)
//	a POSITIONAL JOIN b                    -> a JOIN b ON positionalMarker()
//
// (ASOF RIGHT and FULL joins are JOINs whose marker names end in _right__
// or _full__.)
//
// and tableExpr reads the markers back into joinStep.asof and
// joinStep.positional. The planner splits an ASOF condition into equality
// keys and one inequality (asofKeys) and runs it as an asofNode: the right
// side sorted by (key group, inequality value), each left row's match
// found by a binary search within its group, O((n + m) log m). A
// POSITIONAL join is a positionalNode, which pairs rows by their place.
const (
	asofMarker       = "__carquet_asof__"
	asofUsingMarker  = "__carquet_asof_using__"
	positionalMarker = "__carquet_positional__"
)

// joinEnds are the words that end a FROM item or a join condition.
var joinEnds = map[string]bool{"where": true, "group": true, "having": true, "qualify": true, "window": true, "order": true,
	"limit": true, "offset": true, "union": true, "except": true, "intersect": true, "join": true, "left": true,
	"right": true, "inner": true, "full": true, "cross": true, "natural": true, "semi": true, "anti": true, "asof": true,
	"positional": true, "straight_join": true, "returning": true, "fetch": true}

// joinItemEnd is the index, from toks[from] on, of the first token that
// ends the FROM item or condition starting there: a word of joinEnds (not
// a function call), ',' or ';' outside parentheses, an unmatched ')', or
// (stop) ON or USING.
func joinItemEnd(toks []parse.Token, from int, stopOnUsing bool) int {
	depth := 0
	for i := from; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.Kind == parse.Op && t.Text == "(":
			depth++
		case t.Kind == parse.Op && t.Text == ")":
			if depth == 0 {
				return i
			}
			depth--
		case depth > 0:
		case t.Kind == parse.Op && (t.Text == "," || t.Text == ";"):
			return i
		case t.Kind == parse.Ident && joinEnds[strings.ToLower(t.Text)] && !(i+1 < len(toks) && toks[i+1].Kind == parse.Op && toks[i+1].Text == "(") &&
			!(i > 0 && toks[i-1].Kind == parse.Op && toks[i-1].Text == "."):
			return i
		case stopOnUsing && (t.Is("on") || t.Is("using")):
			return i
		}
	}
	return len(toks)
}

// asofJoins rewrites ASOF and POSITIONAL joins into joins the parser
// takes, with markers its planner reads back (see above). Forms it does
// not know are left for the rewrite to refuse.
func asofJoins(src string, toks []parse.Token) ([]parse.Token, error) {
	at := func(i int) parse.Token {
		if i < len(toks) {
			return toks[i]
		}
		return parse.Token{}
	}
	for i := 1; i < len(toks); i++ {
		t := toks[i]
		if !t.Is("asof") && !t.Is("positional") || toks[i-1].Kind == parse.Op && toks[i-1].Text == "." {
			continue
		}
		j, left, suffix := i+1, false, "__"
		if t.Is("asof") {
			switch w := strings.ToLower(at(j).Text); {
			case at(j).Kind != parse.Ident:
			case w == "inner":
				j++
			case w == "left" || w == "right" || w == "full":
				left, j = w == "left", j+1
				if w != "left" {
					suffix = "_" + w + "__"
				}
				if at(j).Is("outer") {
					j++
				}
			}
		}
		if !at(j).Is("join") {
			continue
		}
		pos := t.Pos
		id := func(w string) parse.Token { return parse.Token{Kind: parse.Ident, Text: w, Pos: pos} }
		op := func(o string) parse.Token { return parse.Token{Kind: parse.Op, Text: o, Pos: pos} }
		head := []parse.Token{id("join")}
		if left {
			head = []parse.Token{id("left"), id("join")}
		}
		if t.Is("positional") {
			end := joinItemEnd(toks, j+1, false)
			if end == j+1 {
				return nil, errAt(src, pos, "POSITIONAL JOIN needs a table after it")
			}
			out := append(append([]parse.Token(nil), toks[:i]...), head...)
			out = append(out, toks[j+1:end]...)
			out = append(out, id("on"), id(positionalMarker), op("("), op(")"))
			toks = append(out, toks[end:]...)
			continue
		}
		k := joinItemEnd(toks, j+1, true)
		if k == len(toks) || !toks[k].Is("on") && !toks[k].Is("using") {
			return nil, errAt(src, pos, "ASOF JOIN needs an ON or USING condition")
		}
		out := append(append([]parse.Token(nil), toks[:i]...), head...)
		out = append(out, toks[j+1:k]...)
		if toks[k].Is("using") {
			if nx := at(k + 1); nx.Kind != parse.Op || nx.Text != "(" {
				return nil, errAt(src, toks[k].Pos, "USING takes a list of columns in parentheses")
			}
			out = append(out, parse.Token{Kind: parse.Ident, Text: "on", Pos: toks[k].Pos}, parse.Token{Kind: parse.Ident, Text: strings.TrimSuffix(asofUsingMarker, "__") + suffix, Pos: toks[k].Pos})
			toks = append(out, toks[k+1:]...)
			continue
		}
		end := joinItemEnd(toks, k+1, false)
		if end == k+1 {
			return nil, errAt(src, toks[k].Pos, "ON needs a condition")
		}
		out = append(out, toks[k], parse.Token{Kind: parse.Ident, Text: strings.TrimSuffix(asofMarker, "__") + suffix, Pos: toks[k].Pos}, parse.Token{Kind: parse.Op, Text: "(", Pos: toks[k].Pos})
		out = append(out, toks[k+1:end]...)
		out = append(out, parse.Token{Kind: parse.Op, Text: ")", Pos: toks[end-1].Pos})
		toks = append(out, toks[end:]...)
	}
	return toks, nil
}

// asofKeys splits the conjuncts of an ASOF join's condition into the
// equality keys and the one inequality, with the left side's operand
// first (l op r: l reads the relations before the join, r the joined
// one).
func (p *planner) asofKeys(rel *relation, on []expr, j *joinKeys) error {
	onlyRight := func(e expr) bool { rs := relsOf(e); return len(rs) == 1 && rs[rel] }
	onlyLeft := func(e expr) bool { rs := relsOf(e); return len(rs) > 0 && !rs[rel] }
	for _, c := range on {
		e, ok := c.(*cmpExpr)
		if !ok {
			return errorf("ASOF JOIN conditions must be equalities and one inequality (>=, >, <=, <) between the two sides, not %s", c)
		}
		l, r, op := e.l, e.r, e.op
		switch {
		case onlyLeft(l) && onlyRight(r):
		case onlyRight(l) && onlyLeft(r):
			l, r, op = r, l, flipCmp(op)
		default:
			return errorf("ASOF JOIN conditions must compare the two sides, not %s", c)
		}
		switch op {
		case opEq:
			j.lkeys, j.rkeys = append(j.lkeys, l), append(j.rkeys, r)
		case opGe, opGt, opLe, opLt:
			if j.asofL != nil {
				return errorf("ASOF JOIN takes one inequality, not %s and %s", j.asofText, c)
			}
			j.asofL, j.asofR, j.asofOp, j.asofText = l, r, op, c.String()
		default:
			return errorf("ASOF JOIN conditions must be equalities and one inequality (>=, >, <=, <), not %s", c)
		}
	}
	if j.asofL == nil {
		return errorf("ASOF JOIN needs an inequality (>=, >, <=, <) between the two sides")
	}
	return nil
}

// asofNode is an ASOF join: for each left row, the right row with equal
// keys whose inequality value is the closest that meets the condition
// (left.t op right.t); an inner one drops the left rows without one, a
// LEFT one keeps them with NULLs. Output batches are laid out as a
// joinNode's (whose fields j holds for joined).
type asofNode struct {
	j            *joinNode // left, right, leftWidth, rightTypes, leftOuter, lkeys, rkeys, keep
	lt, rt       expr      // the inequality's operands
	op           cmpOp
	text         string
	built        bool
	buildErr     error
	table        *rowTable // right rows by key; nil without keys
	intKey       bool
	packer       *keyPacker
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
func asofValues(c *Col) (ints []int64, floats []float64, strs [][]byte, wide []num.Int128, kind int, err error) {
	c = c.Decoded()
	switch k := c.T.Op(); k {
	case KInt, KDate, KTime, KTimestamp, KUint:
		ints = c.I
		if k == KUint {
			ints = make([]int64, len(c.I))
			for i, x := range c.I {
				ints[i] = x ^ math.MinInt64
			}
		}
		return ints, nil, nil, nil, 0, nil
	case KDecimal:
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
						return nil, nil, nil, nil, 0, errorf("ASOF JOIN: a DECIMAL value out of range")
					}
				}
			}
		}
		return nil, nil, nil, wide, 3, nil
	case KFloat:
		return nil, c.F, nil, nil, 1, nil
	case KString, KBytes, KUUID:
		strs = make([][]byte, c.Len)
		for i := range strs {
			if !c.IsNull(i) {
				strs[i] = c.Str(i)
			}
		}
		return nil, nil, strs, nil, 2, nil
	}
	return nil, nil, nil, nil, 0, unsupported("an ASOF JOIN inequality on " + c.T.SQLName())
}

func (n *asofNode) build(ctx context.Context) error {
	all, err := drainHeld(ctx, n.j.right, n.j.rightTypes, &n.j.mem, func() string { return "ASOF join's right side" })
	if err != nil {
		return err
	}
	n.j.rall = all
	padded := &Batch{N: all.N, Cols: make([]*Col, n.j.leftWidth+len(all.Cols))}
	copy(padded.Cols[n.j.leftWidth:], all.Cols)
	tc, err := n.rt.Eval(padded)
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
	group := make([]int32, all.N)
	if len(n.j.rkeys) > 0 {
		keys := make([]*Col, len(n.j.rkeys))
		for i, k := range n.j.rkeys {
			if keys[i], err = k.Eval(padded); err != nil {
				return err
			}
			keys[i] = keys[i].Decoded()
		}
		switch {
		case len(keys) == 1 && keys[0].I != nil:
			n.table, n.intKey = kernels.BuildInts(keys[0], all.N), true
			for r := range group {
				if n.table.IsNull(r) {
					group[r] = -1
				} else {
					group[r] = n.table.FindInt(keys[0].I[r])
				}
			}
		default:
			if pk, ok := newKeyPacker(keys, n.j.lkeys, all.N); ok {
				packed := pk.Pack(keys, all.N)
				n.table, n.packer, n.intKey = kernels.BuildInts(packed, all.N), pk, true
				for r := range group {
					if n.table.IsNull(r) {
						group[r] = -1
					} else {
						group[r] = n.table.FindInt(packed.I[r])
					}
				}
			} else {
				n.table = kernels.BuildKeys(keys, all.N)
				for r := range group {
					if n.table.IsNull(r) {
						group[r] = -1
					} else {
						group[r] = n.table.FindKey(n.table.Key(r))
					}
				}
			}
		}
	}
	order := make([]int32, 0, all.N)
	for r := 0; r < all.N; r++ {
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
		n.gstart, n.gend = make([]int32, all.N), make([]int32, all.N)
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

func (n *asofNode) prepare(ctx context.Context) error {
	if !n.built {
		n.built = true
		n.buildErr = n.build(ctx)
	}
	return n.buildErr
}

func (n *asofNode) Next(ctx context.Context) (*Batch, error) {
	if err := n.prepare(ctx); err != nil {
		return nil, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.j.left.Next(ctx)
		if err == io.EOF && n.j.rightOuter && !n.j.rightDone {
			// ASOF RIGHT or FULL JOIN: the right rows no left row chose.
			n.j.rightDone = true
			if out := n.j.unmatchedRight(); out.N > 0 {
				return out, nil
			}
		}
		if err != nil {
			return nil, err
		}
		out, err := n.probe(b)
		if err != nil {
			return nil, err
		}
		if out.N > 0 {
			return out, nil
		}
	}
}

// groups sets lo[i], hi[i] to the range in order of left row i's key
// group (lo == hi: none).
func (n *asofNode) groups(b *Batch, lo, hi []int32) error {
	if n.table == nil {
		for i := range lo {
			lo[i], hi[i] = 0, int32(len(n.order))
		}
		return nil
	}
	keys := make([]*Col, len(n.j.lkeys))
	for i, k := range n.j.lkeys {
		c, err := k.Eval(b)
		if err != nil {
			return err
		}
		keys[i] = c.Decoded()
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
		if buf, ok = kernels.JoinKey(buf, keys, i); ok {
			find(i, n.table.FindKey(buf))
		}
	}
	return nil
}

// search returns the index in [lo, hi) of the closest value v that
// meets x op v, or -1; at(k) compares the k-th sorted value with x.
func asofSearch(op cmpOp, lo, hi int, at func(k int) int) int {
	// first k with value > x (upper) or >= x (lower)
	upper := func() int { return lo + sort.Search(hi-lo, func(k int) bool { return at(lo+k) > 0 }) }
	lower := func() int { return lo + sort.Search(hi-lo, func(k int) bool { return at(lo+k) >= 0 }) }
	k := -1
	switch op {
	case opGe: // the largest v <= x
		k = upper() - 1
	case opGt: // the largest v < x
		k = lower() - 1
	case opLe: // the smallest v >= x
		k = lower()
	case opLt: // the smallest v > x
		k = upper()
	}
	if k < lo || k >= hi {
		return -1
	}
	return k
}

func (n *asofNode) probe(b *Batch) (*Batch, error) {
	lo, hi := make([]int32, b.N), make([]int32, b.N)
	if err := n.groups(b, lo, hi); err != nil {
		return nil, err
	}
	tc, err := n.lt.Eval(b)
	if err != nil {
		return nil, err
	}
	ints, floats, strs, wide, kind, err := asofValues(tc)
	if err != nil {
		return nil, err
	}
	if kind != n.kind {
		return nil, errorf("ASOF JOIN: the inequality's sides have different types")
	}
	li, ri := make([]int32, 0, b.N), make([]int32, 0, b.N)
	for i := 0; i < b.N; i++ {
		k := -1
		if lo[i] < hi[i] && !tc.IsNull(i) {
			switch kind {
			case 0:
				x, vs := ints[i], n.ints
				k = asofSearch(n.op, int(lo[i]), int(hi[i]), func(k int) int { return cmp.Compare(vs[k], x) })
			case 1:
				if x, vs := floats[i], n.floats; !math.IsNaN(x) {
					k = asofSearch(n.op, int(lo[i]), int(hi[i]), func(k int) int { return cmp.Compare(vs[k], x) })
				}
			case 2:
				x, vs := strs[i], n.strs
				k = asofSearch(n.op, int(lo[i]), int(hi[i]), func(k int) int { return bytes.Compare(vs[k], x) })
			case 3:
				x, vs := wide[i], n.wide
				k = asofSearch(n.op, int(lo[i]), int(hi[i]), func(k int) int { return vs[k].Cmp(x) })
			}
		}
		switch {
		case k >= 0:
			li, ri = append(li, int32(i)), append(ri, n.order[k])
		case n.j.leftOuter:
			li, ri = append(li, int32(i)), append(ri, -1)
		}
	}
	if n.j.rightOuter {
		if n.j.rmatched == nil {
			n.j.rmatched = make([]bool, n.j.rall.N)
		}
		for _, r := range ri {
			if r >= 0 {
				n.j.rmatched[r] = true
			}
		}
	}
	return n.j.joined(b, li, ri), nil
}

func (n *asofNode) Close() { n.j.Close() }

func (n *asofNode) Memory() *opMemory { return &n.j.mem }

func (n *asofNode) Explain(x *explainer, depth int) {
	kind := "INNER"
	switch {
	case n.j.leftOuter && n.j.rightOuter:
		kind = "FULL"
	case n.j.rightOuter:
		kind = "RIGHT"
	case n.j.leftOuter:
		kind = "LEFT"
	}
	if len(n.j.lkeys) > 0 {
		x.Line(depth, "ASOF JOIN %s on %s = %s and %s", kind, exprList(n.j.lkeys), exprList(n.j.rkeys), n.text)
	} else {
		x.Line(depth, "ASOF JOIN %s on %s", kind, n.text)
	}
	n.j.left.Explain(x, depth+1)
	x.Line(depth+1, "sorted side:")
	n.j.right.Explain(x, depth+2)
}

// positionalChunk is the most rows of the right side's tail a
// positionalNode sends at a time.
const positionalChunk = 1 << 16

// positionalNode is a POSITIONAL join: the left and right rows paired by
// their place, the shorter side padded with NULLs.
type positionalNode struct {
	j        *joinNode // left, right, leftWidth, rightTypes, leftTypes, keep
	built    bool
	buildErr error
	at       int  // the next right row
	leftDone bool // the left input ended
}

func (n *positionalNode) Next(ctx context.Context) (*Batch, error) {
	if !n.built {
		n.built = true
		n.j.rall, n.buildErr = drainHeld(ctx, n.j.right, n.j.rightTypes, &n.j.mem, func() string { return "positional join's right side" })
	}
	if n.buildErr != nil {
		return nil, n.buildErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !n.leftDone {
		b, err := n.j.left.Next(ctx)
		if err == io.EOF {
			n.leftDone = true
		} else if err != nil {
			return nil, err
		} else {
			li, ri := make([]int32, b.N), make([]int32, b.N)
			for i := range li {
				li[i], ri[i] = int32(i), -1
				if n.at < n.j.rall.N {
					ri[i] = int32(n.at)
					n.at++
				}
			}
			return n.j.joined(b, li, ri), nil
		}
	}
	if n.at >= n.j.rall.N {
		return nil, io.EOF
	}
	// The right rows past the left side's end, with NULL left columns.
	end := min(n.j.rall.N, n.at+positionalChunk)
	ri := make([]int32, 0, end-n.at)
	for r := n.at; r < end; r++ {
		ri = append(ri, int32(r))
	}
	n.at = end
	out := &Batch{N: len(ri), Cols: make([]*Col, n.j.leftWidth+len(n.j.rightTypes))}
	for i, t := range n.j.leftTypes {
		out.Cols[i] = nullCol(t, len(ri))
	}
	for k := range n.j.rightTypes {
		out.Cols[n.j.leftWidth+k] = n.j.rall.Cols[k].Take(ri)
	}
	return out, nil
}

func (n *positionalNode) Close() { n.j.Close() }

func (n *positionalNode) Memory() *opMemory { return &n.j.mem }

func (n *positionalNode) Explain(x *explainer, depth int) {
	x.Line(depth, "POSITIONAL JOIN")
	n.j.left.Explain(x, depth+1)
	n.j.right.Explain(x, depth+1)
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

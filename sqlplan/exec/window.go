package exec

import (
	"slices"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The window functions' kernels. The planner binds a call such as
// sum(x) OVER (PARTITION BY p ORDER BY o ROWS ...) into a WindowCall and
// evaluates its expressions over all the rows (WindowCols); Eval sorts the
// rows by partition and order keys, walks the partitions and writes each
// row's result into a typed column in the input's row order: ranks into
// int64s, lag, lead, first_value, last_value, nth_value, min and max as
// row indices gathered from the argument's column, count, sum and avg
// from prefix sums or typed running state (winframe.go).

// WinFrame is a ROWS, RANGE or GROUPS frame clause.
type WinFrame struct {
	Rows       bool
	Groups     bool // GROUPS: offsets count peer groups (neither Rows nor RANGE)
	Start, End FrameBound
	// Exclude is the EXCLUDE clause: 'c' CURRENT ROW, 'g' GROUP (the
	// row's peers and itself), 't' TIES (its peers, not itself); 0 for
	// none (NO OTHERS). The aggregates and first_value, last_value and
	// nth_value leave those rows out of each frame (winexclude.go).
	Exclude byte
}

// FrameBound is one end of a frame: unbounded ('u'), the current row
// ('c': under RANGE, the edge of its peer group), for ROWS the row Off
// positions away ('o', negative is PRECEDING), for RANGE a value offset
// ('v': Off is -1 for PRECEDING, 1 for FOLLOWING).
type FrameBound struct {
	Kind byte
	Off  int64
}

// WindowCall is one window function as bound.
type WindowCall struct {
	// Fn is row_number, rank, dense_rank, percent_rank, cume_dist,
	// ntile, lag, lead, first_value, last_value, nth_value, fill, count,
	// sum, avg, min or max; with Agg set, any aggregate, run by its
	// accumulator over each frame.
	Fn  string
	T   vec.Type // the result's type
	Agg *AggSpec
	// Star is count(*).
	Star bool
	// Desc and NullsFirst are per ORDER BY key.
	Desc, NullsFirst []bool
	// Frame is the frame clause; nil for the default frame (up to the
	// current row's last peer with ORDER BY, the partition without).
	Frame *WinFrame
	// IgnoreNulls: lag, lead, first_value, last_value and nth_value skip
	// NULL values.
	IgnoreNulls bool
	// Param is ntile's bucket count, lag's and lead's offset, or
	// nth_value's position.
	Param int64
	// ArgKeys are the directions of fill's own ORDER BY (fill(x ORDER BY
	// k)), whose key columns WindowCols.AggOrder holds.
	ArgKeys []SortKey
	Text    string // the call as written, for errors
}

// WindowCols are the columns of a WindowCall's expressions over all the
// rows.
type WindowCols struct {
	Part, Order []*vec.Col
	// Arg is the argument (nil for none); Arg2 an aggregate's second
	// argument; Default lag's and lead's value past the partition.
	Arg, Arg2, Default *vec.Col
	// Range[b] is, for frame bound b (0 start, 1 end) of kind 'v', the
	// ORDER BY key and the key moved by the offset, in one type.
	Range [2][2]*vec.Col
	// AggOrder are the keys of an aggregate's own ORDER BY
	// (agg(x ORDER BY k) OVER (...)), as Agg.OrderKeys index them.
	AggOrder []*vec.Col
	// Sorts, when set, shares row orders with other calls.
	Sorts *WindowSorts
}

// WindowSorts are the row orders computed for the window functions of
// one Window operator: functions over the same partition and order
// columns (the same *vec.Col, as a column reference evaluates to the
// batch's own column) in the same directions sort the rows once.
type WindowSorts struct{ done []windowSort }

type windowSort struct {
	keys []SortKey
	cols []*vec.Col
	idx  []int32
}

// rows is the order of the n rows of cols by keys: one computed before,
// or a new one, kept.
func (s *WindowSorts) rows(keys []SortKey, cols []*vec.Col, n int) []int32 {
	if s == nil {
		return SortRows(keys, cols, n)
	}
	for _, d := range s.done {
		if slices.Equal(d.keys, keys) && slices.Equal(d.cols, cols) {
			return d.idx
		}
	}
	idx := SortRows(keys, cols, n)
	s.done = append(s.done, windowSort{keys: keys, cols: cols, idx: idx})
	return idx
}

// WindowExprs are the expressions a WindowCall reads, as WindowCols
// holds their columns.
type WindowExprs struct {
	Part, Order        []Expr
	Arg, Arg2, Default Expr
	Range              [2][2]Expr
	AggOrder           []Expr
}

// Compute evaluates the call's expressions over all the rows and the
// call's column over them, sorting the rows as sorts has them already
// when it can (sorts may be nil).
func (w *WindowCall) Compute(all *vec.Batch, x *WindowExprs, sorts *WindowSorts) (*vec.Col, error) {
	in := WindowCols{Sorts: sorts}
	var err error
	if in.Part, err = evalExprs(all, x.Part); err != nil {
		return nil, err
	}
	if in.Order, err = evalExprs(all, x.Order); err != nil {
		return nil, err
	}
	one, err := evalExprs(all, []Expr{x.Arg, x.Arg2, x.Default})
	if err != nil {
		return nil, err
	}
	in.Arg, in.Arg2, in.Default = one[0], one[1], one[2]
	if in.AggOrder, err = evalExprs(all, x.AggOrder); err != nil {
		return nil, err
	}
	for i, c := range in.AggOrder {
		in.AggOrder[i] = c.Decoded()
	}
	for b, pair := range x.Range {
		if pair[0] == nil {
			continue
		}
		cols, err := evalExprs(all, pair[:])
		if err != nil {
			return nil, err
		}
		in.Range[b] = [2]*vec.Col{cols[0], cols[1]}
	}
	return w.Eval(&in, all.N)
}

// evalExprs evaluates es over b; a nil expression gives a nil column.
func evalExprs(b *vec.Batch, es []Expr) ([]*vec.Col, error) {
	out := make([]*vec.Col, len(es))
	for i, e := range es {
		if e == nil {
			continue
		}
		c, err := e.Eval(b)
		if err != nil {
			return nil, err
		}
		out[i] = c
	}
	return out, nil
}

// winPart is one partition being evaluated: its rows (indices into the
// input) in window order and, when the function needs them, each row's
// peer group and value-offset frame edges.
type winPart struct {
	rows []int32
	// start[k], end[k]: the peer group [start, end) of position k.
	start, end []int
	// valueStart, valueEnd: where a RANGE frame's 'v' bounds reach.
	valueStart, valueEnd []int
	// group[k]: the index of position k's peer group, and groupStart[g]
	// where group g starts (with one more entry: the partition's end);
	// made for GROUPS frames only.
	group, groupStart []int
}

// Eval computes the call's column over the n rows of in.
func (w *WindowCall) Eval(in *WindowCols, n int) (*vec.Col, error) {
	if n == 0 {
		return vec.NewCol(w.T, 0), nil
	}
	if in.Arg != nil {
		in.Arg = in.Arg.Decoded()
	}
	keyCols := append(append([]*vec.Col(nil), in.Part...), in.Order...)
	partKeys := make([]SortKey, len(in.Part))
	for i := range partKeys {
		partKeys[i] = SortKey{Col: i}
	}
	orderKeys := make([]SortKey, len(in.Order))
	for j := range orderKeys {
		orderKeys[j] = SortKey{Col: len(in.Part) + j, Desc: w.Desc[j], NullsFirst: w.NullsFirst[j]}
	}
	idx := in.Sorts.rows(append(append([]SortKey(nil), partKeys...), orderKeys...), keyCols, n)
	o := w.newOutput(in, n)
	partOrder := newRowOrder(partKeys, keyCols)
	peerOrder := newRowOrder(orderKeys, keyCols)
	needPeers := w.needsPeers()
	var peerBuf [2][]int // the peer groups of all partitions, sliced per partition
	if needPeers {
		peerBuf = [2][]int{make([]int, n), make([]int, n)}
	}
	for s := 0; s < n; {
		e := s + 1
		for e < n && partOrder.compare(int(idx[s]), int(idx[e])) == 0 {
			e++
		}
		p := &winPart{rows: idx[s:e]}
		if needPeers {
			p.start, p.end = peerBuf[0][s:e], peerBuf[1][s:e]
			p.peers(peerOrder, len(in.Order) > 0)
			if f := w.Frame; f != nil && (f.Start.Kind == 'v' || f.End.Kind == 'v') {
				p.valueFrames(w.Desc[0], in.Range)
			}
		}
		if err := w.partition(p, in, o); err != nil {
			return nil, err
		}
		s = e
	}
	return o.finish(in)
}

// needsPeers: the function reads peer groups (ranks, cume_dist) or its
// frames do (the default frame with ORDER BY, RANGE frames).
func (w *WindowCall) needsPeers() bool {
	return w.Agg != nil || !function.Window(w.Fn).Positional
}

// peers fills the partition's peer groups: rows equal in the ORDER BY,
// the whole partition without one.
func (p *winPart) peers(o rowOrder, ordered bool) {
	n := len(p.rows)
	for s := 0; s < n; {
		e := n
		if ordered {
			e = s + 1
			for e < n && o.compare(int(p.rows[s]), int(p.rows[e])) == 0 {
				e++
			}
		}
		for k := s; k < e; k++ {
			p.start[k], p.end[k] = s, e
		}
		s = e
	}
}

// winOutput is a call's result being written, in the input's row order:
// a typed column written directly (out), or, for the functions that pick
// a row's value (lag, lead, first/last/nth_value, min, max), the row
// each result comes from (src: -1 for NULL, -2 for lag's and lead's
// default), or, for the accumulator aggregates, each row's one-row result.
type winOutput struct {
	t    vec.Type
	out  *vec.Col
	src  []int32
	accs []*vec.Col
	// cnt and sum are prefix counts and sums, kept for the next partition.
	cnt []int64
	sum []num.Int128
}

const (
	srcNull    = -1
	srcDefault = -2
)

func (w *WindowCall) newOutput(in *WindowCols, n int) *winOutput {
	switch {
	case w.Agg != nil:
		return &winOutput{t: w.T, accs: make([]*vec.Col, n)}
	case w.picksRows():
		return &winOutput{t: w.T, src: make([]int32, n)}
	}
	return &winOutput{t: w.T, out: vec.NewCol(w.T, n)}
}

// picksRows: the result of each row is the argument's value at some row.
func (w *WindowCall) picksRows() bool {
	return w.Agg == nil && function.Window(w.Fn).Picks
}

// finish builds the result column: out as written, or the rows picked
// gathered from the argument (typed, by Take) or the one-row results.
func (o *winOutput) finish(in *WindowCols) (*vec.Col, error) {
	switch {
	case o.out != nil:
		return o.out, nil
	case o.accs != nil:
		b := vec.NewBuilder(o.t, len(o.accs))
		for _, c := range o.accs {
			b.AddRow(c, 0)
		}
		return b.C, nil
	}
	return gatherRows(o.t, in.Arg, in.Default, o.src), nil
}

// gatherRows is, as a column of type t (arg's storage), row src[i] of arg
// for each i, NULL where src[i] is srcNull and row i of def where it is
// srcDefault.
func gatherRows(t vec.Type, arg, def *vec.Col, src []int32) *vec.Col {
	hasDefault := false
	idx := make([]int32, len(src))
	for i, r := range src {
		if r < 0 {
			hasDefault = hasDefault || r == srcDefault
			r = 0 // a valid row, replaced below
		}
		idx[i] = r
	}
	if arg.Len == 0 {
		return vec.NullCol(t, len(src))
	}
	if !hasDefault {
		out := arg.Take(idx)
		out.T = t
		for i, r := range src {
			if r == srcNull {
				out.SetNull(i)
			}
		}
		return out
	}
	// With a default value the rows come from two columns: append them
	// in order (typed for the common storages, see Builder.AddRow).
	b := vec.NewBuilder(t, len(src))
	for i, r := range src {
		switch r {
		case srcNull:
			b.Add(nil)
		case srcDefault:
			b.AddRow(def, i)
		default:
			b.AddRow(arg, int(r))
		}
	}
	return b.C
}

// partition evaluates the call over one partition.
func (w *WindowCall) partition(p *winPart, in *WindowCols, o *winOutput) error {
	rows, n := p.rows, len(p.rows)
	switch w.Fn {
	case "row_number":
		for k, r := range rows {
			o.out.I[r] = int64(k + 1)
		}
	case "rank":
		for k, r := range rows {
			o.out.I[r] = int64(p.start[k] + 1)
		}
	case "dense_rank":
		rank := int64(0)
		for k, r := range rows {
			if k == p.start[k] {
				rank++
			}
			o.out.I[r] = rank
		}
	case "percent_rank":
		for k, r := range rows {
			if n > 1 {
				o.out.F[r] = float64(p.start[k]) / float64(n-1)
			} else {
				o.out.F[r] = 0
			}
		}
	case "cume_dist":
		for k, r := range rows {
			o.out.F[r] = float64(p.end[k]) / float64(n)
		}
	case "ntile":
		buckets := max(w.Param, 1)
		for k, r := range rows {
			o.out.I[r] = int64(k)*buckets/int64(n) + 1
		}
	case "lag", "lead":
		w.lagLead(p, in, o.src)
	case "first_value", "last_value", "nth_value":
		w.frameValue(p, in.Arg, o.src)
	case "fill":
		w.fill(p, in, o.out)
	default: // count, sum, avg, min, max, or an aggregate, over each row's frame
		if w.Agg != nil {
			return w.accFrames(p, in, o.accs)
		}
		return w.frameAggregate(p, in.Arg, o)
	}
	return nil
}

// lagLead picks, for each row, the row Param positions back (lag) or on
// (lead), counting only non-NULL values under IGNORE NULLS.
func (w *WindowCall) lagLead(p *winPart, in *WindowCols, src []int32) {
	rows, n := p.rows, len(p.rows)
	off := w.Param
	if w.Fn == "lag" {
		off = -off
	}
	miss := int32(srcNull)
	if in.Default != nil {
		miss = srcDefault
	}
	for k, r := range rows {
		j := int64(k) + off
		if w.IgnoreNulls {
			j = stepOverNulls(p, in.Arg, k, off)
		}
		if j >= 0 && j < int64(n) {
			src[r] = rows[j]
		} else {
			src[r] = miss
		}
	}
}

// stepOverNulls is the position off non-NULL values away from k (lag and
// lead IGNORE NULLS), or -1.
func stepOverNulls(p *winPart, arg *vec.Col, k int, off int64) int64 {
	if off == 0 {
		return int64(k)
	}
	dir := int64(1)
	if off < 0 {
		dir, off = -1, -off
	}
	for j := int64(k) + dir; j >= 0 && j < int64(len(p.rows)); j += dir {
		if !arg.IsNull(int(p.rows[j])) {
			if off--; off == 0 {
				return j
			}
		}
	}
	return -1
}

// frameValue picks first_value's, last_value's or nth_value's row of
// each row's frame.
func (w *WindowCall) frameValue(p *winPart, arg *vec.Col, src []int32) {
	if w.excludes() {
		w.frameValueExcluded(p, arg, src)
		return
	}
	for k, r := range p.rows {
		fs, fe := p.frame(w.Frame, k)
		j := -1
		switch {
		case w.IgnoreNulls:
			j = w.nonNullInFrame(p, arg, fs, fe)
		case fs >= fe:
		case w.Fn == "first_value":
			j = fs
		case w.Fn == "last_value":
			j = fe - 1
		default: // the nth row of the frame, NULL when the frame is shorter
			if nth := int64(fs) + w.Param - 1; nth < int64(fe) {
				j = int(nth)
			}
		}
		src[r] = srcNull
		if j >= 0 {
			src[r] = p.rows[j]
		}
	}
}

// nonNullInFrame is the position of first_value, last_value or nth_value
// over the non-NULL values of the frame [fs, fe), or -1.
func (w *WindowCall) nonNullInFrame(p *winPart, arg *vec.Col, fs, fe int) int {
	if w.Fn == "last_value" {
		for j := fe - 1; j >= fs; j-- {
			if !arg.IsNull(int(p.rows[j])) {
				return j
			}
		}
		return -1
	}
	nth := int64(1)
	if w.Fn == "nth_value" {
		nth = w.Param
	}
	for j := fs; j < fe; j++ {
		if !arg.IsNull(int(p.rows[j])) {
			if nth--; nth == 0 {
				return j
			}
		}
	}
	return -1
}

package sqlplan

import (
	"github.com/carquet-go/carquet/sqlplan/function"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Window functions. The rewrite layer turns fn(args) OVER (PARTITION BY
// p ORDER BY o) into a marker call; the binder collects each into a
// winSpec whose result is a column appended to the batches by exec.Window,
// which runs after WHERE, GROUP BY and HAVING and before the projection.

// winCtx collects the window functions of one SELECT.
type winCtx struct{ specs []*winSpec }

type winSpec struct {
	fn    string
	args  []expr
	star  bool
	part  []expr
	order []expr
	desc  []bool
	// nullsFirst per ORDER BY item (NULLS FIRST).
	nullsFirst []bool
	t          Type
	slot       *slot
	text       string
	// frame is the frame clause, nil for the default frame (the partition
	// up to the current row's last peer with ORDER BY, all of it without).
	frame *winFrame
	// offsets are a RANGE frame's value offsets, in the order of its 'v'
	// bounds. rangeKey[b] and rangeBound[b] are, for bound b (0 start, 1
	// end) of kind 'v', the ORDER BY key and the key moved by the offset,
	// both of one type: the frame of a row runs over the rows whose key is
	// between its bounds' values.
	offsets              []expr
	rangeKey, rangeBound [2]expr
	// agg is set for the other aggregates (median, string_agg, stddev,
	// ...): each row's frame is aggregated with the GROUP BY
	// accumulator; args are then its argument and second argument.
	agg *aggSpec
	// ignoreNulls: first_value, last_value, nth_value, lag and lead skip
	// NULL values (IGNORE NULLS).
	ignoreNulls bool
}

// winFrame is a ROWS or RANGE frame. A bound is unbounded ('u'), the
// current row ('c': for RANGE, the edge of its peer group), for ROWS the
// row off positions away ('o'; negative is PRECEDING), for RANGE a value
// offset ('v'; off is -1 for PRECEDING, 1 for FOLLOWING).
type winFrame struct {
	rows       bool
	start, end frameBound
}

type frameBound struct {
	kind byte
	off  int64
}

// parseFrame decodes the "|f:MODE:START:END" marker of rewrite's
// windowFrame.
func parseFrame(m string) (*winFrame, error) {
	parts := strings.Split(m, ":")
	if len(parts) != 4 || parts[0] != "|f" {
		return nil, errorf("bad window frame")
	}
	f := &winFrame{rows: parts[1] == "rows"}
	for i, b := range []*frameBound{&f.start, &f.end} {
		switch t := parts[2+i]; t {
		case "u", "c":
			b.kind = t[0]
		case "v-", "v+":
			b.kind, b.off = 'v', 1
			if t == "v-" {
				b.off = -1
			}
		default:
			n, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				return nil, errorf("bad window frame")
			}
			b.kind, b.off = 'o', n
		}
	}
	return f, nil
}

var windowFns = map[string]bool{
	"row_number": true, "rank": true, "dense_rank": true, "rank_dense": true, "percent_rank": true, "cume_dist": true, "ntile": true,
	"lag": true, "lead": true, "first_value": true, "last_value": true, "nth_value": true,
	"count": true, "sum": true, "avg": true, "mean": true, "min": true, "max": true,
}

func (p *planner) bindWindow(x *sqlparser.FuncExpr, sc *scope, agg *aggCtx) (expr, error) {
	if p.win == nil {
		return nil, errorf("window functions are only allowed in the select list and ORDER BY")
	}
	if len(x.Exprs) == 0 {
		return nil, errorf("bad window call")
	}
	first, _ := x.Exprs[0].(*sqlparser.AliasedExpr)
	lit, ok := first.Expr.(*sqlparser.SQLVal)
	if !ok {
		return nil, errorf("bad window call")
	}
	spec := &winSpec{fn: strings.ToLower(string(lit.Val)), text: parse.Unmark(sqlparser.String(x))}
	switch spec.fn {
	case "mean":
		spec.fn = "avg"
	case "rank_dense": // DuckDB's alias
		spec.fn = "dense_rank"
	}
	fn, ignoreNulls := strings.CutSuffix(spec.fn, parse.IgnoreNullsSuffix)
	fn, distinct := strings.CutSuffix(fn, parse.DistinctSuffix)
	spec.fn, spec.ignoreNulls = fn, ignoreNulls
	switch spec.fn {
	case "first_value", "last_value", "nth_value", "lag", "lead":
	default:
		if ignoreNulls {
			return nil, errorf("IGNORE NULLS is for first_value, last_value, nth_value, lag and lead, not %s", spec.fn)
		}
	}
	// Aggregates without a kernel here, and any of DISTINCT values, run
	// the GROUP BY accumulators over each frame.
	generic := (!windowFns[spec.fn] || distinct) && aggNames[spec.fn] && spec.fn != "grouping" && spec.fn != "grouping_id"
	if !windowFns[spec.fn] && !generic {
		return nil, unsupported("the window function " + spec.fn)
	}
	if generic && agg != nil {
		return nil, unsupported("the window function " + spec.fn + " in a query with GROUP BY or aggregates")
	}
	var rawArgs sqlparser.SelectExprs
	mode := 'a'
	for _, it := range x.Exprs[1:] {
		switch it := it.(type) {
		case *sqlparser.StarExpr:
			spec.star = true
		case *sqlparser.AliasedExpr:
			if v, ok := it.Expr.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
				switch string(v.Val) {
				case "|p":
					mode = 'p'
					continue
				case "|o":
					mode = 'o'
					continue
				case "|fo":
					mode = 'f'
					continue
				}
				if d, ok := parse.ParseOrderDir(string(v.Val)); ok && mode == 'o' && len(spec.desc) > 0 {
					spec.desc[len(spec.desc)-1], spec.nullsFirst[len(spec.nullsFirst)-1] = p.set.resolveOrder(d.Dir, d.Nulls)
					continue
				}
				if strings.HasPrefix(string(v.Val), "|f:") {
					f, err := parseFrame(string(v.Val))
					if err != nil {
						return nil, err
					}
					spec.frame = f
					continue
				}
			}
			e, err := p.bindExpr(it.Expr, sc, agg)
			if err != nil {
				return nil, err
			}
			switch mode {
			case 'a':
				spec.args = append(spec.args, e)
				rawArgs = append(rawArgs, it)
			case 'f':
				spec.offsets = append(spec.offsets, e)
			case 'p':
				spec.part = append(spec.part, e)
			default:
				spec.order = append(spec.order, e)
				spec.desc = append(spec.desc, false)
				spec.nullsFirst = append(spec.nullsFirst, false)
			}
		}
	}
	if err := p.bindRangeOffsets(spec); err != nil {
		return nil, err
	}
	if generic {
		if err := p.bindWindowAggregate(spec, rawArgs, distinct, sc); err != nil {
			return nil, err
		}
	} else if distinct {
		return nil, unsupported("DISTINCT in the window function " + spec.fn)
	}
	var at Type
	if len(spec.args) > 0 {
		at = spec.args[0].Type()
	}
	avgInterval := false
	need := func(n int) error {
		if len(spec.args) < n {
			return errorf("%s needs %d argument(s)", spec.fn, n)
		}
		return nil
	}
	switch spec.fn {
	case "row_number", "rank", "dense_rank", "count":
		spec.t = tInt
		if spec.fn == "count" && !spec.star {
			if err := need(1); err != nil {
				return nil, err
			}
		}
	case "ntile":
		if err := need(1); err != nil {
			return nil, err
		}
		if k, ok := isConst(spec.args[0]); !ok || k.t.Op() != KInt {
			return nil, errorf("ntile takes a constant integer")
		}
		spec.t = tInt
	case "percent_rank", "cume_dist", "avg":
		spec.t = tFloat
		if spec.fn == "avg" {
			if err := need(1); err != nil {
				return nil, err
			}
			// Integers and decimals are summed exactly (as the
			// aggregate): only the quotient is a DOUBLE. An INTERVAL
			// is averaged as its microseconds and turned back (below).
			if at.Kind == KInterval {
				spec.args[0], at, avgInterval = asBigint(spec.args[0]), tInt, true
			}
			if at.Op() != KInt && at.Kind != KDecimal {
				c, err := p.cast(spec.args[0], tFloat)
				if err != nil {
					return nil, err
				}
				spec.args[0] = c
			}
		}
	case "sum":
		if err := need(1); err != nil {
			return nil, err
		}
		switch {
		case at.Op() == KInt || at.Huge:
			spec.t = tHuge // as the aggregate and DuckDB
		case at.Kind == KDecimal:
			// Exact, as the aggregate and DuckDB: DECIMAL(38, s).
			spec.t = Type{Kind: KDecimal, Prec: 38, Scale: at.Scale}
		default:
			c, err := p.cast(spec.args[0], tFloat)
			if err != nil {
				return nil, err
			}
			spec.args[0] = c
			spec.t = tFloat
		}
	case "min", "max", "first_value", "last_value", "lag", "lead", "nth_value":
		if err := need(1); err != nil {
			return nil, err
		}
		spec.t = withoutField(at)
		if spec.fn == "nth_value" {
			if len(spec.args) != 2 {
				return nil, errorf("nth_value takes a value and a position")
			}
			if k, ok := isConst(spec.args[1]); !ok || k.t.Op() != KInt || k.v == nil || k.v.(int64) < 1 {
				return nil, errorf("the position of nth_value must be a constant integer from 1")
			}
		}
		if spec.fn == "lag" || spec.fn == "lead" {
			if len(spec.args) > 1 {
				if k, ok := isConst(spec.args[1]); !ok || k.t.Op() != KInt {
					return nil, errorf("the offset of %s must be a constant integer", spec.fn)
				}
			}
			if len(spec.args) > 2 {
				c, err := p.cast(spec.args[2], spec.t)
				if err != nil {
					return nil, err
				}
				spec.args[2] = c
			}
		}
	}
	spec.slot = &slot{}
	p.win.specs = append(p.win.specs, spec)
	e := &colExpr{s: spec.slot, t: spec.t}
	e.setText(spec.fn + "(...) OVER (...)")
	if avgInterval {
		return microsInterval(e, spec.text), nil
	}
	return e, nil
}

// bindRangeOffsets checks a RANGE frame's value offsets (constant, not
// NULL, not negative, one ORDER BY key) and binds, for each bound with an
// offset, the key and the key moved by the offset (back for PRECEDING,
// forward for FOLLOWING, the other way under DESC) in one type.
func (p *planner) bindRangeOffsets(spec *winSpec) error {
	f := spec.frame
	if f == nil || f.rows || (f.start.kind != 'v' && f.end.kind != 'v') {
		return nil
	}
	if len(spec.order) != 1 {
		return errorf("a RANGE frame with an offset needs exactly one ORDER BY expression")
	}
	key := spec.order[0]
	k := 0
	for b, bound := range []frameBound{f.start, f.end} {
		if bound.kind != 'v' {
			continue
		}
		if k >= len(spec.offsets) {
			return errorf("bad window frame")
		}
		off := spec.offsets[k]
		k++
		c, ok := isConst(off)
		if !ok || c.v == nil {
			return errorf("a RANGE frame offset must be a constant, not NULL")
		}
		if neg, err := p.compare(opLt, off, &constExpr{t: tInt, v: int64(0)}); err == nil {
			if v, err := neg.Eval(&Batch{N: 1}); err == nil && !v.IsNull(0) && v.B[0] {
				return errorf("a RANGE frame offset cannot be negative")
			}
		}
		op := byte('+')
		if (bound.off < 0) != spec.desc[0] {
			op = '-'
		}
		moved, err := p.arith(op, key, off)
		if err != nil {
			return errorf("RANGE frame offset %s does not apply to ORDER BY %s: %v", off.Type().SQLName(), key.Type().SQLName(), err)
		}
		if spec.rangeKey[b], spec.rangeBound[b], err = p.unify(key, moved); err != nil {
			return err
		}
	}
	return nil
}

// The window operator is exec.Window; a winSpec is one of its functions.

// newWindow computes the window functions specs over in.
func newWindow(in node, specs []*winSpec) *kernels.Window {
	funcs := make([]kernels.WindowFunc, len(specs))
	for k, w := range specs {
		funcs[k] = w
	}
	return &kernels.Window{In: in, Funcs: funcs}
}

func (w *winSpec) Compute(all *Batch) (*Col, error) { return computeWindow(all, w) }
func (w *winSpec) Slot() int                        { return w.slot.idx }
func (w *winSpec) String() string                   { return w.text }

func computeWindow(all *Batch, w *winSpec) (*Col, error) {
	nrows := all.N
	evalAll := func(es []expr) ([]*Col, error) {
		out := make([]*Col, len(es))
		for i, e := range es {
			c, err := e.Eval(all)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	pc, err := evalAll(w.part)
	if err != nil {
		return nil, err
	}
	oc, err := evalAll(w.order)
	if err != nil {
		return nil, err
	}
	ac, err := evalAll(w.args)
	if err != nil {
		return nil, err
	}
	var rc [2][2]*Col // a RANGE offset bound's key and moved key columns
	for b := range rc {
		if w.rangeKey[b] != nil {
			cols, err := evalAll([]expr{w.rangeKey[b], w.rangeBound[b]})
			if err != nil {
				return nil, err
			}
			rc[b] = [2]*Col{cols[0], cols[1]}
		}
	}
	keyCols := append(append([]*Col(nil), pc...), oc...)
	var partKeys, allKeys []sortKey
	for i := range pc {
		partKeys = append(partKeys, sortKey{Col: i})
	}
	allKeys = append(allKeys, partKeys...)
	for j := range oc {
		allKeys = append(allKeys, sortKey{Col: len(pc) + j, Desc: w.desc[j], NullsFirst: w.nullsFirst[j]})
	}
	idx := kernels.SortRows(allKeys, keyCols, nrows)
	res := make([]any, nrows)
	for s := 0; s < nrows; {
		e := s + 1
		for e < nrows && kernels.CompareRows(partKeys, keyCols, int(idx[s]), keyCols, int(idx[e])) == 0 {
			e++
		}
		if err := windowPartition(w, idx[s:e], keyCols, allKeys, ac, rc, res, len(oc) > 0); err != nil {
			return nil, err
		}
		s = e
	}
	b := newBuilder(w.t, nrows)
	for _, v := range res {
		b.Add(v)
	}
	return b.C, nil
}

// windowPartition fills res for the rows of one partition, in window order.
func windowPartition(w *winSpec, rows []int32, keyCols []*Col, allKeys []sortKey, ac []*Col, rc [2][2]*Col, res []any, ordered bool) error {
	n := len(rows)
	// peerEnd[k] is one past the last row of k's peer group (rows equal in
	// the ORDER BY); without ORDER BY the whole partition is one group.
	peerEnd := make([]int, n)
	peerStart := make([]int, n)
	for s := 0; s < n; {
		e := s + 1
		if ordered {
			for e < n && kernels.CompareRows(allKeys, keyCols, int(rows[s]), keyCols, int(rows[e])) == 0 {
				e++
			}
		} else {
			e = n
		}
		for k := s; k < e; k++ {
			peerStart[k], peerEnd[k] = s, e
		}
		s = e
	}
	pe := &peerGroups{start: peerStart, end: peerEnd}
	if w.frame != nil && (w.frame.start.kind == 'v' || w.frame.end.kind == 'v') {
		pe.valueFrames(w, rows, rc)
	}
	arg := func(k int) any {
		if len(ac) == 0 {
			return nil
		}
		return ac[0].Get(int(rows[k]))
	}
	switch w.fn {
	case "row_number":
		for k := range rows {
			res[rows[k]] = int64(k + 1)
		}
	case "rank":
		for k := range rows {
			res[rows[k]] = int64(peerStart[k] + 1)
		}
	case "dense_rank":
		rank := int64(0)
		for k := range rows {
			if k == peerStart[k] {
				rank++
			}
			res[rows[k]] = rank
		}
	case "percent_rank":
		for k := range rows {
			if n == 1 {
				res[rows[k]] = 0.0
			} else {
				res[rows[k]] = float64(peerStart[k]) / float64(n-1)
			}
		}
	case "cume_dist":
		for k := range rows {
			res[rows[k]] = float64(peerEnd[k]) / float64(n)
		}
	case "ntile":
		buckets := w.args[0].(*constExpr).v.(int64)
		if buckets < 1 {
			buckets = 1
		}
		for k := range rows {
			res[rows[k]] = int64(k)*buckets/int64(n) + 1
		}
	case "lag", "lead":
		off := int64(1)
		if len(ac) > 1 {
			off = w.args[1].(*constExpr).v.(int64)
		}
		if w.fn == "lag" {
			off = -off
		}
		for k := range rows {
			j := int64(k) + off
			if w.ignoreNulls {
				j = stepOverNulls(k, off, n, arg)
			}
			switch {
			case j >= 0 && j < int64(n):
				res[rows[k]] = arg(int(j))
			case len(ac) > 2:
				res[rows[k]] = ac[2].Get(int(rows[k]))
			}
		}
	case "first_value", "last_value", "nth_value":
		for k := range rows {
			fs, fe := frameOf(w.frame, k, n, pe)
			if w.ignoreNulls {
				res[rows[k]] = nonNullInFrame(w, fs, fe, arg)
				continue
			}
			switch {
			case fs >= fe:
				res[rows[k]] = nil
			case w.fn == "first_value":
				res[rows[k]] = arg(fs)
			case w.fn == "nth_value":
				// the nth row of the frame, NULL when the frame is shorter
				if nth := int64(fs) + w.args[1].(*constExpr).v.(int64) - 1; nth < int64(fe) {
					res[rows[k]] = arg(int(nth))
				} else {
					res[rows[k]] = nil
				}
			default:
				res[rows[k]] = arg(fe - 1)
			}
		}
	default: // count, sum, avg, min, max over each row's frame
		if w.agg != nil {
			return genericFrameAggregate(w, rows, ac, res, pe)
		}
		return frameAggregate(w, rows, ac, res, pe)
	}
	return nil
}

// stepOverNulls is the position off non-NULL values away from k (lag and
// lead IGNORE NULLS), or -1.
func stepOverNulls(k int, off int64, n int, arg func(int) any) int64 {
	if off == 0 {
		return int64(k)
	}
	dir := int64(1)
	if off < 0 {
		dir, off = -1, -off
	}
	for j := int64(k) + dir; j >= 0 && j < int64(n); j += dir {
		if arg(int(j)) != nil {
			if off--; off == 0 {
				return j
			}
		}
	}
	return -1
}

// nonNullInFrame is first_value, last_value or nth_value over the
// non-NULL values of the frame [fs, fe).
func nonNullInFrame(w *winSpec, fs, fe int, arg func(int) any) any {
	nth := int64(1)
	if w.fn == "nth_value" {
		nth = w.args[1].(*constExpr).v.(int64)
	}
	if w.fn == "last_value" {
		for j := fe - 1; j >= fs; j-- {
			if v := arg(j); v != nil {
				return v
			}
		}
		return nil
	}
	for j := fs; j < fe; j++ {
		if v := arg(j); v != nil {
			if nth--; nth == 0 {
				return v
			}
		}
	}
	return nil
}

// bindWindowAggregate binds an aggregate that has no window kernel of its
// own, as the aggregate over one group would be: spec.agg, its type, and
// its argument and second argument as the window's arguments.
func (p *planner) bindWindowAggregate(spec *winSpec, args sqlparser.SelectExprs, distinct bool, sc *scope) error {
	call := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(spec.fn), Exprs: args, Distinct: distinct}
	one := &aggCtx{inScope: sc}
	if _, err := p.bindAggregate(call, one); err != nil {
		return err
	}
	if len(one.aggs) != 1 {
		return errorf("internal error: %s OVER (...) bound %d aggregates", spec.fn, len(one.aggs))
	}
	a := one.aggs[0]
	if a.Order != nil {
		return unsupported("ORDER BY inside the window function " + spec.fn)
	}
	spec.agg, spec.t, spec.args = a, a.T, nil
	for _, e := range []kernels.Expr{a.Arg, a.Arg2} {
		if e != nil {
			spec.args = append(spec.args, e.(expr))
		}
	}
	return nil
}

// genericFrameAggregate fills res with w.agg over each row's frame. A
// frame equal to the previous row's (every row of a partition without
// ORDER BY, peers under RANGE) is not aggregated again; frames that start
// at the partition's first row grow one accumulator, whose result is read
// as the frame ends move on (the accumulators' results do not consume
// their state); other frames get a fresh accumulator each, which costs the
// frame's width per distinct frame.
func genericFrameAggregate(w *winSpec, rows []int32, ac []*Col, res []any, pe *peerGroups) error {
	feed := func(acc function.Accumulator, sel []int32) {
		gids := make([]int32, len(sel))
		switch {
		case len(ac) == 2:
			acc.(function.PairAccumulator).Update2(gids, 1, ac[0].Take(sel), ac[1].Take(sel))
		case len(ac) == 1:
			acc.Update(gids, 1, ac[0].Take(sel))
		default:
			acc.Update(gids, 1, nil)
		}
	}
	running := w.frame == nil || w.frame.start.kind == 'u'
	var acc function.Accumulator
	fed := 0 // running: rows [0, fed) are in acc
	prevS, prevE := -1, -1
	var prev any
	for k := range rows {
		fs, fe := frameOf(w.frame, k, len(rows), pe)
		fe = max(fs, fe)
		if fs != prevS || fe != prevE {
			switch {
			case running && fe >= fed:
				if acc == nil {
					acc = kernels.NewAccumulator(w.agg)
				}
				feed(acc, rows[fed:fe])
				fed = fe
			default:
				acc, fed = kernels.NewAccumulator(w.agg), 0
				feed(acc, rows[fs:fe])
				if running {
					fed = fe
				}
			}
			if err := function.AccError(acc); err != nil {
				return err
			}
			prev, prevS, prevE = acc.Result(1).Get(0), fs, fe
		}
		res[rows[k]] = prev
	}
	return nil
}

// peerGroups are, for each row of a partition in window order, its peer
// group [start[k], end[k]) and, for a RANGE frame with value offsets, the
// positions its 'v' bounds reach: valueStart[k], valueEnd[k].
type peerGroups struct {
	start, end           []int
	valueStart, valueEnd []int
}

// valueFrames fills valueStart and valueEnd: for a start bound, the first
// row whose key is not before the row's moved key (rc[0]); for an end
// bound, one past the last row whose key is not after it (rc[1]). Rows with
// a NULL key, which sort together at one end, frame their own peer group
// (NULL moved by an offset is NULL); the others never reach them.
func (pe *peerGroups) valueFrames(w *winSpec, rows []int32, rc [2][2]*Col) {
	n := len(rows)
	pe.valueStart, pe.valueEnd = make([]int, n), make([]int, n)
	sign := 1 // rows are in ascending key order
	if w.desc[0] {
		sign = -1
	}
	one := []sortKey{{Col: 0}}
	for b, out := range [][]int{pe.valueStart, pe.valueEnd} {
		key, moved := rc[b][0], rc[b][1]
		if key == nil {
			continue
		}
		lo, hi := 0, n // the rows with a key
		for lo < hi && key.IsNull(int(rows[lo])) {
			lo++
		}
		for hi > lo && key.IsNull(int(rows[hi-1])) {
			hi--
		}
		kc, mc := []*Col{key}, []*Col{moved}
		for k := range rows {
			r := int(rows[k])
			if key.IsNull(r) || moved.IsNull(r) {
				out[k] = pe.start[k]
				if b == 1 {
					out[k] = pe.end[k]
				}
				continue
			}
			// The first row (of [lo, hi)) past the moved key: for a
			// start bound, at or past it; for an end bound, strictly.
			out[k] = lo + sort.Search(hi-lo, func(j int) bool {
				c := sign * kernels.CompareRows(one, kc, int(rows[lo+j]), mc, r)
				return c > 0 || b == 0 && c == 0
			})
		}
	}
}

// frameOf returns the frame [start, end) of the row at position k of a
// partition of n rows: the default frame (up to k's last peer), or f's
// bounds clipped to the partition (empty when start >= end).
func frameOf(f *winFrame, k, n int, pe *peerGroups) (int, int) {
	peerStart, peerEnd := pe.start, pe.end
	if f == nil {
		return 0, peerEnd[k]
	}
	pos := func(b frameBound, isEnd bool) int {
		switch b.kind {
		case 'u':
			if isEnd {
				return n
			}
			return 0
		case 'v':
			if isEnd {
				return pe.valueEnd[k]
			}
			return pe.valueStart[k]
		case 'c':
			switch {
			case !f.rows && isEnd:
				return peerEnd[k]
			case !f.rows:
				return peerStart[k]
			case isEnd:
				return k + 1
			}
			return k
		}
		p := int64(k) + b.off
		if isEnd {
			p++
		}
		return int(max(0, min(p, int64(n))))
	}
	return pos(f.start, false), pos(f.end, true)
}

// winAcc accumulates count, sum, avg, min or max over a frame's values.
type winAcc struct {
	w    *winSpec
	t    Type // the argument's type (min and max compare by it)
	cnt  int64
	sumI int64
	sumF float64
	sumD function.DecSum
	ext  any
}

func (a *winAcc) reset() { *a = winAcc{w: a.w, t: a.t} }

// add takes one value of the frame (nil for a NULL, or any row for count(*)).
func (a *winAcc) add(v any) error {
	w := a.w
	if w.star {
		a.cnt++
		return nil
	}
	if v == nil {
		return nil
	}
	a.cnt++
	switch x := v.(type) {
	case int64:
		if w.t.Kind == KDecimal || w.fn == "avg" {
			// a DECIMAL(p <= 18) in units of its scale, or an integer
			// averaged exactly
			a.sumD.AddUnscaled(x)
			break
		}
		t, o := function.AddInt64(a.sumI, x)
		if o && w.fn == "sum" {
			return errorf("%s: integer overflow", w.text)
		}
		a.sumI = t
	case value.Decimal:
		a.sumD.AddDecimal(x, a.t.Scale)
	case float64:
		a.sumF += x
	}
	if w.fn == "min" || w.fn == "max" {
		if a.ext == nil {
			a.ext = v
		} else if c := function.ExtremeCmp(a.t, v, a.ext); w.fn == "min" && c < 0 || w.fn == "max" && c > 0 {
			a.ext = v
		}
	}
	return nil
}

// value is the aggregate of the values added (NULL for none, but 0 for count).
func (a *winAcc) value() any {
	w := a.w
	switch w.fn {
	case "count":
		return a.cnt
	case "sum":
		if a.cnt == 0 {
			return nil
		}
		switch w.t.Kind {
		case KFloat:
			return a.sumF
		case KDecimal:
			return a.sumD.Value(w.t.Scale)
		}
		return a.sumI
	case "avg":
		if a.cnt == 0 {
			return nil
		}
		if a.t.Op() == KInt || a.t.Kind == KDecimal {
			q := new(big.Rat).Quo(decRat(a.sumD.Value(a.t.Scale)), new(big.Rat).SetInt64(a.cnt))
			f, _ := q.Float64()
			return f
		}
		return a.sumF / float64(a.cnt)
	}
	return a.ext
}

// frameAggregate fills res with an aggregate over each row's frame. Frames
// that start at the partition's first row grow as k does: one running
// accumulation, front to back; frames that end at its last row, likewise
// back to front; other frames (a sliding window of rows) are aggregated
// row by row, which costs the frame's width per row.
func frameAggregate(w *winSpec, rows []int32, ac []*Col, res []any, pe *peerGroups) error {
	n := len(rows)
	acc := &winAcc{w: w}
	if len(ac) > 0 {
		acc.t = ac[0].T
	}
	arg := func(k int) any {
		if len(ac) == 0 {
			return nil
		}
		return ac[0].Get(int(rows[k]))
	}
	f := w.frame
	empty := (&winAcc{w: w}).value() // over an empty frame: 0 for count, else NULL
	switch {
	case f == nil || f.start.kind == 'u':
		done := 0
		for k := range rows {
			fs, fe := frameOf(f, k, n, pe)
			for ; done < fe; done++ {
				if err := acc.add(arg(done)); err != nil {
					return err
				}
			}
			if fs >= fe {
				res[rows[k]] = empty
				continue
			}
			res[rows[k]] = acc.value()
		}
	case f.end.kind == 'u':
		done := n // rows [done, n) are in acc
		for k := n - 1; k >= 0; k-- {
			fs, fe := frameOf(f, k, n, pe)
			for ; done > fs; done-- {
				if err := acc.add(arg(done - 1)); err != nil {
					return err
				}
			}
			if fs >= fe {
				res[rows[k]] = empty
				continue
			}
			res[rows[k]] = acc.value()
		}
	default:
		for k := range rows {
			fs, fe := frameOf(f, k, n, pe)
			acc.reset()
			for j := fs; j < fe; j++ {
				if err := acc.add(arg(j)); err != nil {
					return err
				}
			}
			res[rows[k]] = acc.value()
		}
	}
	return nil
}

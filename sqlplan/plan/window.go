package plan

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
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
	args  []Expr
	star  bool
	part  []Expr
	order []Expr
	desc  []bool
	// nullsFirst per ORDER BY item (NULLS FIRST).
	nullsFirst []bool
	t          Type
	slot       *Slot
	text       string
	// frame is the frame clause, nil for the default frame (the partition
	// up to the current row's last peer with ORDER BY, all of it without).
	frame *kernels.WinFrame
	// offsets are a RANGE frame's value offsets, in the order of its 'v'
	// bounds. rangeKey[b] and rangeBound[b] are, for bound b (0 start, 1
	// end) of kind 'v', the ORDER BY key and the key moved by the offset,
	// both of one type: the frame of a row runs over the rows whose key is
	// between its bounds' values.
	offsets              []Expr
	rangeKey, rangeBound [2]Expr
	// agg is set for the other aggregates (median, string_agg, stddev,
	// ...): each row's frame is aggregated with the GROUP BY
	// accumulator; args are then its argument and second argument.
	agg *aggSpec
	// ignoreNulls: first_value, last_value, nth_value, lag and lead skip
	// NULL values (IGNORE NULLS).
	ignoreNulls bool
	// argOrder and argKeys are fill's own ORDER BY (fill(x ORDER BY k)):
	// the key and its direction.
	argOrder []Expr
	argKeys  []kernels.SortKey
}

// parseFrame decodes the "|f:MODE:START:END[:EXCLUDE]" marker of
// rewrite's windowFrame.
func parseFrame(m string) (*kernels.WinFrame, error) {
	parts := strings.Split(m, ":")
	if len(parts) != 4 && len(parts) != 5 || parts[0] != "|f" {
		return nil, errorf("bad window frame")
	}
	f := &kernels.WinFrame{Rows: parts[1] == "rows", Groups: parts[1] == "groups"}
	if len(parts) == 5 {
		switch x := parts[4]; x {
		case "c", "g", "t":
			f.Exclude = x[0]
		default:
			return nil, errorf("bad window frame")
		}
	}
	for i, b := range []*kernels.FrameBound{&f.Start, &f.End} {
		switch t := parts[2+i]; t {
		case "u", "c":
			b.Kind = t[0]
		case "v-", "v+":
			b.Kind, b.Off = 'v', 1
			if t == "v-" {
				b.Off = -1
			}
		default:
			n, err := strconv.ParseInt(t, 10, 64)
			if err != nil {
				return nil, errorf("bad window frame")
			}
			b.Kind, b.Off = 'o', n
		}
	}
	return f, nil
}

// WindowFns are the names of the window functions with kernels of their
// own (function's window registry) and their aliases.
var WindowFns = function.WindowNames()

func (p *Planner) bindWindow(x *sqlparser.FuncExpr, sc *Scope, agg *aggCtx) (Expr, error) {
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
	spec := &winSpec{text: parse.Unmark(sqlparser.String(x))}
	fn, ignoreNulls := strings.CutSuffix(strings.ToLower(string(lit.Val)), parse.IgnoreNullsSuffix)
	fn, distinct := strings.CutSuffix(fn, parse.DistinctSuffix)
	spec.ignoreNulls = ignoreNulls
	spec.fn = fn
	name, def := function.LookupWindow(fn)
	if def != nil {
		spec.fn = name
	}
	if ignoreNulls && (def == nil || !def.IgnoreNulls) {
		return nil, errorf("IGNORE NULLS is for first_value, last_value, nth_value, lag and lead, not %s", spec.fn)
	}
	// Aggregates without a kernel here, and any of DISTINCT values, run
	// the GROUP BY accumulators over each frame.
	generic := (def == nil || distinct) && AggNames[spec.fn] && spec.fn != "grouping" && spec.fn != "grouping_id"
	if def == nil && !generic {
		return nil, unsupported("the window function " + spec.fn)
	}
	if generic && agg != nil {
		return nil, unsupported("the window function " + spec.fn + " in a query with GROUP BY or aggregates")
	}
	// rawArgs are the arguments as written; aggOrder the items of the
	// call's own ORDER BY (after parse.AggOrderMarker: key, direction, ...).
	var rawArgs, aggOrder sqlparser.SelectExprs
	mode := 'a'
	for _, it := range x.Exprs[1:] {
		switch it := it.(type) {
		case *sqlparser.StarExpr:
			spec.star = true
		case *sqlparser.AliasedExpr:
			if v, ok := it.Expr.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
				switch m := string(v.Val); {
				case m == parse.AggOrderMarker && mode == 'a':
					mode = 'g'
					continue
				case mode == 'g' && m != "|p" && m != "|o" && !strings.HasPrefix(m, "|f"):
					aggOrder = append(aggOrder, it)
					continue
				}
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
					spec.desc[len(spec.desc)-1], spec.nullsFirst[len(spec.nullsFirst)-1] = p.Set.resolveOrder(d.Dir, d.Nulls)
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
			if mode == 'g' {
				aggOrder = append(aggOrder, it)
				continue
			}
			e, err := p.BindExpr(it.Expr, sc, agg)
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
	// An ORDER BY inside the call matters to the aggregates that depend on
	// their input's order, run by their accumulators over sorted frames.
	if len(aggOrder) > 0 && !generic && function.Ordered(spec.fn) {
		generic = true
	}
	if generic {
		if err := p.bindWindowAggregate(spec, rawArgs, aggOrder, distinct, sc); err != nil {
			return nil, err
		}
	} else {
		if distinct {
			return nil, unsupported("DISTINCT in the window function " + spec.fn)
		}
		var err error
		if spec.fn == "fill" {
			err = p.bindFillOrder(spec, aggOrder, sc)
		} else {
			err = p.checkIgnoredOrder(spec, aggOrder, sc)
		}
		if err != nil {
			return nil, err
		}
	}
	avgInterval := false
	if !generic {
		var err error
		if avgInterval, err = p.typeWindow(spec, def); err != nil {
			return nil, err
		}
	}
	return p.addWindow(spec, avgInterval), nil
}

// addWindow adds the typed call to the SELECT's window functions and
// returns its column; an average of an INTERVAL (computed over its
// microseconds) turned back into one.
func (p *Planner) addWindow(spec *winSpec, avgInterval bool) Expr {
	spec.slot = &Slot{}
	p.win.specs = append(p.win.specs, spec)
	e := &ColExpr{S: spec.slot, T: spec.t}
	e.setText(spec.fn + "(...) OVER (...)")
	if avgInterval {
		return microsInterval(e, spec.text)
	}
	return e
}

// typeWindow types a call of a window function with a kernel: its
// registry rule, the casts it asks for, and the constant arguments of
// ntile, nth_value, lag and lead. avgInterval: avg of an INTERVAL, whose
// microseconds are averaged.
func (p *Planner) typeWindow(spec *winSpec, def *function.WindowFn) (avgInterval bool, err error) {
	if len(spec.args) < def.Args || spec.fn == "count" && !spec.star && len(spec.args) == 0 {
		return false, errorf("%s needs %d argument(s)", spec.fn, max(def.Args, 1))
	}
	var at Type
	if len(spec.args) > 0 {
		at = spec.args[0].Type()
		if spec.fn == "avg" && at.Kind == KInterval {
			spec.args[0], at, avgInterval = asBigint(spec.args[0]), TInt, true
		}
	}
	t, cast, err := def.Rule(at)
	if err != nil {
		return false, err
	}
	spec.t = t
	if cast != nil {
		c, err := p.cast(spec.args[0], *cast)
		if err != nil {
			return false, err
		}
		spec.args[0] = c
	}
	constInt := func(i int, min1 bool) bool {
		k, ok := IsConst(spec.args[i])
		if !ok || k.T.Op() != KInt || k.V == nil {
			return false
		}
		v, ok := k.V.(int64)
		return ok && (!min1 || v >= 1)
	}
	switch spec.fn {
	case "fill":
		if len(spec.args) != 1 {
			return false, errorf("fill takes one argument")
		}
		keys := spec.order
		if len(spec.argOrder) > 0 {
			keys = spec.argOrder
		}
		if len(keys) != 1 {
			return false, errorf("FILL functions must have only one ORDER BY expression")
		}
		if !function.FillType(keys[0].Type()) {
			return false, errorf("FILL ordering must support subtraction")
		}
	case "ntile":
		if !constInt(0, false) {
			return false, errorf("ntile takes a constant integer")
		}
	case "nth_value":
		if len(spec.args) != 2 {
			return false, errorf("nth_value takes a value and a position")
		}
		if !constInt(1, true) {
			return false, errorf("the position of nth_value must be a constant integer from 1")
		}
	case "lag", "lead":
		if len(spec.args) > 1 && !constInt(1, false) {
			return false, errorf("the offset of %s must be a constant integer", spec.fn)
		}
		if len(spec.args) > 2 {
			c, err := p.cast(spec.args[2], spec.t)
			if err != nil {
				return false, err
			}
			spec.args[2] = c
		}
	}
	return avgInterval, nil
}

// bindRangeOffsets checks a RANGE frame's value offsets (constant, not
// NULL, not negative, one ORDER BY key) and binds, for each bound with an
// offset, the key and the key moved by the offset (back for PRECEDING,
// forward for FOLLOWING, the other way under DESC) in one type.
func (p *Planner) bindRangeOffsets(spec *winSpec) error {
	f := spec.frame
	if f == nil || f.Rows || (f.Start.Kind != 'v' && f.End.Kind != 'v') {
		return nil
	}
	if len(spec.order) != 1 {
		return errorf("a RANGE frame with an offset needs exactly one ORDER BY expression")
	}
	key := spec.order[0]
	k := 0
	for b, bound := range []kernels.FrameBound{f.Start, f.End} {
		if bound.Kind != 'v' {
			continue
		}
		if k >= len(spec.offsets) {
			return errorf("bad window frame")
		}
		off := spec.offsets[k]
		k++
		c, ok := IsConst(off)
		if !ok || c.V == nil {
			return errorf("a RANGE frame offset must be a constant, not NULL")
		}
		if neg, err := p.compare(opLt, off, &ConstExpr{T: TInt, V: int64(0)}); err == nil {
			if v, err := neg.Eval(&Batch{N: 1}); err == nil && !v.IsNull(0) && v.B[0] {
				return errorf("a RANGE frame offset cannot be negative")
			}
		}
		op := byte('+')
		if (bound.Off < 0) != spec.desc[0] {
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
func newWindow(in Node, specs []*winSpec) *kernels.Window {
	funcs := make([]kernels.WindowFunc, len(specs))
	for k, w := range specs {
		funcs[k] = w
	}
	return &kernels.Window{In: in, Funcs: funcs}
}

func (w *winSpec) Compute(all *Batch, sorts *kernels.WindowSorts) (*Col, error) {
	return w.call().Compute(all, w.exprs(), sorts)
}
func (w *winSpec) Slot() int      { return w.slot.Idx }
func (w *winSpec) String() string { return w.text }

// reads are the expressions the call reads from its input: arguments,
// PARTITION BY and ORDER BY keys, and an aggregate's own ORDER BY keys.
func (w *winSpec) reads() [][]Expr {
	out := [][]Expr{w.args, w.part, w.order, w.argOrder}
	if w.agg != nil && len(w.agg.Order) > 0 {
		keys := make([]Expr, len(w.agg.Order))
		for i, e := range w.agg.Order {
			keys[i] = e.(Expr)
		}
		out = append(out, keys)
	}
	return out
}

// exprs are the expressions the call reads, for its kernel.
func (w *winSpec) exprs() *kernels.WindowExprs {
	x := &kernels.WindowExprs{Part: kernelExprs(w.part), Order: kernelExprs(w.order)}
	if len(w.args) > 0 {
		x.Arg = w.args[0]
	}
	switch {
	case w.agg != nil:
		x.AggOrder = w.agg.Order
	case len(w.argOrder) > 0:
		x.AggOrder = kernelExprs(w.argOrder)
	}
	switch {
	case w.agg != nil && len(w.args) > 1:
		x.Arg2 = w.args[1]
	case (w.fn == "lag" || w.fn == "lead") && len(w.args) > 2:
		x.Default = w.args[2]
	}
	for b := range x.Range {
		if w.rangeKey[b] != nil {
			x.Range[b] = [2]kernels.Expr{w.rangeKey[b], w.rangeBound[b]}
		}
	}
	return x
}

func kernelExprs(es []Expr) []kernels.Expr {
	out := make([]kernels.Expr, len(es))
	for i, e := range es {
		out[i] = e
	}
	return out
}

// call is the kernel's description of the window function.
func (w *winSpec) call() *kernels.WindowCall {
	c := &kernels.WindowCall{Fn: w.fn, T: w.t, Agg: w.agg, Star: w.star, Desc: w.desc, NullsFirst: w.nullsFirst,
		Frame: w.frame, IgnoreNulls: w.ignoreNulls, Text: w.text, ArgKeys: w.argKeys}
	constArg := func(i int, def int64) int64 {
		if i < len(w.args) {
			return w.args[i].(*ConstExpr).V.(int64)
		}
		return def
	}
	switch w.fn {
	case "ntile":
		c.Param = constArg(0, 1)
	case "lag", "lead":
		c.Param = constArg(1, 1)
	case "nth_value":
		c.Param = constArg(1, 1)
	}
	return c
}

// bindWindowAggregate binds an aggregate that has no window kernel of its
// own, as the aggregate over one group would be: spec.agg, its type, and
// its argument and second argument as the window's arguments.
func (p *Planner) bindWindowAggregate(spec *winSpec, args, order sqlparser.SelectExprs, distinct bool, sc *Scope) error {
	if len(order) > 0 {
		marker := &sqlparser.AliasedExpr{Expr: sqlparser.NewStrVal([]byte(parse.AggOrderMarker))}
		args = append(append(append(sqlparser.SelectExprs(nil), args...), marker), order...)
	}
	call := &sqlparser.FuncExpr{Name: sqlparser.NewColIdent(spec.fn), Exprs: args, Distinct: distinct}
	one := &aggCtx{inScope: sc}
	if _, err := p.bindAggregate(call, one); err != nil {
		return err
	}
	if len(one.aggs) != 1 {
		return errorf("internal error: %s OVER (...) bound %d aggregates", spec.fn, len(one.aggs))
	}
	a := one.aggs[0]
	spec.agg, spec.t, spec.args = a, a.T, nil
	for _, e := range []kernels.Expr{a.Arg, a.Arg2} {
		if e != nil {
			spec.args = append(spec.args, e.(Expr))
		}
	}
	return nil
}

// checkIgnoredOrder binds the ORDER BY inside a call with a kernel of its
// own, for its errors: count, sum, avg, min and max do not depend on the
// order of their input, and drop it (as DuckDB); the functions whose
// result would change with it (first_value, lag, row_number, ...) refuse
// it.
func (p *Planner) checkIgnoredOrder(spec *winSpec, order sqlparser.SelectExprs, sc *Scope) error {
	if len(order) == 0 {
		return nil
	}
	switch spec.fn {
	case "count", "sum", "avg", "min", "max":
	default:
		return unsupported("ORDER BY inside the window function " + spec.fn)
	}
	_, _, err := p.bindOrderItems(order, sc, spec.text)
	return err
}

// bindFillOrder binds fill's own ORDER BY (fill(x ORDER BY k) OVER
// (...)): the order each partition is filled in, instead of the window's.
func (p *Planner) bindFillOrder(spec *winSpec, order sqlparser.SelectExprs, sc *Scope) error {
	keys, dirs, err := p.bindOrderItems(order, sc, spec.text)
	if err != nil {
		return err
	}
	for _, k := range keys {
		spec.argOrder = append(spec.argOrder, k.(Expr))
	}
	spec.argKeys = dirs
	return nil
}

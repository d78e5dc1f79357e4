package sqlplan

import (
	"context"
	"io"
	"strconv"
	"strings"
)

// The table functions range(stop), range(start, stop[, step]) (stop
// excluded) and generate_series(...) (stop included), over BIGINT
// constants. The rewrite turns a call after FROM or JOIN into a table name
// seriesMarker:FN:START:STOP:STEP, which relationOf plans as a seriesNode.
const seriesMarker = "__carquet_series__"

// seriesTableName reads the arguments of range(...) or generate_series(...)
// at toks (the tokens between the parentheses) and returns the marker
// table name.
func seriesTableName(src string, fn string, pos int, toks []token) (string, error) {
	var args []int64
	for k := 0; k < len(toks); {
		neg := false
		if toks[k].kind == tkOp && (toks[k].text == "-" || toks[k].text == "+") {
			neg = toks[k].text == "-"
			k++
		}
		if k >= len(toks) || toks[k].kind != tkNumber {
			return "", errAt(src, pos, "%s takes integer constants", fn)
		}
		v, err := strconv.ParseInt(toks[k].text, 10, 64)
		if err != nil {
			return "", errAt(src, toks[k].pos, "%s takes integer constants, not %s", fn, toks[k].text)
		}
		if neg {
			v = -v
		}
		args = append(args, v)
		k++
		if k < len(toks) {
			if !(toks[k].kind == tkOp && toks[k].text == ",") {
				return "", errAt(src, toks[k].pos, "%s takes integer constants", fn)
			}
			k++
		}
	}
	start, stop, step := int64(0), int64(0), int64(1)
	switch len(args) {
	case 1:
		stop = args[0]
	case 2:
		start, stop = args[0], args[1]
	case 3:
		start, stop, step = args[0], args[1], args[2]
	default:
		return "", errAt(src, pos, "%s takes 1 to 3 arguments, not %d", fn, len(args))
	}
	if step == 0 {
		return "", errAt(src, pos, "the step of %s cannot be 0", fn)
	}
	return strings.Join([]string{seriesMarker, fn, strconv.FormatInt(start, 10), strconv.FormatInt(stop, 10), strconv.FormatInt(step, 10)}, ":"), nil
}

// seriesRelation plans the marker table name as a one-column relation
// (named like the function, as DuckDB).
func seriesRelation(name, alias string) (*relation, error) {
	parts := strings.Split(name, ":")
	if len(parts) != 5 {
		return nil, errorf("bad table function")
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(parts[2+i], 10, 64)
		if err != nil {
			return nil, errorf("bad table function")
		}
		v[i] = n
	}
	fn := parts[1]
	if alias == "" {
		alias = fn
	}
	n := &seriesNode{cur: v[0], stop: v[1], step: v[2], incl: fn == "generate_series",
		what: fn + "(" + parts[2] + ", " + parts[3] + ", " + parts[4] + ")"}
	sp := &selectPlan{root: n, cols: []Column{{Name: fn, Type: tInt}}}
	rel := &relation{alias: alias, sub: sp}
	rel.cols = append(rel.cols, &scopeCol{rel: rel, name: fn, t: tInt, slot: &slot{}})
	return rel, nil
}

// seriesNode yields cur, cur+step, ... up to stop (included when incl).
type seriesNode struct {
	cur, stop, step int64
	incl, done      bool
	what            string
}

func (n *seriesNode) more(v int64) bool {
	switch {
	case n.step > 0 && n.incl:
		return v <= n.stop
	case n.step > 0:
		return v < n.stop
	case n.incl:
		return v >= n.stop
	}
	return v > n.stop
}

func (n *seriesNode) next(ctx context.Context) (*Batch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var out []int64
	for !n.done && len(out) < outBatch && n.more(n.cur) {
		out = append(out, n.cur)
		next, overflow := addInt64(n.cur, n.step)
		n.cur, n.done = next, overflow
	}
	if len(out) == 0 {
		return nil, io.EOF
	}
	return &Batch{N: len(out), Cols: []*Col{{T: tInt, Len: len(out), I: out}}}, nil
}

func (n *seriesNode) close() {}

func (n *seriesNode) explain(x *explainer, depth int) { x.line(depth, "SERIES %s", n.what) }

package sqlplan

import (
	"context"
	"io"
	"strconv"
	"strings"
)

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

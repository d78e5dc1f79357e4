package plan

import kernels "github.com/carquet-go/carquet/sqlplan/exec"

// The group-count join (exec.GroupCountJoin) answers a GROUP BY of a
// join's probe-side key with counts over the join, without making the
// joined rows (TPC-H Q13); here is the shape of plan it replaces.

// NoGroupCountJoin turns groupCountJoin off, for tests that compare its
// answers with the hash join and aggregation it replaces.
var NoGroupCountJoin bool

// groupCountJoin returns the node for an aggregation agg over the join
// root, ok false when the plan is not of that shape: an inner or LEFT hash
// join on one integer key, with no other join condition, grouped by that
// key of the left side alone, whose aggregates are all COUNT(*) or
// COUNT(column of the right side).
func groupCountJoin(root Node, agg *aggCtx) (*kernels.GroupCountJoin, bool) {
	jn, ok := root.(*kernels.HashJoin)
	if !ok || NoGroupCountJoin || jn.RightOuter || jn.Cond != nil || len(jn.LKeys) != 1 || agg.sets != nil || len(agg.keys) != 1 || len(agg.aggs) == 0 {
		return nil, false
	}
	lk, lok := jn.LKeys[0].(*ColExpr)
	gk, gok := agg.keys[0].(*ColExpr)
	if !lok || !gok || lk.S != gk.S || lk.S.Idx < 0 || lk.S.Idx >= jn.LeftWidth {
		return nil, false
	}
	lt, rt := jn.LKeys[0].Type(), jn.RKeys[0].Type()
	if Storage(lt) != stInt || Storage(rt) != stInt || lt.Kind != rt.Kind || lt.Scale != rt.Scale || lt.Nanos != rt.Nanos {
		return nil, false
	}
	n := &kernels.GroupCountJoin{Left: jn.Left, Right: jn.Right, LeftWidth: jn.LeftWidth, LKey: lk, RKey: jn.RKeys[0], KeyType: WithoutField(lt), LeftOuter: jn.LeftOuter}
	for _, a := range agg.aggs {
		switch {
		case a.Fn == "count_star" && a.Arg == nil && !a.Distinct && a.Order == nil:
			n.Counts = append(n.Counts, kernels.GroupCount{Text: a.Text})
		case a.Fn == "count" && !a.Distinct && a.Order == nil && a.Arg2 == nil:
			c, ok := a.Arg.(*ColExpr)
			if !ok || c.S.Idx < jn.LeftWidth || c.S.Idx >= jn.LeftWidth+len(jn.RightTypes) {
				return nil, false
			}
			n.Counts = append(n.Counts, kernels.GroupCount{Arg: c, Text: a.Text})
		default:
			return nil, false
		}
	}
	return n, true
}

package sqlplan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWindowFrameExclude checks EXCLUDE CURRENT ROW, GROUP, TIES and NO
// OTHERS over ROWS, RANGE and GROUPS frames of every shape, for count,
// count(*), the exact and the float sum, min, max, first_value,
// last_value, nth_value (also IGNORE NULLS), string_agg and string_agg
// with its own ORDER BY, against a direct computation over each row's
// frame less its excluded rows, on partitions with NULLs and many ties.
func TestWindowFrameExclude(t *testing.T) {
	e := newEngine(t)
	const n = 48
	rng := rand.New(rand.NewPCG(3, 4))
	type row struct {
		g, o int64
		v    *int64
	}
	rows := make([]row, n)
	var vals strings.Builder
	for i := range rows {
		r := row{g: rng.Int64N(3), o: rng.Int64N(6)}
		if rng.IntN(4) > 0 {
			x := rng.Int64N(40) - 10
			r.v = &x
		}
		rows[i] = r
		if i > 0 {
			vals.WriteString(", ")
		}
		v := "NULL"
		if r.v != nil {
			v = strconv.FormatInt(*r.v, 10)
		}
		fmt.Fprintf(&vals, "(%d, %d, %d, %s)", i, r.g, r.o, v)
	}
	exec(t, e, "CREATE TABLE fx (id INTEGER, g INTEGER, o INTEGER, v BIGINT)")
	exec(t, e, "INSERT INTO fx VALUES "+vals.String())

	const unb = 1 << 20
	boundSQL := func(off int, start bool) string {
		switch {
		case off <= -unb:
			return "UNBOUNDED PRECEDING"
		case off >= unb:
			return "UNBOUNDED FOLLOWING"
		case off == 0:
			return "CURRENT ROW"
		case off < 0:
			return fmt.Sprintf("%d PRECEDING", -off)
		}
		return fmt.Sprintf("%d FOLLOWING", off)
	}
	frames := [][2]int{{-unb, 0}, {-unb, unb}, {0, unb}, {-2, 1}, {-1, 0}, {0, 2}, {1, 3}, {-3, -1}}
	const q = "SELECT id, count(*) OVER w, count(v) OVER w, sum(v) OVER w, sum(v::DOUBLE) OVER w, min(v) OVER w, max(v) OVER w, " +
		"first_value(v) OVER w, last_value(v) OVER w, nth_value(v, 2) OVER w, last_value(v IGNORE NULLS) OVER w, " +
		"string_agg(v::VARCHAR, ',') OVER w, string_agg(v::VARCHAR, ',' ORDER BY v DESC) OVER w FROM fx ORDER BY id"
	for _, mode := range []string{"ROWS", "RANGE", "GROUPS"} {
		for _, fr := range frames {
			for _, ex := range []string{"CURRENT ROW", "GROUP", "TIES", "NO OTHERS"} {
				spec := fmt.Sprintf("PARTITION BY g ORDER BY o %s BETWEEN %s AND %s EXCLUDE %s", mode, boundSQL(fr[0], true), boundSQL(fr[1], false), ex)
				got := queryAll(t, e, strings.ReplaceAll(q, "OVER w", "OVER ("+spec+")"))
				for i := range n {
					// The partition in window order: by o, then by id.
					var part []int
					for j := range n {
						if rows[j].g == rows[i].g {
							part = append(part, j)
						}
					}
					slices.SortStableFunc(part, func(a, b int) int { return int(rows[a].o - rows[b].o) })
					k := slices.Index(part, i)
					// group numbers the peer groups.
					group := make([]int, len(part))
					for p := 1; p < len(part); p++ {
						group[p] = group[p-1]
						if rows[part[p]].o != rows[part[p-1]].o {
							group[p]++
						}
					}
					in := func(p int) bool {
						var d int
						switch mode {
						case "ROWS":
							d = p - k
						case "RANGE":
							d = int(rows[part[p]].o - rows[i].o)
						default:
							d = group[p] - group[k]
						}
						if d < fr[0] || d > fr[1] {
							return false
						}
						peer := group[p] == group[k]
						switch ex {
						case "CURRENT ROW":
							return p != k
						case "GROUP":
							return !peer
						case "TIES":
							return !peer || p == k
						}
						return true
					}
					want := excludeWant(part, in, func(j int) *int64 { return rows[j].v })
					want[0] = int64(i)
					if fmt.Sprint(got[i]) != fmt.Sprint(want) {
						t.Fatalf("%s, row %d: got\n%v, want\n%v", spec, i, got[i], want)
					}
				}
			}
		}
	}
}

// excludeWant computes the row of TestWindowFrameExclude's query (its
// first column left for the caller) over the positions p of part for
// which in(p).
func excludeWant(part []int, in func(p int) bool, val func(j int) *int64) []any {
	var frame []*int64
	for p, j := range part {
		if in(p) {
			frame = append(frame, val(j))
		}
	}
	var cnt, sum int64
	var mn, mx, lastNN any
	var strs []string
	for _, v := range frame {
		if v == nil {
			continue
		}
		cnt++
		sum += *v
		if mn == nil || *v < mn.(int64) {
			mn = *v
		}
		if mx == nil || *v > mx.(int64) {
			mx = *v
		}
		lastNN = *v
		strs = append(strs, strconv.FormatInt(*v, 10))
	}
	at := func(p int) any {
		if p < 0 || p >= len(frame) || frame[p] == nil {
			return nil
		}
		return *frame[p]
	}
	var sumV, sumF, agg, aggDesc any
	if cnt > 0 {
		sumV, sumF = sum, float64(sum)
		agg = strings.Join(strs, ",")
		desc := slices.Clone(frame)
		desc = slices.DeleteFunc(desc, func(v *int64) bool { return v == nil })
		slices.SortStableFunc(desc, func(a, b *int64) int { return int(*b - *a) })
		parts := make([]string, len(desc))
		for i, v := range desc {
			parts[i] = strconv.FormatInt(*v, 10)
		}
		aggDesc = strings.Join(parts, ",")
	}
	return []any{nil, int64(len(frame)), cnt, sumV, sumF, mn, mx, at(0), at(len(frame) - 1), at(1), lastNN, agg, aggDesc}
}

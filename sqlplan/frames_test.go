package sqlplan

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWindowFrames checks every frame shape — running from the start,
// running to the end, sliding — of count, sum, min, max, first_value and
// last_value against a direct computation over each row's frame, on
// partitions with NULLs.
func TestWindowFrames(t *testing.T) {
	e := newEngine(t)
	const n = 60
	rows := frameRows(t, e, "fr", rand.New(rand.NewPCG(9, 9)), n, 5, 100, -50)
	bounds := []struct {
		sql string
		off int // offset from the row; start: -1<<20 unbounded; end: 1<<20
	}{
		{"UNBOUNDED PRECEDING", -1 << 20}, {"3 PRECEDING", -3}, {"1 PRECEDING", -1}, {"CURRENT ROW", 0},
		{"1 FOLLOWING", 1}, {"4 FOLLOWING", 4}, {"UNBOUNDED FOLLOWING", 1 << 20},
	}
	for _, s := range bounds[:len(bounds)-1] {
		for _, en := range bounds[1:] {
			if s.off > 0 && en.off <= 0 || s.off == 0 && en.off < 0 {
				continue // refused by the standard
			}
			frame := "ROWS BETWEEN " + s.sql + " AND " + en.sql
			q := "SELECT id, count(v) OVER w, sum(v) OVER w, min(v) OVER w, max(v) OVER w, first_value(v) OVER w, last_value(v) OVER w FROM fr ORDER BY id"
			q = strings.ReplaceAll(q, "OVER w", "OVER (PARTITION BY g ORDER BY id "+frame+")")
			got := queryAll(t, e, q)
			for i := range n {
				part, k := partitionOf(n, i, func(j int) bool { return rows[j].g == rows[i].g })
				lo := max(0, min(len(part), k+s.off))
				hi := max(0, min(len(part), k+en.off+1))
				var cnt, sum int64
				var mn, mx, first, last any
				for p := lo; p < hi; p++ {
					v := rows[part[p]].v
					if p == lo {
						first = nil
						if v != nil {
							first = *v
						}
					}
					if p == hi-1 {
						last = nil
						if v != nil {
							last = *v
						}
					}
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
				}
				var sumV any
				if cnt > 0 {
					sumV = sum
				}
				want := []any{int64(i), cnt, sumV, mn, mx, first, last}
				if fmt.Sprint(got[i]) != fmt.Sprint(want) {
					t.Fatalf("%s, row %d: got %v, want %v", frame, i, got[i], want)
				}
			}
		}
	}
}

// TestWindowRangeFrames checks RANGE frames with value offsets — PRECEDING
// and FOLLOWING on either side, with UNBOUNDED and CURRENT ROW, ascending
// and descending — by count(*) and sum over each row's frame, found by
// comparing the partition's values, on partitions with ties and NULLs
// (which sort last, and whose rows frame their NULL peers).
func TestWindowRangeFrames(t *testing.T) {
	e := newEngine(t)
	const n = 80
	rows := frameRows(t, e, "rf", rand.New(rand.NewPCG(3, 7)), n, 6, 30, -10)
	const unb = 1 << 20
	bounds := []struct {
		sql string
		off int64 // the offset along the window order; ±unb: UNBOUNDED
	}{
		{"UNBOUNDED PRECEDING", -unb}, {"5 PRECEDING", -5}, {"0 PRECEDING", 0}, {"CURRENT ROW", 0},
		{"2 FOLLOWING", 2}, {"7 FOLLOWING", 7}, {"UNBOUNDED FOLLOWING", unb},
	}
	for _, desc := range []bool{false, true} {
		dir := ""
		if desc {
			dir = " DESC"
		}
		// along is a value's place in the window order.
		along := func(v int64) int64 {
			if desc {
				return -v
			}
			return v
		}
		for _, s := range bounds[:len(bounds)-1] {
			for _, en := range bounds[1:] {
				if s.off > 0 && (en.off <= 0 || en.sql == "CURRENT ROW") || s.sql == "CURRENT ROW" && strings.HasSuffix(en.sql, "PRECEDING") {
					continue // refused by the standard
				}
				frame := "RANGE BETWEEN " + s.sql + " AND " + en.sql
				over := "(PARTITION BY g ORDER BY v" + dir + " " + frame + ")"
				got := queryAll(t, e, "SELECT id, count(*) OVER "+over+", sum(v) OVER "+over+" FROM rf ORDER BY id")
				for i := range n {
					var cnt, sum, nonNull int64
					for j := range n {
						if rows[j].g != rows[i].g {
							continue
						}
						vi, vj := rows[i].v, rows[j].v
						var in bool
						switch {
						case vi == nil && vj == nil:
							in = true // the NULL peers
						case vi == nil:
							in = s.off == -unb // values come first
						case vj == nil:
							in = en.off == unb // NULLs come last
						default:
							d := along(*vj) - along(*vi)
							in = (s.off == -unb || d >= s.off) && (en.off == unb || d <= en.off)
						}
						if in {
							cnt++
							if vj != nil {
								sum += *vj
								nonNull++
							}
						}
					}
					var sumV any
					if nonNull > 0 {
						sumV = sum
					}
					want := []any{int64(i), cnt, sumV}
					if fmt.Sprint(got[i]) != fmt.Sprint(want) {
						t.Fatalf("ORDER BY v%s %s, row %d: got %v, want %v", dir, frame, i, got[i], want)
					}
				}
			}
		}
	}
}

// frameRow is a row of a frame test's table: its partition g and its
// value v (nil for NULL); its id is its index.
type frameRow struct {
	g int64
	v *int64
}

// frameRows creates table (id INTEGER, g INTEGER, v BIGINT) with n rows:
// g in [0, 3), v NULL one time in nullOneIn, else in [low, low+span).
func frameRows(t *testing.T, e *Engine, table string, rng *rand.Rand, n, nullOneIn int, span, low int64) []frameRow {
	var vals strings.Builder
	rows := make([]frameRow, n)
	for i := range n {
		g := rng.Int64N(3)
		var v *int64
		if rng.IntN(nullOneIn) > 0 {
			x := rng.Int64N(span) + low
			v = &x
		}
		rows[i] = frameRow{g, v}
		if i > 0 {
			vals.WriteString(", ")
		}
		if v == nil {
			fmt.Fprintf(&vals, "(%d, %d, NULL)", i, g)
		} else {
			fmt.Fprintf(&vals, "(%d, %d, %d)", i, g, *v)
		}
	}
	exec(t, e, "CREATE TABLE "+table+" (id INTEGER, g INTEGER, v BIGINT)")
	exec(t, e, "INSERT INTO "+table+" VALUES "+vals.String())
	return rows
}

// partitionOf is the partition of row i of n, in id order — the rows j
// for which same(j) — and i's place in it.
func partitionOf(n, i int, same func(j int) bool) (part []int, k int) {
	for j := range n {
		if same(j) {
			if j == i {
				k = len(part)
			}
			part = append(part, j)
		}
	}
	return part, k
}

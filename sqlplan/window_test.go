package sqlplan

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWindowAvgExact checks avg of decimals over sliding, running and
// whole-partition frames against the exact quotient rounded once
// (big.Rat), on values whose sums pass 2^53 and 2^64 (both of the
// quotient's paths), and float sums over sliding frames against adding
// each frame's values in window order (back to front for frames to the
// partition's end).
func TestWindowAvgExact(t *testing.T) {
	e := newEngine(t)
	rng := rand.New(rand.NewPCG(5, 11))
	const n = 90
	type row struct {
		g    int
		d    *big.Int // unscaled, scale 6; nil for NULL
		f    float64
		fnil bool
	}
	rows := make([]row, n)
	var vals strings.Builder
	for i := range rows {
		r := row{g: rng.IntN(3)}
		if rng.IntN(7) > 0 {
			// up to 18 digits: sums of a few pass int64
			r.d = big.NewInt(rng.Int64N(1_000_000_000_000_000_000) - 400_000_000_000_000_000)
			if rng.IntN(3) == 0 {
				r.d.Quo(r.d, big.NewInt(1_000_000_007))
			}
		}
		r.f, r.fnil = rng.NormFloat64()*1e6, rng.IntN(9) == 0
		rows[i] = r
		if i > 0 {
			vals.WriteString(", ")
		}
		d, f := "NULL", fmt.Sprintf("%v", r.f)
		if r.d != nil {
			d = new(big.Rat).SetFrac(r.d, big.NewInt(1_000_000)).FloatString(6)
		}
		if r.fnil {
			f = "NULL"
		}
		fmt.Fprintf(&vals, "(%d, %d, %s, %s)", i, r.g, d, f)
	}
	exec(t, e, "CREATE TABLE av (id INTEGER, g INTEGER, d DECIMAL(18,6), f DOUBLE)")
	exec(t, e, "INSERT INTO av VALUES "+vals.String())
	frames := []struct {
		sql    string
		lo, hi int // offsets from the row; ±1<<20: unbounded
	}{
		{"ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING", -3, 1},
		{"ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", -1 << 20, 0},
		{"ROWS BETWEEN 2 FOLLOWING AND UNBOUNDED FOLLOWING", 2, 1 << 20},
		{"ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING", -1 << 20, 1 << 20},
	}
	for _, fr := range frames {
		over := "(PARTITION BY g ORDER BY id " + fr.sql + ")"
		got := queryAll(t, e, "SELECT id, avg(d) OVER "+over+", sum(f) OVER "+over+" FROM av ORDER BY id")
		for i := range n {
			part, k := partitionOf(n, i, func(j int) bool { return rows[j].g == rows[i].g })
			lo, hi := max(0, k+fr.lo), min(len(part), k+fr.hi+1)
			sum, cnt := new(big.Int), int64(0)
			var fsum float64
			fcnt := 0
			// Frames that end at the partition's end but start past its
			// beginning are summed back to front (one running sum as
			// their starts move on).
			backwards := fr.hi == 1<<20 && fr.lo != -1<<20
			for q := lo; q < hi; q++ {
				p := q
				if backwards {
					p = lo + hi - 1 - q
				}
				r := rows[part[p]]
				if r.d != nil {
					sum.Add(sum, r.d)
					cnt++
				}
				if !r.fnil {
					fsum += r.f
					fcnt++
				}
			}
			var avg, fs any
			if cnt > 0 {
				avg, _ = new(big.Rat).SetFrac(sum, big.NewInt(cnt*1_000_000)).Float64()
			}
			if fcnt > 0 {
				fs = fsum
			}
			if got[i][1] != avg || got[i][2] != fs {
				t.Fatalf("%s, row %d: got avg %v sum %v, want %v %v", fr.sql, i, got[i][1], got[i][2], avg, fs)
			}
		}
	}
}

package function

import (
	"math"
	"math/bits"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The per-group additions of SUM, AVG and COUNT over a batch without
// nulls. Adding row by row into the group's slot makes each addition wait
// for the store of the one before whenever two rows of a batch fall in the
// same group (few groups: nearly always), so these kernels keep sums in
// registers (one group) or in four sets of partial sums that rows take in
// turn (few groups), which lets four additions run at once; the partials
// are folded into the groups once per batch.

// lanes is how many independent sets of partial sums FewGroups keeps.
const lanes = 4

// FewGroups reports whether the lane kernels pay off for a batch of n
// rows over ng groups: each set of partials is cleared and folded once per
// batch, which is worth it while there are several rows per group.
func FewGroups(ng, n int) bool { return ng > 1 && ng*lanes*4 <= n }

// Sum128 is the exact sum of x.
func Sum128(x []int64) num.Int128 {
	var lo uint64
	var hi int64
	for _, v := range x {
		var c uint64
		lo, c = bits.Add64(lo, uint64(v), 0)
		hi += v>>63 + int64(c)
	}
	return num.Int128{Hi: hi, Lo: lo}
}

// LaneSums returns the sum of x per group (ng of them) as int64s, in part
// (reused), and marks the groups of gids in seen. It reports false when
// a sum could have left int64 (some |x| times len(x) reaches 2^63), and
// the caller then adds the rows one by one instead.
func LaneSums(part []int64, seen []bool, gids []int32, x []int64, ng int) ([]int64, bool) {
	part = vec.GrowTo(part[:0], lanes*ng)
	clear(part)
	p0, p1, p2, p3 := part[:ng], part[ng:2*ng], part[2*ng:3*ng], part[3*ng:4*ng]
	x = x[:len(gids)]
	seen = seen[:ng]
	// m gathers the bits of every |v| (|v|-1 for negatives): a bound of
	// the largest magnitude.
	var m uint64
	n := len(gids) &^ (lanes - 1)
	for i := 0; i < n; i += lanes {
		g0, g1, g2, g3 := gids[i], gids[i+1], gids[i+2], gids[i+3]
		v0, v1, v2, v3 := x[i], x[i+1], x[i+2], x[i+3]
		p0[g0] += v0
		p1[g1] += v1
		p2[g2] += v2
		p3[g3] += v3
		m |= uint64(v0^v0>>63) | uint64(v1^v1>>63) | uint64(v2^v2>>63) | uint64(v3^v3>>63)
		seen[g0], seen[g1], seen[g2], seen[g3] = true, true, true, true
	}
	for i := n; i < len(gids); i++ {
		v := x[i]
		p0[gids[i]] += v
		m |= uint64(v ^ v>>63)
		seen[gids[i]] = true
	}
	if len(x) > 0 && m >= math.MaxInt64/uint64(len(x)) {
		return p0, false
	}
	for g := range p0 {
		p0[g] += p1[g] + p2[g] + p3[g]
	}
	return p0, true
}

// laneCounts returns the rows per group (ng of them), in part (reused).
func laneCounts(part []int64, gids []int32, ng int) []int64 {
	part = vec.GrowTo(part[:0], lanes*ng)
	clear(part)
	p0, p1, p2, p3 := part[:ng], part[ng:2*ng], part[2*ng:3*ng], part[3*ng:4*ng]
	n := len(gids) &^ (lanes - 1)
	for i := 0; i < n; i += lanes {
		p0[gids[i]]++
		p1[gids[i+1]]++
		p2[gids[i+2]]++
		p3[gids[i+3]]++
	}
	for i := n; i < len(gids); i++ {
		p0[gids[i]]++
	}
	for g := range p0 {
		p0[g] += p1[g] + p2[g] + p3[g]
	}
	return p0
}

// CountRows adds to n[g] the rows of each group of gids.
func CountRows(n []int64, part []int64, gids []int32, ng int) []int64 {
	switch {
	case ng == 1:
		n[0] += int64(len(gids))
	case FewGroups(ng, len(gids)):
		part = laneCounts(part, gids, ng)
		for g, k := range part {
			n[g] += k
		}
	default:
		for _, g := range gids {
			n[g]++
		}
	}
	return part
}

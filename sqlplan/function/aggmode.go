package function

import "github.com/carquet-go/carquet/sqlplan/vec"

// modeIntAcc is mode of integer-stored values (integers, short decimals,
// dates, times, ...): the count of every (group, value) pair in one
// open-addressing table, probed once per row, where modeAcc keeps a Go
// map per group keyed by each value's encoding and boxes every new
// value. The most frequent value of a group wins, the first seen among
// equally frequent ones.
type modeIntAcc struct {
	t     vec.Type
	slots []modeSlot
	used  int     // occupied slots
	ranks []int32 // distinct values seen per group: the next one's rank
}

// modeSlot is one (group, value) pair and its count; rank is the
// order in which the value first came in its group, from 1 (0: the slot
// is empty).
type modeSlot struct {
	v     int64
	count int64
	g     int32
	rank  int32
}

func (a *modeIntAcc) Update(gids []int32, ng int, c *vec.Col) {
	a.ranks = vec.GrowTo(a.ranks, ng)
	for i, g := range gids {
		if c.I == nil || c.IsNull(i) {
			continue // a batch without int64s holds only NULLs
		}
		a.slot(g, c.I[i]).count++
	}
}

// slot is the slot of pair (g, v), made (with the group's next rank) if
// the pair is new.
func (a *modeIntAcc) slot(g int32, v int64) *modeSlot {
	if 4*(a.used+1) > 3*len(a.slots) {
		a.grow()
	}
	mask := uint64(len(a.slots) - 1)
	for i := pairHash(uint64(uint32(g)), uint64(v)) & mask; ; i = (i + 1) & mask {
		s := &a.slots[i]
		if s.rank == 0 {
			a.ranks[g]++
			*s = modeSlot{v: v, g: g, rank: a.ranks[g]}
			a.used++
			return s
		}
		if s.v == v && s.g == g {
			return s
		}
	}
}

// grow makes the table larger (as PairSet's) and places the pairs again.
func (a *modeIntAcc) grow() {
	old := a.slots
	a.slots = make([]modeSlot, grownSize(len(old)))
	mask := uint64(len(a.slots) - 1)
	for _, s := range old {
		if s.rank == 0 {
			continue
		}
		i := pairHash(uint64(uint32(s.g)), uint64(s.v)) & mask
		for a.slots[i].rank != 0 {
			i = (i + 1) & mask
		}
		a.slots[i] = s
	}
}

func (a *modeIntAcc) Result(ng int) *vec.Col {
	a.ranks = vec.GrowTo(a.ranks, ng)
	best := make([]*modeSlot, ng)
	for i := range a.slots {
		s := &a.slots[i]
		if s.rank == 0 || int(s.g) >= ng {
			continue
		}
		b := best[s.g]
		if b == nil || s.count > b.count || s.count == b.count && s.rank < b.rank {
			best[s.g] = s
		}
	}
	c := &vec.Col{T: a.t, Len: ng, I: make([]int64, ng)}
	for g, b := range best {
		if b == nil {
			c.SetNull(g)
			continue
		}
		c.I[g] = b.v
	}
	return c
}

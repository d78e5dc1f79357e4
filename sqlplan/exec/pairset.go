package exec

// PairSet is a set of (group, integer value) pairs, the values a
// count(DISTINCT x) of an integer x has seen per group: open addressing
// with linear probing in one slice, so that a pair costs one probe that
// both looks it up and inserts it, where a Go map costs a lookup and an
// insertion (TPC-H Q16 counts 118,274 pairs).
type PairSet struct {
	slots []pairSlot
	n     int
}

type pairSlot struct {
	v    int64
	g    int32
	used bool
}

// PairSetMin is the smallest table, in slots.
const PairSetMin = 1 << 10

// Add adds (g, v) and reports whether it was not in the set yet.
func (s *PairSet) Add(g int32, v int64) bool {
	if 4*(s.n+1) > 3*len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := pairHash(g, v) & mask; ; i = (i + 1) & mask {
		sl := &s.slots[i]
		if !sl.used {
			*sl = pairSlot{v: v, g: g, used: true}
			s.n++
			return true
		}
		if sl.v == v && sl.g == g {
			return false
		}
	}
}

// grow doubles the table (or makes the first) and places the pairs again.
func (s *PairSet) grow() {
	old := s.slots
	s.slots = make([]pairSlot, max(PairSetMin, 2*len(old)))
	mask := uint64(len(s.slots) - 1)
	for _, sl := range old {
		if !sl.used {
			continue
		}
		i := pairHash(sl.g, sl.v) & mask
		for s.slots[i].used {
			i = (i + 1) & mask
		}
		s.slots[i] = sl
	}
}

// pairHash mixes a pair into a slot hash.
func pairHash(g int32, v int64) uint64 {
	h := uint64(v)*0x9e3779b97f4a7c15 ^ uint64(uint32(g))*0xc2b2ae3d27d4eb4f
	return h ^ h>>31
}

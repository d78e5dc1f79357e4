package function

// PairSet is a set of (group, integer value) pairs, the values a
// count(DISTINCT x) of an integer x has seen per group: open addressing
// with linear probing in one slice, so that a pair costs one probe that
// both looks it up and inserts it, where a Go map costs a lookup and an
// insertion (TPC-H Q16 counts 118,274 pairs).
//
// While every pair has a group below 2^31 and a value that fits 32 bits
// (keys, counts, dates), a pair is one uint64 slot (narrow): half the
// memory of a general slot, so half the cache misses and clearing, as
// the set is mostly misses once it outgrows the cache. The first pair
// that does not fit moves the set to general slots for good.
type PairSet struct {
	narrow []uint64 // narrowUsed | g<<32 | uint32(v); 0: empty
	slots  []pairSlot
	wide   bool
	n      int
}

type pairSlot struct {
	v    int64
	g    int32
	used bool
}

const (
	// pairSetMin is the smallest table, in slots.
	pairSetMin = 1 << 10
	// Tables below pairSetFast slots grow four times at a time: a set
	// that grows at all usually grows much more.
	pairSetFast = 1 << 16
	narrowUsed  = 1 << 63
)

// Add adds (g, v) and reports whether it was not in the set yet.
func (s *PairSet) Add(g int32, v int64) bool {
	if !s.wide {
		if g >= 0 && int64(int32(v)) == v {
			return s.addNarrow(narrowUsed | uint64(g)<<32 | uint64(uint32(v)))
		}
		s.widen()
	}
	if 4*(s.n+1) > 3*len(s.slots) {
		s.slots = s.grownSlots(s.slots)
	}
	mask := uint64(len(s.slots) - 1)
	for i := pairHash(uint64(uint32(g)), uint64(v)) & mask; ; i = (i + 1) & mask {
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

// addNarrow is Add for a pair packed in a narrow slot.
func (s *PairSet) addNarrow(p uint64) bool {
	if 4*(s.n+1) > 3*len(s.narrow) {
		s.growNarrow()
	}
	mask := uint64(len(s.narrow) - 1)
	for i := pairHash(p, 0) & mask; ; i = (i + 1) & mask {
		switch s.narrow[i] {
		case 0:
			s.narrow[i] = p
			s.n++
			return true
		case p:
			return false
		}
	}
}

// grownSize is the size of the table after one of size n.
func grownSize(n int) int {
	if n < pairSetFast {
		return max(pairSetMin, 4*n)
	}
	return 2 * n
}

// growNarrow makes the narrow table larger and places the pairs again.
func (s *PairSet) growNarrow() {
	old := s.narrow
	s.narrow = make([]uint64, grownSize(len(old)))
	for _, p := range old {
		if p != 0 {
			placeNarrow(s.narrow, p)
		}
	}
}

// placeNarrow puts pair p (not in the table) in its first free slot.
func placeNarrow(narrow []uint64, p uint64) {
	mask := uint64(len(narrow) - 1)
	i := pairHash(p, 0) & mask
	for narrow[i] != 0 {
		i = (i + 1) & mask
	}
	narrow[i] = p
}

// grownSlots is a larger general table holding the pairs of old.
func (s *PairSet) grownSlots(old []pairSlot) []pairSlot {
	slots := make([]pairSlot, grownSize(len(old)))
	for _, sl := range old {
		if sl.used {
			placeSlot(slots, sl)
		}
	}
	return slots
}

// placeSlot puts pair sl (not in the table) in its first free slot.
func placeSlot(slots []pairSlot, sl pairSlot) {
	mask := uint64(len(slots) - 1)
	i := pairHash(uint64(uint32(sl.g)), uint64(sl.v)) & mask
	for slots[i].used {
		i = (i + 1) & mask
	}
	slots[i] = sl
}

// widen moves the narrow pairs into general slots.
func (s *PairSet) widen() {
	s.wide = true
	size := pairSetMin
	for 3*size < 4*(s.n+1) {
		size *= 2
	}
	s.slots = make([]pairSlot, size)
	for _, p := range s.narrow {
		if p != 0 {
			placeSlot(s.slots, pairSlot{v: int64(int32(uint32(p))), g: int32(p >> 32 &^ (narrowUsed >> 32)), used: true})
		}
	}
	s.narrow = nil
}

// Len is the number of pairs in the set.
func (s *PairSet) Len() int { return s.n }

// pairHash mixes a pair's group bits and value bits into a slot hash.
func pairHash(g, v uint64) uint64 {
	h := v*0x9e3779b97f4a7c15 ^ g*0xc2b2ae3d27d4eb4f
	return h ^ h>>31
}

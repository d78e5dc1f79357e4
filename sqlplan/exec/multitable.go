package exec

// multiTable maps the multiKeys of a grouper to group ids. It is open
// addressing with linear probing over slots of 8 bytes (a tag from the
// key's hash and the entry), the keys in a slice of entries in insertion
// order: a probe reads a slot and, when the tag matches, one entry,
// where a Go map of 40-byte keys hashes each key through its generic
// hasher and compares keys group by group (TPC-H Q16 groups 118,000
// rows by brand, type and size into 18,000 groups).
type multiTable struct {
	slots []uint64 // hash>>32<<32 | entry+1; 0: empty
	ents  []multiEntry
}

type multiEntry struct {
	k  multiKey
	id int32
}

// multiTableMin is the smallest table, in slots.
const multiTableMin = 1 << 8

// hash mixes the key's values and nulls into 64 bits.
func (k *multiKey) hash() uint64 {
	h := uint64(k.v[0])*0x9E3779B97F4A7C15 ^ uint64(k.v[1])*0xC2B2AE3D27D4EB4F ^
		uint64(k.v[2])*0x165667B19E3779F9 ^ uint64(k.v[3])*0x27D4EB2F165667C5 ^ uint64(k.nulls)
	return h ^ h>>29
}

// get is the group of key k of hash h.
func (t *multiTable) get(k *multiKey, h uint64) (int32, bool) {
	if len(t.slots) == 0 {
		return 0, false
	}
	mask := uint64(len(t.slots) - 1)
	tag := h >> 32 << 32
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if s&^0xffffffff == tag {
			if e := &t.ents[uint32(s)-1]; e.k == *k {
				return e.id, true
			}
		}
	}
}

// put adds key k of hash h (not in the table) with group id.
func (t *multiTable) put(k *multiKey, h uint64, id int32) {
	if 4*(len(t.ents)+1) > 3*len(t.slots) {
		t.grow()
	}
	t.ents = append(t.ents, multiEntry{k: *k, id: id})
	t.place(h, len(t.ents))
}

// place puts entry e-1 of hash h in the first free slot of its run.
func (t *multiTable) place(h uint64, e int) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = h>>32<<32 | uint64(e)
}

// grow doubles the slots (or makes the first) and places the entries
// again.
func (t *multiTable) grow() {
	t.slots = make([]uint64, max(multiTableMin, 2*len(t.slots)))
	for e := range t.ents {
		t.place(t.ents[e].k.hash(), e+1)
	}
}

// len is the number of keys.
func (t *multiTable) len() int { return len(t.ents) }

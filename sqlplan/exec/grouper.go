package exec

import (
	"unsafe"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Grouping keys: the grouper numbers each row's group (typed keys, dense
// integer ranges, packed multi-column keys, dictionary codes).

// Grouper assigns group ids to rows by their key values.
type Grouper struct {
	keyTypes []vec.Type
	keys     []*vec.Builder // the key values of each group, in id order
	n        int
	ints     map[int64]int32
	strs     map[string]int32
	nullID   int32
	buf      []byte
	intCache []intCacheEntry
	// dense holds the group id + 1 of small non-negative integer keys
	// (placeDense), ahead of ints; intsLo..intsHi is the range of the keys
	// in ints, and intsMoved the groups when ints was last moved into
	// dense (addInt).
	dense          []int32
	intsLo, intsHi int64
	intsMoved      int
	// multi groups by two to four integer-like or string keys
	// (multiKey, multitable.go); interns numbers the strings of each
	// string key.
	multi   *multiTable
	interns []*stringIDs
	// multiVals holds a batch's key values column by column (string ids
	// for string keys); multiCache is a direct-mapped cache of recent
	// keys in front of multi.
	multiVals  [][]int64
	multiCache *[multiCacheSize]multiCacheEntry
	// multiDense indexes keys in small ranges directly (densekeys.go).
	multiDense denseKeys
	// codeIDs maps the codes of a dictionary (a coded key column's Dict)
	// to group ids, -1 until seen.
	codeIDs map[*vec.Col][]int32
}

// intCacheEntry caches one key's group id (id+1; 0 is empty).
type intCacheEntry struct {
	key int64
	id  int32
}

func NewGrouper(types []vec.Type) *Grouper {
	g := &Grouper{keyTypes: types, nullID: -1}
	for _, t := range types {
		g.keys = append(g.keys, vec.NewBuilder(t, 16))
	}
	switch {
	case len(types) == 1 && vec.Storage(types[0]) == vec.StInt:
		g.ints = map[int64]int32{}
	case MultiKeyTypes(types):
		g.multi = &multiTable{}
		g.interns = make([]*stringIDs, len(types))
		for j, t := range types {
			if vec.Storage(t) == vec.StBytes {
				g.interns[j] = &stringIDs{ids: map[string]int64{}}
			}
		}
	default:
		g.strs = map[string]int32{}
	}
	return g
}

func (g *Grouper) newGroup(cols []*vec.Col, i int) int32 {
	id := int32(g.n)
	g.n++
	for k, c := range cols {
		g.keys[k].AddRow(c, i)
	}
	return id
}

// Assign fills gids with the group of every row.
func (g *Grouper) Assign(cols []*vec.Col, n int, gids []int32) {
	if len(cols) == 1 && cols[0].Dict != nil && g.strs != nil && vec.Storage(cols[0].Dict.T) == vec.StBytes {
		g.assignCodes(cols[0], n, gids)
		return
	}
	if g.multi != nil && g.multiCols(cols) {
		g.assignMulti(cols, n, gids) // coded string keys too
		return
	}
	for k, c := range cols {
		cols[k] = c.Decoded()
	}
	if len(cols) == 0 {
		if g.n == 0 {
			g.n = 1
		}
		for i := range gids[:n] {
			gids[i] = 0
		}
		return
	}
	if g.ints != nil {
		c := cols[0]
		x := c.I
		// Direct-mapped cache in front of the map, as for strings.
		if g.intCache == nil {
			g.intCache = make([]intCacheEntry, 4096)
		}
		cache := g.intCache
		for i := 0; i < n; i++ {
			if c.Null != nil && c.Null[i] {
				if g.nullID < 0 {
					g.nullID = g.newGroup(cols, i)
				}
				gids[i] = g.nullID
				continue
			}
			k := x[i]
			if uint64(k) < uint64(len(g.dense)) && g.dense[k] != 0 {
				gids[i] = g.dense[k] - 1
				continue
			}
			e := &cache[uint64(k)*0x9e3779b97f4a7c15>>52]
			if e.id > 0 && e.key == k {
				gids[i] = e.id - 1
				continue
			}
			id, ok := int32(0), false
			if len(g.ints) > 0 && k >= g.intsLo && k <= g.intsHi {
				id, ok = g.ints[k]
			}
			if !ok {
				id = g.newGroup(cols, i)
				if !g.placeDense(k, id) {
					g.addInt(k, id)
				} else if len(g.ints) > 0 && g.n >= 2*g.intsMoved {
					g.moveInts()
				}
			}
			e.key, e.id = k, id+1
			gids[i] = id
		}
		return
	}
	if len(cols) == 1 && cols[0].Off != nil {
		c := cols[0]
		// A direct-mapped cache in front of the map: low-cardinality keys
		// (the common GROUP BY category) skip hashing the map's way.
		var cache [256]struct {
			key []byte
			id  int32
			ok  bool
		}
		for i := 0; i < n; i++ {
			if c.Null != nil && c.Null[i] {
				if g.nullID < 0 {
					g.nullID = g.newGroup(cols, i)
				}
				gids[i] = g.nullID
				continue
			}
			s := c.Data[c.Off[i]:c.Off[i+1]]
			h := uint(len(s))
			if len(s) > 0 {
				h = h*31 + uint(s[0])*7 + uint(s[len(s)-1])*131 + uint(s[len(s)/2])*17
			}
			e := &cache[h&255]
			if e.ok && string(e.key) == string(s) {
				gids[i] = e.id
				continue
			}
			id, ok := g.strs[string(s)]
			if !ok {
				id = g.newGroup(cols, i)
				g.strs[string(s)] = id
			}
			e.key, e.id, e.ok = s, id, true
			gids[i] = id
		}
		return
	}
	if g.multi != nil && g.multiCols(cols) {
		g.assignMulti(cols, n, gids)
		return
	}
	if g.multi != nil {
		// A key column came in another storage: regroup the groups so far
		// under the general byte keys, from their recorded keys.
		g.strs = map[string]int32{}
		for id := 0; id < g.n; id++ {
			g.buf = g.buf[:0]
			for j := range g.keys {
				g.buf = vec.AppendKey(g.buf, g.keys[j].C, id)
			}
			g.strs[string(g.buf)] = int32(id)
		}
		g.multi, g.interns = nil, nil
	}
	for i := 0; i < n; i++ {
		g.buf = g.buf[:0]
		for _, c := range cols {
			g.buf = vec.AppendKey(g.buf, c, i)
		}
		id, ok := g.strs[string(g.buf)]
		if !ok {
			id = g.newGroup(cols, i)
			g.strs[string(g.buf)] = id
		}
		gids[i] = id
	}
}

// placeDense records a new group of integer key k in the dense slice
// when k is a small non-negative number (at most a few times the groups
// so far, so that sparse keys do not allocate); false leaves it to the
// map. A key found in neither is new, whichever holds the others.
func (g *Grouper) placeDense(k int64, id int32) bool {
	if k >= 0 && k < int64(len(g.dense)) {
		g.dense[k] = id + 1 // within the room made already
		return true
	}
	limit := int64(max(1<<16, 8*g.n))
	if k < 0 || k >= limit || k >= 1<<26 {
		return false
	}
	if k >= int64(len(g.dense)) {
		g.dense = append(g.dense, make([]int32, int(k)+1-len(g.dense))...) // amortized growth
	}
	g.dense[k] = id + 1
	return true
}

// addInt keys group id by k in the map. Every time the groups have
// doubled, the map's keys that the dense array now takes move into it
// (moveInts): keys met before the groups were many enough for them (an
// unordered scan's first batch of a high key range) would otherwise stay
// in the map for good.
func (g *Grouper) addInt(k int64, id int32) {
	if len(g.ints) == 0 || k < g.intsLo {
		g.intsLo = k
	}
	if len(g.ints) == 0 || k > g.intsHi {
		g.intsHi = k
	}
	g.ints[k] = id
	if g.n >= 2*g.intsMoved {
		g.moveInts()
	}
}

// moveInts moves the map's keys that the dense array now takes into it.
func (g *Grouper) moveInts() {
	g.intsMoved = g.n
	for mk, mid := range g.ints {
		if g.placeDense(mk, mid) {
			delete(g.ints, mk)
		}
	}
	if g.intsLo, g.intsHi = 0, -1; len(g.ints) > 0 {
		first := true
		for mk := range g.ints {
			if first || mk < g.intsLo {
				g.intsLo = mk
			}
			if first || mk > g.intsHi {
				g.intsHi = mk
			}
			first = false
		}
	}
}

// multiKey is the key of a group of two to four keys, integer-like
// (dates, timestamps, decimals of at most 18 digits: their int64s) or
// strings (an id per distinct string, see stringIDs), with a bit per
// NULL key.
type multiKey struct {
	v     [4]int64
	nulls uint8
}

// MultiKeyTypes reports whether keys of these types group by multiKeys.
func MultiKeyTypes(types []vec.Type) bool {
	if len(types) < 2 || len(types) > len(multiKey{}.v) {
		return false
	}
	for _, t := range types {
		if st := vec.Storage(t); st != vec.StInt && st != vec.StBytes {
			return false
		}
	}
	return true
}

// multiCols reports whether every key column holds its values as the
// multiKey path reads them (int64s, or strings for a string key).
func (g *Grouper) multiCols(cols []*vec.Col) bool {
	for j, c := range cols {
		if c.Dict != nil {
			if g.interns[j] == nil || c.Dict.Off == nil {
				return false
			}
			continue
		}
		if g.interns[j] != nil {
			if c.Off == nil {
				return false
			}
		} else if c.I == nil {
			return false
		}
	}
	return true
}

// stringIDs numbers the distinct strings of one key column, with a small
// direct-mapped cache in front of the map for repeated values.
type stringIDs struct {
	ids map[string]int64
	// dicts maps a few dictionaries' codes to ids (-1: not yet looked up).
	dicts map[*vec.Col][]int64
	cache [256]struct {
		key []byte
		id  int64
		ok  bool
	}
}

// dictIDs returns the ids of a dictionary's entries, looked up once per
// dictionary.
func (s *stringIDs) dictIDs(d *vec.Col) []int64 {
	if ids, ok := s.dicts[d]; ok {
		return ids
	}
	ids := make([]int64, d.Len)
	for i := range ids {
		ids[i] = s.id(d.Str(i))
	}
	if s.dicts == nil || len(s.dicts) >= 16 {
		s.dicts = map[*vec.Col][]int64{}
	}
	s.dicts[d] = ids
	return ids
}

func (s *stringIDs) id(b []byte) int64 {
	h := uint(len(b))
	if len(b) > 0 {
		h = h*31 + uint(b[0])*7 + uint(b[len(b)-1])*131 + uint(b[len(b)/2])*17
	}
	e := &s.cache[h&255]
	if e.ok && string(e.key) == string(b) {
		return e.id
	}
	id, ok := s.ids[string(b)]
	if !ok {
		id = int64(len(s.ids))
		s.ids[string(b)] = id
	}
	e.key, e.id, e.ok = append(e.key[:0], b...), id, true
	return id
}

// assignMulti groups rows by multiKeys.
func (g *Grouper) assignMulti(cols []*vec.Col, n int, gids []int32) {
	// Key values column by column: string keys become their ids (a coded
	// column's once per dictionary entry).
	if len(g.multiVals) < len(cols) {
		g.multiVals = make([][]int64, len(cols))
	}
	vals := g.multiVals[:len(cols)]
	for j, c := range cols {
		s := g.interns[j]
		if s == nil {
			vals[j] = c.I[:n]
			continue
		}
		if cap(vals[j]) < n {
			vals[j] = make([]int64, n, max(n, vec.ScratchCap))
		}
		v := vals[j][:n]
		if c.Dict != nil {
			ids := s.dictIDs(c.Dict)
			for i, code := range c.Codes[:n] {
				if c.Null == nil || !c.Null[i] {
					v[i] = ids[code]
				}
			}
		} else {
			for i := range v {
				if c.Null == nil || !c.Null[i] {
					v[i] = s.id(c.Data[c.Off[i]:c.Off[i+1]])
				}
			}
		}
		vals[j] = v
	}
	if g.assignDense(cols, vals, n, gids) {
		return
	}
	for i := 0; i < n; i++ {
		gids[i] = g.multiID(cols, vals, i)
	}
}

// multiID is the group of row i, whose key values are vals[.][i]: from
// the cache of recent keys, else the map (a new group if need be).
func (g *Grouper) multiID(cols []*vec.Col, vals [][]int64, i int) int32 {
	if g.multiCache == nil {
		g.multiCache = new([multiCacheSize]multiCacheEntry)
	}
	var k multiKey
	for j, c := range cols {
		if c.Null != nil && c.Null[i] {
			k.nulls |= 1 << j
			continue
		}
		k.v[j] = vals[j][i]
	}
	h := k.hash()
	e := &g.multiCache[h%multiCacheSize]
	if e.ok && e.k == k {
		return e.id
	}
	id, ok := g.multi.get(&k, h)
	if !ok {
		id = g.newGroup(cols, i)
		g.multi.put(&k, h, id)
	}
	e.k, e.id, e.ok = k, id, true
	return id
}

// multiCacheSize is the number of recent keys assignMulti remembers.
const multiCacheSize = 1024

type multiCacheEntry struct {
	k  multiKey
	id int32
	ok bool
}

// assignCodes groups by a coded string column: each dictionary entry is
// looked up once, then rows map code to group through a slice.
func (g *Grouper) assignCodes(c *vec.Col, n int, gids []int32) {
	ids, ok := g.codeIDs[c.Dict]
	if !ok {
		if g.codeIDs == nil || len(g.codeIDs) >= 16 {
			g.codeIDs = map[*vec.Col][]int32{}
		}
		ids = make([]int32, c.Dict.Len)
		for i := range ids {
			ids[i] = -1
		}
		g.codeIDs[c.Dict] = ids
	}
	dict := []*vec.Col{c.Dict}
	for i, code := range c.Codes[:n] {
		if c.Null != nil && c.Null[i] {
			if g.nullID < 0 {
				g.nullID = g.newGroup([]*vec.Col{c}, i)
			}
			gids[i] = g.nullID
			continue
		}
		id := ids[code]
		if id < 0 {
			s := c.Dict.Str(int(code))
			if id, ok = g.strs[string(s)]; !ok {
				id = g.newGroup(dict, int(code))
				g.strs[string(s)] = id
			}
			ids[code] = id
		}
		gids[i] = id
	}
}

// Reserve makes room for n groups of a single integer key whose values
// lie in [0, denseHi] (denseHi < 0: not known to).
func (g *Grouper) Reserve(n int, denseHi int64) {
	if g.n != 0 {
		return
	}
	for j, t := range g.keyTypes {
		g.keys[j] = vec.NewBuilder(t, n)
	}
	if g.ints != nil && denseHi >= 0 {
		g.dense = make([]int32, denseHi+1)
	}
}

// Groups is the number of groups so far; their ids are 0 to Groups()-1.
func (g *Grouper) Groups() int { return g.n }

// KeyCol is key column j's values of the groups, in id order.
func (g *Grouper) KeyCol(j int) *vec.Col { return g.keys[j].C }

// Bytes estimates what the grouper's tables and group keys take.
func (g *Grouper) Bytes() int64 {
	n := int64(cap(g.dense))*4 + int64(cap(g.multiDense.table))*4
	for _, k := range g.keys {
		n += ColBytes(k.C)
	}
	n += int64(len(g.ints)+len(g.strs)) * MapEntryBytes
	if g.multi != nil {
		n += int64(cap(g.multi.slots))*8 + int64(cap(g.multi.ents))*int64(unsafe.Sizeof(multiEntry{}))
	}
	for _, s := range g.interns {
		if s != nil {
			n += int64(len(s.ids)) * MapEntryBytes
		}
	}
	return n
}

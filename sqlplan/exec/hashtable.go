package exec

import (
	"hash/maphash"
	"iter"
	"math/bits"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// RowTable is the hash table of a hash join's build side: for each key,
// the build rows that have it, in row order. It is a bucket array of
// chain heads plus one "next" link per row, so that building allocates
// three slices whatever the number of keys (a map of row slices allocates
// per key and rehashes as it grows), and probing walks a chain without
// hashing strings twice.
type RowTable struct {
	mask  uint64
	heads []int32 // bucket -> first row + 1 (0: empty)
	next  []int32 // row -> next row + 1 in its bucket

	// One integer key (ints), or keys encoded as bytes (data/off).
	ints   []int64
	data   []byte
	off    []int32
	hashes []uint64
	seed   maphash.Seed
	// null marks rows with a NULL key (never equal to anything).
	null []bool
	// direct: integer keys sit at bucket key - base (buildInts).
	direct bool
	base   int64
	// ranged: integer keys sit at bucket (key - base) >> shift, at most
	// 1 << shift different keys a bucket (buildInts).
	ranged bool
	shift  uint
	// unique: an integer table whose keys are all different (a primary
	// key); a direct one's bucket then holds one row, of that key.
	unique bool
}

// Integer keys spread over fewer than maxRangedSpread values per row are
// kept in order in the buckets (ranged); keys spread wider are hashed. A
// ranged bucket then holds at most maxRangedSpread / 2 different keys.
const maxRangedSpread = 32

// hashInt mixes an integer key into a bucket hash.
func hashInt(k int64) uint64 {
	h := uint64(k) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// newRowTable sizes a table for n rows.
func newRowTable(n int) *RowTable {
	size := uint64(1) << bits.Len64(uint64(max(n, 1))*2-1)
	return &RowTable{mask: size - 1, heads: make([]int32, size), next: make([]int32, n), null: make([]bool, n)}
}

// BuildInts indexes the rows of one integer key column. Keys whose range
// fits the bucket array (dense keys: TPC-H's order and part keys, most
// surrogate keys) are placed at key - min, a perfect hash that keeps
// sorted keys' buckets in order in memory; keys a few times sparser are
// placed by their range (ranged), in order too; others are hashed.
func BuildInts(c *vec.Col, n int) *RowTable {
	t := newRowTable(n)
	t.ints = c.I[:n]
	lo, hi, seen := int64(0), int64(0), false
	for i, k := range t.ints {
		if c.Null != nil && c.Null[i] {
			t.null[i] = true
			continue
		}
		if !seen || k < lo {
			lo = k
		}
		if !seen || k > hi {
			hi = k
		}
		seen = true
	}
	switch span := uint64(hi) - uint64(lo); {
	case !seen || hi-lo < 0:
	case span <= t.mask:
		t.direct, t.base = true, lo
	case span < uint64(maxRangedSpread)*uint64(n):
		// Keys sparser than the rows (TPC-H's order keys use one value
		// in four, and a date range of orders one in fifteen of those)
		// keep their order in the buckets: a bucket holds a run of
		// 1 << shift values, so that probes of sorted keys walk the
		// buckets in order, where hashed buckets cost a cache miss a
		// probe (Q05's lineitem against one year of orders). A bucket
		// per value took a table of the keys' span, 24 MiB for that year
		// at SF1, allocated and cleared on one thread before the probe.
		t.ranged, t.base = true, lo
		for span>>t.shift > t.mask {
			t.shift++
		}
	}
	// Insert from the last row so that each chain lists rows in order.
	t.unique = true
	for i := n - 1; i >= 0; i-- {
		if t.null[i] {
			continue
		}
		k := t.ints[i]
		h, _ := t.bucket(k)
		if t.unique && t.heads[h] != 0 && (t.direct || t.chainHas(t.heads[h], k)) {
			t.unique = false
		}
		t.next[i] = t.heads[h]
		t.heads[h] = int32(i + 1)
	}
	return t
}

// chainHas reports whether the chain from row r-1 on holds key k.
func (t *RowTable) chainHas(r int32, k int64) bool {
	for ; r != 0; r = t.next[r-1] {
		if t.ints[r-1] == k {
			return true
		}
	}
	return false
}

// ProbeInts lists the pairs (probe row, build row) of the probe keys keys
// (null marks NULL keys, which match nothing; nil: none).
func (t *RowTable) ProbeInts(keys []int64, null []bool) (li, ri []int32) {
	if !t.unique {
		for i, x := range keys {
			if null == nil || !null[i] {
				li, ri = t.AppendIntMatches(li, ri, i, x)
			}
		}
		return li, ri
	}
	// Unique keys: each probe row has at most one partner.
	li, ri = make([]int32, 0, len(keys)), make([]int32, 0, len(keys))
	if !t.direct {
		for i, x := range keys {
			if null == nil || !null[i] {
				if r := t.FindInt(x); r >= 0 {
					li, ri = append(li, int32(i)), append(ri, r)
				}
			}
		}
		return li, ri
	}
	// A direct table: a key's bucket is its row, or empty.
	heads, base, mask := t.heads, uint64(t.base), t.mask
	for i, x := range keys {
		d := uint64(x) - base
		if d > mask || null != nil && null[i] {
			continue
		}
		if r := heads[d]; r != 0 {
			li, ri = append(li, int32(i)), append(ri, r-1)
		}
	}
	return li, ri
}

// bucket is integer key k's bucket; ok is false when a direct table has
// no bucket for it (no row has it).
func (t *RowTable) bucket(k int64) (uint64, bool) {
	switch {
	case t.direct:
		d := uint64(k) - uint64(t.base)
		return d, d <= t.mask
	case t.ranged:
		d := (uint64(k) - uint64(t.base)) >> t.shift
		return d, d <= t.mask
	}
	return hashInt(k) & t.mask, true
}

// firstInt is the first row + 1 of integer key k's chain (0: none); the
// chain may hold other keys.
func (t *RowTable) firstInt(k int64) int32 {
	h, ok := t.bucket(k)
	if !ok {
		return 0
	}
	return t.heads[h]
}

// BuildKeys indexes the n rows of key columns by their encoded keys
// (JoinKey); a row with a NULL key is never found.
func BuildKeys(keys []*vec.Col, n int) *RowTable {
	t := newRowTable(n)
	t.seed = maphash.MakeSeed()
	t.off = make([]int32, n+1)
	t.hashes = make([]uint64, n)
	var k []byte
	for i := 0; i < n; i++ {
		var ok bool
		if k, ok = JoinKey(k, keys, i); !ok {
			t.null[i] = true
		} else {
			t.data = append(t.data, k...)
			t.hashes[i] = maphash.Bytes(t.seed, k)
		}
		t.off[i+1] = int32(len(t.data))
	}
	for i := n - 1; i >= 0; i-- {
		if t.null[i] {
			continue
		}
		h := t.hashes[i] & t.mask
		t.next[i] = t.heads[h]
		t.heads[h] = int32(i + 1)
	}
	return t
}

// AppendIntMatches appends to li and ri the pairs (i, build row) of probe
// row i with integer key k.
func (t *RowTable) AppendIntMatches(li, ri []int32, i int, k int64) ([]int32, []int32) {
	for r := t.firstInt(k); r != 0; r = t.next[r-1] {
		if t.ints[r-1] == k {
			li, ri = append(li, int32(i)), append(ri, r-1)
		}
	}
	return li, ri
}

// AppendKeyMatches is AppendIntMatches for an encoded key.
func (t *RowTable) AppendKeyMatches(li, ri []int32, i int, k []byte) ([]int32, []int32) {
	h := maphash.Bytes(t.seed, k)
	for r := t.heads[h&t.mask]; r != 0; r = t.next[r-1] {
		j := r - 1
		if t.hashes[j] == h && string(t.data[t.off[j]:t.off[j+1]]) == string(k) {
			li, ri = append(li, int32(i)), append(ri, j)
		}
	}
	return li, ri
}

// FindInt is the first row with integer key k, or -1.
func (t *RowTable) FindInt(k int64) int32 {
	for r := t.firstInt(k); r != 0; r = t.next[r-1] {
		if t.ints[r-1] == k {
			return r - 1
		}
	}
	return -1
}

// FindKey is FindInt for an encoded key.
func (t *RowTable) FindKey(k []byte) int32 {
	h := maphash.Bytes(t.seed, k)
	for r := t.heads[h&t.mask]; r != 0; r = t.next[r-1] {
		j := r - 1
		if t.hashes[j] == h && string(t.data[t.off[j]:t.off[j+1]]) == string(k) {
			return j
		}
	}
	return -1
}

// KeyPacker packs the values of several integer key columns into one
// int64, each key's offset from its smallest build value in bits of its
// own, when the build side's ranges fit in 63 bits together (TPC-H Q09's
// partsupp keys (ps_partkey, ps_suppkey)). Both sides of a join are
// packed alike and probed as one integer key; a probe value outside the
// build side's range of its key matches nothing.
type KeyPacker struct {
	lo     []int64
	hi     []int64
	shifts []uint
}

// NewKeyPacker returns the packer of a join's build keys (n rows) against
// probe keys of types probe, ok false when the keys are not all
// integers of one kind on both sides or their ranges do not fit.
func NewKeyPacker(keys []*vec.Col, probe []vec.Type, n int) (*KeyPacker, bool) {
	if len(keys) < 2 || len(keys) > 8 {
		return nil, false
	}
	pk := &KeyPacker{lo: make([]int64, len(keys)), hi: make([]int64, len(keys)), shifts: make([]uint, len(keys))}
	total := uint(0)
	for j, c := range keys {
		lt := probe[j]
		if c.I == nil || c.Dict != nil || vec.Storage(c.T) != vec.StInt || vec.Storage(lt) != vec.StInt || c.T.Kind != lt.Kind || c.T.Scale != lt.Scale || c.T.Nanos != lt.Nanos {
			return nil, false
		}
		lo, hi, any := int64(0), int64(-1), false
		for i, v := range c.I[:n] {
			if c.Null != nil && c.Null[i] {
				continue
			}
			if !any {
				lo, hi, any = v, v, true
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		pk.lo[j], pk.hi[j] = lo, hi
		pk.shifts[j] = total
		if any {
			total += uint(bits.Len64(uint64(hi) - uint64(lo)))
		}
		if total > 63 {
			return nil, false
		}
	}
	return pk, true
}

// Pack returns the packed keys of n rows: NULL where a key is NULL or
// outside the build side's range.
func (pk *KeyPacker) Pack(keys []*vec.Col, n int) *vec.Col {
	out := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: n, I: make([]int64, n)}
	for j, c := range keys {
		c = c.Decoded()
		lo, hi, shift := pk.lo[j], pk.hi[j], pk.shifts[j]
		if len(c.I) < n { // only NULLs
			out.Null = make([]bool, n)
			for i := range out.Null {
				out.Null[i] = true
			}
			return out
		}
		for i, v := range c.I[:n] {
			if c.Null != nil && c.Null[i] || v < lo || v > hi {
				if out.Null == nil {
					out.Null = make([]bool, n)
				}
				out.Null[i] = true
				continue
			}
			out.I[i] |= int64((uint64(v) - uint64(lo)) << shift)
		}
	}
	return out
}

// Bytes is what the table's arrays take.
func (t *RowTable) Bytes() int64 {
	if t == nil {
		return 0
	}
	return int64(cap(t.heads))*4 + int64(cap(t.next))*4 + int64(cap(t.ints))*8 + int64(cap(t.data)) +
		int64(cap(t.off))*4 + int64(cap(t.hashes))*8 + int64(cap(t.null))
}

// IsNull reports whether build row r has a NULL key.
func (t *RowTable) IsNull(r int) bool { return t.null[r] }

// Key is build row r's encoded key (a table of BuildKeys).
func (t *RowTable) Key(r int) []byte { return t.data[t.off[r]:t.off[r+1]] }

// Unique reports whether the table's integer keys are all different.
func (t *RowTable) Unique() bool { return t.unique }

// IntKeyed reports whether the table indexes one integer key (BuildInts).
func (t *RowTable) IntKeyed() bool { return t.ints != nil }

// IntRows yields the build rows with integer key k, in row order.
func (t *RowTable) IntRows(k int64) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		for r := t.firstInt(k); r != 0; r = t.next[r-1] {
			if t.ints[r-1] == k && !yield(r-1) {
				return
			}
		}
	}
}

package encoding

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"unsafe"
)

// Dictionary builders map each distinct value to its index in insertion
// order, with open-addressing hash tables and no per-value allocation. The
// column writer inserts a page's values, encodes the indices with
// AppendDictIndices, and at the end of the chunk writes the dictionary
// page with AppendPlain (falling back to another encoding when PlainSize
// or Len grows too large). Values are compared by bit pattern, so NaNs with
// different payloads, and 0.0 and -0.0, are distinct entries.

const fibMul = 0x9E3779B97F4A7C15

// FixedDict builds a dictionary of fixed-width values.
type FixedDict[T fixed] struct {
	values []T
	table  []int32 // index+1 of the value in each slot, 0 for empty
	shift  uint
}

// Int32Dict builds an INT32 dictionary.
type Int32Dict = FixedDict[int32]

// Int64Dict builds an INT64 dictionary.
type Int64Dict = FixedDict[int64]

// Float32Dict builds a FLOAT dictionary.
type Float32Dict = FixedDict[float32]

// Float64Dict builds a DOUBLE dictionary.
type Float64Dict = FixedDict[float64]

// Int96Dict builds an INT96 dictionary.
type Int96Dict = FixedDict[[12]byte]

func fixedHash[T fixed](v *T) (uint64, uint32) {
	p := unsafe.Pointer(v)
	switch unsafe.Sizeof(*v) {
	case 4:
		return uint64(*(*uint32)(p)), 0
	case 8:
		return *(*uint64)(p), 0
	default:
		b := (*[12]byte)(p)
		return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
				uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56,
			uint32(b[8]) | uint32(b[9])<<8 | uint32(b[10])<<16 | uint32(b[11])<<24
	}
}

func (d *FixedDict[T]) grow() {
	size := max(64, 2*len(d.table))
	d.table = make([]int32, size)
	d.shift = uint(64 - BitWidth(uint64(size-1)))
	mask := uint64(size - 1)
	for i := range d.values {
		a, b := fixedHash(&d.values[i])
		slot := ((a ^ uint64(b)<<29) * fibMul) >> d.shift
		for d.table[slot] != 0 {
			slot = (slot + 1) & mask
		}
		d.table[slot] = int32(i + 1)
	}
}

// Insert adds the values to the dictionary and appends their indices to
// indices.
func (d *FixedDict[T]) Insert(indices []int32, values []T) []int32 {
	at := len(indices)
	indices = extend(indices, len(values))
	out := indices[at:]
	for i := range values {
		out[i] = d.insert(&values[i])
	}
	return indices
}

// InsertValue adds one value and returns its index.
func (d *FixedDict[T]) InsertValue(v T) int32 { return d.insert(&v) }

func (d *FixedDict[T]) insert(v *T) int32 {
	if 2*len(d.values) >= len(d.table) {
		d.grow()
	}
	a, b := fixedHash(v)
	mask := uint64(len(d.table) - 1)
	slot := ((a ^ uint64(b)<<29) * fibMul) >> d.shift
	for {
		e := d.table[slot]
		if e == 0 {
			d.values = append(d.values, *v)
			d.table[slot] = int32(len(d.values))
			return int32(len(d.values) - 1)
		}
		if x, y := fixedHash(&d.values[e-1]); x == a && y == b {
			return e - 1
		}
		slot = (slot + 1) & mask
	}
}

// Len is the number of distinct values.
func (d *FixedDict[T]) Len() int { return len(d.values) }

// Values returns the dictionary entries in index order.
func (d *FixedDict[T]) Values() []T { return d.values }

// PlainSize is the size of the dictionary page body.
func (d *FixedDict[T]) PlainSize() int { return len(d.values) * sizeOf[T]() }

// AppendPlain appends the dictionary page body (the entries, PLAIN).
func (d *FixedDict[T]) AppendPlain(dst []byte) []byte { return appendPlainFixed(dst, d.values) }

// Reset empties the dictionary, keeping its memory.
func (d *FixedDict[T]) Reset() {
	d.values = d.values[:0]
	clear(d.table)
}

// bytesDict is the table shared by ByteArrayDict and FixedLenDict.
type bytesDict struct {
	data    []byte
	offsets []int32 // len = entries+1 once anything was inserted
	hashes  []uint64
	table   []int32
	shift   uint
	seed    maphash.Seed
	seeded  bool
	// recent caches entries (index+1, 0 when empty) by a cheap key of a
	// value's length and end bytes: a low-cardinality column finds most
	// values there without hashing them whole and probing the table.
	recent [256]int32
	// hits and misses of recent; when misses dominate (a column of many
	// distinct values) the cache is only overhead and is turned off until
	// the next reset.
	hits, misses int
	noRecent     bool
}

// recentKey is the slot of v in bytesDict.recent.
func recentKey(v []byte) uint8 {
	n := len(v)
	var x uint64
	switch {
	case n >= 8:
		x = binary.LittleEndian.Uint64(v) ^ binary.LittleEndian.Uint64(v[n-8:])<<1
	case n >= 4:
		x = uint64(binary.LittleEndian.Uint32(v)) | uint64(binary.LittleEndian.Uint32(v[n-4:]))<<32
	case n > 0:
		x = uint64(v[0]) | uint64(v[n/2])<<8 | uint64(v[n-1])<<16
	}
	return uint8((x ^ uint64(n)) * fibMul >> 56)
}

func (d *bytesDict) grow() {
	size := max(64, 2*len(d.table))
	d.table = make([]int32, size)
	d.shift = uint(64 - BitWidth(uint64(size-1)))
	mask := uint64(size - 1)
	for i, h := range d.hashes {
		slot := (h * fibMul) >> d.shift
		for d.table[slot] != 0 {
			slot = (slot + 1) & mask
		}
		d.table[slot] = int32(i + 1)
	}
}

func (d *bytesDict) insert(v []byte) int32 {
	if d.noRecent {
		return d.lookup(v)
	}
	k := recentKey(v)
	if e := d.recent[k]; e != 0 && string(d.data[d.offsets[e-1]:d.offsets[e]]) == string(v) {
		d.hits++
		return e - 1
	}
	if d.misses++; d.misses >= 4096 && d.misses > d.hits {
		d.noRecent = true
	}
	i := d.lookup(v)
	d.recent[k] = i + 1
	return i
}

// lookup finds or adds v through the hash table.
func (d *bytesDict) lookup(v []byte) int32 {
	if !d.seeded {
		d.seed, d.seeded = maphash.MakeSeed(), true
	}
	if len(d.offsets) == 0 {
		d.offsets = append(d.offsets, 0)
	}
	if 2*len(d.hashes) >= len(d.table) {
		d.grow()
	}
	h := maphash.Bytes(d.seed, v)
	mask := uint64(len(d.table) - 1)
	slot := (h * fibMul) >> d.shift
	for {
		e := d.table[slot]
		if e == 0 {
			d.data = append(d.data, v...)
			d.offsets = append(d.offsets, int32(len(d.data)))
			d.hashes = append(d.hashes, h)
			d.table[slot] = int32(len(d.hashes))
			return int32(len(d.hashes) - 1)
		}
		if d.hashes[e-1] == h && bytes.Equal(d.data[d.offsets[e-1]:d.offsets[e]], v) {
			return e - 1
		}
		slot = (slot + 1) & mask
	}
}

func (d *bytesDict) reset() {
	d.data, d.offsets, d.hashes = d.data[:0], d.offsets[:0], d.hashes[:0]
	clear(d.table)
	clear(d.recent[:])
	d.hits, d.misses, d.noRecent = 0, 0, false
}

// ByteArrayDict builds a BYTE_ARRAY dictionary.
type ByteArrayDict struct{ d bytesDict }

// Insert adds the values data[offsets[i]:offsets[i+1]] and appends their
// indices to indices.
func (d *ByteArrayDict) Insert(indices []int32, data []byte, offsets []int32) []int32 {
	for i := 0; i+1 < len(offsets); i++ {
		indices = append(indices, d.d.insert(data[offsets[i]:offsets[i+1]]))
	}
	return indices
}

// InsertValue adds one value and returns its index.
func (d *ByteArrayDict) InsertValue(v []byte) int32 { return d.d.insert(v) }

// Len is the number of distinct values.
func (d *ByteArrayDict) Len() int { return len(d.d.hashes) }

// Data and Offsets return the entries Arrow-style.
func (d *ByteArrayDict) Data() []byte { return d.d.data }

// Offsets returns the entries' offsets into Data (Len()+1 of them, or none
// before the first insert).
func (d *ByteArrayDict) Offsets() []int32 { return d.d.offsets }

// PlainSize is the size of the dictionary page body.
func (d *ByteArrayDict) PlainSize() int { return 4*d.Len() + len(d.d.data) }

// AppendPlain appends the dictionary page body (the entries, PLAIN).
func (d *ByteArrayDict) AppendPlain(dst []byte) []byte {
	return AppendPlainByteArray(dst, d.d.data, d.d.offsets)
}

// Reset empties the dictionary, keeping its memory.
func (d *ByteArrayDict) Reset() { d.d.reset() }

// FixedLenDict builds a FIXED_LEN_BYTE_ARRAY dictionary.
type FixedLenDict struct {
	d     bytesDict
	width int
}

// NewFixedLenDict returns a dictionary builder for values of width bytes.
func NewFixedLenDict(width int) *FixedLenDict { return &FixedLenDict{width: max(width, 1)} }

// Insert adds the values held back to back in values and appends their
// indices to indices.
func (d *FixedLenDict) Insert(indices []int32, values []byte) []int32 {
	for i := 0; i+d.width <= len(values); i += d.width {
		indices = append(indices, d.d.insert(values[i:i+d.width]))
	}
	return indices
}

// Len is the number of distinct values.
func (d *FixedLenDict) Len() int { return len(d.d.hashes) }

// Values returns the entries back to back.
func (d *FixedLenDict) Values() []byte { return d.d.data }

// PlainSize is the size of the dictionary page body.
func (d *FixedLenDict) PlainSize() int { return len(d.d.data) }

// AppendPlain appends the dictionary page body (the entries, PLAIN).
func (d *FixedLenDict) AppendPlain(dst []byte) []byte { return append(dst, d.d.data...) }

// Reset empties the dictionary, keeping its memory.
func (d *FixedLenDict) Reset() { d.d.reset() }

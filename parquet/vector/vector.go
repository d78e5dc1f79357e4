// Package vector is the in-memory columnar layout that readers produce,
// writers consume, and the scan and SQL layers compute on: Arrow-like
// typed slices, byte arrays as one buffer plus offsets, validity as a
// bitmap, and nested values as offsets plus child vectors.
//
// A Vector is physical storage only; what its values mean (a timestamp
// unit, a decimal scale) travels beside it in the schema. Null slots hold
// zero values (and empty byte arrays), so position i of every slice is
// row i. Vectors are reused across batches: Reset keeps capacity.
package vector

import "fmt"

// Kind is how a vector stores its values.
type Kind uint8

const (
	Invalid Kind = iota
	Bool
	Int32
	Int64
	Int96
	Float32
	Float64
	ByteArray
	FixedLenByteArray
	Struct
	List
	Map
)

var kindNames = [...]string{"invalid", "bool", "int32", "int64", "int96", "float32", "float64", "byte_array",
	"fixed_len_byte_array", "struct", "list", "map"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Vector is one column of a batch.
type Vector struct {
	Kind Kind
	// Width is the byte width of FixedLenByteArray values.
	Width int
	// Len is the number of rows (slots).
	Len int
	// Valid has bit i set when slot i is not null; nil means no nulls.
	Valid Bitmap

	Bools    []bool
	Int32s   []int32
	Int64s   []int64
	Int96s   [][12]byte
	Float32s []float32
	Float64s []float64
	// Data holds ByteArray values (delimited by Offsets) and
	// FixedLenByteArray values (Width bytes each).
	Data []byte
	// Offsets has Len+1 entries for ByteArray (into Data), List and Map
	// (into the child vectors).
	Offsets []int32
	// Children: Struct fields; List: the element; Map: key and value.
	Children []*Vector
	// Borrowed marks value slices that alias memory the vector does not own
	// (a memory-mapped file): they are read-only, and Reset drops them
	// instead of reusing them.
	Borrowed bool

	// Dict, when set, makes this a coded ByteArray vector: slot i holds
	// Dict's value Codes[i] (null slots hold code 0, which means nothing),
	// and Data and Offsets are empty. Only a reader asked for codes
	// (file.ReaderOptions.Codes) returns this form, for dictionary-encoded
	// pages: consumers that group or compare by value then work on small
	// integers instead of copied bytes. Dict is shared and read-only.
	Dict  *Vector
	Codes []int32
}

// New returns an empty vector of kind k.
func New(k Kind) *Vector { return &Vector{Kind: k} }

// Reset empties v for reuse, keeping the capacity of its buffers and the
// shape of its children.
func (v *Vector) Reset() {
	if v.Borrowed {
		v.Int32s, v.Int64s, v.Float32s, v.Float64s = nil, nil, nil, nil
		v.Borrowed = false
	}
	v.Len = 0
	v.Valid = v.Valid[:0]
	v.Bools = v.Bools[:0]
	v.Int32s = v.Int32s[:0]
	v.Int64s = v.Int64s[:0]
	v.Int96s = v.Int96s[:0]
	v.Float32s = v.Float32s[:0]
	v.Float64s = v.Float64s[:0]
	v.Data = v.Data[:0]
	v.Offsets = v.Offsets[:0]
	v.Dict, v.Codes = nil, v.Codes[:0]
	for _, c := range v.Children {
		c.Reset()
	}
}

// Reserve makes room for n more fixed-width values without reallocating:
// a reader that knows a batch's size calls it once instead of growing the
// slice page span by page span (each growth copies what is there).
func (v *Vector) Reserve(n int) {
	if v.Borrowed || n <= 0 {
		return
	}
	switch v.Kind {
	case Int32:
		v.Int32s = reserve(v.Int32s, n)
	case Int64:
		v.Int64s = reserve(v.Int64s, n)
	case Float32:
		v.Float32s = reserve(v.Float32s, n)
	case Float64:
		v.Float64s = reserve(v.Float64s, n)
	}
}

func reserve[T any](s []T, n int) []T {
	if cap(s)-len(s) >= n {
		return s
	}
	ns := make([]T, len(s), len(s)+n)
	copy(ns, s)
	return ns
}

// IsNull reports whether slot i is null.
func (v *Vector) IsNull(i int) bool { return v.Valid != nil && !v.Valid.Get(i) }

// HasNulls reports whether any slot may be null.
func (v *Vector) HasNulls() bool { return v.Valid != nil }

// NullCount counts the null slots.
func (v *Vector) NullCount() int {
	if v.Valid == nil {
		return 0
	}
	return v.Len - v.Valid.Count(v.Len)
}

// Bytes returns the value of a ByteArray or FixedLenByteArray slot. The
// result aliases the vector's buffer.
func (v *Vector) Bytes(i int) []byte {
	if v.Dict != nil {
		return v.Dict.Bytes(int(v.Codes[i]))
	}
	if v.Kind == FixedLenByteArray {
		return v.Data[i*v.Width : (i+1)*v.Width]
	}
	return v.Data[v.Offsets[i]:v.Offsets[i+1]]
}

// Decode turns a coded vector (see Dict) into plain values in place; other
// vectors are left as they are.
func (v *Vector) Decode() {
	if v.Dict == nil {
		return
	}
	d, codes := v.Dict, v.Codes[:v.Len]
	// A reused vector's emptied bitmap (dense values) means no nulls.
	valid := v.Valid
	if len(valid) == 0 {
		valid = nil
	}
	null := func(i int) bool { return valid != nil && !valid.Get(i) }
	size := 0
	for i, c := range codes {
		if !null(i) {
			size += int(d.Offsets[c+1] - d.Offsets[c])
		}
	}
	data := make([]byte, 0, size)
	offsets := make([]int32, v.Len+1)
	for i, c := range codes {
		if !null(i) {
			data = append(data, d.Data[d.Offsets[c]:d.Offsets[c+1]]...)
		}
		offsets[i+1] = int32(len(data))
	}
	v.Data, v.Offsets, v.Dict, v.Codes = data, offsets, nil, nil
}

// ListRange returns the child range [start, end) of a List or Map slot.
func (v *Vector) ListRange(i int) (int, int) {
	return int(v.Offsets[i]), int(v.Offsets[i+1])
}

// Bitmap is a validity bitmap: bit i of word i/64.
type Bitmap []uint64

// NewBitmap returns a bitmap of n bits, all set (all valid) when set is true.
func NewBitmap(n int, set bool) Bitmap {
	b := make(Bitmap, (n+63)/64)
	if set {
		for i := range b {
			b[i] = ^uint64(0)
		}
	}
	return b
}

// Get reports bit i.
func (b Bitmap) Get(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

// Set sets bit i.
func (b Bitmap) Set(i int) { b[i>>6] |= 1 << (uint(i) & 63) }

// Clear clears bit i.
func (b Bitmap) Clear(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// Count returns the number of set bits among the first n.
func (b Bitmap) Count(n int) int {
	c := 0
	full := n >> 6
	for _, w := range b[:full] {
		c += popcount(w)
	}
	if r := uint(n) & 63; r != 0 {
		c += popcount(b[full] & (1<<r - 1))
	}
	return c
}

// Grow returns b resized to hold n bits, keeping existing bits; new words
// are zero.
func (b Bitmap) Grow(n int) Bitmap {
	words := (n + 63) / 64
	if cap(b) >= words {
		old := len(b)
		b = b[:words]
		if old < words {
			clear(b[old:])
		}
		return b
	}
	nb := make(Bitmap, words, words+words/2)
	copy(nb, b)
	return nb
}

package variant

import (
	"fmt"
	"sort"

	"github.com/carquet-go/carquet/parquet/errs"
)

// ErrInvalid is wrapped by every error about malformed Variant bytes.
// It is a kind of errs.ErrCorrupt.
var ErrInvalid = errs.New("variant: invalid encoding", errs.ErrCorrupt)

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)
}

// Metadata is a parsed Variant metadata: the dictionary of field names. It
// refers to the bytes it was parsed from without copying them.
type Metadata struct {
	raw        []byte
	offsetSize int
	size       int // number of dictionary strings
	offsets    int // position of the first offset in raw
	strings    int // position of the string bytes in raw
	sorted     bool
}

// ParseMetadata checks the header and the dictionary layout of b. Each
// string's bounds are checked when it is used.
func ParseMetadata(b []byte) (Metadata, error) {
	if len(b) == 0 {
		return Metadata{}, invalid("empty metadata")
	}
	h := b[0]
	if v := h & 0x0f; v != 1 {
		return Metadata{}, invalid("metadata version %d, want 1", v)
	}
	m := Metadata{raw: b, offsetSize: int(h>>6) + 1, sorted: h&0x10 != 0}
	if len(b) < 1+m.offsetSize {
		return Metadata{}, invalid("metadata of %d bytes has no dictionary size", len(b))
	}
	n := readUint(b[1:], m.offsetSize)
	// The dictionary needs n+1 offsets after the size: reject sizes the
	// bytes cannot hold before computing anything from them.
	if n > uint64(len(b)) || (n+2)*uint64(m.offsetSize)+1 > uint64(len(b)) {
		return Metadata{}, invalid("metadata dictionary of %d strings in %d bytes", n, len(b))
	}
	m.size = int(n)
	m.offsets = 1 + m.offsetSize
	m.strings = m.offsets + (m.size+1)*m.offsetSize
	if last := readUint(b[m.offsets+m.size*m.offsetSize:], m.offsetSize); last > uint64(len(b)-m.strings) {
		return Metadata{}, invalid("metadata strings end at %d, past the %d bytes there are", last, len(b)-m.strings)
	}
	return m, nil
}

// Len returns the number of dictionary strings.
func (m Metadata) Len() int { return m.size }

// Sorted reports whether the header says the dictionary is sorted and
// unique.
func (m Metadata) Sorted() bool { return m.sorted }

// Bytes returns the encoded metadata.
func (m Metadata) Bytes() []byte { return m.raw }

// keyBytes returns dictionary string i without copying.
func (m Metadata) keyBytes(i int) ([]byte, error) {
	if i < 0 || i >= m.size {
		return nil, invalid("field id %d out of the %d-string dictionary", i, m.size)
	}
	p := m.offsets + i*m.offsetSize
	start := readUint(m.raw[p:], m.offsetSize)
	end := readUint(m.raw[p+m.offsetSize:], m.offsetSize)
	if start > end || end > uint64(len(m.raw)-m.strings) {
		return nil, invalid("dictionary string %d spans [%d, %d)", i, start, end)
	}
	return m.raw[m.strings+int(start) : m.strings+int(end)], nil
}

// Key returns dictionary string i.
func (m Metadata) Key(i int) (string, error) {
	b, err := m.keyBytes(i)
	return string(b), err
}

// Find returns the id of name in the dictionary: a binary search when the
// dictionary is sorted, a scan otherwise.
func (m Metadata) Find(name string) (int, bool) {
	if m.sorted {
		lo, hi := 0, m.size
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			k, err := m.keyBytes(mid)
			if err != nil {
				return m.scan(name)
			}
			if string(k) < name {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		if k, err := m.keyBytes(lo); err == nil && string(k) == name {
			return lo, true
		}
		// A header that claims sorted strings may lie; fall back to a scan.
		return m.scan(name)
	}
	return m.scan(name)
}

func (m Metadata) scan(name string) (int, bool) {
	for i := range m.size {
		if k, err := m.keyBytes(i); err == nil && string(k) == name {
			return i, true
		}
	}
	return 0, false
}

// readUint reads an n-byte (1..4) little-endian unsigned integer; b must
// hold n bytes.
func readUint(b []byte, n int) uint64 {
	_ = b[n-1]
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func appendUint(dst []byte, v uint64, n int) []byte {
	for i := range n {
		dst = append(dst, byte(v>>(8*i)))
	}
	return dst
}

// sizeFor returns how many bytes (1..4) hold v.
func sizeFor(v uint64) int {
	switch {
	case v <= 0xff:
		return 1
	case v <= 0xffff:
		return 2
	case v <= 0xffffff:
		return 3
	}
	return 4
}

// MetadataBuilder collects field names and writes a metadata dictionary.
type MetadataBuilder struct {
	ids   map[string]int
	names []string
}

// Add returns the id of name, adding it if it is new. Ids are in order of
// first addition; Build(true) renumbers them.
func (b *MetadataBuilder) Add(name string) int {
	if id, ok := b.ids[name]; ok {
		return id
	}
	if b.ids == nil {
		b.ids = map[string]int{}
	}
	id := len(b.names)
	b.ids[name] = id
	b.names = append(b.names, name)
	return id
}

// Len returns the number of names added.
func (b *MetadataBuilder) Len() int { return len(b.names) }

// Build writes the metadata. With sorted, the dictionary is sorted
// (bytewise) and flagged so, and remap[id] gives each Add id's new id;
// otherwise ids stay as Add returned them and remap is nil.
func (b *MetadataBuilder) Build(sorted bool) (metadata []byte, remap []int) {
	names := b.names
	if sorted {
		order := make([]int, len(names))
		for i := range order {
			order[i] = i
		}
		sort.Slice(order, func(i, j int) bool { return names[order[i]] < names[order[j]] })
		remap = make([]int, len(names))
		sortedNames := make([]string, len(names))
		for newID, oldID := range order {
			remap[oldID] = newID
			sortedNames[newID] = names[oldID]
		}
		names = sortedNames
	}
	total := 0
	for _, n := range names {
		total += len(n)
	}
	osz := sizeFor(uint64(max(total, len(names))))
	h := byte(1) | byte(osz-1)<<6
	if sorted {
		h |= 0x10
	}
	out := make([]byte, 0, 1+osz*(len(names)+2)+total)
	out = append(out, h)
	out = appendUint(out, uint64(len(names)), osz)
	off := 0
	out = appendUint(out, 0, osz)
	for _, n := range names {
		off += len(n)
		out = appendUint(out, uint64(off), osz)
	}
	for _, n := range names {
		out = append(out, n...)
	}
	return out, remap
}

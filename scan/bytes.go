package scan

import (
	"bytes"

	"github.com/carquet-go/carquet/parquet/vector"
)

// byteSlots reads the values of a plain BYTE_ARRAY vector (offsets into
// data) or FIXED_LEN_BYTE_ARRAY one (width bytes each) without a call
// through the vector per slot.
type byteSlots struct {
	data  []byte
	off   []int32
	width int
}

func (s byteSlots) at(i int) []byte {
	if s.off != nil {
		return s.data[s.off[i]:s.off[i+1]]
	}
	return s.data[i*s.width : (i+1)*s.width]
}

// bit is 1 for true, as a shift operand: rows set their truth bit without
// a branch on the outcome, which the data makes unpredictable.
func bit(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// bytesEval evaluates a Compare, In or LIKE-prefix term on a plain
// (uncoded) string or binary vector with one loop per kind of term,
// setting truth for the rows where it holds; null slots are masked by the
// caller. It reports false when the term or the vector is not of that
// kind. A dictionary vector goes through here too (dictTruth), so that a
// coded column's terms cost one such loop per dictionary.
func (e *leafEval) bytesEval(v *vector.Vector, n int, truth vector.Bitmap) bool {
	if e.byValue || e.ci.dom != domBytes || v.Dict != nil {
		return false
	}
	var s byteSlots
	switch v.Kind {
	case vector.ByteArray:
		s = byteSlots{data: v.Data, off: v.Offsets[:n+1]}
	case vector.FixedLenByteArray:
		s = byteSlots{data: v.Data, width: v.Width}
	default:
		return false
	}
	switch p := e.pred.(type) {
	case Prefix:
		pre := []byte(p.Prefix)
		for i := 0; i < n; i++ {
			truth[i>>6] |= bit(bytes.HasPrefix(s.at(i), pre)) << (i & 63)
		}
	case Compare:
		c := e.bounds[0].b
		if p.Op == Eq || p.Op == Ne {
			// Equality needs no order: bytes.Equal stops at a length
			// mismatch before reading a byte.
			ne := p.Op == Ne
			for i := 0; i < n; i++ {
				truth[i>>6] |= bit(bytes.Equal(s.at(i), c) != ne) << (i & 63)
			}
			break
		}
		for i := 0; i < n; i++ {
			truth[i>>6] |= bit(holds(p.Op, bytes.Compare(s.at(i), c))) << (i & 63)
		}
	case In:
		for i := 0; i < n; i++ {
			truth[i>>6] |= bit(e.inBytesHas(s.at(i)) != p.Not) << (i & 63)
		}
	default:
		return false
	}
	return true
}

// inBytesHas reports whether a string is in the term's IN list: one set
// lookup for a long list, a comparison with each value for a short one.
func (e *leafEval) inBytesHas(b []byte) bool {
	if e.inBytes != nil {
		_, ok := e.inBytes[string(b)]
		return ok
	}
	for k := range e.bounds {
		if bytes.Equal(b, e.bounds[k].b) {
			return true
		}
	}
	return false
}

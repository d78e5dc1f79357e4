package function

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/cespare/xxhash/v2"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB's system scalar functions that carquet can have: hash(...),
// create_sort_key(...) and vector_type(x).
//
// hash is a 64-bit hash of its arguments, UBIGINT as DuckDB's. DuckDB's
// values are an implementation detail of its own (not a published
// algorithm): carquet's are XXH64 over a fixed encoding of the values,
// documented here and stable across carquet's versions. Equal values of
// one type hash alike; NULL hashes to a value too (as in DuckDB, hash(NULL)
// is no NULL); several arguments hash together, each one's encoding
// delimited so that ('ab', 'c') and ('a', 'bc') differ.

func init() {
	register(map[string]*Scalar{
		"hash":            {Min: 1, Max: -1, Rule: hashRule, Batch: hashBatch, NonStrict: true},
		"create_sort_key": {Min: 2, Max: -1, Rule: sortKeyRule, Batch: sortKeyBatch, NonStrict: true},
		"vector_type":     {Min: 1, Max: 1, Rule: anyArgs(tString), Batch: vectorTypeBatch, NonStrict: true},
	})
}

// tUBigint is hash's result type.
var tUBigint = vec.Type{Kind: vec.KUint, Bits: 64}

// anyArgs types a call whose arguments stay as they are.
func anyArgs(result vec.Type) TypeRule {
	return func([]vec.Type) ([]vec.Type, vec.Type, error) { return nil, result, nil }
}

func hashRule(args []vec.Type) ([]vec.Type, vec.Type, error) { return nil, tUBigint, nil }

// The tag bytes of hash's encoding: one before each value.
const (
	hashNull  = 0
	hashValue = 1
)

func hashBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tUBigint, Len: n, I: make([]int64, n)}
	var d xxhash.Digest
	var buf []byte
	for i := range n {
		d.Reset()
		for _, c := range a {
			buf = appendHashValue(buf[:0], c, i)
			d.Write(buf)
		}
		out.I[i] = int64(d.Sum64())
	}
	return out, nil
}

// appendHashValue appends the encoding hash reads of row i of c: a tag,
// then the value's bytes (a length first for variable-length ones).
// Floats hash by value: -0 as 0, every NaN alike.
func appendHashValue(buf []byte, c *vec.Col, i int) []byte {
	if c.IsNull(i) || c.T.Kind == vec.KNull {
		return append(buf, hashNull)
	}
	buf = append(buf, hashValue)
	switch vec.Storage(c.T) {
	case vec.StInt:
		return binary.LittleEndian.AppendUint64(buf, uint64(c.I[i]))
	case vec.StFloat:
		return binary.LittleEndian.AppendUint64(buf, canonicalFloatBits(c.F[i]))
	case vec.StBool:
		if c.B[i] {
			return append(buf, 1)
		}
		return append(buf, 0)
	case vec.StBytes:
		s := c.Str(i)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
		return append(buf, s...)
	case vec.StHuge:
		h := c.H[i]
		buf = binary.LittleEndian.AppendUint64(buf, h.Lo)
		return binary.LittleEndian.AppendUint64(buf, uint64(h.Hi))
	}
	// Intervals and nested values: their text, which fmt writes with map
	// keys sorted.
	s := fmt.Sprint(c.Get(i))
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(s)))
	return append(buf, s...)
}

// canonicalFloatBits are a float's bits with -0 made 0 and every NaN the
// one quiet NaN.
func canonicalFloatBits(f float64) uint64 {
	switch {
	case f == 0:
		return 0
	case math.IsNaN(f):
		return 0x7FF8000000000000
	}
	return math.Float64bits(f)
}

// vectorTypeBatch is vector_type(x): how carquet holds the column, as
// DuckDB names its vector kinds. carquet's columns are flat (one value
// per row, constants too), or dictionary-coded where a scan gives a
// grouping key its codes.
func vectorTypeBatch(a []*vec.Col, n int) (*vec.Col, error) {
	kind := "FLAT_VECTOR"
	if a[0].Dict != nil {
		kind = "DICTIONARY_VECTOR"
	}
	b := vec.NewBuilder(tString, n)
	for range n {
		b.Add(kind)
	}
	return b.C, nil
}

// create_sort_key(v1, 'modifier1', v2, 'modifier2', ...) is a BLOB whose
// byte order (memcmp) is the order ORDER BY v1 modifier1, v2 modifier2
// gives, each modifier ASC or DESC and NULLS FIRST or NULLS LAST (the
// latter required, as in DuckDB). Each key is a NULL byte and, for a
// value, its order-preserving bytes (inverted for DESC):
//   - integers, dates, times, timestamps: big-endian with the sign bit
//     flipped (unsigned ones as they are);
//   - floats: the bits, all inverted for negatives and the sign flipped
//     for the rest, NaN after +Inf and -0 equal to 0, as ORDER BY has them;
//   - strings and blobs: their bytes with 0x00 written 0x00 0xFF, then
//     0x00 0x00, so that a prefix sorts first whatever follows;
//   - booleans: a byte; wide decimals and HUGEINTs: 128-bit big-endian,
//     sign flipped (UHUGEINTs as they are).
//
// Intervals and nested values are an error.

// sortKeyNull are a key's first byte: a NULL's before or after a value's.
const (
	sortNullFirst = 0x00
	sortValue     = 0x01
	sortNullLast  = 0x02
)

func sortKeyRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if len(args)%2 != 0 {
		return nil, vec.Type{}, fmt.Errorf("create_sort_key takes pairs of a value and a modifier ('ASC NULLS LAST' and the like)")
	}
	casts := make([]vec.Type, len(args))
	for k := 0; k < len(args); k += 2 {
		casts[k] = args[k]
		if !sortKeyable(args[k]) {
			return nil, vec.Type{}, fmt.Errorf("create_sort_key does not support %s values", args[k].SQLName())
		}
		casts[k+1] = tString
	}
	return casts, vec.Type{Kind: vec.KBytes}, nil
}

// sortKeyable reports whether create_sort_key encodes values of type t.
func sortKeyable(t vec.Type) bool {
	if t.Kind == vec.KInterval || t.Kind == vec.KNested || t.Kind == vec.KTimeTZ {
		return false
	}
	return vec.Storage(t) != vec.StAny || t.Kind == vec.KNull
}

// sortModifier is a parsed modifier: descending, and NULLs first.
type sortModifier struct{ desc, nullsFirst bool }

// parseSortModifier reads 'ASC|DESC NULLS FIRST|LAST' (ASC when neither).
func parseSortModifier(s string) (sortModifier, error) {
	words := strings.Fields(strings.ToUpper(s))
	var m sortModifier
	if len(words) >= 1 && (words[0] == "ASC" || words[0] == "DESC") {
		m.desc = words[0] == "DESC"
		words = words[1:]
	}
	if len(words) != 2 || words[0] != "NULLS" || words[1] != "FIRST" && words[1] != "LAST" {
		return m, fmt.Errorf("create_sort_key modifier must end with either NULLS FIRST or NULLS LAST, not %q", s)
	}
	m.nullsFirst = words[1] == "FIRST"
	return m, nil
}

func sortKeyBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: vec.Type{Kind: vec.KBytes}, Len: n, Off: make([]int32, n+1)}
	mods := make([]sortModifier, len(a)/2)
	last := make([]string, len(a)/2)
	for i := range n {
		for k := 0; k < len(a); k += 2 {
			if a[k+1].IsNull(i) {
				return nil, fmt.Errorf("create_sort_key modifier cannot be NULL")
			}
			// Parsed once per distinct text: a constant in practice.
			if text := string(a[k+1].Str(i)); i == 0 || text != last[k/2] {
				m, err := parseSortModifier(text)
				if err != nil {
					return nil, err
				}
				mods[k/2], last[k/2] = m, text
			}
			out.Data = appendSortKey(out.Data, a[k], i, mods[k/2])
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}

// appendSortKey appends row i of c's key.
func appendSortKey(buf []byte, c *vec.Col, i int, m sortModifier) []byte {
	if c.IsNull(i) || c.T.Kind == vec.KNull {
		if m.nullsFirst {
			return append(buf, sortNullFirst)
		}
		return append(buf, sortNullLast)
	}
	buf = append(buf, sortValue)
	start := len(buf)
	switch vec.Storage(c.T) {
	case vec.StInt:
		u := uint64(c.I[i])
		if c.T.Kind != vec.KUint {
			u ^= 1 << 63
		}
		buf = binary.BigEndian.AppendUint64(buf, u)
	case vec.StFloat:
		buf = binary.BigEndian.AppendUint64(buf, floatSortBits(c.F[i]))
	case vec.StBool:
		b := byte(0)
		if c.B[i] {
			b = 1
		}
		buf = append(buf, b)
	case vec.StBytes:
		for _, b := range c.Str(i) {
			buf = append(buf, b)
			if b == 0 {
				buf = append(buf, 0xFF)
			}
		}
		buf = append(buf, 0, 0)
	case vec.StHuge:
		h := c.H[i]
		hi := uint64(h.Hi)
		if c.T.Kind != vec.KUHuge {
			hi ^= 1 << 63
		}
		buf = binary.BigEndian.AppendUint64(buf, hi)
		buf = binary.BigEndian.AppendUint64(buf, h.Lo)
	}
	if m.desc {
		for j := start; j < len(buf); j++ {
			buf[j] = ^buf[j]
		}
	}
	return buf
}

// floatSortBits are bits of f whose unsigned order is ORDER BY's: -Inf
// first, -0 as 0, NaN last.
func floatSortBits(f float64) uint64 {
	b := canonicalFloatBits(f)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

package function

import (
	"bytes"
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB's BIT (BITSTRING) functions and operators. A BIT value is the
// text of its bits, one '0' or '1' byte each (see Type.Bit). bindFunc
// takes NAME$bit for NAME when the first argument is a BIT, so that the
// integer operators (& | xor ~ << >>) and bit_count, bit_length and
// octet_length have their BIT meaning there.

func init() { register(bitFuncs) }

// tInteger is INTEGER, what get_bit and bit_position return.
var tInteger = vec.Type{Kind: vec.KInt, Bits: 32}

var bitFuncs = map[string]*Scalar{
	"bit_count$bit": {Min: 1, Max: 1, Rule: Sig(tInt, TBit), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(bytes.Count(a[0].Str(i), []byte{'1'})), nil
	}},
	"bit_length$bit": {Min: 1, Max: 1, Rule: Sig(tInt, TBit), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(len(a[0].Str(i))), nil
	}},
	"octet_length$bit": {Min: 1, Max: 1, Rule: Sig(tInt, TBit), Row: func(a []*vec.Col, i int) (any, error) {
		return int64((len(a[0].Str(i)) + 7) / 8), nil
	}},
	"bit_and_op$bit": {Min: 2, Max: 2, Rule: Sig(TBit, TBit), Row: bitwiseFn("AND")},
	"bit_or_op$bit":  {Min: 2, Max: 2, Rule: Sig(TBit, TBit), Row: bitwiseFn("OR")},
	"xor$bit":        {Min: 2, Max: 2, Rule: Sig(TBit, TBit), Row: bitwiseFn("XOR")},
	"bit_not$bit": {Min: 1, Max: 1, Rule: Sig(TBit, TBit), Row: func(a []*vec.Col, i int) (any, error) {
		s := a[0].Str(i)
		out := make([]byte, len(s))
		for j, c := range s {
			out[j] = c ^ 1 // '0' <-> '1'
		}
		return string(out), nil
	}},
	"shift_left$bit":  {Min: 2, Max: 2, Rule: Sig(TBit, TBit, tInt), Row: bitShiftFn(true)},
	"shift_right$bit": {Min: 2, Max: 2, Rule: Sig(TBit, TBit, tInt), Row: bitShiftFn(false)},
	"get_bit": {Min: 2, Max: 2, Rule: Sig(tInteger, TBit, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		s := a[0].Str(i)
		k, err := bitIndex(s, a[1].I[i])
		if err != nil {
			return nil, err
		}
		return int64(s[k] - '0'), nil
	}},
	"set_bit": {Min: 3, Max: 3, Rule: Sig(TBit, TBit, tInt, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		s := a[0].Str(i)
		k, err := bitIndex(s, a[1].I[i])
		if err != nil {
			return nil, err
		}
		v := a[2].I[i]
		if v != 0 && v != 1 {
			return nil, fmt.Errorf("The new bit must be 1 or 0") // DuckDB's words
		}
		out := []byte(string(s))
		out[k] = '0' + byte(v)
		return string(out), nil
	}},
	// bitstring(text, n): the bits of text, with 0s before it to n bits.
	"bitstring": {Min: 2, Max: 2, Rule: Sig(TBit, tString, tInt), Row: func(a []*vec.Col, i int) (any, error) {
		s, n := a[0].Str(i), a[1].I[i]
		if err := checkBits(s); err != nil {
			return nil, err
		}
		if n < int64(len(s)) {
			return nil, fmt.Errorf("Length must be equal or larger than input string")
		}
		if n > maxBitLength {
			return nil, fmt.Errorf("bitstring length %d is over the limit of %d", n, maxBitLength)
		}
		out := bytes.Repeat([]byte{'0'}, int(n))
		copy(out[int(n)-len(s):], s)
		return string(out), nil
	}},
	// bit_position(sub, bits): where sub first starts in bits, from 1; 0
	// when it does not.
	"bit_position": {Min: 2, Max: 2, Rule: Sig(tInteger, TBit), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(bytes.Index(a[1].Str(i), a[0].Str(i)) + 1), nil
	}},
}

// maxBitLength bounds the BIT that bitstring makes, so that a length
// from the query allocates no more than this.
const maxBitLength = 1 << 30

// bitOps combine two bits (0 or 1), by DuckDB's names of the BIT
// operators and of the bit_and, bit_or and bit_xor aggregates.
var bitOps = map[string]func(x, y byte) byte{
	"AND": func(x, y byte) byte { return x & y },
	"OR":  func(x, y byte) byte { return x | y },
	"XOR": func(x, y byte) byte { return x ^ y },
}

// CombineBits sets dst to dst op src, bit by bit, for two BITs of one
// length (DuckDB refuses other lengths, naming the operator).
func CombineBits(name string, dst, src []byte) error {
	if len(dst) != len(src) {
		return fmt.Errorf("Cannot %s bit strings of different sizes", name)
	}
	op := bitOps[name]
	for j := range dst {
		dst[j] = '0' + op(dst[j]-'0', src[j]-'0')
	}
	return nil
}

// bitwiseFn is the BIT operator of bitOps[name].
func bitwiseFn(name string) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		out := []byte(string(a[0].Str(i)))
		if err := CombineBits(name, out, a[1].Str(i)); err != nil {
			return nil, err
		}
		return string(out), nil
	}
}

// BitsCol makes a column of t (a BIT type) of the groups' bits, NULL
// where a group had none (a nil slice).
func BitsCol(t vec.Type, v [][]byte) *vec.Col {
	b := vec.NewBuilder(t, len(v))
	for _, x := range v {
		if x == nil {
			b.Add(nil) // an untyped nil: a nil []byte would be a value
		} else {
			b.Add(x)
		}
	}
	return b.C
}

// bitShiftFn is << or >> on a BIT: its bits move n places within its
// length, 0s coming in. As DuckDB's, a negative left shift is an error
// and a negative right shift clears every bit.
func bitShiftFn(left bool) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		s, n := a[0].Str(i), a[1].I[i]
		if left && n < 0 {
			return nil, fmt.Errorf("Cannot left-shift by negative number %d", n)
		}
		out := bytes.Repeat([]byte{'0'}, len(s))
		if n >= 0 && n < int64(len(s)) {
			if left {
				copy(out, s[n:])
			} else {
				copy(out[n:], s)
			}
		}
		return string(out), nil
	}
}

// bitIndex checks k as the index of a bit of s (from 0), as DuckDB's
// get_bit and set_bit.
func bitIndex(s []byte, k int64) (int, error) {
	if k < 0 || k >= int64(len(s)) {
		return 0, fmt.Errorf("bit index %d out of valid range (0..%d)", k, len(s)-1)
	}
	return int(k), nil
}

// castBitBlob casts between BIT and BLOB as DuckDB does: a BLOB's bytes
// become 8 bits each, first byte and highest bit first (an empty BLOB
// has no BIT); a BIT becomes the bytes of its bits zero-padded on the
// left to whole bytes ('101' is \x05). An empty BLOB is an error even
// under TRY_CAST, as in DuckDB, whose TRY_CAST raises it too.
func castBitBlob(c *vec.Col, to vec.Type) (*vec.Col, error) {
	n := c.Len
	bld := vec.NewBuilder(to, n)
	var buf []byte
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			bld.Add(nil)
			continue
		}
		s := c.Str(i)
		if to.Bit {
			if len(s) == 0 {
				return nil, errorf("Cannot cast empty BLOB to BIT")
			}
			buf = blobBits(buf[:0], s)
		} else {
			buf = bitsBlob(buf[:0], s)
		}
		bld.Add(buf)
	}
	return bld.C, nil
}

// blobBits appends to dst the bits of the bytes b, as '0' and '1'.
func blobBits(dst, b []byte) []byte {
	for _, x := range b {
		for k := 7; k >= 0; k-- {
			dst = append(dst, '0'+x>>k&1)
		}
	}
	return dst
}

// bitsBlob appends to dst the bytes of the bits s ('0' and '1'), which
// the first byte's high zero bits pad to whole bytes.
func bitsBlob(dst, s []byte) []byte {
	var x byte
	pad := (8 - len(s)%8) % 8
	for k, bit := range s {
		x = x<<1 | bit&1
		if (pad+k+1)%8 == 0 {
			dst = append(dst, x)
			x = 0
		}
	}
	return dst
}

// bitBlobValue is castBitBlob of one value (a string or []byte) of a
// constant.
func bitBlobValue(v any, to vec.Type) (any, error) {
	var b []byte
	switch x := v.(type) {
	case string:
		b = []byte(x)
	case []byte:
		b = x
	default:
		return nil, errorf("cannot cast %T to %s", v, to.SQLName())
	}
	if !to.Bit {
		return bitsBlob(nil, b), nil
	}
	if len(b) == 0 {
		return nil, errorf("Cannot cast empty BLOB to BIT")
	}
	return string(blobBits(nil, b)), nil
}

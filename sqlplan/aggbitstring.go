package sqlplan

import (
	"bytes"
	"github.com/carquet-go/carquet/sqlplan/function"
)

// bitstring_agg(x, min, max) (DuckDB's): a BIT of max - min + 1 bits, bit
// i set when some value of x is min + i; NULL for a group without
// values. DuckDB's bitstring_agg(x) takes min and max from the column's
// statistics; carquet asks for them.

// maxBitstringAggBits bounds the range of bitstring_agg, whose BIT each
// group holds (a byte a bit).
const maxBitstringAggBits = 1 << 24

// bitRange is bitstring_agg's min and max.
type bitRange struct{ lo, hi int64 }

// bindBitstringAggArgs takes bitstring_agg's min and max off the bound
// arguments: integer constants, min <= max.
func (p *planner) bindBitstringAggArgs(spec *aggSpec, bound []expr) ([]expr, error) {
	if len(bound) == 1 {
		return nil, unsupported("bitstring_agg(x) without min and max (DuckDB takes them from column statistics; give them: bitstring_agg(x, min, max))")
	}
	if len(bound) != 3 {
		return nil, errorf("bitstring_agg takes a value, then its min and max")
	}
	if t := bound[0].Type(); t.Op() != KInt && t.Kind != KUint && t.Kind != KNull {
		return nil, errorf("bitstring_agg(%s, ...) is not defined: the value is an integer", t.SQLName())
	}
	var r [2]int64
	for k, b := range bound[1:] {
		c, ok := isConst(b)
		if !ok || c.t.Op() != KInt && c.t.Kind != KUint {
			return nil, errorf("bitstring_agg's min and max are integer constants")
		}
		n, isInt := c.v.(int64)
		if !isInt {
			return nil, errorf("bitstring_agg's min and max are integers that are not NULL")
		}
		r[k] = n
	}
	if r[0] > r[1] {
		return nil, errorf("Invalid explicit bitstring range: Minimum (%d) > maximum (%d)", r[0], r[1])
	}
	if uint64(r[1]-r[0]) >= maxBitstringAggBits {
		return nil, errorf("bitstring_agg range %d to %d is over the limit of %d bits", r[0], r[1], maxBitstringAggBits)
	}
	spec.bitRange = &bitRange{lo: r[0], hi: r[1]}
	return bound[:1], nil
}

// bitstringAggAcc is bitstring_agg's accumulator: each group's bits as
// '0' and '1' bytes (Type.Bit), made at its first value.
type bitstringAggAcc struct {
	r   bitRange
	v   [][]byte
	err error
}

func (a *bitstringAggAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	for i, g := range gids {
		if c.IsNull(i) || a.err != nil {
			continue
		}
		x := c.I[i]
		// An unsigned value above MaxInt64 reads negative: out of range
		// unless the range is too, which UBIGINT's never is.
		if x < a.r.lo || x > a.r.hi || c.T.Kind == KUint && x < 0 {
			a.err = errorf("Value %s is outside of provided min and max range (%d <-> %d)", formatScalar(c.T, c.Get(i)), a.r.lo, a.r.hi)
			return
		}
		if a.v[g] == nil {
			a.v[g] = bytes.Repeat([]byte{'0'}, int(a.r.hi-a.r.lo+1))
		}
		a.v[g][x-a.r.lo] = '1'
	}
}

func (a *bitstringAggAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	return function.BitsCol(tBit, a.v[:ng])
}

// bitStringAcc is bit_and, bit_or or bit_xor of BITs: per group, the bits
// so far (nil before the first value).
type bitStringAcc struct {
	op  string // AND, OR or XOR
	t   Type
	v   [][]byte
	err error
}

func (a *bitStringAcc) update(gids []int32, ng int, c *Col) {
	a.v = growTo(a.v, ng)
	for i, g := range gids {
		if c.IsNull(i) || a.err != nil {
			continue
		}
		s := c.Str(i)
		if a.v[g] == nil {
			a.v[g] = append([]byte{}, s...)
			continue
		}
		a.err = function.CombineBits(a.op, a.v[g], s)
	}
}

func (a *bitStringAcc) result(ng int) *Col {
	a.v = growTo(a.v, ng)
	return function.BitsCol(a.t, a.v[:ng])
}

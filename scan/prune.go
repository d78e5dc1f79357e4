package scan

import (
	"bytes"
	"encoding/binary"
	"math"

	"github.com/carquet-go/carquet/parquet/format"
)

// normalize pushes NOT down to the leaves (De Morgan; NOT a < c is a >= c
// under three-valued logic, since NULL stays NULL either way), so that
// pruning sees plain comparisons.
func normalize(p Predicate) Predicate {
	switch x := p.(type) {
	case And:
		out := And{Terms: make([]Predicate, len(x.Terms))}
		for i, t := range x.Terms {
			out.Terms[i] = normalize(t)
		}
		return out
	case Or:
		out := Or{Terms: make([]Predicate, len(x.Terms))}
		for i, t := range x.Terms {
			out.Terms[i] = normalize(t)
		}
		return out
	case Not:
		switch y := x.Term.(type) {
		case Not:
			return normalize(y.Term)
		case And:
			out := Or{Terms: make([]Predicate, len(y.Terms))}
			for i, t := range y.Terms {
				out.Terms[i] = normalize(Not{t})
			}
			return out
		case Or:
			out := And{Terms: make([]Predicate, len(y.Terms))}
			for i, t := range y.Terms {
				out.Terms[i] = normalize(Not{t})
			}
			return out
		case Compare:
			return Compare{Column: y.Column, Op: y.Op.Negate(), Value: y.Value}
		case In:
			return In{Column: y.Column, Values: y.Values, Not: !y.Not, Ints: y.Ints}
		case IsNull:
			return IsNull{Column: y.Column, Not: !y.Not}
		}
		return x
	}
	return p
}

// colStats is what a column chunk's (or page's) statistics say, decoded
// into the column's comparison domain.
type colStats struct {
	hasMinMax bool
	min, max  bound
	// maybeNaN: a float column that may hold NaN, which sorts above max.
	maybeNaN bool
	// nulls is the null count (-1 when unknown); values the number of
	// values including nulls (-1 when unknown).
	nulls, values int64
}

// decodeStat decodes a PLAIN-encoded statistics value into the domain.
func decodeStat(ci colInfo, b []byte) (bound, bool) {
	switch ci.physical {
	case format.Boolean:
		if len(b) < 1 {
			return bound{}, false
		}
		return bound{i: int64(b[0] & 1)}, true
	case format.Int32:
		if len(b) != 4 {
			return bound{}, false
		}
		v := binary.LittleEndian.Uint32(b)
		if ci.dom == domUint {
			return bound{u: uint64(v)}, true
		}
		return bound{i: int64(int32(v))}, true
	case format.Int64:
		if len(b) != 8 {
			return bound{}, false
		}
		v := binary.LittleEndian.Uint64(b)
		if ci.dom == domUint {
			return bound{u: v}, true
		}
		return bound{i: int64(v)}, true
	case format.Float:
		if len(b) != 4 {
			return bound{}, false
		}
		return bound{f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}, true
	case format.Double:
		if len(b) != 8 {
			return bound{}, false
		}
		return bound{f: math.Float64frombits(binary.LittleEndian.Uint64(b))}, true
	case format.ByteArray, format.FixedLenByteArray:
		return bound{b: b}, true
	}
	return bound{}, false
}

// chunkStats reads a column chunk's statistics. Legacy min/max are used
// only where their signed order is the column's order.
func chunkStats(ci colInfo, st *format.Statistics, numValues int64) colStats {
	cs := colStats{nulls: -1, values: numValues}
	if st == nil || ci.dom == domNone {
		cs.maybeNaN = ci.dom == domFloat
		if st != nil && st.NullCount.Set {
			cs.nulls = st.NullCount.Value
		}
		return cs
	}
	if st.NullCount.Set {
		cs.nulls = st.NullCount.Value
	}
	minB, maxB := st.MinValue, st.MaxValue
	if minB == nil || maxB == nil {
		if ci.dom == domInt || ci.dom == domFloat || ci.dom == domBool {
			minB, maxB = st.Min, st.Max
		} else {
			minB, maxB = nil, nil
		}
	}
	if minB != nil && maxB != nil {
		mn, ok1 := decodeStat(ci, minB)
		mx, ok2 := decodeStat(ci, maxB)
		if ok1 && ok2 && !(ci.dom == domFloat && (math.IsNaN(mn.f) || math.IsNaN(mx.f))) {
			cs.hasMinMax, cs.min, cs.max = true, mn, mx
		}
	}
	if ci.dom == domFloat {
		cs.maybeNaN = !(st.NanCount.Set && st.NanCount.Value == 0)
	}
	return cs
}

// cmpBound orders two bounds of the same domain.
func cmpBound(dom domain, a, b *bound) int {
	switch dom {
	case domInt, domBool:
		return b.cmpInt(a.i) // a vs constant b
	case domUint:
		return b.cmpUint(a.u)
	case domFloat:
		return b.cmpFloat(a.f)
	case domBytes:
		return bytes.Compare(a.b, b.b)
	}
	return 0
}

// mayMatch reports whether any row summarised by cs can make the leaf
// predicate p (bound to bounds) true. It must never say no wrongly.
func mayMatch(ci colInfo, p Predicate, bounds []bound, cs colStats) bool {
	allNull := cs.nulls >= 0 && cs.values >= 0 && cs.nulls == cs.values
	switch x := p.(type) {
	case IsNull:
		if !x.Not {
			return cs.nulls != 0
		}
		return !allNull
	}
	if allNull {
		return false // a comparison with NULL is never true
	}
	if !cs.hasMinMax {
		return true
	}
	// c(v) orders the chunk's min or max against a constant.
	lo := func(b *bound) int { return cmpBound(ci.dom, &cs.min, b) } // min vs c
	hi := func(b *bound) int {
		if cs.maybeNaN {
			return 1 // NaN sorts above every constant but NaN
		}
		return cmpBound(ci.dom, &cs.max, b)
	}
	inRange := func(b *bound) bool { return lo(b) <= 0 && hi(b) >= 0 }
	switch x := p.(type) {
	case Compare:
		b := &bounds[0]
		switch x.Op {
		case Eq:
			return inRange(b)
		case Ne:
			return !(lo(b) == 0 && hi(b) == 0 && !cs.maybeNaN)
		case Lt:
			return lo(b) < 0
		case Le:
			return lo(b) <= 0
		case Gt:
			return hi(b) > 0
		case Ge:
			return hi(b) >= 0
		}
	case In:
		if x.Ints != nil && ci.dom == domInt {
			if x.Not {
				return true
			}
			return x.Ints.AnyIn(cs.min.i, cs.max.i)
		}
		if x.Not {
			for i := range bounds {
				if lo(&bounds[i]) == 0 && hi(&bounds[i]) == 0 && !cs.maybeNaN {
					return false
				}
			}
			return true
		}
		for i := range bounds {
			if inRange(&bounds[i]) {
				return true
			}
		}
		return false
	case Prefix:
		if ci.dom != domBytes {
			return true
		}
		pre := []byte(x.Prefix)
		// Some value in [min, max] starts with pre unless max < pre or
		// min's prefix of that length is above pre.
		if bytes.Compare(cs.max.b, pre) < 0 {
			return false
		}
		m := cs.min.b
		if len(m) > len(pre) {
			m = m[:len(pre)]
		}
		return bytes.Compare(m, pre) <= 0
	}
	return true
}

// Package num holds the engine's exact arithmetic below the operators:
// 128-bit two's complement integers, the unscaled values of DECIMAL(p, s)
// with 18 < p <= 38, with overflow reported, never wrapped. Values are
// plain structs (no allocation), so that columns of them are slices and
// their loops allocate nothing.
package num

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// Int128 is a two's complement 128-bit integer: Hi is the upper 64 bits
// (with the sign), Lo the lower.
type Int128 struct {
	Hi int64
	Lo uint64
}

// FromInt64 widens x.
func FromInt64(x int64) Int128 { return Int128{Hi: x >> 63, Lo: uint64(x)} }

// FromUint64 widens x.
func FromUint64(x uint64) Int128 { return Int128{Lo: x} }

// Sign is -1, 0 or +1.
func (a Int128) Sign() int {
	switch {
	case a.Hi < 0:
		return -1
	case a.Hi == 0 && a.Lo == 0:
		return 0
	}
	return 1
}

// IsInt64 reports whether a fits an int64.
func (a Int128) IsInt64() bool { return a.Hi == int64(a.Lo)>>63 }

// Int64 is the low 64 bits of a as an int64 (a itself when IsInt64).
func (a Int128) Int64() int64 { return int64(a.Lo) }

// Add returns a+b; ok is false on overflow.
func (a Int128) Add(b Int128) (Int128, bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi := a.Hi + b.Hi + int64(c)
	// Overflow when both operands have the same sign and the result's
	// sign differs.
	ok := !((a.Hi >= 0) == (b.Hi >= 0) && (hi >= 0) != (a.Hi >= 0))
	return Int128{Hi: hi, Lo: lo}, ok
}

// AddInt64 returns a+v without an overflow check, for sums of int64s
// (which need more than 2^64 additions to leave 128 bits).
func (a Int128) AddInt64(v int64) Int128 {
	lo, c := bits.Add64(a.Lo, uint64(v), 0)
	return Int128{Hi: a.Hi + v>>63 + int64(c), Lo: lo}
}

// Sub returns a-b; ok is false on overflow.
func (a Int128) Sub(b Int128) (Int128, bool) {
	lo, br := bits.Sub64(a.Lo, b.Lo, 0)
	hi := a.Hi - b.Hi - int64(br)
	ok := !((a.Hi >= 0) != (b.Hi >= 0) && (hi >= 0) != (a.Hi >= 0))
	return Int128{Hi: hi, Lo: lo}, ok
}

// Neg returns -a (the minimum value stays itself, as in two's complement;
// it is outside every DECIMAL's range).
func (a Int128) Neg() Int128 {
	lo, br := bits.Sub64(0, a.Lo, 0)
	return Int128{Hi: -a.Hi - int64(br), Lo: lo}
}

// Negate returns -a; ok is false for the minimum value, whose negation
// does not fit.
func (a Int128) Negate() (Int128, bool) {
	n := a.Neg()
	return n, a.Sign() >= 0 || n.Sign() > 0
}

// abs returns |a| as an unsigned 128-bit value (hi, lo).
func (a Int128) abs() (uint64, uint64) {
	if a.Hi < 0 {
		n := a.Neg()
		return uint64(n.Hi), n.Lo
	}
	return uint64(a.Hi), a.Lo
}

// fromAbs is ±(hi, lo); ok is false when it does not fit.
func fromAbs(neg bool, hi, lo uint64) (Int128, bool) {
	if hi > math.MaxInt64 {
		if neg && hi == 1<<63 && lo == 0 {
			return Int128{Hi: math.MinInt64}, true
		}
		return Int128{}, false
	}
	r := Int128{Hi: int64(hi), Lo: lo}
	if neg {
		r = r.Neg()
	}
	return r, true
}

// Mul64 returns the exact product of two int64s.
func Mul64(a, b int64) Int128 {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	r, _ := fromAbs(neg, hi, lo) // |a*b| <= 2^126: always fits
	return r
}

// Mul returns a*b; ok is false on overflow.
func (a Int128) Mul(b Int128) (Int128, bool) {
	if a.IsInt64() && b.IsInt64() {
		return Mul64(a.Int64(), b.Int64()), true
	}
	neg := (a.Hi < 0) != (b.Hi < 0)
	ah, al := a.abs()
	bh, bl := b.abs()
	if ah != 0 && bh != 0 {
		return Int128{}, false
	}
	// (ah·2^64 + al)(bh·2^64 + bl) with one of ah, bh zero.
	hi, lo := bits.Mul64(al, bl)
	c1h, c1 := bits.Mul64(ah, bl)
	c2h, c2 := bits.Mul64(al, bh)
	if c1h != 0 || c2h != 0 {
		return Int128{}, false
	}
	hi, carry := bits.Add64(hi, c1, 0)
	if carry != 0 {
		return Int128{}, false
	}
	hi, carry = bits.Add64(hi, c2, 0)
	if carry != 0 {
		return Int128{}, false
	}
	return fromAbs(neg, hi, lo)
}

// Cmp is -1, 0 or +1 as a <, ==, > b.
func (a Int128) Cmp(b Int128) int {
	switch {
	case a.Hi < b.Hi:
		return -1
	case a.Hi > b.Hi:
		return 1
	case a.Lo < b.Lo:
		return -1
	case a.Lo > b.Lo:
		return 1
	}
	return 0
}

// pow10 are the powers of ten that fit: 10^0 .. 10^38.
var pow10 = func() [39]Int128 {
	var p [39]Int128
	p[0] = FromInt64(1)
	for i := 1; i < len(p); i++ {
		p[i], _ = p[i-1].Mul(FromInt64(10))
	}
	return p
}()

// Pow10 is 10^k for 0 <= k <= 38.
func Pow10(k int) Int128 { return pow10[k] }

// FitsDigits reports whether |a| < 10^digits (digits 1..38): whether a is
// the unscaled value of a DECIMAL of that precision.
func (a Int128) FitsDigits(digits int) bool {
	if digits >= 39 {
		return true
	}
	h, l := a.abs()
	p := pow10[digits]
	ph, pl := uint64(p.Hi), p.Lo
	return h < ph || (h == ph && l < pl)
}

// MulPow10 returns a·10^k (0 <= k <= 38); ok is false on overflow.
func (a Int128) MulPow10(k int) (Int128, bool) {
	if k == 0 {
		return a, true
	}
	return a.Mul(pow10[k])
}

// quoRem64 divides the unsigned (hi, lo) by d.
func quoRem64(hi, lo, d uint64) (qh, ql, r uint64) {
	qh, r = bits.Div64(0, hi, d)
	ql, r = bits.Div64(r, lo, d)
	return qh, ql, r
}

// DivPow10Round returns a/10^k rounded half away from zero (as DuckDB
// rounds a decimal to fewer digits), 0 <= k <= 38.
func (a Int128) DivPow10Round(k int) Int128 {
	if k == 0 {
		return a
	}
	neg := a.Hi < 0
	h, l := a.abs()
	// q = |a| / 10^k, r = |a| mod 10^k, by 10^k = 10^s1 · 10^s2 ...;
	// round up when 2r >= 10^k.
	var qh, ql = h, l
	var remH, remL uint64 // remainder so far, as a 128-bit value
	var scale = FromInt64(1)
	for rest := k; rest > 0; {
		s := min(rest, 19)
		d := uint64(pow10[s].Lo)
		var r uint64
		qh, ql, r = quoRem64(qh, ql, d)
		// remainder += r · scale
		add, _ := FromUint64(r).Mul(scale)
		sum, _ := Int128{Hi: int64(remH), Lo: remL}.Add(add)
		remH, remL = uint64(sum.Hi), sum.Lo
		scale, _ = scale.Mul(FromUint64(d))
		rest -= s
	}
	// Round up when rem >= 10^k / 2 = 5·10^(k-1).
	half, _ := pow10[k-1].Mul(FromInt64(5))
	if (Int128{Hi: int64(remH), Lo: remL}).Cmp(half) >= 0 {
		var c uint64
		ql, c = bits.Add64(ql, 1, 0)
		qh += c
	}
	r, _ := fromAbs(neg, qh, ql)
	return r
}

// QuoTrunc returns a/10^k truncated toward zero, 0 <= k <= 38.
func (a Int128) QuoTrunc(k int) Int128 {
	neg := a.Hi < 0
	qh, ql := a.abs()
	for rest := k; rest > 0; {
		s := min(rest, 19)
		qh, ql, _ = quoRem64(qh, ql, uint64(pow10[s].Lo))
		rest -= s
	}
	r, _ := fromAbs(neg, qh, ql)
	return r
}

// Big returns a as a big.Int.
func (a Int128) Big() *big.Int {
	if a.IsInt64() {
		return big.NewInt(a.Int64())
	}
	h, l := a.abs()
	b := new(big.Int).SetUint64(h)
	b.Lsh(b, 64)
	b.Or(b, new(big.Int).SetUint64(l))
	if a.Hi < 0 {
		b.Neg(b)
	}
	return b
}

// FromBig converts b; ok is false when it does not fit 128 bits.
func FromBig(b *big.Int) (Int128, bool) {
	if b.IsInt64() {
		return FromInt64(b.Int64()), true
	}
	if b.BitLen() > 128 {
		return Int128{}, false
	}
	abs := new(big.Int).Abs(b)
	lo := new(big.Int).And(abs, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(abs, 64).Uint64()
	return fromAbs(b.Sign() < 0, hi, lo)
}

// FromBigEndian reads a two's complement big-endian integer of up to 16
// bytes (a Parquet DECIMAL stored as bytes); ok is false for more bytes
// whose value does not fit.
func FromBigEndian(b []byte) (Int128, bool) {
	if len(b) == 0 {
		return Int128{}, true
	}
	// Drop sign-extension bytes beyond 16.
	for len(b) > 16 {
		if (b[0] == 0 && b[1]&0x80 == 0) || (b[0] == 0xff && b[1]&0x80 != 0) {
			b = b[1:]
			continue
		}
		return Int128{}, false
	}
	var hi, lo uint64
	if b[0]&0x80 != 0 {
		hi, lo = math.MaxUint64, math.MaxUint64
	}
	for _, x := range b {
		hi = hi<<8 | lo>>56
		lo = lo<<8 | uint64(x)
	}
	return Int128{Hi: int64(hi), Lo: lo}, true
}

// AppendBigEndian appends a as n bytes of big-endian two's complement
// (n <= 16, enough for the value).
func (a Int128) AppendBigEndian(dst []byte, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		var x byte
		switch {
		case i < 8:
			x = byte(a.Lo >> (8 * i))
		case i < 16:
			x = byte(uint64(a.Hi) >> (8 * (i - 8)))
		default:
			x = byte(a.Hi >> 63)
		}
		dst = append(dst, x)
	}
	return dst
}

// Float64 is the nearest float64 to a.
func (a Int128) Float64() float64 {
	if a.IsInt64() {
		return float64(a.Int64())
	}
	h, l := a.abs()
	f := float64(h)*(1<<64) + float64(l)
	if a.Hi < 0 {
		return -f
	}
	return f
}

// Float64Scaled is a·10^-scale as the nearest float64 (exact digits first,
// then one division, as DuckDB converts decimals).
func (a Int128) Float64Scaled(scale int) float64 {
	if a.IsInt64() && scale < 23 {
		return float64(a.Int64()) / math.Pow10(scale)
	}
	f, _ := new(big.Rat).SetFrac(a.Big(), pow10[scale].Big()).Float64()
	return f
}

// String is a in decimal.
func (a Int128) String() string { return string(a.AppendDecimal(nil, 0)) }

// AppendDecimal appends a·10^-scale in plain decimal text ("-12.3400").
func (a Int128) AppendDecimal(dst []byte, scale int) []byte {
	neg := a.Hi < 0
	h, l := a.abs()
	var digits [40]byte
	i := len(digits)
	for h != 0 || l != 0 {
		var r uint64
		h, l, r = quoRem64(h, l, 1e19)
		// r has up to 19 digits: write them all unless this is the top.
		var buf [20]byte
		s := strconv.AppendUint(buf[:0], r, 10)
		i -= len(s)
		copy(digits[i:], s)
		if h != 0 || l != 0 {
			for pad := 19 - len(s); pad > 0; pad-- {
				i--
				digits[i] = '0'
			}
		}
	}
	ds := digits[i:]
	if len(ds) == 0 {
		ds = []byte{'0'}
	}
	if neg {
		dst = append(dst, '-')
	}
	if scale <= 0 {
		return append(dst, ds...)
	}
	if len(ds) <= scale {
		dst = append(dst, '0', '.')
		for pad := scale - len(ds); pad > 0; pad-- {
			dst = append(dst, '0')
		}
		return append(dst, ds...)
	}
	dst = append(dst, ds[:len(ds)-scale]...)
	dst = append(dst, '.')
	return append(dst, ds[len(ds)-scale:]...)
}

// QuoRem returns a/b truncated toward zero and the remainder (with a's
// sign), as integer division and modulo do; ok is false when b is zero or
// the quotient overflows (the minimum value divided by -1).
func (a Int128) QuoRem(b Int128) (q, r Int128, ok bool) {
	if b.Sign() == 0 {
		return Int128{}, Int128{}, false
	}
	ah, al := a.abs()
	bh, bl := b.abs()
	qh, ql, rh, rl := quoRemU128(ah, al, bh, bl)
	q, ok = fromAbs((a.Hi < 0) != (b.Hi < 0), qh, ql)
	r, _ = fromAbs(a.Hi < 0, rh, rl) // |r| < |b|: always fits
	return q, r, ok
}

// quoRemU128 divides the unsigned 128-bit (nh, nl) by (dh, dl) != 0.
func quoRemU128(nh, nl, dh, dl uint64) (qh, ql, rh, rl uint64) {
	if dh == 0 {
		var r uint64
		qh, ql, r = quoRem64(nh, nl, dl)
		return qh, ql, 0, r
	}
	// The divisor is at least 2^64, so the quotient fits 64 bits. Estimate
	// it from the divisor's top 64 bits (normalised) and the dividend
	// halved (so that the 128/64 division cannot overflow); the estimate
	// is the quotient or one more, which one subtraction settles.
	s := uint(bits.LeadingZeros64(dh))
	top := dh<<s | dl>>(64-s) // Go: a shift by 64 gives 0, for s == 0
	est, _ := bits.Div64(nh>>1, nh<<63|nl>>1, top)
	est >>= 63 - s
	if est != 0 {
		est--
	}
	// r = n - est·d, then one correction step.
	ph, pl := bits.Mul64(est, dl)
	ph += est * dh
	var borrow uint64
	rl, borrow = bits.Sub64(nl, pl, 0)
	rh, _ = bits.Sub64(nh, ph, borrow)
	if rh > dh || rh == dh && rl >= dl {
		rl, borrow = bits.Sub64(rl, dl, 0)
		rh, _ = bits.Sub64(rh, dh, borrow)
		est++
	}
	return 0, est, rh, rl
}

// Bit is bit k (0 the lowest, up to 127) of a's two's complement form.
func (a Int128) Bit(k int) byte {
	if k < 64 {
		return byte(a.Lo >> k & 1)
	}
	return byte(uint64(a.Hi) >> (k - 64) & 1)
}

// Shl1 returns a shifted left by one bit with b (0 or 1) as the new
// lowest bit, wrapping: it builds a value from its bits, first bit first.
func (a Int128) Shl1(b byte) Int128 {
	return Int128{Hi: a.Hi<<1 | int64(a.Lo>>63), Lo: a.Lo<<1 | uint64(b&1)}
}

// Unsigned 128-bit arithmetic: the U functions read the bits of an
// Int128 as a value 0 <= x < 2^128 (UHUGEINT), and report overflow.

// UAdd returns a+b; ok is false on overflow.
func UAdd(a, b Int128) (Int128, bool) {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi, c := bits.Add64(uint64(a.Hi), uint64(b.Hi), c)
	return Int128{Hi: int64(hi), Lo: lo}, c == 0
}

// USub returns a-b; ok is false when b > a.
func USub(a, b Int128) (Int128, bool) {
	lo, br := bits.Sub64(a.Lo, b.Lo, 0)
	hi, br := bits.Sub64(uint64(a.Hi), uint64(b.Hi), br)
	return Int128{Hi: int64(hi), Lo: lo}, br == 0
}

// UMul returns a*b; ok is false on overflow.
func UMul(a, b Int128) (Int128, bool) {
	ah, bh := uint64(a.Hi), uint64(b.Hi)
	if ah != 0 && bh != 0 {
		return Int128{}, false
	}
	hi, lo := bits.Mul64(a.Lo, b.Lo)
	c1h, c1 := bits.Mul64(ah, b.Lo)
	c2h, c2 := bits.Mul64(a.Lo, bh)
	hi, k1 := bits.Add64(hi, c1, 0)
	hi, k2 := bits.Add64(hi, c2, 0)
	return Int128{Hi: int64(hi), Lo: lo}, c1h == 0 && c2h == 0 && k1 == 0 && k2 == 0
}

// UQuoRem returns a/b and a%b; ok is false when b is zero.
func UQuoRem(a, b Int128) (q, r Int128, ok bool) {
	if b.Hi == 0 && b.Lo == 0 {
		return Int128{}, Int128{}, false
	}
	qh, ql, rh, rl := quoRemU128(uint64(a.Hi), a.Lo, uint64(b.Hi), b.Lo)
	return Int128{Hi: int64(qh), Lo: ql}, Int128{Hi: int64(rh), Lo: rl}, true
}

// UBig returns the unsigned value of a's bits.
func UBig(a Int128) *big.Int {
	b := new(big.Int).SetUint64(uint64(a.Hi))
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(a.Lo))
}

// UFromBig converts 0 <= b < 2^128 to its bits; ok is false outside.
func UFromBig(b *big.Int) (Int128, bool) {
	if b.Sign() < 0 || b.BitLen() > 128 {
		return Int128{}, false
	}
	lo := new(big.Int).And(b, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := new(big.Int).Rsh(b, 64).Uint64()
	return Int128{Hi: int64(hi), Lo: lo}, true
}

// FlipSign toggles the top bit: it maps the unsigned values of bits onto
// Int128s in the same order (0 to the minimum), and back.
func (a Int128) FlipSign() Int128 { return Int128{Hi: a.Hi ^ math.MinInt64, Lo: a.Lo} }

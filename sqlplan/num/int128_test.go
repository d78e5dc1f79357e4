package num

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// Every operation is checked against math/big on random values of every
// magnitude, and at the edges.

var (
	min128 = new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 127))
	max128 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 127), big.NewInt(1))
)

func fits(b *big.Int) bool { return b.Cmp(min128) >= 0 && b.Cmp(max128) <= 0 }

func edges() []Int128 {
	out := []Int128{FromInt64(0), FromInt64(1), FromInt64(-1), FromInt64(math.MaxInt64), FromInt64(math.MinInt64),
		{Hi: math.MaxInt64, Lo: math.MaxUint64}, {Hi: math.MinInt64}, {Hi: 0, Lo: math.MaxUint64}, {Hi: -1, Lo: 0}}
	for k := 0; k <= 38; k++ {
		p := Pow10(k)
		m1, _ := p.Sub(FromInt64(1))
		out = append(out, p, p.Neg(), m1, m1.Neg())
	}
	return out
}

func values(n int) []Int128 {
	r := rand.New(rand.NewPCG(1, 2))
	out := edges()
	for range n {
		x := Int128{Hi: int64(r.Uint64()) >> uint(r.IntN(64)), Lo: r.Uint64()}
		if r.IntN(3) == 0 {
			x = FromInt64(int64(r.Uint64()) >> uint(r.IntN(64)))
		}
		if r.IntN(2) == 0 {
			x = x.Neg()
		}
		out = append(out, x)
	}
	return out
}

func TestArithmeticAgainstBig(t *testing.T) {
	vs := values(300)
	for _, a := range vs {
		ab := a.Big()
		if back, ok := FromBig(ab); !ok || back != a {
			t.Fatalf("FromBig(Big(%v)) = %v, %v", ab, back, ok)
		}
		if a.String() != ab.String() {
			t.Fatalf("String: %s, want %s", a.String(), ab.String())
		}
		for _, b := range vs {
			bb := b.Big()
			check := func(op string, got Int128, ok bool, want *big.Int) {
				t.Helper()
				if fits(want) != ok {
					t.Fatalf("%v %s %v: ok %v, want fits=%v (%v)", ab, op, bb, ok, fits(want), want)
				}
				if ok && got.Big().Cmp(want) != 0 {
					t.Fatalf("%v %s %v = %v, want %v", ab, op, bb, got.Big(), want)
				}
			}
			s, ok := a.Add(b)
			check("+", s, ok, new(big.Int).Add(ab, bb))
			d, ok := a.Sub(b)
			check("-", d, ok, new(big.Int).Sub(ab, bb))
			m, ok := a.Mul(b)
			want := new(big.Int).Mul(ab, bb)
			if !(a == (Int128{Hi: math.MinInt64}) || b == (Int128{Hi: math.MinInt64})) {
				check("*", m, ok, want)
			}
			if c := a.Cmp(b); c != ab.Cmp(bb) {
				t.Fatalf("Cmp(%v, %v) = %d", ab, bb, c)
			}
			if bb.Sign() != 0 {
				wq, wr := new(big.Int).QuoRem(ab, bb, new(big.Int))
				q, r, ok := a.QuoRem(b)
				check("/", q, ok, wq)
				if ok && r.Big().Cmp(wr) != 0 {
					t.Fatalf("%v %% %v = %v, want %v", ab, bb, r.Big(), wr)
				}
			} else if _, _, ok := a.QuoRem(b); ok {
				t.Fatalf("%v / 0: ok", ab)
			}
		}
	}
}

func TestPow10Rounding(t *testing.T) {
	for _, a := range values(500) {
		if a == (Int128{Hi: math.MinInt64}) {
			continue
		}
		ab := a.Big()
		for k := 0; k <= 38; k++ {
			p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil)
			// Truncation toward zero.
			q := new(big.Int).Quo(ab, p)
			if got := a.QuoTrunc(k).Big(); got.Cmp(q) != 0 {
				t.Fatalf("%v QuoTrunc %d = %v, want %v", ab, k, got, q)
			}
			// Half away from zero.
			r := new(big.Int).Rem(ab, p)
			r.Abs(r).Mul(r, big.NewInt(2))
			if r.Cmp(p) >= 0 {
				if ab.Sign() < 0 {
					q.Sub(q, big.NewInt(1))
				} else {
					q.Add(q, big.NewInt(1))
				}
			}
			if got := a.DivPow10Round(k).Big(); got.Cmp(q) != 0 {
				t.Fatalf("%v DivPow10Round %d = %v, want %v", ab, k, got, q)
			}
			fitsWant := new(big.Int).Abs(ab).Cmp(p) < 0
			if k >= 1 && a.FitsDigits(k) != fitsWant {
				t.Fatalf("%v FitsDigits(%d) = %v", ab, k, !fitsWant)
			}
			m, ok := a.MulPow10(k)
			mw := new(big.Int).Mul(ab, p)
			if ok != fits(mw) || (ok && m.Big().Cmp(mw) != 0) {
				t.Fatalf("%v MulPow10 %d = %v, %v; want %v", ab, k, m.Big(), ok, mw)
			}
		}
	}
}

func TestDecimalText(t *testing.T) {
	for _, c := range []struct {
		v     int64
		scale int
		want  string
	}{
		{0, 0, "0"}, {0, 2, "0.00"}, {5, 2, "0.05"}, {-5, 2, "-0.05"}, {12345, 2, "123.45"}, {-12345, 4, "-1.2345"}, {7, 0, "7"},
	} {
		if got := string(FromInt64(c.v).AppendDecimal(nil, c.scale)); got != c.want {
			t.Errorf("%d scale %d: %s, want %s", c.v, c.scale, got, c.want)
		}
	}
	big38 := Pow10(38)
	m, _ := big38.Sub(FromInt64(1))
	if got := string(m.AppendDecimal(nil, 10)); got != "9999999999999999999999999999.9999999999" {
		t.Errorf("38 nines: %s", got)
	}
}

func TestBigEndian(t *testing.T) {
	for _, a := range values(300) {
		for _, n := range []int{16, 17, 20} {
			b := a.AppendBigEndian(nil, n)
			got, ok := FromBigEndian(b)
			if !ok || got != a {
				t.Fatalf("%v through %d bytes: %v, %v", a.Big(), n, got.Big(), ok)
			}
		}
		if a.IsInt64() {
			b := a.AppendBigEndian(nil, 8)
			if got, ok := FromBigEndian(b); !ok || got != a {
				t.Fatalf("%v through 8 bytes: %v", a.Big(), got.Big())
			}
		}
	}
}

func TestFloat64(t *testing.T) {
	for _, a := range values(300) {
		want, _ := new(big.Float).SetInt(a.Big()).Float64()
		if got := a.Float64(); math.Abs(got-want) > math.Abs(want)*1e-15 {
			t.Fatalf("%v Float64 = %v, want %v", a.Big(), got, want)
		}
	}
	if got := FromInt64(12345).Float64Scaled(2); got != 123.45 {
		t.Errorf("Float64Scaled: %v", got)
	}
}

// The unsigned operations, on the bits of the same values, against big.
func TestUnsignedAgainstBig(t *testing.T) {
	max := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 128), big.NewInt(1))
	vs := values(200)
	for _, a := range vs {
		ab := UBig(a)
		if back, ok := UFromBig(ab); !ok || back != a {
			t.Fatalf("UFromBig(UBig(%v)) = %v, %v", ab, back, ok)
		}
		if a.FlipSign().FlipSign() != a {
			t.Fatalf("FlipSign(%v)", a)
		}
		for _, b := range vs {
			bb := UBig(b)
			check := func(op string, got Int128, ok bool, want *big.Int) {
				t.Helper()
				fits := want.Sign() >= 0 && want.Cmp(max) <= 0
				if fits != ok || ok && UBig(got).Cmp(want) != 0 {
					t.Fatalf("%v %s %v = %v, %v; want %v", ab, op, bb, UBig(got), ok, want)
				}
			}
			s, ok := UAdd(a, b)
			check("+", s, ok, new(big.Int).Add(ab, bb))
			d, ok := USub(a, b)
			check("-", d, ok, new(big.Int).Sub(ab, bb))
			m, ok := UMul(a, b)
			check("*", m, ok, new(big.Int).Mul(ab, bb))
			if (a.FlipSign().Cmp(b.FlipSign()) < 0) != (ab.Cmp(bb) < 0) {
				t.Fatalf("order of %v and %v", ab, bb)
			}
			if bb.Sign() != 0 {
				q, r, ok := UQuoRem(a, b)
				wq, wr := new(big.Int).QuoRem(ab, bb, new(big.Int))
				check("/", q, ok, wq)
				check("%", r, ok, wr)
			}
		}
	}
}

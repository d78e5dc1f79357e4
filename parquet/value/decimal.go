package value

import (
	"fmt"
	"math/big"
	"strings"
)

// Decimal is an exact decimal number: Unscaled × 10^-Scale.
type Decimal struct {
	Unscaled *big.Int
	Scale    int32
}

// DecimalFromInt64 returns unscaled × 10^-scale.
func DecimalFromInt64(unscaled int64, scale int32) Decimal {
	return Decimal{Unscaled: big.NewInt(unscaled), Scale: scale}
}

// ParseDecimal reads a decimal written as [-+]digits[.digits] (at least
// one digit), keeping every digit: "12.340" has scale 3.
func ParseDecimal(s string) (Decimal, error) {
	digits := strings.TrimLeft(s, "+-")
	if len(s)-len(digits) > 1 {
		return Decimal{}, fmt.Errorf("%q is not a decimal number", s)
	}
	whole, frac, dot := strings.Cut(digits, ".")
	if whole == "" && frac == "" || dot && len(frac) == 0 && whole == "" {
		return Decimal{}, fmt.Errorf("%q is not a decimal number", s)
	}
	for _, part := range []string{whole, frac} {
		for i := 0; i < len(part); i++ {
			if part[i] < '0' || part[i] > '9' {
				return Decimal{}, fmt.Errorf("%q is not a decimal number", s)
			}
		}
	}
	u, ok := new(big.Int).SetString(whole+frac, 10)
	if !ok {
		return Decimal{}, fmt.Errorf("%q is not a decimal number", s)
	}
	if strings.HasPrefix(s, "-") {
		u.Neg(u)
	}
	return Decimal{Unscaled: u, Scale: int32(len(frac))}, nil
}

// DecimalFromBigEndian reads a two's complement big-endian unscaled value,
// as FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY decimals store it.
func DecimalFromBigEndian(b []byte, scale int32) Decimal {
	u := new(big.Int).SetBytes(b)
	if len(b) > 0 && b[0]&0x80 != 0 {
		// Negative: subtract 2^(8·len).
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return Decimal{Unscaled: u, Scale: scale}
}

// String formats the decimal exactly, e.g. "-12.340" for scale 3.
func (d Decimal) String() string {
	if d.Unscaled == nil {
		return "0"
	}
	s := d.Unscaled.String()
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	if d.Scale > 0 {
		sc := int(d.Scale)
		if len(s) <= sc {
			s = strings.Repeat("0", sc-len(s)+1) + s
		}
		s = s[:len(s)-sc] + "." + s[len(s)-sc:]
	} else if d.Scale < 0 {
		s += strings.Repeat("0", int(-d.Scale))
	}
	if neg {
		s = "-" + s
	}
	return s
}

// Float64 is the nearest float64.
func (d Decimal) Float64() float64 {
	f, _ := d.rat().Float64()
	return f
}

// Cmp compares two decimals by value.
func (d Decimal) Cmp(e Decimal) int {
	a, b := d.rat(), e.rat()
	return a.Cmp(b)
}

func (d Decimal) rat() *big.Rat {
	u := d.Unscaled
	if u == nil {
		u = new(big.Int)
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(d.Scale))), nil)
	if d.Scale >= 0 {
		return new(big.Rat).SetFrac(u, p)
	}
	return new(big.Rat).SetInt(new(big.Int).Mul(u, p))
}

// MarshalText writes the exact decimal text.
func (d Decimal) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

func abs32(x int32) int32 {
	if x < 0 {
		return -x
	}
	return x
}

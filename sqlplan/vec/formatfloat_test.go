package vec

import (
	"math"
	"testing"
)

// TestFormatFloatLikeDuckDB checks DOUBLE and FLOAT text against what
// DuckDB 1.5 gives for the same casts to VARCHAR: fixed notation for
// decimal exponents -4 to 15, the shortest digits that read back.
func TestFormatFloatLikeDuckDB(t *testing.T) {
	for _, c := range []struct {
		f    float64
		bits int
		want string
	}{
		{2255340.7500000023, 64, "2255340.7500000023"},
		{-1246468.6282243181, 64, "-1246468.6282243181"},
		{123456789012345.6, 64, "123456789012345.6"},
		{1234567890123456.7, 64, "1234567890123456.8"},
		{12345678901234567, 64, "1.2345678901234568e+16"},
		{1e15, 64, "1000000000000000.0"},
		{1e16, 64, "1e+16"},
		{1.5e16, 64, "1.5e+16"},
		{1e21, 64, "1e+21"},
		{0.0001234, 64, "0.0001234"},
		{0.00001234, 64, "1.234e-05"},
		{1e-5, 64, "1e-05"},
		{1e-4, 64, "0.0001"},
		{3.5e-10, 64, "3.5e-10"},
		{123.456, 64, "123.456"},
		{1.2345e22, 64, "1.2345e+22"},
		{-5, 64, "-5.0"},
		{math.Copysign(0, -1), 64, "-0.0"},
		{1e10, 32, "10000000000.0"},
		{float64(float32(1.5e-5)), 32, "1.5e-05"},
		{float64(float32(123456.7)), 32, "123456.7"},
		{1e20, 32, "1e+20"},
		{math.NaN(), 64, "nan"},
		{math.Inf(-1), 64, "-inf"},
	} {
		if got := FormatFloatBits(c.f, c.bits); got != c.want {
			t.Errorf("FormatFloatBits(%v, %d) = %q, want %q", c.f, c.bits, got, c.want)
		}
	}
}

package function

import (
	"math"
	"math/big"
	"testing"
)

// TestFloatArith: each operator, with a constant (one-value) operand on
// either side, and IEEE division by zero.
func TestFloatArith(t *testing.T) {
	x, y, k := []float64{1, -2, 0, 7}, []float64{4, 0, 0, -2}, []float64{2}
	for _, c := range []struct {
		op   byte
		l, r []float64
		want []float64
	}{
		{'+', x, y, []float64{5, -2, 0, 5}},
		{'-', x, k, []float64{-1, -4, -2, 5}},
		{'*', k, y, []float64{8, 0, 0, -4}},
		{'/', x, y, []float64{0.25, math.Inf(-1), math.NaN(), -3.5}},
		{'/', k, x, []float64{2, -1, math.Inf(1), 2.0 / 7}},
	} {
		dst := make([]float64, 4)
		FloatArith(c.op, dst, c.l, c.r)
		for i, w := range c.want {
			if got := dst[i]; got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("%v %c %v: row %d = %v, want %v", c.l, c.op, c.r, i, got, w)
			}
		}
	}
}

// TestDecimalArith: scaled addition and subtraction (a constant on either
// side), and 18-digit products against big integers: exact when they
// fit, the first row that does not (a NULL row skipped) otherwise.
func TestDecimalArith(t *testing.T) {
	dst := make([]int64, 3)
	AddScaled(dst, []int64{150}, []int64{1, 2, 3}, 1, 100, true) // 1.50 - {1, 2, 3}
	if dst[0] != 50 || dst[1] != -50 || dst[2] != -150 {
		t.Errorf("AddScaled: %v", dst)
	}
	AddScaled(dst, []int64{1, 2, 3}, []int64{150}, 100, 1, false)
	if dst[0] != 250 || dst[1] != 350 || dst[2] != 450 {
		t.Errorf("AddScaled, constant right: %v", dst)
	}
	big18 := int64(999_999_999_999)
	x := []int64{3, -big18, 2_000_000_000, big18}
	y := []int64{-7, 1_000_000, 4_000_000_000, big18}
	for _, null := range [][]bool{nil, {false, false, false, true}} {
		dst = make([]int64, 4)
		bad, ok := MulDecimals18(dst, x, y, null)
		want := -1
		for i := range x {
			p := new(big.Int).Mul(big.NewInt(x[i]), big.NewInt(y[i]))
			if p.CmpAbs(big.NewInt(999_999_999_999_999_999)) > 0 {
				if want < 0 && (null == nil || !null[i]) {
					want = i
				}
				continue
			}
			if dst[i] != p.Int64() {
				t.Errorf("row %d: %d, want %v", i, dst[i], p)
			}
		}
		if ok != (want < 0) || ok == false && bad != want {
			t.Errorf("nulls %v: bad row %d %v, want %d", null, bad, ok, want)
		}
	}
	dst = make([]int64, 2)
	if bad, ok := MulDecimals18(dst, []int64{9, 2e9}, []int64{1e17}, nil); ok || bad != 1 || dst[0] != 9e17 {
		t.Errorf("constant factor: %v, bad row %d %v", dst, bad, ok)
	}
}

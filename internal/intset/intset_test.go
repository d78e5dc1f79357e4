package intset

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestSetAgreesWithMap(t *testing.T) {
	cases := map[string][]int64{
		"empty":    nil,
		"one":      {7},
		"dense":    {1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 1000},
		"dups":     {4, 4, 4, -4},
		"extremes": {math.MinInt64, math.MaxInt64, 0},
		"negative": {-100, -50, -1},
		"sparse":   {1, 1 << 40, 1 << 50, -(1 << 45)},
	}
	r := rand.New(rand.NewPCG(1, 2))
	var wide []int64
	for range 5000 {
		wide = append(wide, r.Int64N(1<<30))
	}
	cases["random-wide"] = wide
	for name, vals := range cases {
		s := New(vals)
		want := map[int64]bool{}
		for _, v := range vals {
			want[v] = true
		}
		if s.Len() != len(want) {
			t.Errorf("%s: Len = %d, want %d", name, s.Len(), len(want))
		}
		probes := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, 6, 7, 8, 1 << 40, (1 << 40) + 1}
		for _, v := range vals {
			probes = append(probes, v, v-1, v+1)
		}
		for range 1000 {
			probes = append(probes, r.Int64N(1<<31)-1<<30)
		}
		for _, p := range probes {
			if got := s.Has(p); got != want[p] {
				t.Errorf("%s: Has(%d) = %v, want %v", name, p, got, want[p])
			}
		}
	}
}

func TestSetChoosesBitmapForDenseKeys(t *testing.T) {
	vals := make([]int64, 2000)
	for i := range vals {
		vals[i] = int64(i * 97) // spread over 194,000 values
	}
	if s := New(vals); s.bits == nil {
		t.Fatal("a set of keys within 200,000 values should be a bitmap")
	}
	if s := New([]int64{0, 1 << 40}); s.bits != nil {
		t.Fatal("two values 2^40 apart should not take a bitmap")
	}
}

func TestAnyInAndValues(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 50 {
		var vals []int64
		for range r.IntN(40) {
			vals = append(vals, r.Int64N(3000)-1000)
		}
		if trial%5 == 0 {
			vals = append(vals, 1<<50) // a map-based set
		}
		s := New(vals)
		want := map[int64]bool{}
		for _, v := range vals {
			want[v] = true
		}
		got := s.Values()
		if len(got) != len(want) {
			t.Fatalf("Values: %d values, want %d", len(got), len(want))
		}
		for _, v := range got {
			if !want[v] {
				t.Fatalf("Values returned %d, not in the set", v)
			}
		}
		for range 200 {
			lo := r.Int64N(3200) - 1100
			hi := lo + r.Int64N(300)
			exact := false
			for v := range want {
				if v >= lo && v <= hi {
					exact = true
				}
			}
			if got := s.AnyIn(lo, hi); exact && !got || s.bits != nil && got != exact {
				t.Fatalf("AnyIn(%d, %d) = %v, want %v (bitmap %v)", lo, hi, got, exact, s.bits != nil)
			}
		}
	}
	if New(nil).AnyIn(math.MinInt64, math.MaxInt64) {
		t.Fatal("the empty set holds nothing")
	}
}

func TestNewBounded(t *testing.T) {
	sparse := []int64{1, 1 << 40, 1 << 41}
	if _, ok := NewBounded(sparse, 2); ok {
		t.Fatal("three sparse values with a bound of two should be refused")
	}
	if s, ok := NewBounded(sparse, 3); !ok || s.Len() != 3 {
		t.Fatal("three sparse values with a bound of three should be kept")
	}
	dense := make([]int64, 100)
	for i := range dense {
		dense[i] = int64(i)
	}
	if s, ok := NewBounded(dense, 2); !ok || s.Len() != 100 {
		t.Fatal("dense values are a bitmap whatever the bound")
	}
}

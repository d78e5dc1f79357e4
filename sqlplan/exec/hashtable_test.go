package exec

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRowTableInts checks integer row tables, direct (dense keys) and
// hashed (sparse or extreme keys), against a map: every key's rows in
// order, NULL keys never found.
func TestRowTableInts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := map[string]func(i int) int64{
		"dense":    func(i int) int64 { return int64(i / 3) },
		"negative": func(i int) int64 { return int64(i%50) - 25 },
		"sparse":   func(i int) int64 { return int64(r.Uint64() >> 20) },
		"extreme": func(i int) int64 {
			return []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt64 + 1}[i%6]
		},
		"strided": func(i int) int64 { return int64(i%100) << 24 },
		"spread":  func(i int) int64 { return int64(i/2*29 + i%2) },
	}
	for name, key := range cases {
		t.Run(name, func(t *testing.T) {
			const n = 5000
			c := &Col{T: tInt, Len: n, I: make([]int64, n), Null: make([]bool, n)}
			want := map[int64][]int32{}
			for i := 0; i < n; i++ {
				c.I[i] = key(i)
				if i%17 == 0 {
					c.Null[i] = true
					continue
				}
				want[c.I[i]] = append(want[c.I[i]], int32(i))
			}
			tab := BuildInts(c, n)
			if name == "dense" && !tab.direct {
				t.Error("dense keys are not placed directly")
			}
			if name == "extreme" && (tab.direct || tab.ranged) {
				t.Error("extreme keys placed by their values")
			}
			if name == "spread" && !tab.ranged {
				t.Error("keys spread over 15 values a row are not placed by their range")
			}
			for k, rows := range want {
				_, got := tab.AppendIntMatches(nil, nil, 0, k)
				if !slices.Equal(got, rows) {
					t.Fatalf("key %d: rows %v, want %v", k, got, rows)
				}
				if tab.FindInt(k) != rows[0] {
					t.Fatalf("key %d not found", k)
				}
			}
			for _, k := range []int64{math.MinInt64 + 7, math.MaxInt64 - 7, 1 << 40, -(1 << 40)} {
				if _, ok := want[k]; ok {
					continue
				}
				if _, got := tab.AppendIntMatches(nil, nil, 0, k); len(got) != 0 || tab.FindInt(k) >= 0 {
					t.Fatalf("absent key %d found: %v", k, got)
				}
			}
		})
	}
}

// TestRowTableKeys checks encoded-key tables the same way.
func TestRowTableKeys(t *testing.T) {
	keys := []string{"a", "", "bb", "a", "ccc", "", "bb", "a"}
	c := &Col{T: Type{Kind: KString}, Len: len(keys) + 1, Off: []int32{0}, Null: make([]bool, len(keys)+1)}
	for _, k := range keys {
		c.Data = append(c.Data, k...)
		c.Off = append(c.Off, int32(len(c.Data)))
	}
	c.Off = append(c.Off, int32(len(c.Data)))
	c.Null[len(keys)] = true // a NULL key
	cols := []*Col{c}
	tab := BuildKeys(cols, c.Len)
	for _, k := range []string{"a", "", "bb", "ccc", "zz"} {
		var want []int32
		for i, x := range keys {
			if x == k {
				want = append(want, int32(i))
			}
		}
		probe := &Col{T: c.T, Len: 1, Off: []int32{0, int32(len(k))}, Data: []byte(k)}
		enc, _ := JoinKey(nil, []*Col{probe}, 0)
		if _, got := tab.AppendKeyMatches(nil, nil, 0, enc); !slices.Equal(got, want) {
			t.Errorf("key %q: rows %v, want %v", k, got, want)
		}
		if first := tab.FindKey(enc); len(want) > 0 && first != want[0] || len(want) == 0 && first >= 0 {
			t.Errorf("key %q: first row %d, want %v", k, first, want)
		}
	}
}

func TestKeyPackerMatchesOnlyEqualKeys(t *testing.T) {
	build := []*Col{
		{T: Type{Kind: KInt}, Len: 4, I: []int64{-3, 10, 7, 0}, Null: []bool{false, false, false, true}},
		{T: Type{Kind: KInt}, Len: 4, I: []int64{1 << 20, 5, 5, 9}},
	}
	lkeys := []Type{{Kind: KInt}, {Kind: KInt}}
	pk, ok := NewKeyPacker(build, lkeys, 4)
	if !ok {
		t.Fatal("two small integer ranges should pack")
	}
	tbl := BuildInts(pk.Pack(build, 4), 4)
	probe := []*Col{
		{T: Type{Kind: KInt}, Len: 6, I: []int64{-3, 10, 7, 11, -4, 0}},
		{T: Type{Kind: KInt}, Len: 6, I: []int64{1 << 20, 5, 6, 5, 1 << 20, 9}},
	}
	packed := pk.Pack(probe, 6)
	want := []int32{0, 1, -1, -1, -1, -1} // row 5's build partner has a NULL key
	for i, w := range want {
		var li, ri []int32
		if !packed.IsNull(i) {
			li, ri = tbl.AppendIntMatches(li, ri, i, packed.I[i])
		}
		got := int32(-1)
		if len(ri) > 0 {
			got = ri[0]
		}
		if len(ri) > 1 || got != w {
			t.Errorf("probe row %d matched %v, want %d", i, ri, w)
		}
	}
	wide := []*Col{{T: Type{Kind: KInt}, Len: 2, I: []int64{0, 1 << 40}}, {T: Type{Kind: KInt}, Len: 2, I: []int64{0, 1 << 30}}}
	if _, ok := NewKeyPacker(wide, lkeys, 2); ok {
		t.Error("ranges of 41 and 31 bits should not pack into 63")
	}
}

// TestProbeInts checks a batch probe of integer keys against a probe of
// each key alone, for tables of unique keys (the direct fast path, with
// gaps and NULL build keys), of repeated keys, and of sparse keys, with
// NULL and out-of-range probe keys.
func TestProbeInts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cases := map[string]struct {
		key    func(i int) int64
		unique bool
	}{
		"unique":          {func(i int) int64 { return int64(4*i + 100) }, true},
		"repeated":        {func(i int) int64 { return int64(i / 2) }, false},
		"sparse":          {func(i int) int64 { return int64(i) << 30 }, true},
		"sparse repeated": {func(i int) int64 { return int64(i%1000) << 30 }, false},
		"random":          {func(i int) int64 { return int64(r.Uint64() >> 8) }, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			const n = 3000
			c := &Col{T: tInt, Len: n, I: make([]int64, n), Null: make([]bool, n)}
			for i := range n {
				c.I[i] = tc.key(i)
				c.Null[i] = i%11 == 0
			}
			tab := BuildInts(c, n)
			if tab.unique != tc.unique {
				t.Fatalf("unique = %v, want %v", tab.unique, tc.unique)
			}
			probe := make([]int64, 4*n)
			null := make([]bool, len(probe))
			for i := range probe {
				probe[i] = c.I[r.IntN(n)] + int64(r.IntN(3)) - 1 // hits, neighbours, misses
				null[i] = i%13 == 0
			}
			probe[1], probe[2] = math.MinInt64, math.MaxInt64
			for _, nulls := range [][]bool{nil, null} {
				var wl, wr []int32
				for i, k := range probe {
					if nulls == nil || !nulls[i] {
						wl, wr = tab.AppendIntMatches(wl, wr, i, k)
					}
				}
				gl, gr := tab.ProbeInts(probe, nulls)
				if !slices.Equal(gl, wl) || !slices.Equal(gr, wr) {
					t.Fatalf("nulls %v: probe gives %d pairs, want %d", nulls != nil, len(gl), len(wl))
				}
			}
		})
	}
}

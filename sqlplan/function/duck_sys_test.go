package function

import (
	"bytes"
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// sortKeyCase is a column and the comparison ORDER BY makes of its
// non-NULL values.
type sortKeyCase struct {
	name string
	col  *vec.Col
	cmp  func(i, j int) int
}

func sortKeyCases(rng *rand.Rand, n int) []sortKeyCase {
	ints := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: n, I: make([]int64, n), Null: make([]bool, n)}
	uints := &vec.Col{T: vec.Type{Kind: vec.KUint}, Len: n, I: make([]int64, n), Null: make([]bool, n)}
	floats := &vec.Col{T: vec.Type{Kind: vec.KFloat}, Len: n, F: make([]float64, n), Null: make([]bool, n)}
	huge := &vec.Col{T: vec.Type{Kind: vec.KDecimal, Prec: 38}, Len: n, H: make([]num.Int128, n), Null: make([]bool, n)}
	strs := vec.NewBuilder(vec.Type{Kind: vec.KString}, n)
	specials := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}
	alphabet := []byte{0, 1, 'a', 'b', 0xFF}
	for i := range n {
		ints.I[i] = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, rng.Int64() - math.MaxInt64/2}[rng.IntN(6)]
		uints.I[i] = int64(rng.Uint64())
		floats.F[i] = rng.NormFloat64() * 1e6
		if rng.IntN(4) == 0 {
			floats.F[i] = specials[rng.IntN(len(specials))]
		}
		huge.H[i] = num.Int128{Hi: rng.Int64N(5) - 2, Lo: rng.Uint64()}
		s := make([]byte, rng.IntN(4))
		for k := range s {
			s[k] = alphabet[rng.IntN(len(alphabet))]
		}
		strs.Add(s)
		for _, c := range []*vec.Col{ints, uints, floats, huge} {
			c.Null[i] = rng.IntN(8) == 0
		}
	}
	strs.C.Null = make([]bool, n)
	for i := range n {
		strs.C.Null[i] = rng.IntN(8) == 0
	}
	// ORDER BY's float order: -Inf < ... < -0 = 0 < ... < +Inf < NaN.
	floatCmp := func(a, b float64) int {
		switch {
		case math.IsNaN(a) && math.IsNaN(b):
			return 0
		case math.IsNaN(a):
			return 1
		case math.IsNaN(b):
			return -1
		}
		return cmp.Compare(a, b)
	}
	return []sortKeyCase{
		{"BIGINT", ints, func(i, j int) int { return cmp.Compare(ints.I[i], ints.I[j]) }},
		{"UBIGINT", uints, func(i, j int) int { return cmp.Compare(uint64(uints.I[i]), uint64(uints.I[j])) }},
		{"DOUBLE", floats, func(i, j int) int { return floatCmp(floats.F[i], floats.F[j]) }},
		{"DECIMAL(38,0)", huge, func(i, j int) int {
			return cmp.Or(cmp.Compare(huge.H[i].Hi, huge.H[j].Hi), cmp.Compare(huge.H[i].Lo, huge.H[j].Lo))
		}},
		{"VARCHAR", strs.C, func(i, j int) int { return bytes.Compare(strs.C.Str(i), strs.C.Str(j)) }},
	}
}

// TestCreateSortKeyOrder checks that the keys' byte order is ORDER BY's
// for every pair of rows, under each modifier, over edge values (minima,
// maxima, ±0, ±Inf, NaN, NUL bytes, prefixes).
func TestCreateSortKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 300
	for _, c := range sortKeyCases(rng, n) {
		for _, mod := range []string{"ASC NULLS LAST", "ASC NULLS FIRST", "DESC NULLS LAST", "DESC NULLS FIRST", "nulls first"} {
			m, err := parseSortModifier(mod)
			if err != nil {
				t.Fatal(err)
			}
			modCol := vec.NewBuilder(tString, n)
			for range n {
				modCol.Add(mod)
			}
			keys, err := sortKeyBatch([]*vec.Col{c.col, modCol.C}, n)
			if err != nil {
				t.Fatal(err)
			}
			want := func(i, j int) int {
				ni, nj := c.col.IsNull(i), c.col.IsNull(j)
				switch {
				case ni && nj:
					return 0
				case ni != nj:
					if ni == m.nullsFirst {
						return -1
					}
					return 1
				}
				if m.desc {
					return c.cmp(j, i)
				}
				return c.cmp(i, j)
			}
			for i := range n {
				for j := range n {
					if got := bytes.Compare(keys.Str(i), keys.Str(j)); got != want(i, j) {
						t.Fatalf("%s %s: rows %d and %d: key order %d, ORDER BY %d", c.name, mod, i, j, got, want(i, j))
					}
				}
			}
		}
	}
}

// TestCreateSortKeyTwoKeys checks that a second key breaks the first's
// ties only: a string prefix never lets the next key decide.
func TestCreateSortKeyTwoKeys(t *testing.T) {
	a := vec.NewBuilder(tString, 4)
	for _, s := range []string{"a", "ab", "a", "a\x00"} {
		a.Add(s)
	}
	b := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: 4, I: []int64{9, 1, 2, 0}}
	mod := func(s string) *vec.Col {
		m := vec.NewBuilder(tString, 4)
		for range 4 {
			m.Add(s)
		}
		return m.C
	}
	keys, err := sortKeyBatch([]*vec.Col{a.C, mod("ASC NULLS LAST"), b, mod("DESC NULLS LAST")}, 4)
	if err != nil {
		t.Fatal(err)
	}
	order := []int{0, 1, 2, 3}
	slices.SortFunc(order, func(i, j int) int { return bytes.Compare(keys.Str(i), keys.Str(j)) })
	// ('a', 9), ('a', 2), ('a\x00', 0), ('ab', 1)
	if want := []int{0, 2, 3, 1}; !slices.Equal(order, want) {
		t.Fatalf("order %v, want %v", order, want)
	}
}

func TestCreateSortKeyErrors(t *testing.T) {
	for _, mod := range []string{"ASC", "DESC", "", "NULLS", "UP NULLS LAST", "ASC NULLS MIDDLE"} {
		if _, err := parseSortModifier(mod); err == nil {
			t.Errorf("modifier %q: no error", mod)
		}
	}
	if _, _, err := sortKeyRule([]vec.Type{{Kind: vec.KInt}}); err == nil {
		t.Error("an odd number of arguments: no error")
	}
	if _, _, err := sortKeyRule([]vec.Type{{Kind: vec.KInterval}, tString}); err == nil {
		t.Error("an INTERVAL key: no error")
	}
}

// TestHash checks hash's contract: UBIGINT, a value for NULL, equal
// values alike (±0 and NaNs too), arguments delimited.
func TestHash(t *testing.T) {
	if _, typ, _ := hashRule([]vec.Type{{Kind: vec.KInt}}); typ.SQLName() != "UBIGINT" {
		t.Fatalf("hash is %s, want UBIGINT", typ.SQLName())
	}
	hashOf := func(cols ...*vec.Col) []int64 {
		out, err := hashBatch(cols, cols[0].Len)
		if err != nil {
			t.Fatal(err)
		}
		if out.Null != nil {
			t.Fatal("hash gave NULL")
		}
		return out.I
	}
	floats := &vec.Col{T: vec.Type{Kind: vec.KFloat}, Len: 4, F: []float64{0, math.Copysign(0, -1), math.NaN(), -math.NaN()}}
	h := hashOf(floats)
	if h[0] != h[1] || h[2] != h[3] || h[0] == h[2] {
		t.Errorf("float hashes %v: want ±0 alike, NaNs alike, 0 and NaN apart", h)
	}
	strs := func(ss ...string) *vec.Col {
		b := vec.NewBuilder(tString, len(ss))
		for _, s := range ss {
			b.Add(s)
		}
		return b.C
	}
	two := hashOf(strs("ab", "a", "ab"), strs("c", "bc", "c"))
	if two[0] == two[1] || two[0] != two[2] {
		t.Errorf("hash('ab','c'), hash('a','bc'), hash('ab','c') = %v", two)
	}
	nulls := &vec.Col{T: vec.Type{Kind: vec.KInt}, Len: 2, I: []int64{0, 0}, Null: []bool{true, false}}
	if hn := hashOf(nulls); hn[0] == hn[1] {
		t.Errorf("hash(NULL) = hash(0) = %d", hn[0])
	}
}

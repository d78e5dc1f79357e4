package exec

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// keyText is row i's key value as text, one text per distinct key as
// the grouper sees keys: NULL apart, -0 equal to 0, NaN equal to NaN.
func keyText(c *Col, i int) string {
	if c.IsNull(i) {
		return "NULL"
	}
	switch {
	case c.Dict != nil:
		return "s" + string(c.Dict.Str(int(c.Codes[i])))
	case c.I != nil:
		return "i" + strconv.FormatInt(c.I[i], 10)
	case c.F != nil:
		f := c.F[i]
		if f == 0 {
			f = 0
		}
		return "f" + strconv.FormatFloat(f, 'g', -1, 64)
	case c.B != nil:
		return "b" + strconv.FormatBool(c.B[i])
	case c.Off != nil:
		return "s" + string(c.Str(i))
	}
	panic("unexpected column")
}

// strColumn is a string column of vals (null marks NULLs).
func strColumn(vals []string, null []bool) *Col {
	c := &Col{T: tString, Len: len(vals), Off: []int32{0}, Null: null}
	for _, v := range vals {
		c.Data = append(c.Data, v...)
		c.Off = append(c.Off, int32(len(c.Data)))
	}
	return c
}

// genCol makes a batch's column of n random keys of one kind, a fifth of
// them NULL when nulls.
type genCol func(r *rand.Rand, n int, nulls bool) *Col

func nullsOf(r *rand.Rand, n int, nulls bool) []bool {
	if !nulls {
		return nil
	}
	null := make([]bool, n)
	for i := range null {
		null[i] = r.IntN(5) == 0
	}
	return null
}

var (
	genInt = func(spread int64) genCol {
		return func(r *rand.Rand, n int, nulls bool) *Col {
			c := &Col{T: tInt, Len: n, I: make([]int64, n), Null: nullsOf(r, n, nulls)}
			for i := range c.I {
				c.I[i] = r.Int64N(spread) - spread/4
			}
			return c
		}
	}
	words     = []string{"", "a", "brass", "MEDIUM POLISHED", "Brand#45", "a\x00b", strings.Repeat("z", 40)}
	genString = func(r *rand.Rand, n int, nulls bool) *Col {
		vals := make([]string, n)
		for i := range vals {
			vals[i] = words[r.IntN(len(words))]
		}
		return strColumn(vals, nullsOf(r, n, nulls))
	}
	// genCoded codes its strings against one of two dictionaries.
	genCoded = func(r *rand.Rand, n int, nulls bool) *Col {
		dict := strColumn(words[r.IntN(2):], nil)
		c := &Col{T: tString, Len: n, Dict: dict, Codes: make([]int32, n), Null: nullsOf(r, n, nulls)}
		for i := range c.Codes {
			c.Codes[i] = int32(r.IntN(dict.Len))
		}
		return c
	}
	genFloat = func(r *rand.Rand, n int, nulls bool) *Col {
		vals := []float64{0, math.Copysign(0, -1), 1.5, -2.25, math.NaN(), math.Inf(1), 1e300}
		c := &Col{T: Type{Kind: KFloat}, Len: n, F: make([]float64, n), Null: nullsOf(r, n, nulls)}
		for i := range c.F {
			c.F[i] = vals[r.IntN(len(vals))]
		}
		return c
	}
	genBool = func(r *rand.Rand, n int, nulls bool) *Col {
		c := &Col{T: Type{Kind: KBool}, Len: n, B: make([]bool, n), Null: nullsOf(r, n, nulls)}
		for i := range c.B {
			c.B[i] = r.IntN(2) == 0
		}
		return c
	}
)

// TestGrouperKeyKinds groups batches of every key kind the grouper has a
// path for (one integer, one string, dictionary codes, floats, bools,
// two to four integer and string keys, mixed keys that take byte keys),
// with and without NULLs, against a map of the keys' texts: a key keeps
// its group across batches, distinct keys get distinct groups, and the
// grouper's key columns hold each group's key.
func TestGrouperKeyKinds(t *testing.T) {
	cases := map[string][]genCol{
		"int":             {genInt(50)},
		"int wide":        {genInt(1 << 40)},
		"string":          {genString},
		"coded":           {genCoded},
		"float":           {genFloat},
		"bool":            {genBool},
		"string int":      {genString, genInt(5)},
		"int int int":     {genInt(1000), genInt(30), genInt(3)},
		"coded coded int": {genCoded, genCoded, genInt(7)},
		"int wide string": {genInt(1 << 50), genString},
		"four keys":       {genInt(3), genString, genInt(4), genCoded},
		"int float":       {genInt(9), genFloat},
		"string bool":     {genString, genBool},
	}
	for name, gens := range cases {
		for _, nulls := range []bool{false, true} {
			t.Run(name+map[bool]string{true: " nulls"}[nulls], func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(len(name)), 9))
				types := make([]Type, len(gens))
				for j, gen := range gens {
					types[j] = gen(r, 1, false).T
				}
				g := NewGrouper(types)
				ids := map[string]int32{}
				keyOf := map[int32]string{}
				for batch := 0; batch < 6; batch++ {
					n := 1 + r.IntN(3000)
					cols := make([]*Col, len(gens))
					texts := make([]string, n)
					for j, gen := range gens {
						cols[j] = gen(r, n, nulls)
						for i := range texts {
							texts[i] += keyText(cols[j], i) + "|"
						}
					}
					gids := make([]int32, n)
					g.Assign(append([]*Col(nil), cols...), n, gids)
					for i, k := range texts {
						if id, ok := ids[k]; ok && id != gids[i] {
							t.Fatalf("batch %d row %d: key %q in group %d, was %d", batch, i, k, gids[i], id)
						}
						if other, ok := keyOf[gids[i]]; ok && other != k {
							t.Fatalf("keys %q and %q share group %d", k, other, gids[i])
						}
						ids[k], keyOf[gids[i]] = gids[i], k
					}
				}
				if g.Groups() != len(ids) {
					t.Fatalf("%d groups for %d keys", g.Groups(), len(ids))
				}
				for id, k := range keyOf {
					var got string
					for j := range gens {
						got += keyText(g.KeyCol(j).Decoded(), int(id)) + "|"
					}
					if got != k {
						t.Errorf("group %d holds key %q, want %q", id, got, k)
					}
				}
			})
		}
	}
}

// No key columns: one group for every row.
func TestGrouperNoKeys(t *testing.T) {
	g := NewGrouper(nil)
	gids := []int32{5, 5, 5}
	g.Assign(nil, 3, gids)
	if g.Groups() != 1 || gids[0] != 0 || gids[2] != 0 {
		t.Errorf("%d groups, ids %v", g.Groups(), gids)
	}
}

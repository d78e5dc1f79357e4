package scan

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/writer"
)

// fieldBinding binds predicate columns to the vectors of a hand-made
// batch: column i of the batch is fields[i].
type fieldBinding []*schema.Field

func (b fieldBinding) column(name string) (int, *schema.Field, any, bool) {
	for i, f := range b {
		if f.Name == name {
			return i, f, nil, true
		}
	}
	return 0, nil, nil, false
}

// randWord is a short string over a small alphabet, so that equal values
// and shared prefixes are frequent; width > 0 makes it exactly that long.
func randWord(rng *rand.Rand, width int) string {
	n := width
	if n == 0 {
		n = rng.Intn(5)
	}
	b := make([]byte, n)
	for i := range b {
		b[i] = "abc"[rng.Intn(3)]
	}
	return string(b)
}

// randStringTerm is a Compare, IN, NOT IN or LIKE-prefix term on column
// col; long IN lists (16 values or more) are looked up in a set.
func randStringTerm(rng *rand.Rand, col string, width int) Predicate {
	switch rng.Intn(4) {
	case 0:
		return Compare{col, Op(rng.Intn(6)), randWord(rng, width)}
	case 1:
		vals := make([]any, 1+rng.Intn(4))
		if rng.Intn(3) == 0 {
			vals = make([]any, inSetMin+rng.Intn(8))
		}
		for i := range vals {
			vals[i] = randWord(rng, width)
		}
		return In{Column: col, Values: vals, Not: rng.Intn(2) == 0}
	default:
		w := randWord(rng, width)
		return Prefix{col, w[:rng.Intn(len(w)+1)]}
	}
}

// holdsOn evaluates a string term on a Go string, the reference the
// scan's loops are held to.
func holdsOn(p Predicate, s string) bool {
	switch x := p.(type) {
	case Compare:
		return holds(x.Op, strings.Compare(s, x.Value.(string)))
	case In:
		return slices.ContainsFunc(x.Values, func(v any) bool { return v.(string) == s }) != x.Not
	case Prefix:
		return strings.HasPrefix(s, x.Prefix)
	}
	panic(fmt.Sprintf("holdsOn %T", p))
}

// TestStringTermsOnVectors evaluates random string terms on plain,
// coded (dictionary) and fixed-length vectors with NULLs and compares
// every row with the term evaluated on the row's Go string.
func TestStringTermsOnVectors(t *testing.T) {
	sch, err := writer.NewSchema(writer.String("s").Optional(), writer.FixedLen("f", 3).Optional())
	if err != nil {
		t.Fatal(err)
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(27))
	for iter := 0; iter < 400; iter++ {
		n := 1 + rng.Intn(300)
		width := 0
		if iter%3 == 2 {
			width = 3
		}
		vals := make([]*string, n)
		for i := range vals {
			if rng.Intn(6) != 0 {
				s := randWord(rng, width)
				vals[i] = &s
			}
		}
		var vecs []*vector.Vector
		col := "s"
		if width > 0 {
			col = "f"
			vecs = []*vector.Vector{nil, fixedVector(vals, width)}
		} else {
			vecs = []*vector.Vector{plainVector(vals), nil}
		}
		p := randStringTerm(rng, col, width)
		forms := [][]*vector.Vector{vecs}
		if width == 0 {
			forms = append(forms, []*vector.Vector{codedVector(vals, rng), nil})
		}
		e := compile(p, fieldBinding(fields))
		for _, cols := range forms {
			// Twice: the second time a coded vector's dictionary answers
			// come from the term's cache.
			for round := 0; round < 2; round++ {
				truth, known := vector.NewBitmap(n, false), vector.NewBitmap(n, false)
				e.eval(cols, n, truth, known)
				for i, v := range vals {
					wantKnown := v != nil
					wantTruth := v != nil && holdsOn(p, *v)
					if known.Get(i) != wantKnown || truth.Get(i) != wantTruth {
						t.Fatalf("%s on row %d (%s, coded %v): truth %v known %v, want %v %v",
							p, i, show(v), cols[0] != nil && cols[0].Dict != nil, truth.Get(i), known.Get(i), wantTruth, wantKnown)
					}
				}
				if tail := uint(n) & 63; tail != 0 && truth[n/64]>>tail != 0 {
					t.Fatalf("%s: truth has bits past row %d", p, n)
				}
			}
		}
	}
}

func show(v *string) string {
	if v == nil {
		return "NULL"
	}
	return fmt.Sprintf("%q", *v)
}

func validity(vals []*string) vector.Bitmap {
	valid := vector.NewBitmap(len(vals), true)
	for i, v := range vals {
		if v == nil {
			valid.Clear(i)
		}
	}
	return valid
}

func plainVector(vals []*string) *vector.Vector {
	v := &vector.Vector{Kind: vector.ByteArray, Len: len(vals), Offsets: []int32{0}, Valid: validity(vals)}
	for _, s := range vals {
		if s != nil {
			v.Data = append(v.Data, *s...)
		}
		v.Offsets = append(v.Offsets, int32(len(v.Data)))
	}
	return v
}

func fixedVector(vals []*string, width int) *vector.Vector {
	v := &vector.Vector{Kind: vector.FixedLenByteArray, Width: width, Len: len(vals), Valid: validity(vals)}
	for _, s := range vals {
		if s != nil {
			v.Data = append(v.Data, *s...)
		} else {
			v.Data = append(v.Data, make([]byte, width)...)
		}
	}
	return v
}

// codedVector codes vals into a shuffled dictionary that also holds
// values no row uses; null slots hold code 0.
func codedVector(vals []*string, rng *rand.Rand) *vector.Vector {
	var words []string
	for _, s := range vals {
		if s != nil && !slices.Contains(words, *s) {
			words = append(words, *s)
		}
	}
	words = append(words, "unused", "abcabc")
	rng.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	dict := make([]*string, len(words))
	for i := range words {
		dict[i] = &words[i]
	}
	d := plainVector(dict)
	d.Valid = nil
	v := &vector.Vector{Kind: vector.ByteArray, Len: len(vals), Valid: validity(vals), Dict: d}
	for _, s := range vals {
		c := 0
		if s != nil {
			c = slices.Index(words, *s)
		}
		v.Codes = append(v.Codes, int32(c))
	}
	return v
}

// TestStringTermsAcrossDictionaryFallback scans a file whose string
// column chunk starts dictionary-encoded and falls back to plain pages
// when its dictionary grows past the limit, with batches spanning the
// switch, and compares the rows and the count that pass random
// predicates (string terms with ANDs, ORs and NOTs, and integer NOT IN)
// with the naive evaluator.
func TestStringTermsAcrossDictionaryFallback(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.parquet")
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.String("s").Optional(), writer.Int32("k").Optional())
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(path, sch, writer.WithPageRowLimit(40), writer.WithRowGroupRows(700),
		writer.WithDictionaryPageSizeLimit(300), writer.WithPageIndex(true))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(29))
	const n = 1400
	vals := make([]*string, n)
	ks := &vector.Vector{Kind: vector.Int32, Len: n, Int32s: make([]int32, n), Valid: vector.NewBitmap(n, true)}
	ids := &vector.Vector{Kind: vector.Int64, Len: n, Int64s: make([]int64, n)}
	var all []map[string]any
	for i := range vals {
		row := map[string]any{"id": int64(i), "s": nil, "k": nil}
		ids.Int64s[i] = int64(i)
		if rng.Intn(7) != 0 {
			s := randWord(rng, 0)
			if i%700 > 300 {
				// Past the first 300 rows of a row group the values grow
				// distinct: the dictionary overflows and pages turn plain.
				s += fmt.Sprint(i)
			}
			vals[i], row["s"] = &s, s
		}
		if rng.Intn(9) == 0 {
			ks.Valid.Clear(i)
		} else {
			ks.Int32s[i] = int32(rng.Intn(12))
			row["k"] = int64(ks.Int32s[i])
		}
		all = append(all, row)
	}
	if err := w.WriteBatch([]*vector.Vector{ids, plainVector(vals), ks}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	checkFallback(t, path)
	tbl, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Close()
	for iter := 0; iter < 150; iter++ {
		p := randFallbackPred(rng, 2)
		var want []int64
		for _, row := range all {
			if r := naive(p, row); r != nil && *r {
				want = append(want, row["id"].(int64))
			}
		}
		noPrune := iter%2 == 0
		rows, _ := collect(t, tbl, Request{Columns: []string{"id", "s"}, Filter: p, BatchSize: 37, NoPruning: noPrune})
		var got []int64
		for _, r := range rows {
			got = append(got, r[0].(int64))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d rows %v\nwant %d %v", p, len(got), got, len(want), want)
		}
		if c, _ := countRows(t, tbl, p, noPrune, 1); c != int64(len(want)) {
			t.Fatalf("count of %s: %d, want %d", p, c, len(want))
		}
	}
}

// checkFallback fails unless each column chunk of s holds both
// dictionary-coded and plain data pages.
func checkFallback(t *testing.T, path string) {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for rg := 0; rg < f.NumRowGroups(); rg++ {
		cc, err := f.ColumnChunk(rg, 1)
		if err != nil {
			t.Fatal(err)
		}
		var dict, plain bool
		for _, st := range cc.MetaData.EncodingStats {
			if st.PageType == format.DataPage || st.PageType == format.DataPageV2 {
				dict = dict || st.Encoding == format.RLEDictionary
				plain = plain || st.Encoding == format.Plain
			}
		}
		if !dict || !plain {
			t.Fatalf("row group %d: dictionary pages %v, plain pages %v: no fallback to test", rg, dict, plain)
		}
	}
}

func randFallbackPred(rng *rand.Rand, depth int) Predicate {
	if depth > 0 && rng.Intn(3) == 0 {
		terms := []Predicate{randFallbackPred(rng, depth-1), randFallbackPred(rng, depth-1)}
		switch rng.Intn(3) {
		case 0:
			return And{terms}
		case 1:
			return Or{terms}
		}
		return Not{terms[0]}
	}
	switch rng.Intn(4) {
	case 0:
		vals := []any{int64(rng.Intn(12)), int64(rng.Intn(12)), int64(rng.Intn(12))}
		return In{Column: "k", Values: vals, Not: rng.Intn(2) == 0}
	case 1:
		return IsNull{Column: "s", Not: rng.Intn(2) == 0}
	}
	return randStringTerm(rng, "s", 0)
}

package function

import "github.com/carquet-go/carquet/sqlplan/vec"

// String similarity functions of DuckDB: jaro_similarity,
// jaro_winkler_similarity and damerau_levenshtein. Like DuckDB they compare
// bytes, not characters: a two-byte 'é' counts as two, so their results on
// non-ASCII text match DuckDB's.

func init() { register(strsimFuncs) }

var strsimFuncs = map[string]*Scalar{
	// The optional third argument is a score cutoff: a similarity below
	// it reads 0, as in DuckDB.
	"jaro_similarity":         {Min: 2, Max: 3, Rule: Sig(tFloat, tString, tString, tFloat), Row: similarityRow(jaro)},
	"jaro_winkler_similarity": {Min: 2, Max: 3, Rule: Sig(tFloat, tString, tString, tFloat), Row: similarityRow(jaroWinkler)},
	"damerau_levenshtein": {Min: 2, Max: 2, Rule: Sig(tInt, tString), Row: func(a []*vec.Col, i int) (any, error) {
		return int64(damerauLevenshtein(a[0].Str(i), a[1].Str(i))), nil
	}},
}

func similarityRow(sim func(a, b []byte) float64) func(a []*vec.Col, i int) (any, error) {
	return func(a []*vec.Col, i int) (any, error) {
		s := sim(a[0].Str(i), a[1].Str(i))
		if len(a) > 2 && s < a[2].F[i] {
			return 0.0, nil
		}
		return s, nil
	}
}

// jaro is the Jaro similarity: the share of bytes the two strings have in
// common within a window of half the longer length, less half the ones
// that appear in a different order. DuckDB gives 0 when either string is
// empty, even both.
func jaro(a, b []byte) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	window := max(max(len(a), len(b))/2-1, 0)
	inB := make([]bool, len(b)) // b's bytes already matched
	common := make([]byte, 0, min(len(a), len(b)))
	for i, c := range a {
		for j := max(i-window, 0); j < min(i+window+1, len(b)); j++ {
			if !inB[j] && b[j] == c {
				inB[j] = true
				common = append(common, c)
				break
			}
		}
	}
	m := len(common)
	if m == 0 {
		return 0
	}
	// The matched bytes of b, in b's order, against those of a in a's.
	crossed, k := 0, 0
	for j, c := range b {
		if inB[j] {
			if c != common[k] {
				crossed++
			}
			k++
		}
	}
	fm := float64(m)
	return (fm/float64(len(a)) + fm/float64(len(b)) + float64(m-crossed/2)/fm) / 3
}

// jaroWinkler raises a Jaro similarity above 0.7 for a common prefix of
// up to 4 bytes, by a tenth of the remaining distance per byte (the
// standard weights, and DuckDB's).
func jaroWinkler(a, b []byte) float64 {
	s := jaro(a, b)
	if s <= 0.7 {
		return s
	}
	prefix := 0
	for prefix < min(len(a), len(b), 4) && a[prefix] == b[prefix] {
		prefix++
	}
	return s + float64(prefix)*0.1*(1-s)
}

// damerauLevenshtein is the edit distance with insertions, deletions,
// substitutions and transpositions of adjacent bytes, where a transposed
// pair may still be edited around (the unrestricted distance, which DuckDB
// computes: 'ca' to 'abc' is 2, not 3 as the restricted "optimal string
// alignment" distance would have it). It is the Lowrance-Wagner dynamic
// program; d has a border row and column holding a bound no path reaches.
func damerauLevenshtein(a, b []byte) int {
	w := len(b) + 2
	d := make([]int, (len(a)+2)*w)
	at := func(i, j int) *int { return &d[i*w+j] }
	far := len(a) + len(b)
	*at(0, 0) = far
	for i := 0; i <= len(a); i++ {
		*at(i+1, 0), *at(i+1, 1) = far, i
	}
	for j := 0; j <= len(b); j++ {
		*at(0, j+1), *at(1, j+1) = far, j
	}
	var lastRow [256]int // the last row of a holding each byte, 0 if none yet
	for i := 1; i <= len(a); i++ {
		lastCol := 0 // the last column of b in this row where a[i-1] matched
		for j := 1; j <= len(b); j++ {
			k, l := lastRow[b[j-1]], lastCol
			cost := 1
			if a[i-1] == b[j-1] {
				cost, lastCol = 0, j
			}
			*at(i+1, j+1) = min(
				*at(i, j)+cost, // substitute (or keep)
				*at(i+1, j)+1,  // insert
				*at(i, j+1)+1,  // delete
				// transpose a[k-1] and b[l-1], editing the bytes between
				*at(k, l)+(i-k-1)+1+(j-l-1),
			)
		}
		lastRow[a[i-1]] = i
	}
	return *at(len(a)+1, len(b)+1)
}

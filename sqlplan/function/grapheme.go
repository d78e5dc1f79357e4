package function

import (
	"bytes"
	"fmt"

	"github.com/rivo/uniseg"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The grapheme-cluster functions: length_grapheme, left_grapheme,
// right_grapheme and substring_grapheme count user-perceived characters
// (a letter with its marks, an emoji ZWJ sequence, a flag) as one, with
// the segmentation of Unicode's UAX #29 as github.com/rivo/uniseg
// implements it.
//
// Positions follow DuckDB's (v1.5) substring_grapheme, which clamps a
// start before the string to its first cluster (unlike substring, which
// spends the length there): substring_grapheme('abc', -5, 2) is 'ab'.
// DuckDB's quirks are not copied, where its shortcuts mix bytes and
// clusters: its ASCII path counts CR LF as two clusters (UAX #29 makes it
// one, and DuckDB does too once the string has a non-ASCII character);
// for a non-ASCII string, a start past the end with a negative length is
// clamped to the byte size rather than the cluster count, and a negative
// start and length wholly before the string give the whole string; and
// an ASCII prefix makes a negative start count bytes of the whole string.
// Where the string is ASCII, each of these answers as carquet does.

func init() {
	register(map[string]*Scalar{
		"length_grapheme":    {Min: 1, Max: 1, Rule: Sig(tInt, tString), Batch: lengthGraphemeBatch},
		"left_grapheme":      {Min: 2, Max: 2, Rule: Sig(tString, tString, tInt), Batch: graphemeBatch("left_grapheme", leftGraphemeSpan)},
		"right_grapheme":     {Min: 2, Max: 2, Rule: Sig(tString, tString, tInt), Batch: graphemeBatch("right_grapheme", rightGraphemeSpan)},
		"substring_grapheme": {Min: 2, Max: 3, Rule: Sig(tString, tString, tInt, tInt), Batch: graphemeBatch("substring_grapheme", substringGraphemeSpan)},
	})
}

// lengthGraphemeBatch is length_grapheme: the number of grapheme
// clusters of each string.
func lengthGraphemeBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tInt, Len: n, Null: vec.MergeNulls(n, a...), I: make([]int64, n)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			out.I[i] = graphemeCount(a[0].Str(i))
		}
	}
	return out, nil
}

// A graphemeSpan returns the half-open range [lo, hi) of clusters a call
// takes from row i's string s (lo >= hi: none). It calls graphemeCount
// only when the positions count from the end.
type graphemeSpan func(s []byte, a []*vec.Col, i int) (lo, hi int64, err error)

// graphemeBatch is the batch kernel of a function that cuts a span of
// clusters out of each string.
func graphemeBatch(name string, span graphemeSpan) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
		for i := range n {
			if out.Null == nil || !out.Null[i] {
				s := a[0].Str(i)
				lo, hi, err := span(s, a, i)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				out.Data = append(out.Data, graphemeSlice(s, lo, hi)...)
			}
			out.Off[i+1] = int32(len(out.Data))
		}
		return out, nil
	}
}

// leftGraphemeSpan is left_grapheme(s, k): the first k clusters, or all
// but the last -k for a negative k.
func leftGraphemeSpan(s []byte, a []*vec.Col, i int) (int64, int64, error) {
	k := a[1].I[i]
	if k >= 0 {
		return 0, k, substrBounds("length", k)
	}
	return 0, max(graphemeCount(s)+k, 0), nil
}

// rightGraphemeSpan is right_grapheme(s, k): the last k clusters, or all
// but the first -k for a negative k. No k is out of range: the count of
// the string bounds it.
func rightGraphemeSpan(s []byte, a []*vec.Col, i int) (int64, int64, error) {
	k, size := a[1].I[i], graphemeCount(s)
	if k >= 0 {
		return size - min(k, size), size, nil
	}
	if -k >= size || k == -k { // k == -k: the smallest BIGINT, whose negation overflows
		return size, size, nil
	}
	return -k, size, nil
}

// substringGraphemeSpan is substring_grapheme(s, start[, length]) with
// DuckDB's positions: start k > 0 is cluster k-1, start 0 one place
// before the first (eating one of the length), a negative start counts
// from the end and stops at the first cluster, and a negative length
// takes the clusters before start. Offsets and lengths are bounded to 32
// bits, as substring's, so that no sum below overflows.
func substringGraphemeSpan(s []byte, a []*vec.Col, i int) (int64, int64, error) {
	start, n := a[1].I[i], int64(substrMax)
	if len(a) > 2 {
		n = a[2].I[i]
	}
	if err := substrBounds("offset", start); err != nil {
		return 0, 0, err
	}
	if err := substrBounds("length", n); err != nil {
		return 0, 0, err
	}
	var lo int64
	switch {
	case n == 0:
		return 0, 0, nil
	case start > 0 && n > 0:
		lo = start - 1 // a start past the end takes nothing, wherever it is
	case start > 0:
		lo = min(start-1, graphemeCount(s)) // counting back from past the end starts at it
	case start < 0:
		lo = max(graphemeCount(s)+start, 0)
	default:
		if n--; n <= 0 {
			return 0, 0, nil
		}
	}
	if n < 0 {
		return max(lo+n, 0), lo, nil
	}
	return lo, lo + n, nil
}

// simpleText reports whether each byte of s is a cluster of its own: ASCII
// without CR LF, the one pair of ASCII characters UAX #29 joins.
func simpleText(s []byte) bool {
	return isASCII(s) && !bytes.Contains(s, []byte("\r\n"))
}

// graphemeCount is the number of grapheme clusters of s.
func graphemeCount(s []byte) int64 {
	if simpleText(s) {
		return int64(len(s))
	}
	var count int64
	for state := -1; len(s) > 0; count++ {
		_, s, _, state = uniseg.FirstGraphemeCluster(s, state)
	}
	return count
}

// graphemeSlice returns the clusters lo to hi (exclusive) of s, as many as
// it has of them.
func graphemeSlice(s []byte, lo, hi int64) []byte {
	lo = max(lo, 0)
	if lo >= hi {
		return nil
	}
	if simpleText(s) {
		size := int64(len(s))
		return s[min(lo, size):min(hi, size)]
	}
	from, at := len(s), 0
	rest, state := s, -1
	for k := int64(0); k < hi && len(rest) > 0; k++ {
		if k == lo {
			from = at
		}
		var cluster []byte
		cluster, rest, _, state = uniseg.FirstGraphemeCluster(rest, state)
		at += len(cluster)
	}
	if from > at {
		return nil
	}
	return s[from:at]
}

package function

import (
	"fmt"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// DuckDB bounds substring's offset and length to 32 bits and refuses
// anything beyond; an absent length is the largest one allowed. Keeping
// the bounds also keeps start+length far from int64 overflow.
func init() {
	register(map[string]*Scalar{"substring": {
		Min: 2, Max: 3, Rule: Sig(tString, tString, tInt, tInt), Row: substringRow, Batch: substringVec,
	}})
}

const (
	substrMin = -1 << 32
	substrMax = 1<<32 - 1
)

// substringRow is substring(s, start[, length]) with DuckDB's (v1.5)
// positions, counted in characters: start k >= 0 is index k-1 (so start 0
// is one place before the first character and eats into the length), a
// negative start counts from the end, and a negative length takes the
// characters before start instead of after. The span is cut to the string
// only at the end, so a start far before it still spends its length there:
// substring('hello', -10, 8) is 'hel'.
func substringRow(a []*vec.Col, i int) (any, error) {
	start, n := a[1].I[i], int64(substrMax)
	if len(a) > 2 {
		n = a[2].I[i]
	}
	out, err := appendSubstring(nil, a[0].Str(i), start, n)
	if err != nil {
		return nil, err
	}
	return string(out), nil
}

// appendSubstring appends substring(v, start, n) to dst. ASCII strings
// are cut by bytes (one byte a character); others through their runes.
func appendSubstring(dst, v []byte, start, n int64) ([]byte, error) {
	if err := substrBounds("offset", start); err != nil {
		return nil, err
	}
	if err := substrBounds("length", n); err != nil {
		return nil, err
	}
	if isASCII(v) {
		lo, hi := substrSpan(int64(len(v)), start, n)
		if lo < hi {
			dst = append(dst, v[lo:hi]...)
		}
		return dst, nil
	}
	r := []rune(string(v))
	lo, hi := substrSpan(int64(len(r)), start, n)
	if lo < hi {
		dst = append(dst, string(r[lo:hi])...)
	}
	return dst, nil
}

func substrBounds(what string, v int64) error {
	switch {
	case v < substrMin:
		return fmt.Errorf("substring %s outside of supported range (< %d)", what, int64(substrMin))
	case v > substrMax:
		return fmt.Errorf("substring %s outside of supported range (> %d)", what, int64(substrMax))
	}
	return nil
}

// substrSpan returns the half-open index range [lo, hi) of the characters
// substring takes from a string of size characters, clipped to the string.
func substrSpan(size, start, n int64) (lo, hi int64) {
	from := start - 1
	if start < 0 {
		from = size + start
	}
	lo, hi = from, from+n
	if n < 0 {
		lo, hi = from+n, from
	}
	return max(lo, 0), min(hi, size)
}

// substringVec is substringRow for a whole batch, appending each result
// into one output buffer instead of making a Go string per row (TPC-H
// Q22 cuts the country code out of every customer's phone this way).
func substringVec(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
	for i := 0; i < n; i++ {
		if out.Null == nil || !out.Null[i] {
			start, size := a[1].I[i], int64(substrMax)
			if len(a) > 2 {
				size = a[2].I[i]
			}
			var err error
			if out.Data, err = appendSubstring(out.Data, a[0].Str(i), start, size); err != nil {
				return nil, fmt.Errorf("substring: %w", err)
			}
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}

// isASCII reports whether b holds ASCII bytes only (one byte a character).
func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

package function

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Unicode normalization: nfc_normalize, and strip_accents built on the
// same canonical decompositions (golang.org/x/text's tables, so that
// every precomposed letter of Unicode is covered, not a hand-made list).

func init() {
	register(map[string]*Scalar{
		"nfc_normalize": {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: bytesMap(tString, appendNFC)},
	})
}

// appendNFC appends s in Normalization Form C (canonical composition):
// "e" followed by U+0301 becomes "é", while compatibility characters
// (the ligature "ﬁ", full-width letters) stay as they are, as DuckDB's
// nfc_normalize keeps them.
func appendNFC(dst, s []byte) ([]byte, error) {
	if isASCII(s) { // ASCII is always in NFC: skip the tables
		return append(dst, s...), nil
	}
	return norm.NFC.Append(dst, s...), nil
}

// stripAccentsBatch is strip_accents: each string decomposed
// canonically, its marks (categories Mn, Mc and Me) dropped and the rest
// composed again, as DuckDB (utf8proc's STRIPMARK) does: "ḗ" is "e", the
// kana "が" is "か", while letters that are not a base letter with
// marks (ø, ß, ł) stay. The two buffers are reused across the batch.
func stripAccentsBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
	var decomposed, bare []byte
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			s := a[0].Str(i)
			if isASCII(s) {
				out.Data = append(out.Data, s...)
			} else {
				decomposed = norm.NFD.Append(decomposed[:0], s...)
				bare = appendWithoutMarks(bare[:0], decomposed)
				out.Data = norm.NFC.Append(out.Data, bare...)
			}
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}

// appendWithoutMarks appends s without its combining marks (invalid
// UTF-8 bytes are kept as they are).
func appendWithoutMarks(dst, s []byte) []byte {
	for len(s) > 0 {
		r, n := utf8.DecodeRune(s)
		if r < utf8.RuneSelf || !unicode.Is(unicode.M, r) {
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return dst
}

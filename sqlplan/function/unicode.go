package function

import (
	"sync"
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
// marks (ø, ß, ł) stay. It goes a character at a time (appendBare),
// composing again only the strings that need it; the scratch buffer is
// reused across the batch.
func stripAccentsBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
	var bare []byte
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			var final bool
			bare, final = appendBare(bare[:0], a[0].Str(i))
			if final || norm.NFC.IsNormal(bare) {
				out.Data = append(out.Data, bare...)
			} else {
				out.Data = norm.NFC.Append(out.Data, bare...)
			}
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}

// bareLimit bounds the code points bareTable holds.
const bareLimit = 0x3000

// bareTable is, for each code point below bareLimit, what strip_accents
// makes of it alone (NFC of its decomposition without marks), built from
// x/text's tables on first use. A code point's result there does not
// depend on its neighbours: after the marks are gone, the only characters
// that still compose are Hangul jamo (U+1100..U+11FF), which stay out of
// the table's use.
var bareTable struct {
	once sync.Once
	s    [bareLimit]string
}

func bareOf(r rune) string {
	bareTable.once.Do(func() {
		for c := rune(utf8.RuneSelf); c < bareLimit; c++ {
			if utf8.ValidRune(c) {
				d := norm.NFD.String(string(c))
				bareTable.s[c] = string(norm.NFC.Bytes(appendWithoutMarks(nil, []byte(d))))
			}
		}
	})
	return bareTable.s[r]
}

// appendBare appends s with each character replaced by its canonical
// decomposition without marks: through bareTable below U+3000 (but for
// Hangul jamo), else through x/text's decomposition. Every character of a
// nonzero combining class is a mark, so what stays needs no canonical
// reordering: the result is s's NFD without its marks. final reports that
// it is also composed already (each character came from bareTable);
// otherwise it still takes NFC. Invalid UTF-8 bytes are kept as they are.
func appendBare(dst, s []byte) (_ []byte, final bool) {
	final = true
	for len(s) > 0 {
		if c := s[0]; c < utf8.RuneSelf {
			dst = append(dst, c)
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRune(s)
		switch {
		case r == utf8.RuneError:
			dst = append(dst, s[:n]...)
		case r < bareLimit && (r < 0x1100 || r > 0x11FF):
			dst = append(dst, bareOf(r)...)
		case unicode.Is(unicode.M, r):
			final = false
		default:
			final = false
			if d := norm.NFD.Properties(s[:n]).Decomposition(); d != nil {
				dst = appendWithoutMarks(dst, d)
			} else {
				dst = append(dst, s[:n]...)
			}
		}
		s = s[n:]
	}
	return dst, final
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

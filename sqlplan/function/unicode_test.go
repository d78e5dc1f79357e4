package function

import (
	"testing"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// batchStrings runs a library function's batch kernel over args and
// returns its rows as strings, "NULL" for a NULL row.
func batchStrings(t *testing.T, name string, args ...*vec.Col) []string {
	t.Helper()
	out, err := Scalars()[name].Batch(args, args[0].Len)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rows := make([]string, out.Len)
	for i := range rows {
		rows[i] = "NULL"
		if !out.IsNull(i) {
			rows[i] = string(out.Str(i))
		}
	}
	return rows
}

// checkRows compares a kernel's rows with the expected ones.
func checkRows(t *testing.T, name string, in, got, want []string) {
	t.Helper()
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s(%+q) = %+q, want %+q", name, in[i], got[i], want[i])
		}
	}
}

// TestNFCNormalize: canonical composition (decomposed letters, Hangul
// jamo, singletons as the Ohm sign, marks put in canonical order) while
// compatibility characters stay, as DuckDB's nfc_normalize gives them.
func TestNFCNormalize(t *testing.T) {
	in := []string{"ardèch", "arde\u0300ch", "", "plain ascii", "\ufb01", "\u2126", "\u1112\u1161\u11ab",
		"q\u0307\u0323", "\u1e02\u0323", "\xff\xfeA\u0301"}
	want := []string{"ardèch", "ardèch", "", "plain ascii", "\ufb01", "\u03a9", "\ud55c",
		"q\u0323\u0307", "\u1e04\u0307", "\xff\xfeÁ"}
	col := strCol(in...)
	checkRows(t, "nfc_normalize", in, batchStrings(t, "nfc_normalize", col), want)
	col.SetNull(1)
	if got := batchStrings(t, "nfc_normalize", col); got[1] != "NULL" {
		t.Errorf("a NULL row gave %q", got[1])
	}
}

// TestStripAccents: marks of every kind (Mn, Mc, Me) go, from
// precomposed letters of any block (Greek extended, kana) as from
// decomposed ones; letters that are no base letter with marks stay.
func TestStripAccents(t *testing.T) {
	in := []string{"ardèch", "arde\u0300ch", "Ḝ", "ǖ", "\u1f00", "が", "가", "\u0915\u093f", "a\u20dd",
		"\u212b", "ø ß ł ı", "\ufb01", "\u0344", "", "ascii", "\xffé"}
	want := []string{"ardech", "ardech", "E", "u", "α", "か", "가", "क", "a",
		"A", "ø ß ł ı", "\ufb01", "", "", "ascii", "\xffe"}
	checkRows(t, "strip_accents", in, batchStrings(t, "strip_accents", strCol(in...)), want)
}

// TestStripAccentsEveryCodePoint: the one-character-at-a-time kernel
// gives what the definition gives, NFC(NFD(s) without marks), for every
// code point alone, after a letter, and before a combining mark.
func TestStripAccentsEveryCodePoint(t *testing.T) {
	reference := func(s string) string {
		return string(norm.NFC.Bytes(appendWithoutMarks(nil, norm.NFD.Bytes([]byte(s)))))
	}
	var in []string
	for r := rune(0x80); r <= 0x2FFFF; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		c := string(r)
		in = append(in, c, "a"+c, c+"\u0301", "\u1100"+c)
	}
	got := batchStrings(t, "strip_accents", strCol(in...))
	bad := 0
	for i, s := range in {
		if want := reference(s); got[i] != want && bad < 10 {
			bad++
			t.Errorf("strip_accents(%+q) = %+q, want %+q", s, got[i], want)
		}
	}
}

package function

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// benchText is a batch of 4096 rows of words: ASCII, accented Latin,
// decomposed marks and emoji, in the proportions given.
func benchText(ascii bool) *vec.Col {
	words := []string{"plain", "words", "of", "text"}
	if !ascii {
		words = append(words, "ardèche", "Ærøskøbing", "e\u0301te\u0301", "🤦🏼\u200d♂️", "Ḝ")
	}
	rows := make([]string, 4096)
	for i := range rows {
		var b strings.Builder
		for k := range 6 {
			b.WriteString(words[(i+k*7)%len(words)])
			b.WriteByte(' ')
		}
		rows[i] = b.String()
	}
	return strCol(rows...)
}

// benchKernel runs a one-argument batch kernel over the batch.
func benchKernel(b *testing.B, name string, col *vec.Col) {
	f := Scalars()[name].Batch
	b.SetBytes(int64(len(col.Data)))
	for b.Loop() {
		if _, err := f([]*vec.Col{col}, col.Len); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStripAccentsASCII(b *testing.B)   { benchKernel(b, "strip_accents", benchText(true)) }
func BenchmarkStripAccentsMixed(b *testing.B)   { benchKernel(b, "strip_accents", benchText(false)) }
func BenchmarkNFCNormalizeMixed(b *testing.B)   { benchKernel(b, "nfc_normalize", benchText(false)) }
func BenchmarkLengthGraphemeASCII(b *testing.B) { benchKernel(b, "length_grapheme", benchText(true)) }
func BenchmarkLengthGraphemeMixed(b *testing.B) { benchKernel(b, "length_grapheme", benchText(false)) }

// Package textwidth measures how many terminal cells text occupies, for
// pqsql's tables and line editor: combining marks take none, East Asian
// wide characters and most emoji take two, everything else one.
package textwidth

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// wide are the ranges of code points a terminal draws two cells wide
// (East Asian Wide and Fullwidth, and the emoji blocks).
var wide = [][2]rune{
	{0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC},
	{0x2E80, 0x303E}, {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF},
	{0xA000, 0xA4CF}, {0xA960, 0xA97F}, {0xAC00, 0xD7A3}, {0xF900, 0xFAFF},
	{0xFE10, 0xFE19}, {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6},
	{0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F900, 0x1F9FF},
	{0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
}

// Rune is the number of cells r occupies.
func Rune(r rune) int {
	switch {
	case r == 0:
		return 0
	case r < 0x300:
		if r < 0x20 || (r >= 0x7F && r < 0xA0) {
			return 0
		}
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	for _, w := range wide {
		if r < w[0] {
			return 1
		}
		if r <= w[1] {
			return 2
		}
	}
	return 1
}

// String is the number of cells s occupies.
func String(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			for _, r := range s[i:] {
				n += Rune(r)
			}
			return n
		}
		if s[i] >= 0x20 && s[i] != 0x7F {
			n++
		}
	}
	return n
}

// Truncate shortens s to at most w cells, ending it with an ellipsis when
// something was cut.
func Truncate(s string, w int) string {
	if String(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	n := 0
	for _, r := range s {
		rw := Rune(r)
		if n+rw > w-1 {
			break
		}
		b.WriteRune(r)
		n += rw
	}
	b.WriteString("…")
	return b.String()
}

// Pad appends spaces to s up to w cells (or prepends them when right is
// set).
func Pad(s string, w int, right bool) string {
	n := w - String(s)
	if n <= 0 {
		return s
	}
	if right {
		return strings.Repeat(" ", n) + s
	}
	return s + strings.Repeat(" ", n)
}

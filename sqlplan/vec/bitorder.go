package vec

import (
	"bytes"
	"strings"
)

// CompareBits orders two BIT values (strings of '0' and '1') as DuckDB
// does. DuckDB compares the bytes it stores: a first byte with the
// number of padding bits that fill the bit string to whole bytes, then
// the padded bits. So strings with less padding come first ('000' and
// '00000000' before '1'), and strings of one padding compare bit by bit,
// a prefix first, which is the order of their text.
func CompareBits(a, b []byte) int {
	if pa, pb := bitPadding(len(a)), bitPadding(len(b)); pa != pb {
		return pa - pb
	}
	return bytes.Compare(a, b)
}

// CompareBitText is CompareBits of two strings.
func CompareBitText(a, b string) int {
	if pa, pb := bitPadding(len(a)), bitPadding(len(b)); pa != pb {
		return pa - pb
	}
	return strings.Compare(a, b)
}

// bitPadding is the number of bits that fill n bits to whole bytes.
func bitPadding(n int) int { return (8 - n%8) % 8 }

// CompareStrings orders two strings of type t: a BIT by CompareBits,
// others bytewise.
func CompareStrings(t Type, a, b []byte) int {
	if t.Bit {
		return CompareBits(a, b)
	}
	return bytes.Compare(a, b)
}

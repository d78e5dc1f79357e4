package function

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Text and byte functions of DuckDB's list that carquet lacked: string
// distances, binary and hexadecimal text, URL encoding, byte sizes and
// regular-expression escaping, with DuckDB's (v1.5) results and error
// messages. Each is a batch kernel appending its results into one buffer.

var tBytes = vec.Type{Kind: vec.KBytes}

func init() {
	register(map[string]*Scalar{
		"hamming":     {Min: 2, Max: 2, Rule: Sig(tInt, tString), Batch: textInt2(hamming)},
		"mismatches":  {Min: 2, Max: 2, Rule: Sig(tInt, tString), Batch: textInt2(hamming)},
		"jaccard":     {Min: 2, Max: 2, Rule: Sig(tFloat, tString), Batch: jaccardBatch},
		"bin":         {Min: 1, Max: 1, Rule: hexRule, RowFor: binRow, Exact: true},
		"to_binary":   {Min: 1, Max: 1, Rule: hexRule, RowFor: binRow, Exact: true},
		"unbin":       {Min: 1, Max: 1, Rule: Sig(tBytes, tString), Batch: bytesMap(tBytes, appendUnbin)},
		"from_binary": {Min: 1, Max: 1, Rule: Sig(tBytes, tString), Batch: bytesMap(tBytes, appendUnbin)},
		"unhex":       {Min: 1, Max: 1, Rule: Sig(tBytes, tString), Batch: bytesMap(tBytes, appendUnhex)},
		"from_hex":    {Min: 1, Max: 1, Rule: Sig(tBytes, tString), Batch: bytesMap(tBytes, appendUnhex)},
		"encode": {Min: 1, Max: 1, Rule: Sig(tBytes, tString), Batch: bytesMap(tBytes, func(dst, s []byte) ([]byte, error) {
			return append(dst, s...), nil
		})},
		"decode":                    {Min: 1, Max: 2, Rule: Sig(tString, tBytes, tString), Batch: decodeBatch},
		"url_encode":                {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: bytesMap(tString, appendURLEncode)},
		"url_decode":                {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: bytesMap(tString, appendURLDecode)},
		"regexp_escape":             {Min: 1, Max: 1, Rule: Sig(tString, tString), Batch: bytesMap(tString, appendRegexpEscape)},
		"format_bytes":              {Min: 1, Max: 1, Rule: Sig(tString, tInt), Batch: formatBytesBatch(1024)},
		"formatreadablesize":        {Min: 1, Max: 1, Rule: Sig(tString, tInt), Batch: formatBytesBatch(1024)},
		"formatreadabledecimalsize": {Min: 1, Max: 1, Rule: Sig(tString, tInt), Batch: formatBytesBatch(1000)},
		"parse_formatted_bytes":     {Min: 1, Max: 1, Rule: Sig(vec.Type{Kind: vec.KUint}, tString), Batch: parseBytesBatch},
	})
}

// bytesMap is the batch kernel of a function of one string (VARCHAR or
// BLOB) whose result, of type t, f appends to dst.
func bytesMap(t vec.Type, f func(dst, s []byte) ([]byte, error)) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: t, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
		for i := 0; i < n; i++ {
			if out.Null == nil || !out.Null[i] {
				var err error
				if out.Data, err = f(out.Data, a[0].Str(i)); err != nil {
					return nil, err
				}
			}
			out.Off[i+1] = int32(len(out.Data))
		}
		return out, nil
	}
}

// textInt2 is the batch kernel of an integer function of two strings.
func textInt2(f func(x, y []byte) (int64, error)) func(a []*vec.Col, n int) (*vec.Col, error) {
	return func(a []*vec.Col, n int) (*vec.Col, error) {
		out := &vec.Col{T: tInt, Len: n, Null: vec.MergeNulls(n, a...), I: make([]int64, n)}
		for i := range n {
			if out.Null == nil || !out.Null[i] {
				var err error
				if out.I[i], err = f(a[0].Str(i), a[1].Str(i)); err != nil {
					return nil, err
				}
			}
		}
		return out, nil
	}
}

// hamming counts the bytes at which two strings of one length differ.
func hamming(x, y []byte) (int64, error) {
	if len(x) == 0 || len(y) == 0 {
		return 0, fmt.Errorf("Mismatch Function: Strings must be of length > 0!")
	}
	if len(x) != len(y) {
		return 0, fmt.Errorf("Mismatch Function: Strings must be of equal length!")
	}
	var d int64
	for k := range x {
		if x[k] != y[k] {
			d++
		}
	}
	return d, nil
}

// jaccardBatch is the Jaccard similarity of the sets of bytes of two
// strings: |x ∩ y| / |x ∪ y|.
func jaccardBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tFloat, Len: n, Null: vec.MergeNulls(n, a...), F: make([]float64, n)}
	for i := range n {
		if out.Null != nil && out.Null[i] {
			continue
		}
		x, y := a[0].Str(i), a[1].Str(i)
		if len(x) == 0 || len(y) == 0 {
			return nil, fmt.Errorf("Jaccard Function: An argument too short!")
		}
		var sx, sy [4]uint64
		for _, c := range x {
			sx[c/64] |= 1 << (c % 64)
		}
		for _, c := range y {
			sy[c/64] |= 1 << (c % 64)
		}
		var inter, union int
		for w := range sx {
			inter += popcount(sx[w] & sy[w])
			union += popcount(sx[w] | sy[w])
		}
		out.F[i] = float64(inter) / float64(union)
	}
	return out, nil
}

func popcount(x uint64) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// binRow is bin (to_binary): an integer's 64 bits without leading zeros
// (a negative number shows all 64), or a string's bytes, 8 bits each.
func binRow(types []vec.Type) func(a []*vec.Col, i int) (any, error) {
	if types[0].Op() == vec.KInt {
		return func(a []*vec.Col, i int) (any, error) {
			return strconv.FormatUint(uint64(a[0].I[i]), 2), nil
		}
	}
	return func(a []*vec.Col, i int) (any, error) {
		s := a[0].Str(i)
		b := make([]byte, 0, 8*len(s))
		for _, c := range s {
			for bit := 7; bit >= 0; bit-- {
				b = append(b, '0'+c>>bit&1)
			}
		}
		return string(b), nil
	}
}

// appendUnbin decodes binary digits into bytes, 8 to a byte from the
// right: the leftmost byte takes what is left over ('0100000101' is
// 0x01 0x05).
func appendUnbin(dst, s []byte) ([]byte, error) {
	for _, c := range s {
		if c != '0' && c != '1' {
			return nil, fmt.Errorf("Invalid input for binary digit: %s", string(c))
		}
	}
	first := len(s) % 8
	if first == 0 && len(s) > 0 {
		first = 8
	}
	for lo := 0; lo < len(s); {
		hi := lo + 8
		if lo == 0 {
			hi = first
		}
		var b byte
		for _, c := range s[lo:hi] {
			b = b<<1 | (c - '0')
		}
		dst = append(dst, b)
		lo = hi
	}
	return dst, nil
}

// appendUnhex decodes hexadecimal digits into bytes; an odd count makes
// the first digit a byte of its own ('414' is 0x04 0x14).
func appendUnhex(dst, s []byte) ([]byte, error) {
	val := func(c byte) (byte, error) {
		switch {
		case '0' <= c && c <= '9':
			return c - '0', nil
		case 'a' <= c && c <= 'f':
			return c - 'a' + 10, nil
		case 'A' <= c && c <= 'F':
			return c - 'A' + 10, nil
		}
		return 0, fmt.Errorf("Invalid input for hex digit: %s", string(c))
	}
	k := 0
	if len(s)%2 == 1 {
		v, err := val(s[0])
		if err != nil {
			return nil, err
		}
		dst, k = append(dst, v), 1
	}
	for ; k < len(s); k += 2 {
		hi, err := val(s[k])
		if err != nil {
			return nil, err
		}
		lo, err := val(s[k+1])
		if err != nil {
			return nil, err
		}
		dst = append(dst, hi<<4|lo)
	}
	return dst, nil
}

// decodeBatch is decode(blob): the bytes as text, which must be UTF-8.
// (DuckDB's second argument, 'replace' or 'ignore', is not taken: its
// replacement spans are its own.)
func decodeBatch(a []*vec.Col, n int) (*vec.Col, error) {
	out := &vec.Col{T: tString, Len: n, Null: vec.MergeNulls(n, a...), Off: make([]int32, n+1)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			s := a[0].Str(i)
			if !utf8.Valid(s) {
				return nil, fmt.Errorf("Failure in decode: could not convert blob to UTF8 string, the blob contained invalid UTF8 characters")
			}
			out.Data = append(out.Data, s...)
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out, nil
}

const hexDigits = "0123456789ABCDEF"

// appendURLEncode percent-encodes every byte but the unreserved ones of
// RFC 3986 (letters, digits, - _ . ~).
func appendURLEncode(dst, s []byte) ([]byte, error) {
	for _, c := range s {
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			dst = append(dst, c)
			continue
		}
		dst = append(dst, '%', hexDigits[c>>4], hexDigits[c&15])
	}
	return dst, nil
}

// appendURLDecode decodes %XX escapes (a malformed one stays as it is; +
// stays +); the result must be UTF-8.
func appendURLDecode(dst, s []byte) ([]byte, error) {
	start := len(dst)
	for k := 0; k < len(s); k++ {
		if s[k] == '%' && k+2 < len(s) && isHexDigit(s[k+1]) && isHexDigit(s[k+2]) {
			b, _ := appendUnhex(nil, s[k+1:k+3])
			dst = append(dst, b[0])
			k += 2
			continue
		}
		dst = append(dst, s[k])
	}
	if !utf8.Valid(dst[start:]) {
		return nil, fmt.Errorf("Failed to decode string %q using URL decoding - decoded value is invalid UTF8", s)
	}
	return dst, nil
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// appendRegexpEscape escapes the bytes a regular expression reads as
// syntax: every ASCII byte but letters, digits and _ (non-ASCII bytes stay,
// NUL becomes \x00).
func appendRegexpEscape(dst, s []byte) ([]byte, error) {
	for _, c := range s {
		switch {
		case c == 0:
			dst = append(dst, `\x00`...)
		case c >= utf8.RuneSelf || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_':
			dst = append(dst, c)
		default:
			dst = append(dst, '\\', c)
		}
	}
	return dst, nil
}

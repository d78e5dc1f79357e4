package function

import "fmt"

// BLOB text, as DuckDB's casts: "\xHH" stands for a byte and every other
// character of the text must be ASCII; printed, a BLOB shows printable
// ASCII as itself (but \, ' and ") and every other byte as \xHH.

// BlobFromText is VARCHAR to BLOB.
func BlobFromText(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if i+3 >= len(s) {
				return nil, fmt.Errorf("Invalid hex escape code encountered in string -> blob conversion of string \"%s\": unterminated escape code at end of blob", s)
			}
			hi, lo := hexDigit(s[i+2]), hexDigit(s[i+3])
			if s[i+1] != 'x' || hi < 0 || lo < 0 {
				return nil, fmt.Errorf("Invalid hex escape code encountered in string -> blob conversion of string \"%s\": %s", s, s[i:i+4])
			}
			out = append(out, byte(hi<<4|lo))
			i += 3
		case c < 0x80:
			out = append(out, c)
		default:
			return nil, fmt.Errorf("Invalid byte encountered in STRING -> BLOB conversion of string \"%s\". All non-ascii characters must be escaped with hex codes (e.g. \\xAA)", s)
		}
	}
	return out, nil
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

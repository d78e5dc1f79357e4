package textfile

import (
	"io"
	"strings"
	"testing"
)

// decodeUTF8 on latin-1 and UTF-16 text, read in small pieces so that
// characters straddle the reads.
func TestDecodeUTF8(t *testing.T) {
	long := strings.Repeat("\xe9", utf8Chunk+3)
	for _, c := range []struct {
		enc, in, want string
		err           bool
	}{
		{"latin-1", "caf\xe9 na\xefve\n\xff", "café naïve\nÿ", false},
		{"latin-1", long, strings.Repeat("é", utf8Chunk+3), false},
		{"utf-16", "a\x00\xe9\x00\xac\x20", "aé€", false},
		{"utf-16", "\xff\xfea\x00", "a", false},                // the byte order mark
		{"utf-16", "=\xd8\x00\xde!\x00", "\U0001f600!", false}, // a surrogate pair
		{"utf-16", "=\xd8!\x00", "\ufffd!", false},             // an unpaired surrogate
		{"utf-16", "a\x00b", "a", true},                        // ends inside a character
		{"utf-8", "caf\xc3\xa9", "café", false},                // as it is
	} {
		r := decodeUTF8(io.NopCloser(strings.NewReader(c.in)), c.enc)
		var got strings.Builder
		buf := make([]byte, 3)
		var err error
		for {
			var n int
			n, err = r.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				break
			}
		}
		if got.String() != c.want || (err != io.EOF) != c.err {
			t.Errorf("%s %q: got %q, %v", c.enc, c.in, got.String(), err)
		}
	}
}

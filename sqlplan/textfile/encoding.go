package textfile

import (
	"bufio"
	"errors"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// read_csv's encoding option: a file in latin-1 or UTF-16 (little-endian,
// as DuckDB reads it, with or without its byte order mark) is decoded to
// UTF-8 as it is read, so that the splitter and the values see UTF-8
// only.

// decodeUTF8 is rc's bytes decoded from encoding to UTF-8 (rc itself for
// utf-8).
func decodeUTF8(rc io.ReadCloser, encoding string) io.ReadCloser {
	var decode func(*bufio.Reader, []byte) ([]byte, error)
	switch encoding {
	case "latin-1":
		decode = appendLatin1
	case "utf-16":
		decode = appendUTF16
	default:
		return rc
	}
	return &utf8Reader{src: bufio.NewReaderSize(rc, 1<<16), closer: rc, decode: decode, bom: encoding == "utf-16"}
}

// utf8Reader decodes its source one character at a time into a buffer
// that Read empties.
type utf8Reader struct {
	src    *bufio.Reader
	closer io.Closer
	decode func(*bufio.Reader, []byte) ([]byte, error) // appends one character
	buf    []byte                                      // decoded
	at     int                                         // the bytes of buf read
	err    error
	bom    bool // nothing decoded yet of UTF-16: its byte order mark may come
}

// utf8Chunk is how much a Read decodes at most at once.
const utf8Chunk = 1 << 14

func (r *utf8Reader) Read(p []byte) (int, error) {
	if r.at == len(r.buf) {
		r.buf, r.at = r.buf[:0], 0
		if r.bom {
			r.bom = false
			r.skipBOM()
		}
		for len(r.buf) < utf8Chunk && r.err == nil {
			r.buf, r.err = r.decode(r.src, r.buf)
		}
	}
	n := copy(p, r.buf[r.at:])
	r.at += n
	if n == 0 {
		return 0, r.err
	}
	return n, nil
}

// skipBOM skips UTF-16's little-endian byte order mark.
func (r *utf8Reader) skipBOM() {
	if b, err := r.src.Peek(2); err == nil && b[0] == 0xFF && b[1] == 0xFE {
		r.src.Discard(2)
	}
}

func (r *utf8Reader) Close() error { return r.closer.Close() }

// appendLatin1 decodes one latin-1 byte, which is the code point of the
// same number.
func appendLatin1(src *bufio.Reader, dst []byte) ([]byte, error) {
	b, err := src.ReadByte()
	if err != nil {
		return dst, err
	}
	return utf8.AppendRune(dst, rune(b)), nil
}

// errNotUTF16 is the error of a file that ends inside a character.
var errNotUTF16 = errors.New("the file is not UTF-16 encoded: it ends inside a character")

// appendUTF16 decodes one UTF-16 character: a 16-bit unit, or two for a
// surrogate pair (an unpaired surrogate is U+FFFD).
func appendUTF16(src *bufio.Reader, dst []byte) ([]byte, error) {
	u, err := readUnit(src)
	if err != nil {
		return dst, err
	}
	if !utf16.IsSurrogate(rune(u)) {
		return utf8.AppendRune(dst, rune(u)), nil
	}
	if b, err := src.Peek(2); err == nil {
		if c := utf16.DecodeRune(rune(u), rune(uint16(b[0])|uint16(b[1])<<8)); c != utf8.RuneError {
			src.Discard(2)
			return utf8.AppendRune(dst, c), nil
		}
	}
	return utf8.AppendRune(dst, utf8.RuneError), nil
}

// readUnit reads a little-endian 16-bit unit; io.EOF only at a unit's
// boundary.
func readUnit(src *bufio.Reader) (uint16, error) {
	lo, err := src.ReadByte()
	if err != nil {
		return 0, err
	}
	hi, err := src.ReadByte()
	if errors.Is(err, io.EOF) {
		return 0, errNotUTF16
	}
	if err != nil {
		return 0, err
	}
	return uint16(lo) | uint16(hi)<<8, nil
}

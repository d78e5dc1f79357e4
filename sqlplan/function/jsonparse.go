package function

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// The JSON parser of the JSON functions and of read_json's files: one
// pass over the bytes into a tree of jsonNode, as strict as
// encoding/json (RFC 8259 values, one document, whitespace around it).
// A string's text is kept as written when it needs no change (no escape,
// no control or invalid byte, no U+2028/2029) and otherwise made by
// encoding/json's unquoting and jsonString, so the text is what the
// Token-based reader this replaces gave; only the common case is
// faster. Nesting is bounded as encoding/json bounds it.

const jsonMaxDepth = 10000

// jsonParser reads one document.
type jsonParser struct {
	doc   []byte
	pos   int
	depth int
}

// errAt is a syntax error at the parser's position.
func (p *jsonParser) errAt(format string, args ...any) error {
	return fmt.Errorf("at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *jsonParser) skipSpace() {
	for p.pos < len(p.doc) {
		switch p.doc[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value reads the value at the position (after its leading spaces).
func (p *jsonParser) value() (*jsonNode, error) {
	p.skipSpace()
	if p.pos >= len(p.doc) {
		return nil, p.errAt("unexpected end of JSON input")
	}
	switch c := p.doc[p.pos]; {
	case c == '{' || c == '[':
		return p.container(c)
	case c == '"':
		text, _, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jsonNode{kind: 's', text: text}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	}
	for _, lit := range []string{"true", "false", "null"} {
		if len(p.doc)-p.pos >= len(lit) && string(p.doc[p.pos:p.pos+len(lit)]) == lit {
			p.pos += len(lit)
			return &jsonNode{kind: 's', text: lit}, nil
		}
	}
	return nil, p.errAt("invalid character %q looking for beginning of value", p.doc[p.pos])
}

// container reads an object or an array, its opening byte at the
// position.
func (p *jsonParser) container(open byte) (*jsonNode, error) {
	p.depth++
	if p.depth > jsonMaxDepth {
		return nil, p.errAt("exceeded max depth")
	}
	defer func() { p.depth-- }()
	p.pos++
	n := &jsonNode{kind: open}
	closer := byte(']')
	if open == '{' {
		closer = '}'
	}
	p.skipSpace()
	if p.pos < len(p.doc) && p.doc[p.pos] == closer {
		p.pos++
		return n, nil
	}
	for {
		if open == '{' {
			p.skipSpace()
			if p.pos >= len(p.doc) || p.doc[p.pos] != '"' {
				return nil, p.errAt("expected a string key in an object")
			}
			_, key, err := p.str()
			if err != nil {
				return nil, err
			}
			p.skipSpace()
			if p.pos >= len(p.doc) || p.doc[p.pos] != ':' {
				return nil, p.errAt("expected ':' after an object key")
			}
			p.pos++
			n.keys = append(n.keys, key)
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		n.vals = append(n.vals, v)
		p.skipSpace()
		if p.pos >= len(p.doc) {
			return nil, p.errAt("unexpected end of JSON input")
		}
		switch p.doc[p.pos] {
		case ',':
			p.pos++
		case closer:
			p.pos++
			return n, nil
		default:
			return nil, p.errAt("invalid character %q after a value in %c...%c", p.doc[p.pos], open, closer)
		}
	}
}

// str reads a string: its JSON text (canonical, as jsonString writes
// it) and its value.
func (p *jsonParser) str() (text, value string, err error) {
	start := p.pos
	p.pos++
	plain := true
	for {
		if p.pos >= len(p.doc) {
			return "", "", p.errAt("unexpected end of JSON input in a string")
		}
		c := p.doc[p.pos]
		switch {
		case c == '"':
			p.pos++
			raw := p.doc[start:p.pos]
			if plain {
				s := string(raw)
				return s, s[1 : len(s)-1], nil
			}
			return p.unquote(raw)
		case c == '\\':
			plain = false
			p.pos += 2
		case c < 0x20:
			return "", "", p.errAt("invalid character %q in string literal", c)
		case c < utf8.RuneSelf:
			p.pos++
		default:
			r, size := utf8.DecodeRune(p.doc[p.pos:])
			if r == utf8.RuneError || r == '\u2028' || r == '\u2029' {
				plain = false
			}
			p.pos += size
		}
	}
}

// unquote is a string that needs more than its bytes: escapes,
// invalid UTF-8 or the characters jsonString escapes.
func (p *jsonParser) unquote(raw []byte) (text, value string, err error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", "", p.errAt("%v", err)
	}
	return jsonString(s), s, nil
}

// number reads a number as RFC 8259 writes one; its text is kept.
func (p *jsonParser) number() (*jsonNode, error) {
	start := p.pos
	if p.doc[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		k := p.pos
		for p.pos < len(p.doc) && p.doc[p.pos] >= '0' && p.doc[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - k
	}
	switch {
	case p.pos < len(p.doc) && p.doc[p.pos] == '0':
		p.pos++
	case digits() == 0:
		return nil, p.errAt("invalid number")
	}
	if p.pos < len(p.doc) && p.doc[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errAt("invalid number: no digits after the decimal point")
		}
	}
	if p.pos < len(p.doc) && (p.doc[p.pos] == 'e' || p.doc[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.doc) && (p.doc[p.pos] == '+' || p.doc[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errAt("invalid number: no digits in the exponent")
		}
	}
	return &jsonNode{kind: 's', text: string(p.doc[start:p.pos])}, nil
}

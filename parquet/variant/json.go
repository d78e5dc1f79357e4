package variant

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// ToJSON renders a Variant as JSON text, for display (SQL shells, CSV
// output). Objects keep their encoded (name-sorted) field order. Types JSON
// lacks are written as strings: dates "2024-11-07", times "12:33:54.123456",
// timestamps ISO 8601 ("2024-11-07T12:33:54.123456+00:00", no offset for
// NTZ), UUIDs canonical, binary in standard base64; NaN and infinities as
// "NaN", "Infinity", "-Infinity". Decimals are exact numbers. Invalid UTF-8
// in strings becomes U+FFFD.
func ToJSON(metadata, value []byte) (string, error) {
	out, err := AppendJSON(nil, metadata, value)
	return string(out), err
}

// AppendJSON appends ToJSON's text to dst.
func AppendJSON(dst, metadata, value []byte) ([]byte, error) {
	m, err := ParseMetadata(metadata)
	if err != nil {
		return dst, err
	}
	return m.AppendJSON(dst, value)
}

// AppendJSON appends the JSON text of a value encoded against m.
func (m Metadata) AppendJSON(dst, value []byte) ([]byte, error) {
	j := jsonWriter{d: decoder{meta: m, budget: len(value)}}
	return j.value(dst, value, 0)
}

type jsonWriter struct{ d decoder }

func (j *jsonWriter) value(dst, v []byte, depth int) ([]byte, error) {
	if len(v) == 0 {
		return dst, invalid("empty value")
	}
	if err := j.d.spend(1); err != nil {
		return dst, err
	}
	switch v[0] & 3 {
	case basicShortString:
		n := int(v[0] >> 2)
		if n+1 > len(v) {
			return dst, invalid("short string of %d bytes in %d", n, len(v)-1)
		}
		if err := j.d.spend(n); err != nil {
			return dst, err
		}
		return appendJSONString(dst, v[1:1+n]), nil
	case basicObject, basicArray:
		if depth >= MaxDepth {
			return dst, invalid("nesting deeper than %d", MaxDepth)
		}
		c, err := parseContainer(v)
		if err != nil {
			return dst, err
		}
		if err := j.d.spend(c.n); err != nil {
			return dst, err
		}
		object := v[0]&3 == basicObject
		if object {
			return j.object(dst, v, c, depth)
		}
		dst = append(dst, '[')
		for i := range c.n {
			if i > 0 {
				dst = append(dst, ',')
			}
			e, err := c.elem(v, i)
			if err != nil {
				return dst, err
			}
			if dst, err = j.value(dst, e, depth+1); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	}
	return j.primitive(dst, v)
}

// primitive renders a primitive straight from its bytes; types without a
// cheap direct form go through the decoder.
func (j *jsonWriter) primitive(dst, v []byte) ([]byte, error) {
	n, err := valueSize(v)
	if err != nil {
		return dst, err
	}
	if err := j.d.spend(n - 1); err != nil {
		return dst, err
	}
	p := v[1:n]
	le := binary.LittleEndian
	switch v[0] >> 2 {
	case primNull:
		return append(dst, "null"...), nil
	case primTrue:
		return append(dst, "true"...), nil
	case primFalse:
		return append(dst, "false"...), nil
	case primInt8:
		return strconv.AppendInt(dst, int64(int8(p[0])), 10), nil
	case primInt16:
		return strconv.AppendInt(dst, int64(int16(le.Uint16(p))), 10), nil
	case primInt32:
		return strconv.AppendInt(dst, int64(int32(le.Uint32(p))), 10), nil
	case primInt64:
		return strconv.AppendInt(dst, int64(le.Uint64(p)), 10), nil
	case primDouble:
		return appendJSONFloat(dst, math.Float64frombits(le.Uint64(p)), 64), nil
	case primFloat:
		return appendJSONFloat(dst, float64(math.Float32frombits(le.Uint32(p))), 32), nil
	case primString:
		return appendJSONString(dst, p[4:]), nil
	}
	d := decoder{meta: j.d.meta, budget: n}
	x, err := d.primitive(v)
	if err != nil {
		return dst, err
	}
	return appendJSONPrimitive(dst, x), nil
}

// object writes an object's fields in name order, as Decode returns them:
// fields stored out of order are sorted, duplicates rejected.
func (j *jsonWriter) object(dst, v []byte, c container, depth int) ([]byte, error) {
	names := make([][]byte, c.n)
	sorted := true
	for i := range c.n {
		name, err := j.d.meta.keyBytes(c.fieldID(v, i))
		if err != nil {
			return dst, err
		}
		names[i] = name
		if i > 0 && bytes.Compare(names[i-1], name) >= 0 {
			sorted = false
		}
	}
	var order []int
	if !sorted {
		order = make([]int, c.n)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return bytes.Compare(names[order[a]], names[order[b]]) < 0 })
		for k := 1; k < len(order); k++ {
			if bytes.Equal(names[order[k-1]], names[order[k]]) {
				return dst, invalid("duplicate field %q", names[order[k]])
			}
		}
	}
	dst = append(dst, '{')
	for k := range c.n {
		i := k
		if order != nil {
			i = order[k]
		}
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendJSONString(dst, names[i]), ':')
		e, err := c.elem(v, i)
		if err != nil {
			return dst, err
		}
		if dst, err = j.value(dst, e, depth+1); err != nil {
			return dst, err
		}
	}
	return append(dst, '}'), nil
}

func appendJSONPrimitive(dst []byte, x any) []byte {
	switch x := x.(type) {
	case nil:
		return append(dst, "null"...)
	case bool:
		return strconv.AppendBool(dst, x)
	case int8:
		return strconv.AppendInt(dst, int64(x), 10)
	case int16:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float32:
		return appendJSONFloat(dst, float64(x), 32)
	case float64:
		return appendJSONFloat(dst, x, 64)
	case Decimal:
		return append(dst, x.String()...)
	case []byte:
		dst = append(dst, '"')
		dst = base64.StdEncoding.AppendEncode(dst, x)
		return append(dst, '"')
	case string:
		return appendJSONString(dst, []byte(x))
	case fmt.Stringer: // Date, Time, Timestamp, UUID
		return appendJSONString(dst, []byte(x.String()))
	}
	return append(dst, "null"...)
}

func appendJSONFloat(dst []byte, f float64, bitSize int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(dst, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(dst, `"-Infinity"`...)
	}
	// Like encoding/json: shortest round-trip form, exponent only for very
	// large or small magnitudes.
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(dst, f, format, -1, bitSize)
}

const hexDigits = "0123456789abcdef"

func appendJSONString(dst, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c >= 0x20:
				dst = append(dst, c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, `\ufffd`...)
		} else if r == '\u2028' || r == '\u2029' {
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&15])
		} else {
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// FromJSON encodes JSON text as a Variant with a sorted dictionary: objects,
// arrays, strings, booleans, null, and numbers as the smallest integer that
// holds them, else an exact decimal of at most 38 digits, else a double.
// Duplicate object keys keep the last value, as most JSON readers do.
func FromJSON(text []byte) (metadata, value []byte, err error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	v, err := readJSON(dec, 0)
	if err != nil {
		return nil, nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, fmt.Errorf("variant: trailing data after the JSON value")
	}
	return Encode(v)
}

func readJSON(dec *json.Decoder, depth int) (any, error) {
	if depth >= MaxDepth {
		return nil, fmt.Errorf("variant: JSON nested deeper than %d", MaxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("variant: bad JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '[':
			arr := []any{}
			for dec.More() {
				x, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, x)
			}
			_, err := dec.Token()
			return arr, err
		case '{':
			obj := map[string]any{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("variant: bad JSON: %w", err)
				}
				x, err := readJSON(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj[k.(string)] = x
			}
			_, err := dec.Token()
			return obj, err
		}
		return nil, fmt.Errorf("variant: bad JSON delimiter %v", t)
	}
	return tok, nil
}

package function

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Casts to and from ENUM types (vec.Enum). An ENUM value is its code, so
// casts between an ENUM and text look codes up in the value set; an ENUM
// casts to any other type through VARCHAR, and only text casts to one,
// as DuckDB's casts of enums do.

var tVarchar = vec.Type{Kind: vec.KString}

// enumCast reports whether a cast from from to to involves an ENUM.
func enumCast(from, to vec.Type) bool { return from.Kind == vec.KEnum || to.Kind == vec.KEnum }

// enumError is DuckDB's error for text that is no value of the ENUM to:
// it names the type of the codes.
func enumError(s string, to vec.Type) error {
	return fmt.Errorf("Could not convert string '%s' to UINT%d", s, to.Enum.CodeBits())
}

// castEnumCol casts a column where from or to is an ENUM.
func castEnumCol(c *vec.Col, to vec.Type, try bool) (*vec.Col, error) {
	from, n := c.T, c.Len
	switch {
	case from.Kind == vec.KEnum && to.Kind == vec.KEnum:
		if vec.SameEnum(from.Enum, to.Enum) {
			out := *c
			out.T = to
			return &out, nil
		}
		return castEnumEnum(c, to, try)
	case from.Kind == vec.KEnum:
		text := enumText(c)
		if to.Kind == vec.KString && !to.JSON && !to.Bit {
			text.T = to
			return text, nil
		}
		return CastCol(text, to, try)
	case from.Kind == vec.KNull:
		return vec.NullCol(to, n), nil
	case from.Kind != vec.KString:
		// Only text (and another ENUM) casts to an ENUM, as in DuckDB.
		return nil, fmt.Errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
	}
	out := &vec.Col{T: to, Len: n, I: make([]int64, n)}
	if c.Null != nil {
		out.Null = append([]bool(nil), c.Null[:n]...)
	}
	if c.Dict != nil {
		// Coded text: each dictionary entry is looked up once.
		codes, err := castEnumEnumCodes(c.Dict, to, try)
		if err != nil {
			return nil, err
		}
		for i, k := range c.Codes[:n] {
			if out.Null != nil && out.Null[i] {
				continue
			}
			if codes[k] < 0 {
				out.SetNull(i)
				continue
			}
			out.I[i] = codes[k]
		}
		return out, nil
	}
	for i := 0; i < n; i++ {
		if c.IsNull(i) {
			continue
		}
		code, ok := to.Enum.Code(string(c.Str(i)))
		if !ok {
			if !try {
				return nil, enumError(string(c.Str(i)), to)
			}
			out.SetNull(i)
			continue
		}
		out.I[i] = code
	}
	return out, nil
}

// castEnumEnumCodes looks each value of the text column dict up in the
// ENUM to: -1 for those that are none (with try; else the error).
func castEnumEnumCodes(dict *vec.Col, to vec.Type, try bool) ([]int64, error) {
	codes := make([]int64, dict.Len)
	for k := range codes {
		if dict.IsNull(k) {
			codes[k] = -1
			continue
		}
		s := string(dict.Str(k))
		code, ok := to.Enum.Code(s)
		if !ok {
			if !try {
				return nil, enumError(s, to)
			}
			code = -1
		}
		codes[k] = code
	}
	return codes, nil
}

// castEnumEnum maps the codes of one ENUM to another's through a table
// of the first one's values.
func castEnumEnum(c *vec.Col, to vec.Type, try bool) (*vec.Col, error) {
	n := c.Len
	codes := make([]int64, len(c.T.Enum.Values))
	for k, v := range c.T.Enum.Values {
		code, ok := to.Enum.Code(v)
		if !ok {
			code = -1
		}
		codes[k] = code
	}
	out := &vec.Col{T: to, Len: n, I: make([]int64, n)}
	if c.Null != nil {
		out.Null = append([]bool(nil), c.Null[:n]...)
	}
	for i, x := range c.I[:n] {
		if c.IsNull(i) {
			continue
		}
		if codes[x] < 0 {
			if !try {
				return nil, fmt.Errorf("Type UINT%d with value %d can't be cast because the value is out of range for the destination type UINT%d", c.T.Enum.CodeBits(), x, to.Enum.CodeBits())
			}
			out.SetNull(i)
			continue
		}
		out.I[i] = codes[x]
	}
	return out, nil
}

// enumText is the text of an ENUM column's values, as VARCHAR.
func enumText(c *vec.Col) *vec.Col {
	n := c.Len
	out := &vec.Col{T: tVarchar, Len: n, Null: c.Null, Off: make([]int32, n+1)}
	values := c.T.Enum.Values
	for i, x := range c.I[:n] {
		if !c.IsNull(i) {
			out.Data = append(out.Data, values[x]...)
		}
		out.Off[i+1] = int32(len(out.Data))
	}
	return out
}

// castEnumScalar is castEnumCol for one non-null value.
func castEnumScalar(v any, from, to vec.Type, try bool) (any, error) {
	b := vec.NewBuilder(from, 1)
	b.Add(v)
	out, err := castEnumCol(b.C, to, try)
	if err != nil {
		return nil, err
	}
	return out.Get(0), nil
}

package vec

import (
	"fmt"
	"slices"
	"strings"
)

// Enum is the value set of an ENUM type in its declared order. A value of
// the type is its code: the index of its text in Values, held in Col.I,
// so that comparisons, sorting and grouping run on integers and order by
// the declared order, as DuckDB's do.
type Enum struct {
	Values []string
	codes  map[string]int64
}

// NewEnum makes the ENUM of values; a value named twice is DuckDB's error.
func NewEnum(values []string) (*Enum, error) {
	e := &Enum{Values: values, codes: make(map[string]int64, len(values))}
	for i, v := range values {
		if _, dup := e.codes[v]; dup {
			return nil, fmt.Errorf("Attempted to create ENUM type with duplicate value %s", v)
		}
		e.codes[v] = int64(i)
	}
	return e, nil
}

// Code returns the code of the value s, false when s is not one.
func (e *Enum) Code(s string) (int64, bool) {
	c, ok := e.codes[s]
	return c, ok
}

// CodeBits is the width of the codes DuckDB stores and enum_code returns:
// 8 bits up to 256 values, 16 up to 65536, else 32.
func (e *Enum) CodeBits() int {
	switch n := len(e.Values); {
	case n <= 1<<8:
		return 8
	case n <= 1<<16:
		return 16
	}
	return 32
}

// CodeType is the type of the codes (UTINYINT, USMALLINT or UINTEGER).
func (e *Enum) CodeType() Type { return Type{Kind: KUint, Bits: e.CodeBits()} }

// SQLName is the type's name as DuckDB's typeof shows it:
// ENUM('a', 'b').
func (e *Enum) SQLName() string {
	var b strings.Builder
	b.WriteString("ENUM(")
	for i, v := range e.Values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
	}
	b.WriteString(")")
	return b.String()
}

// SameEnum reports whether a and b are one ENUM: the same values in the
// same order (DuckDB's ENUM types are equal by their values).
func SameEnum(a, b *Enum) bool {
	return a == b || a != nil && b != nil && slices.Equal(a.Values, b.Values)
}

// ParseEnumName reads an ENUM's name as SQLName writes it (how a file's
// footer records the type of an ENUM column).
func ParseEnumName(s string) (*Enum, error) {
	body, ok := strings.CutPrefix(s, "ENUM(")
	if body, ok = strings.CutSuffix(body, ")"); !ok {
		return nil, fmt.Errorf("bad ENUM type %q", s)
	}
	var values []string
	for i := 0; i < len(body); {
		if body[i] == ' ' || body[i] == ',' {
			i++
			continue
		}
		if body[i] != '\'' {
			return nil, fmt.Errorf("bad ENUM type %q", s)
		}
		var v strings.Builder
		j := i + 1
		for ; j < len(body); j++ {
			if body[j] == '\'' {
				if j+1 < len(body) && body[j+1] == '\'' {
					v.WriteByte('\'')
					j++
					continue
				}
				break
			}
			v.WriteByte(body[j])
		}
		if j >= len(body) {
			return nil, fmt.Errorf("bad ENUM type %q", s)
		}
		values = append(values, v.String())
		i = j + 1
	}
	return NewEnum(values)
}

package plan

import (
	"errors"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// Casts from text to nested types, as DuckDB reads them: a list
// '[1, 2]', a struct '{a: 1, b: x}' (fields by name, case-sensitive,
// missing ones NULL) or '(1, x)' (by position), a map '{k=1, j=2}'.
// Elements are split at the top-level separators (quotes and brackets
// protect them); an unquoted NULL is NULL; a leaf loses its quotes (and,
// inside quotes, the backslashes that escape) and the spaces around it,
// while a nested part keeps its text for the nested type to read. A text
// that is not of that shape is DuckDB's conversion error (TRY_CAST:
// NULL); a leaf that does not convert is its type's error (TRY_CAST: that
// leaf NULL).

// errNestedShape marks a text that is not of its nested type's shape.
var errNestedShape = errors.New("not the text of the nested type")

// castNestedText casts s to the nested type to.
func castNestedText(s string, to Type, try bool) (any, error) {
	v, err := parseNestedText(s, to, try)
	if errors.Is(err, errNestedShape) {
		if try {
			return nil, nil
		}
		return nil, errorf("Type VARCHAR with value %s can't be cast to the destination type %s", function.QuoteText(s), to.SQLName())
	}
	return v, err
}

// parseNestedText is castNestedText that reports a text of the wrong
// shape as errNestedShape.
func parseNestedText(s string, to Type, try bool) (any, error) {
	if te, isList := listElem(to); isList {
		inner, ok := bracketed(s, '[', ']')
		if !ok {
			return nil, errNestedShape
		}
		parts, err := splitTop(inner, ',', false)
		if err != nil {
			return nil, err
		}
		out := make([]any, len(parts))
		for i, part := range parts {
			if out[i], err = castTextPart(part, te, try, false); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	if kt, vt, isMap := mapKV(to); isMap {
		return parseMapText(s, kt, vt, try)
	}
	fields, ok := structFields(to)
	if !ok {
		return nil, errorf("Unimplemented type for cast (VARCHAR -> %s)", to.SQLName())
	}
	return parseStructText(s, fields, try)
}

// parseStructText reads '{a: 1, b: x}' or '(1, x)' as a struct of the
// fields; a field the text does not give is NULL.
func parseStructText(s string, fields []NamedType, try bool) (any, error) {
	out := make(map[string]any, len(fields))
	for _, f := range fields {
		out[f.Name] = nil
	}
	if inner, ok := bracketed(s, '(', ')'); ok {
		parts, err := splitEntries(inner)
		if err != nil || len(parts) > len(fields) {
			return nil, errNestedShape
		}
		for i, part := range parts {
			if out[fields[i].Name], err = castTextPart(part, fields[i].Type, try, true); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	parts, err := braceEntries(s)
	if err != nil {
		return nil, err
	}
	for _, part := range parts {
		key, val, err := cutEntry(part, ':')
		if err != nil {
			return nil, err
		}
		if key, err = unquoteLeaf(key, true); err != nil {
			return nil, err
		}
		f, found := fieldNamed(fields, key)
		if !found || key == "" {
			return nil, errNestedShape
		}
		if out[f.Name], err = castTextPart(val, f.Type, try, true); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fieldNamed is the field called name, exactly (DuckDB's text keys are
// case-sensitive).
func fieldNamed(fields []NamedType, name string) (NamedType, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return NamedType{}, false
}

// parseMapText reads '{k=1, j=2}' as a map of keys kt and values vt.
func parseMapText(s string, kt, vt Type, try bool) (any, error) {
	parts, err := braceEntries(s)
	if err != nil {
		return nil, err
	}
	keys, vals := make([]any, len(parts)), make([]any, len(parts))
	for i, part := range parts {
		k, v, err := cutEntry(part, '=')
		if err != nil {
			return nil, err
		}
		if strings.EqualFold(k, "null") {
			return nil, errNestedShape
		}
		// A key that does not convert makes no map: TRY_CAST gives NULL.
		kv, err := castTextPart(k, kt, false, true)
		if err != nil {
			if try {
				return nil, nil
			}
			return nil, err
		}
		vv, err := castTextPart(v, vt, try, true)
		if err != nil {
			return nil, err
		}
		if keys[i], err = fromGo(plainType(kt), kv); err != nil {
			return nil, err
		}
		if vals[i], err = fromGo(plainType(vt), vv); err != nil {
			return nil, err
		}
	}
	return buildMap(kt, vt, keys, vals)
}

// castTextPart casts one element's text to t: a nested type reads it
// whole, a leaf unquoted (backslash escapes outside quotes too when
// escapes); an unquoted NULL is NULL. With try, a part that does not
// convert is NULL.
func castTextPart(part string, t Type, try, escapes bool) (any, error) {
	part = strings.TrimSpace(part)
	if strings.EqualFold(part, "null") {
		return nil, nil
	}
	if t.Kind == KNested {
		// A part of the wrong shape is named by its own text, and with
		// try is NULL there, as in DuckDB.
		return castNestedText(part, t, try)
	}
	leaf, err := unquoteLeaf(part, escapes)
	if err != nil {
		return nil, err
	}
	y, err := function.CastScalar(leaf, TString, plainType(t), try)
	if err != nil {
		if try {
			return nil, nil
		}
		return nil, err
	}
	return toGo(t, y), nil
}

// bracketed is the text between open and close when s (spaces around
// it aside) is enclosed in them.
func bracketed(s string, open, close byte) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != open || s[len(s)-1] != close {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// splitTop splits s at the separators sep outside quotes and brackets
// (no part for a blank s); unbalanced quotes or brackets are not of the
// shape. A backslash escapes inside quotes, and in the texts of structs
// and maps (structural) outside them too, as DuckDB reads them.
func splitTop(s string, sep byte, structural bool) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var parts []string
	start, depth := 0, 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && (quote != 0 || structural):
			i++ // an escaped character, a quote too
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '[' || c == '{' || c == '(':
			depth++
		case c == ']' || c == '}' || c == ')':
			depth--
			if depth < 0 {
				return nil, errNestedShape
			}
		case c == sep && depth == 0:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	if quote != 0 || depth != 0 {
		return nil, errNestedShape
	}
	return append(parts, s[start:]), nil
}

// braceEntries splits the text {...} of a struct or a map into its
// entries.
func braceEntries(s string) ([]string, error) {
	inner, ok := bracketed(s, '{', '}')
	if !ok {
		return nil, errNestedShape
	}
	return splitEntries(inner)
}

// splitEntries splits the inside of a struct's or map's text into its
// entries; an empty one (a trailing comma) is not of the shape.
func splitEntries(inner string) ([]string, error) {
	parts, err := splitTop(inner, ',', true)
	for _, p := range parts {
		if strings.TrimSpace(p) == "" {
			return nil, errNestedShape
		}
	}
	return parts, err
}

// cutEntry splits a struct or map entry at its first top-level sep into
// its key's and its value's texts. The value is all after the first
// separator (DuckDB's '{a: b: c}' has a = 'b: c').
func cutEntry(part string, sep byte) (key, val string, err error) {
	kv, err := splitTop(part, sep, true)
	if err != nil || len(kv) < 2 {
		return "", "", errNestedShape
	}
	return strings.TrimSpace(kv[0]), part[len(kv[0])+1:], nil
}

// unquoteLeaf is a leaf's text without its quotes: quoted stretches lose
// their quotes and, inside, the backslash of an escape; with escapes a
// backslash escapes outside quotes too. Brackets keep their text whole.
func unquoteLeaf(s string, escapes bool) (string, error) {
	if !strings.ContainsAny(s, `'"\`) {
		return s, nil
	}
	var b strings.Builder
	var quote byte
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case depth > 0:
			// Inside brackets the text stays as written.
			if c == '[' || c == '{' || c == '(' {
				depth++
			} else if c == ']' || c == '}' || c == ')' {
				depth--
			}
		case quote != 0 && c == quote:
			quote = 0
			continue
		case c == '\\' && (quote != 0 || escapes) && i+1 < len(s):
			i++
			c = s[i]
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
			continue
		case quote == 0 && (c == '[' || c == '{' || c == '('):
			depth++
		}
		b.WriteByte(c)
	}
	if quote != 0 {
		return "", errNestedShape
	}
	return b.String(), nil
}

package plan

import (
	"encoding/json"
	"math"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
)

// Nested values as text: CAST(x AS VARCHAR) writes them as DuckDB does
// ([1, 2], {'a': x, 'b': NULL}, {k=v}, strings bare), to_json as JSON
// (struct fields in their declared order, numbers and booleans bare,
// other leaves as JSON strings of their text).

// structFields lists the fields of struct type t in order; ok is false
// for other types.
func structFields(t Type) ([]NamedType, bool) {
	if t.Kind != KNested || t.MapOf || t.Elem != nil {
		return nil, false
	}
	if f := t.Field; f != nil {
		if f.Kind != schema.Struct {
			return nil, false
		}
		out := make([]NamedType, len(f.Children))
		for i, c := range f.Children {
			out[i] = NamedType{Name: c.Name, Type: TypeOfField(c)}
		}
		return out, true
	}
	return t.Fields, t.Fields != nil
}

// NestedText renders v, of type t, as CAST to VARCHAR (asJSON false) or
// to_json (asJSON true) do.
func NestedText(t Type, v any, asJSON bool) (string, error) {
	var b strings.Builder
	err := writeNestedText(&b, t, v, asJSON)
	return b.String(), err
}

func writeNestedText(b *strings.Builder, t Type, v any, asJSON bool) error {
	if v == nil {
		if asJSON {
			b.WriteString("null")
		} else {
			b.WriteString("NULL")
		}
		return nil
	}
	if et, ok := listElem(t); ok {
		l, _ := v.([]any)
		b.WriteByte('[')
		for i, el := range l {
			if i > 0 {
				b.WriteString(listSep(asJSON))
			}
			if err := writeNestedText(b, et, el, asJSON); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	if kt, vt, ok := mapKV(t); ok {
		return writeMapText(b, kt, vt, v, asJSON)
	}
	if members, ok := unionMembers(t); ok {
		// A UNION's text is its member's (uniontype.go).
		tag, ok := unionTagOf(v, members)
		if !ok {
			return writeNestedText(b, t, nil, asJSON)
		}
		m, _ := v.(map[string]any)
		if asJSON { // to_json: {"tag":value}, as DuckDB's
			b.WriteByte('{')
			writeJSONString(b, members[tag].Name)
			b.WriteByte(':')
			defer b.WriteByte('}')
		}
		return writeNestedText(b, members[tag].Type, m[members[tag].Name], asJSON)
	}
	if fields, ok := structFields(t); ok {
		m, _ := v.(map[string]any)
		entries := make([]textEntry, len(fields))
		for i, f := range fields {
			entries[i] = textEntry{f.Name, f.Type, m[f.Name]}
		}
		switch {
		case t.Unnamed && !asJSON:
			return writeRowText(b, entries)
		case t.Unnamed:
			for i := range entries {
				entries[i].key = "" // DuckDB's to_json of row(1, 2): {"":1,"":2}
			}
		}
		return writeEntriesText(b, entries, asJSON, func(name string) string { return quotedLeaf(name) + ": " })
	}
	s, err := fromGo(t, v)
	if err != nil {
		return err
	}
	b.WriteString(leafText(t, s, asJSON))
	return nil
}

// ScalarJSON is to_json of a scalar of type t.
func ScalarJSON(t Type, v any) string {
	if v == nil {
		return "null"
	}
	return leafText(t, v, true)
}

// leafText is the text of scalar v of type t in a nested value's text.
func leafText(t Type, v any, asJSON bool) string {
	text := FormatScalar(plainType(t), v)
	var b strings.Builder
	switch {
	case !asJSON:
		writeLeafText(&b, text)
	case t.Kind == KBool || t.IsNumeric() && !isNonFinite(v):
		b.WriteString(text)
	case t.JSON:
		b.WriteString(text)
	default:
		writeJSONString(&b, text)
	}
	return b.String()
}

func writeMapText(b *strings.Builder, kt, vt Type, v any, asJSON bool) error {
	var entries []textEntry
	switch m := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(m) {
			key := k
			if !asJSON && leafNeedsQuotes(k) {
				key = quotedLeaf(k)
			}
			entries = append(entries, textEntry{key, vt, m[k]})
		}
	case map[any]any:
		keys, err := sortedAnyKeys(kt, m)
		if err != nil {
			return err
		}
		for _, k := range keys {
			ks, err := NestedText(kt, k, false)
			if err != nil {
				return err
			}
			entries = append(entries, textEntry{ks, vt, m[k]})
		}
	}
	return writeEntriesText(b, entries, asJSON, func(key string) string { return key + "=" })
}

// textEntry is a struct field or a map entry: its name or key's text, and
// its value with the value's type.
type textEntry struct {
	key string
	t   Type
	v   any
}

// writeEntriesText writes {entries}: "key":value in JSON, else as label
// writes the key (struct 'name': value, map key=value).
func writeEntriesText(b *strings.Builder, entries []textEntry, asJSON bool, label func(string) string) error {
	b.WriteByte('{')
	for i, e := range entries {
		if i > 0 {
			b.WriteString(listSep(asJSON))
		}
		if asJSON {
			writeJSONString(b, e.key)
			b.WriteByte(':')
		} else {
			b.WriteString(label(e.key))
		}
		if err := writeNestedText(b, e.t, e.v, asJSON); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeRowText writes an unnamed struct as DuckDB's CAST to VARCHAR
// does: its values in parentheses, without names.
func writeRowText(b *strings.Builder, entries []textEntry) error {
	b.WriteByte('(')
	for i, e := range entries {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := writeNestedText(b, e.t, e.v, false); err != nil {
			return err
		}
	}
	b.WriteByte(')')
	return nil
}

func listSep(asJSON bool) string {
	if asJSON {
		return ","
	}
	return ", "
}

func writeJSONString(b *strings.Builder, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

func isNonFinite(v any) bool {
	f, ok := v.(float64)
	return ok && (math.IsNaN(f) || math.IsInf(f, 0))
}

// writeLeafText writes a leaf's text inside a nested value's text as
// DuckDB does: bare, or quoted when a reader could not tell where it ends
// (see leafNeedsQuotes).
func writeLeafText(b *strings.Builder, text string) {
	if !leafNeedsQuotes(text) {
		b.WriteString(text)
		return
	}
	b.WriteString(quotedLeaf(text))
}

// quotedLeaf is text in single quotes, its quotes and backslashes escaped
// with a backslash (DuckDB's 'it\'s').
func quotedLeaf(text string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(text); i++ {
		if c := text[i]; c == '\'' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(text[i])
	}
	b.WriteByte('\'')
	return b.String()
}

// leafNeedsQuotes reports whether DuckDB quotes a leaf of text in a
// nested value's text: an empty text, NULL (any case, so that it is not
// read as a NULL), space at either end, or one of the characters that
// delimit nested text (quotes, brackets, commas, colons, equal signs).
// Timestamps and times are quoted by their colons.
func leafNeedsQuotes(text string) bool {
	if text == "" || strings.EqualFold(text, "null") {
		return true
	}
	if isLeafSpace(text[0]) || isLeafSpace(text[len(text)-1]) {
		return true
	}
	return strings.ContainsAny(text, "'\"()[]{},:=")
}

func isLeafSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

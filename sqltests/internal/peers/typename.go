package peers

import "strings"

// SQLType is a parsed SQL type name as DuckDB and carquet spell them in
// DatabaseTypeName: a scalar name ("UUID", "DECIMAL(38,10)"), a list
// ("T[]"), a struct ("STRUCT(a T, "b c" U)") or a map ("MAP(K, V)"). The
// value conversions walk it to find the type of each nested value.
type SQLType struct {
	// Name is the scalar name, or LIST, STRUCT or MAP.
	Name string
	// Elem is a list's element type.
	Elem *SQLType
	// Fields are a struct's field types by name.
	Fields map[string]*SQLType
	// Key and Value are a map's.
	Key, Value *SQLType
}

// ParseSQLType parses a type name; what it does not recognise is a scalar.
func ParseSQLType(s string) *SQLType {
	s = strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(s, "[]"):
		return &SQLType{Name: "LIST", Elem: ParseSQLType(s[:len(s)-2])}
	case strings.HasPrefix(s, "STRUCT(") && strings.HasSuffix(s, ")"):
		t := &SQLType{Name: "STRUCT", Fields: map[string]*SQLType{}}
		for _, f := range splitTopLevel(s[len("STRUCT(") : len(s)-1]) {
			name, typ := cutFieldName(strings.TrimSpace(f))
			t.Fields[name] = ParseSQLType(typ)
		}
		return t
	case strings.HasPrefix(s, "MAP(") && strings.HasSuffix(s, ")"):
		parts := splitTopLevel(s[len("MAP(") : len(s)-1])
		if len(parts) == 2 {
			return &SQLType{Name: "MAP", Key: ParseSQLType(parts[0]), Value: ParseSQLType(parts[1])}
		}
	}
	return &SQLType{Name: s}
}

// field, elem, mapKey and mapValue return the type of a struct field, a
// list element, a map key or value, or an empty scalar when t says
// nothing about it.
func (t *SQLType) field(name string) *SQLType {
	if t != nil && t.Fields[name] != nil {
		return t.Fields[name]
	}
	return &SQLType{}
}

func (t *SQLType) elem() *SQLType {
	if t != nil && t.Elem != nil {
		return t.Elem
	}
	return &SQLType{}
}

func (t *SQLType) mapKey() *SQLType {
	if t != nil && t.Key != nil {
		return t.Key
	}
	return &SQLType{}
}

func (t *SQLType) mapValue() *SQLType {
	if t != nil && t.Value != nil {
		return t.Value
	}
	return &SQLType{}
}

// splitTopLevel splits s at the commas outside parentheses and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// cutFieldName splits `name TYPE` or `"quoted name" TYPE`.
func cutFieldName(f string) (name, typ string) {
	if strings.HasPrefix(f, `"`) {
		for i := 1; i < len(f); i++ {
			if f[i] != '"' {
				continue
			}
			if i+1 < len(f) && f[i+1] == '"' {
				i++
				continue
			}
			return strings.ReplaceAll(f[1:i], `""`, `"`), f[i+1:]
		}
	}
	name, typ, _ = strings.Cut(f, " ")
	return name, typ
}

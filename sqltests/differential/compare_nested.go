package differential

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Nested values, intervals and UUIDs: the kinds of Value beyond the
// scalars of compare.go. Lists compare element by element, structs field
// by field (by name), maps entry by entry in the order of their keys (the
// drivers hand out DuckDB's ordered map and carquet's Go map), intervals
// by their months, days and microseconds, and UUIDs as their text (DuckDB's
// driver hands out the 16 bytes, carquet's the text).

// normalizeNested normalises the values Normalize leaves to it; ok is
// false for a value it does not know.
func normalizeNested(v any, dbType string) (Value, bool, error) {
	typ := strings.ToUpper(strings.TrimSpace(dbType))
	switch x := v.(type) {
	case []byte:
		if typ == "UUID" && len(x) == 16 {
			return Value{Kind: KString, S: uuidText(x)}, true, nil
		}
		return Value{}, false, nil
	case string:
		if typ == "INTERVAL" {
			iv, err := parseIntervalText(x)
			return iv, err == nil, err
		}
		return Value{}, false, nil
	case []any:
		elem := strings.TrimSuffix(dbType, "[]")
		if elem == dbType {
			elem = ""
		}
		out := Value{Kind: KList}
		for _, e := range x {
			ev, err := normalizeElem(e, elem)
			if err != nil {
				return Value{}, true, err
			}
			out.Elems = append(out.Elems, ev)
		}
		return out, true, nil
	case map[string]any:
		if strings.HasPrefix(typ, "MAP(") {
			keys := make([]any, 0, len(x))
			vals := make([]any, 0, len(x))
			for k, e := range x {
				keys = append(keys, k)
				vals = append(vals, e)
			}
			m, err := normalizeMap(keys, vals, dbType)
			return m, true, err
		}
		fields := structFieldTypes(dbType)
		out := Value{Kind: KStruct}
		for _, name := range slices.Sorted(mapKeys(x)) {
			ev, err := normalizeElem(x[name], fields[name])
			if err != nil {
				return Value{}, true, err
			}
			out.Names = append(out.Names, name)
			out.Elems = append(out.Elems, ev)
		}
		return out, true, nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Map {
		// carquet's MAP with keys other than strings.
		var keys, vals []any
		for it := rv.MapRange(); it.Next(); {
			keys = append(keys, it.Key().Interface())
			vals = append(vals, it.Value().Interface())
		}
		m, err := normalizeMap(keys, vals, dbType)
		return m, true, err
	}
	return Value{}, false, nil
}

// normalizeAny is the normaliser of either engine for a value inside a
// nested one (set by engines_test.go to add DuckDB's own Go types).
var normalizeAny func(v any, dbType string) (Value, error)

// normalizeElem normalises a value inside a nested one.
func normalizeElem(v any, dbType string) (Value, error) {
	if normalizeAny != nil {
		return normalizeAny(v, dbType)
	}
	return Normalize(v, dbType)
}

// normalizeMap is a map as its entries (key, value, key, value, ...) in
// the order of their keys.
func normalizeMap(keys, vals []any, dbType string) (Value, error) {
	kt, vt := mapTypes(dbType)
	type entry struct{ k, v Value }
	entries := make([]entry, len(keys))
	for i := range keys {
		k, err := normalizeElem(keys[i], kt)
		if err != nil {
			return Value{}, err
		}
		v, err := normalizeElem(vals[i], vt)
		if err != nil {
			return Value{}, err
		}
		entries[i] = entry{k, v}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.k.sortKey(), b.k.sortKey()) })
	out := Value{Kind: KMap}
	for _, e := range entries {
		out.Elems = append(out.Elems, e.k, e.v)
	}
	return out, nil
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func uuidText(b []byte) string {
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Interval is the value of an INTERVAL: months, days and microseconds,
// which DuckDB keeps apart (1 month is not 30 days to it, except when
// comparing).
func IntervalValue(months, days int32, micros int64) Value {
	return Value{Kind: KInterval, S: fmt.Sprintf("%d months %d days %d us", months, days, micros)}
}

// parseIntervalText reads DuckDB's text of an INTERVAL, as carquet's
// driver hands it out: "1 year 2 months -3 days 04:05:06.5", "00:00:00".
func parseIntervalText(s string) (Value, error) {
	var months, days int64
	var micros int64
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		if strings.Contains(f[i], ":") {
			us, err := parseClock(f[i])
			if err != nil {
				return Value{}, fmt.Errorf("interval %q: %w", s, err)
			}
			micros += us
			continue
		}
		if i+1 >= len(f) {
			return Value{}, fmt.Errorf("interval %q: a number without a unit", s)
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return Value{}, fmt.Errorf("interval %q: %w", s, err)
		}
		unit := strings.TrimSuffix(f[i+1], "s")
		i++
		switch unit {
		case "year":
			months += 12 * n
		case "mon", "month":
			months += n
		case "day":
			days += n
		default:
			return Value{}, fmt.Errorf("interval %q: unit %q", s, f[i])
		}
	}
	return IntervalValue(int32(months), int32(days), micros), nil
}

// parseClock reads [-]HH:MM:SS[.ffffff] as microseconds.
func parseClock(s string) (int64, error) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, fmt.Errorf("clock %q", s)
	}
	h, err1 := strconv.ParseInt(parts[0], 10, 64)
	m, err2 := strconv.ParseInt(parts[1], 10, 64)
	sec, frac, _ := strings.Cut(parts[2], ".")
	sv, err3 := strconv.ParseInt(sec, 10, 64)
	if err := cmpErr(err1, err2, err3); err != nil {
		return 0, err
	}
	us := ((h*60+m)*60 + sv) * 1_000_000
	if frac != "" {
		frac = (frac + "000000")[:6]
		fv, err := strconv.ParseInt(frac, 10, 64)
		if err != nil {
			return 0, err
		}
		us += fv
	}
	if neg {
		us = -us
	}
	return us, nil
}

func cmpErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// splitTopLevel splits s at the commas outside parentheses.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// innerOf is the text inside NAME( ... ) of a type name, or "".
func innerOf(dbType, name string) string {
	t := strings.TrimSpace(dbType)
	if !strings.HasPrefix(strings.ToUpper(t), name+"(") || !strings.HasSuffix(t, ")") {
		return ""
	}
	return t[len(name)+1 : len(t)-1]
}

// structFieldTypes reads the field types of STRUCT(a INTEGER, "b" X).
func structFieldTypes(dbType string) map[string]string {
	out := map[string]string{}
	inner := innerOf(dbType, "STRUCT")
	if inner == "" {
		return out
	}
	for _, f := range splitTopLevel(inner) {
		name, typ, _ := strings.Cut(f, " ")
		out[strings.Trim(name, `"`)] = strings.TrimSpace(typ)
	}
	return out
}

// mapTypes reads the key and value types of MAP(K, V).
func mapTypes(dbType string) (string, string) {
	parts := splitTopLevel(innerOf(dbType, "MAP"))
	if len(parts) != 2 {
		return "", ""
	}
	return parts[0], parts[1]
}

// equalNested compares lists, structs and maps element by element.
func equalNested(a, b Value) bool {
	if len(a.Elems) != len(b.Elems) || !slices.Equal(a.Names, b.Names) {
		return false
	}
	for i := range a.Elems {
		if !Equal(a.Elems[i], b.Elems[i]) {
			return false
		}
	}
	return true
}

// nestedString renders a list, struct or map for reports.
func nestedString(v Value) string {
	var b strings.Builder
	open, end := "[", "]"
	if v.Kind != KList {
		open, end = "{", "}"
	}
	b.WriteString(open)
	for i, e := range v.Elems {
		switch {
		case v.Kind == KMap && i%2 == 1:
			b.WriteString(": ")
		case i > 0:
			b.WriteString(", ")
		}
		if v.Kind == KStruct {
			b.WriteString(v.Names[i] + ": ")
		}
		b.WriteString(e.String())
	}
	b.WriteString(end)
	return b.String()
}

// nestedSortKey is the sort key of a list, struct or map.
func nestedSortKey(v Value) string {
	var b strings.Builder
	fmt.Fprintf(&b, "6%d(", v.Kind)
	for i, e := range v.Elems {
		if i > 0 {
			b.WriteByte(1)
		}
		b.WriteString(e.sortKey())
	}
	b.WriteByte(')')
	return b.String()
}

package plan

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The order of nested values, as DuckDB's: lists element by element (a
// prefix first), structs field by field in their type's order, a NULL
// element or field after every value, leaves by their own type's order
// ({'a': 9} < {'a': 10}). Package vec calls it through
// vec.CompareNested for comparisons, ORDER BY, min/max and
// greatest/least.
func init() { vec.CompareNested = compareNested }

// compareNested orders two non-NULL values of the nested type t.
func compareNested(t Type, a, b any) int {
	if et, ok := listElem(t); ok {
		x, _ := a.([]any)
		y, _ := b.([]any)
		for i := 0; i < len(x) && i < len(y); i++ {
			if c := compareNestedPart(et, x[i], y[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(x), len(y))
	}
	if kt, vt, ok := mapKV(t); ok {
		return compareMaps(kt, vt, a, b)
	}
	fields, _ := structFields(t)
	x, _ := a.(map[string]any)
	y, _ := b.(map[string]any)
	for _, f := range fields {
		if c := compareNestedPart(f.Type, x[f.Name], y[f.Name]); c != 0 {
			return c
		}
	}
	return 0
}

// compareNestedPart orders two elements or fields of type t, NULL last.
func compareNestedPart(t Type, a, b any) int {
	switch {
	case a == nil || b == nil:
		return cmp.Compare(nullRank(a), nullRank(b))
	case t.Kind == KNested:
		return compareNested(t, a, b)
	}
	pt := plainType(t)
	x, errA := fromGo(pt, a)
	y, errB := fromGo(pt, b)
	if errA != nil || errB != nil {
		return cmp.Compare(fmt.Sprint(a), fmt.Sprint(b)) // not a value of t: by its text
	}
	return vec.CompareScalars(pt, x, y)
}

func nullRank(v any) int {
	if v == nil {
		return 1
	}
	return 0
}

// compareMaps orders two maps as lists of entries in the order of their
// keys. (DuckDB keeps a map's entries in insertion order, which carquet's
// maps do not hold.)
func compareMaps(kt, vt Type, a, b any) int {
	x, y := entriesByKey(kt, a), entriesByKey(kt, b)
	for i := 0; i < len(x) && i < len(y); i++ {
		if c := compareNestedPart(kt, x[i].k, y[i].k); c != 0 {
			return c
		}
		if c := compareNestedPart(vt, x[i].v, y[i].v); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(x), len(y))
}

type mapEntry struct{ k, v any }

// entriesByKey is the entries of map m (a Go map) in the order of their
// keys, of type kt.
func entriesByKey(kt Type, m any) []mapEntry {
	var out []mapEntry
	switch m := m.(type) {
	case map[string]any:
		for k, v := range m {
			out = append(out, mapEntry{k, v})
		}
	case map[any]any:
		for k, v := range m {
			out = append(out, mapEntry{k, v})
		}
	}
	slices.SortFunc(out, func(p, q mapEntry) int { return compareNestedPart(kt, p.k, q.k) })
	return out
}

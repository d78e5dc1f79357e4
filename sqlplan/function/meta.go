package function

import (
	"fmt"
	"math"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Functions of DuckDB's list about other functions' values:
// is_histogram_other_bin (whether a histogram key is the bin of values
// above every bin) and timetz_byte_comparable (a TIMETZ's sort key).

func init() {
	register(map[string]*Scalar{
		"is_histogram_other_bin": {Min: 1, Max: 1, Rule: otherBinRule, Batch: otherBinBatch},
		"timetz_byte_comparable": {Min: 1, Max: 1, Rule: Sig(tUint, TTimeTZ), Batch: timeTZSortKeyBatch},
	})
}

// otherBinRule takes the argument in its own type: the other bin's key
// is the largest value of that type.
func otherBinRule(args []vec.Type) ([]vec.Type, vec.Type, error) {
	if _, ok := otherBinTest(args[0]); !ok {
		return nil, vec.Type{}, fmt.Errorf("is_histogram_other_bin of a %s is not supported", args[0].SQLName())
	}
	return nil, tBool, nil
}

// otherBinBatch is is_histogram_other_bin: true for the key DuckDB gives
// a histogram's bin of the values above every bin of its type (the
// largest integer of the width, +inf, the empty string, 24:00:00, infinity, the largest
// decimal of the precision, the empty list), false for any other value
// and for the types that have no such bin (BOOLEAN, STRUCT).
func otherBinBatch(a []*vec.Col, n int) (*vec.Col, error) {
	c := a[0]
	out := &vec.Col{T: tBool, Len: n, Null: vec.MergeNulls(n, c), B: make([]bool, n)}
	test, _ := otherBinTest(c.T)
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			out.B[i] = test(c, i)
		}
	}
	return out, nil
}

// otherBinTest returns the test of row i of a column of type t against
// the other bin's key; ok is false for the types carquet does not test.
func otherBinTest(t vec.Type) (test func(c *vec.Col, i int) bool, ok bool) {
	never := func(*vec.Col, int) bool { return false }
	switch {
	case t.Kind == vec.KBool || t.Kind == vec.KNull:
		return never, true
	case t.Kind == vec.KNested && t.MapOf:
		return nil, false
	case t.Kind == vec.KNested && t.Elem != nil: // a list: the empty one
		return func(c *vec.Col, i int) bool { l, _ := c.A[i].([]any); return l != nil && len(l) == 0 }, true
	case t.Kind == vec.KNested:
		return never, true
	case t.Kind == vec.KDate || t.Kind == vec.KTimestamp:
		return func(c *vec.Col, i int) bool { return c.I[i] > 0 && InfiniteValue(c.T, c.I[i]) }, true
	case t.Kind == vec.KDecimal && !t.BigDecimal() && !t.Huge:
		top := int64(math.Pow10(t.Prec)) - 1
		return func(c *vec.Col, i int) bool { return c.I[i] == top }, true
	case t.Kind == vec.KBytes:
		return func(c *vec.Col, i int) bool { return len(c.Str(i)) == 0 }, true
	}
	key, ok := HistOverflowKey(t)
	if !ok || key == nil {
		return nil, false
	}
	switch k := key.(type) {
	case int64:
		return func(c *vec.Col, i int) bool { return c.I[i] == k }, true
	case uint64:
		return func(c *vec.Col, i int) bool { return uint64(c.I[i]) == k }, true
	case float64:
		return func(c *vec.Col, i int) bool { return c.F[i] == k }, true
	case string:
		return func(c *vec.Col, i int) bool { return len(c.Str(i)) == 0 }, true
	}
	return nil, false
}

// timeTZSortKeyBatch is timetz_byte_comparable: carquet's TIMETZ key is
// already DuckDB's sort key (the UTC time made non-negative, above the
// offset counted down from the largest), so the value is the key itself.
func timeTZSortKeyBatch(a []*vec.Col, n int) (*vec.Col, error) {
	c := a[0]
	out := &vec.Col{T: tUint, Len: n, Null: vec.MergeNulls(n, c), I: make([]int64, n)}
	for i := range n {
		if out.Null == nil || !out.Null[i] {
			out.I[i] = c.I[i]
		}
	}
	return out, nil
}

package scan

import (
	"bytes"
	"math"
	"sync"
	"time"

	"github.com/carquet-go/carquet/internal/intset"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// evaluator computes a predicate over a batch with SQL's three-valued
// logic: truth has bit i set where the predicate is true, known where it
// is not NULL.
type evaluator interface {
	eval(cols []*vector.Vector, n int, truth, known vector.Bitmap)
}

// constEval is a predicate whose value is the same for every row (a term
// on a partition column, or one decided by binding).
type constEval struct{ value, null bool }

func (c constEval) eval(_ []*vector.Vector, n int, truth, known vector.Bitmap) {
	for i := 0; i < n; i++ {
		if !c.null {
			known.Set(i)
			if c.value {
				truth.Set(i)
			}
		}
	}
}

// leafEval evaluates one comparison-like term on a primitive column.
type leafEval struct {
	col  int // index into the batch's vectors
	ci   colInfo
	pred Predicate
	// bounds are the bound constants (one for Compare, several for In).
	bounds []bound
	// byValue is set when the constants could not be bound into the
	// column's domain: values are compared as Go values instead.
	byValue bool
	field   *schema.Field
	// inInts and inBytes hold the values of a long IN list (inSetMin or
	// more) of an integer or byte-string column, so that a row is one
	// lookup, not a comparison with every value.
	inInts  *intset.Set
	inBytes map[string]struct{}
	// dicts caches the term's value on each dictionary entry of the
	// coded vectors it met (codedEval); units of the scan share it.
	dictMu sync.Mutex
	dicts  map[*vector.Vector][]uint64
}

// inSetMin is the length from which an IN list is looked up in a set.
const inSetMin = 16

// buildInSet fills inInts or inBytes from the bounds of an IN list, when
// the column's domain allows it and the list is long.
func (e *leafEval) buildInSet() {
	if e.byValue || len(e.bounds) < inSetMin {
		return
	}
	switch e.ci.dom {
	case domInt:
		vals := make([]int64, 0, len(e.bounds))
		for _, b := range e.bounds {
			if b.frac == 0 && !b.never && !b.low && !b.high {
				vals = append(vals, b.i)
			}
		}
		e.inInts = intset.New(vals)
	case domBytes:
		e.inBytes = make(map[string]struct{}, len(e.bounds))
		for _, b := range e.bounds {
			if !b.never {
				e.inBytes[string(b.b)] = struct{}{}
			}
		}
	}
}

// inSet looks slot i up in the IN list's set; ok is false when the list
// has none for the slot's kind.
func (e *leafEval) inSet(v *vector.Vector, i int) (found, ok bool) {
	switch {
	case e.inInts != nil && v.Kind == vector.Int64:
		return e.inInts.Has(v.Int64s[i]), true
	case e.inInts != nil && v.Kind == vector.Int32:
		return e.inInts.Has(int64(v.Int32s[i])), true
	case e.inBytes != nil && (v.Kind == vector.ByteArray || v.Kind == vector.FixedLenByteArray):
		_, found = e.inBytes[string(v.Bytes(i))]
		return found, true
	}
	return false, false
}

func setKnown(v *vector.Vector, n int, known vector.Bitmap) {
	if v.Valid == nil {
		for w := range known[:(n+63)/64] {
			known[w] = ^uint64(0)
		}
		return
	}
	copy(known, v.Valid[:(n+63)/64])
}

func (e *leafEval) eval(cols []*vector.Vector, n int, truth, known vector.Bitmap) {
	v := cols[e.col]
	switch p := e.pred.(type) {
	case IsNull:
		for w := range known[:(n+63)/64] {
			known[w] = ^uint64(0)
		}
		for i := 0; i < n; i++ {
			if v.IsNull(i) != p.Not {
				truth.Set(i)
			}
		}
		return
	}
	if e.fastEval(v, n, truth, known) {
		return
	}
	setKnown(v, n, known)
	if v.Dict != nil {
		e.codedEval(v, n, truth, known)
		return
	}
	if e.bytesEval(v, n, truth) {
		if v.Valid != nil {
			for w := range truth[:(n+63)/64] {
				truth[w] &= known[w]
			}
		}
		return
	}
	for i := 0; i < n; i++ {
		if v.IsNull(i) {
			continue
		}
		if e.test(v, i) {
			truth.Set(i)
		}
	}
}

// maxDictCache bounds the dictionaries a term remembers its values on (a
// scan reads a few row groups at a time, each with its dictionary).
const maxDictCache = 16

// codedEval evaluates the term on a coded vector: once on each entry of
// its dictionary (remembered for the next batches of the column chunk),
// then each row takes its code's answer. known holds the non-null rows.
func (e *leafEval) codedEval(v *vector.Vector, n int, truth, known vector.Bitmap) {
	if v.Dict.Len == 0 {
		return // every row is NULL
	}
	hold := e.dictTruth(v.Dict)
	// A word of answers at a time, without a branch per row: which rows
	// hold is as unpredictable as the data.
	codes := v.Codes[:n]
	for w := 0; w*64 < n; w++ {
		var word uint64
		for j, c := range codes[w*64 : min(n, w*64+64)] {
			word |= (hold[c>>6] >> (c & 63) & 1) << j
		}
		truth[w] |= word
	}
	if v.Valid != nil {
		for w := range truth[:(n+63)/64] {
			truth[w] &= known[w]
		}
	}
}

// dictTruth returns the bitmap of the dictionary entries the term holds
// for.
func (e *leafEval) dictTruth(d *vector.Vector) vector.Bitmap {
	e.dictMu.Lock()
	defer e.dictMu.Unlock()
	if t, ok := e.dicts[d]; ok {
		return t
	}
	t := vector.NewBitmap(d.Len, false)
	if !e.bytesEval(d, d.Len, t) {
		for i := 0; i < d.Len; i++ {
			if !d.IsNull(i) && e.test(d, i) {
				t.Set(i)
			}
		}
	}
	if d.Valid != nil {
		for w := range t {
			t[w] &= d.Valid[w]
		}
	}
	if e.dicts == nil || len(e.dicts) >= maxDictCache {
		e.dicts = map[*vector.Vector][]uint64{}
	}
	e.dicts[d] = t
	return t
}

// test evaluates the term on a non-null slot.
func (e *leafEval) test(v *vector.Vector, i int) bool {
	switch p := e.pred.(type) {
	case Compare:
		return holds(p.Op, e.compare(v, i, &e.bounds[0]))
	case In:
		if found, ok := e.inSet(v, i); ok {
			return found != p.Not
		}
		for k := range e.bounds {
			if e.compare(v, i, &e.bounds[k]) == 0 {
				return !p.Not
			}
		}
		return p.Not
	case Prefix:
		var b []byte
		if v.Kind == vector.ByteArray || v.Kind == vector.FixedLenByteArray {
			b = v.Bytes(i)
		}
		return bytes.HasPrefix(b, []byte(p.Prefix))
	}
	return false
}

// compare orders slot i against a bound constant.
func (e *leafEval) compare(v *vector.Vector, i int, b *bound) int {
	if e.byValue {
		return compareValues(value.Primitive(e.ci.node, v, i), b)
	}
	switch v.Kind {
	case vector.Int32:
		if e.ci.dom == domUint {
			return b.cmpUint(uint64(uint32(v.Int32s[i])))
		}
		return b.cmpInt(int64(v.Int32s[i]))
	case vector.Int64:
		if e.ci.dom == domUint {
			return b.cmpUint(uint64(v.Int64s[i]))
		}
		return b.cmpInt(v.Int64s[i])
	case vector.Float32:
		return b.cmpFloat(float64(v.Float32s[i]))
	case vector.Float64:
		return b.cmpFloat(v.Float64s[i])
	case vector.Bool:
		x := int64(0)
		if v.Bools[i] {
			x = 1
		}
		return b.cmpInt(x)
	case vector.ByteArray, vector.FixedLenByteArray:
		return b.cmpBytes(v.Bytes(i))
	}
	return compareValues(value.Primitive(e.ci.node, v, i), b)
}

// compareValues is the slow path for columns without a comparison domain
// (byte-array decimals, INT96, FLOAT16): the bound keeps the original
// constant in origin.
func compareValues(x any, b *bound) int {
	c, _ := compareAny(x, b.origin)
	return c
}

type andEval struct{ terms []evaluator }
type orEval struct{ terms []evaluator }
type notEval struct{ term evaluator }

func (e andEval) eval(cols []*vector.Vector, n int, truth, known vector.Bitmap) {
	words := (n + 63) / 64
	t2, k2 := vector.NewBitmap(n, false), vector.NewBitmap(n, false)
	e.terms[0].eval(cols, n, truth, known)
	for _, term := range e.terms[1:] {
		clear(t2)
		clear(k2)
		term.eval(cols, n, t2, k2)
		for w := 0; w < words; w++ {
			t1, k1 := truth[w], known[w]
			// false AND x is false (known); true AND true is true.
			f1, f2 := k1&^t1, k2[w]&^t2[w]
			truth[w] = t1 & t2[w]
			known[w] = (k1 & k2[w]) | f1 | f2
		}
	}
}

func (e orEval) eval(cols []*vector.Vector, n int, truth, known vector.Bitmap) {
	words := (n + 63) / 64
	t2, k2 := vector.NewBitmap(n, false), vector.NewBitmap(n, false)
	e.terms[0].eval(cols, n, truth, known)
	for _, term := range e.terms[1:] {
		clear(t2)
		clear(k2)
		term.eval(cols, n, t2, k2)
		for w := 0; w < words; w++ {
			t1, k1 := truth[w], known[w]
			truth[w] = t1 | t2[w]
			known[w] = (k1 & k2[w]) | t1 | t2[w]
		}
	}
}

func (e notEval) eval(cols []*vector.Vector, n int, truth, known vector.Bitmap) {
	e.term.eval(cols, n, truth, known)
	for w := 0; w < (n+63)/64; w++ {
		truth[w] = known[w] &^ truth[w]
	}
	if r := uint(n) & 63; r != 0 {
		truth[n/64] &= 1<<r - 1
	}
}

// compareAny orders two Go values of compatible kinds (ok false if not).
func compareAny(a, b any) (int, bool) {
	switch x := a.(type) {
	case value.Decimal:
		if r, ok := toRat(b); ok {
			xr, _ := toRat(x)
			return xr.Cmp(r), true
		}
	case float32:
		if bf, ok := toFloat(b); ok {
			return cmpF(float64(x), bf), true
		}
	case float64:
		if bf, ok := toFloat(b); ok {
			return cmpF(x, bf), true
		}
	case string:
		if s, ok := b.(string); ok {
			return cmpS(x, s), true
		}
	case time.Time:
		if t, ok := b.(time.Time); ok {
			return x.Compare(t), true
		}
		if s, ok := b.(string); ok {
			if t, ok := parseTimeLiteral(s); ok {
				return x.Compare(t), true
			}
		}
	case []byte:
		switch y := b.(type) {
		case []byte:
			return bytes.Compare(x, y), true
		case string:
			return bytes.Compare(x, []byte(y)), true
		}
	case bool: // a typed (Delta) partition value
		if y, ok := b.(bool); ok {
			switch {
			case x == y:
				return 0, true
			case y:
				return -1, true
			}
			return 1, true
		}
	}
	if ta, ok := a.(interface{ Compare(any) int }); ok {
		return ta.Compare(b), true
	}
	return 0, false
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int64:
		return float64(x), true
	case value.Decimal:
		return x.Float64(), true
	}
	return 0, false
}

func cmpF(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpS(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

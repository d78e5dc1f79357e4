package function

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Window functions with a kernel of their own (the exec package's
// WindowCall): their names, type rules and what the kernel reads. The
// other aggregates run over frames by their accumulators (aggregates.go).

// WindowFn is a window function of the library.
type WindowFn struct {
	// Args is the number of arguments the call needs at least.
	Args int
	// Rule types a call from its first argument's type (the zero Type
	// when it has none): the result's type, and the type the binder
	// casts the argument to (nil: it stays as it is).
	Rule WindowRule
	// Picks: each row's result is the argument's value at some row of
	// the partition, which the kernel gathers from the argument's column.
	Picks bool
	// Positional: the result depends on the row's position in its
	// partition only, not on peer groups or frames.
	Positional bool
	// IgnoreNulls: the call may skip NULL values (IGNORE NULLS).
	IgnoreNulls bool
}

// WindowRule types a window call whose argument has type at.
type WindowRule func(at vec.Type) (t vec.Type, cast *vec.Type, err error)

// windowOf is the rule of a function of one result type.
func windowOf(t vec.Type) WindowRule {
	return func(vec.Type) (vec.Type, *vec.Type, error) { return t, nil, nil }
}

// argType is the rule of a function returning its argument's values.
func argType(at vec.Type) (vec.Type, *vec.Type, error) {
	if at.Kind != vec.KNested {
		at.Field = nil // a table column's nested type is described by its field only
	}
	return at, nil, nil
}

// windowSum: integers and HUGEINTs sum to a HUGEINT, decimals to a
// DECIMAL(38, s), exactly, as the aggregate and DuckDB; the others as
// DOUBLE.
func windowSum(at vec.Type) (vec.Type, *vec.Type, error) {
	switch {
	case at.Op() == vec.KInt || at.Huge:
		return THuge, nil, nil
	case at.Kind == vec.KDecimal:
		return vec.Type{Kind: vec.KDecimal, Prec: 38, Scale: at.Scale}, nil, nil
	}
	return tFloat, &tFloat, nil
}

// windowAvg: integers and decimals are summed exactly, and only the
// quotient is a DOUBLE (rounded once); the others are averaged as DOUBLE.
// (The binder averages an INTERVAL as its microseconds.)
func windowAvg(at vec.Type) (vec.Type, *vec.Type, error) {
	if at.Op() == vec.KInt || at.Kind == vec.KDecimal {
		return tFloat, nil, nil
	}
	return tFloat, &tFloat, nil
}

var windowFns = map[string]*WindowFn{
	"row_number":   {Rule: windowOf(tInt), Positional: true},
	"rank":         {Rule: windowOf(tInt)},
	"dense_rank":   {Rule: windowOf(tInt)},
	"percent_rank": {Rule: windowOf(tFloat)},
	"cume_dist":    {Rule: windowOf(tFloat)},
	"ntile":        {Args: 1, Rule: windowOf(tInt), Positional: true},
	"lag":          {Args: 1, Rule: argType, Picks: true, Positional: true, IgnoreNulls: true},
	"lead":         {Args: 1, Rule: argType, Picks: true, Positional: true, IgnoreNulls: true},
	"first_value":  {Args: 1, Rule: argType, Picks: true, IgnoreNulls: true},
	"last_value":   {Args: 1, Rule: argType, Picks: true, IgnoreNulls: true},
	"nth_value":    {Args: 1, Rule: argType, Picks: true, IgnoreNulls: true},
	"count":        {Rule: windowOf(tInt)}, // count(*) has no argument
	"sum":          {Args: 1, Rule: windowSum},
	"avg":          {Args: 1, Rule: windowAvg},
	"min":          {Args: 1, Rule: argType, Picks: true},
	"max":          {Args: 1, Rule: argType, Picks: true},
	"fill":         {Args: 1, Rule: fillType, Positional: true},
}

// FillType reports whether fill can interpolate values (or keys) of type
// t: numbers and times, not TIME WITH TIME ZONE, not INTERVAL.
func FillType(t vec.Type) bool {
	switch t.Kind {
	case vec.KInt, vec.KUint, vec.KFloat, vec.KDecimal, vec.KUHuge, vec.KDate, vec.KTime, vec.KTimestamp:
		return t.Kind != vec.KDecimal || t.Prec <= 38
	}
	return false
}

// fillType: fill returns its argument's type, which must support
// subtraction.
func fillType(at vec.Type) (vec.Type, *vec.Type, error) {
	if !FillType(at) {
		return at, nil, fmt.Errorf("FILL argument must support subtraction")
	}
	return argType(at)
}

// windowAliases maps the other names of window functions to their
// canonical one.
var windowAliases = map[string]string{"mean": "avg", "rank_dense": "dense_rank"}

// LookupWindow resolves a window function's name (lower case) through
// its aliases: the canonical name and the function; nil when the
// library has no kernel of that name.
func LookupWindow(name string) (string, *WindowFn) {
	if c, ok := windowAliases[name]; ok {
		name = c
	}
	return name, windowFns[name]
}

// Window is the window function of canonical name fn; it panics for a
// name without a kernel (a bug of the binder).
func Window(fn string) *WindowFn {
	w := windowFns[fn]
	if w == nil {
		panic(fmt.Sprintf("function: no window function %q", fn))
	}
	return w
}

// WindowNames are the names of the window functions and their aliases.
func WindowNames() map[string]bool {
	names := map[string]bool{}
	for n := range windowFns {
		names[n] = true
	}
	for n := range windowAliases {
		names[n] = true
	}
	return names
}

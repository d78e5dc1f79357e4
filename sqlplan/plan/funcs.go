package plan

import (
	"bytes"
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"math"
	"math/big"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// fn describes a scalar function: how to type it and compute a row.
type fn struct {
	Min, Max int // argument counts (max -1: any)
	// bind checks and casts the arguments and returns the result type.
	bind func(p *Planner, args []Expr) ([]Expr, Type, error)
	Row  func(args []*Col, i int) (any, error)
	// nonStrict functions see NULL arguments (COALESCE and friends).
	nonStrict bool
	Volatile  bool
}

var (
	TString = Type{Kind: KString}
	TInt    = Type{Kind: KInt}
	tFloat  = Type{Kind: KFloat}
	TBool   = Type{Kind: KBool}
	tDate   = Type{Kind: KDate}
	tTS     = Type{Kind: KTimestamp}
)

// sig casts the arguments to fixed types and returns a fixed type.
func sig(result Type, args ...Type) func(p *Planner, in []Expr) ([]Expr, Type, error) {
	return func(p *Planner, in []Expr) ([]Expr, Type, error) {
		out := make([]Expr, len(in))
		for i, a := range in {
			t := args[min(i, len(args)-1)]
			c, err := p.coerceArg(a, t)
			if err != nil {
				return nil, Type{}, err
			}
			out[i] = c
		}
		return out, result, nil
	}
}

// textOrBlob binds a function of one VARCHAR that reads a BLOB's bytes
// as they are (DuckDB's BLOB forms of md5, sha1, sha256); other types
// cast to VARCHAR.
func textOrBlob(result Type) func(p *Planner, in []Expr) ([]Expr, Type, error) {
	return bindRule(function.TextOrBlob(result), false)
}

// coerceArg casts a function argument: strings convert to what the
// function needs, numbers widen.
func (p *Planner) coerceArg(a Expr, t Type) (Expr, error) {
	at := a.Type()
	if at.Op() == t.Op() && t.Kind != KDecimal {
		return a, nil
	}
	if t.Kind == KTimestamp && at.Kind == KDate {
		return p.cast(a, t)
	}
	return p.cast(a, t)
}

func str(c *Col, i int) string { return string(c.Str(i)) }

var Funcs map[string]*fn

// addFuncs adds scalar functions to the table. Each file's init calls it,
// and Go runs the inits of a package's files in the order of their names:
// whichever comes first makes the table.
func addFuncs(m map[string]*fn) {
	if Funcs == nil {
		Funcs = make(map[string]*fn, 512)
	}
	for name, f := range m {
		Funcs[name] = f
	}
}

func init() {
	addLibrary()
	addFuncs(map[string]*fn{
		"random":       {0, 0, sig(tFloat), func(a []*Col, i int) (any, error) { return randFloat(), nil }, false, true},
		"lower":        {1, 1, sig(TString, TString), func(a []*Col, i int) (any, error) { return strings.ToLower(str(a[0], i)), nil }, false, false},
		"upper":        {1, 1, sig(TString, TString), func(a []*Col, i int) (any, error) { return strings.ToUpperSpecial(upperSharpS, str(a[0], i)), nil }, false, false},
		"octet_length": {1, 1, nil, func(a []*Col, i int) (any, error) { return int64(len(a[0].Str(i))), nil }, false, false},
		"concat": {1, -1, func(p *Planner, in []Expr) ([]Expr, Type, error) {
			out := make([]Expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, TString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, TString, nil
		}, func(a []*Col, i int) (any, error) {
			var b strings.Builder
			for _, c := range a {
				if !c.IsNull(i) {
					b.Write(c.Str(i))
				}
			}
			return b.String(), nil
		}, true, false},
		"concat_op": {2, 2, func(p *Planner, in []Expr) ([]Expr, Type, error) {
			out := make([]Expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, TString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, TString, nil
		}, func(a []*Col, i int) (any, error) { return str(a[0], i) + str(a[1], i), nil }, false, false},
		"concat_ws": {2, -1, func(p *Planner, in []Expr) ([]Expr, Type, error) {
			out := make([]Expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, TString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, TString, nil
		}, func(a []*Col, i int) (any, error) {
			if a[0].IsNull(i) {
				return nil, nil
			}
			var parts []string
			for _, c := range a[1:] {
				if !c.IsNull(i) {
					parts = append(parts, str(c, i))
				}
			}
			return strings.Join(parts, str(a[0], i)), nil
		}, true, false},
		parse.GlobMarker: {1, 1, sig(TString, TString), func(a []*Col, i int) (any, error) {
			return globRegexp(str(a[0], i)), nil // x GLOB p: bindPatternMatch
		}, false, false},
		"to_days":         intervalFn(86400e6),
		"to_hours":        intervalFn(3600e6),
		"to_minutes":      intervalFn(60e6),
		"to_seconds":      intervalFn(1e6),
		"to_milliseconds": intervalFn(1e3),
		"to_microseconds": intervalFn(1),

		// Math.
		"abs": {1, 1, numericSame, func(a []*Col, i int) (any, error) {
			switch {
			case a[0].F != nil:
				return math.Abs(a[0].F[i]), nil
			case a[0].H != nil && a[0].T.Kind == KUHuge:
				return a[0].Get(i), nil // never negative
			case a[0].H != nil:
				x := a[0].H[i]
				if x.Sign() >= 0 {
					return x, nil
				}
				n, ok := x.Negate()
				if !ok {
					return nil, fmt.Errorf("Overflow on abs(%s)", x) // DuckDB's words
				}
				return n, nil
			case a[0].A != nil:
				d := a[0].A[i].(value.Decimal)
				return value.Decimal{Unscaled: new(big.Int).Abs(d.Unscaled), Scale: d.Scale}, nil
			}
			x := a[0].I[i]
			// The smallest value of the argument's width has no absolute
			// value in it (abs(-2147483648::INTEGER) is an error, as DuckDB).
			if bits := a[0].T.Bits; x == math.MinInt64 || a[0].T.Kind == KInt && bits > 0 && bits < 64 && x == -1<<(bits-1) {
				return nil, fmt.Errorf("Overflow on abs(%d)", x)
			}
			if x < 0 {
				x = -x
			}
			return x, nil
		}, false, false},
		"round":    {1, 2, bindRound, nil, false, false},
		"floor":    {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 'f') }, false, false},
		"ceil":     {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 'c') }, false, false},
		"trunc":    {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 't') }, false, false},
		"mod":      {2, 2, bindMod, nil, false, false},
		"greatest": {1, -1, bindCommon, func(a []*Col, i int) (any, error) { return extreme(a, i, 1), nil }, true, false},
		"least":    {1, -1, bindCommon, func(a []*Col, i int) (any, error) { return extreme(a, i, -1), nil }, true, false},

		// NULL handling.
		"coalesce": {1, -1, bindCommon, func(a []*Col, i int) (any, error) {
			for _, c := range a {
				if !c.IsNull(i) {
					return c.Get(i), nil
				}
			}
			return nil, nil
		}, true, false},
		"nullif": {2, 2, bindCommon, func(a []*Col, i int) (any, error) {
			if a[0].IsNull(i) {
				return nil, nil
			}
			if !a[1].IsNull(i) && vec.CompareAt(a[0], i, a[1], i) == 0 {
				return nil, nil
			}
			return a[0].Get(i), nil
		}, true, false},
		"if": {3, 3, func(p *Planner, in []Expr) ([]Expr, Type, error) {
			c, err := p.coerce(in[0], TBool)
			if err != nil {
				return nil, Type{}, err
			}
			t, err := commonType(in[1:])
			if err != nil {
				return nil, Type{}, err
			}
			a, err := p.cast(in[1], t)
			if err != nil {
				return nil, Type{}, err
			}
			b, err := p.cast(in[2], t)
			if err != nil {
				return nil, Type{}, err
			}
			return []Expr{c, a, b}, t, nil
		}, func(a []*Col, i int) (any, error) {
			if !a[0].IsNull(i) && a[0].B[i] {
				return a[1].Get(i), nil
			}
			return a[2].Get(i), nil
		}, true, false},

		// Dates and times.
		"now":               {0, 0, nil, nil, false, true},
		"current_timestamp": {0, 0, nil, nil, false, true},
		"current_date":      {0, 0, nil, nil, false, true},
		"current_setting":   {1, 1, nil, nil, false, true}, // settings.go
		"getvariable":       {1, 1, nil, nil, false, true}, // variables.go
		MacroArgMarker:      {3, 3, nil, nil, false, true}, // macros.go
		"today":             {0, 0, nil, nil, false, true},
		"year":              datePartFn("year"),
		"month":             datePartFn("month"),
		"day":               datePartFn("day"),
		"dayofmonth":        datePartFn("day"),
		"hour":              datePartFn("hour"),
		"minute":            datePartFn("minute"),
		"second":            datePartFn("second"),
		"dayofweek":         datePartFn("dow"),
		"isodow":            datePartFn("isodow"),
		"dayofyear":         datePartFn("doy"),
		"quarter":           datePartFn("quarter"),
		"week":              datePartFn("week"),
		"weekofyear":        datePartFn("week"),
		"millisecond":       datePartFn("millisecond"),
		"microsecond":       datePartFn("microsecond"),
		"weekday":           datePartFn("dow"),
		"isoyear":           datePartFn("isoyear"),
		"yearweek":          datePartFn("yearweek"),
		"decade":            datePartFn("decade"),
		"century":           datePartFn("century"),
		"millennium":        datePartFn("millennium"),
		"era":               datePartFn("era"),
		"date_part": {2, 2, bindDatePart, func(a []*Col, i int) (any, error) {
			return function.PartOf(strings.ToLower(str(a[0], i)), a[1], i)
		}, false, false},
		"date_trunc": {2, 2, bindDateTrunc, func(a []*Col, i int) (any, error) {
			if us := a[1].I[i]; function.InfiniteValue(a[1].T, us) {
				return us, nil // an infinity truncates to itself, as DuckDB's
			}
			t, err := function.DateTrunc(strings.ToLower(str(a[0], i)), function.TimeOf(a[1], i))
			if err != nil {
				return nil, err
			}
			return t.UnixMicro(), nil
		}, false, false},
		"date_add":           {2, 2, nil, nil, false, false},
		"time_bucket":        {2, 3, bindTimeBucket, function.TimeBucket, false, false},
		parse.IntervalMarker: {1, 1, nil, nil, false, false},
		"strftime": {2, 2, bindStrftime, func(a []*Col, i int) (any, error) {
			if function.InfiniteValue(a[0].T, a[0].I[i]) {
				return FormatScalar(a[0].T, a[0].I[i]), nil // "infinity", whatever the format, as DuckDB's
			}
			return function.Strftime(function.TimeOf(a[0], i), str(a[1], i)), nil
		}, false, false},
		"dayname":   timeNameFn(func(t time.Time) string { return t.Weekday().String() }),
		"monthname": timeNameFn(func(t time.Time) string { return t.Month().String() }),
		"typeof":    {1, 1, nil, nil, true, false},
	})
	alias := map[string]string{
		"lcase": "lower", "ucase": "upper", "char_length": "length", "character_length": "length", "len": "length",
		"substring_fn": "substring", "substr": "substring", "ceiling": "ceil", "pow": "power", "ifnull": "coalesce",
		"nvl": "coalesce", "instr": "strpos", "position": "strpos", "datediff": "date_diff", "datepart": "date_part",
		"datetrunc": "date_trunc", "prefix": "starts_with", "suffix": "ends_with", "truncate": "trunc", "iif": "if",
		"strlen": "octet_length", "localtimestamp": "current_timestamp", "get_current_timestamp": "now",
		"string_split_part": "split_part",
	}
	for a, f := range alias {
		Funcs[a] = Funcs[f]
	}
	VecKernels = map[*fn]func(args []*Col, n int) (*Col, error){
		Funcs["lower"]: vecCase(false),
		Funcs["upper"]: vecCase(true),
	}
	for name, f := range function.Scalars() {
		if f.Batch != nil {
			VecKernels[Funcs[name]] = f.Batch
		}
	}
}

// addLibrary adds the scalar functions of package function to the
// table, their type rules bound as the binder's casts. It runs first, so
// that the aliases below and the table's later entries see them.
func addLibrary() {
	lib := function.Scalars()
	m := make(map[string]*fn, len(lib))
	for name, f := range lib {
		m[name] = &fn{Min: f.Min, Max: f.Max, bind: bindRule(f.Rule, f.Exact), Row: f.Row, nonStrict: f.NonStrict, Volatile: f.Volatile}
		if f.RowFor != nil {
			rowByTypes[name] = f.RowFor
		}
	}
	addFuncs(m)
}

// bindRule binds a call by a library type rule: the arguments cast to
// the types it asks (as sig casts them; exact: as CAST does, see
// function.Scalar.Exact), the result of its type. No rule is no bind (the
// arguments as they are, a BIGINT result).
func bindRule(rule function.TypeRule, exact bool) func(p *Planner, in []Expr) ([]Expr, Type, error) {
	if rule == nil {
		return nil
	}
	return func(p *Planner, in []Expr) ([]Expr, Type, error) {
		types := make([]Type, len(in))
		for i, a := range in {
			types[i] = a.Type()
		}
		casts, result, err := rule(types)
		if err != nil {
			return nil, Type{}, err
		}
		if casts == nil {
			return in, result, nil
		}
		out := make([]Expr, len(in))
		for i, a := range in {
			c, err := p.ruleCast(a, casts[min(i, len(casts)-1)], exact)
			if err != nil {
				return nil, Type{}, err
			}
			out[i] = c
		}
		return out, result, nil
	}
}

// rowByTypes chooses the row function of the functions whose computation
// depends on their arguments' types (after binding).
var rowByTypes = map[string]func(types []Type) func(a []*Col, i int) (any, error){}

// ruleCast casts argument a to type t of a type rule (see bindRule).
func (p *Planner) ruleCast(a Expr, t Type, exact bool) (Expr, error) {
	switch at := a.Type(); {
	case !exact:
		return p.coerceArg(a, t)
	case at.SQLName() == t.SQLName():
		return a, nil
	}
	return p.cast(a, t)
}

// VecKernels are the functions that compute a whole batch at once
// rather than a value per row, by their fn (an alias shares its target's).
var VecKernels map[*fn]func(args []*Col, n int) (*Col, error)

// numericSame keeps a numeric argument's type.
func numericSame(p *Planner, in []Expr) ([]Expr, Type, error) {
	t := in[0].Type()
	switch t.Op() {
	case KInt:
		if t.Kind == KInt {
			return in, Type{Kind: KInt, Bits: t.Bits}, nil // abs(INTEGER) is an INTEGER
		}
		return in, WithoutField(Type{Kind: t.Op()}), nil
	case KFloat:
		return in, Type{Kind: KFloat, Float32: t.Float32}, nil
	case KDecimal, KUHuge:
		return in, WithoutField(t), nil
	case KNull:
		return in, TInt, nil
	}
	c, err := p.cast(in[0], tFloat)
	return []Expr{c}, tFloat, err
}

func bindFloorCeil(p *Planner, in []Expr) ([]Expr, Type, error) {
	t := in[0].Type()
	if t.Op() == KInt {
		return in, TInt, nil
	}
	if t.Kind == KDecimal {
		return in, Type{Kind: KDecimal, Prec: t.Prec, Scale: 0, Huge: t.Huge}, nil
	}
	if t.Kind == KFloat && t.Float32 {
		return in, Type{Kind: KFloat, Float32: true}, nil // a whole FLOAT is a FLOAT
	}
	c, err := p.cast(in[0], tFloat)
	return []Expr{c}, tFloat, err
}

// roundCol is floor ('f'), ceil ('c') or trunc ('t') of a row, exact for
// decimals.
func roundCol(c *Col, i int, mode byte) (any, error) {
	switch {
	case c.F != nil:
		switch mode {
		case 'f':
			return math.Floor(c.F[i]), nil
		case 'c':
			return math.Ceil(c.F[i]), nil
		}
		return math.Trunc(c.F[i]), nil
	case c.T.Kind == KDecimal && c.H != nil && c.T.Scale == 0:
		return c.H[i], nil // an integer already
	case c.T.Kind == KDecimal && c.I != nil:
		m := pow10[c.T.Scale]
		x := c.I[i]
		switch mode {
		case 'f':
			return vec.FloorDiv(x, m), nil
		case 'c':
			return -vec.FloorDiv(-x, m), nil
		}
		return x / m, nil
	case c.T.Kind == KDecimal:
		r := decRat(c.Decimal(i))
		var q *big.Int
		switch mode {
		case 'f':
			q = new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for a positive divisor
		case 'c':
			q = new(big.Int).Neg(new(big.Int).Div(new(big.Int).Neg(r.Num()), r.Denom()))
		default:
			q = new(big.Int).Quo(r.Num(), r.Denom())
		}
		if c.T.Prec <= 18 {
			return q.Int64(), nil
		}
		return value.Decimal{Unscaled: q}, nil
	}
	return c.I[i], nil
}

// bindRound: ROUND(x[, digits]) keeps decimals exact.
func bindRound(p *Planner, in []Expr) ([]Expr, Type, error) {
	if len(in) == 2 {
		var err error
		if in[1], err = p.cast(in[1], TInt); err != nil {
			return nil, Type{}, err
		}
	}
	t := in[0].Type()
	switch {
	case t.Op() == KInt:
		return in, TInt, nil
	case t.Kind == KDecimal:
		digits := 0
		if len(in) == 2 {
			k, ok := IsConst(in[1])
			if !ok || k.V == nil {
				c, err := p.cast(in[0], tFloat)
				return []Expr{c, in[1]}, tFloat, err
			}
			digits = int(k.V.(int64))
		}
		return in, Type{Kind: KDecimal, Prec: t.Prec, Scale: max(0, min(digits, t.Scale)), Huge: t.Huge}, nil
	case t.Kind == KFloat && t.Float32:
		return in, t, nil // a FLOAT stays a FLOAT (roundRow rounds it back)
	}
	c, err := p.cast(in[0], tFloat)
	if err != nil {
		return nil, Type{}, err
	}
	in[0] = c
	return in, tFloat, nil
}

func roundRow(t Type) func(a []*Col, i int) (any, error) {
	return func(a []*Col, i int) (any, error) {
		c := a[0]
		digits := int64(0)
		if len(a) > 1 {
			digits = a[1].I[i]
		}
		switch t.Kind {
		case KInt:
			if digits >= 0 {
				return c.I[i], nil
			}
			m := float64(pow10[min(-digits, 18)])
			return int64(math.Round(float64(c.I[i])/m) * m), nil
		case KDecimal:
			if c.I != nil {
				v, _ := function.Rescale(c.I[i], c.T.Scale, t.Scale)
				if digits < 0 {
					v = roundToPow10(v, -digits)
				}
				if t.Prec > 18 {
					return function.DecimalOf(v, t.Scale), nil
				}
				return v, nil
			}
			d := ratDecimal(decRat(c.Decimal(i)), t.Scale)
			if digits < 0 {
				// round(x, -n) of a wide decimal: to a multiple of 10^n.
				m := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(min(-digits, 40)), nil))
				q := ratDecimal(new(big.Rat).Quo(decRat(d), m), 0)
				d = ratDecimal(new(big.Rat).Mul(decRat(q), m), t.Scale)
			}
			if t.Prec <= 18 {
				return d.Unscaled.Int64(), nil
			}
			return d, nil
		}
		x := c.F[i]
		m := math.Pow(10, float64(digits))
		r := math.Round(x*m) / m
		if math.IsInf(r, 0) || math.IsNaN(r) {
			return x, nil
		}
		if t.Float32 {
			return float64(float32(r)), nil
		}
		return r, nil
	}
}

// roundToPow10 rounds v half away from zero to a multiple of 10^n.
func roundToPow10(v, n int64) int64 {
	if n > 18 {
		return 0
	}
	m := pow10[n]
	q, r := v/m, v%m
	if r < 0 {
		r = -r
	}
	if r*2 >= m {
		if v < 0 {
			q--
		} else {
			q++
		}
	}
	return q * m
}

func bindMod(p *Planner, in []Expr) ([]Expr, Type, error) {
	e, err := p.arith('%', in[0], in[1])
	if err != nil {
		return nil, Type{}, err
	}
	return []Expr{e}, e.Type(), nil
}

// bindCommon brings every argument to one type.
func bindCommon(p *Planner, in []Expr) ([]Expr, Type, error) {
	t, err := commonType(in)
	if err != nil {
		return nil, Type{}, err
	}
	out := make([]Expr, len(in))
	for i, a := range in {
		if out[i], err = p.cast(a, t); err != nil {
			return nil, Type{}, err
		}
	}
	return out, t, nil
}

func extreme(a []*Col, i int, sign int) any {
	best := -1
	for k, c := range a {
		if c.IsNull(i) {
			continue
		}
		if best < 0 || function.ExtremeColCmp(c, i, a[best], i)*sign > 0 {
			best = k
		}
	}
	if best < 0 {
		return nil
	}
	return a[best].Get(i)
}

// partsType is the type the date and time parts of a value of type t
// are taken from: a TIMETZ's local time of day (as DuckDB's), the
// TIMESTAMP of anything else.
func partsType(t Type) Type {
	if t.Kind == KTimeTZ {
		return Type{Kind: KTime}
	}
	return tTS
}

// bindFunc binds a scalar function call.
func (p *Planner) bindFunc(name string, args []Expr) (Expr, error) {
	if e, ok, err := p.bindUnionFunc(name, args); ok {
		return e, err // unionfuncs.go
	}
	if e, ok, err := p.bindNested(name, args); ok {
		return e, err
	}
	if name == "nextval" || name == "currval" {
		return p.bindSequenceCall(name, args)
	}
	if e, ok, err := bindIntervalPart(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindZonePart(name, args); ok {
		return e, err
	}
	f, ok := Funcs[name]
	if !ok {
		if AggNames[name] {
			return nil, errorf("aggregate function %s is not allowed here", name)
		}
		names := make([]string, 0, len(Funcs))
		for k := range Funcs {
			if k != "concat_op" && k != "substring_fn" && !strings.Contains(k, "$") {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		e := errorf("function %s does not exist%s", name, suggest(name, names))
		e.Err = ErrUnsupported
		return nil, e
	}
	if len(args) >= 1 && args[0].Type().Bit {
		if g := Funcs[name+"$bit"]; g != nil {
			f = g // the BIT meaning of an integer operator (funcs_bit.go)
		}
	}
	display := name
	if name == "substring_fn" {
		display = "substring"
	}
	if len(args) < f.Min || f.Max >= 0 && len(args) > f.Max {
		return nil, errorf("%s takes %s, not %d", display, argCount(f), len(args))
	}
	if e, ok, err := p.bindOperatorFunc(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindJSONBuild(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindListMore(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindMapMore(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindStructMore(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindJSONTransform(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindSessionFunc(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindEnumFunc(name, args); ok {
		return e, err
	}
	if e, ok, err := p.bindTypeFunc(name, args); ok { // funcs_system.go
		return e, err
	}
	if e, ok, err := p.bindMetaFunc(name, args); ok { // funcs_meta.go
		return e, err
	}
	switch name {
	case "now", "current_timestamp", "localtimestamp", "get_current_timestamp":
		return &ConstExpr{T: Type{Kind: KTimestamp, TZ: true}, V: p.Cat.Now().UnixMicro()}, nil
	case "current_date", "today":
		return &ConstExpr{T: tDate, V: function.TimeToDays(p.Cat.Now())}, nil
	case "age":
		if len(args) == 1 { // age(x): from x to today's midnight, as DuckDB
			today := function.TimeToDays(p.Cat.Now()) * 86400e6
			args = append([]Expr{&ConstExpr{T: tTS, V: today}}, args...)
		}
	case "current_setting":
		return p.bindCurrentSetting(args)
	case "getvariable":
		return p.bindGetVariable(args)
	case MacroArgMarker:
		return p.bindMacroArg(args)
	case "typeof":
		if args[0].Type().Kind == KNull {
			return &ConstExpr{T: TString, V: `"NULL"`}, nil // DuckDB's name of a bare NULL's type
		}
		return &ConstExpr{T: TString, V: typeofName(args[0].Type())}, nil
	case "mod":
		return p.arith('%', args[0], args[1])
	case "date_add":
		return p.arith('+', args[0], args[1])
	case parse.IntervalMarker:
		k, ok := IsConst(args[0])
		s, isStr := k.V.(string)
		if !ok || !isStr {
			return nil, errorf("malformed INTERVAL literal")
		}
		iv, err := function.ParseIntervalText(s)
		if err != nil {
			return nil, err
		}
		return &ConstExpr{T: Type{Kind: KInterval}, V: iv}, nil
	case "octet_length":
		if args[0].Type().Op() != KBytes && !args[0].Type().Bit {
			c, err := p.cast(args[0], TString)
			if err != nil {
				return nil, err
			}
			args[0] = c
		}
	}
	if !keepsNanos[name] {
		for i, a := range args {
			var err error
			if args[i], err = p.micros(a); err != nil {
				return nil, err
			}
		}
	}
	var t Type
	if f.bind != nil {
		var err error
		if args, t, err = f.bind(p, args); err != nil {
			return nil, err
		}
	} else {
		t = TInt
	}
	if name == "coalesce" && len(args) > 1 {
		// COALESCE evaluates an argument only for the rows whose earlier
		// arguments are all NULL (an argument not needed raises no error):
		// CASE WHEN a IS NOT NULL THEN a WHEN b IS NOT NULL THEN b ELSE c END.
		ce := &caseExpr{t: t, els: args[len(args)-1]}
		for _, a := range args[:len(args)-1] {
			ce.conds = append(ce.conds, &isNullExpr{e: a, not: true})
			ce.vals = append(ce.vals, a)
		}
		parts := make([]string, len(args))
		for i, a := range args {
			parts[i] = a.String()
		}
		ce.setText(display + "(" + strings.Join(parts, ", ") + ")")
		return ce, nil
	}
	row := f.Row
	if name == "round" {
		row = roundRow(t)
	}
	if pick, ok := rowByTypes[name]; ok {
		row = pick(exprTypes(args))
	}
	e := &funcExpr{name: display, args: args, t: t, row: row, strict: !f.nonStrict}
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = a.String()
	}
	e.setText(display + "(" + strings.Join(parts, ", ") + ")")
	if name == "concat_op" {
		e.setText(strings.Join(parts, " || "))
	}
	e.vec = VecKernels[f]
	if f.Volatile {
		return e, nil
	}
	return p.fold(e, args...)
}

func argCount(f *fn) string {
	switch {
	case f.Max < 0:
		return fmt.Sprintf("at least %d arguments", f.Min)
	case f.Min == f.Max:
		return fmt.Sprintf("%d arguments", f.Min)
	}
	return fmt.Sprintf("%d to %d arguments", f.Min, f.Max)
}

// vecCase lowers or uppercases a string column without a Go string per row.
// upperSharpS upper-cases ß as ẞ, as DuckDB does (Unicode's simple case
// mapping, which Go follows, leaves it).
var upperSharpS = unicode.SpecialCase{{Lo: 'ß', Hi: 'ß', Delta: [unicode.MaxCase]rune{'ẞ' - 'ß', 0, 0}}}

func vecCase(upper bool) func(args []*Col, n int) (*Col, error) {
	return func(args []*Col, n int) (*Col, error) {
		c := args[0]
		out := &Col{T: TString, Len: n, Null: c.Null, Off: make([]int32, n+1), Data: make([]byte, 0, len(c.Data))}
		for i := 0; i < n; i++ {
			s := c.Str(i)
			ascii := true
			for _, ch := range s {
				if ch >= 0x80 {
					ascii = false
					break
				}
			}
			if ascii {
				for _, ch := range s {
					if upper && ch >= 'a' && ch <= 'z' {
						ch -= 32
					} else if !upper && ch >= 'A' && ch <= 'Z' {
						ch += 32
					}
					out.Data = append(out.Data, ch)
				}
			} else if upper {
				out.Data = append(out.Data, bytes.ToUpperSpecial(upperSharpS, s)...)
			} else {
				out.Data = append(out.Data, bytes.ToLower(s)...)
			}
			out.Off[i+1] = int32(len(out.Data))
		}
		return out, nil
	}
}

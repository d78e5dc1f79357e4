package sqlplan

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// fn describes a scalar function: how to type it and compute a row.
type fn struct {
	min, max int // argument counts (max -1: any)
	// bind checks and casts the arguments and returns the result type.
	bind func(p *planner, args []expr) ([]expr, Type, error)
	row  func(args []*Col, i int) (any, error)
	// nonStrict functions see NULL arguments (COALESCE and friends).
	nonStrict bool
	volatile  bool
}

var (
	tString = Type{Kind: KString}
	tInt    = Type{Kind: KInt}
	tFloat  = Type{Kind: KFloat}
	tBool   = Type{Kind: KBool}
	tDate   = Type{Kind: KDate}
	tTS     = Type{Kind: KTimestamp}
)

// sig casts the arguments to fixed types and returns a fixed type.
func sig(result Type, args ...Type) func(p *planner, in []expr) ([]expr, Type, error) {
	return func(p *planner, in []expr) ([]expr, Type, error) {
		out := make([]expr, len(in))
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
func textOrBlob(result Type) func(p *planner, in []expr) ([]expr, Type, error) {
	return bindRule(function.TextOrBlob(result), false)
}

// coerceArg casts a function argument: strings convert to what the
// function needs, numbers widen.
func (p *planner) coerceArg(a expr, t Type) (expr, error) {
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

var funcs map[string]*fn

// addFuncs adds scalar functions to the table. Each file's init calls it,
// and Go runs the inits of a package's files in the order of their names:
// whichever comes first makes the table.
func addFuncs(m map[string]*fn) {
	if funcs == nil {
		funcs = make(map[string]*fn, 512)
	}
	for name, f := range m {
		funcs[name] = f
	}
}

func init() {
	addLibrary()
	addFuncs(map[string]*fn{
		"lower": {1, 1, sig(tString, tString), func(a []*Col, i int) (any, error) { return strings.ToLower(str(a[0], i)), nil }, false, false},
		"upper": {1, 1, sig(tString, tString), func(a []*Col, i int) (any, error) { return strings.ToUpper(str(a[0], i)), nil }, false, false},
		"length": {1, 1, sig(tInt, tString), func(a []*Col, i int) (any, error) {
			return int64(utf8.RuneCount(a[0].Str(i))), nil
		}, false, false},
		"octet_length": {1, 1, nil, func(a []*Col, i int) (any, error) { return int64(len(a[0].Str(i))), nil }, false, false},
		"reverse": {1, 1, sig(tString, tString), func(a []*Col, i int) (any, error) {
			r := []rune(str(a[0], i))
			for x, y := 0, len(r)-1; x < y; x, y = x+1, y-1 {
				r[x], r[y] = r[y], r[x]
			}
			return string(r), nil
		}, false, false},
		"left": {2, 2, sig(tString, tString, tInt), func(a []*Col, i int) (any, error) {
			r := []rune(str(a[0], i))
			n := a[1].I[i]
			if n < 0 {
				n = max(0, int64(len(r))+n)
			}
			return string(r[:min(n, int64(len(r)))]), nil
		}, false, false},
		"right": {2, 2, sig(tString, tString, tInt), func(a []*Col, i int) (any, error) {
			r := []rune(str(a[0], i))
			n := a[1].I[i]
			if n < 0 {
				n = max(0, int64(len(r))+n)
			}
			n = min(n, int64(len(r)))
			return string(r[int64(len(r))-n:]), nil
		}, false, false},
		"concat": {1, -1, func(p *planner, in []expr) ([]expr, Type, error) {
			out := make([]expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, tString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, tString, nil
		}, func(a []*Col, i int) (any, error) {
			var b strings.Builder
			for _, c := range a {
				if !c.IsNull(i) {
					b.Write(c.Str(i))
				}
			}
			return b.String(), nil
		}, true, false},
		"concat_op": {2, 2, func(p *planner, in []expr) ([]expr, Type, error) {
			out := make([]expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, tString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, tString, nil
		}, func(a []*Col, i int) (any, error) { return str(a[0], i) + str(a[1], i), nil }, false, false},
		"concat_ws": {2, -1, func(p *planner, in []expr) ([]expr, Type, error) {
			out := make([]expr, len(in))
			for i, a := range in {
				c, err := p.cast(a, tString)
				if err != nil {
					return nil, Type{}, err
				}
				out[i] = c
			}
			return out, tString, nil
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
		"trim":  {1, 2, sig(tString, tString), trimFn(strings.Trim, strings.TrimSpace), false, false},
		"ltrim": {1, 2, sig(tString, tString), trimFn(strings.TrimLeft, func(s string) string { return strings.TrimLeftFunc(s, unicode.IsSpace) }), false, false},
		"rtrim": {1, 2, sig(tString, tString), trimFn(strings.TrimRight, func(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }), false, false},
		"replace": {3, 3, sig(tString, tString), func(a []*Col, i int) (any, error) {
			return strings.ReplaceAll(str(a[0], i), str(a[1], i), str(a[2], i)), nil
		}, false, false},
		"starts_with": {2, 2, sig(tBool, tString), func(a []*Col, i int) (any, error) {
			return bytes.HasPrefix(a[0].Str(i), a[1].Str(i)), nil
		}, false, false},
		"ends_with": {2, 2, sig(tBool, tString), func(a []*Col, i int) (any, error) {
			return bytes.HasSuffix(a[0].Str(i), a[1].Str(i)), nil
		}, false, false},
		"contains": {2, 2, sig(tBool, tString), func(a []*Col, i int) (any, error) {
			return bytes.Contains(a[0].Str(i), a[1].Str(i)), nil
		}, false, false},
		"strpos": {2, 2, sig(tInt, tString), func(a []*Col, i int) (any, error) {
			s, sub := str(a[0], i), str(a[1], i)
			k := strings.Index(s, sub)
			if k < 0 {
				return int64(0), nil
			}
			return int64(utf8.RuneCountInString(s[:k]) + 1), nil
		}, false, false},
		"lpad": {3, 3, sig(tString, tString, tInt, tString), padFn(true), false, false},
		"rpad": {3, 3, sig(tString, tString, tInt, tString), padFn(false), false, false},
		"repeat": {2, 2, sig(tString, tString, tInt), func(a []*Col, i int) (any, error) {
			n := a[1].I[i]
			if n <= 0 {
				return "", nil
			}
			if n > maxStringResult || n*int64(len(a[0].Str(i))) > maxStringResult {
				return nil, fmt.Errorf("result too large")
			}
			return strings.Repeat(str(a[0], i), int(n)), nil
		}, false, false},
		"split_part": {3, 3, sig(tString, tString, tString, tInt), func(a []*Col, i int) (any, error) {
			parts := strings.Split(str(a[0], i), str(a[1], i))
			k := a[2].I[i]
			if k < 0 {
				k = int64(len(parts)) + k + 1
			}
			if k < 1 || k > int64(len(parts)) {
				return "", nil
			}
			return parts[k-1], nil
		}, false, false},
		"regexp_matches":    {2, 3, sig(tBool, tString), regexpMatch(false), false, false},
		"regexp_full_match": {2, 3, sig(tBool, tString), regexpMatch(true), false, false},
		parse.GlobMarker: {1, 1, sig(tString, tString), func(a []*Col, i int) (any, error) {
			return globRegexp(str(a[0], i)), nil // x GLOB p: bindPatternMatch
		}, false, false},
		"regexp_replace": {3, 4, sig(tString, tString), func(a []*Col, i int) (any, error) {
			re, err := regexpOf(a, 1, 3, i, false)
			if err != nil {
				return nil, err
			}
			repl := strings.ReplaceAll(str(a[2], i), `\`, `$`)
			if len(a) > 3 && strings.Contains(str(a[3], i), "g") {
				return re.ReplaceAllString(str(a[0], i), repl), nil
			}
			s := str(a[0], i)
			loc := re.FindStringSubmatchIndex(s)
			if loc == nil {
				return s, nil
			}
			var dst []byte
			dst = re.ExpandString(dst, repl, s, loc)
			return s[:loc[0]] + string(dst) + s[loc[1]:], nil
		}, false, false},
		"regexp_extract": {2, 3, sig(tString, tString, tString, tInt), func(a []*Col, i int) (any, error) {
			re, err := cachedRegexp(str(a[1], i))
			if err != nil {
				return nil, err
			}
			m := re.FindStringSubmatch(str(a[0], i))
			g := int64(0)
			if len(a) > 2 {
				g = a[2].I[i]
			}
			if m == nil || g < 0 || g >= int64(len(m)) {
				return "", nil
			}
			return m[g], nil
		}, false, false},
		"sha1": {1, 1, textOrBlob(tString), func(a []*Col, i int) (any, error) {
			h := sha1.Sum(a[0].Str(i))
			return hex.EncodeToString(h[:]), nil
		}, false, false},
		"to_days":         intervalFn(86400e6),
		"to_hours":        intervalFn(3600e6),
		"to_minutes":      intervalFn(60e6),
		"to_seconds":      intervalFn(1e6),
		"to_milliseconds": intervalFn(1e3),
		"to_microseconds": intervalFn(1),
		"md5": {1, 1, textOrBlob(tString), func(a []*Col, i int) (any, error) {
			h := md5.Sum(a[0].Str(i))
			return hex.EncodeToString(h[:]), nil
		}, false, false},
		"ascii": {1, 1, sig(tInt, tString), func(a []*Col, i int) (any, error) {
			r, _ := utf8.DecodeRune(a[0].Str(i))
			if r == utf8.RuneError {
				return int64(0), nil
			}
			return int64(r), nil
		}, false, false},
		"chr": {1, 1, sig(tString, tInt), func(a []*Col, i int) (any, error) { return string(rune(a[0].I[i])), nil }, false, false},

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
		"sign": {1, 1, sig(tInt, tFloat), func(a []*Col, i int) (any, error) {
			x := a[0].F[i]
			switch {
			case x > 0:
				return int64(1), nil
			case x < 0:
				return int64(-1), nil
			}
			return int64(0), nil
		}, false, false},
		"round": {1, 2, bindRound, nil, false, false},
		"floor": {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 'f') }, false, false},
		"ceil":  {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 'c') }, false, false},
		"trunc": {1, 1, bindFloorCeil, func(a []*Col, i int) (any, error) { return roundCol(a[0], i, 't') }, false, false},
		"sqrt": {1, 1, sig(tFloat, tFloat), func(a []*Col, i int) (any, error) {
			x := a[0].F[i]
			if x < 0 {
				return nil, fmt.Errorf("cannot take the square root of a negative number")
			}
			return math.Sqrt(x), nil
		}, false, false},
		"cbrt":  {1, 1, sig(tFloat, tFloat), floatFn(math.Cbrt), false, false},
		"exp":   {1, 1, sig(tFloat, tFloat), floatFn(math.Exp), false, false},
		"ln":    {1, 1, sig(tFloat, tFloat), logFn(math.Log), false, false},
		"log10": {1, 1, sig(tFloat, tFloat), logFn(math.Log10), false, false},
		"log2":  {1, 1, sig(tFloat, tFloat), logFn(math.Log2), false, false},
		"log": {1, 2, sig(tFloat, tFloat), func(a []*Col, i int) (any, error) {
			if len(a) == 2 {
				b, x := a[0].F[i], a[1].F[i]
				if x <= 0 || b <= 0 {
					return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
				}
				return math.Log(x) / math.Log(b), nil
			}
			x := a[0].F[i]
			if x <= 0 {
				return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
			}
			return math.Log10(x), nil
		}, false, false},
		"power":    {2, 2, sig(tFloat, tFloat), func(a []*Col, i int) (any, error) { return math.Pow(a[0].F[i], a[1].F[i]), nil }, false, false},
		"mod":      {2, 2, bindMod, nil, false, false},
		"pi":       {0, 0, sig(tFloat), func(a []*Col, i int) (any, error) { return math.Pi, nil }, false, false},
		"sin":      {1, 1, sig(tFloat, tFloat), floatFn(math.Sin), false, false},
		"cos":      {1, 1, sig(tFloat, tFloat), floatFn(math.Cos), false, false},
		"tan":      {1, 1, sig(tFloat, tFloat), floatFn(math.Tan), false, false},
		"atan":     {1, 1, sig(tFloat, tFloat), floatFn(math.Atan), false, false},
		"isnan":    {1, 1, sig(tBool, tFloat), func(a []*Col, i int) (any, error) { return math.IsNaN(a[0].F[i]), nil }, false, false},
		"isinf":    {1, 1, sig(tBool, tFloat), func(a []*Col, i int) (any, error) { return math.IsInf(a[0].F[i], 0), nil }, false, false},
		"random":   {0, 0, sig(tFloat), func(a []*Col, i int) (any, error) { return randFloat(), nil }, false, true},
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
			if !a[1].IsNull(i) && compareAt(a[0], i, a[1], i) == 0 {
				return nil, nil
			}
			return a[0].Get(i), nil
		}, true, false},
		"if": {3, 3, func(p *planner, in []expr) ([]expr, Type, error) {
			c, err := p.coerce(in[0], tBool)
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
			return []expr{c, a, b}, t, nil
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
		macroArgMarker:      {3, 3, nil, nil, false, true}, // macros.go
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
		"epoch": {1, 1, sig(tFloat, tTS), func(a []*Col, i int) (any, error) {
			return float64(a[0].I[i]) / 1e6, nil
		}, false, false},
		"date_part": {2, 2, bindDatePart, func(a []*Col, i int) (any, error) {
			return function.PartOf(strings.ToLower(str(a[0], i)), a[1], i)
		}, false, false},
		"date_trunc": {2, 2, bindDateTrunc, func(a []*Col, i int) (any, error) {
			t, err := function.DateTrunc(strings.ToLower(str(a[0], i)), function.TimeOf(a[1], i))
			if err != nil {
				return nil, err
			}
			return t.UnixMicro(), nil
		}, false, false},
		"date_diff": {3, 3, sig(tInt, tString, tTS, tTS), func(a []*Col, i int) (any, error) {
			return function.DateDiff(strings.ToLower(str(a[0], i)), a[1].I[i], a[2].I[i])
		}, false, false},
		"date_sub": {3, 3, sig(tInt, tString, tTS, tTS), func(a []*Col, i int) (any, error) {
			return function.DateSub(strings.ToLower(str(a[0], i)), a[1].I[i], a[2].I[i])
		}, false, false},
		"date_add":           {2, 2, nil, nil, false, false},
		"time_bucket":        {2, 3, bindTimeBucket, function.TimeBucket, false, false},
		parse.IntervalMarker: {1, 1, nil, nil, false, false},
		"make_date": {3, 3, sig(tDate, tInt), func(a []*Col, i int) (any, error) {
			y, m, d := a[0].I[i], a[1].I[i], a[2].I[i]
			t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
			if int64(t.Year()) != y || int64(t.Month()) != m || int64(t.Day()) != d {
				return nil, fmt.Errorf("make_date(%d, %d, %d) is not a date", y, m, d)
			}
			return timeToDays(t), nil
		}, false, false},
		"make_timestamp": {6, 6, sig(tTS, tInt, tInt, tInt, tInt, tInt, tFloat), func(a []*Col, i int) (any, error) {
			sec := a[5].F[i]
			t := time.Date(int(a[0].I[i]), time.Month(a[1].I[i]), int(a[2].I[i]), int(a[3].I[i]), int(a[4].I[i]), 0, 0, time.UTC)
			return t.UnixMicro() + int64(math.Round(sec*1e6)), nil
		}, false, false},
		"to_timestamp": {1, 1, sig(tTS, tFloat), func(a []*Col, i int) (any, error) {
			return int64(math.Round(a[0].F[i] * 1e6)), nil
		}, false, false},
		"strftime": {2, 2, bindStrftime, func(a []*Col, i int) (any, error) {
			return function.Strftime(function.TimeOf(a[0], i), str(a[1], i)), nil
		}, false, false},
		"last_day": {1, 1, sig(tDate, tDate), func(a []*Col, i int) (any, error) {
			t := daysToTime(a[0].I[i])
			return timeToDays(time.Date(t.Year(), t.Month()+1, 0, 0, 0, 0, 0, time.UTC)), nil
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
		funcs[a] = funcs[f]
	}
	vecKernels = map[*fn]func(args []*Col, n int) (*Col, error){
		funcs["lower"]: vecCase(false),
		funcs["upper"]: vecCase(true),
	}
	for name, f := range function.Scalars() {
		if f.Batch != nil {
			vecKernels[funcs[name]] = f.Batch
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
		m[name] = &fn{min: f.Min, max: f.Max, bind: bindRule(f.Rule, f.Exact), row: f.Row, nonStrict: f.NonStrict, volatile: f.Volatile}
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
func bindRule(rule function.TypeRule, exact bool) func(p *planner, in []expr) ([]expr, Type, error) {
	if rule == nil {
		return nil
	}
	return func(p *planner, in []expr) ([]expr, Type, error) {
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
		out := make([]expr, len(in))
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
func (p *planner) ruleCast(a expr, t Type, exact bool) (expr, error) {
	switch at := a.typ(); {
	case !exact:
		return p.coerceArg(a, t)
	case at.SQLName() == t.SQLName():
		return a, nil
	}
	return p.cast(a, t)
}

// vecKernels are the functions that compute a whole batch at once
// rather than a value per row, by their fn (an alias shares its target's).
var vecKernels map[*fn]func(args []*Col, n int) (*Col, error)

// regexpMatch is regexp_matches (full: regexp_full_match).
func regexpMatch(full bool) func(a []*Col, i int) (any, error) {
	return func(a []*Col, i int) (any, error) {
		re, err := regexpOf(a, 1, 2, i, full)
		if err != nil {
			return nil, err
		}
		return re.Match(a[0].Str(i)), nil
	}
}

// regexpOf compiles the pattern in argument p with DuckDB's options in
// argument o (if given): i case-insensitive, c case-sensitive, l literal,
// m/n/p newline-sensitive, s dot matches newline; g (global) is read by
// regexp_replace. full anchors the pattern at both ends.
func regexpOf(a []*Col, p, o, i int, full bool) (*regexp.Regexp, error) {
	pat := str(a[p], i)
	flags := ""
	if len(a) > o {
		for _, c := range str(a[o], i) {
			switch c {
			case 'i':
				flags = strings.ReplaceAll(flags, "i", "") + "i"
			case 'c':
				flags = strings.ReplaceAll(flags, "i", "")
			case 'l':
				pat = regexp.QuoteMeta(pat)
			case 'm', 'n', 'p':
				flags += "m"
			case 's':
				flags += "s"
			case 'g':
			default:
				return nil, fmt.Errorf("unknown regular expression option %q", c)
			}
		}
	}
	if full {
		pat = "^(?:" + pat + ")$"
	}
	if flags != "" {
		pat = "(?" + flags + ")" + pat
	}
	return cachedRegexp(pat)
}

func trimFn(cut func(string, string) string, space func(string) string) func(a []*Col, i int) (any, error) {
	return func(a []*Col, i int) (any, error) {
		if len(a) > 1 {
			return cut(str(a[0], i), str(a[1], i)), nil
		}
		return space(str(a[0], i)), nil
	}
}

func padFn(left bool) func(a []*Col, i int) (any, error) {
	return func(a []*Col, i int) (any, error) {
		r := []rune(str(a[0], i))
		if a[1].I[i] > maxStringResult {
			return nil, fmt.Errorf("result too large")
		}
		n := int(a[1].I[i])
		pad := []rune(str(a[2], i))
		if n < 0 {
			n = 0
		}
		if len(r) >= n {
			return string(r[:n]), nil
		}
		if len(pad) == 0 {
			return string(r), nil
		}
		fill := make([]rune, 0, n-len(r))
		for len(fill) < n-len(r) {
			fill = append(fill, pad[len(fill)%len(pad)])
		}
		if left {
			return string(fill) + string(r), nil
		}
		return string(r) + string(fill), nil
	}
}

func logFn(f func(float64) float64) func(a []*Col, i int) (any, error) {
	return func(a []*Col, i int) (any, error) {
		x := a[0].F[i]
		if x <= 0 {
			return nil, fmt.Errorf("cannot take the logarithm of zero or a negative number")
		}
		return f(x), nil
	}
}

var regexpCache = struct {
	m map[string]*regexp.Regexp
}{m: map[string]*regexp.Regexp{}}

func cachedRegexp(p string) (*regexp.Regexp, error) {
	regexpMu.Lock()
	defer regexpMu.Unlock()
	if re, ok := regexpCache.m[p]; ok {
		return re, nil
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	if len(regexpCache.m) > 256 {
		regexpCache.m = map[string]*regexp.Regexp{}
	}
	regexpCache.m[p] = re
	return re, nil
}

// numericSame keeps a numeric argument's type.
func numericSame(p *planner, in []expr) ([]expr, Type, error) {
	t := in[0].Type()
	switch t.Op() {
	case KInt:
		if t.Kind == KInt {
			return in, Type{Kind: KInt, Bits: t.Bits}, nil // abs(INTEGER) is an INTEGER
		}
		return in, withoutField(Type{Kind: t.Op()}), nil
	case KFloat:
		return in, withoutField(Type{Kind: t.Op()}), nil
	case KDecimal, KUHuge:
		return in, withoutField(t), nil
	case KNull:
		return in, tInt, nil
	}
	c, err := p.cast(in[0], tFloat)
	return []expr{c}, tFloat, err
}

func bindFloorCeil(p *planner, in []expr) ([]expr, Type, error) {
	t := in[0].Type()
	if t.Op() == KInt {
		return in, tInt, nil
	}
	if t.Kind == KDecimal {
		return in, Type{Kind: KDecimal, Prec: t.Prec, Scale: 0, Huge: t.Huge}, nil
	}
	c, err := p.cast(in[0], tFloat)
	return []expr{c}, tFloat, err
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
			return floorDiv(x, m), nil
		case 'c':
			return -floorDiv(-x, m), nil
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
func bindRound(p *planner, in []expr) ([]expr, Type, error) {
	if len(in) == 2 {
		var err error
		if in[1], err = p.cast(in[1], tInt); err != nil {
			return nil, Type{}, err
		}
	}
	t := in[0].Type()
	switch {
	case t.Op() == KInt:
		return in, tInt, nil
	case t.Kind == KDecimal:
		digits := 0
		if len(in) == 2 {
			k, ok := isConst(in[1])
			if !ok || k.v == nil {
				c, err := p.cast(in[0], tFloat)
				return []expr{c, in[1]}, tFloat, err
			}
			digits = int(k.v.(int64))
		}
		return in, Type{Kind: KDecimal, Prec: t.Prec, Scale: max(0, min(digits, t.Scale)), Huge: t.Huge}, nil
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
				v, _ := rescale(c.I[i], c.T.Scale, t.Scale)
				if digits < 0 {
					v = roundToPow10(v, -digits)
				}
				if t.Prec > 18 {
					return decimalOf(v, t.Scale), nil
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

func bindMod(p *planner, in []expr) ([]expr, Type, error) {
	e, err := p.arith('%', in[0], in[1])
	if err != nil {
		return nil, Type{}, err
	}
	return []expr{e}, e.Type(), nil
}

// bindCommon brings every argument to one type.
func bindCommon(p *planner, in []expr) ([]expr, Type, error) {
	t, err := commonType(in)
	if err != nil {
		return nil, Type{}, err
	}
	out := make([]expr, len(in))
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
		if best < 0 || extremeColCmp(c, i, a[best], i)*sign > 0 {
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
func (p *planner) bindFunc(name string, args []expr) (expr, error) {
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
	f, ok := funcs[name]
	if !ok {
		if aggNames[name] {
			return nil, errorf("aggregate function %s is not allowed here", name)
		}
		names := make([]string, 0, len(funcs))
		for k := range funcs {
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
		if g := funcs[name+"$bit"]; g != nil {
			f = g // the BIT meaning of an integer operator (funcs_bit.go)
		}
	}
	display := name
	if name == "substring_fn" {
		display = "substring"
	}
	if len(args) < f.min || f.max >= 0 && len(args) > f.max {
		return nil, errorf("%s takes %s, not %d", display, argCount(f), len(args))
	}
	switch name {
	case "now", "current_timestamp", "localtimestamp", "get_current_timestamp":
		return &constExpr{t: Type{Kind: KTimestamp, TZ: true}, v: p.e.now().UnixMicro()}, nil
	case "current_date", "today":
		return &constExpr{t: tDate, v: timeToDays(p.e.now())}, nil
	case "current_setting":
		return p.bindCurrentSetting(args)
	case "getvariable":
		return p.bindGetVariable(args)
	case macroArgMarker:
		return p.bindMacroArg(args)
	case "typeof":
		return &constExpr{t: tString, v: args[0].Type().SQLName()}, nil
	case "mod":
		return p.arith('%', args[0], args[1])
	case "date_add":
		return p.arith('+', args[0], args[1])
	case parse.IntervalMarker:
		k, ok := isConst(args[0])
		s, isStr := k.v.(string)
		if !ok || !isStr {
			return nil, errorf("malformed INTERVAL literal")
		}
		iv, err := parseIntervalText(s)
		if err != nil {
			return nil, err
		}
		return &constExpr{t: Type{Kind: KInterval}, v: iv}, nil
	case "octet_length":
		if args[0].Type().Op() != KBytes && !args[0].Type().Bit {
			c, err := p.cast(args[0], tString)
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
		t = tInt
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
	row := f.row
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
	e.vec = vecKernels[f]
	if f.volatile {
		return e, nil
	}
	return p.fold(e, args...)
}

func argCount(f *fn) string {
	switch {
	case f.max < 0:
		return fmt.Sprintf("at least %d arguments", f.min)
	case f.min == f.max:
		return fmt.Sprintf("%d arguments", f.min)
	}
	return fmt.Sprintf("%d to %d arguments", f.min, f.max)
}

// vecCase lowers or uppercases a string column without a Go string per row.
func vecCase(upper bool) func(args []*Col, n int) (*Col, error) {
	return func(args []*Col, n int) (*Col, error) {
		c := args[0]
		out := &Col{T: tString, Len: n, Null: c.Null, Off: make([]int32, n+1), Data: make([]byte, 0, len(c.Data))}
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
				out.Data = append(out.Data, bytes.ToUpper(s)...)
			} else {
				out.Data = append(out.Data, bytes.ToLower(s)...)
			}
			out.Off[i+1] = int32(len(out.Data))
		}
		return out, nil
	}
}

// maxStringResult bounds what repeat, lpad and rpad build (64 MiB).
const maxStringResult = 1 << 26

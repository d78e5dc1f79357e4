package plan

import (
	"math"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// Date and time scalar functions: date_part, date_trunc, date_diff,
// date_sub, strftime, time_bucket and the interval parts.

// timeFn is a function of one date, time or timestamp (other arguments
// are cast to TIMESTAMP) returning type rt.
func timeFn(rt Type, f func(time.Time) (any, error)) *fn {
	return &fn{1, 1, func(p *Planner, in []Expr) ([]Expr, Type, error) {
		if t := in[0].Type(); t.Kind != KDate && t.Kind != KTime {
			c, err := p.cast(in[0], partsType(t))
			if err != nil {
				return nil, Type{}, err
			}
			in = []Expr{c}
		}
		return in, rt, nil
	}, func(a []*Col, i int) (any, error) {
		return f(function.TimeOf(a[0], i))
	}, false, false}
}

func datePartFn(part string) *fn {
	f := *timeFn(TInt, nil)
	f.Row = func(a []*Col, i int) (any, error) { return function.PartOf(part, a[0], i) }
	return &f
}

// timeNameFn is a function of a date or timestamp returning a name (the
// English day or month name, as DuckDB's dayname and monthname).
func timeNameFn(name func(time.Time) string) *fn {
	return timeFn(TString, func(t time.Time) (any, error) { return name(t), nil })
}

func bindDatePart(p *Planner, in []Expr) ([]Expr, Type, error) {
	a, err := p.cast(in[0], TString)
	if err != nil {
		return nil, Type{}, err
	}
	b := in[1]
	if t := b.Type(); t.Kind != KDate && t.Kind != KTime {
		if b, err = p.cast(b, partsType(t)); err != nil {
			return nil, Type{}, err
		}
	}
	rt := TInt
	if k, ok := IsConst(a); ok && k.V != nil && strings.ToLower(k.V.(string)) == "epoch" {
		rt = tFloat
	}
	return []Expr{a, b}, rt, nil
}

func bindDateTrunc(p *Planner, in []Expr) ([]Expr, Type, error) {
	a, err := p.cast(in[0], TString)
	if err != nil {
		return nil, Type{}, err
	}
	b, err := p.cast(in[1], tTS)
	if err != nil {
		return nil, Type{}, err
	}
	return []Expr{a, b}, tTS, nil
}

func bindStrftime(p *Planner, in []Expr) ([]Expr, Type, error) {
	a := in[0]
	if t := a.Type(); t.Kind != KDate {
		var err error
		if a, err = p.cast(a, Type{Kind: KTimestamp, Nanos: t.Nanos}); err != nil {
			return nil, Type{}, err
		}
	}
	b, err := p.cast(in[1], TString)
	if err != nil {
		return nil, Type{}, err
	}
	return []Expr{a, b}, TString, nil
}

// keepsNanos are the functions that take TIMESTAMP_NS and TIME_NS values
// at full precision; every other function sees them in microseconds, as
// DuckDB's do (its date_trunc and arithmetic return TIMESTAMP).
var keepsNanos = map[string]bool{
	"coalesce": true, "nullif": true, "greatest": true, "least": true,
	"strftime": true, "epoch_ns": true, "nanosecond": true,
}

// micros is e in microseconds when it is a TIMESTAMP_NS or TIME_NS (the
// value floored), else e.
func (p *Planner) micros(e Expr) (Expr, error) {
	t := e.Type()
	if !t.Nanos {
		return e, nil
	}
	return p.cast(e, Type{Kind: t.Kind, TZ: t.TZ})
}

// bindTimeBucket binds time_bucket(width, t [, offset | origin]): the
// constant INTERVAL width (months, or days and smaller, not both) and
// offset, and the origin, become integer constant arguments of timeBucket:
// width months, width micros, t (as a TIMESTAMP), origin micros, offset
// months, offset micros, and whether t is a DATE (then so is the result).
func bindTimeBucket(p *Planner, in []Expr) ([]Expr, Type, error) {
	width, ok := constInterval(in[0])
	// Days are fixed widths here (buckets of timestamps without zones).
	width = Interval{Months: width.Months, Micros: width.Days*microsPerDay + width.Micros}
	switch {
	case !ok:
		return nil, Type{}, errorf("the bucket width of time_bucket must be a constant INTERVAL")
	case width.Months != 0 && width.Micros != 0:
		return nil, Type{}, errorf("the bucket width of time_bucket cannot mix months with days or times")
	case width.Months < 0 || width.Micros < 0 || width.Months == 0 && width.Micros == 0:
		return nil, Type{}, errorf("the bucket width of time_bucket must be positive")
	}
	rt := tTS
	if in[1].Type().Kind == KDate {
		rt = tDate
	} else if k := in[1].Type().Kind; k != KTimestamp && k != KNull {
		return nil, Type{}, errorf("time_bucket takes a DATE or a TIMESTAMP, not %s", in[1].Type().SQLName())
	}
	t, err := in[1], error(nil)
	if it := in[1].Type(); it.Kind == KTimestamp && it.TZ {
		rt = Type{Kind: KTimestamp, TZ: true} // the instant's buckets, in UTC in any TimeZone (DuckDB's)
	} else if t, err = p.cast(in[1], tTS); err != nil {
		return nil, Type{}, err
	}
	// DuckDB's default origins: 2000-01-03 (a Monday) for widths of days
	// and less, 2000-01-01 for months.
	origin := time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	if width.Months != 0 {
		origin = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	}
	var offset Interval
	if len(in) == 3 {
		if iv, ok := constInterval(in[2]); ok {
			offset = iv
		} else {
			o, err := p.cast(in[2], tTS)
			if err != nil {
				return nil, Type{}, err
			}
			c, ok := IsConst(o)
			if !ok || c.V == nil {
				return nil, Type{}, errorf("the origin of time_bucket must be a constant")
			}
			origin = c.V.(int64)
		}
	}
	isDate := int64(0)
	if rt.Kind == KDate {
		isDate = 1
	}
	ints := func(vs ...int64) []Expr {
		out := make([]Expr, len(vs))
		for i, v := range vs {
			out[i] = &ConstExpr{T: TInt, V: v}
		}
		return out
	}
	args := append(ints(width.Months, width.Micros), t)
	return append(args, ints(origin, offset.Months, offset.Days*microsPerDay+offset.Micros, isDate)...), rt, nil
}

// constInterval is the value of a constant INTERVAL expression.
func constInterval(e Expr) (Interval, bool) {
	c, ok := IsConst(e)
	if !ok || c.T.Kind != KInterval {
		return Interval{}, false
	}
	switch v := c.V.(type) {
	case Interval:
		return v, true
	}
	return Interval{}, false
}

// intervalFn makes to_days and friends: n units of unit microseconds as
// an INTERVAL.
func intervalFn(unit int64) *fn {
	return &fn{1, 1, sig(Type{Kind: KInterval}, TInt), func(a []*Col, i int) (any, error) {
		n := a[0].I[i]
		if n > math.MaxInt64/unit || n < math.MinInt64/unit {
			return nil, errorf("interval out of range")
		}
		if unit == microsPerDay {
			return Interval{Days: n}, nil
		}
		return Interval{Micros: n * unit}, nil
	}, false, false}
}

// bindIntervalPart binds epoch(interval) and date_part(part, interval) (so
// EXTRACT) from the interval's own months, days and microseconds, as
// DuckDB (epoch counts a month as 30 days); ok is false for other calls.
func bindIntervalPart(name string, args []Expr) (Expr, bool, error) {
	var part, iv Expr
	switch {
	case name == "epoch" && len(args) == 1 && args[0].Type().Kind == KInterval:
		iv = args[0]
	case name == "date_part" && len(args) == 2 && args[1].Type().Kind == KInterval:
		part, iv = args[0], args[1]
	default:
		return nil, false, nil
	}
	what := "epoch"
	if part != nil {
		k, ok := IsConst(part)
		s, isStr := k.V.(string)
		if !ok || !isStr {
			return nil, true, errorf("the part of date_part of an INTERVAL must be a constant")
		}
		what = strings.ToLower(s)
	}
	t := TInt
	if what == "epoch" {
		t = tFloat
	}
	e := &funcExpr{name: name, args: []Expr{iv}, t: t, strict: true, row: func(a []*Col, i int) (any, error) {
		return function.IntervalPart(what, a[0].Get(i).(Interval))
	}}
	text := "epoch(" + iv.String() + ")"
	if part != nil {
		text = "date_part(" + part.String() + ", " + iv.String() + ")"
	}
	e.setText(text)
	return e, true, nil
}

// bindZonePart binds date_part (so EXTRACT) of timezone, timezone_hour
// and timezone_minute, which the value's type decides: a TIMETZ's own
// offset, a TIMESTAMPTZ's offset in the statement's TimeZone at that
// instant, 0 for TIME and TIMESTAMP, an error for DATE, as DuckDB's;
// ok is false for other calls.
func (p *Planner) bindZonePart(name string, args []Expr) (Expr, bool, error) {
	if name != "date_part" || len(args) != 2 {
		return nil, false, nil
	}
	k, ok := IsConst(args[0])
	if !ok {
		return nil, false, nil
	}
	s, isStr := k.V.(string)
	if !isStr {
		return nil, false, nil
	}
	what := strings.ToLower(s)
	if what != "timezone" && what != "timezone_hour" && what != "timezone_minute" {
		return nil, false, nil
	}
	in := args[1]
	t := in.Type()
	var offset func(c *Col, i int) int64
	switch {
	case t.Kind == KTimeTZ:
		offset = func(c *Col, i int) int64 { _, off := timetzParts(c.I[i]); return off }
	case t.Kind == KTimestamp && t.TZ:
		loc := p.Set.TZ
		offset = func(c *Col, i int) int64 {
			if loc == nil || function.InfiniteStamp(c.I[i]) {
				return 0
			}
			_, off := time.UnixMicro(c.I[i]).In(loc).Zone()
			return int64(off)
		}
	case t.Kind == KDate:
		return nil, true, errorf("date_part: \"date\" units %q not recognized (a DATE has no time zone)", what)
	case t.Kind == KTime || t.Kind == KTimestamp:
		offset = func(*Col, int) int64 { return 0 }
	default:
		c, err := p.cast(in, tTS)
		if err != nil {
			return nil, true, err
		}
		in = c
		offset = func(*Col, int) int64 { return 0 }
	}
	f := &funcExpr{name: name, args: []Expr{in}, t: TInt, strict: true, row: func(a []*Col, i int) (any, error) {
		return function.ZonePart(what, offset(a[0], i)), nil
	}}
	f.setText("date_part(" + args[0].String() + ", " + args[1].String() + ")")
	out, err := p.fold(f, in)
	return out, true, err
}

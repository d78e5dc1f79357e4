package sqlplan

import (
	"fmt"
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
	return &fn{1, 1, func(p *planner, in []expr) ([]expr, Type, error) {
		if t := in[0].Type(); t.Kind != KDate && t.Kind != KTime {
			c, err := p.cast(in[0], partsType(t))
			if err != nil {
				return nil, Type{}, err
			}
			in = []expr{c}
		}
		return in, rt, nil
	}, func(a []*Col, i int) (any, error) {
		return f(timeOf(a[0], i))
	}, false, false}
}

func datePartFn(part string) *fn {
	f := *timeFn(tInt, nil)
	f.row = func(a []*Col, i int) (any, error) { return partOf(part, a[0], i) }
	return &f
}

// partOf is date_part of slot i of c. The hour of TIME 24:00:00 is 24 (as
// DuckDB's), where its time.Time would read midnight.
func partOf(part string, c *Col, i int) (any, error) {
	switch part {
	case "hour", "hours", "h":
		if c.T.Kind == KTime {
			return c.I[i] / (unitsPerDay(c.T) / 24), nil
		}
	}
	return datePart(part, timeOf(c, i))
}

// timeNameFn is a function of a date or timestamp returning a name (the
// English day or month name, as DuckDB's dayname and monthname).
func timeNameFn(name func(time.Time) string) *fn {
	return timeFn(tString, func(t time.Time) (any, error) { return name(t), nil })
}

func bindDatePart(p *planner, in []expr) ([]expr, Type, error) {
	a, err := p.cast(in[0], tString)
	if err != nil {
		return nil, Type{}, err
	}
	b := in[1]
	if t := b.Type(); t.Kind != KDate && t.Kind != KTime {
		if b, err = p.cast(b, partsType(t)); err != nil {
			return nil, Type{}, err
		}
	}
	rt := tInt
	if k, ok := isConst(a); ok && k.v != nil && strings.ToLower(k.v.(string)) == "epoch" {
		rt = tFloat
	}
	return []expr{a, b}, rt, nil
}

func datePart(part string, t time.Time) (any, error) {
	switch part {
	case "year", "years", "y", "yr":
		return int64(t.Year()), nil
	case "month", "months", "mon":
		return int64(t.Month()), nil
	case "day", "days", "d", "dayofmonth":
		return int64(t.Day()), nil
	case "hour", "hours", "h":
		return int64(t.Hour()), nil
	case "minute", "minutes", "m", "min":
		return int64(t.Minute()), nil
	case "second", "seconds", "s", "sec":
		return int64(t.Second()), nil
	case "millisecond", "milliseconds", "ms":
		return int64(t.Second())*1000 + int64(t.Nanosecond()/1e6), nil
	case "microsecond", "microseconds", "us":
		return int64(t.Second())*1e6 + int64(t.Nanosecond()/1e3), nil
	case "dow", "dayofweek", "weekday":
		return int64(t.Weekday()), nil
	case "isodow":
		d := int64(t.Weekday())
		if d == 0 {
			d = 7
		}
		return d, nil
	case "doy", "dayofyear":
		return int64(t.YearDay()), nil
	case "quarter":
		return int64((t.Month()-1)/3 + 1), nil
	case "week", "weeks", "w", "weekofyear":
		_, w := t.ISOWeek()
		return int64(w), nil
	case "isoyear":
		y, _ := t.ISOWeek()
		return int64(y), nil
	case "yearweek":
		y, w := t.ISOWeek()
		return int64(y)*100 + int64(w), nil
	case "epoch":
		return float64(t.UnixMicro()) / 1e6, nil
	case "decade":
		return int64(t.Year() / 10), nil
	case "century":
		return int64((t.Year()-1)/100 + 1), nil
	case "millennium":
		return int64((t.Year()-1)/1000 + 1), nil
	case "era":
		if t.Year() > 0 {
			return int64(1), nil
		}
		return int64(0), nil
	}
	return nil, fmt.Errorf("unknown date part %q", part)
}

func bindDateTrunc(p *planner, in []expr) ([]expr, Type, error) {
	a, err := p.cast(in[0], tString)
	if err != nil {
		return nil, Type{}, err
	}
	b, err := p.cast(in[1], tTS)
	if err != nil {
		return nil, Type{}, err
	}
	return []expr{a, b}, tTS, nil
}

func dateTrunc(part string, t time.Time) (time.Time, error) {
	switch part {
	case "millennium":
		return time.Date((t.Year()-1)/1000*1000+1, 1, 1, 0, 0, 0, 0, time.UTC), nil
	case "century":
		return time.Date((t.Year()-1)/100*100+1, 1, 1, 0, 0, 0, 0, time.UTC), nil
	case "decade":
		return time.Date(t.Year()/10*10, 1, 1, 0, 0, 0, 0, time.UTC), nil
	case "year", "years", "y":
		return time.Date(t.Year(), 1, 1, 0, 0, 0, 0, time.UTC), nil
	case "quarter":
		return time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC), nil
	case "month", "months", "mon":
		return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC), nil
	case "week", "weeks":
		d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
		wd := int(d.Weekday())
		if wd == 0 {
			wd = 7
		}
		return d.AddDate(0, 0, -(wd - 1)), nil
	case "day", "days", "d":
		return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC), nil
	case "hour", "hours", "h":
		return t.Truncate(time.Hour), nil
	case "minute", "minutes", "m", "min":
		return t.Truncate(time.Minute), nil
	case "second", "seconds", "s", "sec":
		return t.Truncate(time.Second), nil
	case "millisecond", "milliseconds", "ms":
		return t.Truncate(time.Millisecond), nil
	case "microsecond", "microseconds", "us":
		return t.Truncate(time.Microsecond), nil
	}
	return time.Time{}, fmt.Errorf("unknown date part %q", part)
}

func dateDiff(part string, a, b int64) (any, error) {
	ta, tb := microsToTime(a), microsToTime(b)
	switch part {
	case "year", "years":
		return int64(tb.Year() - ta.Year()), nil
	case "quarter":
		return int64((tb.Year()*12+int(tb.Month())-1)/3 - (ta.Year()*12+int(ta.Month())-1)/3), nil
	case "month", "months":
		return int64((tb.Year()-ta.Year())*12 + int(tb.Month()) - int(ta.Month())), nil
	case "week", "weeks":
		// whole weeks between the days (DuckDB's, not week boundaries)
		return (floorDiv(b, 86400e6) - floorDiv(a, 86400e6)) / 7, nil
	case "day", "days":
		return floorDiv(b, 86400e6) - floorDiv(a, 86400e6), nil
	case "hour", "hours":
		return floorDiv(b, 3600e6) - floorDiv(a, 3600e6), nil
	case "minute", "minutes":
		return floorDiv(b, 60e6) - floorDiv(a, 60e6), nil
	case "second", "seconds":
		return floorDiv(b, 1e6) - floorDiv(a, 1e6), nil
	case "millisecond", "milliseconds":
		return floorDiv(b, 1e3) - floorDiv(a, 1e3), nil
	case "microsecond", "microseconds":
		return b - a, nil
	}
	return nil, fmt.Errorf("unknown date part %q", part)
}

// dateSub is date_sub(part, a, b): the number of whole parts from a to b
// (negative when b is before a). A month is whole when b reaches a's day
// of the month, or the last day of its month if shorter.
func dateSub(part string, a, b int64) (any, error) {
	sign := int64(1)
	if b < a {
		a, b, sign = b, a, -1
	}
	units := map[string]int64{"day": 86400e6, "days": 86400e6, "week": 7 * 86400e6, "weeks": 7 * 86400e6,
		"hour": 3600e6, "hours": 3600e6, "minute": 60e6, "minutes": 60e6, "second": 1e6, "seconds": 1e6,
		"millisecond": 1e3, "milliseconds": 1e3, "microsecond": 1, "microseconds": 1}
	if u, ok := units[part]; ok {
		return sign * ((b - a) / u), nil
	}
	perMonths := map[string]int64{"month": 1, "months": 1, "quarter": 3, "quarters": 3, "year": 12, "years": 12,
		"decade": 120, "decades": 120, "century": 1200, "centuries": 1200, "millennium": 12000}
	per, ok := perMonths[part]
	if !ok {
		return nil, fmt.Errorf("unknown date part %q", part)
	}
	ta, tb := microsToTime(a), microsToTime(b)
	months := int64((tb.Year()-ta.Year())*12 + int(tb.Month()) - int(ta.Month()))
	lastDay := time.Date(tb.Year(), tb.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	dayA := min(ta.Day(), lastDay)
	todA := a - timeToDays(ta)*86400e6
	todB := b - timeToDays(tb)*86400e6
	if tb.Day() < dayA || tb.Day() == dayA && todB < todA {
		months--
	}
	return sign * (months / per), nil
}

func bindStrftime(p *planner, in []expr) ([]expr, Type, error) {
	a := in[0]
	if t := a.Type(); t.Kind != KDate {
		var err error
		if a, err = p.cast(a, Type{Kind: KTimestamp, Nanos: t.Nanos}); err != nil {
			return nil, Type{}, err
		}
	}
	b, err := p.cast(in[1], tString)
	if err != nil {
		return nil, Type{}, err
	}
	return []expr{a, b}, tString, nil
}

// strftime formats with the C / DuckDB % directives.
func strftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y': // years before 1 BC unpadded, as DuckDB's
			if y := t.Year(); y < 0 {
				fmt.Fprintf(&b, "%d", y)
			} else {
				fmt.Fprintf(&b, "%04d", y)
			}
		case 'y':
			y := t.Year() % 100
			fmt.Fprintf(&b, "%02d", max(y, -y))
		case 'm':
			fmt.Fprintf(&b, "%02d", int(t.Month()))
		case 'd':
			fmt.Fprintf(&b, "%02d", t.Day())
		case 'H':
			fmt.Fprintf(&b, "%02d", t.Hour())
		case 'M':
			fmt.Fprintf(&b, "%02d", t.Minute())
		case 'S':
			fmt.Fprintf(&b, "%02d", t.Second())
		case 'f':
			fmt.Fprintf(&b, "%06d", t.Nanosecond()/1000)
		case 'n':
			fmt.Fprintf(&b, "%09d", t.Nanosecond())
		case 'j':
			fmt.Fprintf(&b, "%03d", t.YearDay())
		case 'B':
			b.WriteString(t.Month().String())
		case 'b':
			b.WriteString(t.Month().String()[:3])
		case 'A':
			b.WriteString(t.Weekday().String())
		case 'a':
			b.WriteString(t.Weekday().String()[:3])
		case 'w':
			fmt.Fprintf(&b, "%d", int(t.Weekday()))
		case 'u':
			fmt.Fprintf(&b, "%d", (int(t.Weekday())+6)%7+1)
		case 'U':
			// weeks starting on Sunday; days before the first Sunday are week 0
			fmt.Fprintf(&b, "%02d", (t.YearDay()+6-int(t.Weekday()))/7)
		case 'W':
			fmt.Fprintf(&b, "%02d", (t.YearDay()+6-(int(t.Weekday())+6)%7)/7)
		case 'V':
			_, w := t.ISOWeek()
			fmt.Fprintf(&b, "%02d", w)
		case 'G':
			y, _ := t.ISOWeek()
			fmt.Fprintf(&b, "%04d", y)
		case 'e':
			fmt.Fprintf(&b, "%2d", t.Day())
		case 'I':
			h := t.Hour() % 12
			if h == 0 {
				h = 12
			}
			fmt.Fprintf(&b, "%02d", h)
		case 'p':
			if t.Hour() < 12 {
				b.WriteString("AM")
			} else {
				b.WriteString("PM")
			}
		case 'F':
			fmt.Fprintf(&b, "%04d-%02d-%02d", t.Year(), int(t.Month()), t.Day())
		case 'T':
			fmt.Fprintf(&b, "%02d:%02d:%02d", t.Hour(), t.Minute(), t.Second())
		case 'Z', 'z':
			if f[i] == 'z' {
				b.WriteString("+00")
			} else {
				b.WriteString("UTC")
			}
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

// keepsNanos are the functions that take TIMESTAMP_NS and TIME_NS values
// at full precision; every other function sees them in microseconds, as
// DuckDB's do (its date_trunc and arithmetic return TIMESTAMP).
var keepsNanos = map[string]bool{
	"coalesce": true, "nullif": true, "greatest": true, "least": true,
	"strftime": true, "epoch_ns": true,
}

// micros is e in microseconds when it is a TIMESTAMP_NS or TIME_NS (the
// value floored), else e.
func (p *planner) micros(e expr) (expr, error) {
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
func bindTimeBucket(p *planner, in []expr) ([]expr, Type, error) {
	width, ok := constInterval(in[0])
	// Days are fixed widths here (buckets of timestamps without zones).
	width = interval{Months: width.Months, Micros: width.Days*microsPerDay + width.Micros}
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
	t, err := p.cast(in[1], tTS)
	if err != nil {
		return nil, Type{}, err
	}
	// DuckDB's default origins: 2000-01-03 (a Monday) for widths of days
	// and less, 2000-01-01 for months.
	origin := time.Date(2000, 1, 3, 0, 0, 0, 0, time.UTC).UnixMicro()
	if width.Months != 0 {
		origin = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	}
	var offset interval
	if len(in) == 3 {
		if iv, ok := constInterval(in[2]); ok {
			offset = iv
		} else {
			o, err := p.cast(in[2], tTS)
			if err != nil {
				return nil, Type{}, err
			}
			c, ok := isConst(o)
			if !ok || c.v == nil {
				return nil, Type{}, errorf("the origin of time_bucket must be a constant")
			}
			origin = c.v.(int64)
		}
	}
	isDate := int64(0)
	if rt.Kind == KDate {
		isDate = 1
	}
	ints := func(vs ...int64) []expr {
		out := make([]expr, len(vs))
		for i, v := range vs {
			out[i] = &constExpr{t: tInt, v: v}
		}
		return out
	}
	args := append(ints(width.Months, width.Micros), t)
	return append(args, ints(origin, offset.Months, offset.Days*microsPerDay+offset.Micros, isDate)...), rt, nil
}

// constInterval is the value of a constant INTERVAL expression.
func constInterval(e expr) (interval, bool) {
	c, ok := isConst(e)
	if !ok || c.t.Kind != KInterval {
		return interval{}, false
	}
	switch v := c.v.(type) {
	case interval:
		return v, true
	}
	return interval{}, false
}

// timeBucket is the start of the bucket of width that holds t, buckets
// being laid from origin, after shifting t back by the offset (and the
// start forward by it).
func timeBucket(a []*Col, i int) (any, error) {
	wm, wus, t := a[0].I[i], a[1].I[i], a[2].I[i]
	origin, om, ous, isDate := a[3].I[i], a[4].I[i], a[5].I[i], a[6].I[i] == 1
	shift := func(us, months, micros, sign int64) int64 {
		if months != 0 {
			us = addMonths(microsToTime(us), sign*months).UnixMicro()
		}
		return us + sign*micros
	}
	t = shift(t, om, ous, -1)
	var start int64
	if wm != 0 {
		// Month buckets start on the first of a month: the origin's
		// day and time do not count, as in DuckDB.
		tt, ot := microsToTime(t), microsToTime(origin)
		ot = time.Date(ot.Year(), ot.Month(), 1, 0, 0, 0, 0, time.UTC)
		months := int64(tt.Year()-ot.Year())*12 + int64(tt.Month()-ot.Month())
		k := floorDiv(months, wm) * wm
		start = addMonths(ot, k).UnixMicro()
		if start > t {
			start = addMonths(ot, k-wm).UnixMicro()
		}
	} else {
		start = origin + floorDiv(t-origin, wus)*wus
	}
	start = shift(start, om, ous, 1)
	if isDate {
		return floorDiv(start, 86400e6), nil
	}
	return start, nil
}

// intervalFn makes to_days and friends: n units of unit microseconds as
// an INTERVAL.
func intervalFn(unit int64) *fn {
	return &fn{1, 1, sig(Type{Kind: KInterval}, tInt), func(a []*Col, i int) (any, error) {
		n := a[0].I[i]
		if n > math.MaxInt64/unit || n < math.MinInt64/unit {
			return nil, errorf("interval out of range")
		}
		if unit == microsPerDay {
			return interval{Days: n}, nil
		}
		return interval{Micros: n * unit}, nil
	}, false, false}
}

// bindIntervalPart binds epoch(interval) and date_part(part, interval) (so
// EXTRACT) from the interval's own months, days and microseconds, as
// DuckDB (epoch counts a month as 30 days); ok is false for other calls.
func bindIntervalPart(name string, args []expr) (expr, bool, error) {
	var part, iv expr
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
		k, ok := isConst(part)
		s, isStr := k.v.(string)
		if !ok || !isStr {
			return nil, true, errorf("the part of date_part of an INTERVAL must be a constant")
		}
		what = strings.ToLower(s)
	}
	t := tInt
	if what == "epoch" {
		t = tFloat
	}
	e := &funcExpr{name: name, args: []expr{iv}, t: t, strict: true, row: func(a []*Col, i int) (any, error) {
		return intervalPart(what, a[0].Get(i).(interval))
	}}
	text := "epoch(" + iv.String() + ")"
	if part != nil {
		text = "date_part(" + part.String() + ", " + iv.String() + ")"
	}
	e.setText(text)
	return e, true, nil
}

func intervalPart(part string, iv interval) (any, error) {
	us := iv.Micros
	switch part {
	case "epoch":
		return float64(iv.FlatMicros()) / 1e6, nil
	case "year", "years", "y":
		return iv.Months / 12, nil
	case "month", "months", "mon":
		return iv.Months % 12, nil
	case "quarter", "quarters":
		return iv.Months%12/3 + 1, nil
	case "decade", "decades":
		return iv.Months / 120, nil
	case "century", "centuries":
		return iv.Months / 1200, nil
	case "millennium", "millennia":
		return iv.Months / 12000, nil
	case "day", "days", "d":
		return iv.Days, nil
	case "hour", "hours", "h":
		return us / 3600e6, nil
	case "minute", "minutes", "m", "min":
		return us % 3600e6 / 60e6, nil
	case "second", "seconds", "s", "sec":
		return us % 60e6 / 1e6, nil
	case "millisecond", "milliseconds", "ms":
		return us % 60e6 / 1e3, nil
	case "microsecond", "microseconds", "us":
		return us % 60e6, nil
	}
	return nil, errorf("date_part %q of an INTERVAL is not supported", part)
}

// bindZonePart binds date_part (so EXTRACT) of timezone, timezone_hour
// and timezone_minute, which the value's type decides: a TIMETZ's own
// offset, a TIMESTAMPTZ's offset in the statement's TimeZone at that
// instant, 0 for TIME and TIMESTAMP, an error for DATE, as DuckDB's;
// ok is false for other calls.
func (p *planner) bindZonePart(name string, args []expr) (expr, bool, error) {
	if name != "date_part" || len(args) != 2 {
		return nil, false, nil
	}
	k, ok := isConst(args[0])
	if !ok {
		return nil, false, nil
	}
	s, isStr := k.v.(string)
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
		loc := p.set.tz
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
	f := &funcExpr{name: name, args: []expr{in}, t: tInt, strict: true, row: func(a []*Col, i int) (any, error) {
		return zonePart(what, offset(a[0], i)), nil
	}}
	f.setText("date_part(" + args[0].String() + ", " + args[1].String() + ")")
	out, err := p.fold(f, in)
	return out, true, err
}

// zonePart is part of a UTC offset of off seconds: the seconds, or its
// hours or minutes truncated toward zero (both negative west of UTC).
func zonePart(part string, off int64) int64 {
	switch part {
	case "timezone_hour":
		return off / 3600
	case "timezone_minute":
		return off / 60 % 60
	}
	return off
}

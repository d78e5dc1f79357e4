package function

import (
	"fmt"
	"strings"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The kernels of the date and time functions: the parts, truncation,
// differences and text formats of dates, times, timestamps and
// intervals (their binds, which read constant arguments, are the
// binder's: sqlplan/funcs_time.go).

// TimeOf returns a date or timestamp slot as time.Time.
func TimeOf(c *vec.Col, i int) time.Time {
	switch c.T.Kind {
	case vec.KDate:
		return vec.DaysToTime(c.I[i])
	case vec.KTime:
		return vec.TimeValue(c.T, c.I[i])
	}
	return vec.StampToTime(c.T, c.I[i])
}

// PartOf is date_part of slot i of c. The hour of TIME 24:00:00 is 24 (as
// DuckDB's), where its time.Time would read midnight.
func PartOf(part string, c *vec.Col, i int) (any, error) {
	if (c.T.Kind == vec.KDate || c.T.Kind == vec.KTimestamp) && InfiniteValue(c.T, c.I[i]) {
		return nil, nil // no part of an infinity: NULL, as DuckDB's
	}
	switch part {
	case "hour", "hours", "h":
		if c.T.Kind == vec.KTime {
			return c.I[i] / (vec.UnitsPerDay(c.T) / 24), nil
		}
	}
	return DatePart(part, TimeOf(c, i))
}

func DatePart(part string, t time.Time) (any, error) {
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

func DateTrunc(part string, t time.Time) (time.Time, error) {
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

func DateDiff(part string, a, b int64) (any, error) {
	ta, tb := vec.MicrosToTime(a), vec.MicrosToTime(b)
	switch part {
	case "year", "years":
		return int64(tb.Year() - ta.Year()), nil
	case "quarter":
		return int64((tb.Year()*12+int(tb.Month())-1)/3 - (ta.Year()*12+int(ta.Month())-1)/3), nil
	case "month", "months":
		return int64((tb.Year()-ta.Year())*12 + int(tb.Month()) - int(ta.Month())), nil
	case "week", "weeks":
		// whole weeks between the days (DuckDB's, not week boundaries)
		return (vec.FloorDiv(b, 86400e6) - vec.FloorDiv(a, 86400e6)) / 7, nil
	case "day", "days":
		return vec.FloorDiv(b, 86400e6) - vec.FloorDiv(a, 86400e6), nil
	case "hour", "hours":
		return vec.FloorDiv(b, 3600e6) - vec.FloorDiv(a, 3600e6), nil
	case "minute", "minutes":
		return vec.FloorDiv(b, 60e6) - vec.FloorDiv(a, 60e6), nil
	case "second", "seconds":
		return vec.FloorDiv(b, 1e6) - vec.FloorDiv(a, 1e6), nil
	case "millisecond", "milliseconds":
		return vec.FloorDiv(b, 1e3) - vec.FloorDiv(a, 1e3), nil
	case "microsecond", "microseconds":
		return b - a, nil
	}
	return nil, fmt.Errorf("unknown date part %q", part)
}

// DateSub is date_sub(part, a, b): the number of whole parts from a to b
// (negative when b is before a). A month is whole when b reaches a's day
// of the month, or the last day of its month if shorter.
func DateSub(part string, a, b int64) (any, error) {
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
	ta, tb := vec.MicrosToTime(a), vec.MicrosToTime(b)
	months := int64((tb.Year()-ta.Year())*12 + int(tb.Month()) - int(ta.Month()))
	lastDay := time.Date(tb.Year(), tb.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	dayA := min(ta.Day(), lastDay)
	todA := a - TimeToDays(ta)*86400e6
	todB := b - TimeToDays(tb)*86400e6
	if tb.Day() < dayA || tb.Day() == dayA && todB < todA {
		months--
	}
	return sign * (months / per), nil
}

// Strftime formats with the C / DuckDB % directives.
func Strftime(t time.Time, f string) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		if f[i] == '-' && i+1 < len(f) && strings.IndexByte("dmHIMSjy", f[i+1]) >= 0 {
			// %-d, %-m, ...: the number without its padding zeros.
			i++
			num := strings.TrimLeft(Strftime(t, "%"+f[i:i+1]), "0")
			if num == "" {
				num = "0"
			}
			b.WriteString(num)
			continue
		}
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

// TimeBucket is the start of the bucket of width that holds t, buckets
// being laid from origin, after shifting t back by the offset (and the
// start forward by it).
func TimeBucket(a []*vec.Col, i int) (any, error) {
	wm, wus, t := a[0].I[i], a[1].I[i], a[2].I[i]
	origin, om, ous, isDate := a[3].I[i], a[4].I[i], a[5].I[i], a[6].I[i] == 1
	shift := func(us, months, micros, sign int64) int64 {
		if months != 0 {
			us = vec.AddMonths(vec.MicrosToTime(us), sign*months).UnixMicro()
		}
		return us + sign*micros
	}
	t = shift(t, om, ous, -1)
	var start int64
	if wm != 0 {
		// Month buckets start on the first of a month: the origin's
		// day and time do not count, as in DuckDB.
		tt, ot := vec.MicrosToTime(t), vec.MicrosToTime(origin)
		ot = time.Date(ot.Year(), ot.Month(), 1, 0, 0, 0, 0, time.UTC)
		months := int64(tt.Year()-ot.Year())*12 + int64(tt.Month()-ot.Month())
		k := vec.FloorDiv(months, wm) * wm
		start = vec.AddMonths(ot, k).UnixMicro()
		if start > t {
			start = vec.AddMonths(ot, k-wm).UnixMicro()
		}
	} else {
		start = origin + vec.FloorDiv(t-origin, wus)*wus
	}
	start = shift(start, om, ous, 1)
	if isDate {
		return vec.FloorDiv(start, 86400e6), nil
	}
	return start, nil
}

func IntervalPart(part string, iv vec.Interval) (any, error) {
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

// ZonePart is part of a UTC offset of off seconds: the seconds, or its
// hours or minutes truncated toward zero (both negative west of UTC).
func ZonePart(part string, off int64) int64 {
	switch part {
	case "timezone_hour":
		return off / 3600
	case "timezone_minute":
		return off / 60 % 60
	}
	return off
}

func TimeToDays(t time.Time) int64 {
	u := t.UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC).Unix() / 86400
}

package function

import (
	"fmt"
	"math"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The text of DATE, TIME and TIMESTAMP values in DuckDB's forms: the
// parsers behind casts from VARCHAR and the formatters behind casts to it.
// Dates are proleptic Gregorian day numbers; years may have more than four
// digits, and years before 1 read and print as "YYYY-MM-DD (BC)" (year 0
// is 1 BC).

const (
	// minDateDays and maxDateDays are DuckDB's first and last DATE,
	// 5877642-06-25 (BC) and 5881580-07-10 (its int32 days, short of the
	// infinities).
	minDateDays = -(math.MaxInt32 - 1)
	maxDateDays = math.MaxInt32 - 1
)

// TextFault says why a date/time text did not parse.
type TextFault uint8

const (
	TextOK       TextFault = iota // the text parsed
	textFormat                    // not the form
	textRange                     // the form, with a field or the value out of range
	textZone                      // a time zone other than UTC
	textInfinite                  // "infinity": DuckDB's infinite dates and timestamps
)

func isSpaceByte(c byte) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// SkipSpaces is the index of the first byte at or after i that is not a
// space.
func SkipSpaces(s string, i int) int {
	for i < len(s) && isSpaceByte(s[i]) {
		i++
	}
	return i
}

// oneOrTwoDigits reads a number of one or two digits at s[i:].
func oneOrTwoDigits(s string, i int) (int64, int, bool) {
	if i >= len(s) || !isDigitByte(s[i]) {
		return 0, i, false
	}
	v := int64(s[i] - '0')
	i++
	if i < len(s) && isDigitByte(s[i]) {
		v = v*10 + int64(s[i]-'0')
		i++
	}
	return v, i, true
}

// daysFromCivil is the day number (0 = 1970-01-01) of a proleptic
// Gregorian date; year 0 is 1 BC.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := vec.FloorDiv(y, 400)
	yoe := y - era*400
	doy := (153*((m+9)%12)+2)/5 + d - 1
	return era*146097 + yoe*365 + yoe/4 - yoe/100 + doy - 719468
}

func monthDays(y, m int64) int64 {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// scanDate reads DuckDB's date text at the start of s, as its cast does:
// spaces, [-]YEAR SEP M[M] SEP D[D] with SEP one of "-", "/", "\" or a
// space, an optional " (BC)", and no digit right after; or "epoch". It
// returns the day number and where the date ends.
func scanDate(s string) (int64, int, TextFault) {
	n := len(s)
	i := SkipSpaces(s, 0)
	neg := i < n && s[i] == '-'
	if neg {
		i++
	}
	if i >= n {
		return 0, 0, textFormat
	}
	if !isDigitByte(s[i]) {
		rest := s[i:]
		for _, w := range [...]string{"infinity", "epoch"} {
			if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) && SkipSpaces(s, i+len(w)) == n {
				if w == "epoch" {
					return 0, n, TextOK
				}
				if neg {
					return vec.DateNegInf, n, textInfinite
				}
				return vec.DateInf, n, textInfinite
			}
		}
		return 0, 0, textFormat
	}
	var year int64
	for ; i < n && isDigitByte(s[i]); i++ {
		if year >= 1e8 {
			return 0, 0, textRange
		}
		year = year*10 + int64(s[i]-'0')
	}
	if neg {
		year = -year
	}
	if i >= n {
		return 0, 0, textFormat
	}
	sep := s[i]
	if sep != '-' && sep != '/' && sep != '\\' && sep != ' ' {
		return 0, 0, textFormat
	}
	month, i, ok := oneOrTwoDigits(s, i+1)
	if !ok || i >= n || s[i] != sep {
		return 0, 0, textFormat
	}
	day, i, ok := oneOrTwoDigits(s, i+1)
	if !ok {
		return 0, 0, textFormat
	}
	if n-i >= 5 && isSpaceByte(s[i]) && s[i+1] == '(' && s[i+2]|0x20 == 'b' && s[i+3]|0x20 == 'c' && s[i+4] == ')' {
		if neg || year == 0 {
			return 0, 0, textFormat
		}
		year = 1 - year
		i += 5
	}
	if i < n && isDigitByte(s[i]) {
		return 0, 0, textFormat
	}
	if month < 1 || month > 12 || day < 1 || day > monthDays(year, month) {
		return 0, 0, textRange
	}
	days := daysFromCivil(year, month, day)
	if days < minDateDays || days > maxDateDays {
		return 0, 0, textRange
	}
	return days, i, TextOK
}

// ScanClock reads DuckDB's time-of-day text at s[i:] (after spaces):
// H:M[:[S[.fraction]]] with up to nine hour digits (as an interval's) and
// one or two minute and second digits; what follows is the caller's. It
// returns the microseconds, the nanoseconds below them (with nanos; the
// fraction's later digits are dropped), and where the time ends.
func ScanClock(s string, i int, nanos bool) (us, ns int64, end int, ok bool) {
	n := len(s)
	i = SkipSpaces(s, i)
	if i >= n || !isDigitByte(s[i]) {
		return 0, 0, 0, false
	}
	var hour int64
	for digits := 0; i < n && isDigitByte(s[i]); i++ {
		if digits == 9 {
			return 0, 0, 0, false
		}
		digits++
		hour = hour*10 + int64(s[i]-'0')
	}
	if i >= n || s[i] != ':' {
		return 0, 0, 0, false
	}
	minute, i, ok := oneOrTwoDigits(s, i+1)
	if !ok || minute >= 60 {
		return 0, 0, 0, false
	}
	var sec, frac int64
	if i < n {
		if s[i] != ':' {
			return 0, 0, 0, false
		}
		if i++; i < n {
			if sec, i, ok = oneOrTwoDigits(s, i); !ok || sec >= 60 {
				return 0, 0, 0, false
			}
			if i < n && s[i] == '.' {
				mult := int64(1e5)
				if nanos {
					mult = 1e8
				}
				for i++; i < n && isDigitByte(s[i]); i++ {
					frac += int64(s[i]-'0') * mult
					mult /= 10
				}
			}
		}
	}
	if nanos {
		frac, ns = frac/1000, frac%1000
	}
	return ((hour*60+minute)*60+sec)*1e6 + frac, ns, i, true
}

// ScanOffset reads a UTC offset at s[i:]: ±HH, then MM or :MM, then (after
// :MM) :SS. It returns the offset in seconds and where it ends (an
// incomplete minute or second part is left unread).
func ScanOffset(s string, i int) (int64, int, bool) {
	n := len(s)
	two := func(j int) (int64, bool) {
		if j+2 > n || !isDigitByte(s[j]) || !isDigitByte(s[j+1]) {
			return 0, false
		}
		return int64(s[j]-'0')*10 + int64(s[j+1]-'0'), true
	}
	if i+3 > n || (s[i] != '+' && s[i] != '-') {
		return 0, i, false
	}
	hh, ok := two(i + 1)
	if !ok {
		return 0, i, false
	}
	off, j := hh*3600, i+3
	colon := j < n && s[j] == ':'
	if colon {
		j++
	}
	if mm, ok := two(j); ok {
		off += mm * 60
		j += 2
		if ss, ok := two(j + 1); colon && ok && s[j] == ':' {
			off += ss
			j += 3
		}
	}
	if s[i] == '-' {
		off = -off
	}
	return off, j, true
}

// isZoneByte reports a byte of a time zone name.
func isZoneByte(c byte) bool {
	return isDigitByte(c) || c|0x20 >= 'a' && c|0x20 <= 'z' || c == '_' || c == '/' || c == '+' || c == '-' || c == ':'
}

// ScanTimestamp reads DuckDB's timestamp text: a date, optionally a
// space or "T" and a time of day (at most 24:00:00), then "Z", a UTC
// offset, or a space and a zone name (only UTC is known), and spaces. It
// returns the microseconds since the epoch (the wall clock: the offset is
// not applied), the nanoseconds below them (with nanos), and the offset
// in seconds.
func ScanTimestamp(s string, nanos bool) (us, ns, offset int64, f TextFault) {
	us, ns, offset, _, f = ScanTimestampZoned(s, nanos)
	return us, ns, offset, f
}

// ScanTimestampZoned is ScanTimestamp that also says whether the text
// gives a zone (Z, an offset or UTC).
func ScanTimestampZoned(s string, nanos bool) (us, ns, offset int64, zoned bool, f TextFault) {
	days, i, f := scanDate(s)
	if f == textInfinite {
		return infiniteStamp(days), 0, 0, false, f
	}
	if f != TextOK {
		return 0, 0, 0, false, f
	}
	var tod int64
	if n := len(s); i < n {
		if s[i] == ' ' || s[i] == 'T' {
			i++
		}
		var ok bool
		if tod, ns, i, ok = ScanClock(s, i, nanos); !ok {
			return 0, 0, 0, false, textFormat
		}
		if tod > vec.MicrosPerDay {
			return 0, 0, 0, false, textRange
		}
		zone := ""
		if i < n {
			if s[i] == 'Z' {
				i, zoned = i+1, true
			} else if off, j, ok := ScanOffset(s, i); ok {
				offset, i, zoned = off, j, true
			} else {
				if s[i] != ' ' {
					return 0, 0, 0, false, textFormat
				}
				j := i + 1
				for i = j; i < n && isZoneByte(s[i]); i++ {
				}
				zone = s[j:i]
				zoned = zone != ""
			}
			if SkipSpaces(s, i) < n {
				return 0, 0, 0, false, textFormat
			}
		}
		if zone != "" && !strings.EqualFold(zone, "UTC") {
			return 0, 0, 0, false, textZone
		}
	}
	if days > math.MaxInt64/vec.MicrosPerDay || days < math.MinInt64/vec.MicrosPerDay {
		return 0, 0, 0, false, textRange
	}
	us = days*vec.MicrosPerDay + tod
	if us < days*vec.MicrosPerDay || us == math.MaxInt64 {
		return 0, 0, 0, false, textRange
	}
	return us, ns, offset, zoned, TextOK
}

// infiniteStamp is the TIMESTAMP infinity of the DATE infinity days.
func infiniteStamp(days int64) int64 {
	if days < 0 {
		return vec.StampNegInf
	}
	return vec.StampInf
}

// The casts from text, with DuckDB's errors.

// textError is DuckDB's error for text s that is not a value of type to:
// field names the type in the message, form its text.
func textError(f TextFault, s, field string, to vec.Type, form string) error {
	switch f {
	case textRange:
		return fmt.Errorf("%s field value out of range: \"%s\"", field, s)
	case textZone:
		return fmt.Errorf("%s field value \"%s\" has a timestamp that is not UTC", field, s)
	case textInfinite:
		return fmt.Errorf("cannot cast VARCHAR %s to %s: carquet has no infinite %s", QuoteText(s), to.SQLName(), to.SQLName())
	}
	return fmt.Errorf("invalid %s field format: \"%s\", expected format is (%s)", field, s, form)
}

// ParseDateText is VARCHAR to DATE.
func ParseDateText(s string) (int64, error) {
	days, _, f := scanDate(s)
	if f != TextOK && f != textInfinite {
		return 0, textError(f, s, "date", vec.Type{Kind: vec.KDate}, "YYYY-MM-DD")
	}
	return days, nil
}

// ParseTimestampText is VARCHAR to TIMESTAMP, TIMESTAMPTZ or
// TIMESTAMP_NS. As DuckDB's, TIMESTAMP keeps the wall clock of a text
// with a UTC offset, the other two apply the offset.
func ParseTimestampText(s string, to vec.Type) (int64, error) {
	us, ns, off, f := ScanTimestamp(s, to.Nanos)
	if f == textInfinite {
		return us, nil // the same int64 extremes in every unit
	}
	if f == TextOK && (to.TZ || to.Nanos) && off != 0 {
		if d := off * 1e6; (d > 0 && us < math.MinInt64+d) || (d < 0 && us > math.MaxInt64+d) {
			f = textRange
		} else {
			us -= d
		}
	}
	if to.Nanos {
		if f == TextOK && us <= math.MaxInt64/1000 && us >= math.MinInt64/1000 {
			if v := us*1000 + ns; v >= us*1000 && v != math.MaxInt64 {
				return v, nil
			}
		}
		if f != textInfinite {
			return 0, fmt.Errorf("Could not convert string %s to TIMESTAMP_NS", QuoteText(s))
		}
	} else if f == TextOK {
		return us, nil
	}
	return 0, textError(f, s, "timestamp", to, "YYYY-MM-DD HH:MM:SS[.US][±HH[:MM[:SS]]| ZONE]")
}

// ParseTimeText is VARCHAR to TIME or TIME_NS: a time of day up to
// 24:00:00 (kept apart from 00:00:00, as DuckDB does) with anything after
// it ignored, or else a timestamp's time of day.
func ParseTimeText(s string, nanos bool) (int64, error) {
	us, ns, _, ok := ScanClock(s, 0, nanos)
	if ok && us > vec.MicrosPerDay {
		ok = false
	} else if !ok {
		ts, tns, _, f := ScanTimestamp(s, nanos)
		us, ns, ok = ts-vec.FloorDiv(ts, vec.MicrosPerDay)*vec.MicrosPerDay, tns, f == TextOK
	}
	switch {
	case !ok:
		return 0, fmt.Errorf("time field value out of range: \"%s\", expected format is ([YYYY-MM-DD ]HH:MM:SS[.MS])", s)
	case nanos:
		return us*1000 + ns, nil
	}
	return us, nil
}

func QuoteText(s string) string { return "'" + s + "'" }

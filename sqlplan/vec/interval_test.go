package vec

import (
	"testing"
	"time"
)

// TestTimeTZKey: the key of a TIMETZ orders values by the UTC time, then
// the larger offset first (DuckDB's order), and gives back its parts.
func TestTimeTZKey(t *testing.T) {
	type tz struct{ us, off int64 }
	ordered := []tz{
		{0, MaxTZOffset}, {12 * 3600e6, 3600}, {11 * 3600e6, 0}, {10 * 3600e6, -3600},
		{11*3600e6 + 1, 0}, {MicrosPerDay, 0}, {MicrosPerDay, -MaxTZOffset},
	}
	for i, v := range ordered {
		k := TimeTZKey(v.us, v.off)
		if us, off := TimeTZParts(k); us != v.us || off != v.off {
			t.Errorf("%v: parts %d, %d", v, us, off)
		}
		if i > 0 && TimeTZKey(ordered[i-1].us, ordered[i-1].off) >= k {
			t.Errorf("%v does not order after %v", v, ordered[i-1])
		}
	}
}

// TestTimeTZUTC: the UTC time of day wraps into one day both ways.
func TestTimeTZUTC(t *testing.T) {
	for _, c := range []struct{ us, off, want int64 }{
		{3600e6, 7200, 23 * 3600e6},   // 01:00+02 is 23:00 UTC
		{23 * 3600e6, -7200, 3600e6},  // 23:00-02 is 01:00 UTC
		{12 * 3600e6, 0, 12 * 3600e6}, // +00 is itself
		{MicrosPerDay, 0, 0},          // 24:00 is midnight
		{30 * 60e6, MaxTZOffset, 30*60e6 - MaxTZOffset*1e6 + MicrosPerDay},
	} {
		if got := TimeTZUTC(TimeTZKey(c.us, c.off)); got != c.want {
			t.Errorf("TimeTZUTC(%d, %+d) = %d, want %d", c.us, c.off, got, c.want)
		}
	}
}

// TestIntervalCompare: intervals compare and hash by their normalized
// parts ('1 month' equals '30 days' equals '720 hours'), as DuckDB.
func TestIntervalCompare(t *testing.T) {
	month, days30, hours720 := Interval{Months: 1}, Interval{Days: 30}, Interval{Micros: 720 * 3600e6}
	for _, o := range []Interval{days30, hours720} {
		if CompareIntervals(month, o) != 0 {
			t.Errorf("%v != %v", month, o)
		}
		if string(AppendIntervalKey(nil, month)) != string(AppendIntervalKey(nil, o)) {
			t.Errorf("keys of %v and %v differ", month, o)
		}
	}
	if CompareIntervals(Interval{Days: 29, Micros: MicrosPerDay - 1}, month) >= 0 {
		t.Error("29 days 23:59:59.999999 orders after 1 month")
	}
	if CompareIntervals(month.Neg(), Interval{}) >= 0 {
		t.Error("-1 month orders after 0")
	}
}

// TestIntervalArithmetic: parts add apart; scaling carries fractions of
// months into days (30 a month) and of days into microseconds.
func TestIntervalArithmetic(t *testing.T) {
	a := Interval{1, 2, 3}
	if got := a.Add(Interval{10, 20, 30}); got != (Interval{11, 22, 33}) {
		t.Errorf("Add: %v", got)
	}
	if got := a.MulInt(-2); got != (Interval{-2, -4, -6}) {
		t.Errorf("MulInt: %v", got)
	}
	if got, ok := (Interval{Months: 1}).Scale(0.5); !ok || got != (Interval{Days: 15}) {
		t.Errorf("Scale(1 month, 0.5) = %v, %v", got, ok)
	}
	if got, ok := (Interval{Days: 1}).Scale(1.5); !ok || got != (Interval{Days: 1, Micros: MicrosPerDay / 2}) {
		t.Errorf("Scale(1 day, 1.5) = %v, %v", got, ok)
	}
	if _, ok := (Interval{Micros: 1 << 62}).Scale(4); ok {
		t.Error("Scale past int64 succeeded")
	}
	if got := (Interval{Months: 1, Days: 1, Micros: 1}).FlatMicros(); got != 31*MicrosPerDay+1 {
		t.Errorf("FlatMicros: %d", got)
	}
	if got := SplitMicros(-MicrosPerDay - 5); got != (Interval{Days: -1, Micros: -5}) {
		t.Errorf("SplitMicros: %v", got)
	}
}

// TestIntervalAddTo: months step the calendar (clamping the day), days
// and microseconds are fixed lengths.
func TestIntervalAddTo(t *testing.T) {
	jan31 := time.Date(2024, 1, 31, 10, 0, 0, 0, time.UTC).UnixMicro()
	got := MicrosToTime(Interval{Months: 1, Days: 1, Micros: 60e6}.AddTo(jan31, 1))
	if want := time.Date(2024, 3, 1, 10, 1, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("2024-01-31 10:00 + 1 month 1 day 1 minute = %v, want %v", got, want)
	}
	got = MicrosToTime(Interval{Months: 13}.AddTo(jan31, -1))
	if want := time.Date(2022, 12, 31, 10, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("2024-01-31 10:00 - 13 months = %v, want %v", got, want)
	}
}

// TestFormatInterval: DuckDB's text of intervals.
func TestFormatInterval(t *testing.T) {
	for _, c := range []struct {
		iv   Interval
		want string
	}{
		{Interval{}, "00:00:00"},
		{Interval{Months: 14, Days: 3, Micros: 4*3600e6 + 5*60e6 + 6789e3}, "1 year 2 months 3 days 04:05:06.789"},
		{Interval{Days: -1, Micros: -3600e6}, "-1 day -01:00:00"},
		{Interval{Months: -1}, "-1 month"},
	} {
		if got := FormatInterval(c.iv); got != c.want {
			t.Errorf("FormatInterval(%v) = %q, want %q", c.iv, got, c.want)
		}
	}
}

// TestGoValue: the Go values of temporal, decimal and interval scalars.
func TestGoValue(t *testing.T) {
	if got := GoValue(Type{Kind: KDate}, int64(1)); got != time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC) {
		t.Errorf("DATE: %v", got)
	}
	if got := GoValue(Type{Kind: KDecimal, Prec: 5, Scale: 2}, int64(-12345)); got != "-123.45" {
		t.Errorf("DECIMAL: %v", got)
	}
	if got := GoValue(Type{Kind: KInterval}, Interval{Days: 2}); got != "2 days" {
		t.Errorf("INTERVAL: %v", got)
	}
	tz := GoValue(Type{Kind: KTimeTZ}, TimeTZKey(3600e6, -1800)).(time.Time)
	if _, off := tz.Zone(); off != -1800 || tz.Hour() != 1 || tz.Minute() != 0 {
		t.Errorf("TIMETZ: %v", tz)
	}
	if GoValue(Type{Kind: KInterval}, nil) != nil {
		t.Error("NULL is not nil")
	}
}

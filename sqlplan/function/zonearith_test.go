package function

import (
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// stampUS is the instant of text (RFC 3339 with a fraction) in microseconds.
func stampUS(t *testing.T, text string) int64 {
	t.Helper()
	ts, err := time.Parse("2006-01-02 15:04:05.999999Z07:00", text)
	if err != nil {
		t.Fatal(err)
	}
	return ts.UnixMicro()
}

// The answers are DuckDB 1.5's (duckq, SET TimeZone).
func TestAddIntervalZoned(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	hour := int64(3600e6)
	cases := []struct {
		loc       *time.Location
		from      string
		iv        vec.Interval
		want      string
		rationale string
	}{
		{time.UTC, "2024-01-01 00:00:00.000001Z", vec.Interval{Months: -10, Days: -31, Micros: -(43*hour + 51*60e6 + 10774000)}, "2023-01-28 04:08:49.226001Z", "a negative part: time, months, days"},
		{ny, "2024-01-01 00:00:00.000001Z", vec.Interval{Months: -10, Days: -31, Micros: -(43*hour + 51*60e6 + 10774000)}, "2023-01-29 04:08:49.226001Z", "the same in New York's calendar"},
		{time.UTC, "2024-01-30 12:00:00Z", vec.Interval{Months: 1, Micros: 36 * hour}, "2024-03-02 00:00:00Z", "no negative part: months first"},
		{time.UTC, "2024-03-31 00:00:00Z", vec.Interval{Months: -1, Micros: -24 * hour}, "2024-02-29 00:00:00Z", "time before months"},
		{time.UTC, "2024-03-31 00:00:00Z", vec.Interval{Months: -1, Days: -1}, "2024-02-28 00:00:00Z", "months before days"},
		{ny, "2024-03-09 12:00:00-05:00", vec.Interval{Days: 1}, "2024-03-10 16:00:00Z", "a day keeps the wall time over the change to summer time"},
		{ny, "2024-03-09 12:00:00-05:00", vec.Interval{Micros: 24 * hour}, "2024-03-10 17:00:00Z", "24 hours do not"},
		{ny, "2024-03-09 02:30:00-05:00", vec.Interval{Days: 1}, "2024-03-10 07:30:00Z", "a skipped wall time is the one after the gap"},
		{ny, "2024-11-03 01:30:00-04:00", vec.Interval{Days: 1}, "2024-11-04 06:30:00Z", "out of a repeated hour"},
		{ny, "2024-11-02 01:30:00-04:00", vec.Interval{Days: 1}, "2024-11-03 05:30:00Z", "into a repeated hour: the offset kept"},
		{ny, "2024-03-10 06:30:00.0005Z", vec.Interval{Micros: 700}, "2024-03-10 06:30:00.0012Z", "microseconds carry"},
		{time.UTC, "2024-01-31 00:00:00Z", vec.Interval{Months: 1, Days: -1}, "2024-02-28 00:00:00Z", "month end pinned, then days"},
	}
	for _, c := range cases {
		got := AddIntervalZoned(stampUS(t, c.from), c.iv, c.loc)
		if want := stampUS(t, c.want); got != want {
			t.Errorf("%s + %v in %s = %s, want %s (%s)", c.from, c.iv, c.loc, time.UnixMicro(got).UTC(), c.want, c.rationale)
		}
	}
	if got := AddIntervalZoned(vec.StampInf, vec.Interval{Days: 1}, time.UTC); got != vec.StampInf {
		t.Errorf("infinity + 1 day = %d", got)
	}
}

func TestSubStampsZoned(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	cases := []struct {
		loc        *time.Location
		end, start string
		want       vec.Interval
	}{
		// Before 1970 the later one's microseconds are negative and
		// borrow nothing: -25567 days +1 us, not -25566 days -86399999999 us.
		{time.UTC, "1900-01-01 00:00:00Z", "1969-12-31 23:59:59.999999Z", vec.Interval{Days: -25567, Micros: 1}},
		{time.UTC, "2024-03-01 00:00:00.0005Z", "2024-01-31 00:00:00.0007Z", vec.Interval{Days: 29, Micros: 86399999800}},
		{ny, "2024-03-11 12:00:00-04:00", "2024-03-09 12:00:00-05:00", vec.Interval{Days: 2}},
		{ny, "2024-03-11 11:00:00-04:00", "2024-03-09 12:00:00-05:00", vec.Interval{Days: 1, Micros: 82800000000}},
		{ny, "2024-03-09 12:00:00-05:00", "2024-03-11 11:00:00-04:00", vec.Interval{Days: -1, Micros: -82800000000}},
	}
	for _, c := range cases {
		got, err := SubStampsZoned(stampUS(t, c.end), stampUS(t, c.start), c.loc)
		if err != nil || got != c.want {
			t.Errorf("%s - %s in %s = %v, %v; want %v", c.end, c.start, c.loc, got, err, c.want)
		}
	}
	if _, err := SubStampsZoned(vec.StampInf, 0, time.UTC); err == nil {
		t.Error("infinity - 0: no error")
	}
}

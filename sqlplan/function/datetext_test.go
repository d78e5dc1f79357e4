package function

import (
	"math"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TestCivilDays checks the day numbers against time.Time over DuckDB's
// range of dates, and that they round trip through the text.
func TestCivilDays(t *testing.T) {
	for d := int64(minDateDays); ; d += 997 {
		d = min(d, maxDateDays)
		y, m, day := vec.CivilFromDays(d)
		if back := daysFromCivil(y, m, day); back != d {
			t.Fatalf("day %d: %d-%d-%d gives %d", d, y, m, day, back)
		}
		g := time.Unix(d*86400, 0).UTC()
		if int64(g.Year()) != y || int64(g.Month()) != m || int64(g.Day()) != day {
			t.Fatalf("day %d: %d-%d-%d, time.Time says %v", d, y, m, day, g)
		}
		text := vec.FormatTemporal(vec.Type{Kind: vec.KDate}, d)
		if got, err := ParseDateText(text); err != nil || got != d {
			t.Fatalf("day %d: %q parses as %d, %v", d, text, got, err)
		}
		if d == maxDateDays {
			break
		}
	}
}

// TestTemporalTextRoundTrip formats and parses timestamps and times of
// each unit, at the ends of their ranges and between.
func TestTemporalTextRoundTrip(t *testing.T) {
	stamps := []int64{0, -1, 1, 86400e6 - 1, -86400e6, math.MaxInt64 - 1, -9223372022400000000, 1700000000123456}
	for _, typ := range []vec.Type{{Kind: vec.KTimestamp}, {Kind: vec.KTimestamp, Nanos: true}, {Kind: vec.KTimestamp, TZ: true}} {
		for _, v := range stamps {
			if typ.Nanos && v == math.MaxInt64-1 {
				v = math.MaxInt64 - 2 // 854775806 ns is the last, ...807 is DuckDB's infinity
			}
			text := vec.FormatTemporal(typ, v)
			if got, err := ParseTimestampText(text, typ); err != nil || got != v {
				t.Errorf("%s %d: %q parses as %d, %v", typ.SQLName(), v, text, got, err)
			}
		}
	}
	for _, typ := range []vec.Type{{Kind: vec.KTime}, {Kind: vec.KTime, Nanos: true}} {
		day := vec.UnitsPerDay(typ)
		for _, v := range []int64{0, 1, day / 2, day - 1, day} {
			text := vec.FormatTemporal(typ, v)
			if got, err := ParseTimeText(text, typ.Nanos); err != nil || got != v {
				t.Errorf("%s %d: %q parses as %d, %v", typ.SQLName(), v, text, got, err)
			}
		}
	}
}

func BenchmarkParseTimestampText(b *testing.B) {
	s := "2024-02-29 12:34:56.789012"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := ParseTimestampText(s, tTimestamp); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseDateText(b *testing.B) {
	s := "2024-02-29"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := ParseDateText(s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFormatTimestamp(b *testing.B) {
	v := int64(1709210096789012)
	for b.Loop() {
		_ = vec.FormatTemporal(tTimestamp, v)
	}
}

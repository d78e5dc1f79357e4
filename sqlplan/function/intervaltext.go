package function

import (
	"math"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// ParseIntervalText reads an interval written as parts: "1 year 2 months
// 3 days", "-2 hours", "1 day 04:05:06.5", "04:05".
func ParseIntervalText(s string) (vec.Interval, error) {
	var iv vec.Interval
	f := strings.Fields(strings.ToLower(s))
	for i := 0; i < len(f); i++ {
		if strings.Contains(f[i], ":") {
			t := f[i]
			neg := strings.HasPrefix(t, "-")
			t = strings.TrimPrefix(strings.TrimPrefix(t, "-"), "+")
			parts := strings.Split(t, ":")
			if len(parts) < 2 || len(parts) > 3 {
				return vec.Interval{}, errorf("invalid interval %q", s)
			}
			var us float64
			for k, mult := range []float64{3600e6, 60e6, 1e6}[:len(parts)] {
				x, err := strconv.ParseFloat(parts[k], 64)
				if err != nil {
					return vec.Interval{}, errorf("invalid interval %q", s)
				}
				us += x * mult
			}
			if neg {
				us = -us
			}
			iv.Micros += int64(math.Round(us))
			continue
		}
		n, err := strconv.ParseFloat(f[i], 64)
		if err != nil || i+1 >= len(f) {
			return vec.Interval{}, errorf("invalid interval %q", s)
		}
		i++
		part, err := MakeInterval(n, f[i])
		if err != nil {
			return vec.Interval{}, err
		}
		iv = iv.Add(part)
	}
	return iv, nil
}

// fractional is n times a unit of days or months; a fraction carries
// into the smaller parts (1.5 months is 1 month 15 days).
func fractional(unit vec.Interval, n float64) (vec.Interval, error) {
	iv, ok := unit.Scale(n)
	if !ok {
		return vec.Interval{}, errorf("the interval is out of range")
	}
	return iv, nil
}

func MakeInterval(n float64, unit string) (vec.Interval, error) {
	u := strings.ToLower(unit)
	if u != "ms" && u != "us" { // not a plural: 'ms' is milliseconds
		u = strings.TrimSuffix(u, "s")
	}
	switch u {
	case "microsecond", "us":
		return vec.Interval{Micros: int64(n)}, nil
	case "millisecond", "ms":
		return vec.Interval{Micros: int64(n * 1e3)}, nil
	case "second", "sec":
		return vec.Interval{Micros: int64(n * 1e6)}, nil
	case "minute", "min":
		return vec.Interval{Micros: int64(n * 60e6)}, nil
	case "hour", "h":
		return vec.Interval{Micros: int64(n * 3600e6)}, nil
	case "day", "d":
		return fractional(vec.Interval{Days: 1}, n)
	case "week":
		return fractional(vec.Interval{Days: 7}, n)
	case "month":
		return fractional(vec.Interval{Months: 1}, n)
	case "quarter":
		return fractional(vec.Interval{Months: 3}, n)
	case "year":
		return fractional(vec.Interval{Months: 12}, n)
	}
	return vec.Interval{}, errorf("unknown interval unit %q", unit)
}

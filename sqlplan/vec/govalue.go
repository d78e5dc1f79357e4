package vec

import (
	"time"

	"github.com/carquet-go/carquet/parquet/value"
)

// The Go values that Col.Value hands to programs, from the engine's
// scalars: times as time.Time in UTC (a TIMETZ in its own offset),
// decimals as their exact text, intervals as DuckDB's text of them.

// GoValue converts a scalar of type t to its Go value (nil for NULL).
func GoValue(t Type, v any) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case KDate:
		return DaysToTime(v.(int64))
	case KTime:
		return TimeValue(t, v.(int64))
	case KTimeTZ:
		return TimeTZValue(v.(int64))
	case KTimestamp:
		return StampToTime(t, v.(int64))
	case KDecimal, KUHuge:
		if d, ok := v.(value.Decimal); ok {
			return d.String()
		}
		return value.DecimalFromInt64(v.(int64), int32(t.Scale)).String()
	case KInterval:
		return FormatInterval(v.(Interval))
	case KEnum:
		return t.Enum.Values[v.(int64)]
	}
	return v
}

// MicrosToTime is the UTC instant of microseconds since the epoch.
func MicrosToTime(us int64) time.Time { return time.UnixMicro(us).UTC() }

// StampToTime is the instant of a TIMESTAMP value of type t.
func StampToTime(t Type, v int64) time.Time {
	if t.Nanos {
		return time.Unix(0, v).UTC()
	}
	return MicrosToTime(v)
}

// TimeValue is the time of day of a TIME value of type t.
func TimeValue(t Type, v int64) time.Time {
	if t.Nanos {
		return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(v))
	}
	return TimeOfDay(v)
}

// DaysToTime is midnight UTC of a DATE's day number.
func DaysToTime(d int64) time.Time { return time.Unix(d*86400, 0).UTC() }

// TimeOfDay is a time of day in microseconds on 0001-01-01 UTC.
func TimeOfDay(us int64) time.Time {
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond)
}

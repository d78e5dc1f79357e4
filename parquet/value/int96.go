package value

import (
	"encoding/binary"
	"time"
)

// A legacy INT96 timestamp is 8 little-endian bytes of nanoseconds within
// the day, then 4 of the Julian day. The format leaves out of range values
// undefined; they are read here as DuckDB and Arrow C++ read them: the
// Julian day unsigned, the nanoseconds signed and truncated toward zero to
// microseconds, and days × 86,400,000,000 + microseconds wrapping in 64
// bits. Spark writes a timestamp past the year 294247 as a negative day
// (its own arithmetic wrapped), which therefore reads back as a date BC.

const (
	// julianUnixEpoch is the Julian day number of 1970-01-01.
	julianUnixEpoch = 2440588
	microsPerDay    = 86400 * 1000000
)

// Int96Micros converts a legacy INT96 timestamp to microseconds since the
// Unix epoch, wrapping as DuckDB does for values out of range.
func Int96Micros(b [12]byte) int64 {
	nanos := int64(binary.LittleEndian.Uint64(b[:8]))
	days := int64(binary.LittleEndian.Uint32(b[8:])) - julianUnixEpoch
	return days*microsPerDay + nanos/1000
}

// Int96Time converts a legacy INT96 timestamp to a time: the instant of
// Int96Micros, plus the nanoseconds below the microsecond when those of
// the day are not negative (so that Int96Time(b).UnixMicro() is always
// Int96Micros(b)).
func Int96Time(b [12]byte) time.Time {
	t := time.UnixMicro(Int96Micros(b)).UTC()
	if sub := int64(binary.LittleEndian.Uint64(b[:8])) % 1000; sub > 0 {
		t = t.Add(time.Duration(sub))
	}
	return t
}

// Int96Of encodes t as a legacy INT96 timestamp that Int96Time (and
// DuckDB) read back as t. An instant before the Julian epoch (4714 BC) has
// no day of its own: it is written as the day 2^64 microseconds later,
// which the wrapping arithmetic brings back. t must lie within the range
// of 64-bit microseconds since the Unix epoch (290308 BC to 294247).
func Int96Of(t time.Time) [12]byte {
	secs := t.Unix()
	day := secs / 86400
	if secs%86400 < 0 {
		day--
	}
	nanos := (secs-day*86400)*1e9 + int64(t.Nanosecond())
	jd := day + julianUnixEpoch
	if jd < 0 {
		u := uint64(secs*1000000 + int64(t.Nanosecond()/1000)) // us + 2^64
		jd = int64(u/microsPerDay) + julianUnixEpoch
		nanos = int64(u%microsPerDay)*1000 + int64(t.Nanosecond()%1000)
	}
	var b [12]byte
	binary.LittleEndian.PutUint64(b[:8], uint64(nanos))
	binary.LittleEndian.PutUint32(b[8:], uint32(jd))
	return b
}

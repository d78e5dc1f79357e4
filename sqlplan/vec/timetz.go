package vec

import "time"

// TIMETZ (TIME WITH TIME ZONE): a time of day with a UTC offset, as
// DuckDB has it. Col.I holds one int64 key per value (TimeTZKey) that
// orders values as DuckDB does — by the UTC time, then the larger offset
// first — and is equal only for equal time and offset, so that the
// comparisons, sorting, grouping, joins and min/max of integers serve it
// unchanged. Operators that compute on times see its local time of day
// (a cast to TIME).

// MaxTZOffset is the largest offset in seconds (15:59:59), as DuckDB's.
const MaxTZOffset = 15*3600 + 59*60 + 59

// TimeTZKey packs a time of day (microseconds, 0..24h) and an offset
// (seconds, ±MaxTZOffset): the UTC time, made non-negative, above 24 bits
// that hold MaxTZOffset - offset (so that a larger offset orders first).
func TimeTZKey(us, off int64) int64 {
	return (us-off*1e6+MaxTZOffset*1e6)<<24 | (MaxTZOffset - off)
}

// TimeTZLocalKey is the order DuckDB's min, max, arg_min, arg_max,
// greatest, least and list_min/list_max give TIMETZ values (unlike its
// comparisons and ORDER BY): the local time of day, then the larger
// offset first. It is the order of DuckDB's stored bits, which those
// functions compare.
func TimeTZLocalKey(k int64) int64 {
	us, off := TimeTZParts(k)
	return us<<24 | (MaxTZOffset - off)
}

// TimeTZParts unpacks a TimeTZKey.
func TimeTZParts(k int64) (us, off int64) {
	off = MaxTZOffset - k&(1<<24-1)
	return k>>24 - MaxTZOffset*1e6 + off*1e6, off
}

// TimeTZValue is a TIMETZ as Go sees it (as duckdb-go gives it): the time
// of day on 0001-01-01 in a fixed zone of the offset.
func TimeTZValue(k int64) time.Time {
	us, off := TimeTZParts(k)
	return time.Date(1, 1, 1, 0, 0, 0, 0, time.FixedZone("", int(off))).Add(time.Duration(us) * time.Microsecond)
}

// TimeTZUTC is the UTC time of day of a TIMETZ key, within one day: what
// a Parquet TIME(isAdjustedToUTC) column holds, as DuckDB writes it.
func TimeTZUTC(k int64) int64 {
	us, off := TimeTZParts(k)
	u := (us - off*1e6) % MicrosPerDay
	if u < 0 {
		u += MicrosPerDay
	}
	return u
}

package function

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TIMETZ (TIME WITH TIME ZONE): its key (vec.TimeTZKey) and Go value
// live in package vec; here are its text and casts.

// maxTZOffset is the largest offset in seconds (see vec.MaxTZOffset).
const maxTZOffset = vec.MaxTZOffset

// TTimeTZ is TIMETZ.
var TTimeTZ = vec.Type{Kind: vec.KTimeTZ}

// parseTimeTZText is VARCHAR to TIMETZ: a time of day (up to 24:00:00)
// and an optional offset ±HH[:MM[:SS]] (none is +00), or a timestamp's
// UTC time of day with +00.
func parseTimeTZText(s string) (int64, error) {
	us, _, i, ok := ScanClock(s, 0, false)
	var off int64
	if ok {
		i = SkipSpaces(s, i)
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			off, i, ok = ScanOffset(s, i)
		}
		ok = ok && SkipSpaces(s, i) == len(s)
	} else {
		// A timestamp: its UTC time of day, +00 (as DuckDB's cast).
		ts, _, tsOff, f := ScanTimestamp(s, false)
		ts -= tsOff * 1e6
		us, ok = ts-vec.FloorDiv(ts, vec.MicrosPerDay)*vec.MicrosPerDay, f == TextOK
	}
	if !ok || us > vec.MicrosPerDay || off > maxTZOffset || off < -maxTZOffset {
		return 0, fmt.Errorf("time field value out of range: \"%s\", expected format is ([YYYY-MM-DD ]HH:MM:SS[.MS])", s)
	}
	return vec.TimeTZKey(us, off), nil
}

// castTimeTZ casts a scalar to or from TIMETZ (ok false when neither side
// is one): from text, TIME (offset +00) and TIMESTAMP or TIMESTAMPTZ (the
// UTC time of day, +00); to text and TIME (the local time of day). DuckDB
// refuses the others (TIME_NS and the timestamps too).
func castTimeTZ(v any, from, to vec.Type) (r any, ok bool, err error) {
	switch {
	case from.Kind != vec.KTimeTZ && to.Kind != vec.KTimeTZ:
		return nil, false, nil
	case from.Kind == to.Kind:
		return v, true, nil
	case to.Kind == vec.KTimeTZ && from.Op() == vec.KString:
		r, err = parseTimeTZText(v.(string))
		return r, true, err
	case to.Kind == vec.KTimeTZ && from.Kind == vec.KTime:
		us, _ := ConvertTimeUnit(v.(int64), from, vec.Type{Kind: vec.KTime})
		return vec.TimeTZKey(us.(int64), 0), true, nil
	case to.Kind == vec.KTimeTZ && from.Kind == vec.KTimestamp:
		day := vec.UnitsPerDay(from)
		x := v.(int64) - vec.FloorDiv(v.(int64), day)*day
		us, _ := ConvertTimeUnit(x, vec.Type{Kind: vec.KTime, Nanos: from.Nanos}, vec.Type{Kind: vec.KTime})
		return vec.TimeTZKey(us.(int64), 0), true, nil
	case from.Kind == vec.KTimeTZ && to.Op() == vec.KString:
		return string(vec.AppendTimeTZ(nil, v.(int64))), true, nil
	case from.Kind == vec.KTimeTZ && to.Kind == vec.KTime && !to.Nanos:
		us, _ := vec.TimeTZParts(v.(int64))
		return us, true, nil
	}
	return nil, true, fmt.Errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
}

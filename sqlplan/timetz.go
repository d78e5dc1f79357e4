package sqlplan

import (
	"fmt"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TIMETZ (TIME WITH TIME ZONE): its key (vec.TimeTZKey) and Go value
// live in package vec; here are its text and casts.

// maxTZOffset is the largest offset in seconds (see vec.MaxTZOffset).
const maxTZOffset = vec.MaxTZOffset

// tTimeTZ is TIMETZ.
var tTimeTZ = Type{Kind: KTimeTZ}

// parseTimeTZText is VARCHAR to TIMETZ: a time of day (up to 24:00:00)
// and an optional offset ±HH[:MM[:SS]] (none is +00), or a timestamp's
// UTC time of day with +00.
func parseTimeTZText(s string) (int64, error) {
	us, _, i, ok := function.ScanClock(s, 0, false)
	var off int64
	if ok {
		i = function.SkipSpaces(s, i)
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			off, i, ok = function.ScanOffset(s, i)
		}
		ok = ok && function.SkipSpaces(s, i) == len(s)
	} else {
		// A timestamp: its UTC time of day, +00 (as DuckDB's cast).
		ts, _, tsOff, f := function.ScanTimestamp(s, false)
		ts -= tsOff * 1e6
		us, ok = ts-floorDiv(ts, microsPerDay)*microsPerDay, f == function.TextOK
	}
	if !ok || us > microsPerDay || off > maxTZOffset || off < -maxTZOffset {
		return 0, fmt.Errorf("time field value out of range: \"%s\", expected format is ([YYYY-MM-DD ]HH:MM:SS[.MS])", s)
	}
	return timetzKey(us, off), nil
}

// castTimeTZ casts a scalar to or from TIMETZ (ok false when neither side
// is one): from text, TIME (offset +00) and TIMESTAMP or TIMESTAMPTZ (the
// UTC time of day, +00); to text and TIME (the local time of day). DuckDB
// refuses the others (TIME_NS and the timestamps too).
func castTimeTZ(v any, from, to Type) (r any, ok bool, err error) {
	switch {
	case from.Kind != KTimeTZ && to.Kind != KTimeTZ:
		return nil, false, nil
	case from.Kind == to.Kind:
		return v, true, nil
	case to.Kind == KTimeTZ && from.Op() == KString:
		r, err = parseTimeTZText(v.(string))
		return r, true, err
	case to.Kind == KTimeTZ && from.Kind == KTime:
		us, _ := convertTimeUnit(v.(int64), from, Type{Kind: KTime})
		return timetzKey(us.(int64), 0), true, nil
	case to.Kind == KTimeTZ && from.Kind == KTimestamp:
		day := unitsPerDay(from)
		x := v.(int64) - floorDiv(v.(int64), day)*day
		us, _ := convertTimeUnit(x, Type{Kind: KTime, Nanos: from.Nanos}, Type{Kind: KTime})
		return timetzKey(us.(int64), 0), true, nil
	case from.Kind == KTimeTZ && to.Op() == KString:
		return string(appendTimeTZ(nil, v.(int64))), true, nil
	case from.Kind == KTimeTZ && to.Kind == KTime && !to.Nanos:
		us, _ := timetzParts(v.(int64))
		return us, true, nil
	}
	return nil, true, fmt.Errorf("Unimplemented type for cast (%s -> %s)", from.SQLName(), to.SQLName())
}

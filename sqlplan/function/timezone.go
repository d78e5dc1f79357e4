package function

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The TimeZone setting's kernels: a TIMESTAMPTZ is an instant
// (microseconds since the epoch, UTC) that meets wall times in the
// statement's time zone, which the planner passes in as loc.

// InfiniteStamp reports whether a timestamp is one of the infinities,
// which no zone moves.
func InfiniteStamp(us int64) bool { return us >= math.MaxInt64-1 || us <= -math.MaxInt64 }

// ToWall is the wall time (as TIMESTAMP microseconds) of instant us in loc.
func ToWall(us int64, loc *time.Location) int64 {
	if InfiniteStamp(us) {
		return us
	}
	_, off := time.UnixMicro(us).In(loc).Zone()
	return us + int64(off)*1e6
}

// FromWall is the instant of wall time us in loc. A wall time that a
// change of offset skips is read with the offset before it (02:30 on the
// night clocks go forward is 03:30 after), one that occurs twice is the
// later.
func FromWall(us int64, loc *time.Location) int64 {
	if InfiniteStamp(us) {
		return us
	}
	// The offsets around the wall time, read as UTC; an offset fits if
	// the instant it gives has it.
	_, before := time.UnixMicro(us - 86400e6).In(loc).Zone()
	_, after := time.UnixMicro(us + 86400e6).In(loc).Zone()
	best, found := int64(0), false
	for _, off := range [2]int{before, after} {
		inst := us - int64(off)*1e6
		if _, o := time.UnixMicro(inst).In(loc).Zone(); o == off && (!found || inst > best) {
			best, found = inst, true
		}
	}
	if !found {
		best = us - int64(before)*1e6
	}
	return best
}

// ZoneText is a TIMESTAMPTZ's text in loc: the wall time and the offset
// as +HH or +HH:MM.
func ZoneText(us int64, loc *time.Location) string {
	t := vec.Type{Kind: vec.KTimestamp}
	if InfiniteStamp(us) {
		return vec.FormatTemporal(t, us)
	}
	_, off := time.UnixMicro(us).In(loc).Zone()
	b := vec.AppendTimestamp(make([]byte, 0, 40), t, us+int64(off)*1e6)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = vec.AppendTwoDigits(append(b, sign), int64(off/3600))
	if off/60%60 != 0 {
		// DuckDB writes no seconds of an offset (a local mean time's
		// -00:44:30 is -00:44), though the wall time keeps them.
		b = vec.AppendTwoDigits(append(b, ':'), int64(off/60%60))
	}
	return string(b)
}

// ParseZoned is text to TIMESTAMPTZ: a text that gives a zone or offset
// is that instant, one that does not is a wall time in loc.
func ParseZoned(s string, loc *time.Location) (any, error) {
	tz := vec.Type{Kind: vec.KTimestamp, TZ: true}
	if _, _, _, zoned, f := ScanTimestampZoned(s, false); f != TextOK || zoned {
		return ParseTimestampText(s, tz)
	}
	us, err := ParseTimestampText(s, vec.Type{Kind: vec.KTimestamp})
	if err != nil {
		return nil, err
	}
	return FromWall(us, loc), nil
}

// zones caches the time zones looked up by name.
var zones sync.Map

// ZoneNamed is the IANA time zone of that name (or UTC / an offset such
// as +02:00).
func ZoneNamed(name string) (*time.Location, error) {
	if l, ok := zones.Load(name); ok {
		return l.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		var h, m int
		sign := 1
		rest := name
		if strings.HasPrefix(rest, "-") {
			sign, rest = -1, rest[1:]
		} else {
			rest = strings.TrimPrefix(rest, "+")
		}
		if n, _ := fmt.Sscanf(rest, "%d:%d", &h, &m); n >= 1 && h <= 23 && m >= 0 && m < 60 && h >= 0 {
			loc, err = time.FixedZone(name, sign*(h*3600+m*60)), nil
		}
	}
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	zones.Store(name, loc)
	return loc, nil
}

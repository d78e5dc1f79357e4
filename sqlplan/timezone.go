package sqlplan

import (
	"math"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// The TimeZone setting: a TIMESTAMPTZ is an instant (microseconds since
// the epoch, UTC); where it meets wall times it is read in the
// statement's time zone, as DuckDB does: its text (the wall time and the
// zone's offset then), and the casts between it and TIMESTAMP,
// TIMESTAMP_NS, DATE and text without a zone. In UTC (the default) these
// casts change no value and zoneCast is not used.

// zoneCast binds the cast of e to t when it crosses between instants and
// wall times in zone loc; ok is false when it does not.
func (p *planner) zoneCast(e expr, t Type, loc *time.Location) (expr, bool, error) {
	et := e.typ()
	isTZ := func(t Type) bool { return t.Kind == KTimestamp && t.TZ }
	wall := func(t Type) bool { return t.Kind == KTimestamp && !t.TZ || t.Kind == KDate || t.Kind == KTime }
	mk := func(in expr, to Type, row func(a []*Col, i int) (any, error)) (expr, bool, error) {
		f := &funcExpr{name: "CAST", args: []expr{in}, t: to, row: row, strict: true}
		f.setParts("CAST(", e, " AS "+to.SQLName()+")")
		out, err := p.fold(f, in)
		return out, true, err
	}
	switch {
	case isTZ(et) && t.Kind == KString:
		return mk(e, t, func(a []*Col, i int) (any, error) { return zoneText(a[0].I[i], loc), nil })
	case isTZ(et) && wall(t):
		w, _, err := mk(e, tTS, func(a []*Col, i int) (any, error) { return toWall(a[0].I[i], loc), nil })
		if err != nil {
			return nil, true, err
		}
		out, err := p.cast(w, t)
		return out, true, err
	case isTZ(t) && et.Kind == KString:
		return mk(e, Type{Kind: KTimestamp, TZ: true}, func(a []*Col, i int) (any, error) { return parseZoned(str(a[0], i), loc) })
	case isTZ(t) && (et.Kind == KTimestamp && !et.TZ || et.Kind == KDate):
		w, err := p.cast(e, tTS)
		if err != nil {
			return nil, true, err
		}
		return mk(w, Type{Kind: KTimestamp, TZ: true}, func(a []*Col, i int) (any, error) { return fromWall(a[0].I[i], loc), nil })
	}
	return nil, false, nil
}

// infinite reports whether a timestamp is one of the infinities, which
// no zone moves.
func infinite(us int64) bool { return us >= math.MaxInt64-1 || us <= -math.MaxInt64 }

// toWall is the wall time (as TIMESTAMP microseconds) of instant us in loc.
func toWall(us int64, loc *time.Location) int64 {
	if infinite(us) {
		return us
	}
	_, off := time.UnixMicro(us).In(loc).Zone()
	return us + int64(off)*1e6
}

// fromWall is the instant of wall time us in loc. A wall time that a
// change of offset skips is read with the offset before it (02:30 on the
// night clocks go forward is 03:30 after), one that occurs twice is the
// later.
func fromWall(us int64, loc *time.Location) int64 {
	if infinite(us) {
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

// zoneText is a TIMESTAMPTZ's text in loc: the wall time and the offset
// as +HH, +HH:MM or +HH:MM:SS.
func zoneText(us int64, loc *time.Location) string {
	t := Type{Kind: KTimestamp}
	if infinite(us) {
		return vec.FormatTemporal(t, us)
	}
	_, off := time.UnixMicro(us).In(loc).Zone()
	b := vec.AppendTimestamp(make([]byte, 0, 40), t, us+int64(off)*1e6)
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	b = vec.AppendTwoDigits(append(b, sign), int64(off/3600))
	if off%3600 != 0 {
		b = vec.AppendTwoDigits(append(b, ':'), int64(off/60%60))
		if off%60 != 0 {
			b = vec.AppendTwoDigits(append(b, ':'), int64(off%60))
		}
	}
	return string(b)
}

// parseZoned is text to TIMESTAMPTZ: a text that gives a zone or offset
// is that instant, one that does not is a wall time in loc.
func parseZoned(s string, loc *time.Location) (any, error) {
	tz := Type{Kind: KTimestamp, TZ: true}
	if _, _, _, zoned, f := function.ScanTimestampZoned(s, false); f != function.TextOK || zoned {
		return function.ParseTimestampText(s, tz)
	}
	us, err := function.ParseTimestampText(s, tTS)
	if err != nil {
		return nil, err
	}
	return fromWall(us, loc), nil
}

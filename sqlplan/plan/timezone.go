package plan

import (
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// The TimeZone setting: a TIMESTAMPTZ is an instant (microseconds since
// the epoch, UTC); where it meets wall times it is read in the
// statement's time zone, as DuckDB does: its text (the wall time and the
// zone's offset then), and the casts between it and TIMESTAMP,
// TIMESTAMP_NS, DATE and text without a zone. In UTC (the default) these
// casts change no value and zoneCast is not used.

// zone is the statement's time zone, UTC by default.
func (p *Planner) zone() *time.Location {
	if p.Set.TZ != nil {
		return p.Set.TZ
	}
	return time.UTC
}

// zoneCast binds the cast of e to t when it crosses between instants and
// wall times in zone loc; ok is false when it does not.
func (p *Planner) zoneCast(e Expr, t Type, loc *time.Location) (Expr, bool, error) {
	et := e.Type()
	isTZ := func(t Type) bool { return t.Kind == KTimestamp && t.TZ }
	wall := func(t Type) bool { return t.Kind == KTimestamp && !t.TZ || t.Kind == KDate || t.Kind == KTime }
	mk := func(in Expr, to Type, row func(a []*Col, i int) (any, error)) (Expr, bool, error) {
		f := &funcExpr{name: "CAST", args: []Expr{in}, t: to, row: row, strict: true}
		f.setParts("CAST(", e, " AS "+to.SQLName()+")")
		out, err := p.fold(f, in)
		return out, true, err
	}
	switch {
	case isTZ(et) && t.Kind == KString:
		return mk(e, t, func(a []*Col, i int) (any, error) { return function.ZoneText(a[0].I[i], loc), nil })
	case isTZ(et) && wall(t):
		w, _, err := mk(e, tTS, func(a []*Col, i int) (any, error) { return function.ToWall(a[0].I[i], loc), nil })
		if err != nil {
			return nil, true, err
		}
		out, err := p.cast(w, t)
		return out, true, err
	case isTZ(t) && et.Kind == KString:
		return mk(e, Type{Kind: KTimestamp, TZ: true}, func(a []*Col, i int) (any, error) { return function.ParseZoned(str(a[0], i), loc) })
	case isTZ(t) && (et.Kind == KTimestamp && !et.TZ || et.Kind == KDate):
		w, err := p.cast(e, tTS)
		if err != nil {
			return nil, true, err
		}
		return mk(w, Type{Kind: KTimestamp, TZ: true}, func(a []*Col, i int) (any, error) { return function.FromWall(a[0].I[i], loc), nil })
	}
	return nil, false, nil
}

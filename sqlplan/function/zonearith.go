package function

import (
	"time"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// TIMESTAMPTZ arithmetic as DuckDB's calendar (its ICU extension) does
// it, in the statement's TimeZone. It differs from TIMESTAMP arithmetic
// even in UTC:
//
//   - TIMESTAMPTZ ± INTERVAL: the interval's sub-millisecond part moves
//     first; then, when no part of the interval (after the sign of -)
//     is negative, months, days, then the rest of the time; when one
//     is, the time, then months, then days. Months keep the wall time and
//     the day of the month (pinned to the month's last day), days keep
//     the wall time, the time moves the instant.
//   - TIMESTAMPTZ - TIMESTAMPTZ: whole calendar days from the earlier to
//     the later and the rest as time, no months; the earlier one's
//     microseconds below the millisecond borrow from the later one's
//     as DuckDB's code does, which splits spans that end before 1970
//     differently (-25567 days +1 us, where TIMESTAMP - TIMESTAMP gives
//     -25566 days -86399999999 us).
//
// Wall times are read in loc: one that a change of offset skips is the
// instant after it (FromWall), one that occurs twice the later, except
// that adding days keeps the offset when the wall time allows it.

const msPerDay = vec.MicrosPerDay / 1000

// ZonedArith computes lc op rc of result type t where a TIMESTAMPTZ
// takes part: TIMESTAMPTZ ± INTERVAL (a TIMESTAMPTZ) or TIMESTAMPTZ -
// TIMESTAMPTZ (an INTERVAL; a TIMESTAMP operand was cast to TIMESTAMPTZ
// by the binder). A NULL operand gives NULL.
func ZonedArith(op byte, lc, rc *vec.Col, t vec.Type, loc *time.Location) (*vec.Col, error) {
	n := lc.Len
	out := &vec.Col{T: t, Len: n}
	if lc.Null != nil || rc.Null != nil {
		out.Null = make([]bool, n)
		for i := range out.Null {
			out.Null[i] = lc.IsNull(i) || rc.IsNull(i)
		}
	}
	if t.Kind == vec.KInterval {
		out.A = make([]any, n)
		for i := range out.A {
			if out.IsNull(i) {
				continue
			}
			iv, err := SubStampsZoned(lc.I[i], rc.I[i], loc)
			if err != nil {
				return nil, err
			}
			out.A[i] = iv
		}
		return out, nil
	}
	out.I = make([]int64, n)
	for i := range out.I {
		if out.IsNull(i) {
			continue
		}
		iv := rc.Get(i).(vec.Interval)
		if op == '-' {
			iv = iv.Neg()
		}
		out.I[i] = AddIntervalZoned(lc.I[i], iv, loc)
	}
	return out, nil
}

// AddIntervalZoned is the TIMESTAMPTZ us plus iv in loc (see the top of
// this file); an infinity stays.
func AddIntervalZoned(us int64, iv vec.Interval, loc *time.Location) int64 {
	if InfiniteStamp(us) {
		return us
	}
	// The microseconds below the millisecond move first, carrying into
	// the milliseconds the calendar works in.
	ms, sub := us/1000, us%1000+iv.Micros%1000
	if sub >= 1000 {
		sub -= 1000
		ms++
	} else if sub < 0 {
		sub += 1000
		ms--
	}
	clock := iv.Micros / 1000
	if iv.Months < 0 || iv.Days < 0 || iv.Micros < 0 {
		ms = addDaysZoned(addMonthsZoned(ms+clock, iv.Months, loc), iv.Days, loc)
	} else {
		ms = addDaysZoned(addMonthsZoned(ms, iv.Months, loc), iv.Days, loc) + clock
	}
	return ms*1000 + sub
}

// SubStampsZoned is the TIMESTAMPTZ end - start in loc: calendar days
// and the rest as microseconds (see the top of this file).
func SubStampsZoned(end, start int64, loc *time.Location) (vec.Interval, error) {
	if InfiniteStamp(end) || InfiniteStamp(start) {
		return vec.Interval{}, errorf("Cannot subtract infinite timestamps")
	}
	if start > end {
		iv, err := SubStampsZoned(start, end, loc)
		return iv.Neg(), err
	}
	startMs := floorDiv(start, 1000)
	startUs := start - startMs*1000
	// end's part below the millisecond is truncated toward zero (negative
	// before 1970); only a non-negative one borrows a millisecond.
	endUs := end % 1000
	if endUs >= 0 && startUs > endUs {
		end -= 1000
		endUs += 1000
	}
	endMs := end / 1000
	days := daysBetweenZoned(startMs, endMs, loc)
	rest := endMs - addDaysZoned(startMs, days, loc)
	return vec.Interval{Days: days, Micros: rest*1000 + endUs - startUs}, nil
}

// floorDiv is a / b rounded toward negative infinity (b > 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// offsetMs is loc's offset from UTC at instant ms, in milliseconds.
func offsetMs(ms int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return 0
	}
	_, off := time.UnixMilli(ms).In(loc).Zone()
	return int64(off) * 1000
}

// wallMsOfDay is the wall clock time of instant ms in loc, in
// milliseconds since midnight.
func wallMsOfDay(ms int64, loc *time.Location) int64 {
	w := (ms + offsetMs(ms, loc)) % msPerDay
	if w < 0 {
		w += msPerDay
	}
	return w
}

// addDaysZoned adds n days to instant ms keeping its wall time: n times
// 24 hours, then corrected by the change of offset. When the corrected
// wall time does not exist (the clocks went forward over it) and the
// correction would go back, the uncorrected instant (the wall time after
// the gap) is kept.
func addDaysZoned(ms, n int64, loc *time.Location) int64 {
	if n == 0 {
		return ms
	}
	t := ms + n*msPerDay
	if loc == time.UTC {
		return t
	}
	wall, before := wallMsOfDay(ms, loc), offsetMs(ms, loc)
	if wallMsOfDay(t, loc) == wall {
		return t
	}
	adj := (before - offsetMs(t, loc)) % msPerDay
	if adj == 0 {
		return t
	}
	if wallMsOfDay(t+adj, loc) != wall && adj < 0 {
		return t
	}
	return t + adj
}

// addMonthsZoned adds n months to instant ms on its wall calendar (the
// day pinned to the month's last), read back as an instant in loc.
func addMonthsZoned(ms, n int64, loc *time.Location) int64 {
	if n == 0 {
		return ms
	}
	wall := ToWall(ms*1000, loc)
	wall = vec.Interval{Months: n}.AddTo(wall, 1)
	return FromWall(wall, loc) / 1000
}

// daysBetweenZoned is the number of whole days from instant start to
// instant end (both in milliseconds), truncated toward zero: the n of
// largest magnitude such that adding n days to start does not pass end.
func daysBetweenZoned(start, end int64, loc *time.Location) int64 {
	n := (end - start) / msPerDay
	if loc == time.UTC {
		return n
	}
	if end >= start {
		for n > 0 && addDaysZoned(start, n, loc) > end {
			n--
		}
		for addDaysZoned(start, n+1, loc) <= end {
			n++
		}
		return n
	}
	for n < 0 && addDaysZoned(start, n, loc) < end {
		n++
	}
	for addDaysZoned(start, n-1, loc) >= end {
		n--
	}
	return n
}

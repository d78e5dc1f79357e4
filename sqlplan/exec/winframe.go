package exec

import (
	"fmt"
	"sort"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/num"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Frames, and the aggregates over them: count, and sum and avg of
// integers and decimals from exact prefix sums (any frame is the
// difference of two); sum and avg of floats, and min and max, by running
// state (frames from the partition's first row grow front to back, frames
// to its last row back to front) or, for sliding frames, over each frame
// again (the frame's width per row), in the order that keeps float sums
// as they were; other aggregates by their GROUP BY accumulators.

// frame returns the frame [start, end) of position k: the default frame
// (up to k's last peer), or f's bounds clipped to the partition (empty
// when start >= end).
func (p *winPart) frame(f *WinFrame, k int) (int, int) {
	if f == nil {
		return 0, p.end[k]
	}
	return p.bound(f, f.Start, k, false), p.bound(f, f.End, k, true)
}

func (p *winPart) bound(f *WinFrame, b FrameBound, k int, isEnd bool) int {
	n := len(p.rows)
	switch b.Kind {
	case 'u':
		if isEnd {
			return n
		}
		return 0
	case 'v':
		if isEnd {
			return p.valueEnd[k]
		}
		return p.valueStart[k]
	case 'c':
		switch {
		case !f.Rows && isEnd:
			return p.end[k]
		case !f.Rows:
			return p.start[k]
		case isEnd:
			return k + 1
		}
		return k
	}
	if f.Groups {
		return p.groupBound(b.Off, k, isEnd)
	}
	pos := int64(k) + b.Off
	if isEnd {
		pos++
	}
	return int(max(0, min(pos, int64(n))))
}

// groupBound is a GROUPS frame's bound off peer groups away from position
// k's: the start of that group, or for an end bound its end; clipped to
// the partition.
func (p *winPart) groupBound(off int64, k int, isEnd bool) int {
	if p.group == nil {
		p.groupPeers()
	}
	last := int64(len(p.groupStart) - 2) // the last group's index
	g := int64(p.group[k]) + off
	switch {
	case g < 0:
		return 0
	case g > last:
		return len(p.rows)
	case isEnd:
		return p.groupStart[g+1]
	}
	return p.groupStart[g]
}

// groupPeers numbers the peer groups of the partition.
func (p *winPart) groupPeers() {
	p.group = make([]int, len(p.rows))
	p.groupStart = p.groupStart[:0]
	for k := range p.rows {
		if k == p.start[k] {
			p.groupStart = append(p.groupStart, k)
		}
		p.group[k] = len(p.groupStart) - 1
	}
	p.groupStart = append(p.groupStart, len(p.rows))
}

// valueFrames fills valueStart and valueEnd: for a start bound, the first
// row whose key is not before the row's moved key (rc[0]); for an end
// bound, one past the last row whose key is not after it (rc[1]). Rows with
// a NULL key, which sort together at one end, frame their own peer group
// (NULL moved by an offset is NULL); the others never reach them.
func (p *winPart) valueFrames(desc bool, rc [2][2]*vec.Col) {
	rows, n := p.rows, len(p.rows)
	p.valueStart, p.valueEnd = make([]int, n), make([]int, n)
	sign := 1 // rows are in ascending key order
	if desc {
		sign = -1
	}
	for b, out := range [][]int{p.valueStart, p.valueEnd} {
		key, moved := rc[b][0], rc[b][1]
		if key == nil {
			continue
		}
		lo, hi := 0, n // the rows with a key
		for lo < hi && key.IsNull(int(rows[lo])) {
			lo++
		}
		for hi > lo && key.IsNull(int(rows[hi-1])) {
			hi--
		}
		for k := range rows {
			r := int(rows[k])
			if key.IsNull(r) || moved.IsNull(r) {
				out[k] = p.start[k]
				if b == 1 {
					out[k] = p.end[k]
				}
				continue
			}
			// The first row (of [lo, hi)) past the moved key: for a
			// start bound, at or past it; for an end bound, strictly.
			out[k] = lo + sort.Search(hi-lo, func(j int) bool {
				c := sign * vec.CompareAt(key, int(rows[lo+j]), moved, r)
				return c > 0 || b == 0 && c == 0
			})
		}
	}
}

// frameAggregate writes count, sum, avg, min or max over each row's
// frame.
func (w *WindowCall) frameAggregate(p *winPart, arg *vec.Col, o *winOutput) error {
	switch {
	case (w.Fn == "min" || w.Fn == "max") && w.excludes():
		w.frameExtremesExcluded(p, arg, o.src)
		return nil
	case w.Fn == "min" || w.Fn == "max":
		w.frameExtremes(p, arg, o.src)
		return nil
	case w.Fn == "count":
		cnt := o.counts(p, arg, w.Star)
		var buf [3]span
		for k, r := range p.rows {
			o.out.I[r] = spansCount(p.frameSpans(w.Frame, k, buf[:]), cnt)
		}
		return nil
	case arg.F != nil && w.excludes():
		w.floatFramesExcluded(p, arg, o)
		return nil
	case arg.F != nil:
		w.floatFrames(p, arg, o.out)
		return nil
	case arg.I == nil && arg.H == nil:
		return fmt.Errorf("internal error: %s over a %s column", w.Text, arg.T.SQLName())
	}
	return w.exactFrames(p, arg, o)
}

// counts fills o.cnt with the partition's prefix counts of non-NULL
// values (of rows, for count(*)): cnt[k] for positions [0, k).
func (o *winOutput) counts(p *winPart, arg *vec.Col, star bool) []int64 {
	o.cnt = vec.GrowTo(o.cnt[:0], len(p.rows)+1)
	cnt := o.cnt
	cnt[0] = 0
	for k, r := range p.rows {
		cnt[k+1] = cnt[k]
		if star || !arg.IsNull(int(r)) {
			cnt[k+1]++
		}
	}
	return cnt
}

// exactFrames writes sum or avg of integers or decimals (int64 or 128-bit
// unscaled values) over each row's frame: the difference of two prefix
// sums, exact; NULL over a frame without values. A sum past 128 bits is
// an error, as in the aggregate.
func (w *WindowCall) exactFrames(p *winPart, arg *vec.Col, o *winOutput) error {
	cnt := o.counts(p, arg, false)
	o.sum = vec.GrowTo(o.sum[:0], len(p.rows)+1)
	sum := o.sum
	sum[0] = num.Int128{}
	for k, r := range p.rows {
		var v num.Int128
		switch {
		case arg.IsNull(int(r)):
		case arg.H != nil:
			v = arg.H[r]
		default:
			v = num.FromInt64(arg.I[r])
		}
		t, ok := sum[k].Add(v)
		if !ok {
			return w.overflow()
		}
		sum[k+1] = t
	}
	out := o.out
	var buf [3]span
	for k, r := range p.rows {
		spans := p.frameSpans(w.Frame, k, buf[:])
		c := spansCount(spans, cnt)
		if c == 0 {
			out.SetNull(int(r))
			continue
		}
		var s num.Int128
		for _, sp := range spans {
			d, ok := sum[sp.e].Sub(sum[sp.s])
			if ok {
				s, ok = s.Add(d)
			}
			if !ok {
				return w.overflow()
			}
		}
		if w.Fn == "avg" {
			out.F[r] = function.Quotient(s, c, arg.T.Scale)
		} else {
			out.H[r] = s
		}
	}
	return nil
}

func (w *WindowCall) overflow() error {
	return fmt.Errorf("Overflow in HUGEINT addition: the sum of %s leaves INT128", w.Text)
}

// floatFrames writes sum or avg of floats over each row's frame. The
// values are added in the order the frames grow (or one frame at a time),
// so that the rounding is that of adding each frame's values in order.
func (w *WindowCall) floatFrames(p *winPart, arg *vec.Col, out *vec.Col) {
	var sum float64
	var cnt int64
	add := func(k int) {
		if r := int(p.rows[k]); !arg.IsNull(r) {
			sum += arg.F[r]
			cnt++
		}
	}
	set := func(r int32, empty bool) {
		switch {
		case empty || cnt == 0:
			out.SetNull(int(r))
		case w.Fn == "avg":
			out.F[r] = sum / float64(cnt)
		default:
			out.F[r] = sum
		}
	}
	f, n := w.Frame, len(p.rows)
	switch {
	case f == nil || f.Start.Kind == 'u':
		done := 0 // positions [0, done) are in the sum
		for k, r := range p.rows {
			fs, fe := p.frame(f, k)
			for ; done < fe; done++ {
				add(done)
			}
			set(r, fs >= fe)
		}
	case f.End.Kind == 'u':
		done := n // positions [done, n) are in the sum
		for k := n - 1; k >= 0; k-- {
			fs, fe := p.frame(f, k)
			for ; done > fs; done-- {
				add(done - 1)
			}
			set(p.rows[k], fs >= fe)
		}
	default:
		for k, r := range p.rows {
			fs, fe := p.frame(f, k)
			sum, cnt = 0, 0
			for j := fs; j < fe; j++ {
				add(j)
			}
			set(r, false)
		}
	}
}

// frameExtremes picks min's or max's row of each row's frame: the first
// of equal values front to back, the last back to front (as a running
// comparison in that order keeps them), by the aggregate's order
// (function.ExtremeColCmp).
func (w *WindowCall) frameExtremes(p *winPart, arg *vec.Col, src []int32) {
	sign := 1
	if w.Fn == "min" {
		sign = -1
	}
	best := int32(srcNull)
	consider := func(k int) {
		r := p.rows[k]
		if arg.IsNull(int(r)) {
			return
		}
		if best < 0 || sign*function.ExtremeColCmp(arg, int(r), arg, int(best)) > 0 {
			best = r
		}
	}
	f, n := w.Frame, len(p.rows)
	switch {
	case f == nil || f.Start.Kind == 'u':
		done := 0
		for k, r := range p.rows {
			fs, fe := p.frame(f, k)
			for ; done < fe; done++ {
				consider(done)
			}
			src[r] = best
			if fs >= fe {
				src[r] = srcNull
			}
		}
	case f.End.Kind == 'u':
		done := n
		for k := n - 1; k >= 0; k-- {
			fs, fe := p.frame(f, k)
			for ; done > fs; done-- {
				consider(done - 1)
			}
			src[p.rows[k]] = best
			if fs >= fe {
				src[p.rows[k]] = srcNull
			}
		}
	default:
		for k, r := range p.rows {
			fs, fe := p.frame(f, k)
			best = srcNull
			for j := fs; j < fe; j++ {
				consider(j)
			}
			src[r] = best
		}
	}
}

// accFrames runs an aggregate's accumulator (w.Agg) over each row's
// frame. A frame equal to the previous row's (every row of a partition
// without ORDER BY, peers under RANGE) is not aggregated again; frames
// that start at the partition's first row grow one accumulator, whose
// result is read as the frame ends move on (the accumulators' results do
// not consume their state); other frames get a fresh accumulator each,
// which costs the frame's width per distinct frame.
func (w *WindowCall) accFrames(p *winPart, in *WindowCols, res []*vec.Col) error {
	if w.excludes() || w.Agg.Order != nil {
		return w.accFramesSorted(p, in, res)
	}
	feed := func(acc function.Accumulator, sel []int32) { feedRows(acc, in, sel) }
	running := w.Frame == nil || w.Frame.Start.Kind == 'u'
	var acc function.Accumulator
	fed := 0 // running: positions [0, fed) are in acc
	prevS, prevE := -1, -1
	var prev *vec.Col
	for k, r := range p.rows {
		fs, fe := p.frame(w.Frame, k)
		fe = max(fs, fe)
		if fs != prevS || fe != prevE {
			switch {
			case running && fe >= fed:
				if acc == nil {
					acc = NewAccumulator(w.Agg)
				}
				feed(acc, p.rows[fed:fe])
				fed = fe
			default:
				acc, fed = NewAccumulator(w.Agg), 0
				feed(acc, p.rows[fs:fe])
				if running {
					fed = fe
				}
			}
			if err := function.AccError(acc); err != nil {
				return err
			}
			// a copy: an accumulator may reuse its result's buffers
			prev, prevS, prevE = acc.Result(1).Take([]int32{0}), fs, fe
		}
		res[r] = prev
	}
	return nil
}

// feedRows updates acc (one group) with the argument values of rows sel.
func feedRows(acc function.Accumulator, in *WindowCols, sel []int32) {
	gids := make([]int32, len(sel))
	switch {
	case in.Arg2 != nil:
		acc.(function.PairAccumulator).Update2(gids, 1, in.Arg.Take(sel), in.Arg2.Take(sel))
	case in.Arg != nil:
		acc.Update(gids, 1, in.Arg.Take(sel))
	default:
		acc.Update(gids, 1, nil)
	}
}

package scan

import (
	"math"

	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

// ranges is a sorted list of disjoint row ranges; nil means "every row".
type ranges []file.RowRange

func intersect(a, b ranges, all int64) ranges {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := ranges{}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		s, e := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if s < e {
			out = append(out, file.RowRange{Start: s, End: e})
		}
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return out
}

func union(a, b ranges, all int64) ranges {
	if a == nil || b == nil {
		return nil
	}
	merged := make(ranges, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		var r file.RowRange
		if j >= len(b) || i < len(a) && a[i].Start <= b[j].Start {
			r = a[i]
			i++
		} else {
			r = b[j]
			j++
		}
		if n := len(merged); n > 0 && r.Start <= merged[n-1].End {
			merged[n-1].End = max(merged[n-1].End, r.End)
		} else {
			merged = append(merged, r)
		}
	}
	if len(merged) == 1 && merged[0].Start == 0 && merged[0].End >= all {
		return nil
	}
	return merged
}

func rowCount(r ranges, all int64) int64 {
	if r == nil {
		return all
	}
	var n int64
	for _, x := range r {
		n += x.End - x.Start
	}
	return n
}

// pageCounter accumulates page statistics of one row group, and keeps the
// page indexes read for it, which pruning and counting (sureRanges) share.
type pageCounter struct {
	pages, pruned int64
	indexes       map[int]pageIndex
}

// pageIndex is a column chunk's column index and offset index.
type pageIndex struct {
	ci *format.ColumnIndex
	oi *format.OffsetIndex
}

// index returns the column index and offset index of chunk c (nil when
// it has none), read once per row group.
func (pc *pageCounter) index(c *file.Chunk, col int) (*format.ColumnIndex, *format.OffsetIndex, error) {
	if x, ok := pc.indexes[col]; ok {
		return x.ci, x.oi, nil
	}
	ci, err := c.ColumnIndex()
	if err != nil {
		return nil, nil, err
	}
	var oi *format.OffsetIndex
	if ci != nil {
		if oi, err = c.OffsetIndex(); err != nil {
			return nil, nil, err
		}
	}
	if pc.indexes == nil {
		pc.indexes = map[int]pageIndex{}
	}
	pc.indexes[col] = pageIndex{ci, oi}
	return ci, oi, nil
}

// pageRanges returns the rows of row group rg that may match p according
// to the column indexes of the predicate's columns (nil: all of them).
func (s *Scanner) pageRanges(b *fileBinding, f *file.File, rg int, p Predicate, pc *pageCounter) (ranges, error) {
	all := f.Meta.RowGroups[rg].NumRows
	switch x := p.(type) {
	case And:
		var out ranges
		for _, t := range x.Terms {
			r, err := s.pageRanges(b, f, rg, t, pc)
			if err != nil {
				return nil, err
			}
			out = intersect(out, r, all)
			if out != nil && len(out) == 0 {
				return out, nil
			}
		}
		return out, nil
	case Or:
		out := ranges{}
		for _, t := range x.Terms {
			r, err := s.pageRanges(b, f, rg, t, pc)
			if err != nil {
				return nil, err
			}
			out = union(out, r, all)
			if out == nil {
				return nil, nil
			}
		}
		return out, nil
	case Not:
		return nil, nil
	}
	name := Columns(nil, p)[0]
	_, fl, _, ok := b.column(name)
	if !ok {
		if s.partitionMayMatch(b, p) {
			return nil, nil
		}
		return ranges{}, nil
	}
	if fl.Kind != schema.Primitive || fl.Node.MaxRep > 0 {
		return nil, nil
	}
	leaf := compile(p, b).(*leafEval)
	if leaf.byValue || leaf.ci.dom == domNone {
		return nil, nil
	}
	c, err := f.Chunk(rg, fl.Node.Column)
	if err != nil {
		return nil, err
	}
	ci, oi, err := pc.index(c, fl.Node.Column)
	if err != nil || ci == nil || oi == nil || len(oi.PageLocations) != len(ci.NullPages) {
		return nil, err
	}
	if !columnIndexTrustworthy(ci) {
		return nil, nil
	}
	info := describe(fl.Node)
	out := pageRows(oi.PageLocations, all, func(i int, _, _ int64) bool {
		pc.pages++
		if !mayMatch(info, p, leaf.bounds, pageStats(info, ci, i)) {
			pc.pruned++
			return false
		}
		return true
	})
	if len(out) == 1 && out[0].Start == 0 && out[0].End >= all {
		return nil, nil
	}
	return out, nil
}

// pageRows returns the rows of the pages of a row group of all rows that
// keep accepts, adjacent pages merged into one range (never nil). keep
// sees each page's index and its rows [start, end).
func pageRows(locs []format.PageLocation, all int64, keep func(i int, start, end int64) bool) ranges {
	out := ranges{}
	for i := range locs {
		start, end := locs[i].FirstRowIndex, all
		if i+1 < len(locs) {
			end = locs[i+1].FirstRowIndex
		}
		if !keep(i, start, end) {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End == start {
			out[n-1].End = end
		} else {
			out = append(out, file.RowRange{Start: start, End: end})
		}
	}
	return out
}

// subtract returns the rows of a (nil: [0, all)) that are not in b.
func subtract(a, b ranges, all int64) ranges {
	if a == nil {
		a = ranges{{Start: 0, End: all}}
	}
	out := ranges{}
	j := 0
	for _, r := range a {
		start := r.Start
		for j < len(b) && b[j].End <= start {
			j++
		}
		for k := j; k < len(b) && b[k].Start < r.End; k++ {
			if b[k].Start > start {
				out = append(out, file.RowRange{Start: start, End: b[k].Start})
			}
			start = max(start, b[k].End)
		}
		if start < r.End {
			out = append(out, file.RowRange{Start: start, End: r.End})
		}
	}
	return out
}

// columnIndexTrustworthy rejects column indexes that some writers emit
// without real statistics: parquet-mr with statistics off marks every page
// null with a null count of -1. Negative counts, or a "null" page with a
// known count of zero, mean the index cannot be used for pruning.
func columnIndexTrustworthy(ci *format.ColumnIndex) bool {
	for i, null := range ci.NullPages {
		if ci.NullCounts != nil {
			if ci.NullCounts[i] < 0 || null && ci.NullCounts[i] == 0 {
				return false
			}
		}
	}
	return true
}

// pageStats reads page i's entry of a column index.
func pageStats(ci colInfo, idx *format.ColumnIndex, i int) colStats {
	cs := colStats{nulls: -1, values: -1}
	if idx.NullCounts != nil {
		cs.nulls = idx.NullCounts[i]
	}
	if idx.NullPages[i] {
		// Every value of the page is null.
		cs.values = 1
		cs.nulls = 1
		return cs
	}
	mn, ok1 := decodeStat(ci, idx.MinValues[i])
	mx, ok2 := decodeStat(ci, idx.MaxValues[i])
	if ok1 && ok2 && !(ci.dom == domFloat && (math.IsNaN(mn.f) || math.IsNaN(mx.f))) {
		cs.hasMinMax, cs.min, cs.max = true, mn, mx
	}
	if ci.dom == domFloat {
		cs.maybeNaN = !(idx.NanCounts != nil && idx.NanCounts[i] == 0)
	}
	return cs
}

// bloomMayMatch checks equality predicates against the row group's bloom
// filters: false when some conjunct's values are certainly absent.
func (s *Scanner) bloomMayMatch(b *fileBinding, f *file.File, rg int, p Predicate, cache map[int]*bloom.Filter) (bool, error) {
	switch x := p.(type) {
	case And:
		for _, t := range x.Terms {
			ok, err := s.bloomMayMatch(b, f, rg, t, cache)
			if err != nil || !ok {
				return ok, err
			}
		}
		return true, nil
	case Or:
		for _, t := range x.Terms {
			ok, err := s.bloomMayMatch(b, f, rg, t, cache)
			if err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	case Compare:
		if x.Op != Eq {
			return true, nil
		}
	case In:
		if x.Not || x.Ints != nil {
			return true, nil
		}
	default:
		return true, nil
	}
	name := Columns(nil, p)[0]
	_, fl, _, ok := b.column(name)
	if !ok || fl.Kind != schema.Primitive || fl.Node.MaxRep > 0 {
		return true, nil
	}
	leaf := compile(p, b).(*leafEval)
	if leaf.byValue || leaf.ci.dom == domNone || leaf.ci.dom == domBool {
		return true, nil
	}
	col := fl.Node.Column
	bf, seen := cache[col]
	if !seen {
		c, err := f.Chunk(rg, col)
		if err != nil {
			return true, err
		}
		if bf, err = c.BloomFilter(); err != nil {
			return true, err
		}
		cache[col] = bf
	}
	if bf == nil {
		return true, nil
	}
	for i := range leaf.bounds {
		h, exact, ok := bloomHash(leaf.ci, fl.Node, &leaf.bounds[i])
		if !ok {
			return true, nil // cannot hash this constant faithfully: no pruning
		}
		if !exact {
			continue // the constant cannot equal any value of the column
		}
		if bf.Check(h) {
			return true, nil
		}
	}
	return false, nil
}

// bloomHash hashes a bound constant as the column's PLAIN encoding.
// exact is false when no value of the column can equal the constant; ok is
// false when the bloom filter cannot decide (e.g. ±0.0 hash differently).
func bloomHash(ci colInfo, n *schema.Node, b *bound) (h uint64, exact, ok bool) {
	if b.low || b.high || b.frac != 0 {
		return 0, false, true
	}
	switch n.Physical {
	case format.Int32:
		v := b.i
		if ci.dom == domUint {
			if b.u > math.MaxUint32 {
				return 0, false, true
			}
			return bloom.HashInt32(int32(uint32(b.u))), true, true
		}
		if v < math.MinInt32 || v > math.MaxInt32 {
			return 0, false, true
		}
		return bloom.HashInt32(int32(v)), true, true
	case format.Int64:
		if ci.dom == domUint {
			return bloom.HashInt64(int64(b.u)), true, true
		}
		return bloom.HashInt64(b.i), true, true
	case format.Float:
		if b.f == 0 || math.IsNaN(b.f) {
			return 0, false, false // ±0 and NaN payloads hash differently
		}
		f32 := float32(b.f)
		if float64(f32) != b.f {
			return 0, false, true // no FLOAT equals this constant
		}
		return bloom.HashFloat32(f32), true, true
	case format.Double:
		if b.f == 0 || math.IsNaN(b.f) {
			return 0, false, false
		}
		return bloom.HashFloat64(b.f), true, true
	case format.ByteArray:
		return bloom.HashBytes(b.b), true, true
	case format.FixedLenByteArray:
		if len(b.b) != n.TypeLength {
			return 0, false, true
		}
		return bloom.HashFixed(b.b), true, true
	}
	return 0, false, false
}

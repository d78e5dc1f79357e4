package scan

import (
	"sync/atomic"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// A scan that returns no column (COUNT(*) with a filter) only needs to
// know how many rows pass. Pages whose column index entry shows that every
// row passes (no nulls, and min and max both on the right side of the
// constant) are counted from the index without being read or decoded;
// only the other pages are decoded and compared.

// sureRanges returns the rows of row group rg where the column indexes
// show that p holds for every row; never nil (ranges{} when none).
func (s *Scanner) sureRanges(b *fileBinding, f *file.File, rg int, p Predicate, pc *pageCounter) (ranges, error) {
	all := f.Meta.RowGroups[rg].NumRows
	switch x := p.(type) {
	case And:
		out := ranges{{Start: 0, End: all}}
		for _, t := range x.Terms {
			r, err := s.sureRanges(b, f, rg, t, pc)
			if err != nil || len(r) == 0 {
				return ranges{}, err
			}
			out = intersect(out, r, all)
			if len(out) == 0 {
				return ranges{}, nil
			}
		}
		return out, nil
	case Or:
		out := ranges{}
		for _, t := range x.Terms {
			r, err := s.sureRanges(b, f, rg, t, pc)
			if err != nil {
				return ranges{}, err
			}
			if out = union(out, r, all); out == nil {
				return ranges{{Start: 0, End: all}}, nil
			}
		}
		return out, nil
	case Compare:
		return s.sureCompare(b, f, rg, x, pc)
	}
	return ranges{}, nil
}

// sureCompare is sureRanges of one comparison: the pages whose statistics
// put every value on the side of the constant that makes it true.
func (s *Scanner) sureCompare(b *fileBinding, f *file.File, rg int, p Compare, pc *pageCounter) (ranges, error) {
	_, fl, _, ok := b.column(p.Column)
	if !ok || fl.Kind != schema.Primitive || fl.Node.MaxRep > 0 {
		return ranges{}, nil
	}
	leaf, ok := compile(p, b).(*leafEval)
	if !ok || leaf.byValue || len(leaf.bounds) != 1 {
		return ranges{}, nil
	}
	switch leaf.ci.dom {
	case domInt, domUint, domFloat:
	default:
		return ranges{}, nil
	}
	c, err := f.Chunk(rg, fl.Node.Column)
	if err != nil {
		return ranges{}, err
	}
	ci, oi, err := pc.index(c, fl.Node.Column)
	if err != nil || ci == nil || ci.NullCounts == nil || !columnIndexTrustworthy(ci) ||
		oi == nil || len(oi.PageLocations) != len(ci.NullPages) {
		return ranges{}, err
	}
	info := describe(fl.Node)
	all := f.Meta.RowGroups[rg].NumRows
	disordered := false
	out := pageRows(oi.PageLocations, all, func(i int, start, end int64) bool {
		if start < 0 || end > all || start >= end {
			disordered = true
		}
		return !disordered && allMatch(info, p.Op, &leaf.bounds[0], pageStats(info, ci, i))
	})
	if disordered {
		return ranges{}, nil // an offset index out of order: trust none of it
	}
	return out, nil
}

// allMatch reports whether every row summarised by cs makes `x op c`
// true. It must never say yes wrongly: unknown null counts, nulls, a
// possible NaN or missing bounds all say no. Truncated bounds (a lower
// min, a higher max) keep it right.
func allMatch(ci colInfo, op Op, c *bound, cs colStats) bool {
	if cs.nulls != 0 || !cs.hasMinMax || cs.maybeNaN {
		return false
	}
	lo := cmpBound(ci.dom, &cs.min, c) // min against c
	hi := cmpBound(ci.dom, &cs.max, c) // max against c
	switch op {
	case Ge:
		return lo >= 0
	case Gt:
		return lo > 0
	case Le:
		return hi <= 0
	case Lt:
		return hi < 0
	case Eq:
		return !c.never && lo == 0 && hi == 0
	}
	return false
}

// countSure takes out of rowRanges (nil: the whole row group, or the
// unit's span) the rows that the column indexes show pass the filter,
// and sends their count as batches without columns. It returns the rows
// left to decode (ranges{} when none). Only for scans that return no
// column, with no deletion vector left to apply.
func (s *Scanner) countSure(u *unit, f *file.File, b *fileBinding, rowRanges ranges, pc *pageCounter, send func(result) bool) (ranges, bool, error) {
	all := f.Meta.RowGroups[u.rg].NumRows
	sure, err := s.sureRanges(b, f, u.rg, s.filter, pc)
	if err != nil || len(sure) == 0 {
		return rowRanges, true, err
	}
	if rowRanges != nil {
		sure = intersect(sure, rowRanges, all)
	}
	n := rowCount(sure, all)
	for n > 0 {
		k := int(min(n, int64(s.req.BatchSize)))
		n -= int64(k)
		atomic.AddInt64(&s.stats.RowsOutput, int64(k))
		if !send(result{batch: &Batch{Columns: make([]*vector.Vector, len(s.cols)), NumRows: k}}) {
			return nil, false, nil
		}
	}
	return subtract(rowRanges, sure, all), true, nil
}

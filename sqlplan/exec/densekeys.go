package exec

import "github.com/carquet-go/carquet/sqlplan/vec"

// Multi-column keys in small ranges (string keys' ids, small integers)
// index one table directly: a row's group is a multiply-add and a load
// (TPC-H Q1 groups 6M rows by two one-letter flags). The table holds
// group ids + 1 (0: not seen yet; the map then decides, and the table
// remembers). Ranges grow as batches bring new values; past
// denseKeysMax slots the grouper goes back to the map for good.

// denseKeysMax bounds the slots of the table.
const denseKeysMax = 1 << 16

type denseKeys struct {
	base, stride [4]int64
	top          [4]int64 // the largest value each column's range holds
	table        []int32
	off          bool
}

// assignDense groups rows through the table when every key column is
// free of nulls and its values fit; it reports whether it did.
func (g *Grouper) assignDense(cols []*vec.Col, vals [][]int64, n int, gids []int32) bool {
	d := &g.multiDense
	if d.off || n == 0 {
		return false
	}
	for _, c := range cols {
		if c.Null != nil {
			return false
		}
	}
	var lo, hi [4]int64
	fits := d.table != nil
	for j := range cols {
		if ids := g.interns[j]; ids != nil {
			// String ids are below the count of strings seen.
			lo[j], hi[j] = 0, int64(len(ids.ids))-1
		} else {
			v := vals[j][:n]
			mn, mx := v[0], v[0]
			for _, x := range v[1:] {
				mn, mx = min(mn, x), max(mx, x)
			}
			lo[j], hi[j] = mn, mx
		}
		fits = fits && lo[j] >= d.base[j] && hi[j] <= d.top[j]
	}
	if !fits && !d.grow(g, lo, hi, len(cols)) {
		d.off, d.table = true, nil
		return false
	}
	table := d.table
	if len(cols) == 2 {
		a, b := vals[0][:n], vals[1][:n]
		a0, b0, sa := d.base[0], d.base[1], d.stride[0]
		for i := range gids[:n] {
			id := table[(a[i]-a0)*sa+b[i]-b0]
			if id == 0 {
				id = g.multiID(cols, vals, i) + 1
				table[(a[i]-a0)*sa+b[i]-b0] = id
			}
			gids[i] = id - 1
		}
		return true
	}
	for i := 0; i < n; i++ {
		var idx int64
		for j := range cols {
			idx += (vals[j][i] - d.base[j]) * d.stride[j]
		}
		id := table[idx]
		if id == 0 {
			id = g.multiID(cols, vals, i) + 1
			table[idx] = id
		}
		gids[i] = id - 1
	}
	return true
}

// grow widens the ranges to hold [lo, hi] (with room to spare) and
// refills the table from the groups so far; false when the table would
// pass denseKeysMax slots.
func (d *denseKeys) grow(g *Grouper, lo, hi [4]int64, ncols int) bool {
	var base, top, width [4]int64
	slots := int64(1)
	for j := 0; j < ncols; j++ {
		base[j], top[j] = lo[j], hi[j]
		if d.table != nil {
			base[j], top[j] = min(base[j], d.base[j]), max(top[j], d.top[j])
		}
		if base[j] >= 0 && base[j] < 64 {
			base[j] = 0 // ids and small counts start at 0
		}
		w := top[j] - base[j] + 1
		if w <= 0 || w > denseKeysMax {
			return false
		}
		// Room for new values without a rebuild for each.
		width[j] = 1
		for width[j] < w {
			width[j] <<= 1
		}
		top[j] = base[j] + width[j] - 1
		if slots *= width[j]; slots > denseKeysMax {
			return false
		}
	}
	var stride [4]int64
	s := int64(1)
	for j := ncols - 1; j >= 0; j-- {
		stride[j] = s
		s *= width[j]
	}
	table := make([]int32, slots)
	for _, e := range g.multi.ents {
		k, id := e.k, e.id
		if k.nulls != 0 || !inRanges(k.v[:ncols], base[:ncols], top[:ncols]) {
			// Groups made by the map while the table was not in use (a
			// batch with nulls) may lie outside the new ranges; the map
			// keeps finding them.
			continue
		}
		var idx int64
		for j := 0; j < ncols; j++ {
			idx += (k.v[j] - base[j]) * stride[j]
		}
		table[idx] = id + 1
	}
	d.base, d.top, d.stride, d.table = base, top, stride, table
	return true
}

// inRanges reports whether every v[j] lies in [lo[j], hi[j]].
func inRanges(v, lo, hi []int64) bool {
	for j := range v {
		if v[j] < lo[j] || v[j] > hi[j] {
			return false
		}
	}
	return true
}

package writer

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/big"
	"strconv"
	"testing"

	"github.com/carquet-go/carquet/parquet/bloom"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
)

// oracle orders the values of one column independently of the writer's
// statistics code, from the logical type.
type oracle struct {
	n    *schema.Node
	kind string // "int", "uint", "float", "bool", "bytes", "decimal", "f16", "none"
}

func newOracle(n *schema.Node) oracle {
	lt := n.Logical
	o := oracle{n: n}
	switch {
	case n.Converted.Set && n.Converted.Value == format.Interval, n.Physical == format.Int96,
		lt != nil && (lt.Geometry != nil || lt.Geography != nil):
		o.kind = "none"
	case n.Physical == format.Boolean:
		o.kind = "bool"
	case n.Physical == format.Int32 || n.Physical == format.Int64:
		o.kind = "int"
		if lt != nil && lt.Integer != nil && !lt.Integer.IsSigned {
			o.kind = "uint"
		}
	case n.Physical == format.Float || n.Physical == format.Double:
		o.kind = "float"
	case lt != nil && lt.Decimal != nil:
		o.kind = "decimal"
	case lt != nil && lt.Float16 != nil:
		o.kind = "f16"
	default:
		o.kind = "bytes"
	}
	return o
}

// item is one value in comparable form; skip marks NaNs.
type item struct {
	i    int64
	u    uint64
	f    float64
	b    []byte
	d    *big.Int
	skip bool
}

func (o oracle) item(v *vector.Vector, j int) item {
	switch v.Kind {
	case vector.Bool:
		if v.Bools[j] {
			return item{i: 1}
		}
		return item{}
	case vector.Int32:
		if o.kind == "uint" {
			return item{u: uint64(uint32(v.Int32s[j]))}
		}
		return item{i: int64(v.Int32s[j])}
	case vector.Int64:
		return item{i: v.Int64s[j], u: uint64(v.Int64s[j])}
	case vector.Float32:
		f := float64(v.Float32s[j])
		return item{f: f, skip: f != f}
	case vector.Float64:
		f := v.Float64s[j]
		return item{f: f, skip: f != f}
	case vector.Int96:
		return item{b: v.Int96s[j][:]}
	}
	b := v.Bytes(j)
	switch o.kind {
	case "decimal":
		return item{b: b, d: value.DecimalFromBigEndian(b, 0).Unscaled}
	case "f16":
		f := float64(value.Float16(b))
		return item{b: b, f: f, skip: f != f}
	}
	return item{b: b}
}

func (o oracle) itemFromStat(b []byte) item {
	switch o.n.Physical {
	case format.Boolean:
		return item{i: int64(b[0])}
	case format.Int32:
		if o.kind == "uint" {
			return item{u: uint64(binary.LittleEndian.Uint32(b))}
		}
		return item{i: int64(int32(binary.LittleEndian.Uint32(b)))}
	case format.Int64:
		x := binary.LittleEndian.Uint64(b)
		return item{i: int64(x), u: x}
	case format.Float:
		return item{f: float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))}
	case format.Double:
		return item{f: math.Float64frombits(binary.LittleEndian.Uint64(b))}
	}
	switch o.kind {
	case "decimal":
		return item{b: b, d: value.DecimalFromBigEndian(b, 0).Unscaled}
	case "f16":
		return item{b: b, f: float64(value.Float16(b))}
	}
	return item{b: b}
}

func (o oracle) cmp(a, b item) int {
	switch o.kind {
	case "int", "bool":
		return cmp3(a.i, b.i)
	case "uint":
		return cmp3(a.u, b.u)
	case "float", "f16":
		return cmp3(a.f, b.f)
	case "decimal":
		return a.d.Cmp(b.d)
	}
	return bytes.Compare(a.b, b.b)
}

// expect is what statistics over a set of values must say.
type expect struct {
	nulls, nans int64
	has         bool
	min, max    item
	values      int
}

func (o oracle) over(d *file.LeafData, maxDef int16) expect {
	var e expect
	if maxDef > 0 {
		for _, l := range d.Def {
			if l < maxDef {
				e.nulls++
			}
		}
	}
	e.values = d.Values.Len
	for j := 0; j < d.Values.Len; j++ {
		it := o.item(&d.Values, j)
		if it.skip {
			e.nans++
			continue
		}
		if !e.has {
			e.min, e.max, e.has = it, it, true
			continue
		}
		if o.cmp(it, e.min) < 0 {
			e.min = it
		}
		if o.cmp(it, e.max) > 0 {
			e.max = it
		}
	}
	return e
}

// checkBounds checks a written min/max pair against the true bounds:
// equal when exact, otherwise a bound on the right side.
func (o oracle) checkBounds(t testing.TB, where string, e expect, minB, maxB []byte, minExact, maxExact bool) {
	t.Helper()
	if o.kind == "none" {
		if minB != nil || maxB != nil {
			t.Errorf("%s: min/max written for a column without a sort order", where)
		}
		return
	}
	if !e.has {
		if len(minB) != 0 || len(maxB) != 0 {
			t.Errorf("%s: min/max written without values", where)
		}
		return
	}
	if minB == nil || maxB == nil {
		t.Errorf("%s: min/max missing", where)
		return
	}
	mi, ma := o.itemFromStat(minB), o.itemFromStat(maxB)
	c1, c2 := o.cmp(mi, e.min), o.cmp(ma, e.max)
	if minExact && c1 != 0 || !minExact && c1 > 0 {
		t.Errorf("%s: min %v (exact %v), values' min %v", where, minB, minExact, e.min)
	}
	if maxExact && c2 != 0 || !maxExact && c2 < 0 {
		t.Errorf("%s: max %v (exact %v), values' max %v", where, maxB, maxExact, e.max)
	}
	if o.kind == "float" || o.kind == "f16" {
		// Zeros: min is -0, max is +0 (ColumnOrder rules).
		if mi.f == 0 && !math.Signbit(mi.f) {
			t.Errorf("%s: zero min written as +0", where)
		}
		if ma.f == 0 && math.Signbit(ma.f) {
			t.Errorf("%s: zero max written as -0", where)
		}
	}
	if o.kind == "bytes" && o.n.Physical == format.ByteArray {
		if len(minB) > DefaultStatisticsTruncate && !minExact || len(maxB) > DefaultStatisticsTruncate && !maxExact {
			t.Errorf("%s: truncated bound longer than %d bytes", where, DefaultStatisticsTruncate)
		}
	}
}

// verifyMetadata checks every column chunk's statistics, page index and
// bloom filter against the values the reader finds in it.
func verifyMetadata(t testing.TB, f *file.File) {
	t.Helper()
	for rg := range f.Meta.RowGroups {
		for col, leaf := range f.Schema.Leaves {
			verifyChunk(t, f, rg, col, leaf)
		}
	}
}

func verifyChunk(t testing.TB, f *file.File, rg, col int, leaf *schema.Node) {
	t.Helper()
	c, err := f.Chunk(rg, col)
	if err != nil {
		t.Fatal(err)
	}
	o := newOracle(leaf)
	where := "rg " + itoa(rg) + " column " + leaf.PathString()
	cr, err := c.NewColumnReader()
	if err != nil {
		t.Fatal(err)
	}
	all := cr.NewLeafData()
	if _, err := cr.ReadRows(all, int(c.NumRows)); err != nil {
		t.Fatal(where, err)
	}
	md := c.Meta
	if md.NumValues != int64(all.Entries) {
		t.Errorf("%s: num_values %d, %d entries", where, md.NumValues, all.Entries)
	}
	e := o.over(all, leaf.MaxDef)
	if st := md.Statistics; st != nil {
		if st.NullCount.Value != e.nulls || !st.NullCount.Set {
			t.Errorf("%s: null_count %v, want %d", where, st.NullCount, e.nulls)
		}
		if (o.kind == "float" || o.kind == "f16") && st.NanCount.Value != e.nans {
			t.Errorf("%s: nan_count %v, want %d", where, st.NanCount, e.nans)
		}
		o.checkBounds(t, where, e, st.MinValue, st.MaxValue, st.IsMinValueExact.Or(false), st.IsMaxValueExact.Or(false))
		if dc, ok := st.DistinctCount.Get(); ok {
			seen := map[string]bool{}
			for j := 0; j < all.Values.Len; j++ {
				seen[string(valueBytes(&all.Values, j))] = true
			}
			if int(dc) != len(seen) {
				t.Errorf("%s: distinct_count %d, %d distinct values", where, dc, len(seen))
			}
		}
	}
	if ss := md.SizeStatistics; ss != nil {
		if leaf.Physical == format.ByteArray {
			var n int64
			for j := 0; j < all.Values.Len; j++ {
				n += int64(len(all.Values.Bytes(j)))
			}
			if ss.UnencodedByteArrayDataBytes.Value != n {
				t.Errorf("%s: unencoded bytes %d, want %d", where, ss.UnencodedByteArrayDataBytes.Value, n)
			}
		}
		checkHist(t, where+" def", ss.DefinitionLevelHistogram, all.Def, leaf.MaxDef)
		checkHist(t, where+" rep", ss.RepetitionLevelHistogram, all.Rep, leaf.MaxRep)
	}
	cc := c.CC
	if enc, _ := f.Encrypted(); enc {
		// The indexes and bloom filters of encrypted columns are
		// encrypted: read through the file's decryption.
		verifyEncryptedIndexes(t, where, c, o, leaf, all)
		return
	}
	if off, ok := cc.OffsetIndexOffset.Get(); ok {
		b, err := f.ReadRange(off, int64(cc.OffsetIndexLength.Value))
		if err != nil {
			t.Fatal(err)
		}
		var oi format.OffsetIndex
		if _, err := format.Unmarshal(b, &oi); err != nil {
			t.Fatal(where, err)
		}
		var ci *format.ColumnIndex
		if off, ok := cc.ColumnIndexOffset.Get(); ok {
			b, err := f.ReadRange(off, int64(cc.ColumnIndexLength.Value))
			if err != nil {
				t.Fatal(err)
			}
			ci = new(format.ColumnIndex)
			if _, err := format.Unmarshal(b, ci); err != nil {
				t.Fatal(where, err)
			}
			if len(ci.NullPages) != len(oi.PageLocations) {
				t.Fatalf("%s: column index of %d pages, offset index of %d", where, len(ci.NullPages), len(oi.PageLocations))
			}
		}
		verifyPages(t, where, c, o, leaf, &oi, ci)
	}
	if off, ok := md.BloomFilterOffset.Get(); ok {
		b, err := f.ReadRange(off, int64(md.BloomFilterLength.Value))
		if err != nil {
			t.Fatal(err)
		}
		var h format.BloomFilterHeader
		n, err := format.Unmarshal(b, &h)
		if err != nil {
			t.Fatal(where, err)
		}
		bits := b[n:]
		if int(h.NumBytes) != len(bits) || h.Algorithm.Block == nil || h.Hash.XxHash == nil || h.Compression.Uncompressed == nil {
			t.Fatalf("%s: bloom header %+v with %d bytes of bitset", where, h, len(bits))
		}
		for j := 0; j < all.Values.Len; j++ {
			if !bloomCheck(bits, bloom.HashBytes(valueBytes(&all.Values, j))) {
				t.Fatalf("%s: value %d not in the bloom filter", where, j)
			}
		}
	}
}

// bloomCheck is BloomFilter.md's filter_check, written from the spec.
func bloomCheck(bitset []byte, h uint64) bool {
	salt := [8]uint32{0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d, 0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31}
	z := uint64(len(bitset) / 32)
	i := ((h >> 32) * z) >> 32
	block := bitset[i*32 : i*32+32]
	for k := range 8 {
		word := binary.LittleEndian.Uint32(block[4*k:])
		bit := (uint32(h) * salt[k]) >> 27
		if word&(1<<bit) == 0 {
			return false
		}
	}
	return true
}

// valueBytes is the PLAIN encoding of a value without a length prefix.
func valueBytes(v *vector.Vector, j int) []byte {
	switch v.Kind {
	case vector.Bool:
		if v.Bools[j] {
			return []byte{1}
		}
		return []byte{0}
	case vector.Int32:
		return binary.LittleEndian.AppendUint32(nil, uint32(v.Int32s[j]))
	case vector.Int64:
		return binary.LittleEndian.AppendUint64(nil, uint64(v.Int64s[j]))
	case vector.Int96:
		return v.Int96s[j][:]
	case vector.Float32:
		return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v.Float32s[j]))
	case vector.Float64:
		return binary.LittleEndian.AppendUint64(nil, math.Float64bits(v.Float64s[j]))
	}
	return v.Bytes(j)
}

func checkHist(t testing.TB, where string, hist []int64, levels []int16, maxLevel int16) {
	t.Helper()
	if maxLevel == 0 {
		if len(hist) != 0 {
			t.Errorf("%s: histogram written for max level 0", where)
		}
		return
	}
	want := make([]int64, maxLevel+1)
	for _, l := range levels {
		want[l]++
	}
	if len(hist) != len(want) {
		t.Errorf("%s: histogram %v, want %v", where, hist, want)
		return
	}
	for i := range want {
		if hist[i] != want[i] {
			t.Errorf("%s: histogram %v, want %v", where, hist, want)
			return
		}
	}
}

func verifyPages(t testing.TB, where string, c *file.Chunk, o oracle, leaf *schema.Node, oi *format.OffsetIndex, ci *format.ColumnIndex) {
	t.Helper()
	cr, err := c.NewColumnReader()
	if err != nil {
		t.Fatal(err)
	}
	locs := oi.PageLocations
	start, end, err := c.ByteRange()
	if err != nil {
		t.Fatal(err)
	}
	end += start
	var mins, maxs []item
	var nonNull []bool
	for p, loc := range locs {
		if loc.Offset < start || loc.Offset+int64(loc.CompressedPageSize) > end {
			t.Fatalf("%s: page %d at [%d,+%d) outside the chunk [%d,%d)", where, p, loc.Offset, loc.CompressedPageSize, start, end)
		}
		if p > 0 && loc.Offset != locs[p-1].Offset+int64(locs[p-1].CompressedPageSize) {
			t.Errorf("%s: page %d does not follow page %d", where, p, p-1)
		}
		if p == 0 && loc.FirstRowIndex != 0 || p > 0 && loc.FirstRowIndex <= locs[p-1].FirstRowIndex {
			t.Errorf("%s: page %d first row %d", where, p, loc.FirstRowIndex)
		}
		rows := c.NumRows - loc.FirstRowIndex
		if p+1 < len(locs) {
			rows = locs[p+1].FirstRowIndex - loc.FirstRowIndex
		}
		d := cr.NewLeafData()
		got, err := cr.ReadRows(d, int(rows))
		if err != nil || int64(got) != rows {
			t.Fatalf("%s: page %d: read %d of %d rows: %v", where, p, got, rows, err)
		}
		// A page holds whole rows: the next page starts a row.
		e := o.over(d, leaf.MaxDef)
		if oi.UnencodedByteArrayDataBytes != nil {
			var n int64
			for j := 0; j < d.Values.Len; j++ {
				n += int64(len(d.Values.Bytes(j)))
			}
			if oi.UnencodedByteArrayDataBytes[p] != n {
				t.Errorf("%s: page %d unencoded bytes %d, want %d", where, p, oi.UnencodedByteArrayDataBytes[p], n)
			}
		}
		if ci == nil {
			continue
		}
		pw := where + " page " + itoa(p)
		if ci.NullPages[p] != (e.values == 0) {
			t.Errorf("%s: null_pages %v with %d values", pw, ci.NullPages[p], e.values)
		}
		if ci.NullCounts != nil && ci.NullCounts[p] != e.nulls {
			t.Errorf("%s: null count %d, want %d", pw, ci.NullCounts[p], e.nulls)
		}
		if ci.NanCounts != nil && ci.NanCounts[p] != e.nans {
			t.Errorf("%s: nan count %d, want %d", pw, ci.NanCounts[p], e.nans)
		}
		if !ci.NullPages[p] {
			exact := leaf.Physical != format.ByteArray || o.kind != "bytes"
			o.checkBounds(t, pw, e, ci.MinValues[p], ci.MaxValues[p], exact, exact)
			mins = append(mins, o.itemFromStat(ci.MinValues[p]))
			maxs = append(maxs, o.itemFromStat(ci.MaxValues[p]))
			nonNull = append(nonNull, true)
		}
		if ci.DefinitionLevelHistograms != nil {
			n := int(leaf.MaxDef) + 1
			checkHist(t, pw+" def", ci.DefinitionLevelHistograms[p*n:(p+1)*n], d.Def, leaf.MaxDef)
		}
		if ci.RepetitionLevelHistograms != nil {
			n := int(leaf.MaxRep) + 1
			checkHist(t, pw+" rep", ci.RepetitionLevelHistograms[p*n:(p+1)*n], d.Rep, leaf.MaxRep)
		}
	}
	if ci == nil {
		return
	}
	asc, desc := true, true
	for i := 1; i < len(mins); i++ {
		a, b := o.cmp(mins[i-1], mins[i]), o.cmp(maxs[i-1], maxs[i])
		if a > 0 || b > 0 {
			asc = false
		}
		if a < 0 || b < 0 {
			desc = false
		}
	}
	switch ci.BoundaryOrder {
	case format.Ascending:
		if !asc {
			t.Errorf("%s: boundary order ASCENDING, pages are not", where)
		}
	case format.Descending:
		if !desc {
			t.Errorf("%s: boundary order DESCENDING, pages are not", where)
		}
	case format.Unordered:
		if asc || desc {
			t.Errorf("%s: boundary order UNORDERED, pages are ordered (asc %v desc %v)", where, asc, desc)
		}
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func xxhashSum(b []byte) uint64 { return bloom.HashBytes(b) }

func verifyEncryptedIndexes(t testing.TB, where string, c *file.Chunk, o oracle, leaf *schema.Node, all *file.LeafData) {
	t.Helper()
	oi, err := c.OffsetIndex()
	if err != nil {
		t.Fatal(where, err)
	}
	if oi != nil {
		ci, err := c.ColumnIndex()
		if err != nil {
			t.Fatal(where, err)
		}
		if ci != nil && len(ci.NullPages) != len(oi.PageLocations) {
			t.Fatalf("%s: column index of %d pages, offset index of %d", where, len(ci.NullPages), len(oi.PageLocations))
		}
		verifyPages(t, where, c, o, leaf, oi, ci)
	}
	bf, err := c.BloomFilter()
	if err != nil {
		t.Fatal(where, err)
	}
	if bf != nil {
		for j := 0; j < all.Values.Len; j++ {
			if !bf.Check(bloom.HashBytes(valueBytes(&all.Values, j))) {
				t.Fatalf("%s: value %d not in the bloom filter", where, j)
			}
		}
	}
}

package writer

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/simd"
)

// leafData is one leaf column of a batch after shredding: a level per
// entry and the non-null values packed densely, plus a cursor that the
// column writer advances as it takes rows.
type leafData struct {
	def, rep []int16 // nil when the column's maximum level is 0
	vals     *vector.Vector
	own      vector.Vector // holds vals when they had to be gathered
	entries  int
	rows     int

	entryPos, valPos, rowPos int
}

// take advances the cursor by n rows and returns the entry and value
// ranges they span.
func (d *leafData) take(n int, maxDef int16) (e0, e1, v0, v1 int) {
	e0, v0 = d.entryPos, d.valPos
	if d.rep == nil {
		e1 = e0 + n
	} else {
		rows := 0
		i := e0
		for ; i < d.entries; i++ {
			if d.rep[i] == 0 {
				if rows == n {
					break
				}
				rows++
			}
		}
		e1 = i
	}
	if d.def == nil {
		v1 = v0 + (e1 - e0)
	} else {
		c := 0
		for _, l := range d.def[e0:e1] {
			if l == maxDef {
				c++
			}
		}
		v1 = v0 + c
	}
	d.entryPos, d.valPos, d.rowPos = e1, v1, d.rowPos+n
	return
}

// leafPath is the chain of logical fields from a top-level field down to
// one leaf, with the child index taken at each step.
type leafPath struct {
	top    int
	fields []*schema.Field
	child  []int // child[k] is the index of fields[k+1] among fields[k].Children
	node   *schema.Node
}

func buildLeafPaths(fields []*schema.Field, nleaves int) ([]leafPath, error) {
	paths := make([]leafPath, nleaves)
	found := 0
	var walk func(top int, chain []*schema.Field, child []int) error
	walk = func(top int, chain []*schema.Field, child []int) error {
		f := chain[len(chain)-1]
		if f.Kind == schema.Primitive {
			if f.Leaf < 0 || f.Leaf >= nleaves {
				return fmt.Errorf("column %q: leaf index %d out of range", f.Node.PathString(), f.Leaf)
			}
			paths[f.Leaf] = leafPath{top: top, fields: append([]*schema.Field(nil), chain...),
				child: append([]int(nil), child...), node: f.Node}
			found++
			return nil
		}
		for i, c := range f.Children {
			if err := walk(top, append(chain, c), append(child, i)); err != nil {
				return err
			}
		}
		return nil
	}
	for i, f := range fields {
		if err := walk(i, []*schema.Field{f}, nil); err != nil {
			return nil, err
		}
	}
	if found != nleaves {
		return nil, fmt.Errorf("the logical fields cover %d of %d columns", found, nleaves)
	}
	return paths, nil
}

// shredder turns the vectors of a batch into per-leaf levels and values.
type shredder struct {
	d, r     []int16
	slot     []int32 // index into the current vector, -1 once the entry stopped (null or empty)
	d2, r2   []int16
	slot2    []int32
	validBuf []int32
}

func kindOf(t format.Type) vector.Kind {
	switch t {
	case format.Boolean:
		return vector.Bool
	case format.Int32:
		return vector.Int32
	case format.Int64:
		return vector.Int64
	case format.Int96:
		return vector.Int96
	case format.Float:
		return vector.Float32
	case format.Double:
		return vector.Float64
	case format.ByteArray:
		return vector.ByteArray
	case format.FixedLenByteArray:
		return vector.FixedLenByteArray
	}
	return vector.Invalid
}

// checkVector validates the parts of v that shredding relies on, so that
// bad input gives an error rather than a panic.
func checkVector(f *schema.Field, v *vector.Vector) error {
	if v == nil {
		return fmt.Errorf("nil vector")
	}
	if v.Len < 0 {
		return fmt.Errorf("negative length %d", v.Len)
	}
	if v.Valid != nil && len(v.Valid) < (v.Len+63)/64 {
		return fmt.Errorf("validity bitmap of %d words for %d slots", len(v.Valid), v.Len)
	}
	want := vector.Struct
	switch f.Kind {
	case schema.List:
		want = vector.List
	case schema.Map:
		want = vector.Map
	case schema.Primitive:
		want = kindOf(f.Node.Physical)
	}
	if v.Kind != want {
		return fmt.Errorf("vector of kind %v where %v was expected", v.Kind, want)
	}
	switch f.Kind {
	case schema.Struct:
		if len(v.Children) != len(f.Children) {
			return fmt.Errorf("struct vector with %d children for %d fields", len(v.Children), len(f.Children))
		}
		for i, c := range v.Children {
			if c == nil || c.Len < v.Len {
				return fmt.Errorf("field %q has fewer slots than its struct", f.Children[i].Name)
			}
		}
	case schema.List, schema.Map:
		if len(v.Children) < len(f.Children) {
			return fmt.Errorf("%v vector with %d children, %d expected", v.Kind, len(v.Children), len(f.Children))
		}
		if v.Len == 0 {
			return nil
		}
		if len(v.Offsets) < v.Len+1 {
			return fmt.Errorf("%d offsets for %d slots", len(v.Offsets), v.Len)
		}
		clen := -1
		for i := range f.Children {
			if v.Children[i] == nil {
				return fmt.Errorf("nil child vector")
			}
			if clen < 0 || v.Children[i].Len < clen {
				clen = v.Children[i].Len
			}
		}
		prev := v.Offsets[0]
		if prev < 0 {
			return fmt.Errorf("negative offset")
		}
		for i := 1; i <= v.Len; i++ {
			o := v.Offsets[i]
			if o < prev {
				return fmt.Errorf("offsets decrease at slot %d", i-1)
			}
			prev = o
		}
		if int(prev) > clen {
			return fmt.Errorf("offsets reach %d, the child vectors hold %d", prev, clen)
		}
	case schema.Primitive:
		return checkValues(v, f.Node)
	}
	return nil
}

func checkValues(v *vector.Vector, n *schema.Node) error {
	var have int
	switch v.Kind {
	case vector.Bool:
		have = len(v.Bools)
	case vector.Int32:
		have = len(v.Int32s)
	case vector.Int64:
		have = len(v.Int64s)
	case vector.Int96:
		have = len(v.Int96s)
	case vector.Float32:
		have = len(v.Float32s)
	case vector.Float64:
		have = len(v.Float64s)
	case vector.FixedLenByteArray:
		if v.Width != n.TypeLength {
			return fmt.Errorf("values of width %d in a FIXED_LEN_BYTE_ARRAY(%d) column", v.Width, n.TypeLength)
		}
		have = len(v.Data) / v.Width
	case vector.ByteArray:
		if v.Len == 0 {
			return nil
		}
		if len(v.Offsets) < v.Len+1 {
			return fmt.Errorf("%d offsets for %d values", len(v.Offsets), v.Len)
		}
		prev := v.Offsets[0]
		if prev < 0 {
			return fmt.Errorf("negative offset")
		}
		for i := 1; i <= v.Len; i++ {
			if v.Offsets[i] < prev {
				return fmt.Errorf("offsets decrease at value %d", i-1)
			}
			prev = v.Offsets[i]
		}
		if int(prev) > len(v.Data) {
			return fmt.Errorf("offsets reach %d, the data holds %d bytes", prev, len(v.Data))
		}
		return nil
	}
	if have < v.Len {
		return fmt.Errorf("%d values for %d slots", have, v.Len)
	}
	if lt := n.Logical; v.Kind == vector.Int32 && lt != nil && lt.Integer != nil && lt.Integer.BitWidth < 32 && v.Len > 0 {
		// Writers must not store values the annotation does not allow.
		lo, hi, _ := simd.MinMaxInt32(v.Int32s[:v.Len])
		bits := lt.Integer.BitWidth
		minV, maxV := int32(0), int32(1)<<bits-1
		if lt.Integer.IsSigned {
			minV, maxV = -1<<(bits-1), 1<<(bits-1)-1
		}
		if lo < minV || hi > maxV {
			return fmt.Errorf("values out of the range of %s: %d..%d", schema.LogicalString(lt), lo, hi)
		}
	}
	return nil
}

// shred fills out with the levels and values of one leaf for the batch.
func (s *shredder) shred(p *leafPath, top *vector.Vector, rows int, out *leafData) error {
	out.entryPos, out.valPos, out.rowPos = 0, 0, 0
	out.rows = rows
	n := p.node
	if len(p.fields) == 1 {
		return s.flat(p.fields[0], top, rows, out)
	}
	// Start with one live entry per row.
	s.d = resize(s.d, rows)
	s.r = resize(s.r, rows)
	s.slot = resize(s.slot, rows)
	for i := range rows {
		s.d[i], s.r[i], s.slot[i] = 0, 0, int32(i)
	}
	v := top
	for k, f := range p.fields {
		if err := checkVector(f, v); err != nil {
			return fmt.Errorf("column %s: %s: %w", n.PathString(), f.Node.PathString(), err)
		}
		if v.Valid != nil {
			for i, sl := range s.slot {
				if sl < 0 {
					continue
				}
				if !v.Valid.Get(int(sl)) {
					if !f.Nullable {
						return fmt.Errorf("column %s: %s: null in a required field", n.PathString(), f.Node.PathString())
					}
					s.slot[i] = -1
					continue
				}
				s.d[i] = f.DefLevel
			}
		} else {
			for i, sl := range s.slot {
				if sl >= 0 {
					s.d[i] = f.DefLevel
				}
			}
		}
		switch f.Kind {
		case schema.Primitive:
			return s.finish(p, v, out)
		case schema.List, schema.Map:
			s.expand(f, v)
		}
		v = v.Children[p.child[k]]
	}
	return fmt.Errorf("column %s: the field chain does not end at a column", n.PathString())
}

// expand replaces each live entry of a list or map by its elements (or by
// one stopped entry for an empty list).
func (s *shredder) expand(f *schema.Field, v *vector.Vector) {
	d2, r2, sl2 := s.d2[:0], s.r2[:0], s.slot2[:0]
	for i, sl := range s.slot {
		if sl < 0 {
			d2, r2, sl2 = append(d2, s.d[i]), append(r2, s.r[i]), append(sl2, -1)
			continue
		}
		a, b := v.Offsets[sl], v.Offsets[sl+1]
		if a == b {
			d2, r2, sl2 = append(d2, f.DefLevel), append(r2, s.r[i]), append(sl2, -1)
			continue
		}
		for j := a; j < b; j++ {
			r := f.RepLevel
			if j == a {
				r = s.r[i]
			}
			d2, r2, sl2 = append(d2, f.EntryDefLevel), append(r2, r), append(sl2, j)
		}
	}
	s.d, s.d2 = d2, s.d
	s.r, s.r2 = r2, s.r
	s.slot, s.slot2 = sl2, s.slot
}

// finish copies the levels of the live and stopped entries to out and
// gathers the values of the live ones.
func (s *shredder) finish(p *leafPath, v *vector.Vector, out *leafData) error {
	n := p.node
	out.entries = len(s.slot)
	if n.MaxDef > 0 {
		out.def = append(out.def[:0], s.d...)
	} else {
		out.def = nil
	}
	if n.MaxRep > 0 {
		out.rep = append(out.rep[:0], s.r...)
	} else {
		out.rep = nil
	}
	idx := s.validBuf[:0]
	seq := true
	for _, sl := range s.slot {
		if sl >= 0 {
			if int(sl) != len(idx) {
				seq = false
			}
			idx = append(idx, sl)
		}
	}
	s.validBuf = idx
	if seq && len(idx) == v.Len {
		out.vals = v
		return nil
	}
	gather(&out.own, v, idx)
	out.vals = &out.own
	return nil
}

// flat shreds a top-level primitive column: no repetition, at most one
// definition level, taken straight from the validity bitmap.
func (s *shredder) flat(f *schema.Field, v *vector.Vector, rows int, out *leafData) error {
	n := f.Node
	if err := checkVector(f, v); err != nil {
		return fmt.Errorf("column %s: %w", n.PathString(), err)
	}
	out.entries = rows
	out.rep = nil
	if !f.Nullable && v.NullCount() > 0 {
		return fmt.Errorf("column %s: %d nulls in a required field", n.PathString(), v.NullCount())
	}
	if n.MaxDef == 0 {
		out.def = nil
		out.vals = v
		return nil
	}
	out.def = resize(out.def, rows)
	if v.Valid == nil {
		for i := range out.def {
			out.def[i] = 1
		}
		out.vals = v
		return nil
	}
	idx := s.validBuf[:0]
	for i := range rows {
		if v.Valid.Get(i) {
			out.def[i] = 1
			idx = append(idx, int32(i))
		} else {
			out.def[i] = 0
		}
	}
	s.validBuf = idx
	if len(idx) == rows {
		out.vals = v
		return nil
	}
	gather(&out.own, v, idx)
	out.vals = &out.own
	return nil
}

// gather copies the values at slots idx of v into dst, densely.
func gather(dst, v *vector.Vector, idx []int32) {
	dst.Kind, dst.Width, dst.Len, dst.Valid = v.Kind, v.Width, len(idx), nil
	switch v.Kind {
	case vector.Bool:
		dst.Bools = resize(dst.Bools, len(idx))
		for i, j := range idx {
			dst.Bools[i] = v.Bools[j]
		}
	case vector.Int32:
		dst.Int32s = resize(dst.Int32s, len(idx))
		for i, j := range idx {
			dst.Int32s[i] = v.Int32s[j]
		}
	case vector.Int64:
		dst.Int64s = resize(dst.Int64s, len(idx))
		for i, j := range idx {
			dst.Int64s[i] = v.Int64s[j]
		}
	case vector.Int96:
		dst.Int96s = resize(dst.Int96s, len(idx))
		for i, j := range idx {
			dst.Int96s[i] = v.Int96s[j]
		}
	case vector.Float32:
		dst.Float32s = resize(dst.Float32s, len(idx))
		for i, j := range idx {
			dst.Float32s[i] = v.Float32s[j]
		}
	case vector.Float64:
		dst.Float64s = resize(dst.Float64s, len(idx))
		for i, j := range idx {
			dst.Float64s[i] = v.Float64s[j]
		}
	case vector.FixedLenByteArray:
		w := v.Width
		dst.Data = resize(dst.Data, len(idx)*w)
		for i, j := range idx {
			copy(dst.Data[i*w:(i+1)*w], v.Data[int(j)*w:int(j+1)*w])
		}
	case vector.ByteArray:
		dst.Data = dst.Data[:0]
		dst.Offsets = append(dst.Offsets[:0], 0)
		for _, j := range idx {
			dst.Data = append(dst.Data, v.Data[v.Offsets[j]:v.Offsets[j+1]]...)
			dst.Offsets = append(dst.Offsets, int32(len(dst.Data)))
		}
	}
}

func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, n+n/4)
}

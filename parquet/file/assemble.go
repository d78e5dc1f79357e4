package file

import (
	"fmt"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
)

// Assemble builds into out the vector of field f for the rows held in
// leaves (indexed by leaf column), turning definition and repetition
// levels into validity bitmaps, list offsets and child vectors. out is
// reset first and reused; for flat required columns its value buffer is
// swapped with the leaf's, so neither copies.
func Assemble(f *schema.Field, leaves []*LeafData, out *vector.Vector) error {
	a := assembler{leaves: leaves}
	return a.field(f, 0, 0, out)
}

// assembleKeeping is Assemble leaving the values of the leaves in keep
// in place (copied, not moved into out), for leaves that another field
// of the same batch assembles too (a struct and one of its fields).
func assembleKeeping(f *schema.Field, leaves []*LeafData, out *vector.Vector, keep map[int]bool) error {
	a := assembler{leaves: leaves, keep: keep}
	return a.field(f, 0, 0, out)
}

type assembler struct {
	leaves []*LeafData
	keep   map[int]bool
}

// levels returns the definition and repetition levels of the first leaf
// under f (nil slices mean all zero) and the number of entries.
func (a *assembler) levels(f *schema.Field) (def, rep []int16, n int, err error) {
	l := f
	for l.Kind != schema.Primitive {
		if len(l.Children) == 0 {
			return nil, nil, 0, fmt.Errorf("%w: group %q has no columns", ErrCorrupt, f.Name)
		}
		l = l.Children[0]
	}
	if l.Leaf < 0 || l.Leaf >= len(a.leaves) || a.leaves[l.Leaf] == nil {
		return nil, nil, 0, fmt.Errorf("column %q was not read", l.Node.PathString())
	}
	d := a.leaves[l.Leaf]
	return d.defLevels(), d.Rep, d.Entries, nil
}

func at(levels []int16, i int) int16 {
	if levels == nil {
		return 0
	}
	return levels[i]
}

// field assembles f's slots: the entries whose repetition level is at most
// r (a new value at f's nesting depth) and whose definition level reaches
// dp (the enclosing list entry exists).
func (a *assembler) field(f *schema.Field, r, dp int16, out *vector.Vector) error {
	switch f.Kind {
	case schema.Primitive:
		return a.primitive(f, r, dp, out)
	case schema.Struct:
		return a.structField(f, r, dp, out)
	default:
		return a.listField(f, r, dp, out)
	}
}

func (a *assembler) primitive(f *schema.Field, r, dp int16, out *vector.Vector) error {
	d := a.leaves[f.Leaf]
	maxDef := f.Node.MaxDef
	out.Kind, out.Width = d.Values.Kind, d.Values.Width
	keep := a.keep[f.Leaf]
	def := d.Def
	if keep {
		// scatter copies instead of swapping buffers: it needs the levels
		// even when there is no null (see LeafData.Def).
		def = d.defLevels()
	}
	if r == 0 && dp == 0 && len(d.Rep) == 0 {
		return scatter(out, &d.Values, def, nil, maxDef, 0, 0, d.Entries, keep)
	}
	return scatter(out, &d.Values, d.defLevels(), d.Rep, maxDef, r, dp, d.Entries, keep)
}

// scatter places dense values into slots, leaving nulls where the
// definition level stops short of maxDef.
func scatter(out, vals *vector.Vector, def, rep []int16, maxDef, r, dp int16, n int, keep bool) error {
	out.Reset()
	out.Kind, out.Width = vals.Kind, vals.Width
	slots := n
	if rep != nil || dp > 0 {
		slots = 0
		for i := 0; i < n; i++ {
			if at(rep, i) <= r && at(def, i) >= dp {
				slots++
			}
		}
	}
	if slots == vals.Len && !keep {
		// No null slots: the dense values are the vector. Swap buffers
		// instead of copying them.
		*out, *vals = *vals, *out
		out.Valid = nil
		vals.Reset()
		vals.Kind, vals.Width = out.Kind, out.Width
		return nil
	}
	out.Len = slots
	out.Valid = out.Valid.Grow(slots)
	// sel lists, for each slot, the index of its value or -1 for a null.
	sel := make([]int32, 0, slots)
	k := int32(0)
	for i := 0; i < n; i++ {
		if rep != nil && rep[i] > r || at(def, i) < dp {
			continue
		}
		if at(def, i) < maxDef {
			sel = append(sel, -1)
			continue
		}
		out.Valid.Set(len(sel))
		sel = append(sel, k)
		k++
	}
	if int(k) != vals.Len {
		return fmt.Errorf("%w: %d values for %d non-null levels", ErrCorrupt, vals.Len, k)
	}
	if vals.Dict != nil {
		out.Dict, out.Codes = vals.Dict, spread(out.Codes, vals.Codes, sel)
		return nil
	}
	switch vals.Kind {
	case vector.Bool:
		out.Bools = spread(out.Bools, vals.Bools, sel)
	case vector.Int32:
		out.Int32s = spread(out.Int32s, vals.Int32s, sel)
	case vector.Int64:
		out.Int64s = spread(out.Int64s, vals.Int64s, sel)
	case vector.Int96:
		out.Int96s = spread(out.Int96s, vals.Int96s, sel)
	case vector.Float32:
		out.Float32s = spread(out.Float32s, vals.Float32s, sel)
	case vector.Float64:
		out.Float64s = spread(out.Float64s, vals.Float64s, sel)
	case vector.FixedLenByteArray:
		w := vals.Width
		out.Data = grow(out.Data, slots*w)
		for s, j := range sel {
			if j < 0 {
				clear(out.Data[s*w : (s+1)*w])
			} else {
				copy(out.Data[s*w:(s+1)*w], vals.Data[int(j)*w:(int(j)+1)*w])
			}
		}
	case vector.ByteArray:
		out.Offsets = grow(out.Offsets, slots+1)
		out.Offsets[0] = 0
		base := int32(0)
		out.Data = out.Data[:0]
		if vals.Len > 0 {
			base = vals.Offsets[0]
			out.Data = append(out.Data, vals.Data[base:vals.Offsets[vals.Len]]...)
		}
		end := int32(0)
		for s, j := range sel {
			if j >= 0 {
				end = vals.Offsets[j+1] - base
			}
			out.Offsets[s+1] = end
		}
	}
	return nil
}

// spread copies vals into the slots sel names, zero where sel is -1.
func spread[T any](dst, vals []T, sel []int32) []T {
	dst = grow(dst, len(sel))
	var zero T
	for s, j := range sel {
		if j < 0 {
			dst[s] = zero
		} else {
			dst[s] = vals[j]
		}
	}
	return dst
}

func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, n+n/4)
}

func (a *assembler) structField(f *schema.Field, r, dp int16, out *vector.Vector) error {
	def, rep, n, err := a.levels(f)
	if err != nil {
		return err
	}
	out.Kind = vector.Struct
	slots, valid := a.slotValidity(def, rep, n, r, dp, f.DefLevel, out.Valid)
	out.Len, out.Valid = slots, valid
	if err := a.children(f, r, dp, out); err != nil {
		return err
	}
	for i, c := range out.Children {
		if c.Len != slots {
			return fmt.Errorf("%w: field %q has %d values, its struct %q has %d", ErrCorrupt, f.Children[i].Name, c.Len, f.Name, slots)
		}
	}
	return nil
}

func (a *assembler) children(f *schema.Field, r, dp int16, out *vector.Vector) error {
	for len(out.Children) < len(f.Children) {
		out.Children = append(out.Children, &vector.Vector{})
	}
	out.Children = out.Children[:len(f.Children)]
	for i, c := range f.Children {
		if err := a.field(c, r, dp, out.Children[i]); err != nil {
			return err
		}
	}
	return nil
}

// slotValidity counts f's slots and builds their validity bitmap (nil when
// none is null).
func (a *assembler) slotValidity(def, rep []int16, n int, r, dp, defLevel int16, buf vector.Bitmap) (int, vector.Bitmap) {
	slots := 0
	for i := 0; i < n; i++ {
		if at(rep, i) <= r && at(def, i) >= dp {
			slots++
		}
	}
	valid := buf[:0].Grow(slots) // all clear: bits are set per valid slot
	s, hasNull := 0, false
	for i := 0; i < n; i++ {
		if at(rep, i) > r || at(def, i) < dp {
			continue
		}
		if at(def, i) >= defLevel {
			valid.Set(s)
		} else {
			hasNull = true
		}
		s++
	}
	if !hasNull {
		return slots, nil
	}
	return slots, valid
}

func (a *assembler) listField(f *schema.Field, r, dp int16, out *vector.Vector) error {
	def, rep, n, err := a.levels(f)
	if err != nil {
		return err
	}
	if f.Kind == schema.Map {
		out.Kind = vector.Map
	} else {
		out.Kind = vector.List
	}
	slots, valid := a.slotValidity(def, rep, n, r, dp, f.DefLevel, out.Valid)
	out.Len, out.Valid = slots, valid
	offsets := append(out.Offsets[:0], 0)
	entries := int32(0)
	started := false
	for i := 0; i < n; i++ {
		d, l := at(def, i), at(rep, i)
		if l <= r && d >= dp {
			if started {
				offsets = append(offsets, entries)
			}
			started = true
			if d >= f.EntryDefLevel {
				entries++
			}
		} else if l <= f.RepLevel && d >= f.EntryDefLevel && started {
			entries++
		}
	}
	if started {
		offsets = append(offsets, entries)
	}
	out.Offsets = offsets
	if err := a.children(f, f.RepLevel, f.EntryDefLevel, out); err != nil {
		return err
	}
	for i, c := range out.Children {
		if c.Len != int(entries) {
			return fmt.Errorf("%w: %q has %d entries, its child %q has %d", ErrCorrupt, f.Name, entries, f.Children[i].Name, c.Len)
		}
	}
	return nil
}

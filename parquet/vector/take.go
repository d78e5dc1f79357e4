package vector

import "slices"

// Take sets dst to the rows of src at the given indices (ascending or
// not), copying values, validity and, for nested vectors, the child ranges
// those rows own. dst is reset first and its buffers reused.
func Take(dst, src *Vector, idx []int32) {
	dst.Reset()
	dst.Kind, dst.Width = src.Kind, src.Width
	n := len(idx)
	dst.Len = n
	if src.Valid != nil {
		dst.Valid = dst.Valid.Grow(n)
		any := false
		for i, j := range idx {
			if src.Valid.Get(int(j)) {
				dst.Valid.Set(i)
			} else {
				any = true
			}
		}
		if !any {
			dst.Valid = nil
		}
	} else {
		dst.Valid = nil
	}
	if src.Dict != nil {
		dst.Dict = src.Dict
		dst.Codes = takeFixed(dst.Codes, src.Codes, idx)
		return
	}
	switch src.Kind {
	case Bool:
		dst.Bools = takeFixed(dst.Bools, src.Bools, idx)
	case Int32:
		dst.Int32s = takeFixed(dst.Int32s, src.Int32s, idx)
	case Int64:
		dst.Int64s = takeFixed(dst.Int64s, src.Int64s, idx)
	case Int96:
		dst.Int96s = takeFixed(dst.Int96s, src.Int96s, idx)
	case Float32:
		dst.Float32s = takeFixed(dst.Float32s, src.Float32s, idx)
	case Float64:
		dst.Float64s = takeFixed(dst.Float64s, src.Float64s, idx)
	case FixedLenByteArray:
		w := src.Width
		for _, j := range idx {
			dst.Data = append(dst.Data, src.Data[int(j)*w:(int(j)+1)*w]...)
		}
	case ByteArray:
		dst.Offsets = append(dst.Offsets[:0], 0)
		for _, j := range idx {
			dst.Data = append(dst.Data, src.Data[src.Offsets[j]:src.Offsets[j+1]]...)
			dst.Offsets = append(dst.Offsets, int32(len(dst.Data)))
		}
	case Struct:
		dst.ensureChildren(len(src.Children))
		for c, child := range src.Children {
			Take(dst.Children[c], child, idx)
		}
	case List, Map:
		dst.Offsets = append(dst.Offsets[:0], 0)
		var childIdx []int32
		for _, j := range idx {
			s, e := src.Offsets[j], src.Offsets[j+1]
			for k := s; k < e; k++ {
				childIdx = append(childIdx, k)
			}
			dst.Offsets = append(dst.Offsets, int32(len(childIdx)))
		}
		dst.ensureChildren(len(src.Children))
		for c, child := range src.Children {
			Take(dst.Children[c], child, childIdx)
		}
	}
}

func takeFixed[T any](dst, src []T, idx []int32) []T {
	if cap(dst) < len(idx) {
		dst = make([]T, len(idx))
	}
	dst = dst[:len(idx)]
	for i, j := range idx {
		dst[i] = src[j]
	}
	return dst
}

func (v *Vector) ensureChildren(n int) {
	for len(v.Children) < n {
		v.Children = append(v.Children, &Vector{})
	}
	v.Children = v.Children[:n]
}

// Indices appends to dst the positions of the set bits among the first n
// bits of b.
func (b Bitmap) Indices(dst []int32, n int) []int32 {
	// Sized once, then written by position: no capacity check per index.
	at := len(dst)
	dst = slices.Grow(dst, b.Count(n))
	dst = dst[:cap(dst)]
	for w := 0; w < (n+63)/64; w++ {
		word := b[w]
		if w == n/64 && n%64 != 0 {
			word &= 1<<(uint(n)%64) - 1
		}
		base := int32(w * 64)
		if word == ^uint64(0) { // a word where every row passes
			for t := range int32(64) {
				dst[at+int(t)] = base + t
			}
			at += 64
			continue
		}
		for word != 0 {
			dst[at] = base + int32(trailingZeros(word))
			at++
			word &= word - 1
		}
	}
	return dst[:at]
}

// AppendVector appends all rows of src to dst (same kind).
func AppendVector(dst, src *Vector) {
	if src.Len == 0 {
		return
	}
	if dst.Len == 0 && dst.Kind == Invalid {
		dst.Kind, dst.Width = src.Kind, src.Width
	}
	if src.Dict != nil {
		if dst.Len == 0 && dst.Dict == nil && len(dst.Data) == 0 {
			// Both coded from the same dictionary: codes stay codes.
			dst.Dict = src.Dict
		}
		if dst.Dict == src.Dict {
			appendValidity(dst, src)
			dst.Codes = append(dst.Codes[:dst.Len], src.Codes[:src.Len]...)
			dst.Len += src.Len
			return
		}
		plain := *src // Decode gives plain new buffers; src is untouched
		plain.Decode()
		src = &plain
	}
	dst.Decode()
	appendValidity(dst, src)
	dst.Len += src.Len
	switch src.Kind {
	case Bool:
		dst.Bools = append(dst.Bools, src.Bools[:src.Len]...)
	case Int32:
		dst.Int32s = append(dst.Int32s, src.Int32s[:src.Len]...)
	case Int64:
		dst.Int64s = append(dst.Int64s, src.Int64s[:src.Len]...)
	case Int96:
		dst.Int96s = append(dst.Int96s, src.Int96s[:src.Len]...)
	case Float32:
		dst.Float32s = append(dst.Float32s, src.Float32s[:src.Len]...)
	case Float64:
		dst.Float64s = append(dst.Float64s, src.Float64s[:src.Len]...)
	case FixedLenByteArray:
		dst.Data = append(dst.Data, src.Data[:src.Len*src.Width]...)
	case ByteArray:
		if len(dst.Offsets) == 0 {
			dst.Offsets = append(dst.Offsets, 0)
		}
		shift := int32(len(dst.Data)) - src.Offsets[0]
		for _, o := range src.Offsets[1 : src.Len+1] {
			dst.Offsets = append(dst.Offsets, o+shift)
		}
		dst.Data = append(dst.Data, src.Data[src.Offsets[0]:src.Offsets[src.Len]]...)
	case Struct:
		dst.ensureChildren(len(src.Children))
		for c := range src.Children {
			AppendVector(dst.Children[c], src.Children[c])
		}
	case List, Map:
		if len(dst.Offsets) == 0 {
			dst.Offsets = append(dst.Offsets, 0)
		}
		dst.ensureChildren(len(src.Children))
		childBase := dst.Offsets[len(dst.Offsets)-1]
		s0 := src.Offsets[0]
		for _, o := range src.Offsets[1 : src.Len+1] {
			dst.Offsets = append(dst.Offsets, o-s0+childBase)
		}
		for c, child := range src.Children {
			sub := Slice(child, int(s0), int(src.Offsets[src.Len]))
			AppendVector(dst.Children[c], sub)
		}
	}
}

// appendValidity appends src's validity bits after dst's first dst.Len.
func appendValidity(dst, src *Vector) {
	base := dst.Len
	if src.Valid == nil && dst.Valid == nil {
		return
	}
	if dst.Valid == nil {
		dst.Valid = NewBitmap(base, true)
	}
	// Every bit is written: the words NewBitmap filled hold set bits past
	// base, which would make src's nulls valid.
	dst.Valid = dst.Valid.Grow(base + src.Len)
	for i := 0; i < src.Len; i++ {
		if src.Valid == nil || src.Valid.Get(i) {
			dst.Valid.Set(base + i)
		} else {
			dst.Valid.Clear(base + i)
		}
	}
}

// Slice returns rows [from, to) of v as a new vector header sharing v's
// buffers where the layout allows (copying validity bits).
func Slice(v *Vector, from, to int) *Vector {
	if from == 0 && to == v.Len {
		return v
	}
	idx := make([]int32, to-from)
	for i := range idx {
		idx[i] = int32(from + i)
	}
	out := &Vector{}
	Take(out, v, idx)
	return out
}

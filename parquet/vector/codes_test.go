package vector

import (
	"fmt"
	"testing"
)

func dictOf(words ...string) *Vector {
	d := &Vector{Kind: ByteArray, Offsets: []int32{0}}
	for _, w := range words {
		d.Data = append(d.Data, w...)
		d.Offsets = append(d.Offsets, int32(len(d.Data)))
		d.Len++
	}
	return d
}

// coded returns a coded vector of dict; a negative code is a null slot.
func coded(dict *Vector, codes ...int32) *Vector {
	v := &Vector{Kind: ByteArray, Dict: dict, Len: len(codes)}
	nulls := false
	for _, c := range codes {
		nulls = nulls || c < 0
	}
	if nulls {
		v.Valid = NewBitmap(len(codes), false)
	}
	for i, c := range codes {
		if c < 0 {
			c = 0
		} else if nulls {
			v.Valid.Set(i)
		}
		v.Codes = append(v.Codes, c)
	}
	return v
}

// show renders every slot, "-" for null.
func show(v *Vector) string {
	s := ""
	for i := 0; i < v.Len; i++ {
		if v.IsNull(i) {
			s += "-,"
		} else {
			s += string(v.Bytes(i)) + ","
		}
	}
	return s
}

func TestCodedVectors(t *testing.T) {
	d1, d2 := dictOf("a", "bb", "ccc"), dictOf("x", "yy")
	v := coded(d1, 2, -1, 0, 1, 2)
	if got := show(v); got != "ccc,-,a,bb,ccc," {
		t.Fatalf("Bytes: %s", got)
	}
	var tk Vector
	Take(&tk, v, []int32{4, 1, 3})
	if tk.Dict != d1 || show(&tk) != "ccc,-,bb," {
		t.Fatalf("Take: dict kept %v, %s", tk.Dict == d1, show(&tk))
	}
	cases := []struct {
		name     string
		dst, src func() *Vector
		want     string
		stay     bool // the result is still coded
	}{
		{"same dictionary", func() *Vector { return coded(d1, 0, 1) }, func() *Vector { return coded(d1, 2, -1) }, "a,bb,ccc,-,", true},
		{"into empty", func() *Vector { return &Vector{} }, func() *Vector { return coded(d1, 1, -1) }, "bb,-,", true},
		{"other dictionary", func() *Vector { return coded(d1, 0, -1) }, func() *Vector { return coded(d2, 1, 0) }, "a,-,yy,x,", false},
		{"coded into plain", func() *Vector { return dictOf("p", "q") }, func() *Vector { return coded(d2, 1) }, "p,q,yy,", false},
		{"plain into coded", func() *Vector { return coded(d1, 2) }, func() *Vector { return dictOf("p", "") }, "ccc,p,,", false},
	}
	for _, c := range cases {
		dst, src := c.dst(), c.src()
		before := show(src)
		AppendVector(dst, src)
		if got := show(dst); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
		if (dst.Dict != nil) != c.stay {
			t.Errorf("%s: coded %v, want %v", c.name, dst.Dict != nil, c.stay)
		}
		if show(src) != before {
			t.Errorf("%s: the source changed to %s", c.name, show(src))
		}
	}
	v.Decode()
	if v.Dict != nil || v.Codes != nil || show(v) != "ccc,-,a,bb,ccc," || fmt.Sprint(v.Offsets) != "[0 3 3 4 6 9]" {
		t.Fatalf("Decode: %s %v", show(v), v.Offsets)
	}
	v.Reset()
	if v.Dict != nil || len(v.Codes) != 0 {
		t.Fatal("Reset kept the dictionary")
	}
}

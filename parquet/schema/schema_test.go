package schema

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// el builds a schema element: a leaf when typ is set, else a group.
func el(name string, rep format.FieldRepetitionType, children int, typ *format.Type, ct *format.ConvertedType) format.SchemaElement {
	e := format.SchemaElement{Name: name, RepetitionType: format.Some(rep)}
	if typ != nil {
		e.Type = format.Some(*typ)
	} else {
		e.NumChildren = format.Some(int32(children))
	}
	if ct != nil {
		e.ConvertedType = format.Some(*ct)
	}
	return e
}

func ptr[T any](v T) *T { return &v }

func TestLevelsAndPaths(t *testing.T) {
	i32 := ptr(format.Int32)
	list := ptr(format.List)
	elems := []format.SchemaElement{
		{Name: "schema", NumChildren: format.Some(int32(2))},
		el("a", format.Required, 0, i32, nil),
		el("l", format.Optional, 1, nil, list),
		el("list", format.Repeated, 1, nil, nil),
		el("element", format.Optional, 0, i32, nil),
	}
	s, err := FromElements(elems)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Leaves) != 2 {
		t.Fatalf("%d leaves", len(s.Leaves))
	}
	e := s.Leaves[1]
	if e.PathString() != "l.list.element" || e.MaxDef != 3 || e.MaxRep != 1 || e.Column != 1 {
		t.Fatalf("leaf %s def %d rep %d col %d", e.PathString(), e.MaxDef, e.MaxRep, e.Column)
	}
	l := s.Lookup("l")
	if l.Kind != List || l.Element() != e || l.RepeatedLevel().Name != "list" {
		t.Fatalf("l is %v with element %v", l.Kind, l.Element())
	}
	fields, err := s.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	lf := fields[1]
	if lf.Kind != List || !lf.Nullable || lf.DefLevel != 1 || lf.EntryDefLevel != 2 || lf.RepLevel != 1 ||
		lf.Children[0].Kind != Primitive || !lf.Children[0].Nullable || lf.Children[0].DefLevel != 3 {
		t.Fatalf("logical list %+v, element %+v", lf, lf.Children[0])
	}
	text := s.String()
	for _, want := range []string{"required int32 a;", "optional group l (LIST) {", "repeated group list {", "optional int32 element;"} {
		if !strings.Contains(text, want) {
			t.Fatalf("printout lacks %q:\n%s", want, text)
		}
	}
}

// TestLegacyListRules checks the five backward-compatibility rules of
// LogicalTypes.md for picking a LIST's element.
func TestLegacyListRules(t *testing.T) {
	i32, bin := ptr(format.Int32), ptr(format.ByteArray)
	list := ptr(format.List)
	cases := []struct {
		name      string
		elems     []format.SchemaElement
		elemName  string
		nullElems bool
	}{
		{"rule1 repeated primitive", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("element", format.Repeated, 0, i32, nil)}, "element", false},
		{"rule2 repeated group of two", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("element", format.Repeated, 2, nil, nil),
			el("str", format.Required, 0, bin, nil), el("num", format.Required, 0, i32, nil)}, "element", false},
		{"rule3 repeated group with repeated child", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("array", format.Repeated, 1, nil, list),
			el("array", format.Repeated, 0, i32, nil)}, "array", false},
		{"rule4 named array", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("array", format.Repeated, 1, nil, nil),
			el("str", format.Required, 0, bin, nil)}, "array", false},
		{"rule4 named _tuple", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("my_list_tuple", format.Repeated, 1, nil, nil),
			el("str", format.Required, 0, bin, nil)}, "my_list_tuple", false},
		{"rule5 three levels", []format.SchemaElement{
			el("my_list", format.Optional, 1, nil, list), el("element", format.Repeated, 1, nil, nil),
			el("str", format.Optional, 0, bin, nil)}, "str", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			elems := append([]format.SchemaElement{{Name: "schema", NumChildren: format.Some(int32(1))}}, c.elems...)
			s, err := FromElements(elems)
			if err != nil {
				t.Fatal(err)
			}
			l := s.Lookup("my_list")
			if l.Kind != List || l.Element().Name != c.elemName {
				t.Fatalf("kind %v element %v", l.Kind, l.Element())
			}
			f, err := LogicalField(l)
			if err != nil {
				t.Fatal(err)
			}
			if f.Children[0].Nullable != c.nullElems {
				t.Fatalf("element nullable = %v", f.Children[0].Nullable)
			}
		})
	}
}

func TestMapsAndBareRepeated(t *testing.T) {
	i32, bin := ptr(format.Int32), ptr(format.ByteArray)
	mkv := ptr(format.MapKeyValue)
	elems := []format.SchemaElement{
		{Name: "schema", NumChildren: format.Some(int32(2))},
		el("m", format.Optional, 1, nil, mkv),
		el("map", format.Repeated, 2, nil, nil),
		el("key", format.Required, 0, bin, nil),
		el("value", format.Optional, 0, i32, nil),
		el("nums", format.Repeated, 0, i32, nil),
	}
	s, err := FromElements(elems)
	if err != nil {
		t.Fatal(err)
	}
	if m := s.Lookup("m"); m.Kind != Map || m.Key().Name != "key" || m.Value().Name != "value" {
		t.Fatalf("MAP_KEY_VALUE outside MAP not read as a map: %v", m.Kind)
	}
	fields, err := s.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	nums := fields[1]
	if nums.Kind != List || nums.Nullable || nums.Children[0].Nullable || nums.Children[0].Kind != Primitive {
		t.Fatalf("bare repeated field: %+v", nums)
	}
}

func TestInvalidSchemas(t *testing.T) {
	i32 := ptr(format.Int32)
	bad := [][]format.SchemaElement{
		nil,
		{{Name: "schema", NumChildren: format.Some(int32(3))}, el("a", format.Required, 0, i32, nil)},
		{{Name: "schema", NumChildren: format.Some(int32(1))}, {Name: "a", RepetitionType: format.Some(format.Required)}},
		{{Name: "schema", NumChildren: format.Some(int32(1))}, el("f", format.Required, 0, ptr(format.FixedLenByteArray), nil)},
		{{Name: "schema", NumChildren: format.Some(int32(-1))}},
	}
	for i, elems := range bad {
		if _, err := FromElements(elems); err == nil {
			t.Errorf("case %d: invalid schema accepted", i)
		}
	}
}

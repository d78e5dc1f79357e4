package delta

import (
	"fmt"
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/value"
)

func TestPartitionValue(t *testing.T) {
	ts := time.Date(2024, 5, 6, 7, 8, 9, 123456000, time.FixedZone("x", 3600))
	for _, c := range []struct {
		typ  string
		v    any
		want string // "<nil>" for null
	}{
		{"string", "a b", "a b"},
		{"string", "", "<nil>"},
		{"string", nil, "<nil>"},
		{"binary", []byte{1, 2}, "\x01\x02"},
		{"long", int64(-7), "-7"},
		{"integer", int32(12), "12"},
		{"short", int16(3), "3"},
		{"byte", int8(-1), "-1"},
		{"boolean", true, "true"},
		{"double", 1.5, "1.5"},
		{"double", math.Inf(-1), "-Infinity"},
		{"float", float32(0.1), "0.1"},
		{"decimal(6,2)", value.Decimal{Unscaled: big.NewInt(-225), Scale: 2}, "-2.25"},
		{"date", time.Date(2023, 12, 31, 0, 0, 0, 0, time.UTC), "2023-12-31"},
		{"timestamp", ts, "2024-05-06T06:08:09.123456Z"},
		{"timestamp_ntz", time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC), "2024-05-06 07:08:09.000000"},
	} {
		typ, err := parsePrimitive(c.typ)
		if err != nil {
			t.Fatal(err)
		}
		got, err := PartitionValue(typ, c.v)
		if err != nil {
			t.Errorf("%s %v: %v", c.typ, c.v, err)
			continue
		}
		s := "<nil>"
		if got != nil {
			s = *got
		}
		if s != c.want {
			t.Errorf("%s %v: got %q, want %q", c.typ, c.v, s, c.want)
		}
	}
	if _, err := PartitionValue(&Type{Name: "long"}, "x"); err == nil {
		t.Error("a string for a long: no error")
	}
	if _, err := PartitionValue(&Type{Name: "binary"}, []byte{0xff, 0}); err == nil {
		t.Error("binary that is not UTF-8: no error")
	}
}

func TestPartitionDir(t *testing.T) {
	s := func(x string) *string { return &x }
	got := PartitionDir([]string{"a", "b=c", "d"}, []*string{s("x/y:z"), nil, s("é ok%")})
	if want := "a=x%2Fy%3Az/b%3Dc=__HIVE_DEFAULT_PARTITION__/d=é ok%25"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := PartitionDir(nil, nil); got != "" {
		t.Fatalf("no partitions: %q", got)
	}
	// The add action's path is a URI: the escapes are escaped again.
	if got := EncodePath("a=x%2Fy/f.parquet"); got != "a=x%252Fy/f.parquet" {
		t.Fatalf("EncodePath: %q", got)
	}
}

func TestFileType(t *testing.T) {
	sch, err := ParseSchema(`{"type":"struct","fields":[
		{"name":"id","type":"long","nullable":false,"metadata":{"delta.columnMapping.id":1,"delta.columnMapping.physicalName":"col-1"}},
		{"name":"p","type":"string","nullable":true,"metadata":{"delta.columnMapping.id":2,"delta.columnMapping.physicalName":"col-2"}},
		{"name":"s","type":{"type":"struct","fields":[{"name":"x","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":4,"delta.columnMapping.physicalName":"col-4"}}]},"nullable":true,"metadata":{"delta.columnMapping.id":3,"delta.columnMapping.physicalName":"col-3"}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	ft := FileType(sch, []string{"P"})
	ps, err := ft.ParquetSchema()
	if err != nil {
		t.Fatal(err)
	}
	root := ps.Root
	if len(root.Children) != 2 || root.Children[0].Name != "col-1" || root.Children[0].FieldID.Value != 1 ||
		root.Children[1].Name != "col-3" || root.Children[1].Children[0].Name != "col-4" || root.Children[1].Children[0].FieldID.Value != 4 {
		t.Fatalf("file schema %+v", root.Children)
	}
	if sch.Fields[0].Name != "id" {
		t.Fatal("FileType changed the table's type")
	}
}

func TestNewProtocolAndMapColumns(t *testing.T) {
	typ, err := ParseSchema(`{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}},
		{"name":"s","type":{"type":"array","elementType":{"type":"struct","fields":[{"name":"x","type":"timestamp_ntz","nullable":true,"metadata":{}}]},"containsNull":true},"nullable":true,"metadata":{}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	if n := MapColumns(typ); n != 3 {
		t.Fatalf("max id %d", n)
	}
	x := typ.Fields[1].Type.Element.Fields[0]
	if x.ID != 3 || x.Metadata["delta.columnMapping.physicalName"] != x.PhysicalName || len(x.PhysicalName) != len("col-")+36 {
		t.Fatalf("nested field %+v", x)
	}
	ss, err := typ.SchemaString()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseSchema(ss)
	if err != nil || back.Fields[1].Type.Element.Fields[0].ID != 3 || back.Fields[0].PhysicalName != typ.Fields[0].PhysicalName {
		t.Fatalf("the mapping does not survive the schema string: %v", err)
	}
	p := NewProtocol(typ, map[string]string{"delta.columnMapping.mode": "name", "delta.appendOnly": "true"})
	if p.MinReaderVersion != 3 || p.MinWriterVersion != 7 || fmt.Sprint(p.ReaderFeatures) != "[timestampNtz columnMapping]" ||
		fmt.Sprint(p.WriterFeatures) != "[timestampNtz columnMapping appendOnly]" {
		t.Fatalf("protocol %+v", p)
	}
	plain, _ := ParseSchema(`{"type":"struct","fields":[{"name":"a","type":"long","nullable":true,"metadata":{}}]}`)
	if p := NewProtocol(plain, map[string]string{"delta.columnMapping.mode": "none", "delta.appendOnly": "true"}); p.MinReaderVersion != 1 || p.MinWriterVersion != 2 {
		t.Fatalf("protocol %+v", p)
	}
}

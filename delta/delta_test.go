package delta

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/writer"
)

func TestParseSchemaTypes(t *testing.T) {
	s := `{"type":"struct","fields":[
		{"name":"a","type":"long","nullable":false,"metadata":{}},
		{"name":"d","type":"decimal(20, 3)","nullable":true,"metadata":{"delta.columnMapping.id":7,"delta.columnMapping.physicalName":"col-d"}},
		{"name":"n","type":{"type":"struct","fields":[{"name":"x","type":"date","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},
		{"name":"l","type":{"type":"array","elementType":"string","containsNull":true},"nullable":true,"metadata":{}},
		{"name":"m","type":{"type":"map","keyType":"string","valueType":"timestamp_ntz","valueContainsNull":true},"nullable":true,"metadata":{}},
		{"name":"s","type":"short","nullable":true,"metadata":{}}]}`
	typ, err := ParseSchema(s)
	if err != nil {
		t.Fatal(err)
	}
	if d := typ.Fields[1]; d.PhysicalName != "col-d" || d.ID != 7 || d.Type.Precision != 20 || d.Type.Scale != 3 {
		t.Fatalf("decimal field %+v %+v", d, d.Type)
	}
	sch, err := typ.ParquetSchema()
	if err != nil {
		t.Fatal(err)
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	kinds := []schema.Kind{schema.Primitive, schema.Primitive, schema.Struct, schema.List, schema.Map, schema.Primitive}
	for i, f := range fields {
		if f.Kind != kinds[i] {
			t.Errorf("%s: kind %v, want %v", f.Name, f.Kind, kinds[i])
		}
	}
	if n := fields[1].Node; n.Physical != format.FixedLenByteArray || n.TypeLength != 9 || !n.FieldID.Set || n.FieldID.Value != 7 {
		t.Errorf("decimal(20,3) node %+v", n)
	}
	if fields[0].Nullable || !fields[5].Nullable || fields[5].Node.Logical.Integer.BitWidth != 16 {
		t.Errorf("nullability or short type wrong")
	}
	for _, bad := range []string{`{"type":"struct","fields":[{"name":"a","type":"interval","nullable":true}]}`, `"long"`, `{"type":"struct","fields":[]}`, `{`} {
		if _, err := ParseSchema(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestProtocolCheck(t *testing.T) {
	for _, c := range []struct {
		p    Protocol
		want string
	}{
		{Protocol{MinReaderVersion: 1}, ""},
		{Protocol{MinReaderVersion: 2}, ""},
		{Protocol{MinReaderVersion: 3, ReaderFeatures: []string{"columnMapping", "deletionVectors", "timestampNtz", "v2Checkpoint", "vacuumProtocolCheck"}}, ""},
		{Protocol{MinReaderVersion: 3, ReaderFeatures: []string{"deletionVectors", "variantType"}}, `"variantType"`},
		{Protocol{MinReaderVersion: 4}, "reader version 4"},
	} {
		err := c.p.check()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: %v", c.p, err)
		}
	}
}

func smallTable(t *testing.T) (*deltatest.Table, string) {
	root := filepath.Join(t.TempDir(), "t")
	tb := deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}}
	schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil))
	a := tb.DataFile("a b.parquet", cols, [][]any{{int64(1)}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil), a)
	b := tb.DataFile("b.parquet", cols, [][]any{{int64(2)}}, nil)
	tb.Commit(b, deltatest.RemoveOf(a))
	tb.Commit(a) // re-added
	return tb, root
}

func TestReplayAddRemoveReadd(t *testing.T) {
	_, root := smallTable(t)
	for v, want := range map[int64]string{0: "a b.parquet", 1: "b.parquet", 2: "a b.parquet,b.parquet"} {
		s, err := Open(root, v)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range s.Files {
			got = append(got, filepath.Base(f.Path))
			if _, err := os.Stat(f.Path); err != nil {
				t.Errorf("v%d: %v", v, err)
			}
		}
		sort.Strings(got)
		if strings.Join(got, ",") != want {
			t.Errorf("v%d: files %v, want %s", v, got, want)
		}
		if s.Version != v {
			t.Errorf("version %d, want %d", s.Version, v)
		}
		if st, err := s.Files[0].Stats(); err != nil || st == nil || st.NumRecords != 1 {
			t.Errorf("v%d: stats %+v %v", v, st, err)
		}
	}
	if _, err := Open(root, 3); !errors.Is(err, ErrVersion) {
		t.Errorf("version 3: %v", err)
	}
	if v, err := Latest(root); err != nil || v != 2 {
		t.Errorf("latest %d %v", v, err)
	}
}

func TestMissingCommit(t *testing.T) {
	_, root := smallTable(t)
	if err := os.Remove(filepath.Join(root, LogDir, "00000000000000000001.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, -1); !errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "commit 1 is missing") {
		t.Fatalf("got %v", err)
	}
	if _, err := Open(root, 0); err != nil {
		t.Fatalf("version 0 is intact: %v", err)
	}
}

func TestBadLogLines(t *testing.T) {
	_, root := smallTable(t)
	p := filepath.Join(root, LogDir, "00000000000000000003.json")
	if err := os.WriteFile(p, []byte("{\"add\":{\"path\":\"x.parquet\",\"size\":1,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, -1); err == nil || !strings.Contains(err.Error(), "00000000000000000003.json line 1") {
		t.Fatalf("got %v", err)
	}
	if err := os.WriteFile(p, []byte(`{"add":{"path":"s3://bucket/x.parquet","size":1}}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(root, -1); err == nil || !strings.Contains(err.Error(), "s3:// scheme is not supported") {
		t.Fatalf("got %v", err)
	}
}

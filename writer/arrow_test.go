package writer

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
)

// fbRead is a minimal flatbuffer reader written from the format's rules
// (root uoffset, soffset to the vtable, vtable slots, forward uoffsets).
type fbRead struct{ b []byte }

func (r fbRead) u32(at int) int { return int(binary.LittleEndian.Uint32(r.b[at:])) }

// field returns the position of a table's field, or -1 when absent.
func (r fbRead) field(table, slot int) int {
	vt := table - int(int32(binary.LittleEndian.Uint32(r.b[table:])))
	vsize := int(binary.LittleEndian.Uint16(r.b[vt:]))
	if 4+2*slot >= vsize {
		return -1
	}
	off := int(binary.LittleEndian.Uint16(r.b[vt+4+2*slot:]))
	if off == 0 {
		return -1
	}
	return table + off
}

func (r fbRead) ref(table, slot int) int {
	at := r.field(table, slot)
	if at < 0 {
		return -1
	}
	return at + r.u32(at)
}

func (r fbRead) str(table, slot int) string {
	at := r.ref(table, slot)
	n := r.u32(at)
	return string(r.b[at+4 : at+4+n])
}

func (r fbRead) vec(table, slot int) []int {
	at := r.ref(table, slot)
	if at < 0 {
		return nil
	}
	var out []int
	for i := range r.u32(at) {
		p := at + 4 + 4*i
		out = append(out, p+r.u32(p))
	}
	return out
}

func (r fbRead) scalar(table, slot, size int) uint64 {
	at := r.field(table, slot)
	if at < 0 {
		return 0
	}
	switch size {
	case 1:
		return uint64(r.b[at])
	case 2:
		return uint64(binary.LittleEndian.Uint16(r.b[at:]))
	case 4:
		return uint64(binary.LittleEndian.Uint32(r.b[at:]))
	}
	return binary.LittleEndian.Uint64(r.b[at:])
}

// describe prints a Field table as "name:type(params)<children>".
func (r fbRead) describe(f int) string {
	name := r.str(f, 0)
	nullable := r.scalar(f, 1, 1) == 1
	tt := r.scalar(f, 2, 1)
	t := r.ref(f, 3)
	var typ string
	switch tt {
	case arrowTypeInt:
		typ = fmt.Sprintf("int%d/%d", r.scalar(t, 0, 4), r.scalar(t, 1, 1))
	case arrowTypeFloat:
		typ = fmt.Sprintf("float%d", r.scalar(t, 0, 2))
	case arrowTypeDecimal:
		typ = fmt.Sprintf("decimal(%d,%d,%d)", r.scalar(t, 0, 4), r.scalar(t, 1, 4), r.scalar(t, 2, 4))
	case arrowTypeTimestamp:
		tz := ""
		if r.field(t, 1) >= 0 {
			tz = r.str(t, 1)
		}
		typ = fmt.Sprintf("timestamp(%d,%s)", r.scalar(t, 0, 2), tz)
	case arrowTypeTime:
		typ = fmt.Sprintf("time(%d,%d)", r.scalar(t, 0, 2), r.scalar(t, 1, 4))
	case arrowTypeDate:
		typ = fmt.Sprintf("date(%d)", r.scalar(t, 0, 2))
	case arrowTypeFixedBinary:
		typ = fmt.Sprintf("fixed(%d)", r.scalar(t, 0, 4))
	default:
		typ = map[uint64]string{arrowTypeNull: "null", arrowTypeBinary: "binary", arrowTypeUtf8: "utf8", arrowTypeBool: "bool",
			arrowTypeList: "list", arrowTypeStruct: "struct", arrowTypeMap: "map"}[tt]
	}
	s := name + ":" + typ
	if !nullable {
		s += "!"
	}
	if r.ref(f, 5) < 0 {
		return s + "<no children vector>"
	}
	kids := r.vec(f, 5)
	if len(kids) > 0 {
		var parts []string
		for _, k := range kids {
			parts = append(parts, r.describe(k))
		}
		s += "<" + strings.Join(parts, " ") + ">"
	}
	return s
}

func TestArrowSchema(t *testing.T) {
	sch, err := NewSchema(Int32("a").Required(), Integer("u", 16, false), Timestamp("ts", Micros, true), Timestamp("local", Nanos, false),
		Time("t", Millis, true), Date("d"), Decimal("dec", 20, 3), DecimalAs("big", 60, 2, format.ByteArray, 0), String("s"), Binary("b"),
		Float16("h"), Double("x"), UUID("id"), Int96("old"), Unknown("nothing"), Bool("flag"),
		List("l", String("e").Required()), Map("m", String("k"), Int64("v")), Group("g", Float("f")))
	if err != nil {
		t.Fatal(err)
	}
	fields, _ := sch.LogicalFields()
	v, err := arrowSchemaValue(sch, fields)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.StdEncoding.DecodeString(v)
	if err != nil {
		t.Fatal(err)
	}
	if binary.LittleEndian.Uint32(raw) != 0xFFFFFFFF || int(binary.LittleEndian.Uint32(raw[4:]))+8 != len(raw) || len(raw)%8 != 0 {
		t.Fatalf("IPC framing: % x", raw[:8])
	}
	r := fbRead{raw[8:]}
	msg := r.u32(0)
	if r.scalar(msg, 0, 2) != arrowMetadataV5 || r.scalar(msg, 1, 1) != arrowHeaderSchema {
		t.Fatalf("message version %d header %d", r.scalar(msg, 0, 2), r.scalar(msg, 1, 1))
	}
	schemaTable := r.ref(msg, 2)
	var got []string
	for _, f := range r.vec(schemaTable, 1) {
		got = append(got, r.describe(f))
	}
	want := []string{"a:int32/1!", "u:int16/0", "ts:timestamp(2,UTC)", "local:timestamp(3,)", "t:time(1,32)", "d:date(0)",
		"dec:decimal(20,3,128)", "big:decimal(60,2,256)", "s:utf8", "b:binary", "h:float0", "x:float2", "id:fixed(16)",
		"old:timestamp(3,)", "nothing:null", "flag:bool", "l:list<element:utf8!>", "m:map<key_value:struct!<key:utf8! value:int64/1>>",
		"g:struct<f:float1>"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("arrow schema\n got %v\nwant %v", got, want)
	}
	// The writer puts it in the footer.
	empty := func(opts ...Option) *Buffer {
		var buf Buffer
		w, err := New(&buf, sch, opts...)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		return &buf
	}
	buf := empty()
	f := openBuffer(t, buf)
	if kv, ok := f.KeyValue(arrowSchemaKey); !ok || kv != v {
		t.Errorf("footer ARROW:schema missing or different")
	}
	buf = empty(WithArrowSchema(false))
	if _, ok := openBuffer(t, buf).KeyValue(arrowSchemaKey); ok {
		t.Errorf("ARROW:schema written when turned off")
	}
}

package writer

import (
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
)

func TestSchemaElements(t *testing.T) {
	elems, err := Elements("schema",
		Timestamp("ts_us_local", Micros, false).Required().ID(7),
		Timestamp("ts_ns", Nanos, true),
		Time("t_ms", Millis, false),
		Integer("u8", 8, false),
		Integer("i64", 64, true),
		Decimal("d", 20, 4),
		String("s"),
		List("l", Int32("x").Required()),
		Map("m", String("k"), Int64("v")),
		Variant("var"),
		Interval("iv"),
	)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]format.SchemaElement{}
	for _, e := range elems {
		byName[e.Name] = e
	}
	check := func(name string, ct format.ConvertedType, set bool) {
		t.Helper()
		e := byName[name]
		if e.ConvertedType.Set != set || set && e.ConvertedType.Value != ct {
			t.Errorf("%s: converted type %v, want %v (set %v)", name, e.ConvertedType, ct, set)
		}
	}
	check("ts_us_local", format.TimestampMicros, true)
	check("ts_ns", 0, false)
	check("t_ms", format.TimeMillis, true)
	check("u8", format.Uint8, true)
	check("i64", format.Int64CT, true)
	check("d", format.Decimal, true)
	check("s", format.UTF8, true)
	check("l", format.List, true)
	check("m", format.Map, true)
	check("iv", format.Interval, true)
	if e := byName["d"]; e.Scale.Value != 4 || e.Precision.Value != 20 || e.Type.Value != format.FixedLenByteArray || e.TypeLength.Value != 9 {
		t.Errorf("decimal element %+v", e)
	}
	if e := byName["ts_us_local"]; e.FieldID.Value != 7 || e.RepetitionType.Value != format.Required {
		t.Errorf("field id / repetition %+v", e)
	}
	sch, err := schema.FromElements(elems)
	if err != nil {
		t.Fatal(err)
	}
	want := `message schema {
  required int64 ts_us_local (TIMESTAMP(MICROS,false)) = 7;
  optional int64 ts_ns (TIMESTAMP(NANOS,true));
  optional int32 t_ms (TIME(MILLIS,false));
  optional int32 u8 (INTEGER(8,false));
  optional int64 i64 (INTEGER(64,true));
  optional fixed_len_byte_array(9) d (DECIMAL(20,4));
  optional byte_array s (STRING);
  optional group l (LIST) {
    repeated group list {
      required int32 element;
    }
  }
  optional group m (MAP) {
    repeated group key_value {
      required byte_array key (STRING);
      optional int64 value;
    }
  }
  optional group var (VARIANT(1)) {
    required byte_array metadata;
    required byte_array value;
  }
  optional fixed_len_byte_array(12) iv (INTERVAL);
}
`
	if got := sch.String(); got != want {
		t.Errorf("schema:\n%s\nwant:\n%s", got, want)
	}
	fields, err := sch.LogicalFields()
	if err != nil {
		t.Fatal(err)
	}
	if fields[7].Kind != schema.List || fields[8].Kind != schema.Map || fields[9].Kind != schema.Struct {
		t.Errorf("logical kinds %v %v %v", fields[7].Kind, fields[8].Kind, fields[9].Kind)
	}
}

func TestDecimalWidth(t *testing.T) {
	for _, c := range []struct{ p, w int }{{1, 1}, {2, 1}, {3, 2}, {9, 4}, {10, 5}, {18, 8}, {19, 9}, {38, 16}, {39, 17}} {
		if got := DecimalWidth(c.p); got != c.w {
			t.Errorf("DecimalWidth(%d) = %d, want %d", c.p, got, c.w)
		}
	}
}

func TestSchemaErrors(t *testing.T) {
	cases := []struct {
		fields []Field
		want   string
	}{
		{[]Field{Int32("a"), Int64("a")}, "two fields are named"},
		{[]Field{Leaf("u", format.FixedLenByteArray, 8, &format.LogicalType{UUID: &format.UUIDType{}})}, "UUID"},
		{[]Field{DecimalAs("d", 10, 2, format.Int32, 0)}, "does not fit INT32"},
		{[]Field{DecimalAs("d", 5, 6, format.Int32, 0)}, "scale"},
		{[]Field{DecimalAs("d", 10, 2, format.FixedLenByteArray, 4)}, "does not fit"},
		{[]Field{Leaf("t", format.Int64, 0, &format.LogicalType{Time: &format.TimeType{Unit: format.TimeUnit{Millis: &format.MilliSeconds{}}}})}, "TIME(MILLIS)"},
		{[]Field{Map("m", String("k").Optional(), Int32("v"))}, "key must be required"},
		{[]Field{List("l", Int32("e").Repeated())}, "element must be optional or required"},
		{[]Field{Group("g")}, "no fields"},
		{[]Field{Integer("i", 12, true)}, "width 12"},
		{[]Field{Leaf("s", format.Int32, 0, &format.LogicalType{String: &format.StringType{}})}, "STRING cannot annotate INT32"},
		{[]Field{FixedLen("f", 0)}, "positive length"},
		{[]Field{Int32("x").EdgeAlgorithm(format.Karney)}, "GEOGRAPHY"},
		{nil, "no fields"},
	}
	for _, c := range cases {
		_, err := NewSchema(c.fields...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("fields %v: error %v, want one containing %q", c.fields, err, c.want)
		}
	}
}

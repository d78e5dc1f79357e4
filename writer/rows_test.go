package writer

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
)

func TestWriteRowsConversions(t *testing.T) {
	sch, err := NewSchema(
		Int32("i32"), Integer("u16", 16, false), Int64("i64"), Integer("u64", 64, false),
		Date("date"), Time("tod", Micros, true), Timestamp("ts", Millis, true), Int96("legacy"),
		Decimal("d", 9, 3), Decimal("dbig", 30, 2), DecimalAs("dbin", 40, 1, format.ByteArray, 0),
		UUID("uuid"), Float16("half"), Interval("iv"), Float("f"),
		List("ints", Int32("e").Required()), Map("m", String("k"), Int64("v")),
		Group("g", String("name").Required(), Int32("n")),
	)
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456789, time.UTC)
	row := []any{
		7, uint16(65535), int64(-9), uint64(math.MaxUint64),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), 90*time.Minute + 5*time.Microsecond, ts, ts,
		value.DecimalFromInt64(12345, 2), value.DecimalFromInt64(-5, 0), value.DecimalFromInt64(-129, 1),
		"00112233-4455-6677-8899-aabbccddeeff", 1.5, value.Interval{Months: 1, Days: 2, Millis: 3}, 2.5,
		[]int32{1, 2, 3}, map[string]int64{"b": 2, "a": 1}, map[string]any{"name": "x"},
	}
	var buf Buffer
	w, err := New(&buf, sch)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow(row...); err != nil {
		t.Fatal(err)
	}
	nulls := make([]any, len(row))
	if err := w.WriteRow(nulls...); err != nil {
		t.Fatal(err)
	}
	// Bad rows are refused whole; the rows before them stay.
	bad := []struct {
		at   int
		v    any
		want string
	}{
		{0, "x", "string does not fit INT32"},
		{0, int64(1) << 40, "does not fit INT32"},
		{1, -1, "does not fit INT32 INTEGER(16,false)"},
		{8, value.DecimalFromInt64(1, 4), "more than 3 decimal places"},
		{11, "not-a-uuid", "not a UUID"},
		{17, map[string]any{"name": "x", "other": 1}, `no field "other"`},
		{17, map[string]any{"n": int32(1)}, "null in a required field"},
		{15, []any{int32(1), nil}, "null in a required field"},
		{15, 5, "a list takes a slice"},
	}
	for _, c := range bad {
		r := append([]any(nil), row...)
		r[c.at] = c.v
		err := w.WriteRow(r...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("value %v in column %d: error %v, want %q", c.v, c.at, err, c.want)
		}
	}
	if err := w.WriteRow(1, 2); err == nil {
		t.Errorf("short row accepted")
	}
	if w.NumRows() != 2 {
		t.Errorf("%d rows pending after refused rows", w.NumRows())
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f := openBuffer(t, &buf)
	got := readRows(t, f, 0)
	want := [][]any{{
		int32(7), uint16(65535), int64(-9), uint64(math.MaxUint64),
		time.Date(1969, 12, 31, 0, 0, 0, 0, time.UTC), time.Date(1, 1, 1, 1, 30, 0, 5000, time.UTC),
		ts.Truncate(time.Millisecond), ts,
		value.DecimalFromInt64(123450, 3), value.DecimalFromInt64(-500, 2), value.DecimalFromInt64(-129, 1),
		"00112233-4455-6677-8899-aabbccddeeff", float32(1.5), value.Interval{Months: 1, Days: 2, Millis: 3}, float32(2.5),
		[]any{int32(1), int32(2), int32(3)}, map[string]any{"a": int64(1), "b": int64(2)}, map[string]any{"name": "x", "n": nil},
	}, nulls}
	compareRows(t, want, got)
}

func TestFloat16Bytes(t *testing.T) {
	cases := []struct {
		f    float32
		bits uint16
	}{
		{0, 0}, {float32(math.Copysign(0, -1)), 0x8000}, {1, 0x3c00}, {-2, 0xc000}, {65504, 0x7bff},
		{65520, 0x7c00}, {float32(math.Inf(-1)), 0xfc00}, {5.960464477539063e-08, 0x0001},
		{6.103515625e-05, 0x0400}, {1.0009765625, 0x3c01}, {1.00048828125, 0x3c00}, {1.00146484375, 0x3c02},
		{2.98e-08, 0x0000}, {2.99e-08, 0x0001},
	}
	for _, c := range cases {
		b := float16Bytes(c.f)
		if got := uint16(b[0]) | uint16(b[1])<<8; got != c.bits {
			t.Errorf("float16(%v) = %#04x, want %#04x", c.f, got, c.bits)
		}
	}
	if b := float16Bytes(float32(math.NaN())); value.Float16(b) == value.Float16(b) {
		t.Errorf("NaN did not stay NaN")
	}
	// Every half value survives the trip through float32.
	for h := range 1 << 16 {
		in := []byte{byte(h), byte(h >> 8)}
		f := value.Float16(in)
		if f != f {
			continue
		}
		out := float16Bytes(f)
		if out[0] != in[0] || out[1] != in[1] {
			t.Fatalf("%#04x -> %v -> %#02x%02x", h, f, out[1], out[0])
		}
	}
}

package variant

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

func mustEncode(t testing.TB, v any) ([]byte, []byte) {
	t.Helper()
	m, val, err := Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return m, val
}

func sampleValues() []any {
	big38, _ := new(big.Int).SetString("-99999999999999999999999999999999999999", 10)
	d38, _ := DecimalFromBig(big38, 5)
	d38.Width = 16
	return []any{
		nil, true, false,
		int8(-128), int8(127), int16(-32768), int32(math.MinInt32), int64(math.MaxInt64),
		float32(1.5), float32(math.Inf(-1)), float64(-0.0), math.MaxFloat64,
		Decimal{Lo: 123456789, Scale: 4, Width: 4},
		Decimal{Hi: -1, Lo: uint64(1<<64 - 5), Scale: 1, Width: 8},
		d38,
		Date(19669), Date(-4437), Time(45234123456),
		Timestamp{Value: 1730982834123456}, Timestamp{Value: -1, NTZ: true},
		Timestamp{Value: 1730982834123456789, Nanos: true}, Timestamp{Value: 5, Nanos: true, NTZ: true},
		[]byte{}, []byte{0, 1, 2, 0xff},
		"", "short", strings.Repeat("x", 63), strings.Repeat("long ", 40), "üñí©ødé ✓",
		UUID{0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1, 0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56},
		[]any{}, Object{},
		[]any{int8(1), "two", []any{nil, Object{{"k", true}}}},
		Object{{"a", int8(1)}, {"b", Object{{"a", "nested same key"}, {"z", []any{}}}}, {"c", nil}},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, v := range sampleValues() {
		for _, sorted := range []bool{true, false} {
			m, val, err := encode(v, sorted)
			if err != nil {
				t.Fatalf("%#v: %v", v, err)
			}
			got, err := Decode(m, val)
			if err != nil {
				t.Fatalf("%#v: %v", v, err)
			}
			if !reflect.DeepEqual(got, v) {
				t.Errorf("round trip:\n got %#v\nwant %#v", got, v)
			}
			if _, err := ToJSON(m, val); err != nil {
				t.Errorf("%#v: ToJSON: %v", v, err)
			}
		}
	}
}

func TestLargeContainers(t *testing.T) {
	// 300 elements need the 4-byte count, 300 distinct keys 2-byte ids, and
	// 70 KB of values 3-byte offsets.
	arr := make([]any, 300)
	obj := make(Object, 300)
	for i := range arr {
		arr[i] = strings.Repeat("v", 230)
		obj[i] = Field{Name: "key" + string(rune('A'+i/26/26)) + string(rune('A'+i/26%26)) + string(rune('A'+i%26)), Value: int32(i)}
	}
	for _, v := range []any{arr, obj, Object{{"big", arr}, {"obj", obj}}} {
		m, val := mustEncode(t, v)
		got, err := Decode(m, val)
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Fatalf("large container: %v", err)
		}
	}
	m, val := mustEncode(t, arr)
	if val[0] != (1<<2|2)<<2|basicArray {
		t.Errorf("array header %08b, want is_large and 3-byte offsets", val[0])
	}
	pm, _ := ParseMetadata(m)
	if pm.Len() != 0 {
		t.Errorf("array of strings has %d keys", pm.Len())
	}
}

func TestMetadata(t *testing.T) {
	var b MetadataBuilder
	for _, k := range []string{"zeta", "alpha", "mid", "alpha"} {
		b.Add(k)
	}
	if b.Len() != 3 {
		t.Fatalf("Len %d", b.Len())
	}
	for _, sorted := range []bool{true, false} {
		raw, remap := b.Build(sorted)
		m, err := ParseMetadata(raw)
		if err != nil {
			t.Fatal(err)
		}
		if m.Sorted() != sorted || m.Len() != 3 {
			t.Fatalf("sorted=%v len=%d", m.Sorted(), m.Len())
		}
		for old, name := range []string{"zeta", "alpha", "mid"} {
			id, ok := m.Find(name)
			want := old
			if sorted {
				want = remap[old]
			}
			if !ok || id != want {
				t.Errorf("Find(%q) = %d, %v; want %d", name, id, ok, want)
			}
			if k, _ := m.Key(id); k != name {
				t.Errorf("Key(%d) = %q", id, k)
			}
		}
		if _, ok := m.Find("nope"); ok {
			t.Error("found a missing key")
		}
		if _, err := m.Key(3); !errors.Is(err, ErrInvalid) {
			t.Error("Key out of range accepted")
		}
	}
	// Empty metadata, as writers emit for scalar variants.
	if m, err := ParseMetadata([]byte{0x01, 0x00, 0x00}); err != nil || m.Len() != 0 {
		t.Errorf("empty metadata: %v", err)
	}
	for _, bad := range [][]byte{nil, {0x02, 0, 0}, {0x01}, {0x01, 5, 0}, {0x01, 1, 0, 9, 'a'}, {0xc1, 0xff, 0xff, 0xff, 0x7f}} {
		if _, err := ParseMetadata(bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseMetadata(% x) = %v", bad, err)
		}
	}
}

func TestDecimal(t *testing.T) {
	for _, tc := range []struct {
		d    Decimal
		want string
	}{
		{DecimalFromInt64(123456789, 4), "12345.6789"},
		{DecimalFromInt64(-5, 2), "-0.05"},
		{DecimalFromInt64(5, 0), "5"},
		{DecimalFromInt64(0, 3), "0.000"},
		{DecimalFromInt64(math.MinInt64, 0), "-9223372036854775808"},
	} {
		if got := tc.d.String(); got != tc.want {
			t.Errorf("%#v = %s, want %s", tc.d, got, tc.want)
		}
	}
	b, _ := new(big.Int).SetString("-98765432101234567890123456789", 10)
	d, ok := DecimalFromBig(b, 9)
	if !ok || d.String() != "-98765432101234567890.123456789" || d.Big().Cmp(b) != 0 {
		t.Errorf("big decimal %v %s", ok, d)
	}
	if _, ok := DecimalFromBig(new(big.Int).Lsh(big.NewInt(1), 127), 0); ok {
		t.Error("2^127 accepted")
	}
	// Width selection by precision, and refusals.
	for _, tc := range []struct {
		v     int64
		width byte
	}{{999_999_999, primDecimal4}, {1_000_000_000, primDecimal8}, {-999_999_999_999_999_999, primDecimal8}, {math.MaxInt64, primDecimal16}} {
		_, val := mustEncode(t, DecimalFromInt64(tc.v, 2))
		if val[0]>>2 != tc.width {
			t.Errorf("%d encoded as type %d, want %d", tc.v, val[0]>>2, tc.width)
		}
	}
	ten38 := new(big.Int).Exp(big.NewInt(10), big.NewInt(38), nil)
	huge, _ := DecimalFromBig(ten38, 0)
	for _, bad := range []Decimal{{Lo: 1, Scale: 39}, {Lo: 1 << 40, Width: 4}, huge, {Lo: 1, Width: 5}} {
		if _, _, err := Encode(bad); err == nil {
			t.Errorf("Encode(%#v) accepted", bad)
		}
	}
	// Big-endian two's complement (Parquet's decimal bytes).
	for _, s := range []string{"0", "1", "-1", "127", "128", "-128", "-129", "170141183460469231731687303715884105727", "-170141183460469231731687303715884105728"} {
		b, _ := new(big.Int).SetString(s, 10)
		d, ok := decimalFromBigEndian(twosComplementBE(b))
		if !ok || d.Big().Cmp(b) != 0 {
			t.Errorf("decimalFromBigEndian(%s) = %v, %v", s, d.Big(), ok)
		}
	}
	if _, ok := decimalFromBigEndian(append([]byte{0x01}, make([]byte, 16)...)); ok {
		t.Error("17 significant bytes accepted")
	}
	if d, ok := decimalFromBigEndian(append([]byte{0xff, 0xff}, bytes.Repeat([]byte{0xff}, 16)...)); !ok || d.Big().Int64() != -1 {
		t.Error("sign-extended 18 bytes rejected")
	}
}

func TestEncodeGoTypes(t *testing.T) {
	ts := time.Date(2024, 11, 7, 12, 33, 54, 123456000, time.UTC)
	for _, tc := range []struct {
		in   any
		want any
	}{
		{int(5), int8(5)}, {int(300), int16(300)}, {int(1 << 20), int32(1 << 20)}, {int(1 << 40), int64(1 << 40)},
		{uint8(200), int16(200)}, {uint64(math.MaxUint64), Decimal{Lo: math.MaxUint64, Width: 16}},
		{ts, Timestamp{Value: ts.UnixMicro()}},
		{ts.Add(7), Timestamp{Value: ts.UnixNano() + 7, Nanos: true}},
		{map[string]any{"b": 1, "a": []any{json.Number("1.50")}}, Object{{"a", []any{Decimal{Lo: 150, Scale: 2, Width: 4}}}, {"b", int8(1)}}},
		{json.Number("12"), int8(12)}, {json.Number("1e400"), math.Inf(1)}, {json.Number("2.5e3"), 2500.0},
		{Object{{"z", 1}, {"a", 2}}, Object{{"a", int8(2)}, {"z", int8(1)}}},
	} {
		m, val := mustEncode(t, tc.in)
		got, err := Decode(m, val)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Encode(%#v) decodes to %#v (%v), want %#v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []any{struct{}{}, Object{{"a", 1}, {"a", 2}}, []any{make(chan int)}, time.Date(3000, 1, 1, 0, 0, 0, 1, time.UTC)} {
		if _, _, err := Encode(bad); err == nil {
			t.Errorf("Encode(%#v) accepted", bad)
		}
	}
	// AppendValue needs every key in the dictionary.
	m, _ := mustEncode(t, Object{{"a", 1}})
	pm, _ := ParseMetadata(m)
	if _, err := AppendValue(nil, pm, Object{{"b", 1}}); err == nil {
		t.Error("key missing from the dictionary accepted")
	}
}

func TestToJSON(t *testing.T) {
	v := Object{
		{"arr", []any{int8(1), int64(-2), float32(1.5), 0.1, math.NaN(), math.Inf(-1), 1e300, nil}},
		{"bin", []byte("hi")},
		{"date", Date(19669)},
		{"dec", DecimalFromInt64(-5, 3)},
		{"s", "q\"\\\n\x01é\u2028"},
		{"t", Time(45234123456)},
		{"ts", Timestamp{Value: 1730982834123456}},
		{"tsn", Timestamp{Value: 1730982834123456789, Nanos: true, NTZ: true}},
		{"u", UUID{0xf2, 0x4f, 0x9b, 0x64, 0x81, 0xfa, 0x49, 0xd1, 0xb7, 0x4e, 0x8c, 0x09, 0xa6, 0xe3, 0x1c, 0x56}},
		{"yes", true},
	}
	m, val := mustEncode(t, v)
	got, err := ToJSON(m, val)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"arr":[1,-2,1.5,0.1,"NaN","-Infinity",1e+300,null],"bin":"aGk=","date":"2023-11-08","dec":-0.005,` +
		`"s":"q\"\\\n\u0001é\u2028","t":"12:33:54.123456","ts":"2024-11-07T12:33:54.123456+00:00",` +
		`"tsn":"2024-11-07T12:33:54.123456789","u":"f24f9b64-81fa-49d1-b74e-8c09a6e31c56","yes":true}`
	if got != want {
		t.Errorf("ToJSON:\n got %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Error("not valid JSON")
	}
	// Invalid UTF-8 is replaced, keeping the output valid JSON.
	m, val = mustEncode(t, "a\xffb")
	if got, _ := ToJSON(m, val); got != `"a\ufffdb"` {
		t.Errorf("invalid UTF-8 rendered %s", got)
	}
}

func TestFromJSON(t *testing.T) {
	m, val, err := FromJSON([]byte(`{"b": [1, 300, 70000, 5000000000, 12345678901234567890, 1.25, 1e3, -0.0, "x", true, null],
		"a": {"nested": {}}, "big": 123456789012345678901234567890.5}`))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(m, val)
	if err != nil {
		t.Fatal(err)
	}
	bigD, _ := new(big.Int).SetString("1234567890123456789012345678905", 10)
	d, _ := DecimalFromBig(bigD, 1)
	d.Width = 16
	want := Object{
		{"a", Object{{"nested", Object{}}}},
		{"b", []any{int8(1), int16(300), int32(70000), int64(5000000000),
			Decimal{Lo: 12345678901234567890, Width: 16}, Decimal{Lo: 125, Scale: 2, Width: 4}, 1000.0,
			Decimal{Scale: 1, Width: 4}, "x", true, nil}},
		{"big", d},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FromJSON:\n got %#v\nwant %#v", got, want)
	}
	for _, bad := range []string{``, `{`, `[1,]`, `{"a":1} x`, `nul`, strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)} {
		if _, _, err := FromJSON([]byte(bad)); err == nil {
			t.Errorf("FromJSON(%.30q) accepted", bad)
		}
	}
}

// TestHostile feeds malformed values: truncations, random bytes, deep
// nesting, overlapping elements, huge counts. Errors only, no panics, and
// no work beyond the input's size.
func TestHostile(t *testing.T) {
	empty := []byte{0x01, 0x00, 0x00}
	check := func(meta, val []byte) error {
		v, err := Decode(meta, val)
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("error %v does not wrap ErrInvalid", err)
		}
		_, jerr := ToJSON(meta, val)
		if (err == nil) != (jerr == nil) {
			t.Fatalf("Decode and ToJSON disagree on % x: %v vs %v", val, err, jerr)
		}
		_ = v
		return err
	}
	for _, v := range sampleValues() {
		m, val := mustEncode(t, v)
		for i := range len(val) {
			check(m, val[:i])
		}
		for i := range len(m) {
			check(m[:i], val)
		}
	}
	r := rand.New(rand.NewPCG(9, 9))
	for range 20000 {
		val := make([]byte, r.IntN(40))
		for i := range val {
			val[i] = byte(r.Uint32())
		}
		check(empty, val)
	}
	// Deep nesting: arrays of one element, one inside the other.
	var nested any = nil
	for range MaxDepth + 1 {
		nested = []any{nested}
	}
	if _, _, err := Encode(nested); err == nil {
		t.Error("Encode accepted nesting beyond MaxDepth")
	}
	deepVal := deepArray(MaxDepth + 5)
	if err := check(empty, deepVal); err == nil {
		t.Error("nesting beyond MaxDepth accepted")
	}
	if err := check(empty, deepArray(MaxDepth-1)); err != nil {
		t.Errorf("nesting of %d rejected: %v", MaxDepth-1, err)
	}
	// Overlap bomb: arrays of 255 elements all pointing at the same inner
	// array, nested: exponential work unless bounded.
	bomb := []byte{primNull << 2}
	for range 8 {
		inner := bomb
		hdr := []byte{basicArray | 1<<2, 255} // 2-byte offsets
		for range 256 {
			hdr = append(hdr, 0, 0)
		}
		hdr[len(hdr)-2], hdr[len(hdr)-1] = byte(len(inner)), byte(len(inner)>>8)
		bomb = append(hdr, inner...)
	}
	start := time.Now()
	if err := check(empty, bomb); err == nil {
		t.Error("overlapping elements accepted")
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("overlap bomb took %v", d)
	}
	// Huge counts in headers.
	for _, val := range [][]byte{
		{basicArray | 1<<4, 0xff, 0xff, 0xff, 0x7f},
		{basicObject | 1<<6, 0xff, 0xff, 0xff, 0xff},
		{primString << 2, 0xff, 0xff, 0xff, 0xff, 'a'},
		{primBinary << 2, 5, 0, 0, 0},
	} {
		if err := check(empty, val); err == nil {
			t.Errorf("% x accepted", val)
		}
	}
	// An object whose field id is outside the dictionary, and duplicate keys.
	if err := check(empty, []byte{basicObject, 1, 0, 0, 1, primNull << 2}); err == nil {
		t.Error("field id outside the dictionary accepted")
	}
	m, _ := mustEncode(t, Object{{"a", nil}})
	if err := check(m, []byte{basicObject, 2, 0, 0, 0, 1, 2, primNull << 2, primNull << 2}); err == nil {
		t.Error("duplicate keys accepted")
	}
}

func deepArray(depth int) []byte {
	// Built from the inside out with 4-byte offsets so any size fits.
	val := []byte{primNull << 2}
	for range depth {
		hdr := []byte{basicArray | 3<<2, 1, 0, 0, 0, 0}
		n := len(val)
		hdr = append(hdr, byte(n), byte(n>>8), byte(n>>16), byte(n>>24))
		val = append(hdr, val...)
	}
	return val
}

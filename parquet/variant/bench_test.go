package variant

import "testing"

// benchEvent is a typical semi-structured event: a few typed fields, a
// nested object and a short array.
func benchEvent() any {
	return Object{
		{"event_type", "login"},
		{"event_ts", Timestamp{Value: 1729794146402000}},
		{"user", Object{{"id", int64(123456789)}, {"email", "user@example.com"}, {"plan", "pro"}}},
		{"tags", []any{"web", "eu-west-1", "beta"}},
		{"latency_ms", 12.75},
		{"ok", true},
	}
}

func BenchmarkDecode(b *testing.B) {
	m, val, _ := Encode(benchEvent())
	b.SetBytes(int64(len(val)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(m, val); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkToJSON(b *testing.B) {
	m, val, _ := Encode(benchEvent())
	pm, _ := ParseMetadata(m)
	var out []byte
	b.SetBytes(int64(len(val)))
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if out, err = pm.AppendJSON(out[:0], val); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	v := benchEvent()
	m, _, _ := Encode(v)
	pm, _ := ParseMetadata(m)
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if out, err = AppendValue(out[:0], pm, v); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(out)))
}

func BenchmarkUnshred(b *testing.B) {
	m, _, _ := Encode(Object{{"event_type", nil}, {"event_ts", nil}, {"email", nil}})
	rest, _ := AppendValue(nil, mustMeta(m), Object{{"email", "user@example.com"}})
	t := &ShreddedType{Kind: KindObject, Fields: []ShreddedField{
		{Name: "event_type", Type: ShreddedType{Kind: KindString}},
		{Name: "event_ts", Type: ShreddedType{Kind: KindTimestamp}},
	}}
	s := Shredded{Value: rest, Typed: []Shredded{{Typed: []byte("login")}, {Typed: int64(1729794146402000)}}}
	var out []byte
	b.ReportAllocs()
	for b.Loop() {
		var err error
		if out, err = AppendUnshred(out[:0], m, s, t); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(out)))
}

func mustMeta(b []byte) Metadata {
	m, err := ParseMetadata(b)
	if err != nil {
		panic(err)
	}
	return m
}

package variant

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecode checks the decoder on arbitrary metadata and value bytes:
// Decode and ToJSON never panic and agree on validity; valid input renders
// as valid JSON and survives Encode → Decode → Encode unchanged; Unshred of
// the bytes as an unshredded or partially shredded value never panics and
// produces decodable bytes. Seeds (testdata/fuzz/FuzzDecode) are variants
// from parquet-testing/shredded_variant.
func FuzzDecode(f *testing.F) {
	f.Fuzz(func(t *testing.T, metadata, value []byte) {
		v, err := Decode(metadata, value)
		js, jerr := ToJSON(metadata, value)
		if (err == nil) != (jerr == nil) {
			t.Fatalf("Decode error %v, ToJSON error %v", err, jerr)
		}
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
		} else {
			if !json.Valid([]byte(js)) {
				t.Fatalf("invalid JSON %q", js)
			}
			m2, val2, err := Encode(v)
			if err != nil {
				t.Fatalf("Encode of a decoded value: %v", err)
			}
			v2, err := Decode(m2, val2)
			if err != nil {
				t.Fatalf("Decode of our own encoding: %v", err)
			}
			m3, val3, err := Encode(v2)
			if err != nil || !bytes.Equal(m2, m3) || !bytes.Equal(val2, val3) {
				t.Fatalf("encoding not stable: %v", err)
			}
		}
		m, err := ParseMetadata(metadata)
		if err != nil {
			return
		}
		for _, s := range []Shredded{
			{Value: value},
			{Value: value, Typed: []Shredded{{}, {Typed: "x"}}},
		} {
			out, err := Unshred(metadata, s, &ShreddedType{Kind: KindObject, Fields: []ShreddedField{
				{Name: "a", Type: ShreddedType{Kind: KindInt32}}, {Name: "b", Type: ShreddedType{Kind: KindString}}}})
			if err != nil {
				continue
			}
			if _, ok := m.Find("b"); s.Typed != nil && !ok {
				t.Fatal("Unshred wrote a field missing from the dictionary")
			}
			if s.Typed == nil {
				// Unshredded: the value is copied as is (its first value).
				if n, _ := valueSize(value); !bytes.Equal(out, value[:n]) {
					t.Fatal("unshredded value changed")
				}
			}
		}
	})
}

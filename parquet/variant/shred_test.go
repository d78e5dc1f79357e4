package variant

import (
	"errors"
	"fmt"
	"math/big"
	"reflect"
	"strings"
	"testing"
)

// The shredded_variant Parquet files need a Parquet reader to take apart;
// this package sits below it. So these tests rebuild each case's shredded
// pieces by hand, following the Iceberg test that generated the case
// (TestVariantReaders.java), run Unshred, and compare with the case's
// expected *.variant.bin.

type unshredCase struct {
	number int
	row    int
	s      Shredded
	t      ShreddedType
	err    string // expected error text, if an error case
}

func str(s string) Shredded { return Shredded{Typed: s} }

func missing() Shredded { return Shredded{} }

func stringType() ShreddedType { return ShreddedType{Kind: KindString} }

func abType() ShreddedType {
	return ShreddedType{Kind: KindObject, Fields: []ShreddedField{
		{Name: "a", Type: ShreddedType{Kind: KindInt32}},
		{Name: "b", Type: stringType()},
	}}
}

func stringList() ShreddedType {
	e := stringType()
	return ShreddedType{Kind: KindArray, Element: &e}
}

func TestUnshredConformance(t *testing.T) {
	dir, cases := loadCases(t)
	files := map[int][]string{}
	for _, c := range cases {
		if c.VariantFile != "" {
			files[c.Number] = []string{c.VariantFile}
		}
		for _, f := range c.VariantFiles {
			if f == nil {
				files[c.Number] = append(files[c.Number], "")
			} else {
				files[c.Number] = append(files[c.Number], *f)
			}
		}
	}
	expect := func(number, row int) (Metadata, any) {
		name := files[number][row]
		m, _, v := readVariantFile(t, dir, name)
		return m, v
	}
	abcde, _ := expect(46, 0)
	empty, _ := expect(1, 0)
	enc := func(m Metadata, v any) []byte {
		b, err := AppendValue(nil, m, v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	cdType := ShreddedType{Kind: KindObject, Fields: []ShreddedField{
		{Name: "c", Type: abType()},
		{Name: "d", Type: ShreddedType{Kind: KindDouble}},
	}}
	date20240130 := Date(19752)
	var tests []unshredCase

	// testShreddedVariantPrimitives (cases 4-37): typed_value only, in the
	// Parquet physical form of each type.
	for n := 4; n <= 37; n++ {
		_, want := expect(n, 0)
		typed, kind, scale := physicalForm(want)
		tests = append(tests, unshredCase{number: n, s: Shredded{Typed: typed}, t: ShreddedType{Kind: kind, Scale: scale}})
	}
	// testUnshreddedVariants (47-82) and ...WithShreddedSchema (89-124):
	// value only.
	for n := 47; n <= 124; n++ {
		if n > 82 && n < 89 {
			continue
		}
		m, want := expect(n, 0)
		st := ShreddedType{}
		if n >= 89 {
			st = stringType()
		}
		tests = append(tests, unshredCase{number: n, s: Shredded{Value: enc(m, want)}, t: st})
	}
	tests = append(tests,
		unshredCase{number: 129, s: missing(), t: ShreddedType{Kind: KindInt32}},
		unshredCase{number: 131, s: Shredded{Typed: int32(34)}, t: ShreddedType{Kind: KindInt32}},
		unshredCase{number: 46, t: abType(), s: Shredded{Typed: []Shredded{{Value: enc(abcde, nil)}, str("")}}},
		unshredCase{number: 138, t: abType(), s: Shredded{Typed: []Shredded{{Value: enc(abcde, int16(1234))}, str("iceberg")}}},
		unshredCase{number: 133, t: abType(), s: Shredded{Typed: []Shredded{{Value: enc(abcde, false)}, missing()}}},
		unshredCase{number: 130, t: abType(), s: Shredded{Typed: []Shredded{missing(), missing()}}},
		unshredCase{number: 132, t: abType(), s: Shredded{Typed: []Shredded{missing(), str("iceberg")}}},
		unshredCase{number: 38, t: ShreddedType{Kind: KindObject, Fields: []ShreddedField{{Name: "a"}, {Name: "b"}}},
			s: Shredded{Typed: []Shredded{missing(), {Value: enc(abcde, "iceberg")}}}},
		unshredCase{number: 44, t: cdType, s: Shredded{Typed: []Shredded{
			{Typed: []Shredded{{Typed: int32(34)}, str("iceberg")}}, {Typed: -zero()}}}},
		unshredCase{number: 84, t: ShreddedType{Kind: KindObject, Fields: []ShreddedField{
			{Name: "a", Type: ShreddedType{Kind: KindInt32}}, {Name: "b", Type: stringType()},
			{Name: "c", Type: ShreddedType{Kind: KindDouble}}, {Name: "d", Type: ShreddedType{Kind: KindBoolean}}}},
			s: Shredded{Typed: []Shredded{{Value: enc(abcde, int32(34))}, str("iceberg"), missing(), missing()}}},
		unshredCase{number: 134, t: abType(), s: Shredded{Value: enc(abcde, Object{{"d", date20240130}}),
			Typed: []Shredded{{Value: enc(abcde, nil)}, str("iceberg")}}},
		unshredCase{number: 125, t: abType(), s: Shredded{Value: enc(abcde, Object{{"b", date20240130}}),
			Typed: []Shredded{{Value: enc(abcde, nil)}, str("iceberg")}}},
		unshredCase{number: 43, t: abType(), s: Shredded{Value: enc(abcde, Object{{"b", date20240130}}),
			Typed: []Shredded{{Value: enc(abcde, nil)}, missing()}}},
		unshredCase{number: 39, t: abType(), s: Shredded{Value: enc(abcde, int32(34))}},
		unshredCase{number: 87, t: abType(), err: "non-object value with shredded fields",
			s: Shredded{Value: enc(abcde, int32(34)), Typed: []Shredded{{Value: enc(abcde, nil)}, {Value: enc(abcde, int64(9876543210))}}}},
		unshredCase{number: 128, t: abType(), err: "non-object value with shredded fields",
			s: Shredded{Value: enc(abcde, nil), Typed: []Shredded{missing(), missing()}}},
		unshredCase{number: 42, t: ShreddedType{Kind: KindInt32}, err: "conflicting value and typed_value",
			s: Shredded{Value: enc(empty, "str"), Typed: int32(34)}},
		// testMixedRecords, rows 1-3 (row 0 is a null variant).
		unshredCase{number: 83, row: 1, t: cdType, s: Shredded{Typed: []Shredded{
			{Typed: []Shredded{missing(), str("iceberg")}}, missing()}}},
		unshredCase{number: 83, row: 2, t: cdType, s: Shredded{Typed: []Shredded{
			{Value: enc(abcde, int8(8))}, {Typed: -zero()}}}},
		unshredCase{number: 83, row: 3, t: cdType, s: Shredded{Typed: []Shredded{
			{Typed: []Shredded{{Typed: int32(34)}, {Value: enc(abcde, "")}}}, {Typed: 0.0}}}},
		// Arrays.
		unshredCase{number: 1, t: stringList(), s: Shredded{Typed: []Shredded{str("comedy"), str("drama")}}},
		unshredCase{number: 2, t: stringList(), s: Shredded{Typed: []Shredded{}}},
		unshredCase{number: 135, t: stringList(), s: Shredded{Value: enc(empty, nil)}},
		unshredCase{number: 86, t: stringList(), s: Shredded{Typed: []Shredded{str("comedy"), {Value: enc(empty, nil)}, str("drama")}}},
		unshredCase{number: 85, t: stringList(), s: Shredded{Typed: []Shredded{missing()}}},
		unshredCase{number: 41, t: stringList(), s: Shredded{Typed: []Shredded{str("comedy"), str("drama")}}},
		unshredCase{number: 88, t: stringList(), s: Shredded{Typed: []Shredded{str("comedy"), str("drama")}}},
		unshredCase{number: 40, t: stringList(), err: "conflicting value and typed_value",
			s: Shredded{Typed: []Shredded{{Value: enc(empty, "comedy"), Typed: "drama"}}}},
		unshredCase{number: 136, t: ShreddedType{Kind: KindArray, Element: &ShreddedType{Kind: KindArray, Element: &ShreddedType{Kind: KindString}}},
			s: Shredded{Typed: []Shredded{{Typed: []Shredded{str("comedy"), str("drama")}}, {Typed: []Shredded{}}}}},
		unshredCase{number: 45, row: 0, t: stringList(), s: Shredded{Typed: []Shredded{str("comedy"), str("drama")}}},
		unshredCase{number: 45, row: 1, t: stringList(), s: Shredded{Value: enc(empty, int32(34))}},
		unshredCase{number: 45, row: 2, t: stringList(), s: Shredded{Value: enc(abcde, Object{{"a", nil}, {"d", "iceberg"}})}},
		unshredCase{number: 45, row: 3, t: stringList(), s: Shredded{Typed: []Shredded{str("action"), str("horror")}}},
		unshredCase{number: 126, row: 0, t: ShreddedType{Kind: KindArray, Element: ptr(abType())}, s: Shredded{Typed: []Shredded{
			{Typed: []Shredded{{Typed: int32(1)}, str("comedy")}}, {Typed: []Shredded{{Typed: int32(2)}, str("drama")}}}}},
		unshredCase{number: 126, row: 1, t: ShreddedType{Kind: KindArray, Element: ptr(abType())}, s: Shredded{Typed: []Shredded{
			{Value: enc(abcde, Object{{"c", "str"}}), Typed: []Shredded{{Typed: int32(3)}, str("action")}},
			{Value: enc(abcde, Object{{"d", date20240130}}), Typed: []Shredded{{Typed: int32(4)}, str("horror")}}}}},
	)

	for _, tc := range tests {
		t.Run(fmt.Sprintf("case-%03d-row-%d", tc.number, tc.row), func(t *testing.T) {
			m := empty
			if len(files[tc.number]) > 0 {
				m, _ = expect(tc.number, tc.row)
			} else if strings.Contains(tc.err, "shredded fields") {
				m = abcde
			}
			got, err := Unshred(m.Bytes(), tc.s, &tc.t)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, ErrShredded) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_, want := expect(tc.number, tc.row)
			v, err := m.Decode(got)
			if err != nil {
				t.Fatalf("Unshred produced bad bytes: %v", err)
			}
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("got  %s\nwant %s", icebergValue(v), icebergValue(want))
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

func zero() float64 { return 0 }

// physicalForm returns what a Parquet reader hands over for a shredded
// primitive column holding v, with the column's Kind (and decimal scale).
func physicalForm(v any) (any, Kind, int) {
	switch v := v.(type) {
	case bool:
		return v, KindBoolean, 0
	case int8:
		return int32(v), KindInt8, 0
	case int16:
		return int32(v), KindInt16, 0
	case int32:
		return v, KindInt32, 0
	case int64:
		return v, KindInt64, 0
	case float32:
		return v, KindFloat, 0
	case float64:
		return v, KindDouble, 0
	case Decimal:
		switch v.Width {
		case 4:
			return int32(v.Lo), KindDecimal4, int(v.Scale)
		case 8:
			return int64(v.Lo), KindDecimal8, int(v.Scale)
		}
		return twosComplementBE(v.Big()), KindDecimal16, int(v.Scale)
	case Date:
		return int32(v), KindDate, 0
	case Time:
		return int64(v), KindTime, 0
	case Timestamp:
		k := map[[2]bool]Kind{{false, false}: KindTimestamp, {false, true}: KindTimestampNTZ,
			{true, false}: KindTimestampNanos, {true, true}: KindTimestampNTZNanos}[[2]bool{v.Nanos, v.NTZ}]
		return v.Value, k, 0
	case []byte:
		return v, KindBinary, 0
	case string:
		return []byte(v), KindString, 0
	case UUID:
		return v[:], KindUUID, 0
	}
	panic(fmt.Sprintf("no physical form for %T", v))
}

// twosComplementBE renders b as minimal big-endian two's complement, as
// Java's BigInteger.toByteArray does.
func twosComplementBE(b *big.Int) []byte {
	if b.Sign() >= 0 {
		out := b.Bytes()
		if len(out) == 0 || out[0]&0x80 != 0 {
			out = append([]byte{0}, out...)
		}
		return out
	}
	n := (b.BitLen() + 8) / 8
	mod := new(big.Int).Lsh(big.NewInt(1), uint(8*n))
	out := new(big.Int).Add(mod, b).Bytes()
	for len(out) < n {
		out = append([]byte{0xff}, out...)
	}
	return out
}

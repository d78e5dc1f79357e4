package format

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/parquet/thrift"
)

// fill sets every field of v (a pointer to a struct) to random values,
// recursing into structs, pointers, slices and Opt fields, so that the
// round trip below exercises every field of every struct. Union members
// are all set too: the encoding writes each set member, and decoding reads
// them back, which is what a field-by-field check needs.
func fill(rng *rand.Rand, v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if depth > 6 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		fill(rng, v.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if strings.HasSuffix(v.Type().Field(i).Name, "Raw") {
				continue // not a Thrift field: set only by lazy decoding
			}
			fill(rng, v.Field(i), depth)
		}
		if set := v.FieldByName("Set"); set.IsValid() && !set.Bool() {
			// An absent Opt has a zero value.
			val := v.FieldByName("Value")
			val.Set(reflect.Zero(val.Type()))
		}
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, rng.Intn(20))
			rng.Read(b)
			v.SetBytes(b)
			return
		}
		if depth > 6 {
			return
		}
		n := 1 + rng.Intn(3)
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := 0; i < n; i++ {
			fill(rng, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Bool:
		v.SetBool(rng.Intn(2) == 1)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		x := rng.Int63() >> (64 - bits)
		if rng.Intn(2) == 0 {
			x = -x
		}
		v.SetInt(x)
	case reflect.Float64:
		v.SetFloat(rng.NormFloat64())
	case reflect.String:
		b := make([]byte, rng.Intn(12))
		for i := range b {
			b[i] = byte('a' + rng.Intn(26))
		}
		v.SetString(string(b))
	}
}

type codec interface {
	Encode(*thrift.Writer)
	Decode(*thrift.Reader) error
}

func allStructs() []codec {
	return []codec{
		&SizeStatistics{}, &BoundingBox{}, &GeospatialStatistics{}, &Statistics{}, &StringType{}, &UUIDType{},
		&MapType{}, &ListType{}, &VectorType{}, &EnumType{}, &DateType{}, &Float16Type{}, &NullType{},
		&DecimalType{}, &MilliSeconds{}, &MicroSeconds{}, &NanoSeconds{}, &TimeUnit{}, &TimestampType{},
		&TimeType{}, &IntType{}, &JsonType{}, &BsonType{}, &VariantType{}, &GeometryType{}, &GeographyType{},
		&LogicalType{}, &SchemaElement{}, &DataPageHeader{}, &IndexPageHeader{}, &DictionaryPageHeader{},
		&DataPageHeaderV2{}, &SplitBlockAlgorithm{}, &BloomFilterAlgorithm{}, &XxHash{}, &BloomFilterHash{},
		&BloomFilterUncompressed{}, &BloomFilterCompression{}, &BloomFilterHeader{}, &PageHeader{}, &KeyValue{},
		&SortingColumn{}, &PageEncodingStats{}, &ColumnMetaData{}, &EncryptionWithFooterKey{},
		&EncryptionWithColumnKey{}, &ColumnCryptoMetaData{}, &ColumnChunk{}, &RowGroup{}, &TypeDefinedOrder{},
		&IEEE754TotalOrder{}, &Int96TimestampOrder{}, &ColumnOrder{}, &PageLocation{}, &OffsetIndex{},
		&ColumnIndex{}, &AesGcmV1{}, &AesGcmCtrV1{}, &EncryptionAlgorithm{}, &FileMetaData{}, &FileCryptoMetaData{},
	}
}

func TestEveryStructRoundTrips(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, proto := range allStructs() {
		typ := reflect.TypeOf(proto).Elem()
		t.Run(typ.Name(), func(t *testing.T) {
			for iter := 0; iter < 50; iter++ {
				in := reflect.New(typ)
				fill(rng, in.Elem(), 0)
				if iter%2 == 0 {
					in.Elem().FieldByName("Extension").SetBytes(nil)
				}
				w := thrift.NewWriter(nil)
				in.Interface().(codec).Encode(w)
				out := reflect.New(typ)
				r := thrift.NewReader(w.Bytes())
				if err := out.Interface().(codec).Decode(r); err != nil {
					t.Fatalf("decode: %v", err)
				}
				if r.Remaining() != 0 {
					t.Fatalf("%d bytes left after decode", r.Remaining())
				}
				for i := 0; i < typ.NumField(); i++ {
					a, b := in.Elem().Field(i).Interface(), out.Elem().Field(i).Interface()
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("field %s: wrote %#v, read %#v", typ.Field(i).Name, a, b)
					}
				}
			}
		})
	}
}

func TestUnknownFieldsAreSkipped(t *testing.T) {
	// A KeyValue with an extra field 9 (a list of structs) that a newer
	// writer might add, between known fields.
	w := thrift.NewWriter(nil)
	var last int16
	w.FieldHeader(thrift.Binary, 1, &last)
	w.String("k")
	w.FieldHeader(thrift.List, 9, &last)
	w.ListHeader(thrift.Struct, 2)
	w.FieldStop()
	w.FieldStop()
	w.FieldHeader(thrift.Binary, 2, &last) // delta is negative: long form
	w.String("v")
	w.FieldStop()
	var kv KeyValue
	if _, err := Unmarshal(w.Bytes(), &kv); err != nil {
		t.Fatal(err)
	}
	if kv.Key != "k" || kv.Value != Some("v") {
		t.Fatalf("got %+v", kv)
	}
}

func TestExtensionKeptAndWritten(t *testing.T) {
	fm := FileMetaData{Version: 1, Schema: []SchemaElement{{Name: "schema"}}, RowGroups: []RowGroup{}, Extension: []byte("ext-bytes")}
	enc := Marshal(nil, &fm)
	// BinaryProtocolExtensions.md: the long-form header 08 FF FF 01.
	want := []byte{0x08, 0xff, 0xff, 0x01, 9}
	found := false
	for i := 0; i+len(want) <= len(enc); i++ {
		if string(enc[i:i+len(want)]) == string(want) {
			found = true
		}
	}
	if !found {
		t.Fatalf("extension header not found in %x", enc)
	}
	var back FileMetaData
	if _, err := Unmarshal(enc, &back); err != nil || string(back.Extension) != "ext-bytes" {
		t.Fatalf("extension = %q, %v", back.Extension, err)
	}
}

func TestDecodeErrorsNameTheField(t *testing.T) {
	fm := FileMetaData{Version: 1, Schema: []SchemaElement{{Name: "schema"}, {Name: "a"}}, RowGroups: []RowGroup{}}
	enc := Marshal(nil, &fm)
	_, err := Unmarshal(enc[:len(enc)-6], new(FileMetaData))
	if err == nil {
		t.Fatal("truncated footer decoded")
	}
	if got := err.Error(); !contains(got, "FileMetaData.schema") {
		t.Fatalf("error does not name the field: %s", got)
	}
}

func contains(s, sub string) bool { return len(s) >= len(sub) && (s == sub || indexOf(s, sub) >= 0) }

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// FuzzFileMetaData decodes arbitrary bytes as a footer: it must never
// panic, and whatever decodes must encode to bytes that decode and encode
// to the same bytes again. (Bytes, not structs: an absent required list
// is written as an empty one, which reads back as empty, not nil.)
func FuzzFileMetaData(f *testing.F) {
	f.Add([]byte{0x15, 0x02, 0x19, 0x1c, 0x48, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		var fm FileMetaData
		if _, err := Unmarshal(b, &fm); err != nil {
			return
		}
		enc := Marshal(nil, &fm)
		var again FileMetaData
		if _, err := Unmarshal(enc, &again); err != nil {
			t.Fatalf("re-decode failed: %v", err)
		}
		if enc2 := Marshal(nil, &again); !bytes.Equal(enc, enc2) {
			t.Fatal("round trip changed the footer")
		}
	})
}

package variant

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
)

// testingRoot is the folder of the conformance files (testfiles.Dir):
// they are part of the test environment, so their absence fails the test.
func testingRoot(t testing.TB) string {
	t.Helper()
	return testfiles.Dir(t, "")
}

// splitVariant splits a *.variant.bin file: metadata then value.
func splitVariant(t testing.TB, b []byte) (metadata, value []byte) {
	t.Helper()
	m, err := ParseMetadata(b)
	if err != nil {
		t.Fatal(err)
	}
	end := m.strings + int(readUint(b[m.offsets+m.size*m.offsetSize:], m.offsetSize))
	return b[:end], b[end:]
}

// icebergString renders a decoded Variant the way Iceberg's toString does,
// which is the form cases.json gives expected values in.
func icebergString(t testing.TB, m Metadata, v any) string {
	var dict []string
	for i := range m.Len() {
		k, err := m.Key(i)
		if err != nil {
			t.Fatal(err)
		}
		dict = append(dict, strconv.Itoa(i)+" => "+k)
	}
	return "Variant(metadata=VariantMetadata(dict={" + strings.Join(dict, ", ") + "}), value=" + icebergValue(v) + ")"
}

func javaFloat(f float64, bits int) string {
	s := strconv.FormatFloat(f, 'f', -1, bits)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func icebergValue(v any) string {
	prim := func(typ, val string) string { return "Variant(type=" + typ + ", value=" + val + ")" }
	switch v := v.(type) {
	case nil:
		return prim("NULL", "null")
	case bool:
		if v {
			return prim("BOOLEAN_TRUE", "true")
		}
		return prim("BOOLEAN_FALSE", "false")
	case int8:
		return prim("INT8", strconv.Itoa(int(v)))
	case int16:
		return prim("INT16", strconv.Itoa(int(v)))
	case int32:
		return prim("INT32", strconv.Itoa(int(v)))
	case int64:
		return prim("INT64", strconv.FormatInt(v, 10))
	case float32:
		return prim("FLOAT", javaFloat(float64(v), 32))
	case float64:
		return prim("DOUBLE", javaFloat(v, 64))
	case Decimal:
		return prim("DECIMAL"+strconv.Itoa(int(v.Width)), v.String())
	case Date:
		return prim("DATE", v.String())
	case Time:
		return prim("TIME", v.String())
	case Timestamp:
		typ := "TIMESTAMPTZ"
		if v.NTZ {
			typ = "TIMESTAMPNTZ"
		}
		if v.Nanos {
			typ += "_NANOS"
		}
		return prim(typ, v.String())
	case []byte:
		return prim("BINARY", strings.ToUpper(hex.EncodeToString(v)))
	case string:
		return prim("STRING", v)
	case UUID:
		return prim("UUID", v.String())
	case Object:
		var parts []string
		for _, f := range v {
			parts = append(parts, f.Name+": "+icebergValue(f.Value))
		}
		return "VariantObject(fields={" + strings.Join(parts, ", ") + "})"
	case []any:
		var parts []string
		for _, x := range v {
			parts = append(parts, icebergValue(x))
		}
		return "VariantArray([" + strings.Join(parts, ", ") + "])"
	}
	return "?"
}

type shreddedCase struct {
	Number       int       `json:"case_number"`
	Test         string    `json:"test"`
	ParquetFile  string    `json:"parquet_file"`
	VariantFile  string    `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	Variant      string    `json:"variant"`
	Variants     string    `json:"variants"`
	Error        string    `json:"error_message"`
}

func loadCases(t testing.TB) (string, []shreddedCase) {
	dir := filepath.Join(testingRoot(t), "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []shreddedCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	return dir, cases
}

// readVariantFile returns the decoded metadata and value of one case file.
func readVariantFile(t testing.TB, dir, name string) (Metadata, []byte, any) {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	meta, value := splitVariant(t, b)
	m, err := ParseMetadata(meta)
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Decode(value)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m, value, v
}

// TestShreddedVariantFiles decodes every *.variant.bin of
// parquet-testing/shredded_variant and compares it with the expected value
// cases.json gives; it also renders each as JSON and round-trips it through
// Encode.
func TestShreddedVariantFiles(t *testing.T) {
	dir, cases := loadCases(t)
	checked := 0
	for _, c := range cases {
		var files []*string
		var want string
		switch {
		case c.VariantFile != "":
			files, want = []*string{&c.VariantFile}, c.Variant
		case c.VariantFiles != nil:
			files, want = c.VariantFiles, c.Variants
		default:
			continue
		}
		var got []string
		for _, f := range files {
			if f == nil {
				got = append(got, "null")
				continue
			}
			m, value, v := readVariantFile(t, dir, *f)
			got = append(got, icebergString(t, m, v))
			if _, err := m.AppendJSON(nil, value); err != nil {
				t.Errorf("case %d: ToJSON: %v", c.Number, err)
			}
			// Round trip: our encoding of the decoded value decodes the same.
			meta2, value2, err := Encode(v)
			if err != nil {
				t.Fatalf("case %d: Encode: %v", c.Number, err)
			}
			v2, err := Decode(meta2, value2)
			if err != nil || !reflect.DeepEqual(v, v2) {
				t.Errorf("case %d: round trip: %v\n got %#v\nwant %#v", c.Number, err, v2, v)
			}
			// Re-encoding against the file's own dictionary works too.
			value3, err := AppendValue(nil, m, v)
			if err != nil {
				t.Fatalf("case %d: AppendValue: %v", c.Number, err)
			}
			if v3, err := m.Decode(value3); err != nil || !reflect.DeepEqual(v, v3) {
				t.Errorf("case %d: AppendValue round trip: %v", c.Number, err)
			}
			checked++
		}
		gotStr := got[0]
		if c.VariantFiles != nil {
			gotStr = "[" + strings.Join(got, ", ") + "]"
		}
		if gotStr != want {
			t.Errorf("case %d (%s):\n got %s\nwant %s", c.Number, c.Test, gotStr, want)
		}
	}
	if checked < 130 {
		t.Errorf("only %d variant files checked", checked)
	}
	t.Logf("%d variant files checked", checked)
}

package file

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/variant"
)

// TestShreddedVariantCases reads every case of shredded_variant/cases.json
// and compares each row's variant with the expected binary variant file
// (metadata followed by value), or expects the documented error.
func TestShreddedVariantCases(t *testing.T) {
	dir := testfiles.Dir(t, "shredded_variant")
	b, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Number       int       `json:"case_number"`
		ParquetFile  string    `json:"parquet_file"`
		VariantFile  *string   `json:"variant_file"`
		VariantFiles []*string `json:"variant_files"`
		Error        string    `json:"error_message"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, c := range cases {
		if c.ParquetFile == "" {
			continue
		}
		f, err := OpenFile(filepath.Join(dir, c.ParquetFile), Options{}, false)
		if err != nil {
			if c.Error != "" {
				continue // rejected while opening: fine for an error case
			}
			t.Fatalf("case %d: %v", c.Number, err)
		}
		rows := readAll(t, f, 100)
		f.Close()
		want := c.VariantFiles
		if c.VariantFile != nil {
			want = []*string{c.VariantFile}
		}
		col := -1
		for i, fl := range f.Schema.Root.Children {
			if fl.Name == "var" {
				col = i
			}
		}
		if col < 0 {
			t.Fatalf("case %d: no var column", c.Number)
		}
		if c.Error != "" {
			failed := false
			for _, r := range rows {
				if v, ok := r[col].(value.Variant); ok && v.Err != nil {
					failed = true
				}
			}
			if !failed {
				t.Errorf("case %d: want error %q, every row read", c.Number, c.Error)
			}
			continue
		}
		if len(rows) != len(want) {
			t.Fatalf("case %d: %d rows, want %d", c.Number, len(rows), len(want))
		}
		for i, r := range rows {
			if want[i] == nil {
				if r[col] != nil {
					t.Errorf("case %d row %d: %v, want NULL", c.Number, i, r[col])
				}
				continue
			}
			exp, err := os.ReadFile(filepath.Join(dir, *want[i]))
			if err != nil {
				t.Fatal(err)
			}
			ml := metadataLen(exp)
			wantVal, err := variant.Decode(exp[:ml], exp[ml:])
			if err != nil {
				t.Fatal(err)
			}
			v, ok := r[col].(value.Variant)
			if !ok {
				t.Fatalf("case %d row %d: %T, want a Variant", c.Number, i, r[col])
			}
			got, err := v.Decode()
			if err != nil {
				t.Fatalf("case %d row %d: %v", c.Number, i, err)
			}
			if !reflect.DeepEqual(got, wantVal) {
				t.Errorf("case %d row %d: %v, want %v", c.Number, i, got, wantVal)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d variants checked", checked)
	}
	t.Logf("%d variants checked", checked)
}

// metadataLen is the length of the Variant metadata at the start of b
// (VariantEncoding.md: header, dictionary size, offsets, strings).
func metadataLen(b []byte) int {
	osz := int(b[0]>>6) + 1
	read := func(p int) int {
		v := 0
		for i := 0; i < osz; i++ {
			v |= int(b[p+i]) << (8 * i)
		}
		return v
	}
	n := read(1)
	last := read(1 + osz + n*osz)
	return 1 + osz + (n+1)*osz + last
}

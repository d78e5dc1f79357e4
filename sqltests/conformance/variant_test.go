package conformance

import (
	"bytes"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/variant"
	"github.com/carquet-go/carquet/sqltests/internal/testdata"
)

type variantCase struct {
	Number       int       `json:"case_number"`
	Test         string    `json:"test"`
	ParquetFile  string    `json:"parquet_file"`
	VariantFile  string    `json:"variant_file"`
	VariantFiles []*string `json:"variant_files"`
	ErrorMessage string    `json:"error_message"`
}

// parseJSON parses JSON text keeping numbers as json.Number.
func parseJSON(text string) (any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w in %q", err, text)
	}
	return v, nil
}

// variantEqual compares carquet's JSON rendering of a Variant (c) with
// DuckDB's (d, from CAST(var AS JSON)). The two render some types
// differently; these rules, and only these, make them comparable:
//   - numbers are equal when equal as exact rationals (1.0 = 1), or when d
//     is the float64 widening of c's float32 (DuckDB prints a FLOAT
//     variant as the double 10.109999656677246; carquet as 10.11);
//   - timestamps: carquet writes ISO 8601 ("2024-11-07T12:33:54.123456+00:00"),
//     DuckDB "2024-11-07 12:33:54.123456+00"; both are parsed. A
//     timestamp with a time zone is compared at microseconds, rounded:
//     DuckDB casts TIMESTAMP_NANOS(UTC) variants to its microsecond
//     TIMESTAMPTZ, truncating the count of nanoseconds since the epoch;
//   - binary: carquet writes base64, DuckDB \xNN escapes; both are decoded.
func variantEqual(c, d any) bool {
	switch x := c.(type) {
	case json.Number:
		y, ok := d.(json.Number)
		if !ok {
			return false
		}
		rx, ok1 := new(big.Rat).SetString(string(x))
		ry, ok2 := new(big.Rat).SetString(string(y))
		if ok1 && ok2 && rx.Cmp(ry) == 0 {
			return true
		}
		fx, err1 := x.Float64()
		fy, err2 := y.Float64()
		return err1 == nil && err2 == nil && float64(float32(fx)) == fy && float64(float32(fx)) != fx
	case string:
		y, ok := d.(string)
		if !ok {
			return false
		}
		if x == y {
			return true
		}
		if tx, zx, ok := parseVariantTime(x); ok {
			if ty, zy, ok := parseVariantTime(y); ok && zx == zy {
				if zx {
					return tx.UnixNano()/1000 == ty.UnixNano()/1000
				}
				return tx.Equal(ty)
			}
		}
		if strings.HasPrefix(y, `\x`) {
			bx, err := base64.StdEncoding.DecodeString(x)
			return err == nil && bytes.Equal(bx, duckdbBlob(y))
		}
		return false
	case map[string]any:
		y, ok := d.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, ok := y[k]
			if !ok || !variantEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := d.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !variantEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return fmt.Sprint(c) == fmt.Sprint(d)
}

// parseVariantTime parses either rendering of a timestamp and reports
// whether it carried a time zone.
func parseVariantTime(s string) (time.Time, bool, bool) {
	for _, l := range []struct {
		layout string
		zone   bool
	}{
		{"2006-01-02T15:04:05.999999999Z07:00", true},
		{"2006-01-02 15:04:05.999999999Z07", true},
		{"2006-01-02T15:04:05.999999999", false},
		{"2006-01-02 15:04:05.999999999", false},
	} {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t, l.zone, true
		}
	}
	return time.Time{}, false, false
}

// duckdbBlob decodes DuckDB's text form of a BLOB (\xNN escapes and
// printable characters).
func duckdbBlob(s string) []byte {
	var out []byte
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			b, err := hex.DecodeString(s[i+2 : i+4])
			if err == nil {
				out = append(out, b[0])
				i += 3
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}

// carquetVariants reads the var column of a case file as JSON text per
// row ("" for a null variant), or the first reassembly error.
func carquetVariants(path string) ([]string, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := f.NewReader(file.ReaderOptions{Columns: []string{"var"}})
	if err != nil {
		return nil, err
	}
	var out []string
	for {
		b, err := r.Next()
		if err != nil {
			if err.Error() == "EOF" {
				return out, nil
			}
			return nil, err
		}
		for i := 0; i < b.NumRows; i++ {
			x := value.Get(b.Fields[0], b.Columns[0], i)
			if x == nil {
				out = append(out, "")
				continue
			}
			v := x.(value.Variant)
			if v.Err != nil {
				return nil, v.Err
			}
			s, err := variant.ToJSON(v.Metadata, v.Value)
			if err != nil {
				return nil, err
			}
			out = append(out, s)
		}
	}
}

// TestShreddedVariant reads the var column of every case of
// shredded_variant with carquet (value.Get reassembles the shredded
// columns) and with DuckDB (CAST(var AS JSON)), and compares the two
// renderings under the rules of variantEqual. Error cases must fail in
// carquet; DuckDB's answer for them is only logged. DuckDB is opened anew
// for every case because an internal error invalidates its database.
func TestShreddedVariant(t *testing.T) {
	dir := testdata.Dir(t, "shredded_variant")
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []variantCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, c := range cases {
		if c.ParquetFile == "" {
			continue
		}
		t.Run(c.ParquetFile, func(t *testing.T) {
			path := filepath.Join(dir, c.ParquetFile)
			cv, cerr := carquetVariants(path)
			db := openDuckDB(t)
			dv, derr := readDuckDBVariants(db, path)
			if c.ErrorMessage != "" {
				if cerr == nil {
					t.Errorf("%s: carquet read %q, want an error (%s)", c.Test, cv, c.ErrorMessage)
				}
				t.Logf("error case %q: carquet: %v; duckdb: %q %v", c.ErrorMessage, cerr, dv, firstLine(derr))
				return
			}
			if cerr != nil {
				t.Fatalf("%s: carquet: %v", c.Test, cerr)
			}
			if reason, ok := duckdbVariantDiffs[c.ParquetFile]; ok {
				t.Skipf("DuckDB reads this case differently: %s (carquet %q, duckdb %q)", reason, cv, dv)
			}
			if reason, ok := duckdbVariantGaps[c.ParquetFile]; ok {
				if derr == nil {
					t.Logf("DuckDB now reads this case (recorded: %s): update duckdbVariantGaps", reason)
				} else {
					t.Skipf("DuckDB: %s (%v)", reason, firstLine(derr))
				}
			}
			if derr != nil {
				t.Fatalf("%s: duckdb: %v", c.Test, firstLine(derr))
			}
			if len(cv) != len(dv) {
				t.Fatalf("rows: carquet %d, duckdb %d", len(cv), len(dv))
			}
			for i := range cv {
				// DuckDB 1.5 does not tell a null variant group (SQL NULL)
				// from a Variant null value: CAST(var AS JSON) gives the
				// JSON null for both, and var IS NULL is true for both.
				if cv[i] == "" {
					cv[i] = "null"
				}
				if dv[i] == "" {
					dv[i] = "null"
				}
				a, err1 := parseJSON(cv[i])
				b, err2 := parseJSON(dv[i])
				if err1 != nil || err2 != nil || !variantEqual(a, b) {
					t.Errorf("%s row %d:\n carquet %s\n duckdb  %s", c.Test, i, cv[i], dv[i])
				}
				compared++
			}
		})
	}
	t.Logf("%d variant values compared", compared)
}

func firstLine(err error) string {
	if err == nil {
		return "<nil>"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// duckdbVariantGaps are the cases DuckDB cannot read, with the reason.
var duckdbVariantGaps = map[string]string{
	"case-041.parquet": "INTERNAL Error on a shredded array without a value column (testArrayMissingValueColumn)",
	"case-088.parquet": "INTERNAL Error on an array element group without a value column (testArrayMissingElementValueColumn)",
	"case-131.parquet": "INTERNAL Error on a variant group without a value column (testMissingValueColumn)",
	"case-132.parquet": "INTERNAL Error on an object field group without a value column (testShreddedObjectMissingFieldValueColumn)",
	"case-138.parquet": "INTERNAL Error on a shredded object without a value column (testShreddedObjectMissingValueColumn)",
}

// duckdbVariantDiffs are the cases DuckDB reads differently, with the reason.
var duckdbVariantDiffs = map[string]string{
	"case-043-INVALID.parquet": "the file breaks the spec (a shredded field also present in value); the case allows either an error or the shredded value {a: null}, which carquet returns; DuckDB merges the value's copy in ({a: null, b: ...})",
}

// readDuckDBVariants reads the var column through DuckDB's VARIANT to JSON
// cast, as text per row ("" for a null variant).
func readDuckDBVariants(db *sql.DB, path string) ([]string, error) {
	rows, err := db.Query("SELECT CAST(CAST(var AS JSON) AS VARCHAR) FROM read_parquet(?)", path)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s sql.NullString
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s.String)
	}
	return out, rows.Err()
}

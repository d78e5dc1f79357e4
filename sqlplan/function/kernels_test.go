package function

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// strCol is a VARCHAR column of the given rows.
func strCol(rows ...string) *vec.Col {
	b := vec.NewBuilder(tString, len(rows))
	for _, r := range rows {
		b.Add(r)
	}
	return b.C
}

// intCol is a BIGINT column of the given rows.
func intCol(rows ...int64) *vec.Col {
	return &vec.Col{T: tInt, Len: len(rows), I: rows}
}

// floatCol is a DOUBLE column of the given rows.
func floatCol(rows ...float64) *vec.Col {
	return &vec.Col{T: tFloat, Len: len(rows), F: rows}
}

// call runs a library function's row kernel on row 0 of args.
func call(t *testing.T, name string, args ...*vec.Col) (any, error) {
	t.Helper()
	f := Scalars()[name]
	if f == nil {
		t.Fatalf("no function %s", name)
	}
	if len(args) < f.Min || f.Max >= 0 && len(args) > f.Max {
		t.Fatalf("%s takes %d..%d arguments, not %d", name, f.Min, f.Max, len(args))
	}
	return f.Row(args, 0)
}

// TestStringSimilarity: the textbook values of Jaro, Jaro-Winkler and
// the unrestricted Damerau-Levenshtein distance, and the score cutoff.
func TestStringSimilarity(t *testing.T) {
	for _, c := range []struct {
		a, b         string
		jaro, winkle float64
	}{
		{"MARTHA", "MARHTA", 0.944444, 0.961111},
		{"DIXON", "DICKSONX", 0.766667, 0.813333},
		{"abc", "", 0, 0},
		{"same", "same", 1, 1},
	} {
		if got := jaro([]byte(c.a), []byte(c.b)); math.Abs(got-c.jaro) > 1e-6 {
			t.Errorf("jaro(%q, %q) = %f, want %f", c.a, c.b, got, c.jaro)
		}
		if got := jaroWinkler([]byte(c.a), []byte(c.b)); math.Abs(got-c.winkle) > 1e-6 {
			t.Errorf("jaroWinkler(%q, %q) = %f, want %f", c.a, c.b, got, c.winkle)
		}
	}
	for _, c := range []struct {
		a, b string
		want int
	}{{"ca", "abc", 2}, {"kitten", "sitting", 3}, {"", "abc", 3}, {"ab", "ba", 1}, {"é", "e", 2}} {
		if got := damerauLevenshtein([]byte(c.a), []byte(c.b)); got != c.want {
			t.Errorf("damerauLevenshtein(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
	if got, _ := call(t, "jaro_similarity", strCol("MARTHA"), strCol("MARHTA"), floatCol(0.95)); got != 0.0 {
		t.Errorf("below the cutoff: %v", got)
	}
}

// TestBlobText: BLOB text escapes every byte but printable ASCII, and
// reads back; bad escapes and non-ASCII text are errors.
func TestBlobText(t *testing.T) {
	b := []byte{0, 'a', '\\', '\'', 0xff, '~'}
	s := vec.BlobText(b)
	if s != `\x00a\x5C\x27\xFF~` {
		t.Errorf("BlobText = %s", s)
	}
	back, err := BlobFromText(s)
	if err != nil || string(back) != string(b) {
		t.Errorf("BlobFromText(%s) = %v, %v", s, back, err)
	}
	for _, bad := range []string{`\x0`, `\xZZ`, `\y00`, "é"} {
		if _, err := BlobFromText(bad); err == nil {
			t.Errorf("BlobFromText(%q) succeeded", bad)
		}
	}
}

// TestSubstringKernels: the row and batch kernels agree, on ASCII and
// multi-byte text, with DuckDB's positions, and NULL rows stay NULL.
func TestSubstringKernels(t *testing.T) {
	s := strCol("hello", "héllo wörld", "", "hello", "hello", "x")
	start := intCol(2, 2, 1, -10, 0, 1)
	n := intCol(3, 5, 2, 8, 2, 1)
	n.SetNull(5)
	want := []string{"ell", "éllo ", "", "hel", "h", ""}
	out, err := substringVec([]*vec.Col{s, start, n}, s.Len)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if i == 5 {
			if !out.IsNull(i) {
				t.Errorf("row %d: not NULL", i)
			}
			continue
		}
		row, err := substringRow([]*vec.Col{s, start, n}, i)
		if err != nil || row != w || string(out.Str(i)) != w {
			t.Errorf("row %d: row kernel %q (%v), batch %q, want %q", i, row, err, out.Str(i), w)
		}
	}
	if _, err := substringVec([]*vec.Col{strCol("a"), intCol(1 << 40)}, 1); err == nil || !strings.Contains(err.Error(), "substring") {
		t.Errorf("an offset past 32 bits: %v", err)
	}
}

// TestBarAndToBase: bar's width and its errors; to_base's digits,
// padding and bounds.
func TestBarAndToBase(t *testing.T) {
	got, err := call(t, "bar", floatCol(5), floatCol(0), floatCol(10), floatCol(4))
	if err != nil || got != "██  " {
		t.Errorf("bar(5, 0, 10, 4) = %q, %v", got, err)
	}
	if _, err := call(t, "bar", floatCol(5), floatCol(0), floatCol(10), floatCol(0.5)); err == nil {
		t.Error("bar of width 0.5 succeeded")
	}
	got, err = call(t, "to_base", intCol(255), intCol(16), intCol(4))
	if err != nil || got != "00FF" {
		t.Errorf("to_base(255, 16, 4) = %v, %v", got, err)
	}
	for _, args := range [][]*vec.Col{{intCol(-1), intCol(2)}, {intCol(1), intCol(37)}, {intCol(1), intCol(2), intCol(65)}} {
		if _, err := call(t, "to_base", args...); err == nil {
			t.Errorf("to_base(%d, %d) succeeded", args[0].I[0], args[1].I[0])
		}
	}
}

// TestTypeRules: fixed signatures cast their arguments; nextafter keeps
// FLOAT for two FLOATs (and casts to DOUBLE otherwise, the one cast
// type repeating); to_base refuses fractional numbers.
func TestTypeRules(t *testing.T) {
	f32 := vec.Type{Kind: vec.KFloat, Float32: true}
	casts, res, err := Scalars()["nextafter"].Rule([]vec.Type{f32, f32})
	if err != nil || casts != nil || !reflect.DeepEqual(res, f32) {
		t.Errorf("nextafter(FLOAT, FLOAT): %v %v %v", casts, res, err)
	}
	casts, res, err = Scalars()["nextafter"].Rule([]vec.Type{f32, tInt})
	if err != nil || len(casts) != 1 || !reflect.DeepEqual(casts[0], tFloat) || !reflect.DeepEqual(res, tFloat) {
		t.Errorf("nextafter(FLOAT, BIGINT): %v %v %v", casts, res, err)
	}
	if _, _, err := Scalars()["to_base"].Rule([]vec.Type{tFloat, tInt}); err == nil {
		t.Error("to_base(DOUBLE, BIGINT) typed")
	}
}

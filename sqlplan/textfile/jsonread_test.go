package textfile_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/sqlplan"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_json on bad input: every file gives rows or an error that names
// the file (and the line of a newline-delimited one), never a panic or a
// hang; nesting is bounded before a document is parsed, and a line is
// held to maximum_object_size however long it is. These run SQL on an
// engine (package sqlplan binds read_json and reads nested values as
// json_transform does), hence an external test package.

// jsonEngine opens an engine on a folder holding files (name → content).
func jsonEngine(t testing.TB, files map[string][]byte) (*sqlplan.Engine, string) {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := sqlplan.Open(dir, sqlplan.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, dir
}

// jsonRun runs q to its end and returns how many rows it gave, or its
// error; a run past its deadline (a hang) ends with the context's error.
func jsonRun(e *sqlplan.Engine, q string) (int, error) {
	n, _, err := jsonQuery(e, q)
	return n, err
}

// jsonQuery runs q to its end and returns its rows, as jsonRun, and
// their text: a line each, the values tab separated.
func jsonQuery(e *sqlplan.Engine, q string) (int, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	st, err := e.Prepare(q)
	if err != nil {
		return 0, "", err
	}
	rows, err := st.Query(ctx, nil)
	if err != nil {
		return 0, "", err
	}
	defer rows.Close()
	n := 0
	var text strings.Builder
	for {
		b, err := rows.Next()
		if err == io.EOF {
			return n, text.String(), nil
		}
		if err != nil {
			return n, text.String(), err
		}
		for r := range b.N {
			for k, c := range b.Cols {
				if k > 0 {
					text.WriteByte('\t')
				}
				text.WriteString(vec.ScalarText(c.T, c.Get(r)))
			}
			text.WriteByte('\n')
		}
		n += b.N
	}
}

func TestReadJSONMalformed(t *testing.T) {
	cases := map[string]string{
		"truncated.json":  `{"a": 1}` + "\n" + `{"a": `,
		"string.json":     `{"a": "never ends}`,
		"garbage.json":    "\x00\xff\xfe{]",
		"missing.json":    `{"a": }`,
		"twice.json":      `{"a": 1} {"a": 2} ]`,
		"array.json":      `[{"a": 1}, {"a": 2},`,
		"badarray.json":   `[{"a": 1} {"a": 2}]`,
		"unicode.json":    `{"a": "\ud800\u12"}`,
		"number.json":     `{"a": 1e999999}` + "\n" + `{"a": -}`,
		"third.json":      "{\"a\": 1}\n{\"a\": 2}\n{\"a\" 3}\n",
		"notgzip.json.gz": "not gzip at all",
	}
	files := map[string][]byte{}
	for name, body := range cases {
		files[name] = []byte(body)
	}
	e, _ := jsonEngine(t, files)
	for name := range cases {
		for _, format := range []string{"auto", "newline_delimited", "array", "unstructured"} {
			_, err := jsonRun(e, "SELECT * FROM read_json('"+name+"', format='"+format+"')")
			if err == nil {
				t.Errorf("%s (%s): no error", name, format)
				continue
			}
			if strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), name) {
				t.Errorf("%s (%s): the error does not name the file: %v", name, format, err)
			}
		}
	}
	_, err := jsonRun(e, "SELECT * FROM read_json('third.json')")
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("third.json: want an error at line 3, got %v", err)
	}
}

func TestReadJSONDeep(t *testing.T) {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	obj := strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000)
	e, _ := jsonEngine(t, map[string][]byte{
		"deep.json":  []byte(deep + "\n"),
		"deep2.json": []byte("[" + deep + "]"),
		"obj.json":   []byte(obj + "\n"),
		"fine.json":  []byte(strings.Repeat(`{"a":`, 50) + "1" + strings.Repeat("}", 50) + "\n"),
	})
	for _, name := range []string{"deep.json", "deep2.json", "obj.json"} {
		_, err := jsonRun(e, "SELECT * FROM read_json('"+name+"')")
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: want an error naming the file, got %v", name, err)
		}
	}
	if n, err := jsonRun(e, "SELECT * FROM read_json('fine.json')"); err != nil || n != 1 {
		t.Errorf("fine.json: %d rows, %v", n, err)
	}
}

func TestReadJSONMaximumObjectSize(t *testing.T) {
	long := `{"a": "` + strings.Repeat("x", 3<<20) + `"}` + "\n"
	e, _ := jsonEngine(t, map[string][]byte{"long.json": []byte(long + `{"a": "y"}` + "\n")})
	_, err := jsonRun(e, "SELECT * FROM read_json('long.json', maximum_object_size=1048576)")
	if err == nil || !strings.Contains(err.Error(), "maximum_object_size") || !strings.Contains(err.Error(), "long.json") {
		t.Errorf("want the maximum_object_size error naming the file, got %v", err)
	}
	if n, err := jsonRun(e, "SELECT length(a) FROM read_json('long.json')"); err != nil || n != 2 {
		t.Errorf("the default size reads the line: %d rows, %v", n, err)
	}
}

// TestReadJSONBatches reads more rows than a batch holds, from a gzip
// file, and checks the values came through the typed vectors.
func TestReadJSONBatches(t *testing.T) {
	var raw bytes.Buffer
	for i := range 5000 {
		raw.WriteString(`{"i": ` + strconv.Itoa(i) + `, "s": "v` + strconv.Itoa(i%7) + `", "f": 0.5}` + "\n")
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(raw.Bytes())
	zw.Close()
	e, _ := jsonEngine(t, map[string][]byte{"many.json.gz": z.Bytes()})
	_, got, err := jsonQuery(e, "SELECT count(*), sum(i), count(DISTINCT s), sum(f) FROM 'many.json.gz'")
	if want := "5000\t12497500\t7\t2500.0\n"; err != nil || got != want {
		t.Errorf("got %q (%v), want %q", got, err, want)
	}
}

// FuzzJSONFileReader reads arbitrary bytes as a JSON file in each format:
// rows or an error, never a panic or a hang.
func FuzzJSONFileReader(f *testing.F) {
	for _, s := range []string{
		`{"a": 1, "b": "x"}` + "\n" + `{"a": 2.5, "c": [1, {"d": null}]}`,
		`[{"a": 1}, {"a": "2024-01-02"}]`, `{"a": 1}{"a": 2}`, "[1, 2]\n[3]\n", `{"a": {"b": {"c": []}}}`,
		`{"t": "2024-01-02 03:04:05", "u": "6ba7b810-9dad-11d1-80b4-00c04fd430c8", "h": 18446744073709551615}`,
		`{"a": 1`, "\xff", `{"a": "\u00e9\ud83d\ude00"}`, "",
	} {
		f.Add([]byte(s))
	}
	e, dir := jsonEngine(f, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "f.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"SELECT * FROM read_json('f.json')",
			"SELECT * FROM read_json('f.json', format='newline_delimited', ignore_errors=true)",
			"SELECT * FROM read_json('f.json', format='array', maximum_depth=2)",
			"SELECT * FROM read_json('f.json', format='unstructured', records=false)",
			"SELECT * FROM read_json_objects('f.json')",
		} {
			_, err := jsonRun(e, q)
			if err != nil && (strings.Contains(err.Error(), "internal error") || errors.Is(err, context.DeadlineExceeded)) {
				t.Fatalf("%s: %v", q, err)
			}
		}
	})
}

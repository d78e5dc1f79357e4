package textfile

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_csv and its sniffer on small files; the expected types and values
// are DuckDB 1.5's for the same files (sqltests/sql/duckdb_csv.test runs
// more against DuckDB itself, through SQL).

// writeFiles writes files (name → content) to a new folder.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// testTypeName reads a plain type name, as the engine's parser would
// for the names these tests use.
func testTypeName(text string) (vec.Type, error) {
	return function.ParseTypeName(strings.ToUpper(text), nil)
}

// csvCall is read_csv(pattern, opts...) over the files of dir, each
// option "name=value" with its value as SQL text; the pattern is a glob.
func csvCall(dir, pattern string, opts ...string) (*CSVSpec, []string, []string, error) {
	q := url.Values{"fn": {"read_csv"}, "path": {pattern}}
	for _, o := range opts {
		name, val, _ := strings.Cut(o, "=")
		q.Add("o", name)
		q.Add("v", val)
	}
	spec, err := ReadCSVSpec(q, testTypeName)
	if err != nil {
		return nil, nil, nil, err
	}
	paths, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(paths) == 0 {
		return nil, nil, nil, fmt.Errorf("%s: no file (%v)", pattern, err)
	}
	sort.Strings(paths)
	shown := make([]string, len(paths))
	for i, p := range paths {
		shown[i] = filepath.Base(p)
	}
	return spec, shown, paths, nil
}

// readCSV plans read_csv(pattern, opts...) and reads it to its end: the
// columns as "name TYPE, ..." and the rows, a line each, tab separated.
func readCSV(dir, pattern string, opts ...string) (cols, rows string, err error) {
	spec, shown, paths, err := csvCall(dir, pattern, opts...)
	if err != nil {
		return "", "", err
	}
	scan, columns, err := spec.Plan(shown, paths)
	if err != nil {
		return "", "", err
	}
	defer scan.Close()
	var names []string
	for _, c := range columns {
		names = append(names, c.Name+" "+c.Type.SQLName())
	}
	text, err := drainText(scan)
	return strings.Join(names, ", "), text, err
}

// drainText reads a scan to its end, each row as its values' texts.
func drainText(scan Scan) (string, error) {
	var out strings.Builder
	for {
		b, err := scan.Next(context.Background())
		if errors.Is(err, io.EOF) {
			return out.String(), nil
		}
		if err != nil {
			return out.String(), err
		}
		for r := 0; r < b.N; r++ {
			for k, c := range b.Cols {
				if k > 0 {
					out.WriteByte('\t')
				}
				if v := c.Get(r); v == nil {
					out.WriteString("NULL")
				} else {
					out.WriteString(vec.ScalarText(c.T, v))
				}
			}
			out.WriteByte('\n')
		}
	}
}

func TestCSVSniffTypesAndHeader(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"h.csv":     "a,b,c\n1,x,2.5\n2,y,3\n",
		"nh.csv":    "1,x,2.5\n2,y,3\n",
		"semi.csv":  "a;b\n1;\"x;y\"\n2;\"multi\nline\"\n",
		"tab.tsv":   "a\tb\n1\ttrue\n2\tFALSE\n",
		"crlf.csv":  "a,b\r\n1,\r\n,z\r\n\r\n",
		"dt.csv":    "d,t,tm\n2024-01-02,2024-01-02 10:00:00,12:30:00\n2023-12-31,2023-12-31 23:59:59.5,01:02:03\n",
		"bits.csv":  "x,y\n1,0\n0,1\n",
		"text.csv":  "a,b\nx,y\n",
		"nulls.csv": "a,\nx,y\n",
		"late.csv":  "q\n1\n2\nabc\n",
		"dup.csv":   "a,a,b\n1,2,3\n",
	})
	for _, c := range []struct{ file, want string }{
		{"h.csv", "a BIGINT, b VARCHAR, c DOUBLE"},
		// 2.5 is no BIGINT, as the column below it: a header.
		{"nh.csv", "1 BIGINT, x VARCHAR, 2.5 BIGINT"},
		{"semi.csv", "a BIGINT, b VARCHAR"},
		{"tab.tsv", "a BIGINT, b BOOLEAN"},
		{"crlf.csv", "a BIGINT, b VARCHAR"},
		{"dt.csv", "d DATE, t TIMESTAMP, tm TIME"},
		{"bits.csv", "x BIGINT, y BIGINT"},
		{"text.csv", "a VARCHAR, b VARCHAR"},
		// Every column VARCHAR with a NULL in the first line: no header.
		{"nulls.csv", "column0 VARCHAR, column1 VARCHAR"},
		{"late.csv", "q VARCHAR"},
		{"dup.csv", "a BIGINT, a_1 BIGINT, b BIGINT"},
	} {
		got, _, err := readCSV(dir, c.file)
		if err != nil || got != c.want {
			t.Errorf("%s: got %s (%v), want %s", c.file, got, err, c.want)
		}
	}
	for _, c := range []struct{ file, want string }{
		{"semi.csv", "1\tx;y\n2\tmulti\nline\n"},
		{"crlf.csv", "1\tNULL\nNULL\tz\n"},
		{"dt.csv", "2024-01-02\t2024-01-02 10:00:00\t12:30:00\n2023-12-31\t2023-12-31 23:59:59.5\t01:02:03\n"},
	} {
		if _, rows, err := readCSV(dir, c.file); err != nil || rows != c.want {
			t.Errorf("%s: got %q (%v), want %q", c.file, rows, err, c.want)
		}
	}
}

func TestCSVReadOptions(t *testing.T) {
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("a|b\n1|NA\n2|x\n"))
	z.Close()
	dir := writeFiles(t, map[string]string{
		"p.csv":    "junk line\na|b\n1|NA\n2|x\n",
		"z.csv.gz": gz.String(),
		"d.csv":    "day,at\n02/01/2024,2024/01/02 10:30\n",
		"u1.csv":   "a,b\n1,x\n",
		"u2.csv":   "b,c\ny,2.5\n",
	})
	for _, c := range []struct {
		file       string
		opts       []string
		cols, rows string
	}{
		{"p.csv", []string{"skip=1", "delim='|'", "nullstr='NA'"}, "a BIGINT, b VARCHAR", "1\tNULL\n2\tx\n"},
		{"p.csv", []string{"skip=2", "header=false", "names=['n','v']", "columns={'n': 'INTEGER', 'v': 'VARCHAR'}"}, "n INTEGER, v VARCHAR", "1\tNA\n2\tx\n"},
		{"z.csv.gz", nil, "a BIGINT, b VARCHAR", "1\tNA\n2\tx\n"},
		{"z.csv.gz", []string{"compression='gzip'", "delim='|'"}, "a BIGINT, b VARCHAR", "1\tNA\n2\tx\n"},
		{"d.csv", []string{"dateformat='%d/%m/%Y'", "timestampformat='%Y/%m/%d %H:%M'"}, "day DATE, at TIMESTAMP", "2024-01-02\t2024-01-02 10:30:00\n"},
		{"u*.csv", []string{"union_by_name=true", "filename=true"}, "a BIGINT, b VARCHAR, c DOUBLE, filename VARCHAR", "1\tx\tNULL\tu1.csv\nNULL\ty\t2.5\tu2.csv\n"},
		{"p.csv", []string{"skip=1", "all_varchar=true", "sample_size=1"}, "a VARCHAR, b VARCHAR", "1\tNA\n2\tx\n"},
		{"p.csv", []string{"skip=1", "types=['VARCHAR']"}, "a VARCHAR, b VARCHAR", "1\tNA\n2\tx\n"},
		{"p.csv", []string{"skip=1", "types={'a': 'DOUBLE'}"}, "a DOUBLE, b VARCHAR", "1.0\tNA\n2.0\tx\n"},
	} {
		cols, rows, err := readCSV(dir, c.file, c.opts...)
		if err != nil || cols != c.cols || rows != c.rows {
			t.Errorf("%s %v: got %s / %q (%v), want %s / %q", c.file, c.opts, cols, rows, err, c.cols, c.rows)
		}
	}
}

func TestCSVReadErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"ragged.csv": "a,b\n1,2\n3\n",
		"conv.csv":   "a,b\n1,2\n3,x\n",
		"open.csv":   "a,b\n1,\"x\n",
		"bad.csv.gz": "not gzip",
	})
	for _, c := range []struct {
		file string
		opts []string
		want string
	}{
		{"ragged.csv", []string{"auto_detect=false", "header=true", "columns={'a': 'INT', 'b': 'INT'}"}, "CSV Error on Line: 3 (file ragged.csv): Expected Number of Columns: 2 Found: 1"},
		{"conv.csv", []string{"columns={'a': 'BIGINT', 'b': 'BIGINT'}", "header=true"}, `Line: 3 (file conv.csv): Error when converting column "b". Could not convert string "x" to 'BIGINT'`},
		{"open.csv", []string{"auto_detect=false", "header=true", "columns={'a': 'INT', 'b': 'VARCHAR'}"}, "open.csv: line 2: a quoted field does not end"},
		{"conv.csv", []string{"speed=3"}, "option speed is not supported"},
		{"conv.csv", []string{"delim=',,'"}, "option delim takes one character"},
		{"conv.csv", []string{"delim='|'", "quote='|'"}, "the delimiter and the quote must differ"},
		{"ragged.csv", []string{"delim=','"}, "not possible to automatically detect the CSV parsing dialect"},
		{"bad.csv.gz", nil, "bad.csv.gz: not a gzip file"},
	} {
		_, _, err := readCSV(dir, c.file, c.opts...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: got %v, want %q", c.file, c.opts, err, c.want)
		}
	}
	_, rows, err := readCSV(dir, "conv.csv", "columns={'a': 'BIGINT', 'b': 'BIGINT'}", "header=true", "ignore_errors=true")
	if err != nil || rows != "1\t2\n" {
		t.Errorf("ignore_errors: got %q, %v", rows, err)
	}
}

// TestCSVSniff checks sniff_csv's row: the dialect found and the call
// that reads the file so.
func TestCSVSniff(t *testing.T) {
	dir := writeFiles(t, map[string]string{"s.csv": "id;day\n1;02/01/2024\n2;13/01/2024\n"})
	spec, shown, paths, err := csvCall(dir, "s.csv", "sample_size=10")
	if err != nil {
		t.Fatal(err)
	}
	sn, err := spec.Sniff(paths[0], shown[0])
	if err != nil {
		t.Fatal(err)
	}
	want := CSVSniff{Delimiter: ";", Quote: "", Escape: "", Comment: "", HasHeader: true, DateFormat: "%d/%m/%Y", UserArguments: "sample_size=10",
		Prompt: `FROM read_csv('s.csv', auto_detect=false, delim=';', quote='', escape='', new_line='\n', skip=0, comment='', header=true, columns={'id': 'BIGINT', 'day': 'DATE'}, dateformat='%d/%m/%Y');`}
	cols := sn.Columns
	sn.Columns = nil
	if !reflect.DeepEqual(*sn, want) || len(cols) != 2 || cols[1].Type.Kind != vec.KDate {
		t.Errorf("got %+v, want %+v", *sn, want)
	}
}

// FuzzCSVRead reads arbitrary bytes as a CSV file through the sniffer
// and the reader: an error is fine, a panic or a hang is not.
func FuzzCSVRead(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"x\n", "a;b\r\n\"1;\"\"\";2\r\n", "1\n2\nx\n", "\"\"\"", ",,,\n,\n", "a\tb\n2024-01-01\t12:00:00\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "f.csv"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		readCSV(dir, "f.csv")
	})
}

// BenchmarkReadCSV sniffs and reads a 100,000-row file of four columns
// (BIGINT, VARCHAR, DOUBLE, DATE) into typed vectors.
func BenchmarkReadCSV(b *testing.B) {
	var text strings.Builder
	text.WriteString("id,name,score,day\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&text, "%d,name_%d,%d.%03d,2024-%02d-%02d\n", i, i%977, i%1000, i%997, i%12+1, i%28+1)
	}
	dir := writeFiles(b, map[string]string{"b.csv": text.String()})
	spec, shown, paths, err := csvCall(dir, "b.csv")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		scan, _, err := spec.Plan(shown, paths)
		if err != nil {
			b.Fatal(err)
		}
		rows := 0
		for {
			batch, err := scan.Next(context.Background())
			if err != nil {
				break
			}
			rows += batch.N
		}
		scan.Close()
		if rows != 100000 {
			b.Fatalf("%d rows", rows)
		}
	}
}

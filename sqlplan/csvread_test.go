package sqlplan

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// read_csv and its sniffer on small files; the expected types and values
// are DuckDB 1.5's for the same files (sqltests/sql/duckdb_csv.test runs
// more against DuckDB itself).

// csvEngine opens an engine on a folder holding the files given.
func csvEngine(t *testing.T, files map[string]string) *Engine {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestCSVSniffTypesAndHeader(t *testing.T) {
	e := csvEngine(t, map[string]string{
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
		rows := queryAll(t, e, "DESCRIBE SELECT * FROM '"+c.file+"'")
		var got []string
		for _, r := range rows {
			got = append(got, r[0].(string)+" "+r[1].(string))
		}
		if g := strings.Join(got, ", "); g != c.want {
			t.Errorf("%s: got %s, want %s", c.file, g, c.want)
		}
	}
	checkRows(t, e, "SELECT * FROM 'semi.csv'", "1\tx;y\n2\tmulti\nline\n")
	checkRows(t, e, "SELECT a, b IS NULL FROM 'crlf.csv'", "1\ttrue\nNULL\tfalse\n")
}

func TestCSVReadOptions(t *testing.T) {
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("a|b\n1|NA\n2|x\n"))
	z.Close()
	e := csvEngine(t, map[string]string{
		"p.csv":    "junk line\na|b\n1|NA\n2|x\n",
		"z.csv.gz": gz.String(),
		"d.csv":    "day,at\n02/01/2024,2024/01/02 10:30\n",
		"u1.csv":   "a,b\n1,x\n",
		"u2.csv":   "b,c\ny,2.5\n",
	})
	checkRows(t, e, "SELECT * FROM read_csv('p.csv', skip=1, delim='|', nullstr='NA')", "1\tNULL\n2\tx\n")
	checkRows(t, e, "SELECT * FROM read_csv('p.csv', skip=2, header=false, names=['n','v'], columns={'n': 'INTEGER', 'v': 'VARCHAR'})", "1\tNA\n2\tx\n")
	checkRows(t, e, "SELECT * FROM 'z.csv.gz'", "1\tNA\n2\tx\n")
	checkRows(t, e, "SELECT typeof(day), day, at FROM read_csv('d.csv', dateformat='%d/%m/%Y', timestampformat='%Y/%m/%d %H:%M')", "DATE\t2024-01-02 00:00:00 +0000 UTC\t2024-01-02 10:30:00 +0000 UTC\n")
	checkRows(t, e, "SELECT a, b, c, filename FROM read_csv('u*.csv', union_by_name=true, filename=true) ORDER BY b", "1\tx\tNULL\t./u1.csv\nNULL\ty\t2.5\t./u2.csv\n")
	checkRows(t, e, "SELECT * FROM read_csv_auto('p.csv', skip=1, all_varchar=true, sample_size=1)", "1\tNA\n2\tx\n")
}

func TestCSVReadErrors(t *testing.T) {
	e := csvEngine(t, map[string]string{
		"ragged.csv": "a,b\n1,2\n3\n",
		"conv.csv":   "a,b\n1,2\n3,x\n",
		"open.csv":   "a,b\n1,\"x\n",
	})
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM read_csv('ragged.csv', auto_detect=false, header=true, columns={'a': 'INT', 'b': 'INT'})", "CSV Error on Line: 3 (file ragged.csv): Expected Number of Columns: 2 Found: 1"},
		{"SELECT * FROM read_csv('conv.csv', columns={'a': 'BIGINT', 'b': 'BIGINT'}, header=true)", `Line: 3 (file conv.csv): Error when converting column "b". Could not convert string "x" to 'BIGINT'`},
		{"SELECT * FROM read_csv('open.csv', auto_detect=false, header=true, columns={'a': 'INT', 'b': 'VARCHAR'})", "open.csv: line 2: a quoted field does not end"},
		{"SELECT * FROM 'missing.csv'", `No files found that match the pattern "missing.csv"`},
		{"SELECT * FROM read_csv('conv.csv', speed=3)", "option speed is not supported"},
		{"SELECT * FROM read_csv('conv.csv', delim=',,')", "option delim takes one character"},
	} {
		err := metaErr(e, c.q)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.q, err, c.want)
		}
	}
	if err := metaErr(e, "SELECT * FROM read_csv('ragged.csv', delim=',')"); err == nil || !strings.Contains(err.Error(), "not possible to automatically detect the CSV parsing dialect") {
		t.Errorf("a ragged file's sniffing: got %v", err)
	}
	checkRows(t, e, "SELECT * FROM read_csv('conv.csv', columns={'a': 'BIGINT', 'b': 'BIGINT'}, header=true, ignore_errors=true)", "1\t2\n")
}

// FuzzCSVRead reads arbitrary bytes as a CSV file through the sniffer
// and the reader: an error is fine, a panic or a hang is not.
func FuzzCSVRead(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "\"x\n", "a;b\r\n\"1;\"\"\";2\r\n", "1\n2\nx\n", "\"\"\"", ",,,\n,\n", "a\tb\n2024-01-01\t12:00:00\n"} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		f.Fatal(err)
	}
	defer e.Close()
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "f.csv"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		rows, err := mustQuery(e, "SELECT * FROM 'f.csv'")
		if err != nil {
			return
		}
		defer rows.Close()
		for {
			if _, err := rows.Next(); err != nil {
				return
			}
		}
	})
}

// Dates and timestamps that are not ISO: the sniffer's formats, the last
// one that reads every value (DuckDB's answers for the same files).
func TestCSVSniffDateFormats(t *testing.T) {
	files := map[string]string{}
	cases := []struct{ value, format, typ, text string }{
		{"02/01/2024", "%d/%m/%Y", "DATE", "2024-01-02"},
		{"12/31/2023", "%m/%d/%Y", "DATE", "2023-12-31"},
		{"2024/01/02", "%Y/%m/%d", "DATE", "2024-01-02"},
		{"02-01-24", "%y-%m-%d", "DATE", "2002-01-24"},
		{"13.01.2024", "%d.%m.%Y", "DATE", "2024-01-13"},
		{"01/02/2024 10:00:00", "%d/%m/%Y %H:%M:%S", "TIMESTAMP", "2024-02-01 10:00:00"},
		{"01/02/2024 10:00:00 PM", "%m/%d/%Y %I:%M:%S %p", "TIMESTAMP", "2024-01-02 22:00:00"},
		// carquet's typeof names it TIMESTAMPTZ (DuckDB's TIMESTAMP WITH TIME ZONE).
		{"2024-01-02 10:00:00+02", "", "TIMESTAMPTZ", "2024-01-02 08:00:00+00"},
		{"20240102T100000Z", "", "VARCHAR", "20240102T100000Z"},
	}
	for i, c := range cases {
		files[string(rune('a'+i))+".csv"] = "d\n" + c.value + "\n"
	}
	e := csvEngine(t, files)
	for i, c := range cases {
		name := string(rune('a'+i)) + ".csv"
		got := queryAll(t, e, "SELECT coalesce(DateFormat, TimestampFormat, ''), (SELECT typeof(d) FROM '"+name+"'), (SELECT CAST(d AS VARCHAR) FROM '"+name+"') FROM sniff_csv('"+name+"')")
		if len(got) != 1 || got[0][0] != c.format || got[0][1] != c.typ || got[0][2] != c.text {
			t.Errorf("%s: got %v, want %s %s %s", c.value, got, c.format, c.typ, c.text)
		}
	}
}

// BenchmarkReadCSV sniffs and reads a 100,000-row file of four columns
// (BIGINT, VARCHAR, DOUBLE, DATE) through read_csv, aggregating each.
func BenchmarkReadCSV(b *testing.B) {
	var text strings.Builder
	text.WriteString("id,name,score,day\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&text, "%d,name_%d,%d.%03d,2024-%02d-%02d\n", i, i%977, i%1000, i%997, i%12+1, i%28+1)
	}
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "b.csv"), []byte(text.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	e, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.SetBytes(int64(text.Len()))
	for b.Loop() {
		rows, err := mustQuery(e, "SELECT sum(id), max(name), sum(score), max(day) FROM 'b.csv'")
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := rows.Next(); err != nil {
				break
			}
		}
		rows.Close()
	}
}

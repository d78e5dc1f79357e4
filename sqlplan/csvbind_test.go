package sqlplan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The binding of read_csv and sniff_csv (package textfile reads the
// files and has the reader's own tests): through SQL, as DuckDB 1.5
// answers for the same files.

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

func TestCSVBinding(t *testing.T) {
	e := csvEngine(t, map[string]string{"h.csv": "a,b\n1,x\n2,y\n"})
	checkRows(t, e, "SELECT b, a FROM 'h.csv' WHERE a > 1", "y\t2\n")
	checkRows(t, e, "SELECT t.a FROM read_csv_auto('h.csv') AS t ORDER BY 1 DESC", "2\n1\n")
	if err := metaErr(e, "SELECT * FROM 'missing.csv'"); err == nil || !strings.Contains(err.Error(), `No files found that match the pattern "missing.csv"`) {
		t.Errorf("a missing file: got %v", err)
	}
	rows := queryAll(t, e, "EXPLAIN SELECT * FROM 'h.csv'")
	if len(rows) == 0 || !strings.Contains(metaRowsText(rows), "READ_CSV") {
		t.Errorf("EXPLAIN does not show the scan: %v", rows)
	}
}

// Dates and timestamps that are not ISO: the sniffer's formats, the last
// one that reads every value, as sniff_csv shows them and typeof sees
// them (DuckDB's answers for the same files).
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
		{"2024-01-02 10:00:00+02", "", "TIMESTAMP WITH TIME ZONE", "2024-01-02 08:00:00+00"},
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

package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopyFromCSV: COPY t FROM 'file.csv' reads DuckDB's CSV dialect —
// quoted fields with line ends and doubled quotes, an escape character,
// CRLF lines, empty lines, NULL as an unquoted empty field and a quoted
// one as NULL or the empty string (ALLOW_QUOTED_NULLS), FORCE_NOT_NULL — and refuses a
// malformed file with its path and line.
func TestCopyFromCSV(t *testing.T) {
	root := t.TempDir()
	db, err := OpenDB(Config{Path: root, Threads: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exec := func(q string) error {
		_, err := db.Exec(q)
		return err
	}
	load := func(file, opts string, want ...string) {
		t.Helper()
		for _, q := range []string{"CREATE OR REPLACE TABLE c (i INTEGER, s VARCHAR)", "COPY c FROM '" + file + "' " + opts} {
			if err := exec(q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		got := queryStrings(t, db, "SELECT i, s, s IS NULL FROM c ORDER BY i")
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s %s:\n got %q\nwant %q", file, opts, got, want)
		}
	}
	write("a.csv", "i,s\r\n1,\"x, \"\"y\"\"\"\r\n2,\r\n\r\n3,\"\"\r\n4,\"two\nlines\"\r\n5, sp \r\n")
	load("a.csv", "", "1|x, \"y\"|false", "2|NULL|true", "3|NULL|true", "4|two\nlines|false", "5| sp |false")
	load("a.csv", "(ALLOW_QUOTED_NULLS false)", "1|x, \"y\"|false", "2|NULL|true", "3||false", "4|two\nlines|false", "5| sp |false")
	load("a.csv", "(FORCE_NOT_NULL s)", "1|x, \"y\"|false", "2||false", "3||false", "4|two\nlines|false", "5| sp |false")
	// No line end at the end of the file; another dialect.
	write("b.txt", "1;'it\\'s; \\\\'\n2;")
	load("b.txt", "(FORMAT csv, DELIMITER ';', QUOTE '''', ESCAPE '\\', HEADER 0)", "1|it's; \\|false", "2|NULL|true")

	for _, bad := range []struct{ text, opts, err string }{
		{"i,s\n1,\"open\n", "", "bad.csv: line 2: a quoted field does not end"},
		{"i,s\n1,\"x\"y\n", "", "bad.csv: line 2: 'y' after a closing quote"},
		{"i,s\n1,a,b\n", "", "bad.csv: line 2: more fields than the table's 2 columns"},
		{"i,s\n1\n", "", "bad.csv: line 2: 1 fields, the table has 2 columns"},
		{"i,s\nx,a\n", "", "x"},
		{"", "(DELIMITER ',,')", "expected one character"},
		{"", "(DELIMITER '\"')", "must differ"},
	} {
		write("bad.csv", bad.text)
		err := exec("COPY c FROM 'bad.csv' " + bad.opts)
		if err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("%q %s: error %v, want one containing %q", bad.text, bad.opts, err, bad.err)
		}
	}
	// A failed COPY wrote nothing.
	if got := queryStrings(t, db, "SELECT count(*) FROM c"); got[0] != "2" {
		t.Fatalf("after the failed COPYs: %v rows, want 2", got)
	}
	if err := exec("COPY c FROM 'missing.csv'"); err == nil || !strings.Contains(err.Error(), "missing.csv") {
		t.Fatalf("a missing file: %v", err)
	}
}

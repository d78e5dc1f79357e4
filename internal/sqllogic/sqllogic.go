// Package sqllogic runs the SQL test files of sqltests/sql (a
// sqllogictest dialect, described in sqltests/sql/README.md) through
// database/sql: the driver's tests run them against carquet, the sqltests
// module against DuckDB to check the expectations themselves.
package sqllogic

import (
	"bufio"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Record is one statement or query of a test file.
type Record struct {
	line     int
	kind     string // "statement" or "query"
	wantErr  bool
	errText  string
	types    string
	sortMode string
	sql      string
	expected []string
}

// Parse reads a test file, keeping the records that apply to
// engine.
func Parse(path, engine string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	var out []Record
	skip := false
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		fields := strings.Fields(l)
		switch fields[0] {
		case "onlyif":
			skip = skip || len(fields) < 2 || fields[1] != engine
			continue
		case "skipif":
			skip = skip || len(fields) > 1 && fields[1] == engine
			continue
		case "statement", "query":
		default:
			return nil, fmt.Errorf("%s:%d: unexpected %q", path, i+1, l)
		}
		rec := Record{line: i + 1, kind: fields[0]}
		if fields[0] == "statement" {
			if len(fields) < 2 || fields[1] != "ok" && fields[1] != "error" {
				return nil, fmt.Errorf("%s:%d: statement ok|error", path, i+1)
			}
			rec.wantErr = fields[1] == "error"
			if rec.wantErr {
				rec.errText = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(l, "statement")), "error"))
			}
		} else {
			if len(fields) < 2 {
				return nil, fmt.Errorf("%s:%d: query needs column types", path, i+1)
			}
			rec.types = fields[1]
			rec.sortMode = "nosort"
			if len(fields) > 2 {
				rec.sortMode = fields[2]
			}
		}
		var sqlLines []string
		i++
		for ; i < len(lines) && strings.TrimSpace(lines[i]) != "" && lines[i] != "----"; i++ {
			sqlLines = append(sqlLines, lines[i])
		}
		rec.sql = strings.Join(sqlLines, "\n")
		if i < len(lines) && lines[i] == "----" {
			for i++; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
				rec.expected = append(rec.expected, lines[i])
			}
		}
		if !skip {
			out = append(out, rec)
		}
		skip = false
	}
	return out, nil
}

// formatValue renders a scanned value for comparison. typeName is
// the column's DatabaseTypeName.
func formatValue(v any, typ byte, typeName string) string {
	if v == nil {
		return "NULL"
	}
	switch x := v.(type) {
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []byte:
		if typeName == "UUID" && len(x) == 16 {
			return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16])
		}
		return formatValue(string(x), typ, typeName)
	case string:
		if typ == 'R' || typ == 'I' {
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return formatValue(f, typ, typeName)
			}
		}
		if x == "" {
			return "(empty)"
		}
		if strings.HasPrefix(typeName, "DECIMAL") && strings.Contains(x, ".") {
			// Engines differ in trailing zeros; compare decimal values.
			x = strings.TrimRight(strings.TrimRight(x, "0"), ".")
			if x == "" || x == "-" || x == "-0" {
				x = "0"
			}
		}
		return x
	case time.Time:
		switch {
		case strings.HasPrefix(typeName, "DATE"):
			return x.UTC().Format("2006-01-02")
		case strings.HasPrefix(typeName, "TIME") && !strings.HasPrefix(typeName, "TIMESTAMP"):
			return x.UTC().Format("15:04:05.999999999")
		}
		return x.UTC().Format("2006-01-02 15:04:05.999999999")
	case float32:
		return formatValue(float64(x), typ, typeName)
	case float64:
		if typ == 'I' && x == math.Trunc(x) && math.Abs(x) < 1e18 {
			return strconv.FormatInt(int64(x), 10)
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'f', -1, 64)
		}
		r := math.Round(x*1e6) / 1e6
		if r == 0 {
			r = 0
		}
		return strconv.FormatFloat(r, 'f', -1, 64)
	case int64, int32, int16, int8, int, uint64, uint32, uint16, uint8:
		if typ == 'R' {
			f, _ := strconv.ParseFloat(fmt.Sprint(x), 64)
			return formatValue(f, typ, typeName)
		}
		return fmt.Sprint(x)
	case interface{ Float64() float64 }:
		if typ == 'R' || typ == 'I' {
			return formatValue(x.Float64(), typ, typeName)
		}
	}
	if s, ok := v.(fmt.Stringer); ok {
		return formatValue(s.String(), typ, typeName)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// Run runs one record; it returns a description of a mismatch.
func Run(db *sql.DB, rec Record) string {
	if rec.kind == "statement" {
		_, err := db.Exec(rec.sql)
		switch {
		case rec.wantErr && err == nil:
			return "expected an error, got none"
		case rec.wantErr && rec.errText != "" && !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(rec.errText)):
			return fmt.Sprintf("expected an error containing %q, got %q", rec.errText, err)
		case !rec.wantErr && err != nil:
			return fmt.Sprintf("unexpected error: %v", err)
		}
		return ""
	}
	rows, err := db.Query(rec.sql)
	if err != nil {
		return fmt.Sprintf("query error: %v", err)
	}
	defer rows.Close()
	cts, err := rows.ColumnTypes()
	if err != nil {
		return err.Error()
	}
	if len(cts) != len(rec.types) {
		return fmt.Sprintf("%d columns, the record says %d (%s)", len(cts), len(rec.types), rec.types)
	}
	var got [][]string
	for rows.Next() {
		vals := make([]any, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return err.Error()
		}
		row := make([]string, len(cts))
		for i, v := range vals {
			row[i] = formatValue(v, rec.types[i], cts[i].DatabaseTypeName())
		}
		got = append(got, row)
	}
	if err := rows.Err(); err != nil {
		return fmt.Sprintf("query error: %v", err)
	}
	lines := make([]string, len(got))
	for i, r := range got {
		lines[i] = strings.Join(r, "\t")
	}
	want := append([]string(nil), rec.expected...)
	if rec.sortMode == "rowsort" {
		sort.Strings(lines)
		sort.Strings(want)
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		return fmt.Sprintf("got:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	return ""
}

// RunFiles runs every record of the files, for the named engine (records
// may be limited to one engine), each file on a database from open (a fresh
// one per file), and reports mismatches as test errors.
func RunFiles(t *testing.T, files []string, engine string, open func(t *testing.T) *sql.DB) {
	t.Helper()
	if len(files) == 0 {
		t.Fatal("no SQL test files")
	}
	total := 0
	for _, path := range files {
		recs, err := Parse(path, engine)
		if err != nil {
			t.Fatal(err)
		}
		total += len(recs)
		t.Run(filepath.Base(path), func(t *testing.T) {
			db := open(t)
			defer db.Close()
			for _, rec := range recs {
				if msg := Run(db, rec); msg != "" {
					t.Errorf("%s:%d: %s\n%s", filepath.Base(path), rec.line, rec.sql, msg)
				}
			}
		})
	}
	t.Logf("%d records in %d files", total, len(files))
}

// Now is the fixed clock the test files are written for.
var Now = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

// Seed copies the data files of the test file that subtest t runs into
// dir, the folder the file runs in: the folder data/NAME beside the test
// files (sqlDir), NAME the test file's name without .test, with its
// subfolders. Files that need data no statement can write (JSON text of
// a given shape, say) keep it there. A test file without such a folder
// gets nothing.
func Seed(t *testing.T, sqlDir, dir string) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(t.Name()), ".test")
	src := filepath.Join(sqlDir, "data", name)
	if _, err := os.Stat(src); err != nil {
		return
	}
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, body, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

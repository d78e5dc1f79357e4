package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// result is what a pqsql run printed.
type result struct {
	stdout, stderr string
	code           int
}

// pq runs pqsql in-process with the given stdin (not a terminal).
func pq(t testing.TB, stdin string, args ...string) result {
	t.Helper()
	var out, errb bytes.Buffer
	e := newEnv(strings.NewReader(stdin), &out, &errb)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e.ctx = ctx
	code := run(e, args)
	return result{out.String(), errb.String(), code}
}

// ok runs pqsql and fails the test unless it exits 0.
func ok(t testing.TB, args ...string) string {
	t.Helper()
	r := pq(t, "", args...)
	if r.code != 0 {
		t.Fatalf("pqsql %s: exit %d\nstderr: %s\nstdout: %s", strings.Join(args, " "), r.code, r.stderr, r.stdout)
	}
	return r.stdout
}

func conformance(t testing.TB, name string) string {
	return testfiles.Path(t, "data/"+name)
}

const eventRows = 10000

var (
	fixturesOnce sync.Once
	fixturesDir  string
	fixturesErr  error
)

// fixtures writes the test files once per test binary: events.parquet
// (the events table, 10,000 rows in row groups of 2,500, zstd, bloom
// filter on user_id, page index, small pages) and types.parquet (nullable
// and nested columns of many logical types), and part/day={1,2}/ (a hive
// partitioned folder of two files of the first 1,000 events).
func fixtures(t testing.TB) string {
	t.Helper()
	fixturesOnce.Do(func() {
		fixturesDir, fixturesErr = os.MkdirTemp("", "pqsql-test-*")
		if fixturesErr != nil {
			return
		}
		fixturesErr = writeEvents(filepath.Join(fixturesDir, "events.parquet"), eventRows,
			writer.WithRowGroupRows(2500), writer.WithCompression(format.Zstd),
			writer.WithBloomFilterFor("user_id", 2500, 0.01), writer.WithPageRowLimit(500), writer.WithPageChecksum(true))
		if fixturesErr == nil {
			fixturesErr = writeTypes(filepath.Join(fixturesDir, "types.parquet"))
		}
		// A hive-partitioned folder of two files of 1,000 events.
		for _, day := range []string{"1", "2"} {
			d := filepath.Join(fixturesDir, "part", "day="+day)
			if fixturesErr == nil {
				fixturesErr = os.MkdirAll(d, 0o755)
			}
			if fixturesErr == nil {
				fixturesErr = writeEvents(filepath.Join(d, "events.parquet"), 1000)
			}
		}
	})
	if fixturesErr != nil {
		t.Fatal(fixturesErr)
	}
	return fixturesDir
}

func TestMain(m *testing.M) {
	beMain()
	code := m.Run()
	if fixturesDir != "" {
		os.RemoveAll(fixturesDir)
	}
	os.Exit(code)
}

func writeEvents(path string, n int, opts ...writer.Option) error {
	sch, err := events.Schema()
	if err != nil {
		return err
	}
	w, err := writer.Create(path, sch, opts...)
	if err != nil {
		return err
	}
	if err := w.WriteBatch(events.Generate(n, 1)); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// typesRows are the rows of types.parquet.
func typesRows() [][]any {
	ts := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	return [][]any{
		{int64(1), "alpha", 1.5, true, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), ts, value.DecimalFromInt64(12345, 2),
			[]any{int32(1), int32(2)}, map[string]any{"city": "Paris", "zip": int32(75001)}, map[string]any{"a": int64(1)}, "00112233-4455-6677-8899-aabbccddeeff"},
		{int64(2), nil, nil, nil, nil, nil, nil, nil, nil, nil, nil},
		{int64(3), "gamma, \"quoted\"\nnewline", -2.25, false, time.Date(1999, 12, 31, 0, 0, 0, 0, time.UTC), ts.Add(time.Hour),
			value.DecimalFromInt64(-5, 2), []any{}, map[string]any{"city": nil, "zip": nil}, map[string]any{}, nil},
	}
}

func writeTypes(path string) error {
	sch, err := writer.NewSchema(
		writer.Int64("id").Required(), writer.String("name"), writer.Double("score"), writer.Bool("ok"),
		writer.Date("day"), writer.Timestamp("ts", writer.Micros, true), writer.Decimal("price", 9, 2),
		writer.List("tags", writer.Int32("e")), writer.Group("addr", writer.String("city"), writer.Int32("zip")),
		writer.Map("attrs", writer.String("k"), writer.Int64("v")), writer.UUID("uid"),
	)
	if err != nil {
		return err
	}
	w, err := writer.Create(path, sch, writer.WithCompression(format.Snappy))
	if err != nil {
		return err
	}
	if err := w.WriteRows(typesRows()); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

func decodeJSON(t testing.TB, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, s)
	}
}

func TestHelpEveryCommand(t *testing.T) {
	out := ok(t, "--help")
	for _, c := range commands() {
		if !strings.Contains(out, c.name) {
			t.Errorf("usage lacks %s", c.name)
		}
		h := ok(t, c.name, "--help")
		if !strings.HasPrefix(h, "usage: pqsql "+c.name) || !strings.Contains(h, "examples:") {
			t.Errorf("%s --help:\n%s", c.name, h)
		}
	}
	if h := ok(t, "--help-shell"); !strings.Contains(h, ".mode") || !strings.Contains(h, "-bail") {
		t.Errorf("--help-shell:\n%s", h)
	}
	if h := ok(t, "-c", "x", "--help"); !strings.Contains(h, "dot-commands") {
		t.Errorf("shell --help:\n%s", h)
	}
	r := pq(t, "", "head", "--bogus", "x")
	if r.code != 2 || !strings.Contains(r.stderr, "bogus") {
		t.Errorf("bad flag: %+v", r)
	}
	r = pq(t, "", "head")
	if r.code != 2 || !strings.Contains(r.stderr, "usage: pqsql head") {
		t.Errorf("missing argument: %+v", r)
	}
}

package sqlplan

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/writer"
)

// writeGroupFile writes name.parquet into dir: an optional string k of 60
// words (every ninth row null), a required string r of 4 words and an
// int64 x, in row groups of 500 rows and pages of 100 rows.
func writeGroupFile(t *testing.T, dir, name string, rows int, opts ...writer.Option) {
	t.Helper()
	sch, err := writer.NewSchema(writer.String("k"), writer.String("r").Required(), writer.Int64("x").Required())
	if err != nil {
		t.Fatal(err)
	}
	opts = append([]writer.Option{writer.WithRowGroupRows(500), writer.WithPageRowLimit(100)}, opts...)
	w, err := writer.Create(filepath.Join(dir, name+".parquet"), sch, opts...)
	if err != nil {
		t.Fatal(err)
	}
	data := make([][]any, rows)
	for i := range data {
		data[i] = []any{groupKey(i), fmt.Sprintf("r%d", i%4), int64(i)}
	}
	if err := w.WriteRows(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func groupKey(i int) any {
	if i%9 == 4 {
		return nil
	}
	return fmt.Sprintf("w%02d", (i*7919)%60)
}

// TestGroupByCodes groups by dictionary-encoded string columns, which the
// scan hands over as codes, and checks the groups against sums computed
// here: with nulls, a dictionary that falls back to plain pages, filters on
// other columns (rows taken out of coded batches) and on the key itself
// (plain), and 1 or 2 threads.
func TestGroupByCodes(t *testing.T) {
	const rows = 3000
	dir := t.TempDir()
	writeGroupFile(t, dir, "g", rows)
	// A 150-byte dictionary limit: k falls back to PLAIN in every chunk.
	writeGroupFile(t, dir, "fb", rows, writer.WithDictionaryPageSizeLimit(150))

	// want computes "key|count|sum(x)" lines, sorted, for rows passing keep.
	want := func(keep func(i int) bool) string {
		count, sum := map[string]int64{}, map[string]int64{}
		for i := 0; i < rows; i++ {
			if !keep(i) {
				continue
			}
			k := "NULL"
			if s, ok := groupKey(i).(string); ok {
				k = s
			}
			count[k]++
			sum[k] += int64(i)
		}
		var lines []string
		for k := range count {
			lines = append(lines, fmt.Sprintf("%s|%d|%d", k, count[k], sum[k]))
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	got := func(e *Engine, q string) string {
		var lines []string
		for _, r := range queryAll(t, e, q) {
			k := "NULL"
			if r[0] != nil {
				k = r[0].(string)
			}
			lines = append(lines, fmt.Sprintf("%s|%v|%v", k, r[1], r[2]))
		}
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	for _, threads := range []int{1, 2} {
		e, err := Open(dir, Options{Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"g", "fb"} {
			cases := []struct {
				q     string
				codes bool
				keep  func(i int) bool
			}{
				{"SELECT k, count(*), sum(x) FROM " + table + " GROUP BY k", true, func(int) bool { return true }},
				{"SELECT k, count(*), sum(x) FROM " + table + " WHERE x % 7 = 3 GROUP BY k", false, func(i int) bool { return i%7 == 3 }},
				{"SELECT k, count(*), sum(x) FROM " + table + " WHERE x >= 1234 GROUP BY k", true, func(i int) bool { return i >= 1234 }},
				{"SELECT k, count(*), sum(x) FROM " + table + " WHERE r = 'r1' OR x < 10 GROUP BY k", true, func(i int) bool { return i%4 == 1 || i < 10 }},
				// A filter on the key reads it coded too (evaluated per dictionary entry).
				{"SELECT k, count(*), sum(x) FROM " + table + " WHERE k >= 'w30' GROUP BY k", true, func(i int) bool { s, ok := groupKey(i).(string); return ok && s >= "w30" }},
				{"SELECT k, count(k) + count(*) - count(k), sum(x) FROM " + table + " GROUP BY k", false, func(int) bool { return true }},
			}
			for _, c := range cases {
				pl := planOf(t, e, c.q)
				if strings.Contains(pl, "dictionary codes: k") != c.codes {
					t.Errorf("%s: codes %v expected in the plan:\n%s", c.q, c.codes, pl)
				}
				if g, w := got(e, c.q), want(c.keep); g != w {
					t.Fatalf("threads %d: %s:\ngot\n%s\nwant\n%s", threads, c.q, g, w)
				}
			}
		}
		// Grouped output feeds HAVING and an outer query.
		q := "SELECT count(*), min(n), max(n) FROM (SELECT k, count(*) AS n FROM g GROUP BY k HAVING count(*) > 40) AS s"
		count := map[any]int{}
		for i := 0; i < rows; i++ {
			count[groupKey(i)]++
		}
		n, lo, hi := 0, rows, 0
		for _, c := range count {
			if c > 40 {
				n, lo, hi = n+1, min(lo, c), max(hi, c)
			}
		}
		if r, w := fmt.Sprint(queryAll(t, e, q)), fmt.Sprintf("[[%d %d %d]]", n, lo, hi); r != w {
			t.Fatalf("%s: %v, want %s", q, r, w)
		}
		e.Close()
	}
}

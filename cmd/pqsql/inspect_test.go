package main

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/internal/testfiles"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

// eventsCSV is the events table as pqsql writes it in CSV.
func eventsCSV(n int) [][]string {
	cols := events.Generate(n, 1)
	out := [][]string{{"ts", "user_id", "category", "amount", "flag"}}
	for i := 0; i < n; i++ {
		out = append(out, []string{
			time.UnixMicro(cols[0].Int64s[i]).UTC().Format(time.RFC3339Nano),
			strconv.Itoa(int(cols[1].Int32s[i])),
			string(cols[2].Bytes(i)),
			output.Float(cols[3].Float64s[i], 64),
			strconv.FormatBool(cols[4].Bools[i]),
		})
	}
	return out
}

func parseCSV(t testing.TB, s string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(s)).ReadAll()
	if err != nil {
		t.Fatalf("bad CSV: %v\n%s", err, s)
	}
	return recs
}

func sameRecords(t testing.TB, got, want [][]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d records, want %d\nfirst got: %v", len(got), len(want), got[:min(len(got), 3)])
	}
	for i := range want {
		if strings.Join(got[i], "\x00") != strings.Join(want[i], "\x00") {
			t.Fatalf("record %d: got %q, want %q", i, got[i], want[i])
		}
	}
}

func TestSchemaAndColumns(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	out := ok(t, "schema", ev)
	if !strings.HasPrefix(out, "message schema {") || !strings.Contains(out, "required int64 ts (TIMESTAMP(MICROS,true));") {
		t.Errorf("schema:\n%s", out)
	}
	var js struct {
		Fields []struct {
			Name     string
			SQLType  string `json:"sql_type"`
			Physical string `json:"physical_type"`
			Children []any
		}
	}
	decodeJSON(t, ok(t, "schema", "--json", filepath.Join(dir, "types.parquet")), &js)
	if len(js.Fields) != 11 || js.Fields[5].SQLType != "TIMESTAMPTZ" || js.Fields[6].SQLType != "DECIMAL(9,2)" ||
		js.Fields[7].SQLType != "INTEGER[]" || len(js.Fields[8].Children) != 2 {
		t.Errorf("schema --json: %+v", js)
	}
	// A folder: the first file's schema.
	if out := ok(t, "schema", filepath.Join(dir, "part")); !strings.Contains(out, "-- 2 files") || !strings.Contains(out, "partition column day BIGINT") {
		t.Errorf("schema of a folder:\n%s", out)
	}
	recs := parseCSV(t, ok(t, "columns", ev))
	if len(recs) != 6 || recs[1][1] != "ts" || recs[1][4] != "TIMESTAMPTZ" || recs[3][2] != "BYTE_ARRAY" {
		t.Errorf("columns: %q", recs)
	}
	// Conformance: nested schema, legacy types.
	out = ok(t, "columns", conformance(t, "nested_maps.snappy.parquet"))
	if !strings.Contains(out, "a.key_value.value.key_value.key") {
		t.Errorf("columns of nested_maps:\n%s", out)
	}
	if out := ok(t, "schema", conformance(t, "alltypes_plain.parquet")); !strings.Contains(out, "int96 timestamp_col") {
		t.Errorf("schema of alltypes_plain:\n%s", out)
	}
}

func TestInfo(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	out := ok(t, "info", ev)
	for _, want := range []string{"rows:        10000", "row groups:  4", "created_by:  carquet", "ZSTD", "RLE_DICTIONARY"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	if out := ok(t, "info", "--row-groups", ev); strings.Count(out, "row group ") != 4 {
		t.Errorf("info --row-groups:\n%s", out)
	}
	var fi fileInfo
	decodeJSON(t, ok(t, "info", "--json", ev), &fi)
	if fi.NumRows != eventRows || len(fi.RowGroups) != 4 || len(fi.RowGroups[0].Columns) != 5 ||
		fi.RowGroups[0].Columns[1].Path != "user_id" || !fi.RowGroups[0].Columns[1].BloomFilter ||
		fi.RowGroups[0].Columns[0].Codec != "ZSTD" || fi.RowGroups[3].NumRows != 2500 || fi.KeyValue["ARROW:schema"] == "" {
		t.Errorf("info --json: %+v", fi)
	}
	// Conformance files of several writers and codecs.
	if out := ok(t, "info", filepath.Join(dir, "part")); strings.Count(out, "rows:        1000\n") != 2 {
		t.Errorf("info of a folder:\n%s", out)
	}
	for _, name := range []string{"alltypes_plain.snappy.parquet", "datapage_v2.snappy.parquet", "lz4_raw_compressed.parquet", "nested_structs.rust.parquet"} {
		if out := ok(t, "info", conformance(t, name)); !strings.Contains(out, "created_by:") {
			t.Errorf("info %s:\n%s", name, out)
		}
	}
	r := pq(t, "", "info", filepath.Join(dir, "missing.parquet"))
	if r.code != 1 || !strings.Contains(r.stderr, "missing.parquet") {
		t.Errorf("info of a missing file: %+v", r)
	}
}

func TestMeta(t *testing.T) {
	dir := fixtures(t)
	var m map[string]any
	decodeJSON(t, ok(t, "meta", filepath.Join(dir, "events.parquet")), &m)
	if m["num_rows"] != float64(eventRows) || len(m["row_groups"].([]any)) != 4 || m["version"] != float64(2) && m["version"] != float64(1) {
		t.Fatalf("meta: %v", m)
	}
	cc := m["row_groups"].([]any)[0].(map[string]any)["columns"].([]any)[0].(map[string]any)
	md := cc["meta_data"].(map[string]any)
	if md["codec"] != "ZSTD" || md["type"] != "INT64" || md["statistics"] == nil || cc["offset_index_offset"] == nil {
		t.Errorf("meta column chunk: %v", cc)
	}
	schema := m["schema"].([]any)
	if schema[1].(map[string]any)["logical_type"].(map[string]any)["timestamp"] == nil {
		t.Errorf("meta schema: %v", schema[1])
	}
	decodeJSON(t, ok(t, "meta", "--compact", conformance(t, "alltypes_plain.parquet")), &m)
	if m["created_by"] == nil {
		t.Errorf("meta of alltypes_plain: %v", m)
	}
	if got := snake("TotalCompressedSize") + " " + snake("CRC") + " " + snake("MetaData") + " " + snake("UUID"); got != "total_compressed_size crc meta_data uuid" {
		t.Errorf("snake: %s", got)
	}
}

func TestHeadTailCat(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	all := eventsCSV(eventRows)
	sameRecords(t, parseCSV(t, ok(t, "head", ev)), all[:11])
	sameRecords(t, parseCSV(t, ok(t, "head", "-n", "3", ev)), all[:4])
	sameRecords(t, parseCSV(t, ok(t, "tail", "-n", "4", ev)), append([][]string{all[0]}, all[len(all)-4:]...))
	// An offset inside the third row group skips the first two whole.
	got := parseCSV(t, ok(t, "cat", "--offset", "5100", "--limit", "7", ev))
	sameRecords(t, got, append([][]string{all[0]}, all[5101:5108]...))
	// Columns, flags after the path.
	got = parseCSV(t, ok(t, "cat", ev, "-c", "amount,user_id", "--limit", "2"))
	if got[0][0] != "amount" || got[1][0] != all[1][3] || got[2][1] != all[2][1] {
		t.Errorf("cat -c: %q", got)
	}
	// The whole file.
	sameRecords(t, parseCSV(t, ok(t, "cat", ev)), all)
	// A folder through scan, with the offset counted there.
	got = parseCSV(t, ok(t, "cat", "--offset", "998", "--limit", "4", "-c", "day,user_id", filepath.Join(dir, "part")))
	if len(got) != 5 || got[1][0] != "1" || got[3][0] != "2" || got[2][1] != all[1000][1] || got[3][1] != all[1][1] {
		t.Errorf("cat of a folder: %q", got)
	}
	if out := ok(t, "count", "-p", "day = 2", filepath.Join(dir, "part")); out != "1000\n" {
		t.Errorf("count by partition: %q", out)
	}
	if out := ok(t, "count", "-p", "amount > 3000", filepath.Join(dir, "part", "*", "*.parquet")); out != fmt.Sprintln(2*countAbove(all[1:1001], 3000)) {
		t.Errorf("count of a glob: %q", out)
	}
	// Tail through scan (a filter): the last matching rows.
	var want [][]string
	for _, r := range all[1:] {
		if r[2] == "books" {
			want = append(want, []string{r[1]})
		}
	}
	got = parseCSV(t, ok(t, "tail", "-n", "2", "-c", "user_id", "-p", "category = 'books'", ev))
	sameRecords(t, got[1:], want[len(want)-2:])

	// JSON and box output.
	var rows []map[string]any
	decodeJSON(t, ok(t, "head", "-n", "2", "--json", ev), &rows)
	if len(rows) != 2 || rows[0]["category"] != all[1][2] || rows[0]["ts"] != all[1][0] {
		t.Errorf("head --json: %v", rows)
	}
	box := ok(t, "head", "-n", "2", "--box", filepath.Join(dir, "types.parquet"))
	if !strings.Contains(box, "┌") || !strings.Contains(box, "│ NULL") {
		t.Errorf("head --box:\n%s", box)
	}
	// Nested values as JSON text, NULL as an empty CSV field.
	got = parseCSV(t, ok(t, "cat", filepath.Join(dir, "types.parquet")))
	if got[1][7] != "[1,2]" || got[1][8] != `{"city":"Paris","zip":75001}` || got[2][1] != "" || got[1][6] != "123.45" ||
		got[3][1] != "gamma, \"quoted\"\nnewline" || got[1][4] != "2024-01-02" || got[1][10] != "00112233-4455-6677-8899-aabbccddeeff" {
		t.Errorf("cat types: %q", got)
	}
	// Conformance files: every one prints without error.
	for _, name := range []string{"alltypes_plain.parquet", "nested_lists.snappy.parquet", "nullable.impala.parquet",
		"int96_from_spark.parquet", "byte_array_decimal.parquet", "delta_byte_array.parquet", "nested_structs.rust.parquet",
		"float16_nonzeros_and_nans.parquet", "map_no_value.parquet", "old_list_structure.parquet"} {
		if out := ok(t, "head", "-n", "3", conformance(t, name)); strings.Count(out, "\n") < 2 {
			t.Errorf("head %s:\n%s", name, out)
		}
	}
	out := ok(t, "head", "-n", "1", "--line", conformance(t, "alltypes_plain.parquet"))
	if !strings.Contains(out, "timestamp_col = 2009-03-01 00:00:00") {
		t.Errorf("head --line:\n%s", out)
	}
}

func countAbove(rows [][]string, x float64) int {
	n := 0
	for _, r := range rows {
		if f, _ := strconv.ParseFloat(r[3], 64); f > x {
			n++
		}
	}
	return n
}

func TestCountAndFilter(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	if out := ok(t, "count", ev); out != "10000\n" {
		t.Errorf("count: %q", out)
	}
	all := eventsCSV(eventRows)[1:]
	brute := func(keep func(r []string) bool) string {
		n := 0
		for _, r := range all {
			if keep(r) {
				n++
			}
		}
		return fmt.Sprintln(n)
	}
	amt := func(r []string) float64 { f, _ := strconv.ParseFloat(r[3], 64); return f }
	uid := func(r []string) int { n, _ := strconv.Atoi(r[1]); return n }
	cutoff := all[9000][0]
	cases := []struct {
		expr string
		keep func(r []string) bool
	}{
		{"amount > 3000", func(r []string) bool { return amt(r) > 3000 }},
		{"3000 < amount", func(r []string) bool { return amt(r) > 3000 }},
		{"category IN ('books', 'toys') AND flag = true", func(r []string) bool { return (r[2] == "books" || r[2] == "toys") && r[4] == "true" }},
		{"NOT (category = 'books' OR amount <= 100)", func(r []string) bool { return !(r[2] == "books" || amt(r) <= 100) }},
		{"ts >= '" + cutoff + "'", func(r []string) bool { return r[0] >= cutoff }},
		{"user_id BETWEEN 1000 AND 200000", func(r []string) bool { return uid(r) >= 1000 && uid(r) <= 200000 }},
		{"user_id = " + all[1234][1], func(r []string) bool { return r[1] == all[1234][1] }},
		{"category LIKE 'to%'", func(r []string) bool { return strings.HasPrefix(r[2], "to") }},
		{"category NOT IN ('books') AND user_id IS NOT NULL", func(r []string) bool { return r[2] != "books" }},
		{"amount IS NULL", func(r []string) bool { return false }},
	}
	for _, c := range cases {
		if got, want := ok(t, "count", "-p", c.expr, ev), brute(c.keep); got != want {
			t.Errorf("count -p %q = %s, want %s", c.expr, got, want)
		}
	}
	// Rows printed by cat -p are the same rows.
	got := parseCSV(t, ok(t, "cat", "-p", "amount > 3600", "-c", "amount", ev))
	n := 0
	for _, r := range all {
		if amt(r) > 3600 {
			n++
			if got[n][0] != r[3] {
				t.Fatalf("cat -p row %d: %q, want %q", n, got[n][0], r[3])
			}
		}
	}
	for _, bad := range []string{"amount >", "amount = NULL", "(amount > 1", "category LIKE '%x'", "x = 'unterminated"} {
		r := pq(t, "", "count", "-p", bad, ev)
		if r.code != 2 || !strings.Contains(r.stderr, "filter") {
			t.Errorf("count -p %q: %+v", bad, r)
		}
	}
	if r := pq(t, "", "count", "-p", "nosuch = 1", ev); r.code != 1 || !strings.Contains(r.stderr, "nosuch") {
		t.Errorf("unknown column: %+v", r)
	}
	// Decimal literals stay exact.
	if out := ok(t, "count", "-p", "price = 123.45", filepath.Join(dir, "types.parquet")); out != "1\n" {
		t.Errorf("decimal filter: %q", out)
	}
}

func TestParseFilter(t *testing.T) {
	cases := map[string]string{
		"a = 1":                          "a = 1",
		"a >= 'x' AND (b < 2.5 OR c)":    "",
		"NOT a IN (1, 2)":                "",
		"a IS NULL OR b IS NOT NULL":     "",
		`"weird col" <> 'it''s'`:         "",
		"a BETWEEN 1 AND 5 AND b = true": "",
	}
	for src := range cases {
		p, err := parseFilter(src, nil)
		if src == "a >= 'x' AND (b < 2.5 OR c)" {
			if err == nil {
				t.Errorf("%q: want an error (bare column), got %v", src, p)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if p.String() == "" {
			t.Errorf("%q: empty predicate", src)
		}
	}
}

func TestSample(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	a := ok(t, "sample", "-n", "5", "--seed", "7", ev)
	b := ok(t, "sample", "-n", "5", "--seed", "7", ev)
	c := ok(t, "sample", "-n", "5", "--seed", "8", ev)
	if a != b || a == c {
		t.Errorf("sample seeds: same seed differs or other seed equal:\n%s\n%s\n%s", a, b, c)
	}
	all := eventsCSV(eventRows)
	index := map[string]int{}
	for i, r := range all[1:] {
		index[strings.Join(r, ",")] = i
	}
	got := parseCSV(t, a)
	if len(got) != 6 {
		t.Fatalf("sample -n 5: %q", got)
	}
	last := -1
	for _, r := range got[1:] {
		i, ok := index[strings.Join(r, ",")]
		if !ok || i <= last {
			t.Fatalf("sample row %q not in the file or out of order", r)
		}
		last = i
	}
	if got := parseCSV(t, ok(t, "sample", "-n", "50", conformance(t, "alltypes_plain.parquet"))); len(got) != 9 {
		t.Errorf("sample of 8 rows: %d records", len(got))
	}
}

func TestStat(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	all := eventsCSV(eventRows)[1:]
	minA, maxA := 1e9, -1e9
	for _, r := range all {
		f, _ := strconv.ParseFloat(r[3], 64)
		minA, maxA = min(minA, f), max(maxA, f)
	}
	recs := parseCSV(t, ok(t, "stat", ev))
	if len(recs) != 6 {
		t.Fatalf("stat: %q", recs)
	}
	// ts: sorted, so the bounds are the first and last rows (table text).
	if recs[1][0] != "ts" || !strings.HasPrefix(all[0][0], strings.ReplaceAll(recs[1][2], " ", "T")[:19]) || recs[1][4] != "0" || recs[1][7] != "yes" {
		t.Errorf("stat ts: %q", recs[1])
	}
	if recs[4][2] != output.Float(minA, 64) || recs[4][3] != output.Float(maxA, 64) {
		t.Errorf("stat amount: %q, want %v..%v", recs[4], minA, maxA)
	}
	if recs[2][8] != "yes" || recs[3][8] != "no" {
		t.Errorf("stat bloom: %q", recs)
	}
	var js []columnStat
	decodeJSON(t, ok(t, "stat", "--json", ev), &js)
	if len(js) != 5 || len(js[3].RowGroups) != 4 || js[3].Max != maxA || js[2].Min != "books" && js[2].Min != "food" {
		t.Errorf("stat --json: %+v", js)
	}
	out := ok(t, "stat", "--row-groups", "-c", "user_id", ev)
	if strings.Count(out, "\nuser_id,") != 4 {
		t.Errorf("stat --row-groups:\n%s", out)
	}
	// Decoding by logical type.
	recs = parseCSV(t, ok(t, "stat", filepath.Join(dir, "types.parquet")))
	byName := map[string][]string{}
	for _, r := range recs {
		byName[r[0]] = r
	}
	if r := byName["price"]; r[2] != "-0.05" || r[3] != "123.45" || r[4] != "1" {
		t.Errorf("stat price: %q", r)
	}
	if r := byName["day"]; r[2] != "1999-12-31" || r[3] != "2024-01-02" {
		t.Errorf("stat day: %q", r)
	}
	if r := byName["uid"]; r[2] != "00112233-4455-6677-8899-aabbccddeeff" {
		t.Errorf("stat uid: %q", r)
	}
	// Conformance: legacy statistics, NaN counts, float16.
	for _, name := range []string{"alltypes_tiny_pages.parquet", "floating_orders_nan_count.parquet", "float16_nonzeros_and_nans.parquet", "nested_lists.snappy.parquet"} {
		ok(t, "stat", name2(t, name))
		ok(t, "stat", "--json", name2(t, name))
	}
	recs = parseCSV(t, ok(t, "stat", "-c", "id", conformance(t, "alltypes_tiny_pages.parquet")))
	if recs[1][2] != "0" || recs[1][3] != "7299" {
		t.Errorf("stat id of alltypes_tiny_pages: %q", recs)
	}
}

func name2(t testing.TB, name string) string { return conformance(t, name) }

// rewriteFooter writes a copy of a file with its footer changed by edit.
func rewriteFooter(t testing.TB, src, dst string, edit func(m *format.FileMetaData)) {
	t.Helper()
	f, err := file.OpenFile(src, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	footerStart := len(data) - 8 - len(f.FooterBytes())
	m := *f.Meta
	f.Close()
	edit(&m)
	out := append([]byte(nil), data[:footerStart]...)
	footer := format.Marshal(nil, &m)
	out = append(out, footer...)
	n := len(footer)
	out = append(out, byte(n), byte(n>>8), byte(n>>16), byte(n>>24), 'P', 'A', 'R', '1')
	if err := os.WriteFile(dst, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	dir := fixtures(t)
	ev := filepath.Join(dir, "events.parquet")
	out := ok(t, "validate", ev, filepath.Join(dir, "types.parquet"))
	if strings.Count(out, ": OK: ") != 2 || !strings.Contains(out, "4 row groups, 20 column chunks") {
		t.Errorf("validate:\n%s", out)
	}
	var js struct {
		OK    bool
		Files []struct{ Pages int64 }
	}
	decodeJSON(t, ok(t, "validate", "--json", ev), &js)
	if !js.OK || js.Files[0].Pages < 80 {
		t.Errorf("validate --json: %+v", js)
	}
	// Every readable conformance file passes (warnings allowed); the
	// corrupt ones fail naming the place.
	skip := map[string]bool{"large_string_map.brotli.parquet": true} // a 2 GiB string
	bad := map[string]string{
		"datapage_v1-corrupt-checksum.parquet":           "row group 0, column a (offset 4): error: ",
		"rle-dict-uncompressed-corrupt-checksum.parquet": "CRC32 checksum mismatch",
	}
	for _, p := range testfiles.Glob(t, "data", ".parquet") {
		name := filepath.Base(p)
		if skip[name] {
			continue
		}
		r := pq(t, "", "validate", "-q", p)
		if want, isBad := bad[name]; isBad {
			if r.code != 1 || !strings.Contains(r.stdout, want) {
				t.Errorf("validate %s: exit %d, want 1 with %q:\n%s%s", name, r.code, want, r.stdout, r.stderr)
			}
			continue
		}
		if r.code != 0 {
			t.Errorf("validate %s: exit %d\n%s%s", name, r.code, r.stdout, r.stderr)
		}
	}

	// Statistics that lie: a min above the data and a wrong null count.
	lie := filepath.Join(t.TempDir(), "lie.parquet")
	rewriteFooter(t, ev, lie, func(m *format.FileMetaData) {
		st := m.RowGroups[2].Columns[3].MetaData.Statistics
		st.MinValue = []byte{0, 0, 0, 0, 0, 0, 0x59, 0x40} // 100.0
		st.NullCount = format.Some(int64(7))
	})
	r := pq(t, "", "validate", lie)
	if r.code != 1 || !strings.Contains(r.stdout, "row group 2, column amount: error: statistics min 100.0 is above the smallest value") ||
		!strings.Contains(r.stdout, "statistics null_count 7, the data has 0 nulls") {
		t.Errorf("validate lying statistics: exit %d\n%s", r.code, r.stdout)
	}
	// A row count that does not match the pages.
	rows := filepath.Join(t.TempDir(), "rows.parquet")
	rewriteFooter(t, ev, rows, func(m *format.FileMetaData) { m.RowGroups[1].Columns[0].MetaData.NumValues++ })
	r = pq(t, "", "validate", rows)
	if r.code != 1 || !strings.Contains(r.stdout, "row group 1, column ts: error: data pages hold 2500 values, column metadata says num_values 2501") {
		t.Errorf("validate num_values: exit %d\n%s", r.code, r.stdout)
	}
	// A flipped byte in a page body: the CRC catches it.
	data, err := os.ReadFile(ev)
	if err != nil {
		t.Fatal(err)
	}
	f, err := file.OpenFile(ev, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	off := f.Meta.RowGroups[1].Columns[3].MetaData.DataPageOffset
	f.Close()
	data[off+40] ^= 0xFF
	flipped := filepath.Join(t.TempDir(), "flipped.parquet")
	os.WriteFile(flipped, data, 0o644)
	r = pq(t, "", "validate", flipped)
	if r.code != 1 || !strings.Contains(r.stdout, "row group 1, column amount") || !strings.Contains(r.stdout, "checksum") {
		t.Errorf("validate flipped byte: exit %d\n%s", r.code, r.stdout)
	}
	// Page indexes that belong elsewhere: the offset index of another
	// column, the column index of another row group.
	swapped := filepath.Join(t.TempDir(), "swapped.parquet")
	rewriteFooter(t, ev, swapped, func(m *format.FileMetaData) {
		a, b := &m.RowGroups[0].Columns[0], &m.RowGroups[0].Columns[3]
		a.OffsetIndexOffset, b.OffsetIndexOffset = b.OffsetIndexOffset, a.OffsetIndexOffset
		a.OffsetIndexLength, b.OffsetIndexLength = b.OffsetIndexLength, a.OffsetIndexLength
		c, d := &m.RowGroups[1].Columns[0], &m.RowGroups[3].Columns[0]
		c.ColumnIndexOffset, d.ColumnIndexOffset = d.ColumnIndexOffset, c.ColumnIndexOffset
		c.ColumnIndexLength, d.ColumnIndexLength = d.ColumnIndexLength, c.ColumnIndexLength
	})
	r = pq(t, "", "validate", swapped)
	for _, want := range []string{
		"row group 0, column ts, page 0 (offset 4): error: offset index says the page is at offset",
		"row group 0, column amount, page 0 (offset",
		"row group 1, column ts, page 0 (offset",
		"error: column index min 2024-",
	} {
		if r.code != 1 || !strings.Contains(r.stdout, want) {
			t.Errorf("validate swapped page indexes lacks %q: exit %d\n%s", want, r.code, r.stdout)
		}
	}
	// A folder: each of its files.
	if out := ok(t, "validate", filepath.Join(dir, "part")); strings.Count(out, ": OK: ") != 2 {
		t.Errorf("validate of a folder:\n%s", out)
	}
	// Not a Parquet file.
	junk := filepath.Join(t.TempDir(), "junk.parquet")
	os.WriteFile(junk, []byte("hello world, not parquet"), 0o644)
	if r := pq(t, "", "validate", junk); r.code != 1 || !strings.Contains(r.stdout, "not a Parquet file") {
		t.Errorf("validate junk: %+v", r)
	}
}

// TestOptimizeCommand: pqsql optimize rewrites a file of small row groups
// into full ones with the same rows and codecs, and leaves it alone the
// second time.
func TestOptimizeCommand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "small.parquet")
	sch, err := writer.NewSchema(writer.Int64("id").Required(), writer.String("s"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.Create(path, sch, writer.WithRowGroupRows(10), writer.WithCompression(format.Zstd))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		if err := w.WriteRow(int64(i), "x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if out := ok(t, "optimize", "--row-group-rows", "400", path); !strings.Contains(out, "1000 rows rewritten") {
		t.Errorf("optimize: %s", out)
	}
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f.NumRowGroups() != 3 || f.NumRows() != 1000 || f.Meta.RowGroups[0].Columns[0].MetaData.Codec != format.Zstd {
		t.Errorf("after optimize: %d row groups, %d rows, codec %v", f.NumRowGroups(), f.NumRows(), f.Meta.RowGroups[0].Columns[0].MetaData.Codec)
	}
	if out := ok(t, "count", path); strings.TrimSpace(out) != "1000" {
		t.Errorf("count: %q", out)
	}
	if out := ok(t, "optimize", "--row-group-rows", "400", path); !strings.Contains(out, "already full") {
		t.Errorf("second optimize: %s", out)
	}
}

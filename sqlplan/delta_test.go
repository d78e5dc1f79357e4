package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/delta/dv"
	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/writer"
)

// Delta tables built here follow the protocol with carquet's own writer;
// every expected value is computed from the Go values written, not by
// the reader under test.

func deltaEngine(t *testing.T) (*Engine, string) {
	t.Helper()
	dir := t.TempDir()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e, dir
}

var eventsSchema = deltatest.Struct(
	deltatest.StructField("id", "long", false, nil),
	deltatest.StructField("name", "string", true, nil),
	deltatest.StructField("amount", "double", true, nil),
	deltatest.StructField("region", "string", true, nil),
	deltatest.StructField("yr", "integer", true, nil),
)

func eventCols() []deltatest.Column {
	return []deltatest.Column{
		{Field: writer.Int64("id").Required(), Name: "id"},
		{Field: writer.String("name"), Name: "name"},
		{Field: writer.Double("amount"), Name: "amount"},
	}
}

// eventRows are ids lo..hi-1, name "n<id>", amount id/2 (NULL for
// multiples of 7).
func eventRows(lo, hi int64) [][]any {
	var rows [][]any
	for id := lo; id < hi; id++ {
		var amount any = float64(id) / 2
		if id%7 == 0 {
			amount = nil
		}
		rows = append(rows, []any{id, fmt.Sprintf("n%d", id), amount})
	}
	return rows
}

// buildEvents writes versions 0..3 of a table partitioned by region and
// yr: v0 adds eu [1,6) and us [6,11); v1 adds eu [11,16); v2 removes the
// us file; v3 adds asia [16,21) in a folder whose name needs URL
// encoding. It returns the ids live at each version.
func buildEvents(t *testing.T, root string, checkpointAt2 string) (*deltatest.Table, map[int64][]int64) {
	tb := deltatest.New(t, root)
	part := func(region, yr string) map[string]*string {
		return map[string]*string{"region": deltatest.Str(region), "yr": deltatest.Str(yr)}
	}
	f1 := tb.DataFile("region=eu/yr=2024/f1.parquet", eventCols(), eventRows(1, 6), part("eu", "2024"))
	f2 := tb.DataFile("region=us/yr=2023/f2.parquet", eventCols(), eventRows(6, 11), part("us", "2023"))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2},
		deltatest.NewMetaData(eventsSchema, []string{"region", "yr"}, nil), f1, f2)
	f3 := tb.DataFile("region=eu/yr=2024/f3.parquet", eventCols(), eventRows(11, 16), part("eu", "2024"))
	tb.Commit(f3)
	tb.Commit(deltatest.RemoveOf(f2))
	if checkpointAt2 != "" {
		tb.Checkpoint(checkpointAt2, 3)
	}
	f4 := tb.DataFile("region=asia/yr=2025/a b:c.parquet", eventCols(), eventRows(16, 21), part("asia", "2025"))
	tb.Commit(f4)
	ids := func(ranges ...[2]int64) []int64 {
		var out []int64
		for _, r := range ranges {
			for i := r[0]; i < r[1]; i++ {
				out = append(out, i)
			}
		}
		return out
	}
	return tb, map[int64][]int64{
		0: ids([2]int64{1, 11}),
		1: ids([2]int64{1, 16}),
		2: ids([2]int64{1, 6}, [2]int64{11, 16}),
		3: ids([2]int64{1, 6}, [2]int64{11, 21}),
	}
}

func expectedSums(ids []int64) (n, sumID int64, sumAmount float64, nonNull int64) {
	for _, id := range ids {
		n++
		sumID += id
		if id%7 != 0 {
			sumAmount += float64(id) / 2
			nonNull++
		}
	}
	return
}

func checkVersion(t *testing.T, e *Engine, table string, ids []int64) {
	t.Helper()
	n, sumID, sumAmount, nonNull := expectedSums(ids)
	q := fmt.Sprintf("SELECT COUNT(*), SUM(id), SUM(amount), COUNT(amount) FROM `%s`", table)
	got := queryAll(t, e, q)
	want := fmt.Sprintf("[[%d %d %g %d]]", n, sumID, sumAmount, nonNull)
	if g := fmt.Sprint(got); g != want {
		t.Fatalf("%s: got %s, want %s", q, g, want)
	}
}

func TestDeltaLogReplayAndTimeTravel(t *testing.T) {
	e, dir := deltaEngine(t)
	_, byVersion := buildEvents(t, filepath.Join(dir, "events"), "")
	checkVersion(t, e, "events", byVersion[3])
	for v := int64(0); v <= 3; v++ {
		checkVersion(t, e, fmt.Sprintf("events@v%d", v), byVersion[v])
	}
	if names := e.TableNames(); fmt.Sprint(names) != "[events]" {
		t.Fatalf("tables %v", names)
	}
	// Partition columns are typed by the schema: yr is an integer.
	expectRows(t, e, "SELECT region, yr, COUNT(*), MIN(id) FROM events GROUP BY region, yr ORDER BY region", "[[asia 2025 5 16] [eu 2024 10 1]]")
	expectRows(t, e, "SELECT COUNT(*) FROM events WHERE yr >= 2025 OR region = 'eu' AND id > 12", "[[8]]") // 16..20 and 13..15
	expectRows(t, e, "SELECT name FROM `events@v0` WHERE region = 'us' AND id = 8", "[[n8]]")
	if _, err := e.Prepare("SELECT * FROM `events@v9`"); err == nil {
		s, _ := e.Prepare("SELECT * FROM `events@v9`")
		if _, err := s.Query(context.Background(), nil); err == nil {
			t.Fatal("version 9 does not exist, yet the query ran")
		}
	}
	// DESCRIBE shows the schema's types.
	got := queryAll(t, e, "DESCRIBE events")
	if len(got) != 5 || fmt.Sprint(got[4][0:2]) != "[yr INTEGER]" {
		t.Fatalf("describe: %v", got)
	}
}

func TestDeltaCheckpoints(t *testing.T) {
	for _, kind := range []string{deltatest.Classic, deltatest.MultiPart, deltatest.V2JSON, deltatest.V2Parquet} {
		t.Run(kind, func(t *testing.T) {
			e, dir := deltaEngine(t)
			root := filepath.Join(dir, "events")
			_, byVersion := buildEvents(t, root, kind)
			checkVersion(t, e, "events", byVersion[3])
			checkVersion(t, e, "events@v2", byVersion[2])
			checkVersion(t, e, "events@v1", byVersion[1]) // older than the checkpoint: from commits
			// Without the commits before it the checkpoint alone carries
			// version 2; version 1 can no longer be built.
			for v := 0; v <= 2; v++ {
				if err := os.Remove(filepath.Join(root, "_delta_log", fmt.Sprintf("%020d.json", v))); err != nil {
					t.Fatal(err)
				}
			}
			e2, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer e2.Close()
			checkVersion(t, e2, "events", byVersion[3])
			checkVersion(t, e2, "events@v2", byVersion[2])
			s, err := e2.Prepare("SELECT COUNT(*) FROM `events@v1`")
			if err == nil {
				_, err = s.Query(context.Background(), nil)
			}
			if err == nil || !strings.Contains(err.Error(), "commit 0 is missing") {
				t.Fatalf("version 1 after its commits were deleted: %v", err)
			}
		})
	}
}

func TestDeltaIncompleteMultiPartCheckpointIgnored(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "events")
	_, byVersion := buildEvents(t, root, deltatest.MultiPart)
	// Part 2 of 3 is lost: the reader must fall back to the commits.
	if err := os.Remove(filepath.Join(root, "_delta_log", fmt.Sprintf("%020d.checkpoint.%010d.%010d.parquet", 2, 2, 3))); err != nil {
		t.Fatal(err)
	}
	checkVersion(t, e, "events", byVersion[3])
}

// dvTable writes two files of 100 rows (ids 0..199, row groups of 30
// rows), then replaces them in version 1 with deletion vectors: inline on
// the first file, on disk for the second.
func dvTable(t *testing.T, root string) (tb *deltatest.Table, deleted map[int64]bool, first *deltatest.Add) {
	tb = deltatest.New(t, root)
	cols := []deltatest.Column{{Field: writer.Int64("id").Required(), Name: "id"}, {Field: writer.String("s"), Name: "s"}}
	rows := func(lo int64) [][]any {
		var out [][]any
		for i := lo; i < lo+100; i++ {
			out = append(out, []any{i, fmt.Sprintf("s%03d", i)})
		}
		return out
	}
	f1 := tb.DataFile("part-1.parquet", cols, rows(0), nil, writer.WithRowGroupRows(30))
	f2 := tb.DataFile("part-2.parquet", cols, rows(100), nil, writer.WithRowGroupRows(30))
	schema := deltatest.Struct(deltatest.StructField("id", "long", false, nil), deltatest.StructField("s", "string", true, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}, WriterFeatures: []string{"deletionVectors"}},
		deltatest.NewMetaData(schema, nil, map[string]string{"delta.enableDeletionVectors": "true"}), f1, f2)
	deleted = map[int64]bool{}
	b1 := dv.New()
	for _, r := range []uint64{0, 29, 30, 59, 99} { // row group edges
		b1.Add(r)
		deleted[int64(r)] = true
	}
	b2 := dv.New()
	for _, r := range []uint64{5, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 60} {
		b2.Add(r)
		deleted[100+int64(r)] = true
	}
	d1, err := dv.Inline(b1)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := dv.WriteFile(root, "", []*dv.Bitmap{b2})
	if err != nil {
		t.Fatal(err)
	}
	n1, n2 := *f1, *f2
	n1.DeletionVector, n2.DeletionVector = &d1, &d2[0]
	tb.Commit(deltatest.RemoveOf(f1), deltatest.RemoveOf(f2), &n1, &n2)
	return tb, deleted, &n1
}

func TestDeltaDeletionVectors(t *testing.T) {
	e, dir := deltaEngine(t)
	_, deleted, _ := dvTable(t, filepath.Join(dir, "dvt"))
	var live []int64
	for i := int64(0); i < 200; i++ {
		if !deleted[i] {
			live = append(live, i)
		}
	}
	var sum int64
	for _, id := range live {
		sum += id
	}
	got := queryAll(t, e, "SELECT COUNT(*), SUM(id), MIN(id), MAX(id) FROM dvt")
	if g, w := fmt.Sprint(got), fmt.Sprintf("[[%d %d %d %d]]", len(live), sum, live[0], live[len(live)-1]); g != w {
		t.Fatalf("got %s, want %s", g, w)
	}
	// COUNT(*) alone is answered from metadata: numRecords less deleted rows.
	if pl := planOf(t, e, "SELECT COUNT(*) FROM dvt"); !strings.Contains(pl, "COUNT(*) FROM DELTA LOG (version 1)") {
		t.Fatalf("plan:\n%s", pl)
	}
	if g := fmt.Sprint(queryAll(t, e, "SELECT COUNT(*) FROM dvt")); g != fmt.Sprintf("[[%d]]", len(live)) {
		t.Fatalf("count(*): %s", g)
	}
	// A filter composes with the deletions (rows around row group edges).
	var want []string
	for _, id := range live {
		if id >= 25 && id < 65 || id >= 108 && id <= 120 {
			want = append(want, fmt.Sprintf("s%03d", id))
		}
	}
	got = queryAll(t, e, "SELECT s FROM dvt WHERE id >= 25 AND id < 65 OR id BETWEEN 108 AND 120 ORDER BY id")
	var gs []string
	for _, r := range got {
		gs = append(gs, r[0].(string))
	}
	if fmt.Sprint(gs) != fmt.Sprint(want) {
		t.Fatalf("filtered:\n got %v\nwant %v", gs, want)
	}
	// COUNT(*) with a filter on no returned column.
	n := 0
	for _, id := range live {
		if id%3 == 0 {
			n++
		}
	}
	if g := fmt.Sprint(queryAll(t, e, "SELECT COUNT(*) FROM dvt WHERE id % 3 = 0")); g != fmt.Sprintf("[[%d]]", n) {
		t.Fatalf("count where: %s, want %d", g, n)
	}
	groups := map[int64]int{}
	for _, id := range live {
		groups[id%4]++
	}
	got = queryAll(t, e, "SELECT id % 4 AS k, COUNT(*) FROM dvt GROUP BY k ORDER BY k")
	if g, w := fmt.Sprint(got), fmt.Sprintf("[[0 %d] [1 %d] [2 %d] [3 %d]]", groups[0], groups[1], groups[2], groups[3]); g != w {
		t.Fatalf("group by: %s, want %s", g, w)
	}
	if g := fmt.Sprint(queryAll(t, e, "SELECT id FROM dvt ORDER BY id LIMIT 1")); g != "[[1]]" {
		t.Fatalf("first live row: %s", g)
	}
	if g := fmt.Sprint(queryAll(t, e, "SELECT id FROM dvt LIMIT 1")); g != "[[1]]" {
		t.Fatalf("limit 1: %s", g)
	}
	// Version 0 predates the deletions.
	if g := fmt.Sprint(queryAll(t, e, "SELECT COUNT(*), SUM(id) FROM `dvt@v0`")); g != "[[200 19900]]" {
		t.Fatalf("v0: %s", g)
	}
}

// expectRows runs a query and compares its rows, printed, with want.
func expectRows(t *testing.T, e *Engine, q, want string) {
	t.Helper()
	if g := fmt.Sprint(queryAll(t, e, q)); g != want {
		t.Fatalf("%s:\n got %s\nwant %s", q, g, want)
	}
}

// md is a field's column mapping metadata.
func md(id int, phys string) map[string]any {
	return map[string]any{"delta.columnMapping.id": id, "delta.columnMapping.physicalName": phys}
}

// mappedName is a column's name in a data file: its physical name in name
// mode, an unrelated name in id mode (where only field ids match).
func mappedName(mode, phys, other string) string {
	if mode == "id" {
		return other
	}
	return phys
}

func TestDeltaColumnMapping(t *testing.T) {
	for _, mode := range []string{"name", "id"} {
		t.Run(mode, func(t *testing.T) {
			e, dir := deltaEngine(t)
			root := filepath.Join(dir, "cm")
			tb := deltatest.New(t, root)
			v0 := deltatest.Struct(
				deltatest.StructField("id", "long", false, md(1, "col-1a")),
				deltatest.StructField("name", "string", true, md(2, "col-2b")),
				deltatest.StructField("p", "string", true, md(3, "col-3p")),
			)
			// In name mode files use the physical names; in id mode the
			// files' names are unrelated and only the field ids match.
			fname := func(phys, other string) string { return mappedName(mode, phys, other) }
			cols := []deltatest.Column{
				{Field: writer.Int64(fname("col-1a", "whatever_a")).Required().ID(1), Name: "col-1a"},
				{Field: writer.String(fname("col-2b", "id")).ID(2), Name: "col-2b"},
			}
			f1 := tb.DataFile("p=x/f1.parquet", cols, [][]any{{int64(1), "one"}, {int64(2), "two"}}, map[string]*string{"col-3p": deltatest.Str("x")})
			conf := map[string]string{"delta.columnMapping.mode": mode, "delta.columnMapping.maxColumnId": "4"}
			proto := &deltatest.Protocol{MinReaderVersion: 2, MinWriterVersion: 5}
			tb.Commit(proto, deltatest.NewMetaData(v0, []string{"p"}, conf), f1)
			// Version 1 renames name → label and adds score; the new file
			// has the score column, the old one reads it as NULL.
			v1 := deltatest.Struct(
				deltatest.StructField("id", "long", false, md(1, "col-1a")),
				deltatest.StructField("label", "string", true, md(2, "col-2b")),
				deltatest.StructField("p", "string", true, md(3, "col-3p")),
				deltatest.StructField("score", "double", true, md(4, "col-4s")),
			)
			cols2 := append(cols, deltatest.Column{Field: writer.Double(fname("col-4s", "score_file")).ID(4), Name: "col-4s"})
			f2 := tb.DataFile("p=y/f2.parquet", cols2, [][]any{{int64(3), "three", 0.5}, {int64(4), nil, 1.5}}, map[string]*string{"col-3p": deltatest.Str("y")})
			tb.Commit(deltatest.NewMetaData(v1, []string{"p"}, conf), f2)
			expectRows(t, e, "SELECT id, label, p, score FROM cm ORDER BY id", "[[1 one x <nil>] [2 two x <nil>] [3 three y 0.5] [4 <nil> y 1.5]]")
			expectRows(t, e, "SELECT id FROM cm WHERE label = 'two' OR score > 1", "[[2] [4]]")
			expectRows(t, e, "SELECT name, p FROM `cm@v0` WHERE id = 2", "[[two x]]")
			// Statistics are keyed by physical names: id = 3 prunes f1.
			expectRows(t, e, "SELECT label FROM cm WHERE id = 3", "[[three]]")

			// Writes: the new files name the columns by their physical
			// names with the ids as field ids, partition values and stats
			// are keyed by physical names.
			exec(t, e, "INSERT INTO cm VALUES (5, 'five', 'x', 2.5), (6, NULL, 'z', NULL)")
			exec(t, e, "DELETE FROM cm WHERE id = 2 OR p = 'z'")
			exec(t, e, "UPDATE cm SET label = 'THREE', p = 'x' WHERE id = 3")
			expectRows(t, e, "SELECT id, label, p, score FROM cm ORDER BY id", "[[1 one x <nil>] [3 THREE x 0.5] [4 <nil> y 1.5] [5 five x 2.5]]")
			expectRows(t, e, "SELECT id FROM cm WHERE score > 2", "[[5]]")
			snap, err := delta.Open(root, -1)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range snap.Files {
				if strings.HasSuffix(f.URI, "f1.parquet") || strings.HasSuffix(f.URI, "f2.parquet") {
					continue
				}
				pf, err := file.OpenFile(f.Path, file.Options{}, false)
				if err != nil {
					t.Fatal(err)
				}
				var cols []string
				for _, c := range pf.Schema.Root.Children {
					cols = append(cols, fmt.Sprintf("%s:%d", c.Name, c.FieldID.Value))
				}
				pf.Close()
				st, _ := f.Stats()
				if fmt.Sprint(cols) != "[col-1a:1 col-2b:2 col-4s:4]" || f.PartitionValues["col-3p"] == nil || st == nil || st.MinValues["col-1a"] == nil {
					t.Errorf("%s: columns %v, partition values %v, stats %s", f.URI, cols, f.PartitionValues, f.StatsJSON)
				}
			}
		})
	}
}

func TestDeltaUnsupportedReaderFeature(t *testing.T) {
	e, dir := deltaEngine(t)
	tb := deltatest.New(t, filepath.Join(dir, "odd"))
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}}, [][]any{{int64(1)}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors", "fancyNewThing"}},
		deltatest.NewMetaData(deltatest.Struct(deltatest.StructField("id", "long", true, nil)), nil, nil), f)
	s, err := e.Prepare("SELECT * FROM odd")
	if err == nil {
		_, err = s.Query(context.Background(), nil)
	}
	if err == nil || !strings.Contains(err.Error(), `"fancyNewThing"`) {
		t.Fatalf("want a refusal naming the feature, got %v", err)
	}
}

func TestDeltaEngineOnTableFolder(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "events")
	_, byVersion := buildEvents(t, root, deltatest.Classic)
	e, err := Open(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	checkVersion(t, e, "events", byVersion[3])
	v := int64(1)
	e1, err := Open(root, Options{DeltaVersion: &v})
	if err != nil {
		t.Fatal(err)
	}
	defer e1.Close()
	checkVersion(t, e1, "events", byVersion[1])
	checkVersion(t, e1, "events@v3", byVersion[3])
}

// Files from writers other than Spark's default store timestamps as INT96
// and small decimals as fixed-length binary, not the INT64 and INT64
// decimal the Delta schema maps to: the values still come out right.
func TestDeltaOtherPhysicalTypes(t *testing.T) {
	e, dir := deltaEngine(t)
	tb := deltatest.New(t, filepath.Join(dir, "ty"))
	t1 := time.Date(2024, 3, 1, 10, 30, 0, 123456000, time.UTC)
	t2 := time.Date(1999, 12, 31, 23, 59, 59, 0, time.UTC)
	cols := []deltatest.Column{
		{Field: writer.Int64("id"), Name: "id"},
		{Field: writer.Int96("ts"), Name: "ts"},
		{Field: writer.DecimalAs("d", 10, 2, format.FixedLenByteArray, 5), Name: "d"},
	}
	f := tb.DataFile("f.parquet", cols, [][]any{
		{int64(1), t1, value.DecimalFromInt64(12345, 2)},
		{int64(2), t2, value.DecimalFromInt64(-50, 2)},
		{int64(3), nil, nil},
	}, nil)
	f.Stats = "" // INT96 and binary decimals: no statistics written
	schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("ts", "timestamp", true, nil),
		deltatest.StructField("d", "decimal(10,2)", true, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil), f)
	got := queryAll(t, e, "SELECT id, ts, CAST(d AS VARCHAR) FROM ty ORDER BY id")
	want := fmt.Sprint([][]any{{int64(1), t1, "123.45"}, {int64(2), t2, "-0.50"}, {int64(3), nil, nil}})
	if g := fmt.Sprint(got); g != want {
		t.Fatalf("got  %s\nwant %s", g, want)
	}
	// Without numRecords in the add action, COUNT(*) reads the footer.
	expectRows(t, e, "SELECT COUNT(*) FROM ty", "[[3]]")
	expectRows(t, e, "SELECT id FROM ty WHERE d > 0 AND ts > '2000-01-01'", "[[1]]")
}

// Column mapping reaches into structs: the fields of a struct column have
// physical names (and ids) of their own.
func TestDeltaColumnMappingNested(t *testing.T) {
	for _, mode := range []string{"name", "id"} {
		t.Run(mode, func(t *testing.T) {
			e, dir := deltaEngine(t)
			tb := deltatest.New(t, filepath.Join(dir, "nm"))
			fname := func(phys, other string) string { return mappedName(mode, phys, other) }
			info := deltatest.Struct(deltatest.StructField("a", "long", true, md(11, "col-ia")), deltatest.StructField("b", "string", true, md(12, "col-ib")))
			schema := deltatest.Struct(deltatest.StructField("id", "long", true, md(1, "col-id")), deltatest.StructField("info", info, true, md(10, "col-info")))
			cols := []deltatest.Column{
				{Field: writer.Int64(fname("col-id", "c1")).ID(1), Name: "col-id"},
				{Field: writer.Group(fname("col-info", "c2"), writer.Int64(fname("col-ia", "x")).ID(11), writer.String(fname("col-ib", "y")).ID(12)).ID(10), Name: "col-info"},
			}
			f := tb.DataFile("f.parquet", cols, [][]any{
				{int64(1), map[string]any{fname("col-ia", "x"): int64(10), fname("col-ib", "y"): "p"}},
				{int64(2), map[string]any{fname("col-ia", "x"): int64(20), fname("col-ib", "y"): "q"}},
				{int64(3), nil},
			}, nil)
			tb.Commit(&deltatest.Protocol{MinReaderVersion: 2, MinWriterVersion: 5},
				deltatest.NewMetaData(schema, nil, map[string]string{"delta.columnMapping.mode": mode}), f)
			expectRows(t, e, "SELECT id, info FROM nm ORDER BY id", "[[1 map[a:10 b:p]] [2 map[a:20 b:q]] [3 <nil>]]")
			expectRows(t, e, "SELECT id, info.b FROM nm WHERE info.a > 15", "[[2 q]]")
			// Writes name the struct's fields by their physical names too.
			exec(t, e, "INSERT INTO nm SELECT id + 10, info FROM nm")
			exec(t, e, "UPDATE nm SET id = id * 100 WHERE info.a = 10")
			expectRows(t, e, "SELECT id, info FROM nm ORDER BY id", "[[2 map[a:20 b:q]] [3 <nil>] [12 map[a:20 b:q]] [13 <nil>] [100 map[a:10 b:p]] [1100 map[a:10 b:p]]]")
			expectRows(t, e, "SELECT id FROM nm WHERE info.b = 'p' ORDER BY id", "[[100] [1100]]")
		})
	}
}

// A Delta table whose files were all removed (or that never had any) is
// still a table, with the schema's columns and no rows.
func TestDeltaEmptyTable(t *testing.T) {
	e, dir := deltaEngine(t)
	tb := deltatest.New(t, filepath.Join(dir, "empty"))
	schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("d", "date", true, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil))
	f := tb.DataFile("f.parquet", []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}, {Field: writer.Date("d"), Name: "d"}},
		[][]any{{int64(1), time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC)}}, nil)
	tb.Commit(f)
	tb.Commit(deltatest.RemoveOf(f))
	if names := fmt.Sprint(e.TableNames()); names != "[empty]" {
		t.Fatalf("tables %s", names)
	}
	expectRows(t, e, "SELECT COUNT(*) FROM empty", "[[0]]")
	expectRows(t, e, "SELECT id, d FROM empty WHERE id > 0", "[]")
	expectRows(t, e, "SELECT COUNT(*) FROM `empty@v0`", "[[0]]")
	expectRows(t, e, "SELECT id, CAST(d AS VARCHAR) FROM `empty@v1`", "[[1 2024-01-02]]")
}

// Partition columns take their types from the schema: dates, booleans,
// doubles, decimals and timestamps, and null values.
func TestDeltaTypedPartitions(t *testing.T) {
	e, dir := deltaEngine(t)
	tb := deltatest.New(t, filepath.Join(dir, "tp"))
	schema := deltatest.Struct(
		deltatest.StructField("id", "long", true, nil), deltatest.StructField("d", "date", true, nil),
		deltatest.StructField("b", "boolean", true, nil), deltatest.StructField("x", "double", true, nil),
		deltatest.StructField("m", "decimal(5,2)", true, nil), deltatest.StructField("ts", "timestamp", true, nil))
	cols := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}}
	pv := func(d, b, x, m, ts *string) map[string]*string {
		return map[string]*string{"d": d, "b": b, "x": x, "m": m, "ts": ts}
	}
	s := deltatest.Str
	f1 := tb.DataFile("f1.parquet", cols, [][]any{{int64(1)}, {int64(2)}}, pv(s("2024-01-02"), s("true"), s("1.5"), s("12.30"), s("2024-01-02 03:04:05.123456")))
	f2 := tb.DataFile("f2.parquet", cols, [][]any{{int64(3)}}, pv(nil, s("false"), s("-2"), s("-0.05"), s("1999-12-31T23:59:59Z")))
	f3 := tb.DataFile("f3.parquet", cols, [][]any{{int64(4)}}, pv(s("2023-07-01"), nil, nil, nil, nil))
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2},
		deltatest.NewMetaData(schema, []string{"d", "b", "x", "m", "ts"}, nil), f1, f2, f3)
	expectRows(t, e, "SELECT id, CAST(d AS VARCHAR), b, x, CAST(m AS VARCHAR), CAST(ts AS VARCHAR) FROM tp ORDER BY id",
		"[[1 2024-01-02 true 1.5 12.30 2024-01-02 03:04:05.123456+00] [2 2024-01-02 true 1.5 12.30 2024-01-02 03:04:05.123456+00] "+
			"[3 <nil> false -2 -0.05 1999-12-31 23:59:59+00] [4 2023-07-01 <nil> <nil> <nil> <nil>]]")
	expectRows(t, e, "SELECT id FROM tp WHERE d IS NULL", "[[3]]")
	expectRows(t, e, "SELECT id FROM tp WHERE d > DATE '2023-12-31' ORDER BY id", "[[1] [2]]")
	expectRows(t, e, "SELECT id FROM tp WHERE b = false OR m > 12.29 ORDER BY id", "[[1] [2] [3]]")
	expectRows(t, e, "SELECT id FROM tp WHERE x < 0 AND ts < TIMESTAMP '2000-01-01 00:00:00'", "[[3]]")
	expectRows(t, e, "SELECT COUNT(*), MIN(d), COUNT(b) FROM tp", fmt.Sprint([][]any{{int64(4), time.Date(2023, 7, 1, 0, 0, 0, 0, time.UTC), int64(3)}}))
}

// Deletion vectors survive checkpoints (the add rows' deletionVector
// structs), and a later commit replacing a file's deletion vector removes
// the checkpoint's add by path and vector id.
func TestDeltaDeletionVectorsThroughCheckpoints(t *testing.T) {
	for _, kind := range []string{deltatest.Classic, deltatest.V2Parquet} {
		t.Run(kind, func(t *testing.T) {
			e, dir := deltaEngine(t)
			root := filepath.Join(dir, "dvc")
			tb, deleted, first := dvTable(t, root)
			tb.Checkpoint(kind, 2)
			bm := dv.New()
			for r := range deleted {
				if r < 100 {
					bm.Add(uint64(r))
				}
			}
			bm.Add(1)
			bm.Add(2)
			d, err := dv.Inline(bm)
			if err != nil {
				t.Fatal(err)
			}
			next := *first
			next.DeletionVector = &d
			tb.Commit(deltatest.RemoveOf(first), &next)
			deleted[1], deleted[2] = true, true
			for v := 0; v <= 1; v++ {
				if err := os.Remove(filepath.Join(root, "_delta_log", fmt.Sprintf("%020d.json", v))); err != nil {
					t.Fatal(err)
				}
			}
			var n, sum int64
			for i := int64(0); i < 200; i++ {
				if !deleted[i] {
					n++
					sum += i
				}
			}
			expectRows(t, e, "SELECT COUNT(*), SUM(id) FROM dvc", fmt.Sprintf("[[%d %d]]", n, sum))
			expectRows(t, e, "SELECT COUNT(*) FROM dvc WHERE id < 5", "[[2]]") // 3 and 4
			expectRows(t, e, "SELECT COUNT(*) FROM `dvc@v1`", fmt.Sprintf("[[%d]]", n+2))
		})
	}
}

// Schema evolution inside structs: a field added to a struct (and to the
// struct elements of a list) reads as NULL in older files; a file whose
// struct fields come in another order is matched by name.
func TestDeltaNestedSchemaEvolution(t *testing.T) {
	e, dir := deltaEngine(t)
	tb := deltatest.New(t, filepath.Join(dir, "ev"))
	elem := func(fields ...map[string]any) map[string]any {
		return map[string]any{"type": "array", "elementType": deltatest.Struct(fields...), "containsNull": true}
	}
	v0 := deltatest.Struct(deltatest.StructField("id", "long", true, nil),
		deltatest.StructField("info", deltatest.Struct(deltatest.StructField("a", "long", true, nil)), true, nil),
		deltatest.StructField("l", elem(deltatest.StructField("x", "long", true, nil)), true, nil))
	cols0 := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"},
		{Field: writer.Group("info", writer.Int32("a")), Name: "info"},
		{Field: writer.List("l", writer.Group("element", writer.Int64("x"))), Name: "l"}}
	f1 := tb.DataFile("f1.parquet", cols0, [][]any{{int64(1), map[string]any{"a": int32(10)}, []any{map[string]any{"x": int64(5)}}}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(v0, nil, nil), f1)
	v1 := deltatest.Struct(deltatest.StructField("id", "long", true, nil),
		deltatest.StructField("info", deltatest.Struct(deltatest.StructField("a", "long", true, nil), deltatest.StructField("b", "string", true, nil)), true, nil),
		deltatest.StructField("l", elem(deltatest.StructField("x", "long", true, nil), deltatest.StructField("y", "long", true, nil)), true, nil))
	cols1 := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"},
		{Field: writer.Group("info", writer.String("b"), writer.Int64("a")), Name: "info"},
		{Field: writer.List("l", writer.Group("element", writer.Int64("x"), writer.Int64("y"))), Name: "l"}}
	f2 := tb.DataFile("f2.parquet", cols1, [][]any{{int64(2), map[string]any{"a": int64(20), "b": "q"}, []any{map[string]any{"x": int64(6), "y": int64(7)}}}}, nil)
	tb.Commit(deltatest.NewMetaData(v1, nil, nil), f2)
	expectRows(t, e, "SELECT id, info, l FROM ev ORDER BY id",
		"[[1 map[a:10 b:<nil>] [map[x:5 y:<nil>]]] [2 map[a:20 b:q] [map[x:6 y:7]]]]")
	expectRows(t, e, "SELECT id, l FROM `ev@v0`", "[[1 [map[x:5]]]]")
}

// TestDeltaDrop: DROP TABLE of a Delta table that another writer made
// removes its folder, log and data files (folderdml.go).
func TestDeltaDrop(t *testing.T) {
	e, dir := deltaEngine(t)
	buildEvents(t, filepath.Join(dir, "events"), "")
	s, err := e.Prepare("DROP TABLE events")
	if err == nil {
		_, err = s.Exec(context.Background(), nil, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "events")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("the table's folder after DROP TABLE: %v", err)
	}
	if slices.Contains(e.TableNames(), "events") {
		t.Fatalf("the dropped table is still listed")
	}
}

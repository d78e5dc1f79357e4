package sqlplan

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/xwb1989/sqlparser"
)

// partitionsOf describes the live files of the latest snapshot of the
// table at root: for each, its partition values (key=value, nil as
// <null>, in key order) and whether it has a deletion vector, sorted.
func partitionsOf(t *testing.T, root string) []string {
	t.Helper()
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range snap.Files {
		var kv []string
		for k, v := range f.PartitionValues {
			s := "<null>"
			if v != nil {
				s = *v
			}
			kv = append(kv, k+"="+s)
		}
		sort.Strings(kv)
		d := ""
		if f.DeletionVector != nil {
			d = "+dv"
		}
		out = append(out, strings.Join(kv, ",")+d)
	}
	sort.Strings(out)
	return out
}

// expectPartitions checks partitionsOf(root) printed.
func expectPartitions(t *testing.T, root, want string) {
	t.Helper()
	if got := fmt.Sprint(partitionsOf(t, root)); got != want {
		t.Fatalf("files: %s\nwant   %s", got, want)
	}
}

// dataColumns lists the columns of a data file's Parquet schema.
func dataColumns(t *testing.T, path string) []string {
	t.Helper()
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	for _, c := range f.Schema.Root.Children {
		out = append(out, c.Name)
	}
	return out
}

func TestDeltaPartitionedCreateInsert(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "pt")
	exec(t, e, "CREATE TABLE pt (id BIGINT NOT NULL, region VARCHAR, d DATE, amount DOUBLE) USING delta PARTITIONED BY (region, d)")
	exec(t, e, `INSERT INTO pt VALUES (1, 'eu', DATE '2024-01-02', 1.5), (2, 'us', DATE '2024-01-02', 2.5),
		(3, 'eu', DATE '2024-01-02', 3.5), (4, NULL, NULL, 4.5), (5, 'a/b:c=d%', DATE '2023-12-31', NULL), (6, '', DATE '2024-01-02', 6.5), (7, NULL, DATE '2024-01-02', 7.5)`)
	// One file per partition; the values as the protocol serializes them,
	// NULL (and the empty string, which Delta reads as NULL) as null: rows
	// 6 and 7 share a file.
	got := partitionsOf(t, root)
	want := []string{"d=2023-12-31,region=a/b:c=d%", "d=2024-01-02,region=<null>", "d=2024-01-02,region=eu", "d=2024-01-02,region=us", "d=<null>,region=<null>"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("files: %v\nwant %v", got, want)
	}
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(snap.Metadata.PartitionColumns) != "[region d]" {
		t.Fatalf("partition columns %v", snap.Metadata.PartitionColumns)
	}
	for _, f := range snap.Files {
		// The folders: col=value, escaped as Hive does, then URL-encoded.
		dir, _ := url.PathUnescape(f.URI)
		dir = filepath.Dir(dir)
		switch v := f.PartitionValues["region"]; {
		case v == nil && f.PartitionValues["d"] == nil:
			if dir != "region=__HIVE_DEFAULT_PARTITION__/d=__HIVE_DEFAULT_PARTITION__" {
				t.Errorf("folder %q", dir)
			}
		case v != nil && *v == "a/b:c=d%":
			if dir != "region=a%2Fb%3Ac%3Dd%25/d=2023-12-31" || !strings.HasPrefix(f.URI, "region=a%252Fb%253Ac%253Dd%2525/") {
				t.Errorf("folder %q, path %q", dir, f.URI)
			}
		}
		// The data files hold the other columns only, with their stats.
		if cols := dataColumns(t, f.Path); fmt.Sprint(cols) != "[id amount]" {
			t.Errorf("%s holds %v", f.URI, cols)
		}
		st, err := f.Stats()
		if err != nil || st.MinValues["id"] == nil || st.MinValues["region"] != nil {
			t.Errorf("%s: stats %s (%v)", f.URI, f.StatsJSON, err)
		}
	}
	expectRows(t, e, "SELECT id, region, CAST(d AS VARCHAR), amount FROM pt ORDER BY id",
		"[[1 eu 2024-01-02 1.5] [2 us 2024-01-02 2.5] [3 eu 2024-01-02 3.5] [4 <nil> <nil> 4.5] [5 a/b:c=d% 2023-12-31 <nil>] [6 <nil> 2024-01-02 6.5] [7 <nil> 2024-01-02 7.5]]")
	// Reads prune by partition values: with the us file gone from the
	// disk, a query for eu still runs (it never opens it), one for us
	// fails.
	for _, f := range snap.Files {
		if v := f.PartitionValues["region"]; v != nil && *v == "us" {
			if err := os.Rename(f.Path, f.Path+".away"); err != nil {
				t.Fatal(err)
			}
			defer os.Rename(f.Path+".away", f.Path)
		}
	}
	e.forget(root)
	expectRows(t, e, "SELECT SUM(id) FROM pt WHERE region = 'eu' AND d = DATE '2024-01-02'", "[[4]]")
	if _, err := queryRows(t, e, "SELECT SUM(id) FROM pt WHERE region = 'us'"); err == nil {
		t.Fatal("the us partition's file is gone: the query should fail")
	}
	// So do writes: DELETE and UPDATE of other partitions never open it.
	exec(t, e, "DELETE FROM pt WHERE region = 'eu' AND id = 3")
	exec(t, e, "UPDATE pt SET amount = 0 WHERE d = DATE '2023-12-31'")
	exec(t, e, "DELETE FROM pt WHERE region IS NULL AND d IS NULL")
	expectRows(t, e, "SELECT id, amount FROM pt WHERE region <> 'us' OR region IS NULL ORDER BY id", "[[1 1.5] [5 0] [6 6.5] [7 7.5]]")
}

func TestDeltaPartitionedCreateAsSelect(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "cp")
	exec(t, e, "CREATE TABLE src (id INT, ts TIMESTAMPTZ, ok BOOLEAN, p DECIMAL(6,2))")
	exec(t, e, `INSERT INTO src VALUES (1, TIMESTAMPTZ '2024-05-06 07:08:09.123456+00', true, 1.50),
		(2, TIMESTAMPTZ '2024-05-06 07:08:09.123456+00', false, -2.25), (3, NULL, NULL, NULL)`)
	exec(t, e, "CREATE TABLE cp USING delta PARTITIONED BY (ts, ok, p) AS SELECT * FROM src")
	got := partitionsOf(t, root)
	want := []string{"ok=<null>,p=<null>,ts=<null>", "ok=false,p=-2.25,ts=2024-05-06T07:08:09.123456Z", "ok=true,p=1.50,ts=2024-05-06T07:08:09.123456Z"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("files: %v\nwant %v", got, want)
	}
	expectRows(t, e, "SELECT id, CAST(ts AS VARCHAR), ok, CAST(p AS VARCHAR) FROM cp ORDER BY id",
		"[[1 2024-05-06 07:08:09.123456+00 true 1.50] [2 2024-05-06 07:08:09.123456+00 false -2.25] [3 <nil> <nil> <nil>]]")
	for _, q := range []string{
		"CREATE TABLE bad1 (a INT, b INT) USING delta PARTITIONED BY (c)",
		"CREATE TABLE bad2 (a INT) USING delta PARTITIONED BY (a)",
		"CREATE TABLE bad3 (a INT, b INT) USING delta PARTITIONED BY (a, A)",
		"CREATE TABLE bad4 (a INT, b INT[]) USING delta PARTITIONED BY (b)",
		"CREATE TABLE bad5 (a INT, b INT) PARTITIONED BY (a)",
		"CREATE TABLE bad6 USING delta PARTITIONED BY (b) AS SELECT 1 AS id, X'FF' AS b",
	} {
		if err := execErr(e, q, nil); err == nil {
			t.Errorf("%s: no error", q)
		}
		if _, err := os.Stat(filepath.Join(dir, strings.Fields(q)[2])); err == nil {
			t.Errorf("%s: a table folder was left", q)
		}
	}
}

func TestDeltaPartitionedDML(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "pt")
	exec(t, e, "CREATE TABLE pt (id BIGINT NOT NULL, region VARCHAR, amount DOUBLE) USING delta PARTITIONED BY (region)")
	exec(t, e, "INSERT INTO pt VALUES (1, 'eu', 1), (2, 'us', 2), (3, 'eu', 3), (4, 'us', 4), (5, 'asia', 5)")
	exec(t, e, "DELETE FROM pt WHERE id = 2")
	expectPartitions(t, root, "[region=asia region=eu region=us+dv]")
	// A DELETE by partition values takes whole files: it removes them,
	// without vectors (the rows a vector deleted already do not count).
	if r := exec(t, e, "DELETE FROM pt WHERE region = 'us' OR region IS NULL AND random() < 2"); r.RowsAffected != 1 {
		t.Fatalf("deleted %d", r.RowsAffected)
	}
	expectPartitions(t, root, "[region=asia region=eu]")
	// One that takes some rows of a file gives it a vector.
	exec(t, e, "DELETE FROM pt WHERE id = 3")
	expectPartitions(t, root, "[region=asia region=eu+dv]")
	// UPDATE of a partition column moves the row to its new partition.
	if r := exec(t, e, "UPDATE pt SET region = 'us', amount = amount * 10 WHERE id = 1"); r.RowsAffected != 1 {
		t.Fatalf("updated %d", r.RowsAffected)
	}
	expectPartitions(t, root, "[region=asia region=us]")
	expectRows(t, e, "SELECT id, region, amount FROM pt ORDER BY id", "[[1 us 10] [5 asia 5]]")
	// MERGE: updates move, inserts land in their partitions.
	exec(t, e, `MERGE INTO pt USING (VALUES (5, 'eu'), (6, 'eu'), (7, NULL)) AS s(id, r) ON pt.id = s.id
		WHEN MATCHED THEN UPDATE SET region = s.r WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.r, 0)`)
	expectRows(t, e, "SELECT id, region, amount FROM pt ORDER BY id", "[[1 us 10] [5 eu 5] [6 eu 0] [7 <nil> 0]]")
	exec(t, e, "INSERT INTO pt VALUES (8, 'us', 8)")
	exec(t, e, "INSERT INTO pt VALUES (9, 'eu', 9)")
	before := partitionsOf(t, root)
	// OPTIMIZE compacts within a partition: one file each after it.
	exec(t, e, "OPTIMIZE pt")
	if got := partitionsOf(t, root); fmt.Sprint(got) != "[region=<null> region=eu region=us]" {
		t.Fatalf("before OPTIMIZE %v, after %v", before, got)
	}
	expectRows(t, e, "SELECT id, region, amount FROM pt ORDER BY id", "[[1 us 10] [5 eu 5] [6 eu 0] [7 <nil> 0] [8 us 8] [9 eu 9]]")
	// Every file's rows are of its partition: read each file alone.
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range snap.Files {
		rows := queryAll(t, e, fmt.Sprintf("SELECT COUNT(*) FROM '%s'", f.Path))
		region := "<nil>"
		if v := f.PartitionValues["region"]; v != nil {
			region = *v
		}
		n := queryAll(t, e, fmt.Sprintf("SELECT COUNT(*) FROM pt WHERE region IS NOT DISTINCT FROM %s", map[bool]string{true: "NULL", false: "'" + region + "'"}[region == "<nil>"]))
		if fmt.Sprint(rows) != fmt.Sprint(n) {
			t.Errorf("%s: %v rows, partition %s has %v", f.URI, rows, region, n)
		}
	}
	// Version 10 gets a checkpoint: the partition values (null ones
	// too) read back from it.
	exec(t, e, "INSERT INTO pt VALUES (10, NULL, 1)")
	if _, err := os.Stat(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.checkpoint.parquet", 10))); err != nil {
		t.Fatal(err)
	}
	e.forget(root)
	expectPartitions(t, root, "[region=<null> region=<null> region=eu region=us]")
	expectRows(t, e, "SELECT id, region FROM pt WHERE region IS NULL ORDER BY id", "[[7 <nil>] [10 <nil>]]")
}

// An INSERT, DELETE and UPDATE of a partitioned table another engine
// wrote (region string, yr integer partitions, a folder name that needs
// URL encoding).
func TestDeltaPartitionedOtherEngine(t *testing.T) {
	e, dir := deltaEngine(t)
	root := filepath.Join(dir, "events")
	_, byVersion := buildEvents(t, root, "")
	exec(t, e, "INSERT INTO events (id, name, amount, region, yr) VALUES (30, 'n30', 15, 'eu', 2024), (31, 'n31', 15.5, 'sa', NULL)")
	ids := append(append([]int64{}, byVersion[3]...), 30, 31)
	checkVersion(t, e, "events", ids)
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range snap.Files[len(snap.Files)-2:] {
		p, _ := url.PathUnescape(f.URI)
		paths = append(paths, filepath.Dir(p))
		if cols := dataColumns(t, f.Path); fmt.Sprint(cols) != "[id name amount]" {
			t.Errorf("%s holds %v", f.URI, cols)
		}
	}
	if fmt.Sprint(paths) != "[region=eu/yr=2024 region=sa/yr=__HIVE_DEFAULT_PARTITION__]" {
		t.Fatalf("new files in %v", paths)
	}
	expectRows(t, e, "SELECT region, yr, COUNT(*) FROM events GROUP BY region, yr ORDER BY region", "[[asia 2025 5] [eu 2024 11] [sa <nil> 1]]")
	exec(t, e, "DELETE FROM events WHERE yr = 2025 AND id > 18")
	exec(t, e, "UPDATE events SET region = 'sa', yr = 2026 WHERE id = 1")
	expectRows(t, e, "SELECT region, yr, COUNT(*), SUM(id) FROM events GROUP BY region, yr ORDER BY region, yr",
		"[[asia 2025 3 51] [eu 2024 10 109] [sa 2026 1 1] [sa <nil> 1 31]]")
}

func TestDeltaPartitionOnly(t *testing.T) {
	snap := &delta.Snapshot{Metadata: delta.Metadata{PartitionColumns: []string{"region", "yr"}}}
	for q, want := range map[string]bool{
		"region = 'eu'":                      true,
		"lower(pt.Region) = 'eu' AND yr > 3": true,
		"region = 'eu' AND id = 1":           false,
		"region = 'eu' AND random() < 0.5":   false,
		"region IN (SELECT r FROM other)":    false,
	} {
		st, err := sqlparser.Parse("SELECT 1 FROM pt WHERE " + q)
		if err != nil {
			t.Fatal(err)
		}
		if got := partitionOnly(st.(*sqlparser.Select).Where.Expr, snap); got != want {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
}

// CREATE TABLE ... USING delta TBLPROPERTIES ('delta.columnMapping.mode'
// = ...): every column, nested ones too, gets an id and a physical name;
// the protocol lists the columnMapping feature; the data files use the
// physical names.
func TestDeltaCreateColumnMapping(t *testing.T) {
	for _, mode := range []string{"name", "id"} {
		t.Run(mode, func(t *testing.T) {
			e, dir := deltaEngine(t)
			root := filepath.Join(dir, "cm")
			exec(t, e, fmt.Sprintf(`CREATE TABLE cm (id BIGINT, info STRUCT(zip INTEGER, city VARCHAR), tags VARCHAR[], region VARCHAR)
				USING delta PARTITIONED BY (region) TBLPROPERTIES ('delta.columnMapping.mode' = '%s', 'delta.checkpointInterval' = '3')`, mode))
			exec(t, e, `INSERT INTO cm VALUES (1, {'zip': 150, 'city': 'Oslo'}, ['x', 'y'], 'eu'), (2, NULL, [], 'us'), (3, {'zip': NULL, 'city': 'Rome'}, NULL, NULL)`)
			exec(t, e, "UPDATE cm SET region = 'eu', tags = ['z'] WHERE id = 2")
			exec(t, e, "DELETE FROM cm WHERE info.city = 'Rome'")
			expectRows(t, e, "SELECT id, info, tags, region FROM cm ORDER BY id", "[[1 map[city:Oslo zip:150] [x y] eu] [2 <nil> [z] eu]]")
			snap, err := delta.Open(root, -1)
			if err != nil {
				t.Fatal(err)
			}
			p := snap.Protocol
			if p.MinReaderVersion != 3 || p.MinWriterVersion != 7 || fmt.Sprint(p.ReaderFeatures) != "[columnMapping deletionVectors]" ||
				fmt.Sprint(p.WriterFeatures) != "[columnMapping deletionVectors]" {
				t.Fatalf("protocol %+v", p)
			}
			if snap.ColumnMapping != mode || snap.Metadata.Configuration["delta.columnMapping.maxColumnId"] != "6" || snap.Metadata.Configuration["delta.checkpointInterval"] != "3" {
				t.Fatalf("mode %s, configuration %v", snap.ColumnMapping, snap.Metadata.Configuration)
			}
			region := snap.Field("region")
			for _, f := range snap.Files {
				cols := dataColumns(t, f.Path)
				if len(cols) != 3 || !strings.HasPrefix(cols[0], "col-") || cols[0] != snap.Field("id").PhysicalName {
					t.Errorf("%s holds %v", f.URI, cols)
				}
				if _, ok := f.PartitionValues[region.PhysicalName]; !ok || !strings.HasPrefix(f.URI, region.PhysicalName+"=") {
					t.Errorf("%s: partition values %v", f.URI, f.PartitionValues)
				}
			}
			// Version 3 has a checkpoint (the table's interval); a new
			// engine reads the table from it.
			if _, err := os.Stat(filepath.Join(root, delta.LogDir, fmt.Sprintf("%020d.checkpoint.parquet", 3))); err != nil {
				t.Fatal(err)
			}
			e2, err := Open(dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer e2.Close()
			expectRows(t, e2, "SELECT id, info.city, region FROM cm WHERE region = 'eu' ORDER BY id", "[[1 Oslo eu] [2 <nil> eu]]")
		})
	}
	e, _ := deltaEngine(t)
	for _, q := range []string{
		"CREATE TABLE x (a INT) USING delta TBLPROPERTIES ('delta.columnMapping.mode' = 'names')",
		"CREATE TABLE x (a INT) USING delta TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')",
		"CREATE TABLE x (a INT) USING delta TBLPROPERTIES ('delta.checkpointInterval' = '0')",
		"CREATE TABLE x (a INT) TBLPROPERTIES ('delta.appendOnly' = 'true')",
	} {
		if err := execErr(e, q, nil); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
}

// TBLPROPERTIES ('delta.appendOnly' = 'true'): INSERTs go, DELETEs are
// refused; the legacy protocol (writer 2) already implies the feature.
func TestDeltaCreateAppendOnly(t *testing.T) {
	e, dir := deltaEngine(t)
	exec(t, e, "CREATE TABLE ao (a INT, p VARCHAR) USING delta PARTITIONED BY (p) TBLPROPERTIES ('delta.appendOnly' = 'TRUE')")
	exec(t, e, "INSERT INTO ao VALUES (1, 'x')")
	if err := execErr(e, "DELETE FROM ao WHERE p = 'x'", nil); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("DELETE of an append-only table: %v", err)
	}
	snap, err := delta.Open(filepath.Join(dir, "ao"), -1)
	if err != nil {
		t.Fatal(err)
	}
	if p := snap.Protocol; p.MinReaderVersion != 1 || p.MinWriterVersion != 2 || snap.Metadata.Configuration["delta.appendOnly"] != "true" {
		t.Fatalf("protocol %+v, configuration %v", p, snap.Metadata.Configuration)
	}
	expectRows(t, e, "SELECT a, p FROM ao", "[[1 x]]")
}

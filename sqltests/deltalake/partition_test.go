package deltalake

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
)

// partitionAggs are the aggregates both engines compute over the
// partitioned tables.
const partitionAggs = `count(*), sum(id), count(region), count(DISTINCT region), sum(length(region)), count(d),
	count(DISTINCT d), sum(amount), sum(CASE WHEN region = 'eu' THEN id END), sum(CASE WHEN d IS NULL THEN id END)`

// openCarquet opens a carquet database on dir, closed when the test ends.
func openCarquet(t *testing.T, dir string) *sql.DB {
	t.Helper()
	db, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func mustExec(t *testing.T, db *sql.DB, q string) sql.Result {
	t.Helper()
	r, err := db.Exec(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return r
}

// partitionRows are n rows (id, region, d, amount) spread over a few
// partitions, NULLs and names that need escaping among them.
func partitionRows(from, n int) string {
	regions := []string{"'eu'", "'us'", "NULL", "'a/b:c=d%'", "'ü ñ'"}
	var rows []string
	for i := from; i < from+n; i++ {
		d := fmt.Sprintf("DATE '2024-01-%02d'", 1+i%3)
		if i%11 == 0 {
			d = "NULL"
		}
		amount := fmt.Sprintf("%d.5", i)
		if i%7 == 0 {
			amount = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s)", i, regions[i%len(regions)], d, amount))
	}
	return strings.Join(rows, ", ")
}

// TestPartitionedDuckDB writes a partitioned Delta table with carquet
// (INSERTs, a DELETE with vectors, an UPDATE that moves rows between
// partitions, OPTIMIZE) and reads it back with carquet and with DuckDB
// (each data file with its partition values from the log).
func TestPartitionedDuckDB(t *testing.T) {
	dir := t.TempDir()
	db := openCarquet(t, dir)
	root := filepath.Join(dir, "pt")
	mustExec(t, db, "CREATE TABLE pt (id BIGINT NOT NULL, region VARCHAR, d DATE, amount DOUBLE) USING delta PARTITIONED BY (region, d)")
	for k := 0; k < 4; k++ {
		mustExec(t, db, "INSERT INTO pt VALUES "+partitionRows(k*500, 500))
	}
	duckdbAgrees(t, root, db, "pt", partitionAggs)
	mustExec(t, db, "DELETE FROM pt WHERE id % 13 = 1")
	mustExec(t, db, "UPDATE pt SET region = 'moved', d = DATE '2030-01-01' WHERE id % 17 = 2")
	// A DELETE by partition values (a parameter among them) takes whole
	// files.
	if r, err := db.Exec("DELETE FROM pt WHERE region = ?", "us"); err != nil {
		t.Fatal(err)
	} else if n, _ := r.RowsAffected(); n == 0 {
		t.Fatal("the DELETE of the us partition deleted nothing")
	}
	duckdbAgrees(t, root, db, "pt", partitionAggs)
	mustExec(t, db, "OPTIMIZE pt")
	duckdbAgrees(t, root, db, "pt", partitionAggs)
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range snap.Files {
		key := fmt.Sprint(f.PartitionValues["region"] != nil, deref(f.PartitionValues["region"]), deref(f.PartitionValues["d"]))
		if seen[key] {
			t.Errorf("after OPTIMIZE, two files of the partition %s", key)
		}
		seen[key] = true
	}
	var n int
	if err := db.QueryRow("SELECT count(*) FROM pt WHERE region = 'us'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("us rows left: %d (%v)", n, err)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<null>"
	}
	return *s
}

// TestAppendDuckDBPartitioned appends with carquet to a partitioned Delta
// table whose data files DuckDB wrote (COPY ... PARTITION_BY, Hive
// folders, its own physical types) and whose log says so as another
// writer would, then reads it back with both engines.
func TestAppendDuckDBPartitioned(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "ext")
	duck, err := peers.OpenDuckDB(0)
	if err != nil {
		t.Fatal(err)
	}
	defer duck.Close()
	if _, err := duck.Exec(fmt.Sprintf(`COPY (SELECT i AS id, 'n' || i AS name, CASE WHEN i %% 3 = 0 THEN 'eu' ELSE 'us' END AS region,
		CAST(2020 + i %% 2 AS INTEGER) AS yr FROM range(1, 301) t(i)) TO '%s' (FORMAT parquet, PARTITION_BY (region, yr))`, root)); err != nil {
		t.Fatal(err)
	}
	tb := deltatest.New(t, root)
	var adds []any
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".parquet") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		pv := map[string]*string{}
		for _, seg := range strings.Split(filepath.Dir(rel), string(filepath.Separator)) {
			k, v, _ := strings.Cut(seg, "=")
			pv[k] = deltatest.Str(v)
		}
		st, err := os.Stat(p)
		if err != nil {
			return err
		}
		adds = append(adds, &deltatest.Add{Path: filepath.ToSlash(rel), PartitionValues: pv, Size: st.Size(), ModificationTime: 1700000000000, DataChange: true})
		return nil
	})
	if err != nil || len(adds) != 4 {
		t.Fatalf("DuckDB wrote %d files (%v)", len(adds), err)
	}
	schema := deltatest.Struct(
		deltatest.StructField("id", "long", true, nil),
		deltatest.StructField("name", "string", true, nil),
		deltatest.StructField("region", "string", true, nil),
		deltatest.StructField("yr", "integer", true, nil))
	tb.Commit(append([]any{&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, []string{"region", "yr"}, nil)}, adds...)...)

	const aggs = "count(*), sum(id), count(DISTINCT region), sum(yr), count(yr), sum(CASE WHEN region = 'eu' AND yr = 2020 THEN id END), count(name)"
	// What the table holds after the statements below, from DuckDB's
	// files alone (read before carquet adds its own).
	want := scanAll(t, duck, fmt.Sprintf(`SELECT %s FROM (SELECT * FROM read_parquet('%s/**/*.parquet', hive_partitioning = true, hive_types = {'yr': INTEGER})
		WHERE id %% 10 <> 5 AND id <> 3
		UNION ALL SELECT * FROM (VALUES (3, 'n3', 'eu', 2022), (1000, 'x', 'eu', 2020), (1001, 'y', 'asia', 2021), (1002, NULL, NULL, NULL)) v(id, name, region, yr))`, aggs, root))
	db := openCarquet(t, dir)
	mustExec(t, db, "INSERT INTO ext VALUES (1000, 'x', 'eu', 2020), (1001, 'y', 'asia', 2021), (1002, NULL, NULL, NULL)")
	mustExec(t, db, "UPDATE ext SET yr = 2022 WHERE id = 3")
	mustExec(t, db, "DELETE FROM ext WHERE id % 10 = 5")
	duckdbAgrees(t, root, db, "ext", aggs)
	if got := scanAll(t, db, "SELECT "+aggs+" FROM ext"); got != want {
		t.Fatalf("carquet: %s\nexpected: %s", got, want)
	}
}

// TestColumnMappingDuckDB writes a partitioned Delta table with column
// mapping (name mode) with carquet: DuckDB, reading each data file's
// columns by their physical names, agrees with carquet.
func TestColumnMappingDuckDB(t *testing.T) {
	dir := t.TempDir()
	db := openCarquet(t, dir)
	root := filepath.Join(dir, "cm")
	mustExec(t, db, `CREATE TABLE cm (id BIGINT NOT NULL, region VARCHAR, d DATE, amount DOUBLE) USING delta
		PARTITIONED BY (region) TBLPROPERTIES ('delta.columnMapping.mode' = 'name')`)
	mustExec(t, db, "INSERT INTO cm VALUES "+partitionRows(0, 600))
	mustExec(t, db, "DELETE FROM cm WHERE id % 9 = 4")
	mustExec(t, db, "UPDATE cm SET region = 'eu', amount = -amount WHERE id % 10 = 3")
	duckdbAgrees(t, root, db, "cm", partitionAggs)
	snap, err := delta.Open(root, -1)
	if err != nil {
		t.Fatal(err)
	}
	if snap.ColumnMapping != "name" || !strings.HasPrefix(snap.Field("amount").PhysicalName, "col-") {
		t.Fatalf("mode %q, amount's physical name %q", snap.ColumnMapping, snap.Field("amount").PhysicalName)
	}
}

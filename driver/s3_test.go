package driver_test

import (
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/carquet-go/carquet/internal/deltatest"
	"github.com/carquet-go/carquet/internal/fakes3"
	"github.com/carquet-go/carquet/objstore"
	_ "github.com/carquet-go/carquet/objstore/s3"
	"github.com/carquet-go/carquet/writer"
)

func execS3(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

// s3Fixture makes a local database (a one-file table, a folder table of
// two files, a hive-partitioned table) and the same files in a bucket.
func s3Fixture(t *testing.T) (local *sql.DB, srv *fakes3.Server, dir string) {
	t.Helper()
	dir = t.TempDir()
	local, err := sql.Open("carquet", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { local.Close() })
	execS3(t, local, `CREATE TABLE sales WITH (row_group_rows = 20000) AS SELECT i AS id, i % 7 AS region, CAST(i AS DOUBLE) * 1.5 AS amount, 'c' || CAST(i % 13 AS VARCHAR) AS cat FROM range(100000) t(i)`)
	if err := os.MkdirAll(filepath.Join(dir, "events"), 0o755); err != nil {
		t.Fatal(err)
	}
	execS3(t, local, `COPY (SELECT i AS id, i % 100 AS sale, 'e' || CAST(i AS VARCHAR) AS what FROM range(5000) t(i)) TO 'events/a.parquet'`)
	execS3(t, local, `COPY (SELECT i AS id, i % 100 AS sale, 'e' || CAST(i AS VARCHAR) AS what FROM range(5000, 8000) t(i)) TO 'events/b.parquet'`)
	for _, y := range []int{2020, 2021} {
		if err := os.MkdirAll(filepath.Join(dir, "hive", fmt.Sprintf("year=%d", y)), 0o755); err != nil {
			t.Fatal(err)
		}
		execS3(t, local, fmt.Sprintf(`COPY (SELECT i AS k, i * %d AS v FROM range(100) t(i)) TO 'hive/year=%d/data.parquet'`, y, y))
	}
	// A Delta table of two commits, the second removing a file.
	tb := deltatest.New(t, filepath.Join(dir, "dl"))
	cols := []deltatest.Column{{Field: writer.Int64("id"), Name: "id"}, {Field: writer.Double("amount"), Name: "amount"}}
	schema := deltatest.Struct(deltatest.StructField("id", "long", true, nil), deltatest.StructField("amount", "double", true, nil))
	a := tb.DataFile("a.parquet", cols, [][]any{{int64(1), 2.5}, {int64(2), 4.0}}, nil)
	tb.Commit(&deltatest.Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, deltatest.NewMetaData(schema, nil, nil), a)
	b := tb.DataFile("b.parquet", cols, [][]any{{int64(3), 10.0}, {int64(4), 1.0}}, nil)
	tb.Commit(b, deltatest.RemoveOf(a))
	srv = fakes3.Start(t, "lake")
	srv.PutDir(t, "lake", "db/", dir, "")
	return local, srv, dir
}

func openS3(t *testing.T, srv *fakes3.Server, path, opts string) *sql.DB {
	t.Helper()
	dsn := path + "?" + srv.Query()
	if opts != "" {
		dsn += "&" + opts
	}
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Ping(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestS3SameAnswers runs queries on a database in a bucket and on the
// same files on disk: the answers agree.
func TestS3SameAnswers(t *testing.T) {
	local, srv, _ := s3Fixture(t)
	remote := openS3(t, srv, "s3://lake/db/", "threads=2")
	queries := []string{
		`SELECT COUNT(*), SUM(amount), MIN(cat), MAX(id) FROM sales`,
		`SELECT region, COUNT(*), SUM(amount) FROM sales WHERE id BETWEEN 1000 AND 71234 GROUP BY region ORDER BY region`,
		`SELECT * FROM sales WHERE id = 54321`,
		`SELECT cat, COUNT(*) FROM sales WHERE cat IN ('c1', 'c7') GROUP BY cat ORDER BY cat`,
		`SELECT e.sale, COUNT(*), SUM(s.amount) FROM events e JOIN sales s ON s.id = e.sale GROUP BY e.sale ORDER BY e.sale LIMIT 5`,
		`SELECT year, COUNT(*), SUM(v) FROM hive GROUP BY year ORDER BY year`,
		`SELECT COUNT(*) FROM 'events/*.parquet'`,
		`SELECT what FROM events WHERE id = 7999`,
		`SELECT COUNT(*), SUM(amount) FROM dl`,
		"SELECT COUNT(*), SUM(amount) FROM `dl@v0`",
	}
	for _, q := range queries {
		want, err := queryAll(local, q)
		if err != nil {
			t.Fatalf("%s: local: %v", q, err)
		}
		got, err := queryAll(remote, q)
		if err != nil {
			t.Fatalf("%s: s3: %v", q, err)
		}
		if !sameRows(got, want) {
			t.Errorf("%s:\n s3    %v\n local %v", q, got, want)
		}
	}
	// The table list is the bucket's.
	got, err := queryAll(remote, `SELECT table_name FROM information_schema.tables ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[[dl] [events] [hive] [sales]]" {
		t.Errorf("tables: %v", got)
	}
	for _, q := range []string{`SHOW TABLES`, `DESCRIBE sales`, `EXPLAIN SELECT COUNT(*) FROM events JOIN sales ON sales.id = events.sale`, `EXPLAIN ANALYZE SELECT SUM(amount) FROM sales WHERE id < 100`} {
		if _, err := queryAll(remote, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	// URLs in FROM: inside the root, and a one-object DSN.
	var n int64
	if err := remote.QueryRow(`SELECT COUNT(*) FROM 's3://lake/db/events/b.parquet'`).Scan(&n); err != nil || n != 3000 {
		t.Errorf("FROM a URL: %d %v", n, err)
	}
	for q, want := range map[string]int64{
		`SELECT COUNT(*) FROM 's3://lake/db/events/*.parquet'`:                8000,
		`SELECT COUNT(*) FROM read_parquet('s3://lake/db/hive/**/*.parquet')`: 200,
		`SELECT COUNT(*) FROM 's3://lake/db/hive' WHERE year = 2021`:          100,
		`SELECT COUNT(*) FROM 's3://lake/db/h*/year=2020/*.parquet'`:          100,
	} {
		if err := remote.QueryRow(q).Scan(&n); err != nil || n != want {
			t.Errorf("%s: %d %v, want %d", q, n, err, want)
		}
	}
	// A local database reads a bucket with external_access=read, and
	// only then.
	reader := openS3(t, srv, t.TempDir(), "external_access=read")
	if err := reader.QueryRow(`SELECT COUNT(*) FROM 's3://lake/db/events/*.parquet'`).Scan(&n); err != nil || n != 8000 {
		t.Errorf("a local database reading a bucket: %d %v", n, err)
	}
	confined := openS3(t, srv, t.TempDir(), "")
	if err := confined.QueryRow(`SELECT COUNT(*) FROM 's3://lake/db/events/*.parquet'`).Scan(&n); err == nil || !strings.Contains(err.Error(), "external_access=read") {
		t.Errorf("a local database without external_access read a bucket: %v", err)
	}
	one := openS3(t, srv, "s3://lake/db/sales.parquet", "")
	if err := one.QueryRow(`SELECT COUNT(*) FROM sales`).Scan(&n); err != nil || n != 100000 {
		t.Errorf("one-object DSN: %d %v", n, err)
	}
}

// TestS3Pruning counts what a point query fetches: the footers and the
// pages that can hold the row, not the table.
func TestS3Pruning(t *testing.T) {
	_, srv, dir := s3Fixture(t)
	remote := openS3(t, srv, "s3://lake/db/", "threads=2")
	st, err := os.Stat(filepath.Join(dir, "sales.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	srv.Reset()
	var amount float64
	if err := remote.QueryRow(`SELECT amount FROM sales WHERE id = 54321`).Scan(&amount); err != nil || amount != 54321*1.5 {
		t.Fatalf("point query: %v %v", amount, err)
	}
	srv.Settle() // the read-ahead's response may still be arriving
	fetched := srv.BytesOut.Load()
	t.Logf("point query: %d GETs, %d LISTs, %d of %d bytes: %v", srv.Gets.Load(), srv.Lists.Load(), fetched, st.Size(), srv.Log())
	// Besides the footer's tail read (64 KiB here), one row group's
	// chunks of the five: statistics rule the others out.
	if tail := int64(64 << 10); fetched-tail > st.Size()/4 {
		t.Errorf("a point query fetched %d bytes beyond the footer's %d, of a %d-byte table", fetched-tail, tail, st.Size())
	}
	// The same query again: the footer, the page index and the pages it
	// read are kept (the table stays open, its ranges in the read-ahead
	// cache), so nothing is fetched.
	srv.Reset()
	if err := remote.QueryRow(`SELECT amount FROM sales WHERE id = 54321`).Scan(&amount); err != nil || amount != 54321*1.5 {
		t.Fatalf("point query again: %v %v", amount, err)
	}
	if again := srv.BytesOut.Load(); again != 0 {
		t.Errorf("the same point query again fetched %d bytes (the first %d)", again, fetched)
	}
}

// TestS3Writes: INSERT adds an object to a folder table, CREATE TABLE AS
// makes a folder table, DROP removes its objects; what would rewrite an
// object is refused and leaves the table as it was.
func TestS3Writes(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	remote := openS3(t, srv, "s3://lake/db/", "")
	execS3(t, remote, `INSERT INTO events VALUES (9000, 1, 'new'), (9001, 2, 'newer')`)
	keys := srv.Keys(t, "lake", "db/events/")
	if len(keys) != 3 {
		t.Fatalf("after INSERT: %v", keys)
	}
	var n int64
	var what string
	if err := remote.QueryRow(`SELECT COUNT(*), MAX(what) FROM events WHERE id >= 9000`).Scan(&n, &what); err != nil || n != 2 || what != "newer" {
		t.Fatalf("rows inserted: %d %q %v", n, what, err)
	}
	execS3(t, remote, `CREATE TABLE top AS SELECT region, SUM(amount) AS total FROM sales GROUP BY region`)
	if keys := srv.Keys(t, "lake", "db/top/"); len(keys) != 1 || !strings.HasSuffix(keys[0], ".parquet") {
		t.Fatalf("CREATE TABLE AS: %v", keys)
	}
	execS3(t, remote, `INSERT INTO top VALUES (99, 1.0)`)
	if err := remote.QueryRow(`SELECT COUNT(*) FROM top`).Scan(&n); err != nil || n != 8 {
		t.Fatalf("top: %d %v", n, err)
	}
	execS3(t, remote, `CREATE TABLE empty_one (a INTEGER, b VARCHAR)`)
	execS3(t, remote, `INSERT INTO empty_one VALUES (1, 'x')`)
	if err := remote.QueryRow(`SELECT COUNT(*) FROM empty_one`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("empty_one: %d %v", n, err)
	}
	execS3(t, remote, `COPY (SELECT * FROM sales WHERE region = 3) TO 'threes.parquet'`)
	if err := remote.QueryRow(`SELECT COUNT(*) FROM threes`).Scan(&n); err != nil || n != 14286 {
		t.Fatalf("COPY TO: %d %v", n, err)
	}
	for _, q := range []string{
		`INSERT INTO sales VALUES (1, 1, 1.0, 'x')`,
		`DELETE FROM sales WHERE id = 9000`,
		`UPDATE sales SET cat = 'x' WHERE id = 9000`,
		`ALTER TABLE sales ADD COLUMN z INTEGER`,
		`CREATE OR REPLACE TABLE top AS SELECT 1 AS region`,
	} {
		_, err := remote.Exec(q)
		if err == nil || !strings.Contains(err.Error(), "immutable") {
			t.Errorf("%s: %v, want a refusal", q, err)
		}
	}
	if err := remote.QueryRow(`SELECT COUNT(*) FROM events WHERE id < 9100`).Scan(&n); err != nil || n != 8002 {
		t.Fatalf("events after refusals: %d %v", n, err)
	}
	// A transaction sees its own rows before COMMIT; they land as one
	// object.
	tx, err := remote.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`INSERT INTO events VALUES (9100, 3, 'tx1')`, `INSERT INTO events VALUES (9101, 4, 'tx2')`} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.QueryRow(`SELECT COUNT(*) FROM events WHERE id >= 9100`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("in the transaction: %d %v", n, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if keys := srv.Keys(t, "lake", "db/events/"); len(keys) != 4 {
		t.Fatalf("after COMMIT: %v", keys)
	}
	if err := remote.QueryRow(`SELECT COUNT(*) FROM events WHERE id >= 9100`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("after COMMIT: %d %v", n, err)
	}
	// Temporary tables stay local.
	execS3(t, remote, `CREATE TEMP TABLE tmp AS SELECT region FROM sales WHERE id < 10`)
	if err := remote.QueryRow(`SELECT COUNT(*) FROM tmp`).Scan(&n); err != nil || n != 10 {
		t.Fatalf("temporary table: %d %v", n, err)
	}
	if keys := srv.Keys(t, "lake", "db/tmp"); len(keys) != 0 {
		t.Fatalf("a temporary table went to the bucket: %v", keys)
	}
	execS3(t, remote, `DROP TABLE top`)
	if keys := srv.Keys(t, "lake", "db/top"); len(keys) != 0 {
		t.Fatalf("after DROP: %v", keys)
	}
	// A store that refuses the upload: the INSERT fails, naming the
	// object, and the table is as it was.
	impatient := openS3(t, srv, "s3://lake/db/", "max_attempts=2")
	before := srv.Keys(t, "lake", "db/events/")
	srv.Inject(fakes3.Fault{Method: "PUT", Status: 503})
	_, err = impatient.Exec(`INSERT INTO events VALUES (9200, 1, 'refused')`)
	srv.Reset()
	if err == nil || !strings.Contains(err.Error(), "db/events/part-") {
		t.Errorf("INSERT into a store that refuses uploads: %v", err)
	}
	if after := srv.Keys(t, "lake", "db/events/"); len(after) != len(before) {
		t.Errorf("a failed INSERT left objects: %v, was %v", after, before)
	}
	if err := impatient.QueryRow(`SELECT COUNT(*) FROM events WHERE id = 9200`).Scan(&n); err != nil || n != 0 {
		t.Errorf("a failed INSERT's rows: %d %v", n, err)
	}
	// Writes outside the root are refused.
	if _, err := remote.Exec(`COPY (SELECT 1 AS a) TO 's3://lake/elsewhere/x.parquet'`); err == nil {
		t.Error("COPY outside the root was accepted")
	}
}

// TestS3Faults: a query over a store that answers 503s, cuts bodies
// short and resets connections still gives the right answer.
func TestS3Faults(t *testing.T) {
	local, srv, _ := s3Fixture(t)
	q := `SELECT region, COUNT(*), SUM(amount) FROM sales GROUP BY region ORDER BY region`
	want, err := queryAll(local, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []fakes3.Fault{
		{Method: "GET", PathContains: "sales", Status: 503, Count: 3},
		{Method: "GET", PathContains: "sales", Truncate: 100, Count: 3},
		{Method: "GET", PathContains: "sales", Reset: true, Count: 3},
	} {
		remote := openS3(t, srv, "s3://lake/db/", "threads=2")
		srv.Reset()
		srv.Inject(f)
		got, err := queryAll(remote, q)
		if err != nil {
			t.Errorf("%+v: %v", f, err)
			continue
		}
		if !sameRows(got, want) {
			t.Errorf("%+v: %v, want %v", f, got, want)
		}
	}
	// A store that keeps failing gives an error naming the object.
	remote := openS3(t, srv, "s3://lake/db/", "max_attempts=2")
	srv.Reset()
	srv.Inject(fakes3.Fault{Method: "GET", PathContains: "sales", Status: 503})
	_, err = queryAll(remote, q)
	if err == nil || !strings.Contains(err.Error(), "s3://lake/db/sales.parquet") {
		t.Errorf("persistent failure: %v", err)
	}
}

const s3ChildEnv = "CARQUET_S3_UPLOAD_CHILD"

// bigInsert writes about 30 MB of incompressible rows: a multipart
// upload of several parts.
const bigInsert = `INSERT INTO events SELECT 100000 + i, i % 100, md5(CAST(i AS VARCHAR)) || md5(CAST(i + 1 AS VARCHAR)) FROM range(500000) t(i)`

// TestS3UploadChild is the process TestS3KilledUpload kills: it runs
// bigInsert against the DSN it is given.
func TestS3UploadChild(t *testing.T) {
	dsn := os.Getenv(s3ChildEnv)
	if dsn == "" {
		t.Skip("runs as a child process of TestS3KilledUpload only")
	}
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	fmt.Println("inserting")
	execS3(t, db, bigInsert)
	fmt.Println("inserted")
}

// TestS3KilledUpload kills a process (SIGKILL) in the middle of an
// INSERT's multipart upload: the table then reads with none of the
// statement's rows, and no object of it is visible. The same INSERT run
// to its end adds all of them.
func TestS3KilledUpload(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	dsn := "s3://lake/db/?" + srv.Query()
	// Parts arrive slowly, so that the kill lands during the upload.
	srv.Inject(fakes3.Fault{Method: "PUT", Delay: 200 * time.Millisecond})
	cmd := exec.Command(os.Args[0], "-test.run=^TestS3UploadChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), s3ChildEnv+"="+dsn)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for srv.Puts.Load() < 2 && time.Now().Before(deadline) { // the upload's start and its first part
		time.Sleep(10 * time.Millisecond)
	}
	if srv.Puts.Load() < 2 {
		t.Fatalf("the child never uploaded:\n%s", out.String())
	}
	cmd.Process.Kill()
	cmd.Wait()
	if strings.Contains(out.String(), "inserted") {
		t.Fatalf("the child finished before it was killed:\n%s", out.String())
	}
	srv.Reset()
	remote := openS3(t, srv, "s3://lake/db/", "")
	var n int64
	if err := remote.QueryRow(`SELECT COUNT(*) FROM events`).Scan(&n); err != nil || n != 8000 {
		t.Fatalf("after the kill: %d rows, %v; want the 8000 from before", n, err)
	}
	if keys := srv.Keys(t, "lake", "db/events/"); len(keys) != 2 {
		t.Fatalf("after the kill: %v", keys)
	}
	execS3(t, remote, bigInsert)
	if err := remote.QueryRow(`SELECT COUNT(*), COUNT(DISTINCT id) FROM events`).Scan(&n, new(int64)); err != nil || n != 508000 {
		t.Fatalf("after the whole INSERT: %d rows, %v", n, err)
	}
}

// BenchmarkS3PointQuery measures a pruned point query on a table of ten
// files of about 100 MB each in a bucket on loopback: what it fetches
// (counted by the server) against the table's size, and its time.
//
//	go test -run '^$' -bench S3PointQuery -benchtime 5x ./driver/
func BenchmarkS3PointQuery(b *testing.B) {
	const files, rowsPerFile = 10, 1_700_000
	dir := b.TempDir()
	local, err := sql.Open("carquet", dir)
	if err != nil {
		b.Fatal(err)
	}
	defer local.Close()
	if err := os.Mkdir(filepath.Join(dir, "big"), 0o755); err != nil {
		b.Fatal(err)
	}
	for k := 0; k < files; k++ {
		q := fmt.Sprintf(`COPY (SELECT i AS id, i * 7919 %% 1000003 AS n, md5(CAST(i AS VARCHAR)) AS h1, md5(CAST(i * 31 AS VARCHAR)) AS h2, CAST(i %% 1000 AS DOUBLE) / 7 AS x FROM range(%d, %d) t(i)) TO 'big/part-%02d.parquet'`,
			k*rowsPerFile, (k+1)*rowsPerFile, k)
		if _, err := local.Exec(q); err != nil {
			b.Fatal(err)
		}
	}
	srv := fakes3.Start(b, "lake")
	total := srv.PutDir(b, "lake", "db/big/", filepath.Join(dir, "big"), ".parquet")
	db, err := sql.Open("carquet", "s3://lake/db/?"+srv.Query()+"&threads=2")
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var fetched, gets int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// A fresh engine and no footer cached by ETag: the cold query.
		b.StopTimer()
		objstore.ClearCache()
		db.Close()
		db, err = sql.Open("carquet", "s3://lake/db/?"+srv.Query()+"&threads=2")
		if err != nil {
			b.Fatal(err)
		}
		srv.Reset()
		b.StartTimer()
		id := int64(i*7_654_321) % (files * rowsPerFile)
		var h1 string
		if err := db.QueryRow(`SELECT h1 FROM big WHERE id = ?`, id).Scan(&h1); err != nil {
			b.Fatal(err)
		}
		fetched += srv.BytesOut.Load()
		gets += srv.Gets.Load()
	}
	b.ReportMetric(float64(fetched)/float64(b.N), "fetched-B/op")
	b.ReportMetric(100*float64(fetched)/float64(b.N)/float64(total), "%-of-table/op")
	b.ReportMetric(float64(gets)/float64(b.N), "GETs/op")
	b.ReportMetric(float64(total), "table-B")
}

// TestS3DeltaWrites creates a Delta table in a bucket and inserts into it:
// the commits are conditional PUTs, and every version reads back.
func TestS3DeltaWrites(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	remote := openS3(t, srv, "s3://lake/db/", "")
	execS3(t, remote, `CREATE TABLE dw (id BIGINT, s VARCHAR) USING delta`)
	for i := 1; i <= 3; i++ {
		execS3(t, remote, fmt.Sprintf(`INSERT INTO dw VALUES (%d, 'r%d')`, i, i))
	}
	execS3(t, remote, `CREATE TABLE dc USING delta AS SELECT id * 2 AS id FROM dw`)
	logs := srv.Keys(t, "lake", "db/dw/_delta_log/")
	if len(logs) != 4 || !strings.HasSuffix(logs[3], "00000000000000000003.json") {
		t.Fatalf("log: %v", logs)
	}
	for v := 0; v <= 3; v++ {
		var n, sum int64
		if err := remote.QueryRow(fmt.Sprintf("SELECT COUNT(*), COALESCE(SUM(id), 0) FROM `dw@v%d`", v)).Scan(&n, &sum); err != nil || n != int64(v) || sum != int64(v*(v+1)/2) {
			t.Fatalf("version %d: %d rows, sum %d, %v", v, n, sum, err)
		}
	}
	var n int64
	if err := remote.QueryRow(`SELECT SUM(id) FROM dc`).Scan(&n); err != nil || n != 12 {
		t.Fatalf("dc: %d %v", n, err)
	}
	// Two databases on the bucket insert at once: the losers of a race for
	// a version (412 to a conditional PUT) retry at the next one.
	other := openS3(t, srv, "s3://lake/db/", "")
	errs := make(chan error, 2)
	for w, db := range []*sql.DB{remote, other} {
		go func() {
			for i := 0; i < 15; i++ {
				if _, err := db.Exec(fmt.Sprintf(`INSERT INTO dw VALUES (%d, 'c')`, 100*(w+1)+i)); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := remote.QueryRow(`SELECT COUNT(DISTINCT id) FROM dw WHERE s = 'c'`).Scan(&n); err != nil || n != 30 {
		t.Fatalf("concurrent inserts: %d rows, %v", n, err)
	}
	// 34 commits, checkpoints of versions 10, 20 and 30, _last_checkpoint.
	if logs := srv.Keys(t, "lake", "db/dw/_delta_log/"); len(logs) != 38 || !strings.HasSuffix(logs[len(logs)-1], "_last_checkpoint") {
		t.Fatalf("log after concurrent inserts: %d files: %v", len(logs), logs)
	}
	at1 := openS3(t, srv, "s3://lake/db/", "delta_version=1")
	if err := at1.QueryRow(`SELECT COUNT(*) FROM dw`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("delta_version=1: %d %v", n, err)
	}
	// DELETE and UPDATE in the bucket: inline deletion vectors.
	execS3(t, remote, `DELETE FROM dw WHERE id % 2 = 0`)
	execS3(t, remote, `UPDATE dw SET s = 'u' WHERE id < 100`)
	var sum int64
	if err := other.QueryRow(`SELECT COUNT(*), SUM(id) FROM dw WHERE s = 'u'`).Scan(&n, &sum); err != nil || n != 2 || sum != 4 {
		t.Fatalf("after DELETE and UPDATE: %d rows, sum %d, %v", n, sum, err)
	}
	if err := other.QueryRow(`SELECT COUNT(*) FROM dw`).Scan(&n); err != nil || n != 16 {
		t.Fatalf("after DELETE and UPDATE: %d rows, %v", n, err)
	}
}

// TestS3DeltaCommitAnswerLost: the conditional PUT of a commit is made
// but its answer is lost (the connection reset); the client's retry is
// refused (the key exists). The writer finds its own commit there — not
// a rival's to retry after — and commits once: one row, one version.
func TestS3DeltaCommitAnswerLost(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	execS3(t, db, `CREATE TABLE lost (id BIGINT) USING delta`)
	srv.Inject(fakes3.Fault{Method: "PUT", PathContains: "lost/_delta_log/00000000000000000001.json", Reset: true, Served: true, Count: 1})
	execS3(t, db, `INSERT INTO lost VALUES (1)`)
	var n int64
	if err := db.QueryRow(`SELECT COUNT(*) FROM lost`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d rows, %v", n, err)
	}
	if logs := srv.Keys(t, "lake", "db/lost/_delta_log/"); len(logs) != 2 {
		t.Fatalf("log: %v", logs)
	}
	// A DELETE (which a rival's removes would conflict with) too.
	execS3(t, db, `INSERT INTO lost VALUES (2)`)
	srv.Inject(fakes3.Fault{Method: "PUT", PathContains: "lost/_delta_log/00000000000000000003.json", Reset: true, Served: true, Count: 1})
	execS3(t, db, `DELETE FROM lost WHERE id = 1`)
	var sum int64
	if err := db.QueryRow(`SELECT COUNT(*), SUM(id) FROM lost`).Scan(&n, &sum); err != nil || n != 1 || sum != 2 {
		t.Fatalf("after the DELETE: %d rows, sum %d, %v", n, sum, err)
	}
	if logs := srv.Keys(t, "lake", "db/lost/_delta_log/"); len(logs) != 4 {
		t.Fatalf("log: %v", logs)
	}
}

// TestS3DeltaVacuum: a partitioned Delta table in a bucket (its files
// under partition folders whose names need escaping), then VACUUM: with
// the table's retention (a week) nothing goes; RETAIN 0 HOURS is refused
// without FORCE; with it, the files no version needs go (those OPTIMIZE
// and a DELETE removed, a stray), and the log, hidden files, the live
// files and the objects of another table with the same prefix stay.
func TestS3DeltaVacuum(t *testing.T) {
	_, srv, _ := s3Fixture(t)
	db := openS3(t, srv, "s3://lake/db/", "")
	execS3(t, db, `CREATE TABLE vt (id BIGINT, region VARCHAR) USING delta PARTITIONED BY (region)`)
	for i := 0; i < 3; i++ {
		execS3(t, db, fmt.Sprintf(`INSERT INTO vt VALUES (%d, 'eu'), (%d, 'a/b?c'), (%d, NULL)`, 3*i, 3*i+1, 3*i+2))
	}
	execS3(t, db, `DELETE FROM vt WHERE region IS NULL`)
	execS3(t, db, `OPTIMIZE vt`)
	srv.Put(t, "lake", "db/vt/stray.parquet", []byte("x"))
	srv.Put(t, "lake", "db/vt/_hidden/keep.parquet", []byte("x"))
	srv.Put(t, "lake", "db/vt2/other.parquet", []byte("x"))
	before := srv.Keys(t, "lake", "db/vt/")
	var eu, ab int
	for _, k := range before {
		eu += strings.Count(k, "db/vt/region=eu/")
		ab += strings.Count(k, "db/vt/region=a%2Fb%3Fc/")
	}
	if eu != 4 || ab != 4 {
		t.Fatalf("partition folders: %d files under region=eu, %d under region=a%%2Fb%%3Fc: %v", eu, ab, before)
	}
	sum := func() string {
		var n, s int64
		if err := db.QueryRow(`SELECT COUNT(*), SUM(id) FROM vt WHERE region = 'a/b?c'`).Scan(&n, &s); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(n, s)
	}
	if got := sum(); got != "3 12" {
		t.Fatalf("before VACUUM: %s", got)
	}
	var n int64
	if r, err := db.Exec(`VACUUM vt`); err != nil {
		t.Fatal(err)
	} else if n, _ = r.RowsAffected(); n != 0 || len(srv.Keys(t, "lake", "db/vt/")) != len(before) {
		t.Fatalf("VACUUM with a week's retention deleted %d files", n)
	}
	if _, err := db.Exec(`VACUUM vt RETAIN 0 HOURS`); err == nil || !strings.Contains(err.Error(), "FORCE") {
		t.Fatalf("RETAIN 0 HOURS without FORCE: %v", err)
	}
	if r, err := db.Exec(`VACUUM vt RETAIN 0 HOURS FORCE DRY RUN`); err != nil {
		t.Fatal(err)
	} else if n, _ = r.RowsAffected(); n != 10 || len(srv.Keys(t, "lake", "db/vt/")) != len(before) {
		// 3 files of each partition compacted, 3 NULL files deleted, the stray.
		t.Fatalf("dry run: %d files", n)
	}
	execS3(t, db, `VACUUM vt RETAIN 0 HOURS FORCE`)
	after := srv.Keys(t, "lake", "db/vt/")
	if len(after) != len(before)-10 {
		t.Fatalf("after VACUUM: %d of %d objects: %v", len(after), len(before), after)
	}
	for _, k := range after {
		if strings.Contains(k, "stray") || strings.Contains(k, "__HIVE_DEFAULT_PARTITION__") {
			t.Errorf("%s is left", k)
		}
	}
	logs := srv.Keys(t, "lake", "db/vt/_delta_log/")
	if len(logs) == 0 || len(srv.Keys(t, "lake", "db/vt/_hidden/")) != 1 || len(srv.Keys(t, "lake", "db/vt2/")) != 1 {
		t.Fatalf("log %v, hidden %v, other table %v", logs, srv.Keys(t, "lake", "db/vt/_hidden/"), srv.Keys(t, "lake", "db/vt2/"))
	}
	if got := sum(); got != "3 12" {
		t.Fatalf("after VACUUM: %s", got)
	}
}

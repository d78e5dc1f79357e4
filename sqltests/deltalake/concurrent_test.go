package deltalake

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/carquet-go/carquet/delta"
	_ "github.com/carquet-go/carquet/driver"
	"github.com/carquet-go/carquet/internal/fakes3"
	"github.com/carquet-go/carquet/objstore"
	_ "github.com/carquet-go/carquet/objstore/s3"
)

// The writer child: this test binary again, running TestWriterChild with
// these variables set.
const (
	childDSN     = "CARQUET_DELTALAKE_CHILD_DSN"
	childWriter  = "CARQUET_DELTALAKE_CHILD_WRITER"
	childCommits = "CARQUET_DELTALAKE_CHILD_COMMITS"
)

// TestWriterChild is a writer process of TestTwoProcessWriters: it
// inserts rows (w, i) for i = 0..n-1 into the Delta table t of the
// database at $CARQUET_DELTALAKE_CHILD_DSN, one INSERT (one commit) each.
func TestWriterChild(t *testing.T) {
	dsn := os.Getenv(childDSN)
	if dsn == "" {
		t.Skip("runs as a child process only")
	}
	w, err1 := strconv.Atoi(os.Getenv(childWriter))
	n, err2 := strconv.Atoi(os.Getenv(childCommits))
	if err := errors.Join(err1, err2); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("carquet", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range n {
		if _, err := db.Exec("INSERT INTO t VALUES (?, ?)", w, i); err != nil {
			t.Fatalf("insert %d of writer %d: %v", i, w, err)
		}
	}
}

// commitsPerWriter is $CARQUET_DELTA_COMMITS, else 100 (the issue asks for
// 1,000: set it for the full run).
func commitsPerWriter() int {
	if k, err := strconv.Atoi(os.Getenv("CARQUET_DELTA_COMMITS")); err == nil && k > 0 {
		return k
	}
	return 100
}

// TestTwoProcessWriters: two processes insert into one Delta table at
// once, a commit per row, on a local folder and in a bucket of an S3
// server on loopback (conditional PUTs). The commits race for each
// version and the losers retry: every row is there once, the versions
// run from 0 without a gap and each commit adds one file that exists, no
// temporary file is left in the log, the checkpoints read as the commits
// do, sampled versions read their rows, and DuckDB reads the snapshot's
// files (local folder) to the same rows. CARQUET_DELTA_COMMITS sets the
// commits per process (default 100):
//
//	cd sqltests && CARQUET_DELTA_COMMITS=1000 go test -run TestTwoProcessWriters -timeout 60m -v ./deltalake/
func TestTwoProcessWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	n := commitsPerWriter()
	t.Run("local", func(t *testing.T) {
		dir := t.TempDir()
		lt := &logTable{root: filepath.Join(dir, "t"), dsn: dir}
		lt.list = func(t *testing.T) []string { return localNames(t, filepath.Join(lt.root, delta.LogDir)) }
		lt.exists = func(p string) bool { _, err := os.Stat(p); return err == nil }
		twoWriters(t, lt, n)
		duckdbAgrees(t, lt.root, lt.db, "t", "count(*), count(DISTINCT w * 1000000 + i), sum(w), sum(i)")
	})
	t.Run("s3", func(t *testing.T) {
		srv := fakes3.Start(t, "lake")
		keys := func() map[string]bool {
			m := map[string]bool{}
			for _, k := range srv.Keys(t, "lake", "db/t/") {
				m["s3://lake/"+k] = true
			}
			return m
		}
		lt := &logTable{root: "s3://lake/db/t", dsn: "s3://lake/db/?" + srv.Query(), store: srv.Options()}
		lt.list = func(t *testing.T) []string {
			var out []string
			for _, k := range srv.Keys(t, "lake", "db/t/"+delta.LogDir+"/") {
				out = append(out, strings.TrimPrefix(k, "db/t/"+delta.LogDir+"/"))
			}
			return out
		}
		var once sync.Once
		var all map[string]bool
		lt.exists = func(p string) bool { once.Do(func() { all = keys() }); return all[p] }
		twoWriters(t, lt, n)
	})
}

// logTable is where a test's Delta table lives and how to look at it.
type logTable struct {
	root, dsn string
	store     map[string]string
	db        *sql.DB
	// list names the files in the log folder; exists reports whether a
	// data file (a snapshot's AddFile.Path) is there.
	list   func(t *testing.T) []string
	exists func(path string) bool
}

func localNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// twoWriters creates table t, runs the two writer processes of n commits
// each and checks the table and its log.
func twoWriters(t *testing.T, lt *logTable, n int) {
	db, err := sql.Open("carquet", lt.dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	lt.db = db
	if _, err := db.Exec("CREATE TABLE t (w INT, i INT) USING delta"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var cmds []*exec.Cmd
	outs := make([]strings.Builder, 2)
	for w := range 2 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childDSN+"="+lt.dsn, fmt.Sprintf("%s=%d", childWriter, w), fmt.Sprintf("%s=%d", childCommits, n))
		cmd.Stdout, cmd.Stderr = &outs[w], &outs[w]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for w, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer %d failed: %v\n%s", w, err, outs[w].String())
		}
	}
	elapsed := time.Since(start)
	t.Logf("2 processes × %d commits: %v (%.1f commits/s)", n, elapsed.Round(time.Millisecond), float64(2*n)/elapsed.Seconds())

	// Every row once: n rows of each writer, i = 0..n-1 each once.
	for w := range 2 {
		var rows, distinct, lo, hi int64
		if err := db.QueryRow("SELECT count(*), count(DISTINCT i), min(i), max(i) FROM t WHERE w = ?", w).Scan(&rows, &distinct, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if rows != int64(n) || distinct != int64(n) || lo != 0 || hi != int64(n-1) {
			t.Errorf("writer %d: %d rows, %d distinct i in [%d, %d]; want %d, i in [0, %d]", w, rows, distinct, lo, hi, n, n-1)
		}
	}
	checkLog(t, lt, int64(2*n))
}

// checkLog checks the log of a table of latest version want, each commit
// after the first adding one file of one row: commits 0..want and nothing
// else but checkpoints, _last_checkpoint and log compactions; the latest
// snapshot has want files, all there; the same snapshot read from the
// commits alone; sampled versions read their row counts.
func checkLog(t *testing.T, lt *logTable, want int64) {
	t.Helper()
	commits := map[int64]bool{}
	checkpoints := 0
	for _, name := range lt.list(t) {
		base, ok := strings.CutSuffix(name, ".json")
		if v, err := strconv.ParseInt(base, 10, 64); ok && err == nil && len(base) == 20 {
			commits[v] = true
			continue
		}
		switch {
		case strings.HasSuffix(name, ".checkpoint.parquet"):
			checkpoints++
		case name == "_last_checkpoint", strings.HasSuffix(name, ".compacted.json"):
		default:
			t.Errorf("unexpected file in the log: %s", name)
		}
	}
	for v := int64(0); v <= want; v++ {
		if !commits[v] {
			t.Fatalf("version %d is missing from the log (%d commits)", v, len(commits))
		}
	}
	if int64(len(commits)) != want+1 {
		t.Fatalf("%d commits, want %d", len(commits), want+1)
	}
	snap, err := delta.OpenWith(lt.root, -1, lt.store)
	if err != nil {
		t.Fatal(err)
	}
	if snap.Version != want || int64(len(snap.Files)) != want {
		t.Fatalf("latest snapshot: version %d with %d files; want version %d with %d", snap.Version, len(snap.Files), want, want)
	}
	seen := map[string]bool{}
	for _, f := range snap.Files {
		if seen[f.Path] {
			t.Errorf("file %s added twice", f.Path)
		}
		seen[f.Path] = true
		if !lt.exists(f.Path) {
			t.Errorf("the log adds %s, which is not there", f.Path)
		}
	}
	// The checkpoints hold what the commits do: the snapshot replayed
	// from every commit has the same files.
	if checkpoints == 0 && want >= 10 {
		t.Errorf("no checkpoint in a log of %d commits", want+1)
	}
	fromCommits := replayCommits(t, lt, want)
	if got := filePaths(snap); !slices.Equal(got, fromCommits) {
		t.Errorf("the latest snapshot (from its checkpoint) has %d files, the commits alone %d", len(got), len(fromCommits))
	}
	for _, v := range []int64{1, want / 3, want / 2, want - 1, want} {
		var k int64
		if err := lt.db.QueryRow(fmt.Sprintf("SELECT count(*) FROM `t@v%d`", v)).Scan(&k); err != nil || k != v {
			t.Errorf("version %d: %d rows, %v", v, k, err)
		}
	}
	t.Logf("%d commits, %d checkpoints, %d files", len(commits), checkpoints, len(snap.Files))
}

// replayCommits reads the add actions of commits 1..last (one file each)
// directly, and returns the sorted paths.
func replayCommits(t *testing.T, lt *logTable, last int64) []string {
	t.Helper()
	var paths []string
	for v := int64(1); v <= last; v++ {
		data := readLog(t, lt, fmt.Sprintf("%020d.json", v))
		adds := strings.Count(string(data), `{"add":`)
		if adds != 1 {
			t.Fatalf("commit %d has %d add actions, want 1", v, adds)
		}
		_, rest, _ := strings.Cut(string(data), `{"add":{"path":"`)
		p, _, _ := strings.Cut(rest, `"`)
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

func filePaths(s *delta.Snapshot) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.URI)
	}
	slices.Sort(out)
	return out
}

// readLog reads a file of the table's log.
func readLog(t *testing.T, lt *logTable, name string) []byte {
	t.Helper()
	var data []byte
	var err error
	if objstore.IsURL(lt.root) {
		data, err = readObject(objstore.Join(lt.root, delta.LogDir, name), lt.store)
	} else {
		data, err = os.ReadFile(filepath.Join(lt.root, delta.LogDir, name))
	}
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readObject reads a whole object of a store.
func readObject(url string, opts map[string]string) ([]byte, error) {
	obj, err := objstore.OpenURL(context.Background(), url, opts)
	if err != nil {
		return nil, err
	}
	defer obj.Close()
	buf := make([]byte, obj.Size())
	if len(buf) > 0 {
		if _, err := obj.ReadAt(buf, 0); err != nil {
			return nil, err
		}
	}
	return buf, nil
}

// TestConditionalCreateRace: creators race to create each of a set of
// keys in the fake store with If-None-Match: * (objstore's conditional
// create over the S3 client), by a single PUT and by a multipart upload
// (a conditional CompleteMultipartUpload, which gofakes3 itself does not
// check: internal/fakes3 does, under a lock). For each key exactly one
// creator wins, the others get fs.ErrExist, and the object holds the
// winner's bytes.
func TestConditionalCreateRace(t *testing.T) {
	srv := fakes3.Start(t, "race")
	for _, c := range []struct {
		name               string
		size, keys, racers int
	}{
		{"put", 64, 200, 8},
		{"multipart", 8<<20 + 1, 6, 4}, // past objstore/s3's part size
	} {
		t.Run(c.name, func(t *testing.T) {
			for k := range c.keys {
				raceCreate(t, srv.Options(), fmt.Sprintf("s3://race/%s/%05d", c.name, k), c.size, c.racers)
			}
		})
	}
}

// raceCreate has racers create url at once with objects of size bytes,
// each starting with its number, and checks that one won.
func raceCreate(t *testing.T, opts map[string]string, url string, size, racers int) {
	t.Helper()
	ctx := context.Background()
	body := func(r int) []byte {
		b := make([]byte, size)
		copy(b, fmt.Sprintf("racer %d", r))
		return b
	}
	var wg sync.WaitGroup
	won := make([]bool, racers)
	errs := make([]error, racers)
	gate := make(chan struct{})
	for r := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			up, err := objstore.CreateURL(ctx, url, opts, true)
			if err != nil {
				errs[r] = err
				return
			}
			if _, err := up.Write(body(r)); err != nil {
				up.Abort()
				errs[r] = err
				return
			}
			<-gate // all racers commit at once
			err = up.Commit()
			switch {
			case err == nil:
				won[r] = true
			case !errors.Is(err, fs.ErrExist):
				errs[r] = err
			}
		}()
	}
	time.Sleep(5 * time.Millisecond)
	close(gate)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("%s: %v", url, err)
	}
	winner := slices.Index(won, true)
	if n := len(slices.DeleteFunc(slices.Clone(won), func(w bool) bool { return !w })); n != 1 {
		t.Fatalf("%s: %d creators won, want exactly 1", url, n)
	}
	got, err := readObject(url, opts)
	if err != nil || !slices.Equal(got, body(winner)) {
		t.Fatalf("%s holds %d bytes starting %q (%v), not racer %d's", url, len(got), got[:min(len(got), 10)], err, winner)
	}
}

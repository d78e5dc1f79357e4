package driver

import (
	"bufio"
	"bytes"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// The tests of this file race CREATE TABLE and INSERT from two callers
// (goroutines of one engine, of two engines, and two processes) and
// check that no acknowledged row is lost and that a table that exists is
// never replaced: each caller's INSERT that returned success is in the
// table afterwards.

// raceRuns is how many races each test runs: 1000, or 200 under the race
// detector (raceDetector, race_on_test.go), which makes each ten times
// slower.
var raceRuns = map[bool]int{false: 1000, true: 200}[raceDetector]

// createAndInsert runs the CREATE (IF NOT EXISTS when ifNotExists) and
// an INSERT of v into table name; created says whether the CREATE made
// the table, inserted whether the INSERT was acknowledged.
func createAndInsert(db *sql.DB, name string, v int, ifNotExists bool) (created, inserted bool, err error) {
	q := "CREATE TABLE " + name + " (a INTEGER)"
	if ifNotExists {
		q = "CREATE TABLE IF NOT EXISTS " + name + " (a INTEGER)"
	}
	_, cerr := db.Exec(q)
	switch {
	case cerr == nil:
		created = true
	case !ifNotExists && strings.Contains(cerr.Error(), "already exists"):
	default:
		return false, false, fmt.Errorf("%s: %w", q, cerr)
	}
	if _, err := db.Exec(fmt.Sprintf("INSERT INTO %s VALUES (%d)", name, v)); err != nil {
		return created, false, fmt.Errorf("INSERT into %s: %w", name, err)
	}
	return created, true, nil
}

// tableValues reads column a of table name, sorted.
func tableValues(t *testing.T, db *sql.DB, name string) []int {
	t.Helper()
	return queryInts(t, db, "SELECT a FROM "+name+" ORDER BY a")
}

// queryInts runs q and returns its one integer column.
func queryInts(t *testing.T, db *sql.DB, q string) []int {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestRacingCreateInsertGoroutines(t *testing.T) {
	for _, engines := range []string{"one engine", "two engines"} {
		for _, ifNotExists := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/if_not_exists=%v", engines, ifNotExists), func(t *testing.T) {
				dir := t.TempDir()
				db1, err := sql.Open("carquet", dir)
				if err != nil {
					t.Fatal(err)
				}
				defer db1.Close()
				db2 := db1
				if engines == "two engines" {
					if db2, err = sql.Open("carquet", dir); err != nil {
						t.Fatal(err)
					}
					defer db2.Close()
				}
				for i := range raceRuns {
					name := fmt.Sprintf("t%d", i)
					var wg sync.WaitGroup
					var created, inserted [2]bool
					var errs [2]error
					for g, db := range []*sql.DB{db1, db2} {
						wg.Add(1)
						go func() {
							defer wg.Done()
							created[g], inserted[g], errs[g] = createAndInsert(db, name, g+1, ifNotExists)
						}()
					}
					wg.Wait()
					for g := range 2 {
						if errs[g] != nil {
							t.Fatalf("run %d, caller %d: %v", i, g+1, errs[g])
						}
					}
					if !ifNotExists && created[0] == created[1] {
						t.Fatalf("run %d: both or neither CREATE TABLE succeeded (%v)", i, created)
					}
					if got := tableValues(t, db1, name); len(got) != 2 || got[0] != 1 || got[1] != 2 {
						t.Fatalf("run %d: table %s holds %v, want [1 2] (both INSERTs acknowledged)", i, name, got)
					}
				}
			})
		}
	}
}

const raceChildEnv = "CARQUET_RACE_CHILD" // dir,tag,runs,ifNotExists

// TestRacingCreateInsertChild is the child process of
// TestRacingCreateInsertProcesses: it runs the races' one side and prints
// one line per run: "run created inserted".
func TestRacingCreateInsertChild(t *testing.T) {
	spec := os.Getenv(raceChildEnv)
	if spec == "" {
		t.Skip("runs as a child process only")
	}
	parts := strings.Split(spec, ",")
	tag, _ := strconv.Atoi(parts[1])
	runs, _ := strconv.Atoi(parts[2])
	ifNotExists := parts[3] == "true"
	db, err := sql.Open("carquet", parts[0])
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for i := range runs {
		created, inserted, err := createAndInsert(db, fmt.Sprintf("t%d", i), tag, ifNotExists)
		if err != nil {
			fmt.Fprintf(w, "error %d %v\n", i, err)
			continue
		}
		fmt.Fprintf(w, "run %d %v %v\n", i, created, inserted)
	}
}

func TestRacingCreateInsertProcesses(t *testing.T) {
	for _, ifNotExists := range []bool{true, false} {
		t.Run(fmt.Sprintf("if_not_exists=%v", ifNotExists), func(t *testing.T) {
			dir := t.TempDir()
			var outs [2]bytes.Buffer
			var cmds [2]*exec.Cmd
			for c := range 2 {
				cmd := exec.Command(os.Args[0], "-test.run=^TestRacingCreateInsertChild$", "-test.count=1")
				cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%d,%d,%v", raceChildEnv, dir, c+1, raceRuns, ifNotExists))
				cmd.Stdout, cmd.Stderr = &outs[c], &outs[c]
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				cmds[c] = cmd
			}
			for c, cmd := range cmds {
				if err := cmd.Wait(); err != nil {
					t.Fatalf("child %d: %v\n%s", c+1, err, outs[c].String())
				}
			}
			// created[i][c], inserted[i][c] as the children reported them.
			created := make([][2]bool, raceRuns)
			inserted := make([][2]bool, raceRuns)
			for c := range 2 {
				for _, line := range strings.Split(outs[c].String(), "\n") {
					if strings.HasPrefix(line, "error ") {
						t.Errorf("child %d: %s", c+1, line)
						continue
					}
					var i int
					var cr, in bool
					if n, _ := fmt.Sscanf(line, "run %d %t %t", &i, &cr, &in); n == 3 && i >= 0 && i < raceRuns {
						created[i][c], inserted[i][c] = cr, in
					}
				}
			}
			db, err := sql.Open("carquet", dir)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			lost := 0
			for i := range raceRuns {
				if !inserted[i][0] || !inserted[i][1] {
					t.Errorf("run %d: an INSERT was not acknowledged (%v)", i, inserted[i])
					continue
				}
				if !ifNotExists && created[i][0] == created[i][1] {
					t.Errorf("run %d: both or neither CREATE TABLE succeeded (%v)", i, created[i])
				}
				got := tableValues(t, db, fmt.Sprintf("t%d", i))
				if len(got) != 2 || got[0] != 1 || got[1] != 2 {
					lost++
					if lost <= 5 {
						t.Errorf("run %d: table holds %v, want [1 2]", i, got)
					}
				}
			}
			if lost > 0 {
				t.Errorf("%d of %d runs lost an acknowledged row", lost, raceRuns)
			}
			// No temporary files are left behind.
			m, _ := filepath.Glob(filepath.Join(dir, ".*"))
			if len(m) > 0 {
				t.Errorf("left behind: %v", m)
			}
		})
	}
}

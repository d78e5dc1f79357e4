package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/carquet-go/carquet/internal/events"
	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/writer"
)

const (
	demoRows = 100_000
	demoSeed = 42
	// demoVersion is written next to the data; other content (an older
	// generator, another writer version) is regenerated.
	demoVersion = "carquet-demo 1; events 100000 rows seed 42; users; writer " + writer.Version + "\n"
)

// demoQueries are printed by the interactive demo and used by the tests.
var demoQueries = []string{
	"SELECT count(*) FROM events WHERE ts >= '2024-02-01';",
	"SELECT category, count(*) AS orders, round(sum(amount), 2) AS revenue FROM events GROUP BY category ORDER BY revenue DESC;",
	"SELECT u.country, count(*) AS orders, round(avg(e.amount), 2) AS avg_amount FROM events e JOIN users u ON u.user_id = e.user_id GROUP BY u.country ORDER BY orders DESC LIMIT 5;",
}

const demoAbout = `Create (once) a small example dataset and open the SQL shell on it:
  events  the events table of BENCHMARKS.md, 100,000 rows: ts (TIMESTAMPTZ,
          sorted), user_id, category, amount, flag; 4 row groups, zstd,
          page index, a bloom filter on user_id;
  users   one row per user_id occurring in events: user_id, name, country,
          signup (DATE).
The files live in the user cache folder (carquet-demo) and are regenerated
when missing or made by another version. With SQL arguments, -c, or SQL on
stdin the statements run against the demo data and pqsql exits, as the
plain shell does; every shell flag works here too.`

func runDemo(e *env, args []string) error {
	fs := newFlags(e, "demo", "demo [--dir DIR] [--regenerate] [shell flags] [SQL...]", demoAbout,
		`pqsql demo
		 pqsql demo -c "SELECT category, count(*) FROM events GROUP BY 1"
		 echo "SELECT count(*) FROM users;" | pqsql demo
		 pqsql demo --dir /tmp/demo -json "SELECT * FROM users LIMIT 3"`)
	dir := fs.String("dir", "", "where the demo data lives (default: the user cache folder's carquet-demo)")
	regen := fs.Bool("regenerate", false, "write the data again even when it is up to date")
	o := shellFlags(fs)
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if *dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("demo: no cache folder (use --dir): %w", err)
		}
		*dir = filepath.Join(cache, "carquet-demo")
	}
	nUsers, err := ensureDemo(e, *dir, *regen)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	banner := fmt.Sprintf("carquet demo data in %s: events (%d rows), users (%d rows).\nTry:\n", *dir, demoRows, nUsers)
	for _, q := range demoQueries {
		banner += "  " + q + "\n"
	}
	banner += "Enter .help for help, .tables and .schema to look around, Ctrl-D to quit.\n"
	return startShell(e, *dir, o, strings.Join(pos, " "), banner)
}

// ensureDemo checks the demo data in dir and writes it when it is missing
// or out of date; it returns the number of users.
func ensureDemo(e *env, dir string, force bool) (int64, error) {
	evPath, usPath := filepath.Join(dir, "events.parquet"), filepath.Join(dir, "users.parquet")
	if !force {
		if v, err := os.ReadFile(filepath.Join(dir, "VERSION")); err == nil && string(v) == demoVersion {
			nEv, err1 := fileRows(evPath)
			nUs, err2 := fileRows(usPath)
			if err1 == nil && err2 == nil && nEv == demoRows && nUs > 0 {
				return nUs, nil
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	os.Remove(filepath.Join(dir, "VERSION"))
	if e.stderrTTY {
		fmt.Fprintf(e.stderr, "generating the demo data in %s ...\n", dir)
	}
	bar := e.progressBar("generating", 2, "")
	defer bar.Done()
	cols := events.Generate(demoRows, demoSeed)
	sch, err := events.Schema()
	if err != nil {
		return 0, err
	}
	w, err := writer.Create(evPath, sch, writer.WithRowGroupRows(25_000), writer.WithCompression(format.Zstd),
		writer.WithPageRowLimit(5_000), writer.WithBloomFilterFor("user_id", 25_000, 0.01),
		writer.WithSortingColumns(writer.SortingColumn{Path: "ts"}))
	if err != nil {
		return 0, err
	}
	if err := w.WriteBatch(cols); err != nil {
		w.Abort()
		return 0, err
	}
	if err := w.Close(); err != nil {
		return 0, err
	}
	bar.Set(1)
	// One user per user_id that occurs.
	seen := map[int32]bool{}
	var ids []int32
	for _, id := range cols[1].Int32s[:demoRows] {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if err := writeUsers(usPath, ids); err != nil {
		return 0, err
	}
	bar.Set(2)
	if err := os.WriteFile(filepath.Join(dir, "VERSION"), []byte(demoVersion), 0o644); err != nil {
		return 0, err
	}
	return int64(len(ids)), nil
}

func fileRows(path string) (int64, error) {
	f, err := file.OpenFile(path, file.Options{}, false)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return f.NumRows(), nil
}

var (
	firstNames = []string{"Ada", "Alan", "Barbara", "Claude", "Dennis", "Edsger", "Frances", "Grace", "Hedy", "Ivan",
		"John", "Ken", "Leslie", "Margaret", "Niklaus", "Ole", "Radia", "Rob", "Sophie", "Tim", "Xiao", "Yukihiro"}
	lastNames = []string{"Lovelace", "Turing", "Liskov", "Shannon", "Ritchie", "Dijkstra", "Allen", "Hopper", "Lamarr",
		"Sutherland", "Backus", "Thompson", "Lamport", "Hamilton", "Wirth", "Dahl", "Perlman", "Pike", "Wilson", "Berners-Lee"}
	// Countries with weights: some are much more common than others, so
	// that GROUP BY country has a shape.
	countries = []struct {
		name   string
		weight int
	}{{"US", 30}, {"DE", 14}, {"FR", 12}, {"GB", 11}, {"JP", 9}, {"BR", 7}, {"IN", 7}, {"CA", 5}, {"NL", 3}, {"SE", 2}}
)

func writeUsers(path string, ids []int32) error {
	sch, err := writer.NewSchema(
		writer.Int32("user_id").Required(), writer.String("name").Required(),
		writer.String("country"), writer.Date("signup"),
	)
	if err != nil {
		return err
	}
	w, err := writer.Create(path, sch, writer.WithCompression(format.Zstd))
	if err != nil {
		return err
	}
	total := 0
	for _, c := range countries {
		total += c.weight
	}
	first := time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC)
	span := uint64(events.Start/1e6-first.Unix()) / 86400
	rows := make([][]any, 0, len(ids))
	for _, id := range ids {
		rng := events.SplitMix64(uint64(id) * 0x9e3779b97f4a7c15)
		name := firstNames[rng.Next()%uint64(len(firstNames))] + " " + lastNames[rng.Next()%uint64(len(lastNames))]
		var country any
		if k := int(rng.Next() % uint64(total+2)); k < total { // a few users without a country
			for _, c := range countries {
				if k < c.weight {
					country = c.name
					break
				}
				k -= c.weight
			}
		}
		signup := first.AddDate(0, 0, int(rng.Next()%span))
		rows = append(rows, []any{id, name, country, signup})
	}
	if err := w.WriteRows(rows); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

package differential

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	flagSeed     = flag.Int64("seed", 0, "run the statements of this seed only (0: the default seeds)")
	flagN        = flag.Int("n", 0, "statements per seed (0: the default)")
	flagQuery    = flag.Int("query", -1, "run only statement number i of the seed")
	flagSQL      = flag.String("sql", "", "run this statement over the tables of -seed instead of random ones")
	flagSQLFile  = flag.String("sqlfile", "", "run the statements of this file (each ending in a ';' at the end of a line) over the tables of -seed instead of random ones")
	flagKeep     = flag.Bool("keep", false, "keep the data files even when the test passes")
	flagMinimize = flag.Int("minimize", 300, "statements tried when minimizing a failure (0: do not minimize)")
	flagShow     = flag.Bool("show", false, "log every statement and both results")
	flagShapes   = flag.Bool("shapes", false, "draw query shapes (gen_shapes.go) only")
)

// The default run: a few fixed seeds, so that CI is reproducible; other
// seeds are for exploring (go test ./differential -seed 123 -n 500).
var defaultSeeds = []int64{1, 2, 3}

// A third of the statements are query shapes (gen_shapes.go); 200 a seed
// take under a minute on an idle machine.
const (
	defaultN = 200
	shortN   = 60
)

const regressionsFile = "testdata/regressions.txt"

func loadCases(t testing.TB) []Case {
	f, err := os.Open(regressionsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ParseCases(f)
	if err != nil {
		t.Fatalf("%s: %v", regressionsFile, err)
	}
	return cases
}

// TestDifferential runs random statements on carquet and DuckDB over the
// same random tables and compares the results.
func TestDifferential(t *testing.T) {
	seeds := defaultSeeds
	if *flagSeed != 0 {
		seeds = []int64{*flagSeed}
	}
	n := defaultN
	if testing.Short() {
		n = shortN
	}
	if *flagN > 0 {
		n = *flagN
	}
	cases := loadCases(t)
	onlyShapes = *flagShapes
	defer func() { onlyShapes = false }()
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			e := openEngines(t, seed)
			if *flagSQL != "" {
				c := e.compare(*flagSQL, HasTopLevelOrderBy(*flagSQL))
				t.Logf("%s\n  DuckDB:  %s\n  carquet: %s\n  %s", c.outcome, c.duck.Format(50), c.carq.Format(50), e.describe())
				if c.outcome.failing() {
					t.Error(c.detail)
				}
				return
			}
			if *flagSQLFile != "" {
				runFile(t, e, *flagSQLFile)
				return
			}
			runSeed(t, e, n, cases)
		})
	}
}

func runSeed(t *testing.T, e *engines, n int, cases []Case) {
	start := time.Now()
	var counts [numOutcomes]int
	nonEmpty, known, ran := 0, 0, 0
	errs := map[Outcome]map[string]int{}
	for _, i := range statementNumbers(n) {
		if *flagQuery >= 0 && i != *flagQuery {
			continue
		}
		q := e.draw(i)
		c := e.compare(q.SQL(), q.ordered)
		ran++
		counts[c.outcome]++
		if c.outcome == Same && len(c.duck.Rows) > 0 {
			nonEmpty++
		}
		if c.outcome != Same && c.outcome != Mismatch && c.outcome != LossyType {
			if errs[c.outcome] == nil {
				errs[c.outcome] = map[string]int{}
			}
			msg := c.detail
			if c.outcome == BothError {
				msg = "DuckDB: " + firstLine(c.duck.Err)
			}
			errs[c.outcome][errorClass(msg)]++
		}
		if c.outcome == DuckDBError {
			// Carquet answers where DuckDB refuses: usually an overflow
			// DuckDB checks and carquet does not, worth a look.
			t.Logf("statement %d/%d: DuckDB error only: %s\n  %s\n  carquet: %s", e.seed, i, c.detail, c.sql, c.carq.Format(3))
		}
		if *flagShow {
			t.Logf("#%d %s\n  %s\n  DuckDB:  %s\n  carquet: %s", i, c.outcome, c.sql, c.duck.Format(10), c.carq.Format(10))
		}
		if !c.outcome.failing() {
			continue
		}
		if k := knownOccurrence(cases, e.seed, i); k != nil {
			known++
			t.Logf("statement %d/%d: case %s, %s: %s", e.seed, i, k.Name, k.Excuse(), c.detail)
			continue
		}
		var min *comparison
		if *flagMinimize > 0 {
			mq := Minimize(q, func(cq *query) bool {
				cc := e.compare(cq.SQL(), cq.ordered)
				return cc.outcome == c.outcome
			}, *flagMinimize)
			min = e.compare(mq.SQL(), mq.ordered)
		}
		if min != nil {
			if k := knownSQL(cases, e.seed, min.sql); k != nil {
				known++
				t.Logf("statement %d/%d minimizes to case %s (%s); add \"occurs %d/%d\" to it to skip minimizing",
					e.seed, i, k.Name, k.Excuse(), e.seed, i)
				continue
			}
		}
		rec := Case{Name: fmt.Sprintf("seed%d-q%d", e.seed, i), Seed: e.seed, Tables: TablesVersion, SQL: c.sql}
		if min != nil {
			rec.SQL = min.sql
		}
		t.Errorf("statement %d of seed %d: %s\n  reproduce: go test ./differential -run TestDifferential -seed %d -query %d -keep\n  record in %s:\n%s",
			i, e.seed, e.report(c, min), e.seed, i, regressionsFile, indent(FormatCase(rec)))
	}
	var summary []string
	for o := Outcome(0); o < numOutcomes; o++ {
		if counts[o] > 0 {
			summary = append(summary, fmt.Sprintf("%s %d", o, counts[o]))
		}
	}
	t.Logf("seed %d: %d statements in %v (DuckDB %v, carquet %v): %s (%d of the agreeing ones non-empty); recorded cases %d",
		e.seed, ran, time.Since(start).Round(time.Millisecond), e.duckTime.Round(time.Millisecond), e.carqTime.Round(time.Millisecond),
		strings.Join(summary, ", "), nonEmpty, known)
	for _, o := range []Outcome{Unsupported, DuckDBError, BothError, TooLarge} {
		var lines []string
		for msg, k := range errs[o] {
			lines = append(lines, fmt.Sprintf("    %3d× %s", k, msg))
		}
		sort.Strings(lines)
		if len(lines) > 0 {
			t.Logf("  %s:\n%s", o, strings.Join(lines, "\n"))
		}
	}
}

// statementNumbers are the numbers of the n statements of gen.go and the
// n typed statements of gen_types.go of a seed.
func statementNumbers(n int) []int {
	out := make([]int, 0, 2*n)
	for i := range n {
		out = append(out, i)
	}
	for i := range n {
		out = append(out, TypedBase+i)
	}
	return out
}

// draw is statement number i of the seed.
func (e *engines) draw(i int) *query {
	if i >= TypedBase {
		return NewTypedGenerator(e.seed, i, e.typed).TypedQuery()
	}
	return NewGenerator(e.seed, i, e.tables).Query()
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

func knownOccurrence(cases []Case, seed int64, i int) *Case {
	for k := range cases {
		if cases[k].Excuse() == "" || cases[k].Tables != TablesVersion {
			continue
		}
		for _, o := range cases[k].Occurs {
			if o.Seed == seed && o.Query == i {
				return &cases[k]
			}
		}
	}
	return nil
}

func knownSQL(cases []Case, seed int64, sql string) *Case {
	for k := range cases {
		c := &cases[k]
		if c.Excuse() != "" && c.Seed == seed && c.Tables == TablesVersion && strings.TrimSpace(c.SQL) == strings.TrimSpace(sql) {
			return c
		}
	}
	return nil
}

// TestRegressions replays the recorded cases. A case marked known is
// skipped while it still fails (naming the bug) and fails the test once
// it passes, so that the mark is taken off when the bug is fixed; a case
// marked differs is skipped while the engines still differ.
func TestRegressions(t *testing.T) {
	cases := loadCases(t)
	bySeed := map[int64][]Case{}
	var seeds []int64
	for _, c := range cases {
		if c.Tables != TablesVersion {
			t.Errorf("%s:%d: case %s was recorded with tables version %d, the generator is at %d: record it again",
				regressionsFile, c.Line, c.Name, c.Tables, TablesVersion)
			continue
		}
		if bySeed[c.Seed] == nil {
			seeds = append(seeds, c.Seed)
		}
		bySeed[c.Seed] = append(bySeed[c.Seed], c)
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			e := openEngines(t, seed)
			for _, rc := range bySeed[seed] {
				t.Run(rc.Name, func(t *testing.T) {
					c := e.compare(rc.SQL, HasTopLevelOrderBy(rc.SQL))
					switch {
					case c.outcome.failing() && rc.Excuse() != "":
						t.Skipf("%s\n  %s: %s", rc.Excuse(), c.outcome, c.detail)
					case c.outcome.failing():
						t.Errorf("%s:%d: %s", regressionsFile, rc.Line, e.report(c, nil))
					case rc.Known != "":
						t.Errorf("%s:%d: case %s passes now (%s): take its \"known\" line off", regressionsFile, rc.Line, rc.Name, c.outcome)
					case rc.Differs != "":
						t.Logf("case %s agrees now (%s); its \"differs\" line may go", rc.Name, c.outcome)
					}
				})
			}
		})
	}
}

func TestRegressionsFileParses(t *testing.T) {
	cases := loadCases(t)
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("case %s recorded twice", c.Name)
		}
		names[c.Name] = true
	}
}

// runFile compares the statements of a file (each ending in a ';' at the
// end of a line) and reports every one on which the engines differ.
func runFile(t *testing.T, e *engines, path string) {
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	same := 0
	for _, stmt := range strings.Split(string(text), ";\n") {
		stmt = strings.TrimSpace(stmt)
		if stmt == "" || strings.HasPrefix(stmt, "--") && !strings.Contains(stmt, "\n") {
			continue
		}
		c := e.compare(stmt, HasTopLevelOrderBy(stmt))
		if c.outcome == Same {
			same++
			if *flagShow {
				t.Logf("same: %s\n  %s", stmt, c.carq.Format(5))
			}
			continue
		}
		t.Logf("%s: %s\n  DuckDB:  %s\n  carquet: %s", c.outcome, stmt, c.duck.Format(5), c.carq.Format(5))
	}
	t.Logf("%d statements the same", same)
}

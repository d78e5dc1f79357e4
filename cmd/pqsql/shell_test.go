package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestShellScriptFromStdin(t *testing.T) {
	dir := fixtures(t)
	script := `-- a comment
SELECT count(*) AS n FROM events;
SELECT category,
       count(*) AS n   /* a block
                          comment */
FROM events
WHERE amount > 3000 AND category = 'it''s; not a category'
GROUP BY category;
.mode json
SELECT id, name FROM types ORDER BY id;
.mode box
SELECT id, name FROM types WHERE id = 2;
.mode csv
SELECT id, name FROM types WHERE id = 2
`
	r := pq(t, script, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := `n
10000
category,n
[
{"id":1,"name":"alpha"},
{"id":2,"name":null},
{"id":3,"name":"gamma, \"quoted\"\nnewline"}
]
┌────┬──────┐
│ id │ name │
├────┼──────┤
│  2 │ NULL │
└────┴──────┘
id,name
2,
`
	if r.stdout != want {
		t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, want)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %q", r.stderr)
	}
}

func TestShellErrorsAndBail(t *testing.T) {
	dir := fixtures(t)
	script := "SELECT 1 AS a;\nSELEC 2;\nSELECT 3 AS b;\n"
	r := pq(t, script, dir)
	if r.code != 1 || r.stdout != "a\n1\nb\n3\n" || !strings.Contains(r.stderr, "Error: stdin:2: ") || !strings.Contains(r.stderr, "SELEC") {
		t.Errorf("without -bail: %+v", r)
	}
	r = pq(t, script, "-bail", dir)
	if r.code != 1 || r.stdout != "a\n1\n" || strings.Count(r.stderr, "Error:") != 1 {
		t.Errorf("-bail: %+v", r)
	}
	// -bail stops a .read script and the script that read it.
	sub := filepath.Join(t.TempDir(), "sub.sql")
	os.WriteFile(sub, []byte(script), 0o644)
	r = pq(t, ".read "+sub+"\nSELECT 4 AS c;\n", "-bail", dir)
	if r.code != 1 || r.stdout != "a\n1\n" || !strings.Contains(r.stderr, "Error: sub.sql:2: ") || strings.Count(r.stderr, "Error:") != 1 {
		t.Errorf(".read under -bail: %+v", r)
	}
	r = pq(t, "", dir, "SELECT nosuch FROM events")
	if r.code != 1 || !strings.Contains(r.stderr, `nosuch`) || r.stdout != "" {
		t.Errorf("bad column: %+v", r)
	}
	if r := pq(t, "", filepath.Join(dir, "nope")); r.code != 1 || !strings.Contains(r.stderr, "nope") {
		t.Errorf("missing path: %+v", r)
	}
	if r := pq(t, ".bogus\n", dir); r.code != 1 || !strings.Contains(r.stderr, "unknown command .bogus") {
		t.Errorf("unknown dot-command: %+v", r)
	}
}

func TestShellArgumentsAndModes(t *testing.T) {
	dir := fixtures(t)
	// PATH then SQL as arguments; a file as PATH.
	if out := ok(t, dir, "SELECT count(*) AS n FROM events WHERE user_id < 1000"); !strings.HasPrefix(out, "n\n") {
		t.Errorf("SQL argument: %q", out)
	}
	if out := ok(t, filepath.Join(dir, "types.parquet"), "SELECT count(*) AS n FROM types"); out != "n\n3\n" {
		t.Errorf("file as PATH: %q", out)
	}
	// -c (repeated), mode flags, flags after the path.
	out := ok(t, "-c", "SELECT id FROM types WHERE id < 3 ORDER BY id", dir, "-jsonl", "-c", "SELECT 'x' AS s")
	if out != "{\"id\":1}\n{\"id\":2}\n{\"s\":\"x\"}\n" {
		t.Errorf("-c -jsonl: %q", out)
	}
	for mode, want := range map[string]string{
		"-tsv":      "id\tname\n1\talpha\n",
		"-markdown": "| id | name  |\n|---:|-------|\n|  1 | alpha |\n",
		"-line":     "  id = 1\nname = alpha\n",
		"-table":    "+----+-------+\n| id | name  |\n+----+-------+\n|  1 | alpha |\n+----+-------+\n",
	} {
		if out := ok(t, dir, mode, "-c", "SELECT id, name FROM types WHERE id = 1"); out != want {
			t.Errorf("%s:\n%s\nwant:\n%s", mode, out, want)
		}
	}
	// Nested values and logical types through the driver.
	out = ok(t, dir, "-c", "SELECT price, day, tags, addr FROM types WHERE id = 1")
	if out != "price,day,tags,addr\n123.45,2024-01-02,\"[1,2]\",\"{\"\"city\"\":\"\"Paris\"\",\"\"zip\"\":75001}\"\n" {
		t.Errorf("types: %q", out)
	}
}

func TestShellDotCommands(t *testing.T) {
	dir := fixtures(t)
	tmp := t.TempDir()
	outFile := filepath.Join(tmp, "out.csv")
	readFile := filepath.Join(tmp, "script.sql")
	os.WriteFile(readFile, []byte("SELECT 'from read' AS s;\n.mode line\nSELECT 7 AS seven;\n"), 0o644)
	script := `.tables
.schema types
.timer on
SELECT 1 AS one;
.timer off
.output ` + outFile + `
SELECT id FROM types ORDER BY id;
.output
.read ` + readFile + `
.explain SELECT count(*) FROM events WHERE user_id = 5
.explain on
SELECT count(*) AS n FROM types;
.explain off
.help
.maxrows 1
.mode box
SELECT id FROM types ORDER BY id;
.nullvalue (null)
SELECT name FROM types WHERE id = 2;
.quit
SELECT 'not reached';
`
	r := pq(t, script, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out := r.stdout
	for _, want := range []string{
		"events\npart\ntypes\n",
		"CREATE TABLE types (\n  id BIGINT NOT NULL,\n  name VARCHAR,\n",
		"  tags INTEGER[],\n",
		"one\n1\n",
		"s\nfrom read\nseven = 7\n",
		"pushed filter: user_id = 5",
		".mode [MODE]",
		"(3 rows, 1 shown)",
		"│ (null) │",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	// The plan printed before the result with .explain on.
	if i, j := strings.Index(out, "types [types.parquet]"), strings.Index(out, "n = 3"); i < 0 || j < 0 || i > j {
		t.Errorf(".explain on:\n%s", out)
	}
	if strings.Contains(out, "not reached") {
		t.Errorf(".quit did not stop:\n%s", out)
	}
	if !strings.Contains(r.stderr, "Run Time: ") || !strings.Contains(r.stderr, ", 1 rows") {
		t.Errorf("timer: %q", r.stderr)
	}
	b, err := os.ReadFile(outFile)
	if err != nil || string(b) != "id\n1\n2\n3\n" {
		t.Errorf(".output file: %q %v", b, err)
	}
}

func TestShellReadonlyAndInsert(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(fixtures(t), "types.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "t.parquet"), src, 0o644)
	r := pq(t, "", "-readonly", dir, "INSERT INTO t (id, name) VALUES (10, 'zed')")
	if r.code != 1 || !strings.Contains(r.stderr, "read-only") {
		t.Errorf("-readonly: %+v", r)
	}
	out := ok(t, dir, "INSERT INTO t (id, name) VALUES (10, 'zed'); SELECT count(*) AS n FROM t;")
	if out != "n\n4\n" {
		t.Errorf("insert then count: %q", out)
	}
}

// TestShellRowsOfWrites: a write with RETURNING and EXECUTE of a prepared
// query print their rows (the shell asks the driver, not the first word);
// EXECUTE of a prepared INSERT prints nothing and writes, also inside a
// transaction.
func TestShellRowsOfWrites(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "CREATE TABLE t (a INTEGER, b VARCHAR)")
	script := "INSERT INTO t VALUES (1, 'x'), (2, 'y') RETURNING a;\n" +
		"PREPARE ins AS INSERT INTO t VALUES (?, 'z');\nEXECUTE ins(3);\n" +
		"PREPARE sel AS SELECT b FROM t WHERE a >= ? ORDER BY a;\nEXECUTE sel(2);\n" +
		"BEGIN; UPDATE t SET b = 'w' WHERE a = 1 RETURNING b; DELETE FROM t WHERE a = 3 RETURNING a * 10 AS d; COMMIT;\n" +
		"SELECT count(*) AS n FROM t;\n"
	r := pq(t, script, dir)
	if want := "a\n1\n2\nb\ny\nz\nb\nw\nd\n30\nn\n2\n"; r.code != 0 || r.stdout != want {
		t.Errorf("got %+v\nwant stdout %q", r, want)
	}
}

// TestShellTransactions: BEGIN ... ROLLBACK writes nothing, BEGIN ...
// COMMIT writes all, a transaction left open at the end is rolled back,
// and the transaction statements out of place are errors.
func TestShellTransactions(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "CREATE TABLE t (a INTEGER)")
	script := "BEGIN; INSERT INTO t VALUES (1); INSERT INTO t VALUES (2); ROLLBACK; SELECT count(*) AS n FROM t;\n" +
		"BEGIN TRANSACTION; INSERT INTO t VALUES (3);\n.tables\nCOMMIT; SELECT sum(a) AS s FROM t; START TRANSACTION; INSERT INTO t VALUES (4);\n"
	if r := pq(t, script, dir); r.code != 0 || r.stdout != "n\n0\nt\ns\n3\n" {
		t.Errorf("transactions: %+v", r)
	}
	if out := ok(t, dir, "SELECT count(*) AS n FROM t"); out != "n\n1\n" {
		t.Errorf("after a transaction left open: %q", out)
	}
	r := pq(t, "", dir, "COMMIT")
	if r.code != 1 || !strings.Contains(r.stderr, "no transaction is open") {
		t.Errorf("COMMIT without BEGIN: %+v", r)
	}
	r = pq(t, "", dir, "BEGIN; BEGIN")
	if r.code != 1 || !strings.Contains(r.stderr, "already open") {
		t.Errorf("BEGIN twice: %+v", r)
	}
}

func TestSplitStatements(t *testing.T) {
	got := splitStatements("SELECT 'a;b' AS x; SELECT \"c;\" -- d;e\n; /* ; */ SELECT `e;f`;;\nSELECT 'it''s;'")
	want := []string{"SELECT 'a;b' AS x", "SELECT \"c;\"", "SELECT `e;f`", "SELECT 'it''s;'"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("split: %q", got)
	}
	if firstWord("  (SELECT 1)") != "SELECT" || !returnsRowsByWord("describe t") || returnsRowsByWord("INSERT INTO t VALUES (1)") {
		t.Error("statement kinds")
	}
	for _, c := range []struct {
		arg  string
		path bool
	}{{"data/", true}, {"SELECT 1", false}, {"*.parquet", true}, {"SELECT count(*) FROM t", false}} {
		if looksLikePath(c.arg) != c.path {
			t.Errorf("looksLikePath(%q) = %v", c.arg, !c.path)
		}
	}
}

func TestDemo(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	dir := filepath.Join(cache, "carquet-demo")
	// -c runs one statement against freshly generated data.
	out := ok(t, "demo", "-c", demoQueries[0])
	if !strings.HasPrefix(out, "count(*)\n") {
		t.Fatalf("demo -c: %q", out)
	}
	st, err := os.Stat(filepath.Join(dir, "events.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	// SQL on stdin: the three example queries, and the data is reused.
	r := pq(t, strings.Join(demoQueries, "\n")+"\nSELECT count(*) AS n FROM events;\n", "demo")
	if r.code != 0 {
		t.Fatalf("demo stdin: %+v", r)
	}
	for _, want := range []string{"category,orders,revenue\n", "country,orders,avg_amount\nUS,", "n\n100000\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, r.stdout)
		}
	}
	st2, _ := os.Stat(filepath.Join(dir, "events.parquet"))
	if !st2.ModTime().Equal(st.ModTime()) {
		t.Error("demo data was regenerated although up to date")
	}
	// An outdated version stamp regenerates; the data checks out.
	os.WriteFile(filepath.Join(dir, "VERSION"), []byte("old\n"), 0o644)
	os.Remove(filepath.Join(dir, "users.parquet"))
	out = ok(t, "demo", "SELECT count(*) AS n FROM users")
	if out == "n\n0\n" || !strings.HasPrefix(out, "n\n") {
		t.Errorf("users after regeneration: %q", out)
	}
	if v, _ := os.ReadFile(filepath.Join(dir, "VERSION")); string(v) != demoVersion {
		t.Errorf("VERSION: %q", v)
	}
	ok(t, "validate", filepath.Join(dir, "events.parquet"), filepath.Join(dir, "users.parquet"))
	// The pushdown query gives what the filter command counts.
	n1 := ok(t, "demo", "-c", demoQueries[0])
	n2 := ok(t, "count", "-p", "ts >= '2024-02-01'", filepath.Join(dir, "events.parquet"))
	if strings.TrimPrefix(n1, "count(*)\n") != n2 {
		t.Errorf("pushdown count %q, filter count %q", n1, n2)
	}
	if out := ok(t, "demo", "--help"); !strings.Contains(out, "users") {
		t.Errorf("demo --help:\n%s", out)
	}
}

func TestCompletion(t *testing.T) {
	e := newEnv(strings.NewReader(""), &strings.Builder{}, &strings.Builder{})
	o := shellFlags(newFlags(e, "pqsql", "", "", ""))
	sh, err := openShell(e, fixtures(t), o)
	if err != nil {
		t.Fatal(err)
	}
	defer sh.close()
	for line, want := range map[string]string{
		"sel":                           "select",
		"SEL":                           "SELECT",
		".mo":                           ".mode",
		".mode js":                      "json jsonl",
		".schema ty":                    "types",
		"SELECT * FROM ty":              "types",
		"SELECT types.na":               "types.name",
		"SELECT * FROM types WHERE pri": "price",
		"SELECT categ":                  "category",
		"SELECT x.user_":                "x.user_id",
		"SELECT count(*) FROM e WHERE ": "",
	} {
		start, cands := sh.complete([]rune(line), len([]rune(line)))
		got := strings.Join(cands, " ")
		if want == "" {
			if start != len([]rune(line)) {
				t.Errorf("complete(%q): start %d", line, start)
			}
			continue
		}
		if got != want && !strings.HasPrefix(got, want+" ") {
			t.Errorf("complete(%q) = %q (from %d), want %q", line, got, start, want)
		}
	}
}

// TestShellExplainWrites: with .explain on, a write's plan is printed
// before it runs, and the write then runs once; DDL prints no plan.
func TestShellExplainWrites(t *testing.T) {
	dir := t.TempDir()
	ok(t, dir, "CREATE TABLE t (a INTEGER, b VARCHAR)")
	script := ".explain on\nCREATE TABLE u (x INTEGER);\nINSERT INTO t VALUES (1, 'x'), (2, 'y');\n" +
		"UPDATE t SET b = 'z' WHERE a = 2;\nFROM t SELECT count(*) AS n;\n"
	r := pq(t, script, dir)
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	ins, upd, n := strings.Index(r.stdout, "VALUES 2 rows"), strings.Index(r.stdout, "UPDATE"), strings.Index(r.stdout, "n\n2\n")
	if ins < 0 || upd < ins || n < upd {
		t.Errorf("plans of the writes, then the count:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "CREATE") {
		t.Errorf("a plan printed for DDL:\n%s", r.stdout)
	}
	if out := ok(t, dir, "SELECT a, b FROM t ORDER BY a"); out != "a,b\n1,x\n2,z\n" {
		t.Errorf("after the writes: %q", out)
	}
}

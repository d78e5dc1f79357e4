package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/testfiles"
)

func TestImportExportRoundTrip(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.csv")
	csvText := `id,name,amount,when,day,flag,zip,mixed,empty
1,alice,1.5,2023-11-10T00:00:00Z,2023-11-10,true,00123,1,
2,"bob, ""jr""",2.0,2023-11-10T01:02:03.123456Z,2023-11-11,false,12345,x,
3,,-3.25,,2023-11-12,,99999,2.5,
4,"multi
line",1e-07,2024-02-29T23:59:59.999999999Z,2024-02-29,true,0,-0,
`
	os.WriteFile(src, []byte(csvText), 0o644)
	pqf := filepath.Join(dir, "out.parquet")
	r := pq(t, "", "import", "-o", pqf, src)
	if r.code != 0 {
		t.Fatalf("import: %+v", r)
	}
	if !strings.Contains(r.stderr, "wrote 4 rows") || !strings.Contains(r.stderr, "id:int64,name:string,amount:double,when:timestamp(ns),day:date,flag:bool,zip:string,mixed:string,empty:string") {
		t.Errorf("import summary: %s", r.stderr)
	}
	if got := ok(t, "export", pqf); got != csvText {
		t.Errorf("export after import:\n%s\nwant:\n%s", got, csvText)
	}
	// Through JSON Lines and back to CSV.
	jl := filepath.Join(dir, "rows.jsonl")
	ok(t, "export", "-o", jl, pqf)
	b, _ := os.ReadFile(jl)
	if !strings.Contains(string(b), `"name":"bob, \"jr\""`) || strings.Count(string(b), "\n") != 4 {
		t.Errorf("jsonl export:\n%s", b)
	}
	pq2 := filepath.Join(dir, "again.parquet")
	ok(t, "import", "-o", pq2, jl)
	if got := ok(t, "export", pq2); got != csvText {
		t.Errorf("export after JSON Lines import:\n%s", got)
	}
	// The events file round trip, zstd and small row groups, from stdin.
	ev := filepath.Join(fixtures(t), "events.parquet")
	evCSV := ok(t, "export", ev)
	pq3 := filepath.Join(dir, "events.parquet")
	r = pq(t, evCSV, "import", "--codec", "zstd", "--row-group-rows", "3000", "--schema", "ts:timestamp!,user_id:int32!,category:string!,amount:double!,flag:bool!", "-o", pq3, "-")
	if r.code != 0 {
		t.Fatalf("import events: %+v", r)
	}
	if got := ok(t, "export", pq3); got != evCSV {
		t.Errorf("events round trip differs")
	}
	var fi fileInfo
	decodeJSON(t, ok(t, "info", "--json", pq3), &fi)
	if len(fi.RowGroups) != 4 || fi.RowGroups[0].Columns[0].Codec != "ZSTD" || fi.RowGroups[0].Columns[1].Type != "INT32" {
		t.Errorf("imported events: %+v", fi)
	}
	if out := ok(t, "schema", pq3); !strings.Contains(out, "required int32 user_id;") {
		t.Errorf("imported schema:\n%s", out)
	}
	// TSV export and import.
	tsv := filepath.Join(dir, "t.tsv")
	ok(t, "export", "-o", tsv, pqf)
	pq4 := filepath.Join(dir, "tsv.parquet")
	ok(t, "import", "-o", pq4, tsv)
	if got := ok(t, "export", pq4); got != csvText {
		t.Errorf("export after TSV import:\n%s", got)
	}
}

func TestImportSchemaAndErrors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "in.csv")
	os.WriteFile(src, []byte("a,b,c\n1,2.50,2024-01-02 10:00:00\n2,-1.25,\n"), 0o644)
	out := filepath.Join(dir, "o.parquet")
	ok(t, "import", "--schema", "x:int16!,price:decimal(9,2),at:timestamp_ms", "-o", out, src)
	if s := ok(t, "schema", out); !strings.Contains(s, "required int32 x (INTEGER(16,true));") || !strings.Contains(s, "DECIMAL(9,2)") ||
		!strings.Contains(s, "TIMESTAMP(MILLIS,true)") {
		t.Errorf("schema:\n%s", s)
	}
	if got := ok(t, "export", out); got != "x,price,at\n1,2.50,2024-01-02T10:00:00Z\n2,-1.25,\n" {
		t.Errorf("export:\n%s", got)
	}
	// A value that does not fit names the line and column.
	os.WriteFile(src, []byte("a\n1\nzz\n"), 0o644)
	r := pq(t, "", "import", "--schema", "a:int32", "-o", out, src)
	if r.code != 1 || !strings.Contains(r.stderr, "line 3: column a") {
		t.Errorf("bad value: %+v", r)
	}
	os.WriteFile(src, []byte("a,b\n1,2\n3\n"), 0o644)
	if r := pq(t, "", "import", "-o", out, src); r.code != 1 || !strings.Contains(r.stderr, "line 3: 1 fields, the header has 2") {
		t.Errorf("short line: %+v", r)
	}
	if r := pq(t, "", "import", "--schema", "a:varchar(3)", "-o", out, src); r.code != 2 || !strings.Contains(r.stderr, "unknown type") {
		t.Errorf("bad schema: %+v", r)
	}
	if r := pq(t, "", "import", "--codec", "lzo", "-o", out, src); r.code != 2 {
		t.Errorf("bad codec: %+v", r)
	}
	// JSON Lines: nested values become JSON columns, missing keys NULL.
	jl := filepath.Join(dir, "in.jsonl")
	os.WriteFile(jl, []byte(`{"id":1,"tags":["a","b"],"meta":{"k":1}}
{"id":2,"extra":"x"}
`), 0o644)
	ok(t, "import", "-o", out, jl)
	if s := ok(t, "schema", out); !strings.Contains(s, "optional byte_array tags (JSON);") || !strings.Contains(s, "optional byte_array extra (STRING);") {
		t.Errorf("jsonl schema:\n%s", s)
	}
	if got := ok(t, "export", "--format", "jsonl", out); got != `{"id":1,"tags":"[\"a\",\"b\"]","meta":"{\"k\":1}","extra":null}`+"\n"+`{"id":2,"tags":null,"meta":null,"extra":"x"}`+"\n" {
		t.Errorf("jsonl export:\n%s", got)
	}
}

// TestCodegen generates code for files, then builds and runs a program
// using it in a temporary module that replaces carquet with this tree.
func TestCodegen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root := testfiles.Root(t)
	dir := t.TempDir()
	fx := fixtures(t)
	files := map[string]string{
		"events": filepath.Join(fx, "events.parquet"),
		"types":  filepath.Join(fx, "types.parquet"),
		"nested": conformance(t, "nested_maps.snappy.parquet"),
		"legacy": conformance(t, "alltypes_plain.parquet"),
		"lists":  conformance(t, "nested_lists.snappy.parquet"),
	}
	var imports, calls strings.Builder
	for pkg, path := range files {
		os.MkdirAll(filepath.Join(dir, pkg), 0o755)
		typ := "Row"
		if pkg == "events" {
			typ = "Event"
		}
		ok(t, "codegen", "-package", pkg, "-type", typ, "-o", filepath.Join(dir, pkg, "rows.go"), path)
		imports.WriteString("\t\"example.com/gen/" + pkg + "\"\n")
		calls.WriteString("\t{\n\t\trows, err := " + pkg + ".Read" + typ + "s(" + strquote(path) + ")\n\t\tif err != nil {\n\t\t\tpanic(err)\n\t\t}\n" +
			"\t\tfmt.Printf(\"" + pkg + " %d %+v\\n\", len(rows), rows[len(rows)-1])\n\t}\n")
	}
	gomod := "module example.com/gen\n\ngo 1.26\n\nrequire github.com/carquet-go/carquet v0.0.0\n\nreplace github.com/carquet-go/carquet => " + root + "\n"
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
	sum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
	os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644)
	main := "package main\n\nimport (\n\t\"fmt\"\n\n" + imports.String() + ")\n\nfunc main() {\n" + calls.String() + "}\n"
	os.WriteFile(filepath.Join(dir, "main.go"), []byte(main), 0o644)
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod -buildvcs=false", "GOPROXY=off", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go run: %v\n%s\nmain.go:\n%s", err, out, main)
	}
	got := string(out)
	for _, want := range []string{
		"events 10000 {Ts:",
		"types 3 {ID:3 Name:0x", // a pointer
		"legacy 8 {ID:0x",
		"nested 6 {A:map[",
		"lists 3 {A:[",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// Values match what pqsql itself reads.
	last := parseCSV(t, ok(t, "tail", "-n", "1", files["events"]))[1]
	if !strings.Contains(got, "UserID:"+last[1]+" Category:"+last[2]) {
		t.Errorf("events: last row %q not in\n%s", last, got)
	}
	// The generated code is stable.
	a := ok(t, "codegen", files["types"])
	if a != ok(t, "codegen", files["types"]) || !strings.Contains(a, "package types") || !strings.Contains(a, "Price *value.Decimal") ||
		!strings.Contains(a, "Tags  []*int32") || !strings.Contains(a, "Addr  *RowAddr") || !strings.Contains(a, "Attrs map[string]*int64") {
		t.Errorf("codegen types:\n%s", a)
	}
}

func strquote(s string) string { return "\"" + strings.ReplaceAll(s, `\`, `\\`) + "\"" }

func TestGoName(t *testing.T) {
	for in, want := range map[string]string{"user_id": "UserID", "ts": "Ts", "2nd value": "F2ndValue", "camelCase": "CamelCase", "a.b-c": "ABC", "": "F"} {
		if got := goName(in); got != want {
			t.Errorf("goName(%q) = %q, want %q", in, got, want)
		}
	}
}

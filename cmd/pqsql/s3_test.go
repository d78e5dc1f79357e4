package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/carquet-go/carquet/internal/fakes3"
)

// TestS3Paths runs the shell and the inspection commands on s3:// paths
// of a bucket holding the fixtures.
func TestS3Paths(t *testing.T) {
	dir := fixtures(t)
	srv := fakes3.Start(t, "lake")
	srv.PutDir(t, "lake", "fx/", dir, ".parquet")
	q := "?" + srv.Query()
	ev := "s3://lake/fx/events.parquet" + q
	local := filepath.Join(dir, "events.parquet")
	for _, args := range [][]string{
		{"schema"}, {"columns"}, {"count"}, {"head", "-n", "3"}, {"tail", "-n", "2"},
		{"stat"}, {"meta"}, {"count", "-p", "amount > 100"}, {"cat", "--limit", "4", "-c", "ts,amount"},
		{"sample", "-n", "3", "--seed", "7"}, {"export", "--limit", "5"}, {"codegen"},
	} {
		got := ok(t, append(args, ev)...)
		want := ok(t, append(args, local)...)
		if args[0] == "meta" || args[0] == "stat" {
			// They name the file they read.
			got = strings.ReplaceAll(got, ev, local)
			got = strings.ReplaceAll(got, "s3://lake/fx/events.parquet", local)
		}
		if got != want {
			t.Errorf("pqsql %s on s3:\n%s\nlocally:\n%s", strings.Join(args, " "), got, want)
		}
	}
	if out := ok(t, "info", ev); !strings.Contains(out, "rows:        10000") {
		t.Errorf("info:\n%s", out)
	}
	if out := ok(t, "validate", ev); !strings.Contains(strings.ToLower(out), "ok") {
		t.Errorf("validate:\n%s", out)
	}
	// import writes to a bucket.
	csv := filepath.Join(t.TempDir(), "in.csv")
	if err := os.WriteFile(csv, []byte("a,b\n1,x\n2,y\n3,z\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok(t, "import", "-o", "s3://lake/fx/imported.parquet"+q, csv)
	if out := ok(t, "count", "s3://lake/fx/imported.parquet"+q); strings.TrimSpace(out) != "3" {
		t.Errorf("count of the imported object: %q", out)
	}
	// A folder in the bucket as the shell's database.
	got := ok(t, "s3://lake/fx/"+q, "SELECT COUNT(*) FROM events")
	want := ok(t, dir, "SELECT COUNT(*) FROM events")
	if got != want {
		t.Errorf("shell on s3: %q, locally %q", got, want)
	}
}

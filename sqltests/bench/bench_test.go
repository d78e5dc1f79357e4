package bench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSuiteSmall runs every file workload on a small table once, so that
// the benchmark program keeps working (every read is checked against the
// generated rows) and its outputs are well formed.
func TestSuiteSmall(t *testing.T) {
	dir := t.TempDir()
	s, err := NewSuite(Config{Rows: 3000, Runs: 1, Dir: dir, Codecs: []string{"none", "zstd"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Summaries), 2*(4+4)*4; got != want {
		t.Errorf("%d summaries, want %d", got, want)
	}
	md := rep.Markdown()
	for _, w := range []string{"### write", "### count", "cross-read of duckdb's file", "### file size"} {
		if !strings.Contains(md, w) {
			t.Errorf("markdown lacks %q", w)
		}
	}
	charts, err := rep.WriteCharts(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range charts {
		b, err := os.ReadFile(filepath.Join(dir, c))
		if err != nil || !strings.HasPrefix(string(b), "<svg") || !strings.HasSuffix(string(b), "</svg>\n") {
			t.Errorf("chart %s: %v", c, err)
		}
	}
	if err := rep.WriteJSON(filepath.Join(dir, "r.json")); err != nil {
		t.Fatal(err)
	}
}

func TestGenerate(t *testing.T) {
	ev := Generate(100000)
	for i := 1; i < ev.N; i++ {
		if ev.TS[i] < ev.TS[i-1] {
			t.Fatalf("ts not sorted at %d", i)
		}
	}
	if ev.TS[0] < Start.UnixMicro() || ev.TS[ev.N-1] > Start.AddDate(0, 0, spanDays).UnixMicro() {
		t.Errorf("ts outside the 90 days")
	}
	n := 0
	for _, x := range ev.TS {
		if x >= ev.Cutoff() {
			n++
		}
	}
	if n < 4900 || n > 5100 {
		t.Errorf("cutoff keeps %d of 100000 rows, want about 5%%", n)
	}
	for i := range ev.UserID {
		if ev.UserID[i] < 1 || ev.UserID[i] > 499997 || ev.Amount[i] < 0.09 || ev.Amount[i] > 3714.81 {
			t.Fatalf("row %d out of range: %d %v", i, ev.UserID[i], ev.Amount[i])
		}
	}
}

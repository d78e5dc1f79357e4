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
	// per codec: write, read of 4 files (carquet's and duckdb's, then
	// cross: the two others), column and count of 2 files; 4 contenders
	if got, want := len(rep.Summaries), 2*(1+4+2+2)*4; got != want {
		t.Errorf("%d summaries, want %d", got, want)
	}
	md := rep.Markdown()
	for _, w := range []string{"### write", "### filtered count (ts >= cutoff, ~5%) of carquet's file", "### full read of duckdb's file", "### full read of parquet-go's file", "### file size", "not the same work"} {
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

// TestArrowPaths checks that arrow-go's two read paths (pqarrow tables
// and the low-level column readers) compute the same results.
func TestArrowPaths(t *testing.T) {
	ev := Generate(20000)
	dir := t.TempDir()
	c, err := NewCarquet(ev)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "c.parquet")
	if err := c.Write("zstd", path); err != nil {
		t.Fatal(err)
	}
	want := ev.Want()
	for _, amountOnly := range []bool{false, true} {
		a, err := arrowReadTable(path, amountOnly)
		if err != nil {
			t.Fatal(err)
		}
		b, err := arrowReadLow(path, amountOnly)
		if err != nil {
			t.Fatal(err)
		}
		if a.Rows != want.Rows || b.Rows != want.Rows || !close(a.AmountSum, want.AmountSum) || !close(b.AmountSum, want.AmountSum) {
			t.Errorf("amountOnly %v: %+v, %+v, want %+v", amountOnly, a, b, want)
		}
		if !amountOnly && (a != b || a.TSSum != want.TSSum || a.CatBytes != want.CatBytes || a.Flags != want.Flags || a.UserSum != want.UserSum) {
			t.Errorf("full: pqarrow %+v, low-level %+v, want %+v", a, b, want)
		}
	}
}

// BenchmarkArrowPaths measures arrow-go's two read paths on one file
// (ARROW_BENCH_FILE, or a zstd file of 1M rows written by carquet), to
// pick the faster for the suite (ArrowLowLevel).
func BenchmarkArrowPaths(b *testing.B) {
	path := os.Getenv("ARROW_BENCH_FILE")
	if path == "" {
		ev := Generate(1_000_000)
		c, err := NewCarquet(ev)
		if err != nil {
			b.Fatal(err)
		}
		path = filepath.Join(b.TempDir(), "c.parquet")
		if err := c.Write("zstd", path); err != nil {
			b.Fatal(err)
		}
	}
	for _, amountOnly := range []bool{false, true} {
		name := "full"
		if amountOnly {
			name = "amount"
		}
		b.Run(name+"/pqarrow", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := arrowReadTable(path, amountOnly); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/low-level", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := arrowReadLow(path, amountOnly); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

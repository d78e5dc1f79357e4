package bench

import (
	"strings"

	"fmt"
	"github.com/carquet-go/carquet/sqltests/internal/peers"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"
)

// RowGroupRows is the row group size of every file (BENCHMARKS.md §1).
const RowGroupRows = 1_000_000

// Codecs are the codecs of §1.
var Codecs = []string{"none", "snappy", "zstd", "gzip", "lz4_raw"}

// Sample is one timed run.
type Sample struct {
	Workload string  `json:"workload"` // write, read:<writer>, column:<writer>, count:<writer>
	Codec    string  `json:"codec"`
	Lib      string  `json:"lib"`
	Run      int     `json:"run"` // 0 is the warm-up, not counted
	Seconds  float64 `json:"seconds"`
}

// Summary is the median, min and max of a cell's counted runs.
type Summary struct {
	Workload string  `json:"workload"`
	Codec    string  `json:"codec"`
	Lib      string  `json:"lib"`
	Median   float64 `json:"median_s"`
	Min      float64 `json:"min_s"`
	Max      float64 `json:"max_s"`
	Runs     int     `json:"runs"`
}

// Config of a run.
type Config struct {
	Rows int
	Runs int // counted runs per cell, after one warm-up
	Dir  string
	// Workloads to run (write, read, column, count, cross); nil is all.
	Workloads map[string]bool
	Codecs    []string
	// ReadFiles are the writers whose file every contender reads in the
	// read, column and count workloads; nil is carquet and duckdb. The
	// cross workload adds the full read of every other writer's file.
	ReadFiles []string
	// Procs, when above 0, is GOMAXPROCS during the file workloads: 1
	// gives every Go contender one core, garbage collector included, as
	// DuckDB has at SET threads=1.
	Procs int
	Log   func(format string, args ...any)
}

// Report is everything a run measured.
type Report struct {
	Rows      int               `json:"rows"`
	Runs      int               `json:"runs"`
	Started   time.Time         `json:"started"`
	Machine   map[string]string `json:"machine"`
	Samples   []Sample          `json:"samples"`
	Summaries []Summary         `json:"summaries"`
	FileSizes map[string]int64  `json:"file_sizes"` // "lib/codec"
	PeakRSS   map[string]int64  `json:"peak_rss_bytes,omitempty"`
	Notes     []string          `json:"notes"`
	// FooterAllocs are bytes allocated per footer decode, by
	// "decoder/label/workload"; FooterBytes the encoded footer sizes.
	FooterAllocs map[string]int64 `json:"footer_allocs,omitempty"`
	FooterBytes  map[string]int   `json:"footer_bytes,omitempty"`
	// APIs names each contender's API per workload kind, by
	// "kind/lib" (kind: write, read, column, count); Threads is every
	// contender's thread count in the file workloads.
	APIs       map[string]string `json:"apis,omitempty"`
	Threads    int               `json:"threads,omitempty"`
	GoMaxProcs int               `json:"gomaxprocs,omitempty"`
	// NotSame marks "workload/lib" cells that do not do the same work as
	// carquet's, with the reason: the report gives no ratio for them.
	NotSame map[string]string `json:"not_same,omitempty"`
}

// Suite holds the contenders over one generated table.
type Suite struct {
	Cfg  Config
	Ev   *Events
	Libs []Lib
	rep  *Report

	wantRes *Result
}

// NewSuite generates the table and prepares every library's in-memory form.
func NewSuite(cfg Config) (*Suite, error) {
	if cfg.Log == nil {
		cfg.Log = func(string, ...any) {}
	}
	if cfg.Codecs == nil {
		cfg.Codecs = Codecs
	}
	ev := Generate(cfg.Rows)
	c, err := NewCarquet(ev)
	if err != nil {
		return nil, err
	}
	a, err := NewArrow(ev)
	if err != nil {
		return nil, err
	}
	p, err := NewParquetGo(ev)
	if err != nil {
		return nil, err
	}
	src := filepath.Join(cfg.Dir, "duckdb-source.parquet")
	if err := c.Write("none", src); err != nil {
		return nil, err
	}
	d, err := NewDuckDB(src)
	if err != nil {
		return nil, err
	}
	s := &Suite{Cfg: cfg, Ev: ev, Libs: []Lib{c, a, p, d}}
	if cfg.ReadFiles == nil {
		s.Cfg.ReadFiles = []string{"carquet", "duckdb"}
	}
	s.rep = &Report{Rows: cfg.Rows, Runs: cfg.Runs, Started: time.Now().UTC(), FileSizes: map[string]int64{},
		APIs: APIs(), Threads: 1, NotSame: map[string]string{
			"write/parquet-go": "parquet-go writes a dictionary on category only (it cannot fall back from a dictionary that grows too large), the others try one on every column",
		}}
	return s, nil
}

// Close closes the libraries.
func (s *Suite) Close() {
	for _, l := range s.Libs {
		l.Close()
	}
}

func (s *Suite) path(lib, codec string) string {
	return filepath.Join(s.Cfg.Dir, fmt.Sprintf("%s-%s.parquet", lib, codec))
}

// timeIt runs f once and returns its wall time; a GC before every run
// keeps one contender's garbage from being collected in another's time.
func timeIt(f func() error) (float64, error) {
	runtime.GC()
	t0 := time.Now()
	err := f()
	return time.Since(t0).Seconds(), err
}

// interleave runs every contender once per round, one warm-up round then
// Runs counted rounds, starting each round one contender further along
// (A B C D, B C D A, ...): what runs just before a contender (DuckDB's
// threads winding down, a peer's garbage) then weighs on each alike.
func (s *Suite) interleave(workload, codec string, fns map[string]func() error, order []string) error {
	for run := 0; run <= s.Cfg.Runs; run++ {
		for i := range order {
			lib := order[(run+i)%len(order)]
			sec, err := timeIt(fns[lib])
			if err != nil {
				return fmt.Errorf("%s %s %s: %w", workload, codec, lib, err)
			}
			s.rep.Samples = append(s.rep.Samples, Sample{workload, codec, lib, run, sec})
		}
	}
	for _, lib := range order {
		s.rep.Summaries = append(s.rep.Summaries, summarize(s.rep.Samples, workload, codec, lib))
		sm := s.rep.Summaries[len(s.rep.Summaries)-1]
		s.Cfg.Log("%-10s %-8s %-10s median %8.2f ms (min %.2f, max %.2f)", workload, codec, lib, sm.Median*1e3, sm.Min*1e3, sm.Max*1e3)
	}
	return nil
}

func summarize(samples []Sample, workload, codec, lib string) Summary {
	var xs []float64
	for _, x := range samples {
		if x.Workload == workload && x.Codec == codec && x.Lib == lib && x.Run > 0 {
			xs = append(xs, x.Seconds)
		}
	}
	sort.Float64s(xs)
	sm := Summary{Workload: workload, Codec: codec, Lib: lib, Runs: len(xs)}
	if len(xs) > 0 {
		sm.Min, sm.Max = xs[0], xs[len(xs)-1]
		if len(xs)%2 == 1 {
			sm.Median = xs[len(xs)/2]
		} else {
			sm.Median = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
		}
	}
	return sm
}

func (s *Suite) want(w string) bool { return s.Cfg.Workloads == nil || s.Cfg.Workloads[w] }

func (s *Suite) names() []string {
	var out []string
	for _, l := range s.Libs {
		out = append(out, l.Name())
	}
	return out
}

// check compares a read's result with the generated table: rows and
// sum(amount), and for a full read every other figure.
func (s *Suite) check(what string, r Result, full bool) error {
	if s.wantRes == nil {
		x := s.Ev.Want()
		s.wantRes = &x
	}
	want := *s.wantRes
	if r.Rows != want.Rows {
		return fmt.Errorf("%s: %d rows, want %d", what, r.Rows, want.Rows)
	}
	if !close(r.AmountSum, want.AmountSum) {
		return fmt.Errorf("%s: sum(amount) %v, want %v", what, r.AmountSum, want.AmountSum)
	}
	if full && (r.TSSum != want.TSSum || r.UserSum != want.UserSum || r.CatBytes != want.CatBytes || r.Flags != want.Flags) {
		return fmt.Errorf("%s: sums (ts %d, user_id %d, category bytes %d, flags %d), want (%d, %d, %d, %d)", what,
			r.TSSum, r.UserSum, r.CatBytes, r.Flags, want.TSSum, want.UserSum, want.CatBytes, want.Flags)
	}
	return nil
}

// Run runs the file workloads of §1.
func (s *Suite) Run() (*Report, error) {
	if s.Cfg.Procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(s.Cfg.Procs))
	}
	s.rep.GoMaxProcs = runtime.GOMAXPROCS(0)
	order := s.names()
	cutoff := s.Ev.Cutoff()
	wantCount := int64(0)
	for _, t := range s.Ev.TS {
		if t >= cutoff {
			wantCount++
		}
	}
	for _, codec := range s.Cfg.Codecs {
		// write (always: the other workloads read these files)
		fns := map[string]func() error{}
		for _, l := range s.Libs {
			fns[l.Name()] = func() error { return l.Write(codec, s.path(l.Name(), codec)) }
		}
		if s.want("write") {
			if err := s.interleave("write", codec, fns, order); err != nil {
				return nil, err
			}
		} else {
			for _, l := range s.Libs {
				if err := fns[l.Name()](); err != nil {
					return nil, err
				}
			}
		}
		for _, l := range s.Libs {
			st, err := os.Stat(s.path(l.Name(), codec))
			if err != nil {
				return nil, err
			}
			s.rep.FileSizes[l.Name()+"/"+codec] = st.Size()
		}
		// every library reads every file once, checking the values
		for _, r := range s.Libs {
			for _, w := range s.Libs {
				res, err := r.Read(s.path(w.Name(), codec))
				if err != nil {
					return nil, fmt.Errorf("%s reads %s's %s file: %w", r.Name(), w.Name(), codec, err)
				}
				if err := s.check(fmt.Sprintf("%s reading %s's %s file", r.Name(), w.Name(), codec), res, true); err != nil {
					return nil, err
				}
			}
		}
		// every contender reads the same files: each writer's file in
		// ReadFiles (and with cross, every writer's) is read by all
		files := append([]string{}, s.Cfg.ReadFiles...)
		inFiles := map[string]bool{}
		for _, f := range files {
			inFiles[f] = true
		}
		type wl struct {
			name  string
			files []string
			fn    func(l Lib, path string) func() error
		}
		var readFiles []string
		if s.want("read") {
			readFiles = append(readFiles, files...)
		}
		if s.want("cross") {
			for _, w := range order {
				if !inFiles[w] {
					readFiles = append(readFiles, w)
				}
			}
		}
		var colFiles, countFiles []string
		if s.want("column") {
			colFiles = files
		}
		if s.want("count") {
			countFiles = files
		}
		for _, w := range []wl{
			{"read", readFiles, func(l Lib, path string) func() error {
				return func() error {
					r, err := l.Read(path)
					if err == nil {
						err = s.check(l.Name()+" read "+path, r, true)
					}
					return err
				}
			}},
			{"column", colFiles, func(l Lib, path string) func() error {
				return func() error {
					r, err := l.Column(path)
					if err == nil {
						err = s.check(l.Name()+" column "+path, r, false)
					}
					return err
				}
			}},
			{"count", countFiles, func(l Lib, path string) func() error {
				return func() error {
					n, err := l.Count(path, cutoff)
					if err == nil && n != wantCount {
						err = fmt.Errorf("%s count %s: %d, want %d", l.Name(), path, n, wantCount)
					}
					return err
				}
			}},
		} {
			for _, writer := range w.files {
				fns := map[string]func() error{}
				for _, l := range s.Libs {
					fns[l.Name()] = w.fn(l, s.path(writer, codec))
				}
				if err := s.interleave(w.name+":"+writer, codec, fns, order); err != nil {
					return nil, err
				}
			}
		}
	}
	return s.rep, nil
}

// Report returns what was measured so far.
func (s *Suite) Report() *Report { return s.rep }

// ReadOnly returns a library for reading only (no in-memory table): the
// memory children use it.
func ReadOnly(name string) (Lib, error) {
	switch name {
	case "carquet":
		return &carquetLib{}, nil
	case "arrow-go":
		return &arrowLib{}, nil
	case "parquet-go":
		return &parquetGoLib{}, nil
	case "duckdb":
		db, err := peers.OpenDuckDB(1)
		if err != nil {
			return nil, err
		}
		return &duckdbLib{db: db}, nil
	}
	return nil, fmt.Errorf("unknown library %q", name)
}

// PeakRSS returns the process's peak resident set size (VmHWM) in bytes.
func PeakRSS() (int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")), "%d kB", &kb); err != nil {
				return 0, err
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/self/status")
}

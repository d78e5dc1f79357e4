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
	Workload string  `json:"workload"` // write, read, column, count, cross:<writer>
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
	Log       func(format string, args ...any)
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
}

// Suite holds the contenders over one generated table.
type Suite struct {
	Cfg  Config
	Ev   *Events
	Libs []Lib
	rep  *Report
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
	s.rep = &Report{Rows: cfg.Rows, Runs: cfg.Runs, Started: time.Now().UTC(), FileSizes: map[string]int64{}}
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

// check compares a read's result with the generated table.
func (s *Suite) check(what string, r Result, wantSum bool) error {
	if r.Rows != int64(s.Ev.N) {
		return fmt.Errorf("%s: %d rows, want %d", what, r.Rows, s.Ev.N)
	}
	if wantSum && !close(r.AmountSum, s.Ev.AmountSum()) {
		return fmt.Errorf("%s: sum(amount) %v, want %v", what, r.AmountSum, s.Ev.AmountSum())
	}
	return nil
}

// Run runs the file workloads of §1.
func (s *Suite) Run() (*Report, error) {
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
		type wl struct {
			name string
			fn   func(l Lib) func() error
		}
		for _, w := range []wl{
			{"read", func(l Lib) func() error {
				return func() error {
					r, err := l.Read(s.path(l.Name(), codec))
					if err == nil {
						err = s.check(l.Name()+" read", r, true)
					}
					return err
				}
			}},
			{"column", func(l Lib) func() error {
				return func() error {
					r, err := l.Column(s.path(l.Name(), codec))
					if err == nil {
						err = s.check(l.Name()+" column", r, true)
					}
					return err
				}
			}},
			{"count", func(l Lib) func() error {
				return func() error {
					n, err := l.Count(s.path(l.Name(), codec), cutoff)
					if err == nil && n != wantCount {
						err = fmt.Errorf("%s count: %d, want %d", l.Name(), n, wantCount)
					}
					return err
				}
			}},
		} {
			if !s.want(w.name) {
				continue
			}
			fns := map[string]func() error{}
			for _, l := range s.Libs {
				fns[l.Name()] = w.fn(l)
			}
			if err := s.interleave(w.name, codec, fns, order); err != nil {
				return nil, err
			}
		}
		// cross-read: each library reads each other library's file
		if s.want("cross") {
			for _, writer := range s.Libs {
				fns := map[string]func() error{}
				for _, l := range s.Libs {
					p := s.path(writer.Name(), codec)
					fns[l.Name()] = func() error { _, err := l.Read(p); return err }
				}
				if err := s.interleave("cross:"+writer.Name(), codec, fns, order); err != nil {
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

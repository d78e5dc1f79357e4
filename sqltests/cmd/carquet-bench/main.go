// Command carquet-bench runs the benchmarks of BENCHMARKS.md against
// carquet and its peers (arrow-go, parquet-go, DuckDB at one thread) in
// one run, interleaved, and writes a markdown table of medians and ratios,
// a JSON file of every run and SVG charts.
//
//	carquet-bench [-rows 1000000] [-runs 5] [-out docs/bench] [-workloads write,read,column,count,cross] [-read-files carquet,duckdb] [-codecs none,snappy,zstd,gzip,lz4_raw] [-mem] [-cpuprofile f -profile read/zstd]
//
// The subcommand tpch compares carquet with DuckDB on the 22 TPC-H
// queries (see tpch.go and package sqltests/tpch):
//
//	carquet-bench tpch [-sf 1] [-threads 2] [-runs 3] [-queries 1,3,5] [-timeout 10m] [-writer carquet|duckdb|both] [-out file.md]
//
// Peak memory runs each contender's full streaming read of the zstd file
// in a child process (this program re-executed with -child-read) and
// reads VmHWM from /proc/self/status.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqltests/bench"
)

var (
	footerScale     = 1
	resultName      = "results"
	footerWidths    = "100,1000,10000,50000,100000"
	footerRowGroups = "1,2,4"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "tpch" {
		if err := tpchMain(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, "carquet-bench tpch:", err)
			os.Exit(1)
		}
		return
	}
	rows := flag.Int("rows", 1_000_000, "rows of the events table")
	runs := flag.Int("runs", 5, "counted runs per cell (after one warm-up)")
	out := flag.String("out", "", "folder for README tables, results.json and SVG charts (none: print only)")
	dir := flag.String("dir", "", "folder for the Parquet files (default: a temporary folder)")
	workloads := flag.String("workloads", "write,read,column,count,cross,sql,footer", "workloads to run: write, read, column, count, cross (§1: read, column and count run every contender on each -read-files writer's file; cross adds the full read of the other writers' files), sql (§2), footer (§3)")
	procs := flag.Int("procs", 1, "GOMAXPROCS during the file workloads (0: leave it): 1 gives the Go contenders one core, as DuckDB's SET threads=1")
	readFiles := flag.String("read-files", "carquet,duckdb", "writers whose files every contender reads in the read, column and count workloads")
	flag.StringVar(&resultName, "name", "results", "base name of the result files under -out (NAME.md, NAME.json)")
	flag.IntVar(&footerScale, "footer-scale", 1, "divide the footer widths by this")
	flag.StringVar(&footerWidths, "footer-widths", footerWidths, "footer workload: numbers of columns")
	flag.StringVar(&footerRowGroups, "footer-row-groups", footerRowGroups, "footer workload: numbers of row groups")
	codecs := flag.String("codecs", strings.Join(bench.Codecs, ","), "codecs")
	mem := flag.Bool("mem", true, "measure peak memory in child processes")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of carquet running -profile")
	profile := flag.String("profile", "read/zstd", "workload/codec that -cpuprofile profiles (write, read, column, count)")
	profileIters := flag.Int("profile-iters", 20, "times -cpuprofile runs its workload")
	flag.StringVar(&profileFile, "profile-file", "", "file -cpuprofile reads (default: one carquet writes with the codec of -profile)")
	flag.BoolVar(&bench.CarquetMmap, "mmap", false, "carquet reads files through a memory mapping (read, column, count, cpuprofile)")
	render := flag.String("render", "", "render -out/NAME.md and the charts again from this results JSON, without measuring")
	childRead := flag.String("child-read", "", "internal: read -child-file with this library and print VmHWM")
	childFile := flag.String("child-file", "", "internal: file for -child-read")
	flag.Parse()

	if *childRead != "" {
		os.Exit(child(*childRead, *childFile))
	}
	if *render != "" {
		b, err := os.ReadFile(*render)
		if err == nil {
			var rep bench.Report
			if err = json.Unmarshal(b, &rep); err == nil {
				err = writeOutputs(&rep, *out)
			}
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "carquet-bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*rows, *runs, *out, *dir, *workloads, *codecs, *readFiles, *procs, *mem, *cpuprofile, *profile, *profileIters); err != nil {
		fmt.Fprintln(os.Stderr, "carquet-bench:", err)
		os.Exit(1)
	}
}

func child(lib, path string) int {
	if lib != "baseline" {
		l, err := bench.ReadOnly(lib)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if _, err := l.Read(path); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	rss, err := bench.PeakRSS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(rss)
	return 0
}

func run(rows, runs int, out, dir, workloads, codecs, readFiles string, procs int, mem bool, cpuprofile, profile string, profileIters int) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "carquet-bench-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	cfg := bench.Config{Rows: rows, Runs: runs, Dir: dir, Codecs: strings.Split(codecs, ","), Workloads: map[string]bool{},
		ReadFiles: strings.Split(readFiles, ","), Procs: procs,
		Log: func(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }}
	for _, w := range strings.Split(workloads, ",") {
		cfg.Workloads[w] = true
	}
	s, err := bench.NewSuite(cfg)
	if err != nil {
		return err
	}
	defer s.Close()
	if cpuprofile != "" {
		return profileCarquet(s, cpuprofile, profile, profileIters)
	}
	fileWork := false
	for _, w := range []string{"write", "read", "column", "count", "cross"} {
		fileWork = fileWork || cfg.Workloads[w]
	}
	rep := s.Report()
	loadStart := loadavg()
	if fileWork {
		if rep, err = s.Run(); err != nil {
			return err
		}
	} else {
		mem = false
	}
	if cfg.Workloads["footer"] {
		widths, err := intList(footerWidths)
		if err != nil {
			return fmt.Errorf("-footer-widths: %w", err)
		}
		for i := range widths {
			widths[i] = max(1, widths[i]/footerScale)
		}
		rowGroups, err := intList(footerRowGroups)
		if err != nil {
			return fmt.Errorf("-footer-row-groups: %w", err)
		}
		if err := s.RunFooters(widths, rowGroups); err != nil {
			return err
		}
	}
	if cfg.Workloads["sql"] {
		if err := s.RunSQL([]int{1, 2}); err != nil {
			return err
		}
	}
	rep.Machine = machine()
	rep.Machine["loadavg"] = fmt.Sprintf("%s at the start, %s at the end of the measurements (1, 5, 15 min)", loadStart, loadavg())
	if mem {
		rep.PeakRSS = map[string]int64{}
		self, err := os.Executable()
		if err != nil {
			return err
		}
		for _, lib := range append(append([]string{}, bench.Libs...), "baseline") {
			file := filepath.Join(dir, "carquet-zstd.parquet") // the same file for everyone
			if lib == "baseline" {
				file = ""
			}
			var peak int64 = -1
			for i := 0; i < 3; i++ { // the smallest of three children
				b, err := exec.Command(self, "-child-read", lib, "-child-file", file).Output()
				if err != nil {
					return fmt.Errorf("memory child %s: %w", lib, err)
				}
				v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
				if err != nil {
					return err
				}
				if peak < 0 || v < peak {
					peak = v
				}
			}
			rep.PeakRSS[lib] = peak
			fmt.Fprintf(os.Stderr, "peak RSS %-10s %.1f MiB\n", lib, float64(peak)/(1<<20))
		}
	}
	fmt.Println(rep.Markdown())
	if out == "" {
		return nil
	}
	return writeOutputs(rep, out)
}

func writeOutputs(rep *bench.Report, out string) error {
	md := rep.Markdown()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	if err := rep.WriteJSON(filepath.Join(out, resultName+".json")); err != nil {
		return err
	}
	charts, err := rep.WriteCharts(out)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- generated by sqltests/cmd/carquet-bench; do not edit -->\n# Results: %d rows, %d runs per cell after a warm-up\n\n", rep.Rows, rep.Runs)
	for _, k := range []string{"cpu", "cores", "go", "duckdb", "loadavg"} {
		if v, ok := rep.Machine[k]; ok {
			fmt.Fprintf(&b, "- %s: %s\n", k, v)
		}
	}
	b.WriteString("\nRatios are the peer's median over carquet's: above 1, carquet is faster; below 1 the cell says \"carquet behind\". " +
		"Every read, one-column and count table has every contender read the same file (named in its title). " +
		"The machine is shared with other work: absolute times move between runs, the ratios less. " +
		"What each contender runs is in each table's notes and in README.md.\n")
	b.WriteString(md)
	b.WriteString("\n## Charts\n\n")
	for _, c := range charts {
		fmt.Fprintf(&b, "![%s](%s)\n\n", c, c)
	}
	return os.WriteFile(filepath.Join(out, resultName+".md"), []byte(b.String()), 0o644)
}

// loadavg is the first three fields of /proc/loadavg.
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func machine() map[string]string {
	m := map[string]string{"go": runtime.Version(), "cores": strconv.Itoa(runtime.NumCPU()), "cpu": "unknown"}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "model name") {
				_, v, _ := strings.Cut(line, ":")
				m["cpu"] = strings.TrimSpace(v)
				break
			}
		}
	}
	db, err := bench.ReadOnly("duckdb")
	if err == nil {
		m["duckdb"] = bench.DuckDBVersion(db)
		db.Close()
	}
	return m
}

// profileFile is the file -cpuprofile reads, if not one of its own.
var profileFile string

func profileCarquet(s *bench.Suite, path, which string, iters int) error {
	workload, codec, _ := strings.Cut(which, "/")
	c := s.Libs[0]
	file := profileFile
	if file == "" {
		file = filepath.Join(s.Cfg.Dir, "profile-"+codec+".parquet")
		if err := c.Write(codec, file); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	defer pprof.StopCPUProfile()
	for i := 0; i < iters; i++ {
		var err error
		switch workload {
		case "write":
			err = c.Write(codec, file)
		case "read":
			_, err = c.Read(file)
		case "column":
			_, err = c.Column(file)
		case "count":
			_, err = c.Count(file, s.Ev.Cutoff())
		default:
			return fmt.Errorf("unknown workload %q", workload)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// intList parses a comma-separated list of positive integers.
func intList(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive integer", f)
		}
		out = append(out, n)
	}
	return out, nil
}

package bench

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// WriteJSON writes the report with every sample.
func (r *Report) WriteJSON(path string) error {
	b, err := json.MarshalIndent(r, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

func (r *Report) find(workload, codec, lib string) (Summary, bool) {
	for _, s := range r.Summaries {
		if s.Workload == workload && s.Codec == codec && s.Lib == lib {
			return s, true
		}
	}
	return Summary{}, false
}

// Workloads lists the workloads present, in a fixed order.
func (r *Report) Workloads() []string {
	seen := map[string]bool{}
	for _, s := range r.Summaries {
		seen[s.Workload] = true
	}
	var out []string
	var order []string
	for _, k := range []string{"write", "read", "column", "count", "cross"} {
		order = append(order, k)
		for _, l := range Libs {
			order = append(order, k+":"+l)
		}
	}
	for _, w := range order {
		if seen[w] {
			out = append(out, w)
			delete(seen, w)
		}
	}
	for _, s := range r.Summaries { // the rest (SQL, footers) in order of appearance
		if seen[s.Workload] {
			out = append(out, s.Workload)
			delete(seen, s.Workload)
		}
	}
	return out
}

// labels returns the codec (or thread, or width) labels of a workload in
// order of appearance.
func (r *Report) labels(workload string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range r.Summaries {
		if s.Workload == workload && !seen[s.Codec] {
			seen[s.Codec] = true
			out = append(out, s.Codec)
		}
	}
	return out
}

func (r *Report) codecs() []string {
	seen := map[string]bool{}
	for _, s := range r.Summaries {
		seen[s.Codec] = true
	}
	var out []string
	for _, c := range Codecs {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

// libsOf returns the libraries measured on a workload, carquet first.
func (r *Report) libsOf(workload string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range r.Summaries {
		if s.Workload == workload && !seen[s.Lib] {
			seen[s.Lib] = true
			out = append(out, s.Lib)
		}
	}
	for i, l := range out {
		if l == "carquet" {
			copy(out[1:i+1], out[:i])
			out[0] = "carquet"
		}
	}
	return out
}

// Libs in report order.
var Libs = []string{"carquet", "arrow-go", "parquet-go", "duckdb"}

// APIs names each contender's API per workload kind ("kind/lib"): the
// short name goes in the table header, the rest (after " — ") under it.
func APIs() map[string]string {
	arrowRead := ArrowAPI()
	mmap := "no mmap"
	if CarquetMmap {
		mmap = "through mmap"
	}
	return map[string]string{
		"write/carquet":     "writer.New + WriteBatch — on an os.File, no fsync",
		"write/arrow-go":    "pqarrow.WriteTable — from an arrow.Table",
		"write/parquet-go":  "GenericWriter[pgEvent] — batches of 8192 row structs",
		"write/duckdb":      "COPY TO — from a native DuckDB table",
		"read/carquet":      "file.Reader — category as dictionary codes (ReaderOptions.Codes), default batch size, " + mmap + "; every Go contender sums with the same helpers (sum.go)",
		"read/arrow-go":     arrowRead + " — every column of every row group, batches of 8192",
		"read/parquet-go":   "Pages + Page.Data — ColumnChunk.Pages, ReadPage, typed slices of each decoded page (dictionary pages: indexes looked up)",
		"read/duckdb":       "SQL aggregate — " + DuckDBReadQuery,
		"column/carquet":    "file.Reader — Columns: [amount], " + mmap,
		"column/arrow-go":   arrowRead + " — column amount only",
		"column/parquet-go": "Pages + Page.Data — amount's column chunks only",
		"column/duckdb":     "SQL aggregate — SELECT count(amount), sum(amount) FROM read_parquet(?)",
		"count/carquet":     "scan.Table.Scan — Compare{ts >= cutoff}, no column returned (COUNT(*)): row-group statistics, page index, " + mmap,
		"count/arrow-go":    "stats + pqarrow ReadRowGroups — row groups ruled out by ts statistics, then all of ts (pqarrow has no page-level pushdown)",
		"count/parquet-go":  "column index + Pages — seek to the first ts page whose max reaches the cutoff, decode the rest",
		"count/duckdb":      "SQL — SELECT count(*) FROM read_parquet(?) WHERE ts >= ?",
	}
}

// kindOf is the workload kind (write, read, column, count) of a workload
// name such as read:duckdb.
func kindOf(w string) string {
	k, _, _ := strings.Cut(w, ":")
	if k == "cross" {
		return "read"
	}
	return k
}

func (r *Report) api(w, lib string) (short, long string) {
	a, ok := r.APIs[kindOf(w)+"/"+lib]
	if !ok {
		return "", ""
	}
	short, long, _ = strings.Cut(a, " — ")
	return short, long
}

// summaryTable writes, per file workload, each peer's median over
// carquet's as the geometric mean over the codecs (above 1: carquet is
// faster), and how many codecs carquet is behind on.
func (r *Report) summaryTable(b *strings.Builder) {
	var ws []string
	for _, w := range r.Workloads() {
		if k := kindOf(w); k == "write" || k == "read" || k == "column" || k == "count" {
			ws = append(ws, w)
		}
	}
	if len(ws) == 0 {
		return
	}
	b.WriteString("\n### summary: peer / carquet, geometric mean over the codecs (carquet behind on how many codecs)\n\n| workload |")
	peers := []string{}
	for _, l := range Libs[1:] {
		peers = append(peers, l)
		fmt.Fprintf(b, " %s / carquet |", l)
	}
	b.WriteString("\n|---|")
	for range peers {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for _, w := range ws {
		fmt.Fprintf(b, "| %s |", titleOf(w))
		for _, l := range peers {
			if _, differs := r.NotSame[kindOf(w)+"/"+l]; differs {
				b.WriteString(" not the same work |")
				continue
			}
			sum, n, behind := 0.0, 0, 0
			for _, c := range r.labels(w) {
				base, ok1 := r.find(w, c, "carquet")
				s, ok2 := r.find(w, c, l)
				if !ok1 || !ok2 || base.Median == 0 || s.Median == 0 {
					continue
				}
				ratio := s.Median / base.Median
				sum += math.Log(ratio)
				n++
				if ratio < 1 {
					behind++
				}
			}
			if n == 0 {
				b.WriteString(" – |")
				continue
			}
			g := math.Exp(sum / float64(n))
			mark := ""
			if g < 1 {
				mark = ", carquet behind"
			}
			gs := fmt.Sprintf("%.2f", g)
			if g < 1 {
				gs = fmtBelow1(g)
			}
			fmt.Fprintf(b, " %s (%d/%d%s) |", gs, behind, n, mark)
		}
		b.WriteString("\n")
	}
}

// fmtBelow1 formats a ratio below 1 so that it never reads 1.00.
func fmtBelow1(x float64) string {
	for prec := 2; prec < 5; prec++ {
		if s := fmt.Sprintf("%.*f", prec, x); !strings.HasPrefix(s, "1.") {
			return s
		}
	}
	return "0.9999"
}

func titleOf(w string) string {
	k, writer, ok := strings.Cut(w, ":")
	if !ok {
		return w
	}
	switch k {
	case "read", "cross":
		return "full read of " + writer + "'s file"
	case "column":
		return "one column (amount) of " + writer + "'s file"
	case "count":
		return "filtered count (ts >= cutoff, ~5%) of " + writer + "'s file"
	}
	return w
}

// Markdown renders the medians (ms, with min–max), the ratios of each
// peer's median to carquet's (above 1: carquet is faster), the file sizes
// and the peak memory.
func (r *Report) Markdown() string {
	var b strings.Builder
	r.summaryTable(&b)
	for _, w := range r.Workloads() {
		fmt.Fprintf(&b, "\n### %s\n\n", titleOf(w))
		libs := r.libsOf(w)
		threads := ""
		if r.Threads > 0 {
			threads = fmt.Sprintf("; %d thread each (DuckDB SET threads=%d", r.Threads, r.Threads)
			if r.GoMaxProcs > 0 {
				threads += fmt.Sprintf(", the Go contenders one goroutine at GOMAXPROCS=%d", r.GoMaxProcs)
			}
			threads += ")"
		}
		if _, writer, ok := strings.Cut(w, ":"); ok && r.Threads > 0 {
			fmt.Fprintf(&b, "Every contender reads the same file, written by %s, per codec%s.\n\n", writer, threads)
		} else if w == "write" && r.Threads > 0 {
			fmt.Fprintf(&b, "Each contender writes its own file from its in-memory form%s.\n\n", threads)
		}
		var notes []string
		b.WriteString("| codec |")
		for _, l := range libs {
			if short, long := r.api(w, l); short != "" {
				fmt.Fprintf(&b, " %s: %s, ms (min–max) |", l, short)
				notes = append(notes, fmt.Sprintf("- %s: %s — %s", l, short, long))
			} else {
				fmt.Fprintf(&b, " %s ms (min–max) |", l)
			}
		}
		for _, l := range libs[1:] {
			fmt.Fprintf(&b, " %s / carquet |", l)
		}
		b.WriteString("\n|---|")
		for range libs {
			b.WriteString("---:|")
		}
		for range libs[1:] {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for _, c := range r.labels(w) {
			fmt.Fprintf(&b, "| %s |", c)
			base, okBase := r.find(w, c, "carquet")
			for _, l := range libs {
				s, ok := r.find(w, c, l)
				if !ok {
					b.WriteString(" – |")
					continue
				}
				fmt.Fprintf(&b, " %s (%s–%s) |", fmtMs(s.Median), fmtMs(s.Min), fmtMs(s.Max))
			}
			for _, l := range libs[1:] {
				s, ok := r.find(w, c, l)
				if _, differs := r.NotSame[kindOf(w)+"/"+l]; differs {
					b.WriteString(" not the same work |")
					continue
				}
				if !ok || !okBase || base.Median == 0 {
					b.WriteString(" – |")
					continue
				}
				ratio := s.Median / base.Median
				if ratio < 1 {
					fmt.Fprintf(&b, " %s (carquet behind) |", fmtBelow1(ratio))
				} else {
					fmt.Fprintf(&b, " %.2f |", ratio)
				}
			}
			b.WriteString("\n")
		}
		if len(notes) > 0 {
			b.WriteString("\n" + strings.Join(notes, "\n") + "\n")
		}
		for _, l := range libs {
			if why, differs := r.NotSame[kindOf(w)+"/"+l]; differs {
				fmt.Fprintf(&b, "- no ratio for %s: %s\n", l, why)
			}
		}
	}
	if len(r.FileSizes) > 0 {
		b.WriteString("\n### file size (bytes)\n\n| codec |")
		for _, l := range Libs {
			fmt.Fprintf(&b, " %s |", l)
		}
		b.WriteString(" carquet / arrow-go |\n|---|")
		for range Libs {
			b.WriteString("---:|")
		}
		b.WriteString("---:|\n")
		for _, c := range r.codecs() {
			fmt.Fprintf(&b, "| %s |", c)
			for _, l := range Libs {
				fmt.Fprintf(&b, " %d |", r.FileSizes[l+"/"+c])
			}
			if a := r.FileSizes["arrow-go/"+c]; a > 0 {
				fmt.Fprintf(&b, " %.3f |", float64(r.FileSizes["carquet/"+c])/float64(a))
			}
			b.WriteString("\n")
		}
	}
	if len(r.FooterAllocs) > 0 {
		b.WriteString("\n### bytes allocated per footer decode\n\n| decoder / columns / row groups | bytes |\n|---|---:|\n")
		keys := make([]string, 0, len(r.FooterAllocs))
		for k := range r.FooterAllocs {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "| %s | %d |\n", k, r.FooterAllocs[k])
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("\n### notes\n\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "- %s\n", strings.ReplaceAll(n, "\n", " "))
		}
	}
	if len(r.PeakRSS) > 0 {
		b.WriteString("\n### peak memory of a full read (carquet's zstd file, read by every contender; child process, VmHWM)\n\n| library | peak RSS MiB |\n|---|---:|\n")
		keys := make([]string, 0, len(r.PeakRSS))
		for k := range r.PeakRSS {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(&b, "| %s | %.1f |\n", k, float64(r.PeakRSS[k])/(1<<20))
		}
	}
	return b.String()
}

var colors = map[string]string{"carquet": "#1f77b4", "arrow-go": "#ff7f0e", "parquet-go": "#2ca02c", "duckdb": "#d62728", "baseline": "#7f7f7f"}

func color(s string) string {
	if c, ok := colors[s]; ok {
		return c
	}
	extra := []string{"#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22"}
	h := 0
	for _, c := range s {
		h += int(c)
	}
	return extra[h%len(extra)]
}

// BarChart draws grouped bars: one group per label, one bar per series,
// with optional min–max whiskers. Values must be positive.
func BarChart(title, unit string, labels, series []string, val func(label, s string) (v, lo, hi float64, ok bool)) string {
	const w, h, left, bottom, top = 760, 360, 70, 60, 40
	maxV := 0.0
	for _, l := range labels {
		for _, s := range series {
			if v, _, hi, ok := val(l, s); ok {
				maxV = math.Max(maxV, math.Max(v, hi))
			}
		}
	}
	if maxV == 0 {
		maxV = 1
	}
	scale := niceCeil(maxV)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", w, h)
	fmt.Fprintf(&b, `<text x="%d" y="22" font-size="15" font-weight="bold">%s</text>`+"\n", left, html.EscapeString(title))
	plotW, plotH := float64(w-left-20), float64(h-top-bottom)
	for i := 0; i <= 4; i++ {
		y := float64(top) + plotH - plotH*float64(i)/4
		fmt.Fprintf(&b, `<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>`, left, w-20, y, y)
		fmt.Fprintf(&b, `<text x="%d" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y+4, fmtNum(scale*float64(i)/4))
	}
	fmt.Fprintf(&b, `<text x="14" y="%.1f" transform="rotate(-90 14 %.1f)" text-anchor="middle">%s</text>`+"\n", float64(top)+plotH/2, float64(top)+plotH/2, html.EscapeString(unit))
	groupW := plotW / float64(max(len(labels), 1))
	barW := groupW * 0.8 / float64(max(len(series), 1))
	for gi, l := range labels {
		x0 := float64(left) + groupW*float64(gi) + groupW*0.1
		for si, s := range series {
			v, lo, hi, ok := val(l, s)
			if !ok {
				continue
			}
			x := x0 + barW*float64(si)
			bh := plotH * v / scale
			fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s: %s %s</title></rect>`+"\n",
				x, float64(top)+plotH-bh, barW*0.92, bh, color(s), html.EscapeString(s), html.EscapeString(l), fmtNum(v), html.EscapeString(unit))
			if hi > lo {
				cx := x + barW*0.46
				y1, y2 := float64(top)+plotH-plotH*lo/scale, float64(top)+plotH-plotH*hi/scale
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/>`+"\n", cx, cx, y1, y2)
			}
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" text-anchor="middle">%s</text>`+"\n", x0+groupW*0.4, h-bottom+18, html.EscapeString(l))
	}
	lx := float64(left)
	for _, s := range series {
		fmt.Fprintf(&b, `<rect x="%.1f" y="%d" width="12" height="12" fill="%s"/><text x="%.1f" y="%d">%s</text>`+"\n", lx, h-22, color(s), lx+16, h-12, html.EscapeString(s))
		lx += float64(30 + 7*len(s))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// fmtMs writes seconds as milliseconds with three significant digits
// at least (footer decodes take microseconds).
func fmtMs(sec float64) string {
	ms := sec * 1e3
	switch {
	case ms >= 10:
		return fmt.Sprintf("%.1f", ms)
	case ms >= 0.1:
		return fmt.Sprintf("%.2f", ms)
	}
	return fmt.Sprintf("%.4f", ms)
}

func niceCeil(v float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func fmtNum(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// WriteCharts writes one SVG per workload (bars per codec and library,
// milliseconds, min–max whiskers), one of file sizes and one of memory.
func (r *Report) WriteCharts(dir string) ([]string, error) {
	var files []string
	for _, w := range r.Workloads() {
		name := strings.ReplaceAll(w, ":", "-") + ".svg"
		name = strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(name, " ", "-"), "*", "star"), "?", "")
		name = strings.ReplaceAll(strings.ReplaceAll(name, ">=", "ge"), "=", "eq")
		name = strings.NewReplacer("(", "", ")", "", "--", "-").Replace(name)
		svg := BarChart(fmt.Sprintf("%s, %d rows: median ms (lower is better)", titleOf(w), r.Rows), "ms", r.labels(w), r.libsOf(w), func(c, l string) (float64, float64, float64, bool) {
			s, ok := r.find(w, c, l)
			return s.Median * 1e3, s.Min * 1e3, s.Max * 1e3, ok
		})
		if err := os.WriteFile(filepath.Join(dir, name), []byte(svg), 0o644); err != nil {
			return nil, err
		}
		files = append(files, name)
	}
	if len(r.FileSizes) > 0 {
		svg := BarChart(fmt.Sprintf("file size, %d rows (MiB)", r.Rows), "MiB", r.codecs(), Libs, func(c, l string) (float64, float64, float64, bool) {
			v, ok := r.FileSizes[l+"/"+c]
			return float64(v) / (1 << 20), 0, 0, ok
		})
		if err := os.WriteFile(filepath.Join(dir, "file-size.svg"), []byte(svg), 0o644); err != nil {
			return nil, err
		}
		files = append(files, "file-size.svg")
	}
	if len(r.PeakRSS) > 0 {
		var keys []string
		for _, l := range append(append([]string{}, Libs...), "baseline") {
			if _, ok := r.PeakRSS[l]; ok {
				keys = append(keys, l)
			}
		}
		svg := BarChart(fmt.Sprintf("peak RSS of a full streaming read, zstd, %d rows (MiB)", r.Rows), "MiB", []string{"zstd"}, keys, func(_, l string) (float64, float64, float64, bool) {
			v, ok := r.PeakRSS[l]
			return float64(v) / (1 << 20), 0, 0, ok
		})
		if err := os.WriteFile(filepath.Join(dir, "memory.svg"), []byte(svg), 0o644); err != nil {
			return nil, err
		}
		files = append(files, "memory.svg")
	}
	return files, nil
}

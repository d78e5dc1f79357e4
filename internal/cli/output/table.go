package output

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/internal/cli/textwidth"
)

// tableWriter buffers the rows (up to MaxRows) to size the columns, then
// draws a box, ASCII or Markdown table.
type tableWriter struct {
	w       *bufio.Writer
	opts    Options
	cols    []Column
	right   []bool
	numeric []bool
	rows    [][]string
	total   int
}

func (t *tableWriter) Begin(cols []Column) error {
	t.cols = cols
	t.right = make([]bool, len(cols))
	t.numeric = make([]bool, len(cols))
	for i, c := range cols {
		t.numeric[i] = c.Type == "" || Numeric(c.Type)
		t.right[i] = Numeric(c.Type)
	}
	return nil
}

var cellReplacer = strings.NewReplacer("\n", `\n`, "\r", `\r`, "\t", " ")

// cell is a value's text made safe for one line of a table (and, in
// Markdown, for a cell).
func (t *tableWriter) cell(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = cellReplacer.Replace(s)
	}
	if t.opts.Mode == Markdown {
		s = strings.ReplaceAll(s, "|", `\|`)
	}
	return s
}

func (t *tableWriter) Row(vals []any) error {
	t.total++
	if t.opts.MaxRows > 0 && len(t.rows) >= t.opts.MaxRows {
		// Keep judging alignment on what is shown only.
		return nil
	}
	rec := make([]string, len(t.cols))
	for i := range t.cols {
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		if v == nil {
			rec[i] = t.opts.Null
			continue
		}
		if t.numeric[i] && t.cols[i].Type == "" {
			switch v.(type) {
			case int64, int32, int16, int8, int, uint64, uint32, uint16, uint8, float64, float32:
			default:
				t.numeric[i] = false
			}
		}
		rec[i] = t.cell(Text(v, t.cols[i].Type, false))
	}
	t.rows = append(t.rows, rec)
	return nil
}

// fit narrows columns until the table fits in width cells (overhead is
// the cells the borders take): it finds the largest cap on column widths
// that fits, caps the wider columns at it, and hands the cells left over
// to the capped columns from the left. Columns never go below a few
// cells, so very narrow terminals get a table wider than themselves.
func fit(widths []int, overhead, width int) {
	if width <= 0 {
		return
	}
	total := overhead
	for _, w := range widths {
		total += w
	}
	if total <= width {
		return
	}
	const minWidth = 5
	used := func(c int) int {
		n := overhead
		for _, w := range widths {
			n += min(w, c)
		}
		return n
	}
	lo, hi := minWidth, 0
	for _, w := range widths {
		hi = max(hi, w)
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if used(mid) <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	spare := width - used(lo)
	for i, w := range widths {
		if w > lo {
			widths[i] = lo
			if spare > 0 {
				widths[i]++
				spare--
			}
		}
	}
}

func (t *tableWriter) End() error {
	for i := range t.cols {
		if t.cols[i].Type == "" && t.numeric[i] && len(t.rows) > 0 {
			t.right[i] = true
		}
	}
	n := len(t.cols)
	hdr := make([]string, n)
	widths := make([]int, n)
	for i, c := range t.cols {
		hdr[i] = t.cell(c.Name)
		widths[i] = max(textwidth.String(hdr[i]), 1)
	}
	for _, r := range t.rows {
		for i, s := range r {
			widths[i] = max(widths[i], textwidth.String(s))
		}
	}
	fit(widths, 3*n+1, t.opts.Width)

	type border struct{ left, mid, right, fill string }
	var top, sep, bottom border
	var vert string
	switch t.opts.Mode {
	case Box:
		top = border{"┌─", "─┬─", "─┐", "─"}
		sep = border{"├─", "─┼─", "─┤", "─"}
		bottom = border{"└─", "─┴─", "─┘", "─"}
		vert = "│"
	case Markdown:
		sep = border{"|-", "-|-", "-|", "-"}
		vert = "|"
	default:
		top = border{"+-", "-+-", "-+", "-"}
		sep, bottom = top, top
		vert = "|"
	}
	line := func(b border) {
		if b.fill == "" {
			return
		}
		if t.opts.Mode == Markdown {
			// |-----|--:| : a colon marks right-aligned columns.
			t.w.WriteString("|")
			for i, w := range widths {
				if t.right[i] {
					t.w.WriteString(strings.Repeat("-", w+1) + ":|")
				} else {
					t.w.WriteString(strings.Repeat("-", w+2) + "|")
				}
			}
			t.w.WriteByte('\n')
			return
		}
		t.w.WriteString(b.left)
		for i, w := range widths {
			if i > 0 {
				t.w.WriteString(b.mid)
			}
			t.w.WriteString(strings.Repeat(b.fill, w))
		}
		t.w.WriteString(b.right)
		t.w.WriteByte('\n')
	}
	row := func(rec []string, header bool) {
		t.w.WriteString(vert)
		for i, w := range widths {
			s := textwidth.Truncate(rec[i], w)
			t.w.WriteByte(' ')
			t.w.WriteString(textwidth.Pad(s, w, t.right[i] && !header))
			t.w.WriteByte(' ')
			t.w.WriteString(vert)
		}
		t.w.WriteByte('\n')
	}
	line(top)
	row(hdr, true)
	line(sep)
	for _, r := range t.rows {
		row(r, false)
	}
	line(bottom)
	if more := t.total - len(t.rows); more > 0 {
		fmt.Fprintf(t.w, "(%d rows, %d shown)\n", t.total, len(t.rows))
	}
	return t.w.Flush()
}

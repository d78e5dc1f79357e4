package output

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/carquet-go/carquet/internal/cli/textwidth"
)

// Mode is an output format.
type Mode int

// The output modes.
const (
	Box Mode = iota
	Table
	Markdown
	Line
	CSV
	TSV
	JSON
	JSONL
)

var modeNames = [...]string{"box", "table", "markdown", "line", "csv", "tsv", "json", "jsonl"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ModeNames lists the names ParseMode accepts.
func ModeNames() []string { return append([]string(nil), modeNames[:]...) }

// ParseMode parses a mode name (also "ascii" for table, "md" for
// markdown, "ndjson" for jsonl).
func ParseMode(s string) (Mode, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "ascii":
		return Table, nil
	case "md":
		return Markdown, nil
	case "ndjson":
		return JSONL, nil
	}
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown output mode %q (want one of %s)", s, strings.Join(modeNames[:], ", "))
}

// Pretty reports whether the mode is a table made for people.
func (m Mode) Pretty() bool { return m == Box || m == Table || m == Markdown || m == Line }

// Options configure a Writer.
type Options struct {
	Mode Mode
	// Width is the width in cells the tables must fit; 0 does not fit.
	Width int
	// MaxRows is the number of rows tables show at most (0: all); the
	// rest are counted in a last line.
	MaxRows int
	// Null is the text of NULL in the pretty modes ("NULL" by default);
	// the machine modes write an empty field (CSV, TSV) or null (JSON).
	Null string
	// NoHeader leaves out the header line of CSV and TSV.
	NoHeader bool
}

// Writer writes one result set: Begin, then Row for each row, then End.
type Writer interface {
	Begin(cols []Column) error
	Row(vals []any) error
	End() error
}

// New returns a Writer of the result set in opts.Mode to w.
func New(w io.Writer, opts Options) Writer {
	if opts.Null == "" {
		opts.Null = "NULL"
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	switch opts.Mode {
	case CSV, TSV:
		return &csvWriter{w: bw, opts: opts}
	case JSON, JSONL:
		return &jsonWriter{w: bw, lines: opts.Mode == JSONL}
	case Line:
		return &lineWriter{w: bw, opts: opts}
	}
	return &tableWriter{w: bw, opts: opts}
}

// csvWriter writes CSV (RFC 4180) or TSV (tabs; tabs, newlines and
// backslashes in values escaped as \t, \n, \\).
type csvWriter struct {
	w    *bufio.Writer
	cw   *csv.Writer
	opts Options
	cols []Column
	rec  []string
}

func (c *csvWriter) Begin(cols []Column) error {
	c.cols = cols
	c.rec = make([]string, len(cols))
	if c.opts.Mode == CSV {
		c.cw = csv.NewWriter(c.w)
	}
	if c.opts.NoHeader {
		return nil
	}
	for i, col := range cols {
		c.rec[i] = col.Name
	}
	return c.write()
}

func (c *csvWriter) write() error {
	if c.cw != nil {
		return c.cw.Write(c.rec)
	}
	for i, s := range c.rec {
		if i > 0 {
			c.w.WriteByte('\t')
		}
		c.w.WriteString(tsvEscape(s))
	}
	return c.w.WriteByte('\n')
}

var tsvReplacer = strings.NewReplacer("\\", `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`)

func tsvEscape(s string) string {
	if strings.ContainsAny(s, "\\\t\n\r") {
		return tsvReplacer.Replace(s)
	}
	return s
}

func (c *csvWriter) Row(vals []any) error {
	for i := range c.rec {
		c.rec[i] = ""
		if i < len(vals) {
			c.rec[i] = Text(vals[i], c.cols[i].Type, true)
		}
	}
	return c.write()
}

func (c *csvWriter) End() error {
	if c.cw != nil {
		c.cw.Flush()
		if err := c.cw.Error(); err != nil {
			return err
		}
	}
	return c.w.Flush()
}

// jsonWriter writes a JSON array of objects, or JSON Lines. Keys keep the
// column order.
type jsonWriter struct {
	w     *bufio.Writer
	lines bool
	cols  []Column
	keys  [][]byte
	n     int
	buf   bytes.Buffer
	enc   *json.Encoder
}

func (j *jsonWriter) Begin(cols []Column) error {
	j.cols = cols
	j.keys = make([][]byte, len(cols))
	for i, c := range cols {
		k, _ := json.Marshal(c.Name)
		j.keys[i] = k
	}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	if !j.lines {
		j.w.WriteString("[")
	}
	return nil
}

func (j *jsonWriter) Row(vals []any) error {
	if !j.lines {
		if j.n > 0 {
			j.w.WriteString(",")
		}
		j.w.WriteString("\n")
	}
	j.n++
	j.w.WriteByte('{')
	for i := range j.cols {
		if i > 0 {
			j.w.WriteByte(',')
		}
		j.w.Write(j.keys[i])
		j.w.WriteByte(':')
		var v any
		if i < len(vals) {
			v = vals[i]
		}
		j.buf.Reset()
		if err := j.enc.Encode(jsonValue(v, j.cols[i].Type)); err != nil {
			return fmt.Errorf("column %s: %w", j.cols[i].Name, err)
		}
		j.w.Write(bytes.TrimRight(j.buf.Bytes(), "\n"))
	}
	j.w.WriteByte('}')
	if j.lines {
		j.w.WriteByte('\n')
	}
	return nil
}

func (j *jsonWriter) End() error {
	if !j.lines {
		if j.n > 0 {
			j.w.WriteString("\n")
		}
		j.w.WriteString("]\n")
	}
	return j.w.Flush()
}

// lineWriter writes one "name = value" line per column, rows separated by
// blank lines.
type lineWriter struct {
	w     *bufio.Writer
	opts  Options
	cols  []Column
	width int
	n     int
}

func (l *lineWriter) Begin(cols []Column) error {
	l.cols = cols
	for _, c := range cols {
		l.width = max(l.width, textwidth.String(c.Name))
	}
	return nil
}

func (l *lineWriter) Row(vals []any) error {
	if l.n > 0 {
		l.w.WriteByte('\n')
	}
	l.n++
	for i, c := range l.cols {
		s := l.opts.Null
		if i < len(vals) && vals[i] != nil {
			s = Text(vals[i], c.Type, false)
		}
		fmt.Fprintf(l.w, "%s = %s\n", textwidth.Pad(c.Name, l.width, true), s)
	}
	return nil
}

func (l *lineWriter) End() error { return l.w.Flush() }

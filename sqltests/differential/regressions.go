package differential

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Case is one recorded regression: a statement over the tables of a seed.
type Case struct {
	Name   string
	Seed   int64
	Tables int // TablesVersion the seed was recorded with
	// Known names the carquet bug the case shows while it is not fixed;
	// empty when carquet must agree with DuckDB.
	Known string
	// Differs names a difference that is not a carquet bug (DuckDB's
	// optimizer skips work whose error carquet reports, say): the case
	// is skipped with that text.
	Differs string
	// Occurs lists the random statements (seed/number) of the default
	// run that show the same bug, so that the run skips them without
	// minimizing them first.
	Occurs []Occurrence
	SQL    string
	Line   int
}

// Occurrence is the number of a random statement of a seed.
type Occurrence struct {
	Seed  int64
	Query int
}

// Excuse is why a failing case does not fail the test: the known bug or
// the accepted difference; empty when it must pass.
func (c *Case) Excuse() string {
	switch {
	case c.Known != "":
		return "known carquet bug: " + c.Known
	case c.Differs != "":
		return "accepted difference: " + c.Differs
	}
	return ""
}

func (o Occurrence) String() string { return fmt.Sprintf("%d/%d", o.Seed, o.Query) }

// ParseCases reads the regression file format:
//
//	# comment
//	case <name>
//	seed <n>
//	tables <TablesVersion>
//	known <the bug, while it is not fixed>
//	differs <why the engines may differ here without a carquet bug>
//	occurs <seed>/<query> ...
//	sql <statement>
//	  <continuation lines, indented>
//
// Records are separated by blank lines.
func ParseCases(r io.Reader) ([]Case, error) {
	var out []Case
	var cur *Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	line := 0
	flush := func() error {
		if cur == nil {
			return nil
		}
		if cur.SQL == "" || cur.Tables == 0 {
			return fmt.Errorf("line %d: case %q needs seed, tables and sql", cur.Line, cur.Name)
		}
		out = append(out, *cur)
		cur = nil
		return nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		trimmed := strings.TrimSpace(text)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			continue
		case trimmed == "":
			if err := flush(); err != nil {
				return nil, err
			}
			continue
		case cur != nil && cur.SQL != "" && (strings.HasPrefix(text, " ") || strings.HasPrefix(text, "\t")):
			cur.SQL += "\n" + trimmed
			continue
		}
		key, rest, _ := strings.Cut(trimmed, " ")
		rest = strings.TrimSpace(rest)
		if key == "case" {
			if err := flush(); err != nil {
				return nil, err
			}
			cur = &Case{Name: rest, Line: line}
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: %q before any case", line, key)
		}
		var err error
		switch key {
		case "seed":
			cur.Seed, err = strconv.ParseInt(rest, 10, 64)
		case "tables":
			cur.Tables, err = strconv.Atoi(rest)
		case "known":
			cur.Known = rest
		case "differs":
			cur.Differs = rest
		case "occurs":
			for _, f := range strings.Fields(rest) {
				s, q, ok := strings.Cut(f, "/")
				var o Occurrence
				o.Seed, err = strconv.ParseInt(s, 10, 64)
				if err == nil {
					o.Query, err = strconv.Atoi(q)
				}
				if !ok || err != nil {
					return nil, fmt.Errorf("line %d: bad occurrence %q", line, f)
				}
				cur.Occurs = append(cur.Occurs, o)
			}
		case "sql":
			cur.SQL = rest
		default:
			return nil, fmt.Errorf("line %d: unknown key %q", line, key)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return out, nil
}

// FormatCase renders a case in the file format.
func FormatCase(c Case) string {
	var b strings.Builder
	fmt.Fprintf(&b, "case %s\nseed %d\ntables %d\n", c.Name, c.Seed, c.Tables)
	if c.Known != "" {
		fmt.Fprintf(&b, "known %s\n", c.Known)
	}
	if c.Differs != "" {
		fmt.Fprintf(&b, "differs %s\n", c.Differs)
	}
	if len(c.Occurs) > 0 {
		b.WriteString("occurs")
		for _, o := range c.Occurs {
			b.WriteString(" " + o.String())
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "sql %s\n", strings.ReplaceAll(c.SQL, "\n", "\n  "))
	return b.String()
}

// HasTopLevelOrderBy reports whether a statement ends with an ORDER BY
// of its own (outside parentheses and quotes): its rows are then compared
// in order, which is right for the statements the generator writes,
// whose ORDER BY is always total.
func HasTopLevelOrderBy(sql string) bool {
	depth := 0
	inStr := false
	up := strings.ToUpper(sql)
	for i := 0; i < len(up); i++ {
		c := up[i]
		switch {
		case inStr:
			if c == '\'' {
				inStr = false
			}
		case c == '\'':
			inStr = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && strings.HasPrefix(up[i:], "ORDER BY"):
			return true
		}
	}
	return false
}

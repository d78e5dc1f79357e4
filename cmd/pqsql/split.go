package main

import "strings"

// splitter cuts SQL text into statements at semicolons outside quotes
// ('...', "...", `...`) and comments (-- to the end of the line, /* */),
// fed one line at a time so that the shell knows when a statement is
// complete. Comments are dropped from the statements (the SQL parser does
// not take them everywhere).
type splitter struct {
	buf          strings.Builder
	quote        byte // the open quote, 0 outside quotes
	blockComment bool
	// startLine is the line number where the pending statement began.
	startLine, line int
}

// feed adds one line (without its newline) and returns the statements it
// completes, without their semicolons.
func (s *splitter) feed(line string) []string {
	s.line++
	if !s.pending() {
		s.startLine = s.line
	}
	var out []string
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case s.blockComment:
			if c == '*' && i+1 < len(line) && line[i+1] == '/' {
				s.blockComment = false
				s.buf.WriteByte(' ')
				i++
			}
		case s.quote != 0:
			s.buf.WriteByte(c)
			if c == s.quote {
				// A doubled quote stays inside the string.
				if i+1 < len(line) && line[i+1] == s.quote {
					s.buf.WriteByte(c)
					i++
					continue
				}
				s.quote = 0
			} else if c == '\\' && s.quote != '`' && i+1 < len(line) {
				s.buf.WriteByte(line[i+1])
				i++
			}
		case c == '\'' || c == '"' || c == '`':
			s.quote = c
			s.buf.WriteByte(c)
		case c == '-' && i+1 < len(line) && line[i+1] == '-':
			i = len(line)
		case c == '/' && i+1 < len(line) && line[i+1] == '*':
			s.blockComment = true
			i++
		case c == ';':
			if st := strings.TrimSpace(s.buf.String()); st != "" {
				out = append(out, st)
			}
			s.buf.Reset()
			s.startLine = s.line
		default:
			s.buf.WriteByte(c)
		}
	}
	if s.buf.Len() > 0 || s.quote != 0 {
		s.buf.WriteByte('\n')
	}
	return out
}

// pending reports whether an unfinished statement is buffered.
func (s *splitter) pending() bool {
	return s.quote != 0 || s.blockComment || strings.TrimSpace(s.buf.String()) != ""
}

// rest returns the unfinished statement (for input that ends without a
// semicolon) and resets the splitter.
func (s *splitter) rest() string {
	st := strings.TrimSpace(s.buf.String())
	s.buf.Reset()
	s.quote, s.blockComment = 0, false
	return st
}

// splitStatements splits a whole script.
func splitStatements(text string) []string {
	var s splitter
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, s.feed(l)...)
	}
	if r := s.rest(); r != "" {
		out = append(out, r)
	}
	return out
}

package textfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// csvSplitter splits a CSV stream into records of fields, appending each
// field's text to a VARCHAR column: COPY ... FROM's reader (csvscan.go),
// read_csv's (csvread.go) and its sniffer (csvsniff.go) share it. A quote
// or escape of 0 is none.
type csvSplitter struct {
	r     *bufio.Reader
	opts  Dialect
	path  string // for errors
	line  int    // of the record being read, from 1
	done  bool
	spill *vec.Col // the fields past the columns given
}

func newCSVSplitter(r io.Reader, opts Dialect, path string) *csvSplitter {
	return &csvSplitter{r: bufio.NewReaderSize(r, 1<<16), opts: opts, path: path}
}

// fail is an error at the record being read.
func (s *csvSplitter) fail(format string, args ...any) error {
	return errorf("%s: line %d: %s", s.path, s.line, fmt.Sprintf(format, args...))
}

// record reads one record: field k is appended to cols[k], or counted
// when k is past them; notNull (nil, or one per column) keeps an empty
// field the empty string. n is the number of fields, 0 at the end of the
// stream and for an empty line (which DuckDB skips, unless a record has
// one column: then it is a NULL).
func (s *csvSplitter) record(cols []*vec.Col, notNull []bool) (n int, err error) {
	s.line++
	first, err := s.r.ReadByte()
	if errors.Is(err, io.EOF) {
		s.done = true
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if first == s.opts.Comment && first != 0 {
		// A comment line is no record, as an empty one.
		end, err := s.skipComment()
		if errors.Is(err, io.EOF) {
			s.done = true
			return 0, nil
		}
		if end == '\r' {
			s.skipLF()
		}
		return 0, err
	}
	if (first == '\n' || first == '\r') && len(cols) != 1 {
		if first == '\r' {
			s.skipLF()
		}
		return 0, nil
	}
	s.r.UnreadByte()
	for k := 0; ; k++ {
		c, keep := s.spillCol(), false
		if k < len(cols) {
			c = cols[k]
			keep = notNull != nil && notNull[k]
		}
		end, err := s.field(c, keep)
		if err != nil {
			return 0, err
		}
		if end {
			return k + 1, nil
		}
	}
}

// spillCol is the column that takes fields past the columns given, kept
// empty.
func (s *csvSplitter) spillCol() *vec.Col {
	if s.spill == nil {
		s.spill = &vec.Col{T: tString}
	}
	s.spill.Data, s.spill.Off, s.spill.Null = s.spill.Data[:0], append(s.spill.Off[:0], 0), s.spill.Null[:0]
	return s.spill
}

// field reads one field into c; end is true when it ended its record.
func (s *csvSplitter) field(c *vec.Col, notNull bool) (end bool, err error) {
	o := s.opts
	ch, err := s.r.ReadByte()
	quoted := err == nil && o.Quote != 0 && ch == o.Quote
	if quoted {
		if err := s.quotedField(c); err != nil {
			return false, err
		}
		ch, err = s.r.ReadByte()
		if err == nil && ch == o.Comment && ch != 0 {
			ch, err = s.skipComment() // the field ends its record
		}
		if err == nil && ch != o.Delim && ch != '\n' && ch != '\r' {
			return false, s.fail("%q after a closing quote (expected the delimiter or a line end)", ch)
		}
	} else {
		for err == nil && ch != o.Delim && ch != '\n' && ch != '\r' && (ch != o.Comment || ch == 0) {
			c.Data = append(c.Data, ch)
			ch, err = s.r.ReadByte()
		}
		if err == nil && ch == o.Comment && ch != 0 {
			ch, err = s.skipComment() // the field ends its record
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	empty := int32(len(c.Data)) == c.Off[len(c.Off)-1]
	c.Null = append(c.Null, empty && !notNull && (!quoted || o.QuotedNulls))
	c.Off = append(c.Off, int32(len(c.Data)))
	if err != nil { // io.EOF
		s.done = true
		return true, nil
	}
	if ch == '\r' {
		s.skipLF()
	}
	return ch == '\n' || ch == '\r', nil
}

// quotedField reads a quoted field's text, after its opening quote, up to
// its closing quote.
func (s *csvSplitter) quotedField(c *vec.Col) error {
	o, start := s.opts, s.line
	unended := func() error {
		s.line = start // the line the field begins on
		return s.fail("a quoted field does not end")
	}
	for {
		ch, err := s.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return unended()
			}
			return err
		}
		switch {
		case ch == o.Escape && o.Escape == o.Quote:
			// A doubled quote is one; a single one ends the field.
			next, err := s.r.ReadByte()
			if err == nil && next == o.Quote {
				c.Data = append(c.Data, o.Quote)
				continue
			}
			if err == nil {
				s.r.UnreadByte()
			}
			return nil
		case ch == o.Escape && o.Escape != 0:
			next, err := s.r.ReadByte()
			if err != nil {
				return unended()
			}
			c.Data = append(c.Data, next)
		case ch == o.Quote:
			return nil
		default:
			if ch == '\n' {
				s.line++
			}
			c.Data = append(c.Data, ch)
		}
	}
}

// skipComment reads a comment up to its line's end, which it returns
// (io.EOF when the stream ends first).
func (s *csvSplitter) skipComment() (byte, error) {
	for {
		ch, err := s.r.ReadByte()
		if err != nil || ch == '\n' || ch == '\r' {
			return ch, err
		}
	}
}

// skipLF reads the \n of a \r\n line end.
func (s *csvSplitter) skipLF() {
	if ch, err := s.r.ReadByte(); err == nil && ch != '\n' {
		s.r.UnreadByte()
	}
}

// skipLines skips n lines as they are, quotes or not (read_csv's skip).
func (s *csvSplitter) skipLines(n int) error {
	for ; n > 0; n-- {
		for {
			ch, err := s.r.ReadByte()
			if errors.Is(err, io.EOF) {
				s.done = true
				return nil
			}
			if err != nil {
				return err
			}
			if ch == '\r' {
				s.skipLF()
			}
			if ch == '\n' || ch == '\r' {
				break
			}
		}
		s.line++
	}
	return nil
}

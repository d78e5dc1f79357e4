package textfile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
)

// A JSON file's values, one document at a time, in the file's format:
// newline-delimited (a value per line, read line by line, each line at
// most maximum_object_size bytes), an array of values (its elements
// decoded one at a time, never the whole array at once) or values one
// after another (unstructured). A file is decompressed as it is read
// (gzip or zstd, by the compression option or the name's extension:
// Open, in open.go).

// jsonSource reads one file's documents.
type jsonSource struct {
	file   File
	opts   *JSONOptions
	format string        // newline_delimited, array or unstructured
	rc     io.ReadCloser // the file, decompressed
	r      *bufio.Reader
	dec    *json.Decoder
	line   int // of the last document read, newline-delimited
	began  bool
}

// jsonPeekBytes is how much of a file format auto looks at for its
// first line.
const jsonPeekBytes = 1 << 20

// openJSONSource opens a file and settles its format.
func openJSONSource(file File, o *JSONOptions) (*jsonSource, error) {
	rc, err := Open(file.Path, o.compression)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && pathErr.Op == "open" {
		return nil, errorf("IO Error: No files found that match the pattern %q", file.Name)
	}
	if err != nil {
		return nil, errorf("%s: %v", file.Name, err)
	}
	s := &jsonSource{file: file, opts: o, rc: rc, format: o.format}
	s.r = bufio.NewReaderSize(rc, 1<<16)
	if s.format == "auto" {
		s.format = s.detectFormat()
	}
	if s.format != "newline_delimited" {
		s.dec = json.NewDecoder(s.r)
		s.dec.UseNumber()
	}
	return s, nil
}

// detectFormat looks at the start of the file: an array when its first
// character is '[', newline-delimited when its first line is one whole
// value, else unstructured.
func (s *jsonSource) detectFormat() string {
	head, _ := s.r.Peek(jsonPeekBytes)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	line, rest := trimmed, []byte(nil)
	if k := bytes.IndexByte(trimmed, '\n'); k >= 0 {
		line, rest = trimmed[:k], trimmed[k+1:]
	} else if len(head) == jsonPeekBytes {
		line = nil // a first line longer than the peek
	}
	if len(trimmed) > 0 && trimmed[0] == '[' {
		// An array, unless its first line is a whole one and more
		// follow: then arrays, a line each.
		if line != nil && json.Valid(line) && len(bytes.TrimSpace(rest)) > 0 {
			return "newline_delimited"
		}
		return "array"
	}
	if line == nil {
		return "newline_delimited"
	}
	if len(bytes.TrimSpace(line)) == 0 || json.Valid(line) {
		return "newline_delimited"
	}
	return "unstructured"
}

func (s *jsonSource) close() { s.rc.Close() }

// recoverable reports whether err spoils one document only, which
// ignore_errors skips.
func (s *jsonSource) recoverable(err error) bool {
	var re *jsonReadError
	return errors.As(err, &re) && !re.fatal
}

// next reads the next document; io.EOF at the end of the file.
func (s *jsonSource) next() (*function.JSONNode, error) {
	if s.format == "newline_delimited" {
		return s.nextLine()
	}
	return s.nextValue()
}

// nextLine reads the next non-empty line's value.
func (s *jsonSource) nextLine() (*function.JSONNode, error) {
	for {
		line, err := s.readLine()
		if err != nil {
			return nil, err
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		n, err := parseJSONDoc(line)
		if err != nil {
			return nil, &jsonReadError{file: s.file.Name, line: s.line, msg: strings.TrimPrefix(err.Error(), "Malformed JSON: ")}
		}
		return n, nil
	}
}

// readLine reads one line without its end, at most maximum_object_size
// bytes: the buffer grows with the bytes read, never to a size the file
// names.
func (s *jsonSource) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := s.r.ReadSlice('\n')
		if len(line)+len(chunk) > s.opts.maxObject+1 {
			return nil, &jsonReadError{file: s.file.Name, line: s.line + 1, fatal: true,
				msg: fmt.Sprintf("\"maximum_object_size\" of %d bytes exceeded; try increasing \"maximum_object_size\"", s.opts.maxObject)}
		}
		switch {
		case err == nil:
			s.line++
			if line == nil {
				return chunk, nil
			}
			return append(line, chunk...), nil
		case errors.Is(err, bufio.ErrBufferFull):
			line = append(line, chunk...)
		case errors.Is(err, io.EOF):
			if len(line)+len(chunk) == 0 {
				return nil, io.EOF
			}
			s.line++
			return append(line, chunk...), nil
		default:
			return nil, errorf("%s: %v", s.file.Name, err)
		}
	}
}

// nextValue decodes the next element of an array, or the next value of
// an unstructured file. A malformed value ends the file's reading: the
// decoder cannot resynchronise.
func (s *jsonSource) nextValue() (*function.JSONNode, error) {
	fail := func(err error) error {
		return &jsonReadError{file: s.file.Name, off: s.dec.InputOffset(), msg: err.Error(), fatal: true}
	}
	if s.format == "array" && !s.began {
		s.began = true
		tok, err := s.dec.Token()
		if errors.Is(err, io.EOF) {
			return nil, io.EOF
		}
		if err != nil {
			return nil, fail(err)
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return nil, errorf("Expected top-level JSON array with format='array', but the first value is no array in file %q; try format='auto' or format='newline_delimited'", s.file.Name)
		}
	}
	if !s.dec.More() {
		// The array's ']', then (or at once, unstructured) the end:
		// anything else is malformed.
		if s.format == "array" {
			if _, err := s.dec.Token(); err != nil {
				return nil, fail(err)
			}
		}
		if tok, err := s.dec.Token(); !errors.Is(err, io.EOF) {
			if err == nil {
				err = fmt.Errorf("unexpected %v after the values", tok)
			}
			return nil, fail(err)
		}
		return nil, io.EOF
	}
	start := s.dec.InputOffset()
	var raw json.RawMessage
	if err := s.dec.Decode(&raw); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fail(err)
	}
	if s.dec.InputOffset()-start > int64(s.opts.maxObject) {
		return nil, fail(fmt.Errorf("\"maximum_object_size\" of %d bytes exceeded; try increasing \"maximum_object_size\"", s.opts.maxObject))
	}
	n, err := parseJSONDoc(raw)
	if err != nil {
		return nil, fail(err)
	}
	return n, nil
}

package textfile

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_csv's options, as the rewrite passed them (parse/csvcall.go):
// each option's name and its value's text, read here as constants.

// Dialect is how a CSV file splits into records and fields. A quote or
// escape of 0 is none.
type Dialect struct {
	Delim, Quote, Escape byte
	Header               bool
	// QuotedNulls (ALLOW_QUOTED_NULLS, DuckDB's default) reads a quoted
	// empty field as NULL too; carquet's exports turn it off, so that
	// the empty string and NULL both come back (COPY ... FROM only).
	QuotedNulls bool
	// Comment (read_csv's comment, 0 for none) begins a comment: the
	// rest of its line is not read, and a line it begins is skipped.
	Comment byte
}

// DefaultDialect is DuckDB's CSV dialect: comma, double quotes doubled
// inside quotes, a header line.
var DefaultDialect = Dialect{Delim: ',', Quote: '"', Escape: '"', Header: true, QuotedNulls: true}

// csvDefaultSample is DuckDB's sample_size: the rows the sniffer reads.
const csvDefaultSample = 20480

// CSVSpec is a read_csv call.
type CSVSpec struct {
	// Fn is the function called (read_csv, read_csv_auto, sniff_csv),
	// Patterns the files or globs it names.
	Fn       string
	Patterns []string
	opts     Dialect         // the dialect given; what is not set is sniffed
	columns  []vec.NamedType // columns=: the names and types, not sniffed
	types    []vec.Type      // types= by position
	typesBy  map[string]vec.Type
	names    []string
	auto     bool // auto_detect
	allText  bool // all_varchar
	skip     int
	nullstr  []string
	dateFmt  string
	stampFmt string
	filename bool
	byName   bool // union_by_name
	sample   int  // rows; -1 for the whole file
	ignore   bool // ignore_errors
	compress string
	given    []string // the options as written, for sniff_csv's UserArguments
	// nullPadding (null_padding) makes a short record's missing fields
	// NULL; decimalComma (decimal_separator=',') reads 1,5 as 1.5;
	// encoding is the file's: utf-8, utf-16 or latin-1.
	nullPadding, decimalComma bool
	encoding                  string
	// parseType reads the type names of columns= and types=.
	parseType TypeParser

	delimSet, quoteSet, escapeSet, headerSet bool
}

// ReadCSVSpec reads a call's query (fn, path, and the options as o and
// v pairs), type names with parseType.
func ReadCSVSpec(q url.Values, parseType TypeParser) (*CSVSpec, error) {
	s := &CSVSpec{Fn: q.Get("fn"), Patterns: q["path"], opts: DefaultDialect, auto: true, sample: csvDefaultSample, nullstr: []string{""}, compress: "auto", encoding: "utf-8", parseType: parseType}
	names, vals := q["o"], q["v"]
	if len(names) != len(vals) {
		return nil, errorf("%s: malformed options", s.Fn)
	}
	for i, name := range names {
		if err := s.option(name, vals[i]); err != nil {
			return nil, err
		}
		s.given = append(s.given, name+"="+vals[i])
	}
	if s.quoteSet && !s.escapeSet {
		s.opts.Escape = s.opts.Quote
	}
	if s.delimSet && s.quoteSet && s.opts.Delim == s.opts.Quote {
		return nil, errorf("%s: the delimiter and the quote must differ", s.Fn)
	}
	if c := s.opts.Comment; c != 0 && c == s.opts.Delim {
		return nil, errorf("%s: COMMENT must not appear in the DELIMITER specification and vice versa", s.Fn)
	}
	if c := s.opts.Comment; c != 0 && s.quoteSet && c == s.opts.Quote {
		return nil, errorf("%s: the comment and the quote must differ", s.Fn)
	}
	return s, nil
}

// option reads one option.
func (s *CSVSpec) option(name, text string) error {
	toks, err := parse.Lex(text)
	if err != nil {
		return errorf("%s: option %s: %v", s.Fn, name, err)
	}
	val := parse.Significant(toks)
	fail := func(what string) error {
		return errorf("%s: option %s takes %s, got %s", s.Fn, name, what, text)
	}
	var ok bool
	switch name {
	case "delim", "sep", "delimiter":
		var d string
		if d, ok = constString(val); ok && d == "\\t" {
			d = "\t"
		}
		if !ok || len(d) != 1 || d == "\n" || d == "\r" {
			return fail("one character")
		}
		s.opts.Delim, s.delimSet = d[0], true
	case "quote", "escape":
		c, ok := constString(val)
		if !ok || len(c) > 1 {
			return fail("one character or ''")
		}
		b := byte(0)
		if c != "" {
			b = c[0]
		}
		if name == "quote" {
			s.opts.Quote, s.quoteSet = b, true
		} else {
			s.opts.Escape, s.escapeSet = b, true
		}
	case "header":
		if s.opts.Header, ok = constBool(val); !ok {
			return fail("true or false")
		}
		s.headerSet = true
	case "auto_detect":
		if s.auto, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "all_varchar":
		if s.allText, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "filename":
		if s.filename, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "union_by_name":
		if s.byName, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "ignore_errors":
		if s.ignore, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "skip":
		if s.skip, ok = constInt(val); !ok || s.skip < 0 {
			return fail("a number of lines")
		}
	case "sample_size":
		if s.sample, ok = constInt(val); !ok || s.sample == 0 || s.sample < -1 {
			return fail("a number of rows, or -1")
		}
	case "nullstr", "null":
		if s.nullstr, ok = constStrings(val); !ok {
			return fail("a string or a list of strings")
		}
	case "names", "column_names":
		if s.names, ok = constStrings(val); !ok {
			return fail("a list of names")
		}
	case "dateformat", "date_format":
		if s.dateFmt, ok = constString(val); !ok {
			return fail("a strptime format")
		}
	case "timestampformat", "timestamp_format":
		if s.stampFmt, ok = constString(val); !ok {
			return fail("a strptime format")
		}
	case "new_line":
		// \n, \r\n and \r all end a record, whichever is given.
		if _, ok = constString(val); !ok {
			return fail("a line end")
		}
	case "compression":
		c, ok := constString(val)
		if c = strings.ToLower(c); !ok || c != "auto" && c != "none" && c != "gzip" && c != "zstd" {
			return fail("auto, none, gzip or zstd")
		}
		s.compress = c
	case "comment":
		c, ok := constString(val)
		if !ok || len(c) > 1 || c == "\n" || c == "\r" {
			return fail("one character or ''")
		}
		s.opts.Comment = 0
		if c != "" {
			s.opts.Comment = c[0]
		}
	case "null_padding":
		if s.nullPadding, ok = constBool(val); !ok {
			return fail("true or false")
		}
	case "decimal_separator":
		c, ok := constString(val)
		if !ok || c != "." && c != "," {
			return errorf("%s: Unsupported parameter for DECIMAL_SEPARATOR: should be '.' or ','", s.Fn)
		}
		s.decimalComma = c == ","
	case "encoding":
		c, ok := constString(val)
		if c = strings.ToLower(c); !ok || c != "utf-8" && c != "utf-16" && c != "latin-1" {
			return fail("utf-8, utf-16 or latin-1")
		}
		s.encoding = c
	case "columns":
		return s.columnsOption(val, fail)
	case "types", "dtypes", "column_types":
		return s.typesOption(val, fail)
	default:
		return unsupported("%s: option %s is not supported (carquet takes delim, quote, escape, header, columns, types, names, auto_detect, all_varchar, skip, nullstr, new_line, dateformat, timestampformat, filename, union_by_name, sample_size, ignore_errors, compression, comment, null_padding, decimal_separator and encoding)", s.Fn, name)
	}
	return nil
}

// columnsOption reads columns={'name': 'TYPE', ...}.
func (s *CSVSpec) columnsOption(val []parse.Token, fail func(string) error) error {
	pairs, ok := constStruct(val)
	if !ok || len(pairs) == 0 {
		return fail("{'name': 'TYPE', ...}")
	}
	for _, p := range pairs {
		t, err := s.parseType(p[1])
		if err != nil {
			return fail("{'name': 'TYPE', ...} (" + err.Error() + ")")
		}
		s.columns = append(s.columns, vec.NamedType{Name: p[0], Type: t})
	}
	return nil
}

// typesOption reads types=['TYPE', ...] (by position) or {'name': 'TYPE'}.
func (s *CSVSpec) typesOption(val []parse.Token, fail func(string) error) error {
	if list, ok := constStrings(val); ok {
		for _, name := range list {
			t, err := s.parseType(name)
			if err != nil {
				return fail("a list of types (" + err.Error() + ")")
			}
			s.types = append(s.types, t)
		}
		return nil
	}
	pairs, ok := constStruct(val)
	if !ok {
		return fail("a list of types or {'name': 'TYPE', ...}")
	}
	s.typesBy = map[string]vec.Type{}
	for _, p := range pairs {
		t, err := s.parseType(p[1])
		if err != nil {
			return fail("{'name': 'TYPE', ...} (" + err.Error() + ")")
		}
		s.typesBy[strings.ToLower(p[0])] = t
	}
	return nil
}

// constString reads a string constant.
func constString(val []parse.Token) (string, bool) {
	if len(val) == 1 && val[0].Kind == parse.String {
		return val[0].Unquoted(), true
	}
	return "", false
}

// constBool reads true, false, 1, 0 or their strings.
func constBool(val []parse.Token) (bool, bool) {
	if len(val) != 1 {
		return false, false
	}
	switch strings.ToLower(val[0].Unquoted()) {
	case "true", "1", "on":
		return true, true
	case "false", "0", "off":
		return false, true
	}
	return false, false
}

// constInt reads an integer, negative or not.
func constInt(val []parse.Token) (int, bool) {
	text := ""
	for _, t := range val {
		text += t.Text
	}
	n, err := strconv.Atoi(text)
	return n, err == nil && len(val) >= 1 && len(val) <= 2
}

// constStrings reads 'a' or ['a', 'b', ...].
func constStrings(val []parse.Token) ([]string, bool) {
	if s, ok := constString(val); ok {
		return []string{s}, true
	}
	if len(val) < 2 || val[0].Text != "[" || val[len(val)-1].Text != "]" {
		return nil, false
	}
	var out []string
	for _, item := range parse.SplitList(val[1 : len(val)-1]) {
		s, ok := constString(item)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// constStruct reads {'key': 'value', ...} as pairs.
func constStruct(val []parse.Token) ([][2]string, bool) {
	if len(val) < 2 || val[0].Text != "{" || val[len(val)-1].Text != "}" {
		return nil, false
	}
	var out [][2]string
	for _, item := range parse.SplitList(val[1 : len(val)-1]) {
		if len(item) != 3 || item[1].Text != ":" || item[0].Kind == parse.Op || item[2].Kind != parse.String {
			return nil, false
		}
		out = append(out, [2]string{item[0].Unquoted(), item[2].Unquoted()})
	}
	return out, true
}

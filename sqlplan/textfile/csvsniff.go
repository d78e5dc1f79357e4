package textfile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_csv's sniffer, after DuckDB's: from a sample of the file's first
// rows (sample_size, 20480 by default) it finds the dialect (delimiter
// , | ; or tab; quote " or ' or none), whether the first line is a
// header, and each column's type: the most specific of BOOLEAN, BIGINT,
// DOUBLE, TIME, DATE, TIMESTAMP that every value of the sample takes,
// else VARCHAR. Only the sample is held in memory.

// csvSampleMaxBytes bounds the sample (sample_size -1 reads the file up
// to it).
const csvSampleMaxBytes = 64 << 20

// csvSchema is how one file is read: its dialect and columns.
type csvSchema struct {
	opts  Dialect
	names []string
	types []vec.Type
	// formats are each column's date and timestamp formats: the
	// user's, else those sniffed ("" for ISO).
	formats []csvFormats
	width   int // the fields of the sample's records
	// sniffed: the header and the types were detected, not given (for
	// sniff_csv and the errors' hints).
	sniffed bool
}

// csvSample is the sample's bytes; whole when it is the entire file.
type csvSample struct {
	data  []byte
	whole bool
}

// readCSVSample reads the lines after skip up to rows+1 line ends (the
// header's and a margin for quoted line ends are within the bound).
func readCSVSample(r *bufio.Reader, rows int) (csvSample, error) {
	var buf bytes.Buffer
	lines := 0
	for rows < 0 || lines <= rows+1 {
		line, err := r.ReadSlice('\n')
		buf.Write(line)
		if errors.Is(err, bufio.ErrBufferFull) {
			if buf.Len() > csvSampleMaxBytes {
				return csvSample{data: buf.Bytes()}, nil
			}
			continue
		}
		if errors.Is(err, io.EOF) {
			return csvSample{data: buf.Bytes(), whole: true}, nil
		}
		if err != nil {
			return csvSample{}, err
		}
		lines++
		if buf.Len() > csvSampleMaxBytes {
			break
		}
	}
	return csvSample{data: buf.Bytes()}, nil
}

// countFields splits the sample with a dialect, at most maxRows
// records, counting fields: width is the widest record's count, even
// whether every record had it. A record cut by the sample's end is left
// out.
func countFields(s csvSample, opts Dialect, maxRows int, path string) (width, rows int, even bool, err error) {
	sp := newCSVSplitter(bytes.NewReader(s.data), opts, path)
	width, even = 0, true
	for !sp.done && (maxRows < 0 || rows < maxRows) {
		n, err := sp.record(nil, nil)
		if err != nil {
			if !s.whole {
				break // a quoted field the sample cut
			}
			return 0, 0, false, err
		}
		if n == 0 || sp.done && !s.whole {
			continue
		}
		if rows > 0 && n != width {
			even = false
		}
		width = max(width, n)
		rows++
	}
	return width, rows, even, nil
}

// splitSample splits the sample into width columns of text, at most
// maxRows records: a short record's missing fields are NULL, a long
// one's extra fields left out.
func splitSample(s csvSample, opts Dialect, width, maxRows int, path string) (cols []*vec.Col, rows int, err error) {
	cols = make([]*vec.Col, width)
	for i := range cols {
		cols[i] = &vec.Col{T: tString, Off: []int32{0}}
	}
	sp := newCSVSplitter(bytes.NewReader(s.data), opts, path)
	for !sp.done && (maxRows < 0 || rows < maxRows) {
		n, err := sp.record(cols, nil)
		if err != nil {
			if !s.whole {
				break
			}
			return nil, 0, err
		}
		if n == 0 || sp.done && !s.whole {
			truncCols(cols, rows)
			continue
		}
		rows++
		padCols(cols, rows)
	}
	truncCols(cols, rows)
	return cols, rows, nil
}

// padCols makes every column rows long, NULL where a record was short.
func padCols(cols []*vec.Col, rows int) {
	for _, c := range cols {
		for len(c.Null) < rows {
			c.Null = append(c.Null, true)
			c.Off = append(c.Off, int32(len(c.Data)))
		}
	}
}

// truncCols drops the rows from rows on.
func truncCols(cols []*vec.Col, rows int) {
	for _, c := range cols {
		if len(c.Null) > rows {
			c.Null = c.Null[:rows]
			c.Off = c.Off[:rows+1]
			c.Data = c.Data[:c.Off[rows]]
		}
	}
}

// countQuoteStarts counts the fields of the sample that begin with q, by
// delimiter d: a sign that q quotes.
func countQuoteStarts(data []byte, d, q byte) int {
	n := 0
	for i, c := range data {
		if c == q && (i == 0 || data[i-1] == d || data[i-1] == '\n' || data[i-1] == '\r') {
			n++
		}
	}
	return n
}

// sniffDialect finds the delimiter and the quote the spec leaves open:
// of the dialects that split every sampled record into as many fields,
// the one with the most fields, the first in DuckDB's order on a tie; a
// quote when some field begins with it, else none.
func (s *CSVSpec) sniffDialect(sample csvSample, rows int) (Dialect, error) {
	delims := []byte{',', '|', ';', '\t'}
	if s.delimSet {
		delims = []byte{s.opts.Delim}
	}
	best, bestWidth := Dialect{}, -1
	for _, d := range delims {
		quotes := []byte{s.opts.Quote}
		if !s.quoteSet {
			quotes = nil
			for _, q := range []byte{'"', '\''} {
				if countQuoteStarts(sample.data, d, q) > 0 {
					quotes = append(quotes, q)
				}
			}
			if len(quotes) == 0 {
				// DuckDB tries no quote only when no field begins with one.
				quotes = append(quotes, 0)
			}
		}
		for _, q := range quotes {
			o := s.opts
			o.Delim, o.Quote = d, q
			if !s.escapeSet {
				o.Escape = q
			}
			width, _, even, err := countFields(sample, o, rows, "")
			if err != nil || !even && !s.nullPadding {
				continue
			}
			if width > bestWidth {
				best, bestWidth = o, width
			}
			break
		}
	}
	if bestWidth < 0 {
		return best, errorf("Error when sniffing file: it was not possible to automatically detect the CSV parsing dialect (delimiter, quote): every record needs as many fields; set delim, quote and escape, or ignore_errors")
	}
	return best, nil
}

// csvDateFormats and csvStampFormats are the formats the sniffer tries
// for dates and timestamps that are not ISO, with each separator; of
// those that read every value, DuckDB takes the last (so 02/01/2024 is
// the 2nd of January).
var csvDateFormats, csvStampFormats = formatsWithSeparators(
	[]string{"%m-%d-%Y", "%m-%d-%y", "%d-%m-%Y", "%d-%m-%y", "%Y-%m-%d", "%y-%m-%d"}), formatsWithSeparators(
	[]string{"%Y-%m-%d %H:%M:%S.%f", "%m-%d-%Y %I:%M:%S %p", "%m-%d-%y %I:%M:%S %p", "%d-%m-%Y %H:%M:%S", "%d-%m-%y %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%y-%m-%d %H:%M:%S"})

func formatsWithSeparators(templates []string) []string {
	var out []string
	for _, sep := range []string{"-", "/", "."} {
		for _, t := range templates {
			out = append(out, strings.ReplaceAll(t, "-", sep))
		}
	}
	return out
}

// columnSniff is what the sniffer knows of a column while it reads the
// sample: which candidate types, and which date and timestamp formats,
// every value so far takes.
type columnSniff struct {
	fits               []bool // by csvTypeCandidates, ISO or the user's format
	dateFmts, stampFmt []bool // by csvDateFormats, csvStampFormats
	seen, zoned        bool
}

func newColumnSniff(f csvFormats) *columnSniff {
	cs := &columnSniff{fits: make([]bool, len(csvTypeCandidates))}
	for i := range cs.fits {
		cs.fits[i] = true
	}
	if f.date == "" {
		cs.dateFmts = make([]bool, len(csvDateFormats))
	}
	if f.stamp == "" {
		cs.stampFmt = make([]bool, len(csvStampFormats))
	}
	for i := range cs.dateFmts {
		cs.dateFmts[i] = true
	}
	for i := range cs.stampFmt {
		cs.stampFmt[i] = true
	}
	return cs
}

// add takes one value.
func (cs *columnSniff) add(v string, f csvFormats) {
	cs.seen = true
	cs.zoned = cs.zoned || f.stamp == "" && hasZone(v)
	for i := range cs.fits {
		cs.fits[i] = cs.fits[i] && sniffFits(i, v, f)
	}
	digit := v != "" && v[0] >= '0' && v[0] <= '9'
	for i, ok := range cs.dateFmts {
		if ok {
			_, err := function.Strptime(v, csvDateFormats[i])
			cs.dateFmts[i] = digit && err == nil
		}
	}
	for i, ok := range cs.stampFmt {
		if ok {
			_, err := function.Strptime(v, csvStampFormats[i])
			cs.stampFmt[i] = digit && err == nil
		}
	}
}

// result is the column's type and the format its dates or timestamps
// are read with ("" for ISO or the user's). A file has one date and one
// timestamp format, as in DuckDB: the first column to need one sets it
// (*date, *stamp, -1 while unset), a later one takes it or is not of
// that type.
func (cs *columnSniff) result(f csvFormats, date, stamp *int) (vec.Type, csvFormats) {
	if !cs.seen {
		return tString, f
	}
	for i, t := range csvTypeCandidates {
		if cs.fits[i] {
			if t.Kind == vec.KTimestamp && cs.zoned {
				t.TZ = true
			}
			return t, f
		}
		switch t.Kind {
		case vec.KDate:
			if k := fileFormat(cs.dateFmts, date); k >= 0 {
				f.date = csvDateFormats[k]
				return t, f
			}
		case vec.KTimestamp:
			if k := fileFormat(cs.stampFmt, stamp); k >= 0 {
				f.stamp = csvStampFormats[k]
				return t, f
			}
		}
	}
	return tString, f
}

// fileFormat is the format a column reads with: the file's when set
// (-1 if the column's values do not take it), else the last that takes
// them all, which becomes the file's.
func fileFormat(alive []bool, file *int) int {
	if *file >= 0 {
		if alive != nil && alive[*file] {
			return *file
		}
		return -1
	}
	*file = lastTrue(alive)
	return *file
}

func lastTrue(bs []bool) int {
	for i := len(bs) - 1; i >= 0; i-- {
		if bs[i] {
			return i
		}
	}
	return -1
}

// sniffTypes is each column's type over rows [from, to) of the sample,
// and the formats its dates and timestamps are read with.
func sniffTypes(cols []*vec.Col, from, to int, nullstr []string, f csvFormats) ([]vec.Type, []csvFormats) {
	types := make([]vec.Type, len(cols))
	formats := make([]csvFormats, len(cols))
	date, stamp := -1, -1
	for k, c := range cols {
		cs := newColumnSniff(f)
		for r := from; r < to; r++ {
			if !c.Null[r] && !isNullText(c.Str(r), nullstr) {
				cs.add(fieldText(c.Str(r)), f)
			}
		}
		types[k], formats[k] = cs.result(f, &date, &stamp)
	}
	return types, formats
}

// isNullText reports whether a field is one of nullstr's texts ("" is
// the splitter's NULL already).
func isNullText(v []byte, nullstr []string) bool {
	for _, n := range nullstr {
		if n != "" && string(v) == n {
			return true
		}
	}
	return false
}

// sniffHeader decides whether the first record is a header, as DuckDB:
// when a value of it is not of its column's type, or when every column
// is VARCHAR and it has no NULL.
func sniffHeader(cols []*vec.Col, types []vec.Type, formats []csvFormats, nullstr []string) bool {
	allText, anyNull := true, false
	for k, c := range cols {
		if c.Null[0] || isNullText(c.Str(0), nullstr) {
			anyNull = true
			continue
		}
		if types[k].Kind == vec.KString {
			continue
		}
		allText = false
		for i, t := range csvTypeCandidates {
			if t.Kind == types[k].Kind && !sniffFits(i, fieldText(c.Str(0)), formats[k]) {
				return true
			}
		}
	}
	return allText && !anyNull
}

// csvColumnNames are DuckDB's names of columns without a header:
// column0, column1, ..., the numbers padded to the widest.
func csvColumnNames(n int) []string {
	width := len(strconv.Itoa(n - 1))
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("column%0*d", width, i)
	}
	return out
}

// headerNames are a header's names: an empty one is columnN, a repeated
// one gets _1, _2, ... as in DuckDB.
func headerNames(cols []*vec.Col) []string {
	generic := csvColumnNames(len(cols))
	seen := map[string]bool{}
	out := make([]string, len(cols))
	for k, c := range cols {
		name := string(c.Str(0))
		if c.Null[0] || name == "" {
			name = generic[k]
		}
		base := name
		for i := 1; seen[strings.ToLower(name)]; i++ {
			name = base + "_" + strconv.Itoa(i)
		}
		seen[strings.ToLower(name)] = true
		out[k] = name
	}
	return out
}

// sniffFile is how the spec reads one file: the dialect, header, names
// and types given, the rest sniffed from the file's first rows.
func (s *CSVSpec) sniffFile(path, shown string) (*csvSchema, error) {
	rc, err := s.open(path)
	if err != nil {
		return nil, errorf("%s: %v", shown, err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 1<<16)
	sp := csvSplitter{r: br}
	if err := sp.skipLines(s.skip); err != nil {
		return nil, errorf("%s: %v", shown, err)
	}
	sample, err := readCSVSample(br, s.sample)
	if err != nil {
		return nil, errorf("%s: %v", shown, err)
	}
	sch := &csvSchema{opts: s.opts, sniffed: s.auto}
	rows := s.sample
	if rows > 0 {
		rows++ // the header's
	}
	if s.auto {
		if sch.opts, err = s.sniffDialect(sample, rows); err != nil {
			return nil, errorf("%s: %v", shown, err)
		}
	}
	width, _, _, err := countFields(sample, sch.opts, rows, shown)
	if err != nil {
		return nil, err
	}
	sch.width = width
	cols, n, err := splitSample(sample, sch.opts, width, rows, shown)
	if err != nil {
		return nil, err
	}
	f := csvFormats{date: s.dateFmt, stamp: s.stampFmt, comma: s.decimalComma}
	if len(s.columns) > 0 {
		for _, c := range s.columns {
			sch.names, sch.types = append(sch.names, c.Name), append(sch.types, c.Type)
		}
		sch.formats = make([]csvFormats, len(s.columns))
		for i := range sch.formats {
			sch.formats[i] = f
		}
		if !s.headerSet && s.auto && n > 0 && len(cols) == len(s.columns) {
			sch.opts.Header = sniffHeader(cols, sch.types, sch.formats, s.nullstr)
		}
		return sch, nil
	}
	if len(cols) == 0 {
		return nil, errorf("%s: the file has no rows to read columns from; give columns={'name': 'TYPE', ...}", shown)
	}
	from := 0
	if n > 1 {
		from = 1
	}
	types, formats := sniffTypes(cols, from, n, s.nullstr, f)
	if !s.headerSet && s.auto {
		sch.opts.Header = sniffHeader(cols, types, formats, s.nullstr)
	}
	if sch.opts.Header {
		sch.names = headerNames(cols)
		types, formats = sniffTypes(cols, 1, n, s.nullstr, f)
	} else {
		sch.names = csvColumnNames(len(cols))
		types, formats = sniffTypes(cols, 0, n, s.nullstr, f)
	}
	if !s.auto || s.allText {
		for i := range types {
			types[i], formats[i] = tString, f
		}
	}
	sch.types, sch.formats = types, formats
	return sch, s.applyNamesAndTypes(sch, shown)
}

// applyNamesAndTypes puts names= and types= over the sniffed ones.
func (s *CSVSpec) applyNamesAndTypes(sch *csvSchema, shown string) error {
	if len(s.names) > len(sch.names) {
		return errorf("%s: names= gives %d names, the file has %d columns", shown, len(s.names), len(sch.names))
	}
	copy(sch.names, s.names)
	if len(s.types) > len(sch.types) {
		return errorf("%s: types= gives %d types, the file has %d columns", shown, len(s.types), len(sch.types))
	}
	copy(sch.types, s.types)
	for name, t := range s.typesBy {
		k := -1
		for i, n := range sch.names {
			if strings.EqualFold(n, name) {
				k = i
			}
		}
		if k < 0 {
			return errorf("%s: types= names the column %q, which the file does not have", shown, name)
		}
		sch.types[k] = t
	}
	return nil
}

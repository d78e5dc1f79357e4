package textfile

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// sniff_csv(path): what the sniffer found in a file, as DuckDB's one row:
// the dialect, the header, the columns' names and types, and the
// read_csv call that reads the file so (Prompt).

// CSVSniff is sniff_csv's row for a file; a format or UserArguments is
// "" when there is none (sniff_csv's NULL).
type CSVSniff struct {
	Delimiter, Quote, Escape    string // a quote or escape "" for none
	Comment                     string // "" for none
	SkipRows                    int
	HasHeader                   bool
	Columns                     []vec.NamedType
	DateFormat, TimestampFormat string
	UserArguments               string // the options as the call gave them
	Prompt                      string // the read_csv call that reads the file so
}

// Sniff is sniff_csv's row for a file.
func (s *CSVSpec) Sniff(path, shown string) (*CSVSniff, error) {
	sch, err := s.sniffFile(path, shown)
	if err != nil {
		return nil, err
	}
	o := sch.opts
	out := &CSVSniff{Delimiter: string(o.Delim), Quote: dialectChar(o.Quote), Escape: dialectChar(o.Escape), Comment: dialectChar(o.Comment),
		SkipRows: s.skip, HasHeader: o.Header, UserArguments: strings.Join(s.given, ", ")}
	fields := make([]string, len(sch.names))
	for i, name := range sch.names {
		out.Columns = append(out.Columns, vec.NamedType{Name: name, Type: sch.types[i]})
		fields[i] = sqlString(name) + ": " + sqlString(sch.types[i].SQLName())
	}
	out.DateFormat, out.TimestampFormat = sch.sniffedFormats()
	// DuckDB writes comment='' among the dialect's options, a comment
	// at the end with the options that are not the dialect's.
	noComment := ", comment=''"
	if o.Comment != 0 {
		noComment = ""
	}
	prompt := "FROM read_csv(" + sqlString(shown) + ", auto_detect=false, delim=" + sqlString(out.Delimiter) +
		", quote=" + sqlString(out.Quote) + ", escape=" + sqlString(out.Escape) +
		`, new_line='\n', skip=` + strconv.Itoa(s.skip) + noComment + ", header=" + strconv.FormatBool(o.Header) +
		", columns={" + strings.Join(fields, ", ") + "}"
	if out.DateFormat != "" {
		prompt += ", dateformat=" + sqlString(out.DateFormat)
	}
	if out.TimestampFormat != "" {
		prompt += ", timestampformat=" + sqlString(out.TimestampFormat)
	}
	if o.Comment != 0 {
		prompt += ", comment=" + sqlString(string(o.Comment))
	}
	if s.nullPadding {
		prompt += ", null_padding=true"
	}
	if s.decimalComma {
		prompt += ", decimal_separator=','"
	}
	if s.encoding != "utf-8" {
		prompt += ", encoding=" + sqlString(s.encoding)
	}
	out.Prompt = prompt + ");"
	return out, nil
}

// sniffedFormats are the date and timestamp formats of the first DATE
// and TIMESTAMP columns read with one ("" for none or ISO).
func (sch *csvSchema) sniffedFormats() (date, stamp string) {
	for i, t := range sch.types {
		switch {
		case t.Kind == vec.KDate && date == "":
			date = sch.formats[i].date
		case t.Kind == vec.KTimestamp && stamp == "":
			stamp = sch.formats[i].stamp
		}
	}
	return date, stamp
}

// dialectChar is a quote or escape as sniff_csv shows it: "" for none.
func dialectChar(b byte) string {
	if b == 0 {
		return ""
	}
	return string(b)
}

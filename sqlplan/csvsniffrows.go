package sqlplan

import (
	"strconv"
	"strings"
)

// sniff_csv(path): what the sniffer found in a file, as DuckDB's one row:
// the dialect, the header, the columns' names and types, and the
// read_csv call that reads the file so (Prompt).

var tSniffColumns = Type{Kind: KNested, Elem: &Type{Kind: KNested, Fields: []NamedType{{Name: "name", Type: tString}, {Name: "type", Type: tString}}}}

// sniffRelation is sniff_csv's row for a file.
func (s *csvReadSpec) sniffRelation(alias, shown, path string) (*relation, error) {
	sch, err := s.sniffFile(path, shown)
	if err != nil {
		return nil, err
	}
	o := sch.opts
	c := &catalogRows{n: 1}
	c.col("Delimiter", tString).Add(string(o.delim))
	c.col("Quote", tString).Add(dialectChar(o.quote))
	c.col("Escape", tString).Add(dialectChar(o.escape))
	c.col("NewLineDelimiter", tString).Add(`\n`)
	c.col("Comment", tString).Add("")
	c.col("SkipRows", Type{Kind: KUint, Bits: 32}).Add(uint64(s.skip))
	c.col("HasHeader", Type{Kind: KBool}).Add(o.header)
	cols := make([]any, len(sch.names))
	fields := make([]string, len(sch.names))
	for i, name := range sch.names {
		cols[i] = map[string]any{"name": name, "type": sch.types[i].SQLName()}
		fields[i] = quoteString(name) + ": " + quoteString(sch.types[i].SQLName())
	}
	c.col("Columns", tSniffColumns).Add(cols)
	dateFmt, stampFmt := sch.sniffedFormats()
	c.col("DateFormat", tString).Add(nilIfEmpty(dateFmt))
	c.col("TimestampFormat", tString).Add(nilIfEmpty(stampFmt))
	c.col("UserArguments", tString).Add(nilIfEmpty(strings.Join(s.given, ", ")))
	prompt := "FROM read_csv(" + quoteString(shown) + ", auto_detect=false, delim=" + quoteString(string(o.delim)) +
		", quote=" + quoteString(dialectChar(o.quote)) + ", escape=" + quoteString(dialectChar(o.escape)) +
		`, new_line='\n', skip=` + strconv.Itoa(s.skip) + ", comment='', header=" + boolWord(o.header) +
		", columns={" + strings.Join(fields, ", ") + "}"
	if dateFmt != "" {
		prompt += ", dateformat=" + quoteString(dateFmt)
	}
	if stampFmt != "" {
		prompt += ", timestampformat=" + quoteString(stampFmt)
	}
	c.col("Prompt", tString).Add(prompt + ");")
	return c.relation(alias, "SNIFF_CSV"), nil
}

// sniffedFormats are the date and timestamp formats of the first DATE
// and TIMESTAMP columns read with one ("" for none or ISO).
func (sch *csvSchema) sniffedFormats() (date, stamp string) {
	for i, t := range sch.types {
		switch {
		case t.Kind == KDate && date == "":
			date = sch.formats[i].date
		case t.Kind == KTimestamp && stamp == "":
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

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func boolWord(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

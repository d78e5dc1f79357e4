package plan

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// The binding of CSV files (package textfile reads them): read_csv(...),
// read_csv_auto, sniff_csv and FROM 'file.csv', which the rewrite made a
// marker table name (parse/csvcall.go), and COPY t FROM 'file.csv',
// whose relation is named by a marker that carries the table, the file
// and the dialect (it is INSERT INTO t SELECT * FROM that relation: the
// file's fields as VARCHAR columns, one per column of t by position, as
// DuckDB's COPY matches them, which INSERT casts to t's types).

// CSVReadRelation is the relation of a read_csv marker name, ok false
// for other names.
func (p *Planner) CSVReadRelation(name, alias string) (*Relation, bool, error) {
	enc, ok := strings.CutPrefix(name, parse.CSVReadMarker)
	if !ok {
		return nil, false, nil
	}
	q, err := url.ParseQuery(enc)
	if err != nil || !parse.CSVFunctions[q.Get("fn")] {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	spec, err := textfile.ReadCSVSpec(q, typeFromText)
	if err != nil {
		return nil, true, err
	}
	if alias == "" {
		alias = spec.Fn
	}
	shown, paths, err := p.metaPaths(spec.Patterns)
	if err != nil {
		return nil, true, err
	}
	if spec.Fn == "sniff_csv" {
		rel, err := sniffRelation(spec, alias, shown[0], paths[0])
		return rel, true, err
	}
	scan, cols, err := spec.Plan(shown, paths)
	if err != nil {
		return nil, true, err
	}
	return sourceRelation(alias, scan, cols), true, nil
}

// typeFromText is the type a name such as 'DECIMAL(10,2)' stands for.
func typeFromText(text string) (Type, error) {
	toks, err := parse.Lex(text)
	if err != nil {
		return Type{}, err
	}
	toks = parse.Significant(toks)
	t, j, err := ReadType(text, toks, 0)
	if err == nil && j != len(toks) {
		err = errorf("%q is not a type", text)
	}
	return t, err
}

var tSniffColumns = Type{Kind: KNested, Elem: &Type{Kind: KNested, Fields: []NamedType{{Name: "name", Type: TString}, {Name: "type", Type: TString}}}}

// sniffRelation is sniff_csv's row for a file, as DuckDB's.
func sniffRelation(spec *textfile.CSVSpec, alias, shown, path string) (*Relation, error) {
	sn, err := spec.Sniff(path, shown)
	if err != nil {
		return nil, err
	}
	c := &CatalogRows{N: 1}
	c.Col("Delimiter", TString).Add(sn.Delimiter)
	c.Col("Quote", TString).Add(sn.Quote)
	c.Col("Escape", TString).Add(sn.Escape)
	c.Col("NewLineDelimiter", TString).Add(`\n`)
	c.Col("Comment", TString).Add(sn.Comment)
	c.Col("SkipRows", Type{Kind: KUint, Bits: 32}).Add(uint64(sn.SkipRows))
	c.Col("HasHeader", Type{Kind: KBool}).Add(sn.HasHeader)
	cols := make([]any, len(sn.Columns))
	for i, col := range sn.Columns {
		cols[i] = map[string]any{"name": col.Name, "type": col.Type.SQLName()}
	}
	c.Col("Columns", tSniffColumns).Add(cols)
	c.Col("DateFormat", TString).Add(nilIfEmpty(sn.DateFormat))
	c.Col("TimestampFormat", TString).Add(nilIfEmpty(sn.TimestampFormat))
	c.Col("UserArguments", TString).Add(nilIfEmpty(sn.UserArguments))
	c.Col("Prompt", TString).Add(sn.Prompt)
	return c.Relation(alias, "SNIFF_CSV"), nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// csvMarker begins the table name of a CSV file's relation.
const csvMarker = "__carquet_csv__:"

// CSVRelationName is the marker name of table's CSV file path, read in
// dialect d: notNull are FORCE_NOT_NULL's columns, sniff what the sniffer
// is to find in the file (COPY ... FROM's csvOptions).
func CSVRelationName(table, path string, d textfile.Dialect, notNull, sniff []string) string {
	v := url.Values{}
	v.Set("table", table)
	v.Set("path", path)
	v.Set("dialect", string([]byte{d.Delim, d.Quote, d.Escape}))
	v.Set("header", strconv.FormatBool(d.Header))
	v.Set("quoted_nulls", strconv.FormatBool(d.QuotedNulls))
	v["not_null"] = notNull
	v["sniff"] = sniff
	return csvMarker + v.Encode()
}

// CSVRelation is the relation of a CSV marker name; ok is false for
// other names.
func (p *Planner) CSVRelation(name, alias string) (*Relation, bool, error) {
	enc, ok := strings.CutPrefix(name, csvMarker)
	if !ok {
		return nil, false, nil
	}
	v, err := url.ParseQuery(enc)
	dialect := v.Get("dialect")
	if err != nil || len(dialect) != 3 {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	path := v.Get("path")
	if err := p.Cat.Confine().Check(path, false); err != nil {
		return nil, true, &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	table, types, err := p.Cat.TableColumns(v.Get("table"))
	if err != nil {
		return nil, true, err
	}
	cols := make([]Column, len(types))
	notNull := make([]bool, len(types))
	for i, c := range types {
		cols[i] = Column{Name: c.Name, Type: TString, Nullable: true}
	}
	for _, n := range v["not_null"] {
		k := columnIndexFold(types, n)
		if k < 0 {
			return nil, true, errorf("COPY %s FROM %s: FORCE_NOT_NULL names %q, which is not a column of %s", table, parse.QuoteString(path), n, table)
		}
		notNull[k] = true
	}
	d := textfile.Dialect{Delim: dialect[0], Quote: dialect[1], Escape: dialect[2], Header: v.Get("header") == "true", QuotedNulls: v.Get("quoted_nulls") == "true"}
	scan := textfile.NewCopyScan(path, d, notNull)
	if len(v["sniff"]) > 0 {
		scan.SniffDialect(types, v["sniff"])
	}
	if alias == "" {
		alias = table
	}
	return nodeRelation(alias, sourceNode{scan}, cols), true, nil
}

// columnIndexFold is the index of the column named name, in any case, or
// -1.
func columnIndexFold(cols []NamedType, name string) int {
	for i, c := range cols {
		if strings.EqualFold(c.Name, name) {
			return i
		}
	}
	return -1
}

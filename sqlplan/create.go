package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// CREATE TABLE, COPY and DROP TABLE: column definitions, writer options,
// encryption keys, and the files and folders they make or remove.

// createSpec is a parsed CREATE TABLE.
type createSpec struct {
	cols    []NamedType
	notNull []bool
	options map[string]string
	// delta: USING delta, a Delta table (delta_write.go), partitioned by
	// the columns partitionBy names.
	delta       bool
	partitionBy []string
	// properties are TBLPROPERTIES ('delta.x' = 'v', ...), a Delta
	// table's configuration.
	properties map[string]string
	// The constraints (constraints.go), kept in options for the table's
	// later INSERTs and UPDATEs.
	primary  []string
	unique   [][]string
	defaults map[string]string // column -> expression text
	checks   []string          // expression texts
	foreign  []foreignKey
}

var tableOptions = map[string]string{
	"compression":    "codec of the file: none, snappy, gzip, zstd, lz4_raw, brotli",
	"row_group_rows": "rows per row group",
	"bloom_filter":   "columns with bloom filters, comma-separated",
	"sorted_by":      "sorting columns recorded in the footer: 'col [DESC], ...'",
	"dictionary":     "dictionary encoding on or off",
	"page_rows":      "rows per data page at most",
	"auto_optimize":  "compact the table when an INSERT leaves more than this many small row groups (or files of a folder table); 0: never",
	"kv_metadata":    "footer key/value metadata, as a URL query (COPY's KV_METADATA {key: 'value'})",
}

// prepareCreate parses CREATE TABLE itself: the parser's grammar lacks
// BOOLEAN, UUID, LIST and STRUCT types and CREATE TABLE AS.
func (e *Engine) prepareCreate(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	i := 1
	word := func(k int) string {
		if k < len(toks) && toks[k].Kind == parse.Ident {
			return strings.ToLower(toks[k].Text)
		}
		return ""
	}
	op := func(k int, o string) bool { return k < len(toks) && toks[k].Kind == parse.Op && toks[k].Text == o }
	fail := func(k int, format string, args ...any) error {
		pos := len(text)
		if k < len(toks) {
			pos = toks[k].Pos
		}
		return errAt(text, pos, format, args...)
	}
	if word(i) == "or" && word(i+1) == "replace" {
		s.replace = true
		i += 2
	}
	if word(i) == "temp" || word(i) == "temporary" {
		s.temp = true
		i++
	}
	if word(i) != "table" {
		e := fail(i, "CREATE %s is not supported", strings.ToUpper(word(i)))
		e.(*Error).Err = ErrUnsupported
		return nil, e
	}
	i++
	if word(i) == "if" && word(i+1) == "not" && word(i+2) == "exists" {
		if s.replace {
			return nil, fail(i, "CREATE OR REPLACE TABLE takes no IF NOT EXISTS")
		}
		s.ifMod = true
		i += 3
	}
	if i >= len(toks) || toks[i].Kind == parse.Op {
		return nil, fail(i, "expected a table name")
	}
	s.table = toks[i].Name()
	if name, next, ok := parse.QualifiedName(toks, i); ok {
		s.table, i = name, next-1 // db.t (attach.go)
	}
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	i++
	spec := &createSpec{options: map[string]string{}}
	s.create = spec
	if op(i, "(") {
		i++
		for {
			if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
				return nil, fail(i, "expected a column name")
			}
			name := toks[i].Name()
			after := "a table constraint"
			if toks[i].Kind == parse.Ident && tableConstraintWords[strings.ToLower(name)] {
				next, err := readTableConstraint(text, toks, i, spec)
				if err != nil {
					return nil, err
				}
				i = next
			} else {
				next, err := readColumnDef(text, toks, i, name, spec, e.userType)
				if err != nil {
					return nil, err
				}
				i, after = next, fmt.Sprintf("column %q", name)
			}
			if op(i, ",") {
				i++
				continue
			}
			if op(i, ")") {
				i++
				break
			}
			return nil, fail(i, "expected , or ) after %s", after)
		}
	}
	// Table options: WITH (k = v, ...) or k = v ...
	if word(i) == "with" && op(i+1, "(") {
		i += 2
		for !op(i, ")") {
			if i >= len(toks) {
				return nil, fail(i, "unterminated WITH (...)")
			}
			k, next, err := readOption(text, toks, i, spec)
			if err != nil {
				return nil, err
			}
			_ = k
			i = next
			if op(i, ",") {
				i++
			}
		}
		i++
	}
	for i < len(toks) && word(i) != "as" {
		if word(i) == "tblproperties" {
			next, err := readProperties(text, toks, i+1, spec)
			if err != nil {
				return nil, err
			}
			i = next
			continue
		}
		if word(i) == "partitioned" && word(i+1) == "by" {
			next, err := readPartitionBy(text, toks, i+2, spec)
			if err != nil {
				return nil, err
			}
			i = next
			continue
		}
		if word(i) == "using" {
			switch word(i + 1) {
			case "delta":
				spec.delta = true
			case "parquet":
			default:
				return nil, fail(i+1, "expected USING delta or USING parquet")
			}
			i += 2
			continue
		}
		next, err := func() (int, error) {
			_, n, err := readOption(text, toks, i, spec)
			return n, err
		}()
		if err != nil {
			return nil, err
		}
		i = next
		if op(i, ",") {
			i++
		}
	}
	if word(i) == "as" {
		if len(spec.cols) > 0 {
			return nil, fail(i, "CREATE TABLE AS takes no column list")
		}
		inner, err := e.prepareTokens(ctx, text, toks[i+1:])
		if err != nil {
			return nil, err
		}
		if inner.kind != kindSelect && inner.kind != kindSetOp {
			return nil, fail(i+1, "CREATE TABLE AS takes a SELECT")
		}
		s.kind, s.inner = kindCreateAs, inner
		return s, nil
	}
	if len(spec.cols) == 0 {
		return nil, fail(i, "CREATE TABLE needs a column list or AS SELECT")
	}
	if err := spec.settleConstraints(); err != nil {
		return nil, err
	}
	s.kind = kindCreate
	return s, nil
}

// readColumnDef reads the column definition of column name (its type at
// toks[i+1], then NULL, NOT NULL and constraints) into spec and returns
// where it ends.
func readColumnDef(text string, toks []parse.Token, i int, name string, spec *createSpec, ut plan.UserTypes) (int, error) {
	t, i, err := plan.ReadNestedType(text, toks, i+1, ut)
	if err != nil {
		return i, err
	}
	notNull := false
	for i < len(toks) && toks[i].Kind == parse.Ident {
		switch w := strings.ToLower(toks[i].Text); {
		case w == "not" && i+1 < len(toks) && toks[i+1].Is("null"):
			notNull = true
			i += 2
			continue
		case w == "null":
			i++
			continue
		case w == "generated":
			return i, &Error{Msg: "GENERATED in a column definition is not supported", Offset: toks[i].Pos, Err: ErrUnsupported}
		case columnConstraintWords[w]:
			next, pk, err := readColumnConstraint(text, toks, i, name, spec)
			if err != nil {
				return i, err
			}
			notNull = notNull || pk
			i = next
			continue
		}
		break
	}
	for _, c := range spec.cols {
		if strings.EqualFold(c.Name, name) {
			return i, errAt(text, parse.TokPos(text, toks, i-1), "column %q is defined twice", name)
		}
	}
	spec.cols = append(spec.cols, NamedType{Name: name, Type: t})
	spec.notNull = append(spec.notNull, notNull)
	return i, nil
}

// prepareCopy parses COPY (query) TO 'file.parquet' [(options)] and COPY
// table TO ...: the query's rows written to a Parquet file, which they
// replace if it exists (as CREATE OR REPLACE TABLE 'file.parquet' AS
// query). Options, in parentheses or after WITH, as DuckDB spells them:
// FORMAT PARQUET, COMPRESSION (or CODEC) name, ROW_GROUP_SIZE rows, and
// the table options of CREATE TABLE (row_group_rows, dictionary, ...).
func (e *Engine) prepareCopy(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	fail := func(k int, format string, args ...any) error {
		pos := len(text)
		if k < len(toks) {
			pos = toks[k].Pos
		}
		return errAt(text, pos, format, args...)
	}
	i := 1
	var query []parse.Token
	switch {
	case i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(":
		end := parse.ClosingParen(toks, i)
		if end < 0 {
			return nil, fail(i, "unmatched ( after COPY")
		}
		query, i = toks[i+1:end], end+1
	case i < len(toks) && toks[i].Kind != parse.Op:
		name := toks[i]
		query = []parse.Token{{Kind: parse.Ident, Text: "SELECT", Pos: name.Pos}, {Kind: parse.Op, Text: "*", Pos: name.Pos}, {Kind: parse.Ident, Text: "FROM", Pos: name.Pos}, name}
		i++
	default:
		return nil, fail(i, "COPY takes a table or a (query), then TO 'file.parquet'")
	}
	if i < len(toks) && toks[i].Is("from") {
		return e.prepareCopyFrom(ctx, text, toks, i) // export.go
	}
	if i >= len(toks) || !toks[i].Is("to") || i+1 >= len(toks) || toks[i+1].Kind != parse.String {
		return nil, fail(i, "expected TO 'file.parquet'")
	}
	s.table = toks[i+1].Unquoted()
	if isJSONCopy(s.table, toks[i+2:]) {
		return e.prepareCopyJSON(ctx, s, text, toks, query, i+2) // jsoncopy.go
	}
	if copyToCSV(s.table, toks, i+2) {
		return e.prepareCopyCSV(ctx, s, text, toks, query, s.table, i+2) // csvcopy.go
	}
	if !strings.HasSuffix(strings.ToLower(s.table), ".parquet") {
		return nil, fail(i+1, "COPY writes Parquet files: name the file .parquet")
	}
	i += 2
	if i < len(toks) && toks[i].Is("with") {
		i++
	}
	spec := &createSpec{options: map[string]string{}}
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
		end := parse.ClosingParen(toks, i)
		if end < 0 {
			return nil, fail(i, "unmatched ( in the COPY options")
		}
		for _, item := range parse.SplitList(toks[i+1 : end]) {
			if len(item) > 0 && item[len(item)-1].Kind == parse.Op && item[len(item)-1].Text == "=" {
				return nil, fail(i, "a COPY option without a value")
			}
			if len(item) > 1 && item[0].Is("kv_metadata") {
				kv, err := kvMetadataOption(text, item[1:]) // copyoptions.go
				if err != nil {
					return nil, err
				}
				spec.options["kv_metadata"] = kv
				continue
			}
			if len(item) == 3 && item[1].Kind == parse.Op && item[1].Text == "=" {
				item = []parse.Token{item[0], item[2]}
			}
			if len(item) != 2 {
				return nil, fail(i, "COPY options are written NAME value, ...")
			}
			key, val := strings.ToLower(item[0].Text), item[1].Unquoted()
			if item[1].Kind == parse.Ident || item[1].Kind == parse.Number {
				val = item[1].Text
			}
			switch key {
			case "format":
				if !strings.EqualFold(val, "parquet") {
					return nil, &Error{Msg: "COPY to " + strings.ToUpper(val) + " is not supported (pqsql export writes CSV and JSON Lines)", Offset: item[1].Pos, Err: ErrUnsupported}
				}
				continue
			case "codec":
				key = "compression"
			case "row_group_size":
				key = "row_group_rows"
			}
			if _, ok := tableOptions[key]; !ok {
				return nil, fail(i, "unknown COPY option %q", item[0].Text)
			}
			spec.options[key] = strings.ToLower(val)
		}
		i = end + 1
	}
	if i < len(toks) && !(toks[i].Kind == parse.Op && toks[i].Text == ";") {
		return nil, fail(i, "unexpected %q after the COPY options", toks[i].Text)
	}
	inner, err := e.prepareTokens(ctx, text, query)
	if err != nil {
		return nil, err
	}
	if inner.kind != kindSelect && inner.kind != kindSetOp {
		return nil, fail(1, "COPY takes a table or a (SELECT ...)")
	}
	s.kind, s.inner, s.create, s.replace = kindCopy, inner, spec, true
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

func readOption(text string, toks []parse.Token, i int, spec *createSpec) (string, int, error) {
	if i >= len(toks) || toks[i].Kind != parse.Ident {
		pos := len(text)
		if i < len(toks) {
			pos = toks[i].Pos
		}
		return "", i, errAt(text, pos, "expected a table option")
	}
	k := strings.ToLower(toks[i].Text)
	if _, ok := tableOptions[k]; !ok {
		names := make([]string, 0, len(tableOptions))
		for n := range tableOptions {
			names = append(names, n)
		}
		return "", i, errAt(text, toks[i].Pos, "unknown table option %q%s", k, suggest(k, names))
	}
	i++
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "=" {
		i++
	}
	if i >= len(toks) {
		return "", i, errAt(text, len(text), "table option %s needs a value", k)
	}
	spec.options[k] = toks[i].Unquoted()
	return k, i + 1, nil
}

// fieldOf maps a SQL type to a writer field.
func fieldOf(name string, t Type, notNull bool) (writer.Field, error) {
	var f writer.Field
	switch t.Kind {
	case KBool:
		f = writer.Bool(name)
	case KInt:
		if t.Bits == 0 || t.Bits == 64 {
			f = writer.Int64(name)
		} else {
			f = writer.Integer(name, t.Bits, true)
		}
	case KUint:
		bits := t.Bits
		if bits == 0 {
			bits = 64
		}
		f = writer.Integer(name, bits, false)
	case KFloat:
		if t.Float32 {
			f = writer.Float(name)
		} else {
			f = writer.Double(name)
		}
	case KDecimal:
		f = writer.Decimal(name, t.Prec, t.Scale)
	case KUHuge:
		f = writer.Decimal(name, 38, 0) // lossless to 38 digits (DuckDB's COPY writes a DOUBLE)
	case KString:
		if t.JSON {
			f = writer.JSON(name)
		} else {
			f = writer.String(name)
		}
	case KBytes:
		f = writer.Binary(name)
	case KEnum:
		f = writer.Enum(name) // its values recorded in the footer (columnTypesKV)
	case KDate:
		f = writer.Date(name)
	case KTime:
		f = writer.Time(name, plan.TimeUnitOf(t), false) // TIME, not TIMETZ
	case KTimeTZ:
		f = writer.Time(name, writer.Micros, true) // the UTC time, as DuckDB
	case KTimestamp:
		f = writer.Timestamp(name, plan.TimeUnitOf(t), t.TZ)
	case KUUID:
		f = writer.UUID(name)
	case KInterval:
		f = writer.Interval(name)
	case KNested:
		if t.Field != nil {
			return writerFieldOf(t.Field)
		}
		switch {
		case t.Elem != nil:
			el, err := fieldOf("element", *t.Elem, false)
			if err != nil {
				return f, err
			}
			f = writer.List(name, el)
		case t.MapOf:
			k, err := fieldOf("key", t.Fields[0].Type, true)
			if err != nil {
				return f, err
			}
			v, err := fieldOf("value", t.Fields[1].Type, false)
			if err != nil {
				return f, err
			}
			f = writer.Map(name, k, v)
		default:
			var kids []writer.Field
			for _, c := range t.Fields {
				k, err := fieldOf(c.Name, c.Type, false)
				if err != nil {
					return f, err
				}
				kids = append(kids, k)
			}
			f = writer.Group(name, kids...)
		}
	case KNull:
		f = writer.Int32(name)
	default:
		return f, errorf("column %q: type %s cannot be stored", name, t.SQLName())
	}
	if notNull {
		f = f.Required()
	}
	return f, nil
}

// writerFieldOf rebuilds a writer field from a schema field (CREATE TABLE
// AS of nested columns).
func writerFieldOf(sf *schema.Field) (writer.Field, error) {
	var f writer.Field
	switch sf.Kind {
	case schema.Primitive:
		n := sf.Node
		f = writer.Leaf(sf.Name, n.Physical, n.TypeLength, n.Logical)
	case schema.Struct:
		var kids []writer.Field
		for _, c := range sf.Children {
			k, err := writerFieldOf(c)
			if err != nil {
				return f, err
			}
			kids = append(kids, k)
		}
		f = writer.Group(sf.Name, kids...)
	case schema.List:
		el, err := writerFieldOf(sf.Children[0])
		if err != nil {
			return f, err
		}
		f = writer.List(sf.Name, el)
	case schema.Map:
		k, err := writerFieldOf(sf.Children[0])
		if err != nil {
			return f, err
		}
		if len(sf.Children) > 1 {
			v, err := writerFieldOf(sf.Children[1])
			if err != nil {
				return f, err
			}
			f = writer.Map(sf.Name, k.Required(), v)
		} else {
			f = writer.Map(sf.Name, k.Required())
		}
	}
	if !sf.Nullable {
		f = f.Required()
	}
	return f, nil
}

// writeOptions turns engine and table options into writer options.
func (e *Engine) writeOptions(opts map[string]string) ([]writer.Option, error) {
	codec := e.opts.Compression
	if c, ok := opts["compression"]; ok {
		codec = c
	}
	var out []writer.Option
	switch strings.ToLower(codec) {
	case "", "snappy":
		out = append(out, writer.WithCompression(format.Snappy))
	case "none", "uncompressed":
		out = append(out, writer.WithCompression(format.Uncompressed))
	case "gzip":
		out = append(out, writer.WithCompression(format.Gzip))
	case "zstd":
		out = append(out, writer.WithCompression(format.Zstd))
	case "lz4_raw", "lz4":
		out = append(out, writer.WithCompression(format.LZ4Raw))
	case "brotli":
		out = append(out, writer.WithCompression(format.Brotli))
	default:
		return nil, errorf("unknown compression %q (none, snappy, gzip, zstd, lz4_raw, brotli)", codec)
	}
	rows := e.opts.RowGroupRows
	if v, ok := opts["row_group_rows"]; ok {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			return nil, errorf("row_group_rows must be a positive count, not %q", v)
		}
		rows = n
	}
	if rows > 0 {
		out = append(out, writer.WithRowGroupRows(rows))
	}
	var bloom []string
	if v, ok := opts["bloom_filter"]; ok {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" && !slices.Contains(bloom, c) {
				bloom = append(bloom, c)
			}
		}
	}
	for _, c := range indexedColumns(opts) { // index.go
		if !slices.Contains(bloom, c) {
			bloom = append(bloom, c)
		}
	}
	for _, c := range bloom {
		out = append(out, writer.WithBloomFilterFor(c, 0, writer.DefaultBloomFPP))
	}
	if v, ok := opts["kv_metadata"]; ok {
		kv, err := url.ParseQuery(v)
		if err != nil {
			return nil, errorf("kv_metadata: %v", err)
		}
		for _, k := range slices.Sorted(maps.Keys(kv)) {
			out = append(out, writer.WithKeyValue(k, kv.Get(k)))
		}
	}
	if v, ok := opts["sorted_by"]; ok {
		var cols []writer.SortingColumn
		for _, c := range strings.Split(v, ",") {
			f := strings.Fields(c)
			if len(f) == 0 {
				continue
			}
			sc := writer.SortingColumn{Path: f[0]}
			if len(f) > 1 && strings.EqualFold(f[1], "desc") {
				sc.Descending = true
			}
			cols = append(cols, sc)
		}
		out = append(out, writer.WithSortingColumns(cols...))
	}
	if v, ok := opts["dictionary"]; ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return nil, errorf("dictionary must be true or false, not %q", v)
		}
		out = append(out, writer.WithDictionary(b))
	}
	if v, ok := opts["page_rows"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return nil, errorf("page_rows must be a positive count, not %q", v)
		}
		out = append(out, writer.WithPageRowLimit(n))
	}
	if _, err := autoOptimizeLimit(opts); err != nil {
		return nil, err
	}
	if enc := e.encryption(); enc != nil {
		out = append(out, writer.WithEncryption(*enc))
	}
	return out, nil
}

// encryption is how statements encrypt the files they write: with the
// footer key of Options.Decryption, the columns of its ColumnKeys with
// their keys and the others in plaintext (all with the footer key when
// it names none, as Parquet's key tools do), an encrypted footer, and
// its AAD prefix stored. Nil without a footer key: files are written in
// plaintext. An INSERT into an existing file keeps that file's
// encryption (writer.Append).
func (e *Engine) encryption() *writer.Encryption {
	d := e.opts.Decryption
	if d == nil || d.FooterKey == nil {
		return nil
	}
	enc := &writer.Encryption{FooterKey: d.FooterKey, AADPrefix: d.AADPrefix, SharedColumnKeys: true}
	if d.ColumnKeys != nil {
		enc.ColumnKeys = map[string]writer.ColumnKey{}
		for path, k := range d.ColumnKeys {
			enc.ColumnKeys[path] = writer.ColumnKey{Key: k}
		}
	}
	return enc
}

// optionsKey is the footer key-value entry that keeps a table's CREATE
// TABLE options, so that INSERTs write row groups the same way.
const optionsKey = "carquet.table_options"

func encodeOptions(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(k) + "=" + url.QueryEscape(m[k]))
	}
	return b.String()
}

func decodeOptions(f interface{ KeyValue(string) (string, bool) }) map[string]string {
	v, ok := f.KeyValue(optionsKey)
	if !ok {
		return nil
	}
	q, err := url.ParseQuery(v)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for k, vs := range q {
		if _, known := tableOptions[k]; (known || isConstraintKey(k) || strings.HasPrefix(k, indexOptionPrefix)) && len(vs) > 0 && k != "sorted_by" {
			out[k] = vs[0]
		}
	}
	return out
}

func (s *Stmt) createTable(ctx context.Context, p *plan.Planner) (Result, error) {
	if s.create != nil && s.create.delta {
		return s.createDelta(ctx, p)
	}
	if s.create != nil && (len(s.create.partitionBy) > 0 || s.create.properties != nil) {
		return Result{}, unsupported("PARTITIONED BY and TBLPROPERTIES of a table that is not a Delta table (CREATE TABLE ... USING delta)")
	}
	if parse.IsPathName(s.table) && !strings.HasSuffix(s.table, ".parquet") {
		return Result{}, errorf("cannot create table %q: name it plainly or as a .parquet file", s.table)
	}
	if s.temp && parse.IsPathName(s.table) {
		return Result{}, errorf("a temporary table is named plainly, not %q", s.table)
	}
	if s.e.file != "" && !parse.IsPathName(s.table) && !s.temp {
		return Result{}, errorf("cannot create table %q: the database is the single file %s", s.table, s.e.file)
	}
	resolve := s.e.tablePath
	if stmtOf(p).tx != nil {
		resolve = stmtOf(p).tx.tablePath
	}
	path, exists, err := resolve(s.table)
	if err != nil {
		return Result{}, err
	}
	if s.temp {
		// A temporary table lives in the engine's temporary folder; it
		// hides a table of the root of the same name while it exists.
		dir, err := s.e.tempDir()
		if err != nil {
			return Result{}, err
		}
		if stmtOf(p).tx != nil {
			path, exists = stmtOf(p).tx.tempTable(s.table)
		} else {
			path, exists = s.e.tempTable(s.table)
		}
		if path == "" {
			path = filepath.Join(dir, s.table+".parquet")
		}
	} else if err := s.e.writable(path); err != nil {
		return Result{}, err
	}
	// A first look, to fail before running a query; the decision is taken
	// again under the lock, below.
	if exists {
		if done, err := s.existingIn(path, stmtOf(p).tx); done || err != nil {
			return Result{}, err
		}
	}
	fields, data, n, typesKV, err := s.createColumnsTypes(ctx, p)
	if err != nil {
		return Result{}, err
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		return Result{}, err
	}
	var tableOpts map[string]string
	if s.create != nil {
		tableOpts = s.create.options
	}
	opts, err := s.e.writeOptions(tableOpts)
	if err != nil {
		return Result{}, err
	}
	if len(tableOpts) > 0 {
		opts = append(opts, writer.WithKeyValue(optionsKey, encodeOptions(tableOpts)))
	}
	if typesKV != "" {
		opts = append(opts, writer.WithKeyValue(schema.ColumnTypesKey, typesKV))
	}
	fill := func(w *writer.Writer) error {
		if n == 0 {
			return nil
		}
		lfields := w.Fields()
		vecs := make([]*vector.Vector, len(lfields))
		for k, f := range lfields {
			var err error
			if vecs[k], err = plan.ToVector(data[k], f); err != nil {
				return errorf("column %q: %v", f.Name, err)
			}
		}
		return w.WriteBatch(vecs)
	}
	if stmtOf(p).tx != nil {
		// The new table (or the replacing one) is staged for COMMIT.
		return Result{RowsAffected: int64(n)}, stmtOf(p).tx.stage(path, s.table, sch, fill, opts)
	}
	s.e.writeMu.Lock()
	defer s.e.writeMu.Unlock()
	// Whether the table exists is decided under the lock: another
	// statement (of this engine or another process) may have created or
	// dropped it since the first look.
	if !s.temp {
		if path, exists, err = s.e.tablePath(s.table); err != nil {
			return Result{}, err
		}
	} else {
		_, exists = s.e.tempTable(s.table)
	}
	defer s.e.forget(path)
	replace := func() (Result, error) {
		if done, err := s.existing(path); done || err != nil {
			return Result{}, err
		}
		// OR REPLACE: in place of the old file, under its append lock.
		return Result{RowsAffected: int64(n)}, writer.Rewrite(path, sch, fill, opts...)
	}
	if exists {
		return replace()
	}
	if objstore.IsURL(path) {
		if err := s.e.createRemote(ctx, path, sch, opts, fill); err != nil {
			return Result{}, err
		}
		return Result{RowsAffected: int64(n)}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return Result{}, err
	}
	// What CREATE TABLEs killed before they finished left is garbage.
	writer.RemoveStaleTemps(filepath.Dir(path))
	// CreateNew never replaces a file: when another process created the
	// table meanwhile, its table (and the rows it took) stays.
	w, err := writer.CreateNew(path, sch, opts...)
	if err != nil {
		return Result{}, err
	}
	if err := fill(w); err != nil {
		w.Abort()
		return Result{}, err
	}
	if err := w.Close(); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return replace()
		}
		return Result{}, err
	}
	return Result{RowsAffected: int64(n)}, nil
}

// existing decides what CREATE does about a table that exists at path:
// nothing with IF NOT EXISTS (done), an error without OR REPLACE, or an
// error when OR REPLACE may not replace it.
func (s *Stmt) existing(path string) (done bool, err error) {
	return s.existingIn(path, nil)
}

// existingIn is existing as transaction tx (nil: none) sees the table:
// one it wrote anew is a file it may replace.
func (s *Stmt) existingIn(path string, tx *Tx) (done bool, err error) {
	switch {
	case s.ifMod:
		return true, nil
	case !s.replace:
		return true, errorf("table %q already exists (use CREATE OR REPLACE TABLE)", s.table)
	case tx != nil && tx.hasStaged(path):
		return false, nil
	}
	return false, s.e.replaceable(s.table, path)
}

// replaceable checks that CREATE OR REPLACE (or COPY) may replace the
// table at path: one Parquet file, not a folder of them, a Delta table or
// the database's own file.
func (e *Engine) replaceable(name, path string) error {
	if err := remoteRewrite(path, "CREATE OR REPLACE"); err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	switch {
	case strings.ContainsAny(name, "*?["):
		return errorf("cannot replace %q: a glob", name)
	case st.IsDir():
		return unsupported(fmt.Sprintf("replacing %q, a folder of files", name))
	case e.file != "" && path == e.file:
		return errorf("cannot replace the database's own file")
	}
	return nil
}

func (s *Stmt) dropTable(tx *Tx) (Result, error) {
	if strings.ContainsAny(s.table, "*?[") {
		return Result{}, errorf("DROP TABLE does not take globs")
	}
	resolve := s.e.tablePath
	if tx != nil {
		// The table's files go at COMMIT (txstage.go).
		resolve = tx.tablePath
	} else {
		s.e.writeMu.Lock()
		defer s.e.writeMu.Unlock()
	}
	// Decided under the lock: whether the table exists, and what it is.
	path, exists, err := resolve(s.table)
	if err != nil {
		return Result{}, err
	}
	if !exists {
		if s.ifMod {
			return Result{}, nil
		}
		names := s.e.TableNames()
		if tx != nil {
			names = tx.tableNames()
		}
		e := errorf("table %q does not exist%s", s.table, suggest(s.table, names))
		e.Err = ErrNoTable
		return Result{}, s.Src.Locate(e, s.table)
	}
	if s.e.file != "" && path == s.e.file {
		return Result{}, errorf("cannot drop the database's own file")
	}
	if err := s.e.writable(path); err != nil {
		return Result{}, err
	}
	if objstore.IsURL(path) {
		if tx != nil {
			// Its objects go at COMMIT (txremote.go).
			return Result{}, tx.drop(path, s.table)
		}
		defer s.e.forget(path)
		return Result{}, s.e.dropRemote(path)
	}
	if tx != nil && tx.hasStaged(path) {
		return Result{}, tx.drop(path, s.table)
	}
	st, err := os.Lstat(path)
	if err != nil {
		return Result{}, err
	}
	// A Delta table goes whole, its log and history with its data files
	// (as DROP TABLE of a Spark table does): DuckDB's delta extension
	// cannot drop one.
	if st.IsDir() && delta.IsTable(path) {
		err = s.deltaDroppable(path) // folderdml.go
	} else {
		err = s.droppable(path, st)
	}
	if err != nil {
		return Result{}, err
	}
	if tx != nil {
		return Result{}, tx.drop(path, s.table)
	}
	defer s.e.forget(path)
	if st.IsDir() {
		return Result{}, dropFolder(path)
	}
	// Under the file's append lock, so that an append in progress (in
	// this or another process) finishes first, and one that waits fails
	// instead of writing to a removed file.
	return Result{}, writer.Remove(path)
}

// droppable checks that DROP TABLE may remove what is at path (st): a
// folder table, or a regular Parquet file.
func (s *Stmt) droppable(path string, st os.FileInfo) error {
	switch {
	case st.IsDir():
		if err := tableFolder(path, s.e.root); err != nil {
			return errorf("DROP TABLE %s: %v: nothing was removed", s.table, err)
		}
		return nil
	case !st.Mode().IsRegular():
		return errorf("DROP TABLE %s: %s is not a regular file: nothing was removed", s.table, path)
	}
	if ok, err := isParquetFile(path); err != nil {
		return err
	} else if !ok {
		return errorf("DROP TABLE %s: %s is not a Parquet file: nothing was removed", s.table, path)
	}
	return nil
}

// createColumns is the columns of a CREATE TABLE: those given, or the
// query's with its rows.
func (s *Stmt) createColumns(ctx context.Context, p *plan.Planner) (fields []writer.Field, data []*Col, n int, err error) {
	fields, data, n, _, err = s.createColumnsTypes(ctx, p)
	return fields, data, n, err
}

// createColumnsTypes is createColumns with the key-value metadata that
// records the SQL types the Parquet types do not convey (see
// columnTypesKV); "" when there are none; COPY records only the values of
// ENUM columns (DuckDB's COPY writes a TIMESTAMP_S as a TIMESTAMP).
func (s *Stmt) createColumnsTypes(ctx context.Context, p *plan.Planner) (fields []writer.Field, data []*Col, n int, kv string, err error) {
	var names []string
	var types []Type
	defer func() {
		if err == nil {
			kv = columnTypesKV(names, types, s.kind == kindCopy)
		}
	}()
	if s.kind == kindCreateAs || s.kind == kindCopy {
		ip := p.Child(s.inner.Src)
		defer ip.ReleaseAll()
		sp, err := s.inner.Plan(ip)
		if err != nil {
			return nil, nil, 0, "", err
		}
		types = make([]Type, len(sp.Cols))
		seen := map[string]bool{}
		for i, c := range sp.Cols {
			types[i] = c.Type
			names = append(names, c.Name)
			if c.Type.Kind == KNull {
				types[i] = plan.TInt
			}
			if seen[strings.ToLower(c.Name)] {
				sp.Root.Close()
				return nil, nil, 0, "", errorf("CREATE TABLE AS: column name %q is used twice (use aliases)", c.Name)
			}
			seen[strings.ToLower(c.Name)] = true
			f, err := fieldOf(c.Name, types[i], false)
			if err != nil {
				sp.Root.Close()
				return nil, nil, 0, "", err
			}
			fields = append(fields, f)
		}
		b, err := plan.Drain(ctx, sp.Root, types)
		sp.Root.Close()
		if err != nil {
			return nil, nil, 0, "", err
		}
		n = b.N
		for i, c := range b.Cols {
			if c.T.Kind == KNull {
				c = plan.NullCol(types[i], n)
			}
			data = append(data, c)
		}
	} else {
		for i, c := range s.create.cols {
			names, types = append(names, c.Name), append(types, c.Type)
			f, err := fieldOf(c.Name, c.Type, s.create.notNull[i])
			if err != nil {
				return nil, nil, 0, "", err
			}
			fields = append(fields, f)
		}
	}
	return fields, data, n, kv, nil
}

// columnTypesKV is the value of the schema.ColumnTypesKey entry for
// columns of these names and types: the TIMESTAMP_S (a TIMESTAMP(MICROS)
// in the file, as DuckDB writes it), TIMESTAMP_MS, BIT (a UTF8 string)
// and HUGEINT and UHUGEINT (a DECIMAL(38,0)) columns, and ENUM columns
// (their value sets; the only ones when copying, for COPY), so that the
// table reads back with its declared types; "" when
// there are none.
func columnTypesKV(names []string, types []Type, copying bool) string {
	var b strings.Builder
	for i, t := range types {
		if copying && t.Kind != KEnum {
			continue
		}
		if !(t.Kind == KTimestamp && t.Coarse != 0 && !t.TZ && !t.Nanos || t.Kind == KString && t.Bit || t.Huge || t.Kind == KUHuge || t.Kind == KEnum) || strings.ContainsAny(names[i], "=\n") || strings.Contains(t.SQLName(), "\n") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(names[i] + "=" + t.SQLName())
	}
	return b.String()
}

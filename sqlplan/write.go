package sqlplan

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/carquet-go/carquet/delta"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/parquet/value"
	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/writer"
	"github.com/xwb1989/sqlparser"
)

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
}

// prepareCreate parses CREATE TABLE itself: the parser's grammar lacks
// BOOLEAN, UUID, LIST and STRUCT types and CREATE TABLE AS.
func (e *Engine) prepareCreate(ctx context.Context, s *Stmt, text string, toks []token) (*Stmt, error) {
	i := 1
	word := func(k int) string {
		if k < len(toks) && toks[k].kind == tkIdent {
			return strings.ToLower(toks[k].text)
		}
		return ""
	}
	op := func(k int, o string) bool { return k < len(toks) && toks[k].kind == tkOp && toks[k].text == o }
	fail := func(k int, format string, args ...any) error {
		pos := len(text)
		if k < len(toks) {
			pos = toks[k].pos
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
	if i >= len(toks) || toks[i].kind == tkOp {
		return nil, fail(i, "expected a table name")
	}
	s.table = tableToken(toks[i])
	s.src = &source{orig: text, toks: toks}
	i++
	spec := &createSpec{options: map[string]string{}}
	s.create = spec
	if op(i, "(") {
		i++
		for {
			if i >= len(toks) || toks[i].kind != tkIdent && toks[i].kind != tkQuoted && toks[i].kind != tkDQuoted {
				return nil, fail(i, "expected a column name")
			}
			name := tableToken(toks[i])
			after := "a table constraint"
			if toks[i].kind == tkIdent && tableConstraintWords[strings.ToLower(name)] {
				next, err := readTableConstraint(text, toks, i, spec)
				if err != nil {
					return nil, err
				}
				i = next
			} else {
				next, err := readColumnDef(text, toks, i, name, spec)
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

// deltaProperties are the table properties CREATE TABLE ... USING delta
// takes in TBLPROPERTIES, and the values each allows ("" for any): those
// this writer honours.
var deltaProperties = map[string][]string{
	"delta.columnMapping.mode":           {"none", "name", "id"},
	"delta.appendOnly":                   {"true", "false"},
	"delta.checkpointInterval":           nil, // checked: a positive integer
	"delta.deletedFileRetentionDuration": nil, // "interval <n> <unit>", read by VACUUM
}

// readProperties reads TBLPROPERTIES ('key' = 'value', ...), the list
// starting at toks[i], and returns where it ends.
func readProperties(text string, toks []token, i int, spec *createSpec) (int, error) {
	if i >= len(toks) || toks[i].kind != tkOp || toks[i].text != "(" {
		return i, errAt(text, tokPos(text, toks, i), "expected ( after TBLPROPERTIES")
	}
	end := closingParen(toks, i)
	if end < 0 {
		return i, errAt(text, tokPos(text, toks, i), "unmatched ( after TBLPROPERTIES")
	}
	if spec.properties == nil {
		spec.properties = map[string]string{}
	}
	for _, item := range splitList(toks[i+1 : end]) {
		if len(item) != 3 || item[0].kind != tkString || item[1].kind != tkOp || item[1].text != "=" || item[2].kind == tkOp {
			return i, errAt(text, tokPos(text, toks, i), "TBLPROPERTIES takes 'key' = 'value', ...")
		}
		k, v := item[0].unquoted(), item[2].unquoted()
		if item[2].kind == tkIdent || item[2].kind == tkNumber {
			v = item[2].text
		}
		var key string
		for name := range deltaProperties {
			if strings.EqualFold(name, k) {
				key = name
			}
		}
		if key == "" {
			return i, &Error{Msg: fmt.Sprintf("the table property %q is not supported", k), Offset: item[0].pos, Err: ErrUnsupported}
		}
		if allowed := deltaProperties[key]; allowed != nil && !slices.Contains(allowed, strings.ToLower(v)) {
			return i, errAt(text, item[2].pos, "table property %s takes %s, not %q", key, strings.Join(allowed, " or "), v)
		}
		if allowed := deltaProperties[key]; allowed != nil {
			v = strings.ToLower(v)
		}
		if n, err := strconv.Atoi(v); key == "delta.checkpointInterval" && (err != nil || n <= 0) {
			return i, errAt(text, item[2].pos, "table property %s takes a positive number of commits, not %q", key, v)
		}
		spec.properties[key] = v
	}
	return end + 1, nil
}

// readPartitionBy reads the column list of PARTITIONED BY (a, b, ...),
// which starts at toks[i], and returns where it ends.
func readPartitionBy(text string, toks []token, i int, spec *createSpec) (int, error) {
	if len(spec.partitionBy) > 0 {
		return i, errAt(text, tokPos(text, toks, i-2), "PARTITIONED BY is given twice")
	}
	if i >= len(toks) || toks[i].kind != tkOp || toks[i].text != "(" {
		return i, errAt(text, tokPos(text, toks, i), "expected ( after PARTITIONED BY")
	}
	end := closingParen(toks, i)
	if end < 0 {
		return i, errAt(text, tokPos(text, toks, i), "unmatched ( after PARTITIONED BY")
	}
	for _, item := range splitList(toks[i+1 : end]) {
		if len(item) != 1 || item[0].kind != tkIdent && item[0].kind != tkQuoted && item[0].kind != tkDQuoted {
			return i, errAt(text, tokPos(text, toks, i), "PARTITIONED BY takes a list of column names")
		}
		spec.partitionBy = append(spec.partitionBy, tableToken(item[0]))
	}
	if len(spec.partitionBy) == 0 {
		return i, errAt(text, tokPos(text, toks, i), "PARTITIONED BY takes a list of column names")
	}
	return end + 1, nil
}

// readColumnDef reads the column definition of column name (its type at
// toks[i+1], then NULL, NOT NULL and constraints) into spec and returns
// where it ends.
func readColumnDef(text string, toks []token, i int, name string, spec *createSpec) (int, error) {
	t, i, err := readNestedType(text, toks, i+1)
	if err != nil {
		return i, err
	}
	notNull := false
	for i < len(toks) && toks[i].kind == tkIdent {
		switch w := strings.ToLower(toks[i].text); {
		case w == "not" && i+1 < len(toks) && toks[i+1].is("null"):
			notNull = true
			i += 2
			continue
		case w == "null":
			i++
			continue
		case w == "generated":
			return i, &Error{Msg: "GENERATED in a column definition is not supported", Offset: toks[i].pos, Err: ErrUnsupported}
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
			return i, errAt(text, tokPos(text, toks, i-1), "column %q is defined twice", name)
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
func (e *Engine) prepareCopy(ctx context.Context, s *Stmt, text string, toks []token) (*Stmt, error) {
	fail := func(k int, format string, args ...any) error {
		pos := len(text)
		if k < len(toks) {
			pos = toks[k].pos
		}
		return errAt(text, pos, format, args...)
	}
	i := 1
	var query []token
	switch {
	case i < len(toks) && toks[i].kind == tkOp && toks[i].text == "(":
		end := closingParen(toks, i)
		if end < 0 {
			return nil, fail(i, "unmatched ( after COPY")
		}
		query, i = toks[i+1:end], end+1
	case i < len(toks) && toks[i].kind != tkOp:
		name := toks[i]
		query = []token{{kind: tkIdent, text: "SELECT", pos: name.pos}, {kind: tkOp, text: "*", pos: name.pos}, {kind: tkIdent, text: "FROM", pos: name.pos}, name}
		i++
	default:
		return nil, fail(i, "COPY takes a table or a (query), then TO 'file.parquet'")
	}
	if i < len(toks) && toks[i].is("from") {
		return nil, &Error{Msg: "COPY ... FROM is not supported (INSERT INTO t SELECT * FROM 'file' reads files)", Offset: toks[i].pos, Err: ErrUnsupported}
	}
	if i >= len(toks) || !toks[i].is("to") || i+1 >= len(toks) || toks[i+1].kind != tkString {
		return nil, fail(i, "expected TO 'file.parquet'")
	}
	s.table = toks[i+1].unquoted()
	if !strings.HasSuffix(strings.ToLower(s.table), ".parquet") {
		return nil, fail(i+1, "COPY writes Parquet files: name the file .parquet")
	}
	i += 2
	if i < len(toks) && toks[i].is("with") {
		i++
	}
	spec := &createSpec{options: map[string]string{}}
	if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "(" {
		end := closingParen(toks, i)
		if end < 0 {
			return nil, fail(i, "unmatched ( in the COPY options")
		}
		for _, item := range splitList(toks[i+1 : end]) {
			if len(item) > 0 && item[len(item)-1].kind == tkOp && item[len(item)-1].text == "=" {
				return nil, fail(i, "a COPY option without a value")
			}
			if len(item) == 3 && item[1].kind == tkOp && item[1].text == "=" {
				item = []token{item[0], item[2]}
			}
			if len(item) != 2 {
				return nil, fail(i, "COPY options are written NAME value, ...")
			}
			key, val := strings.ToLower(item[0].text), item[1].unquoted()
			if item[1].kind == tkIdent || item[1].kind == tkNumber {
				val = item[1].text
			}
			switch key {
			case "format":
				if !strings.EqualFold(val, "parquet") {
					return nil, &Error{Msg: "COPY to " + strings.ToUpper(val) + " is not supported (pqsql export writes CSV and JSON Lines)", Offset: item[1].pos, Err: ErrUnsupported}
				}
				continue
			case "codec":
				key = "compression"
			case "row_group_size":
				key = "row_group_rows"
			}
			if _, ok := tableOptions[key]; !ok {
				return nil, fail(i, "unknown COPY option %q", item[0].text)
			}
			spec.options[key] = strings.ToLower(val)
		}
		i = end + 1
	}
	if i < len(toks) && !(toks[i].kind == tkOp && toks[i].text == ";") {
		return nil, fail(i, "unexpected %q after the COPY options", toks[i].text)
	}
	inner, err := e.prepareTokens(ctx, text, query)
	if err != nil {
		return nil, err
	}
	if inner.kind != kindSelect && inner.kind != kindSetOp {
		return nil, fail(1, "COPY takes a table or a (SELECT ...)")
	}
	s.kind, s.inner, s.create, s.replace = kindCopy, inner, spec, true
	s.src = &source{orig: text, toks: toks}
	return s, nil
}

func readOption(text string, toks []token, i int, spec *createSpec) (string, int, error) {
	if i >= len(toks) || toks[i].kind != tkIdent {
		pos := len(text)
		if i < len(toks) {
			pos = toks[i].pos
		}
		return "", i, errAt(text, pos, "expected a table option")
	}
	k := strings.ToLower(toks[i].text)
	if _, ok := tableOptions[k]; !ok {
		names := make([]string, 0, len(tableOptions))
		for n := range tableOptions {
			names = append(names, n)
		}
		return "", i, errAt(text, toks[i].pos, "unknown table option %q%s", k, suggest(k, names))
	}
	i++
	if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "=" {
		i++
	}
	if i >= len(toks) {
		return "", i, errAt(text, len(text), "table option %s needs a value", k)
	}
	spec.options[k] = toks[i].unquoted()
	return k, i + 1, nil
}

// readNestedType reads a column type, including T[], LIST<T>, STRUCT<...>
// / STRUCT(...) and MAP<K, V> / MAP(K, V).
func readNestedType(text string, toks []token, i int) (Type, int, error) {
	if i < len(toks) && toks[i].kind == tkIdent {
		w := strings.ToLower(toks[i].text)
		open := func(k int) bool {
			return k < len(toks) && toks[k].kind == tkOp && (toks[k].text == "<" || toks[k].text == "(")
		}
		closeAt := func(k int) bool {
			return k < len(toks) && toks[k].kind == tkOp && (toks[k].text == ">" || toks[k].text == ")")
		}
		var t Type
		var err error
		j := i + 1
		switch {
		case (w == "list" || w == "array") && open(j):
			var elem Type
			elem, j, err = readNestedType(text, toks, j+1)
			if err != nil {
				return Type{}, j, err
			}
			if !closeAt(j) {
				return Type{}, j, errAt(text, tokPos(text, toks, j), "expected > after the list element type")
			}
			t = Type{Kind: KNested, Elem: &elem}
			j++
		case (w == "struct" || w == "row") && open(j):
			j++
			t = Type{Kind: KNested, Fields: []NamedType{}}
			for {
				if j >= len(toks) {
					return Type{}, j, errAt(text, len(text), "unterminated STRUCT")
				}
				name := tableToken(toks[j])
				j++
				if j < len(toks) && toks[j].kind == tkOp && toks[j].text == ":" {
					j++
				}
				var ft Type
				ft, j, err = readNestedType(text, toks, j)
				if err != nil {
					return Type{}, j, err
				}
				t.Fields = append(t.Fields, NamedType{Name: name, Type: ft})
				if j < len(toks) && toks[j].kind == tkOp && toks[j].text == "," {
					j++
					continue
				}
				if closeAt(j) {
					j++
					break
				}
				return Type{}, j, errAt(text, tokPos(text, toks, j), "expected , or > in STRUCT")
			}
		case w == "map" && open(j):
			var k, v Type
			k, j, err = readNestedType(text, toks, j+1)
			if err != nil {
				return Type{}, j, err
			}
			if j >= len(toks) || toks[j].text != "," {
				return Type{}, j, errAt(text, tokPos(text, toks, j), "expected , in MAP")
			}
			v, j, err = readNestedType(text, toks, j+1)
			if err != nil {
				return Type{}, j, err
			}
			if !closeAt(j) {
				return Type{}, j, errAt(text, tokPos(text, toks, j), "expected > after MAP")
			}
			j++
			t = Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: k}, {Name: "value", Type: v}}}
		default:
			t, j, err = readType(text, toks, i)
			if err != nil {
				return Type{}, j, err
			}
		}
		// T[] suffixes.
		for j+1 < len(toks) && toks[j].kind == tkOp && toks[j].text == "[" && toks[j+1].text == "]" {
			elem := t
			t = Type{Kind: KNested, Elem: &elem}
			j += 2
		}
		return t, j, nil
	}
	return Type{}, i, errAt(text, tokPos(text, toks, i), "expected a type")
}

func tokPos(text string, toks []token, i int) int {
	if i < len(toks) {
		return toks[i].pos
	}
	return len(text)
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
	case KDate:
		f = writer.Date(name)
	case KTime:
		f = writer.Time(name, timeUnitOf(t), false) // TIME, not TIMETZ
	case KTimeTZ:
		f = writer.Time(name, writer.Micros, true) // the UTC time, as DuckDB
	case KTimestamp:
		f = writer.Timestamp(name, timeUnitOf(t), t.TZ)
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
	if v, ok := opts["bloom_filter"]; ok {
		for _, c := range strings.Split(v, ",") {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, writer.WithBloomFilterFor(c, 0, writer.DefaultBloomFPP))
			}
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

// Tx collects the rows a transaction inserts until Commit, stages the
// tables it changes otherwise (txstage.go), and keeps the snapshot its
// queries read: each table as the transaction's first query of it found
// it, whatever is committed meanwhile, or as the transaction staged it,
// plus the rows the transaction itself has inserted (overlayOf). Commit
// and Rollback release the snapshot.
type Tx struct {
	e        *Engine
	readOnly bool
	mu       sync.Mutex
	pending  map[string]*pendingWrite
	order    []string
	targets  map[string]*target
	snap     map[string]*scan.Table // by table path
	// overlays are, by table path, the snapshot with the transaction's
	// pending rows (see overlayOf).
	overlays map[string]*overlay
	done     bool
	// changed are the tables the transaction rewrote, created or
	// dropped, by path; stamps the stamps of the tables as it first saw
	// them ("" when they did not exist), which COMMIT checks.
	changed map[string]*txTable
	stamps  map[string]string
	// stageDir is the folder of its staged files, locked (unlockStage)
	// while the transaction lives; seq numbers the files.
	stageDir    string
	unlockStage func()
	seq         int
	// views are the CREATE and DROP VIEWs the transaction ran, applied
	// to the engine's views at COMMIT.
	views []*Stmt
}

// overlay is a table as the transaction sees it: its snapshot followed by
// a temporary file of the rows the transaction inserted into it.
type overlay struct {
	table   *scan.Table
	tmp     string
	base    *scan.Table
	batches int // the pending batches the file holds
}

// overlayOf returns, retained for the caller, the table at path with the
// rows the transaction has inserted into it and not committed (its
// queries read their own writes), or nil when it has none. The rows are
// written to a temporary Parquet file, again when more are inserted; the
// snapshot's files are read as the snapshot reads them. t.mu is held.
func (t *Tx) overlayOf(path string, base *scan.Table) (*scan.Table, error) {
	pw := t.pending[path]
	if pw == nil {
		return nil, nil
	}
	if err := pw.flushRows(); err != nil {
		return nil, err
	}
	if len(pw.cols) == 0 {
		return nil, nil
	}
	if ov := t.overlays[path]; ov != nil {
		if ov.base == base && ov.batches == len(pw.cols) {
			t.e.retain(ov.table)
			return ov.table, nil
		}
		t.dropOverlay(path)
	}
	f, err := os.CreateTemp("", "carquet-tx-*.parquet")
	if err != nil {
		return nil, err
	}
	tmp := f.Name()
	f.Close()
	table, err := t.writeOverlay(tmp, pw, base)
	if err != nil {
		os.Remove(tmp)
		return nil, err
	}
	t.e.adopt(table) // the transaction's reference
	if t.overlays == nil {
		t.overlays = map[string]*overlay{}
	}
	t.overlays[path] = &overlay{table: table, tmp: tmp, base: base, batches: len(pw.cols)}
	t.e.retain(table)
	return table, nil
}

// writeOverlay writes the pending rows pw to the file tmp and returns
// base followed by it.
func (t *Tx) writeOverlay(tmp string, pw *pendingWrite, base *scan.Table) (*scan.Table, error) {
	opts, err := t.e.writeOptions(pw.opts)
	if err != nil {
		return nil, err
	}
	w, err := writer.Create(tmp, pw.sch, opts...)
	if err != nil {
		return nil, err
	}
	for _, b := range pw.cols {
		if err := w.WriteBatch(b); err != nil {
			return nil, errors.Join(err, w.Abort())
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return base.WithFile(tmp)
}

// dropOverlay releases the transaction's view of the table at path and
// removes its file (queries still reading it keep their open file).
// t.mu is held.
func (t *Tx) dropOverlay(path string) {
	ov := t.overlays[path]
	if ov == nil {
		return
	}
	delete(t.overlays, path)
	os.Remove(ov.tmp)
	t.e.release(ov.table)
}

// releaseSnapshot drops the snapshot's tables and the views of the
// pending rows; t.mu is held.
func (t *Tx) releaseSnapshot() {
	for path := range t.overlays {
		t.dropOverlay(path)
	}
	for _, tbl := range t.snap {
		t.e.release(tbl)
	}
	t.snap = nil
}

type pendingWrite struct {
	sch    *schema.Schema
	fields []*schema.Field
	folder bool
	opts   map[string]string
	cols   [][]*vector.Vector
	// rows gathers, one builder per field, the rows of INSERTs of one row
	// of parameters (insertPending) until they go to cols as one batch.
	rows  []*colBuilder
	nrows int
}

// pendingFor returns the transaction's pending rows of the table tgt;
// t.mu is held.
func (t *Tx) pendingFor(tgt *target) *pendingWrite {
	pw, ok := t.pending[tgt.path]
	if !ok {
		pw = &pendingWrite{sch: tgt.sch, fields: tgt.fields, folder: tgt.folder}
		t.pending[tgt.path] = pw
		t.order = append(t.order, tgt.path)
	}
	pw.opts = tgt.opts
	return pw
}

// flushRows moves the gathered rows to cols, keeping their order with
// the batches of other INSERTs.
func (pw *pendingWrite) flushRows() error {
	if pw.nrows == 0 {
		return nil
	}
	vecs := make([]*vector.Vector, len(pw.fields))
	for k, f := range pw.fields {
		v, err := toVector(pw.rows[k].c, f)
		if err != nil {
			return errorf("column %q: %v", f.Name, err)
		}
		vecs[k] = v
	}
	pw.cols = append(pw.cols, vecs)
	pw.rows, pw.nrows = nil, 0
	return nil
}

// pendingRow reports whether an INSERT in a transaction is one row of
// parameters into a table without constraints or defaults (a prepared
// INSERT run once per row), which insertPending adds to the pending rows
// without planning, and returns the row.
func (s *Stmt) pendingRow(ins *sqlparser.Insert, tx *Tx, tgt *target, target []int) (sqlparser.ValTuple, bool) {
	if tx == nil || s.defaultValues || s.byName || s.replaceConflicts || s.ignoreConflicts || s.upsert != nil {
		return nil, false
	}
	rows, ok := ins.Rows.(sqlparser.Values)
	if !ok || len(rows) != 1 || len(rows[0]) != len(target) {
		return nil, false
	}
	for k := range tgt.opts {
		if isConstraintKey(k) {
			return nil, false
		}
	}
	for _, ve := range rows[0] {
		if v, ok := ve.(*sqlparser.SQLVal); !ok || v.Type != sqlparser.ValArg {
			return nil, false
		}
	}
	return rows[0], true
}

// addPending adds rows to the transaction's pending rows of the table,
// written at COMMIT.
func (tx *Tx) addPending(tgt *target, vecs []*vector.Vector) error {
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return errors.New("the transaction is already finished")
	}
	pw := tx.pendingFor(tgt)
	if err := pw.flushRows(); err != nil {
		return err
	}
	pw.cols = append(pw.cols, vecs)
	return nil
}

// insertPending adds one row of parameters to the transaction's pending
// rows of the table: cast to the columns' types, into column builders.
func (s *Stmt) insertPending(p *planner, tx *Tx, tgt *target, target []int, types []Type, row sqlparser.ValTuple) (Result, error) {
	fields := tgt.fields
	vals := make([]any, len(fields))
	for j, ve := range row {
		k := target[j]
		e, err := p.param(string(ve.(*sqlparser.SQLVal).Val))
		if err != nil {
			return Result{}, err
		}
		kc := e.(*constExpr)
		if vals[k], err = castScalar(kc.v, kc.t, types[k]); err != nil {
			return Result{}, errorf("row 1, column %q: %v", fields[k].Name, err)
		}
	}
	for k, f := range fields {
		if vals[k] == nil && !f.Nullable {
			return Result{}, errorf("NULL in NOT NULL column %q (row 1)", f.Name)
		}
	}
	tx.mu.Lock()
	defer tx.mu.Unlock()
	if tx.done {
		return Result{}, errors.New("the transaction is already finished")
	}
	pw := tx.pendingFor(tgt)
	if pw.rows == nil {
		pw.rows = make([]*colBuilder, len(fields))
		for k := range fields {
			pw.rows[k] = newBuilder(types[k], 1024)
		}
	}
	for k, v := range vals {
		pw.rows[k].add(v)
	}
	pw.nrows++
	return Result{RowsAffected: 1}, nil
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
		if _, known := tableOptions[k]; (known || isConstraintKey(k)) && len(vs) > 0 && k != "sorted_by" {
			out[k] = vs[0]
		}
	}
	return out
}

// Begin starts a transaction.
func (e *Engine) Begin(readOnly bool) *Tx {
	return &Tx{e: e, readOnly: readOnly, pending: map[string]*pendingWrite{}}
}

// Commit publishes the transaction: its rows and staged tables, all or
// none (txstage.go). A transaction that only inserted into one table
// appends to it in place.
func (t *Tx) Commit() error {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return errTxDone
	}
	settle := map[string]string{} // path -> name
	for p, ch := range t.changed {
		if t.pending[p] != nil && ch.staged != "" {
			settle[p] = ch.name
		}
	}
	views := t.views
	t.mu.Unlock()
	// Rows inserted into a table after the transaction rewrote it go
	// into its staged file; views created or dropped meanwhile by others
	// fail the COMMIT before anything is written.
	for p, name := range settle {
		if err := t.settle(p, name); err != nil {
			t.Rollback()
			return err
		}
	}
	if err := t.e.checkViews(views); err != nil {
		t.Rollback()
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return errTxDone
	}
	t.done = true
	var err error
	if len(t.changed) == 0 && len(t.order) <= 1 {
		err = t.commitAppends()
	} else {
		err = t.publishLocked()
		t.discardLocked()
	}
	if err != nil {
		return err
	}
	return t.applyViewsLocked()
}

// commitAppends writes the rows of a transaction that only inserted into
// one table: one atomic append (or one new file of a folder table).
func (t *Tx) commitAppends() error {
	// The snapshot goes first: its open files would keep the appends from
	// merging the tables' last small row groups.
	t.releaseSnapshot()
	for _, path := range t.order {
		pw := t.pending[path]
		if err := pw.flushRows(); err != nil {
			return err
		}
		if len(pw.cols) > 1 {
			// One batch per table: the writer's per-call work is paid once.
			merged := make([]*vector.Vector, len(pw.cols[0]))
			for k := range merged {
				merged[k] = &vector.Vector{}
				for _, b := range pw.cols {
					vector.AppendVector(merged[k], b[k])
				}
			}
			pw.cols = [][]*vector.Vector{merged}
		}
		if err := t.e.writeRows(path, pw.sch, pw.folder, pw.opts, pw.cols); err != nil {
			return err
		}
	}
	return nil
}

// Rollback discards the transaction's rows and staged tables: the
// tables' files were never touched.
func (t *Tx) Rollback() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done = true
	t.pending = nil
	t.releaseSnapshot()
	t.discardLocked()
	return nil
}

// target is what an INSERT needs to know about its table.
type target struct {
	path   string
	sch    *schema.Schema
	fields []*schema.Field
	folder bool
	opts   map[string]string
	// kv is the footer's other key-value metadata, which a rewrite keeps.
	kv []format.KeyValue
	// delta is the snapshot of a Delta table an INSERT appends to.
	delta  *delta.Snapshot
	layout *deltaLayout
	name   string
}

// insertTarget resolves the table of an INSERT; a transaction keeps it
// for its later INSERTs into the same table.
func (e *Engine) insertTarget(name string, tx *Tx) (*target, error) {
	return e.targetOf(name, tx, false)
}

// targetOf is insertTarget for INSERT, which (outside transactions) may
// append to a Delta table: withDelta.
func (e *Engine) targetOf(name string, tx *Tx, withDelta bool) (*target, error) {
	if tx != nil {
		tx.mu.Lock()
		tg, ok := tx.targets[name]
		tx.mu.Unlock()
		if ok {
			return tg, nil
		}
	}
	if strings.ContainsAny(name, "*?[") {
		return nil, errorf("cannot INSERT into a glob")
	}
	open := e.openTable
	var before fileState
	keepable := false
	if tx != nil {
		open = tx.openBase
	} else {
		if tg := e.keptTargetOf(name); tg != nil {
			return tg, nil
		}
		if p, ok, err := e.tablePath(name); err == nil && ok && !objstore.IsURL(p) {
			before, keepable = statTable(p)
		}
	}
	t, path, err := open(name)
	if err != nil {
		return nil, err
	}
	defer e.release(t)
	// INSERT, DELETE, UPDATE and ALTER write the table through this target.
	if err := e.writable(path); err != nil {
		return nil, err
	}
	if snap := t.Snapshot(); snap != nil {
		if !withDelta {
			return nil, unsupported("writing Delta tables")
		}
		if tx != nil {
			return nil, unsupported(fmt.Sprintf("writing the Delta table %q inside a transaction", name))
		}
		return deltaTarget(name, path, snap)
	}
	for _, c := range t.Columns {
		if c.Partition {
			return nil, unsupported("INSERT into a hive-partitioned table")
		}
	}
	folder := !strings.HasSuffix(path, ".parquet")
	if !objstore.IsURL(path) && (tx == nil || !tx.hasStaged(path)) {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		folder = st.IsDir()
	}
	f0, err := t.File(0)
	if err != nil {
		return nil, err
	}
	fields, err := f0.Schema.LogicalFields()
	if err != nil {
		return nil, err
	}
	tg := &target{path: path, sch: f0.Schema, fields: fields, folder: folder, opts: decodeOptions(f0), kv: otherKV(f0), name: name}
	if keepable && !folder && len(t.Files) == 1 {
		e.keepTarget(name, tg, before, f0.Schema.Elements, f0.Meta.KeyValueMetadata)
	}
	if tx != nil {
		tx.mu.Lock()
		if tx.targets == nil {
			tx.targets = map[string]*target{}
		}
		tx.targets[name] = tg
		tx.mu.Unlock()
	}
	return tg, nil
}

// Exec runs a statement that does not return rows; in a transaction
// (tx non-nil) INSERTs wait for Commit.
func (s *Stmt) Exec(ctx context.Context, args []Arg, tx *Tx) (Result, error) {
	return s.exec(ctx, args, tx, nil)
}

func (s *Stmt) exec(ctx context.Context, args []Arg, tx *Tx, sess *Session) (_ Result, err error) {
	defer recoverInternal(&err)
	if s.kind == kindSet {
		if s.set.variable != "" {
			return Result{}, s.e.execVariable(ctx, s.set, args, tx, sess)
		}
		return Result{}, s.e.execSet(s.set, sess)
	}
	switch s.kind {
	case kindInsert, kindCreate, kindCreateAs, kindDrop, kindDelete, kindUpdate, kindCopy, kindAlter, kindOptimize, kindVacuum, kindMerge:
		if s.e.opts.ReadOnly {
			return Result{}, &Error{Msg: ErrReadOnly.Error() + ": " + s.verb() + " refused", Offset: -1, Err: ErrReadOnly}
		}
		if tx != nil && tx.readOnly {
			return Result{}, errorf("%s in a read-only transaction", s.verb())
		}
	}
	p := &planner{e: s.e, src: s.src, args: args, ctx: ctx, tx: tx, set: s.e.settingsFor(sess)}
	defer p.releaseAll()
	switch s.kind {
	case kindInsert:
		return s.insert(ctx, p, tx)
	case kindCreate, kindCreateAs, kindCopy:
		if tx != nil && (s.temp || s.create != nil && s.create.delta) {
			return Result{}, unsupported(s.verb() + " of this kind (TEMP, USING delta) inside a transaction")
		}
		return s.createTable(ctx, p)
	case kindDrop:
		return s.dropTable(tx)
	case kindDelete, kindUpdate:
		if s.kind == kindDelete {
			return s.deleteRows(ctx, p)
		}
		return s.updateRows(ctx, p)
	case kindMerge:
		if tx != nil && len(tx.viewStmts()) > 0 {
			// Its source was read with the committed views (prepareMerge).
			return Result{}, unsupported("MERGE inside a transaction that created or dropped views")
		}
		return s.mergeRows(ctx, p)
	case kindSequence:
		return s.e.execSequence(s)
	case kindOptimize:
		if tx != nil {
			return Result{}, unsupported("OPTIMIZE inside a transaction")
		}
		return s.optimize(ctx, p)
	case kindVacuum:
		if tx != nil {
			return Result{}, unsupported("VACUUM inside a transaction")
		}
		return s.vacuumTable()
	case kindAlter:
		return s.alterTable(ctx, p)
	case kindCreateView, kindDropView:
		if tx != nil {
			return Result{}, tx.addView(s)
		}
		return s.e.execView(s)
	case kindMacro, kindDropMacro:
		if err := s.checkMacroBody(ctx); err != nil {
			return Result{}, err
		}
		return s.e.execMacro(s)
	}
	return Result{}, errorf("the statement returns rows (use Query)")
}

// ChangesRows reports whether the statement changes rows and counts them
// (INSERT, UPDATE, DELETE, COPY, CREATE TABLE AS, MERGE).
func (s *Stmt) ChangesRows() bool {
	switch s.kind {
	case kindInsert, kindUpdate, kindDelete, kindCopy, kindCreateAs, kindMerge:
		return true
	}
	return false
}

// Creates reports whether the statement is a CREATE of a table, view or
// macro that changes no rows.
func (s *Stmt) Creates() bool {
	return s.kind == kindCreate || s.kind == kindCreateView || s.kind == kindMacro
}

func (s *Stmt) verb() string {
	switch s.kind {
	case kindInsert:
		return "INSERT"
	case kindCreate, kindCreateAs:
		return "CREATE TABLE"
	case kindDrop:
		return "DROP TABLE"
	case kindCopy:
		return "COPY"
	case kindDelete:
		return "DELETE"
	case kindUpdate:
		return "UPDATE"
	case kindAlter:
		return "ALTER TABLE"
	case kindOptimize:
		return "OPTIMIZE"
	case kindVacuum:
		return "VACUUM"
	case kindMerge:
		return "MERGE"
	}
	return "statement"
}

func (s *Stmt) insert(ctx context.Context, p *planner, tx *Tx) (Result, error) {
	ins := s.ast.(*sqlparser.Insert)
	if sel, ok := ins.Rows.(sqlparser.SelectStatement); ok {
		// INSERT ... SELECT plans its query: plan a copy (see cloneAST);
		// VALUES rows are only read.
		c := *ins
		c.Rows = cloneAST(sel)
		ins = &c
	}
	name := ins.Table.Name.String()
	if q := ins.Table.Qualifier.String(); q != "" {
		name = q + "." + name
	}
	tgt, err := s.e.targetOf(name, tx, true)
	if err != nil {
		return Result{}, s.src.locate(asError(err), ins.Table.Name.String())
	}
	path, sch, fields, folder := tgt.path, tgt.sch, tgt.fields, tgt.folder
	// Target columns.
	target := make([]int, 0, len(fields)) // field index of each given column
	if len(ins.Columns) == 0 {
		for i := range fields {
			target = append(target, i)
		}
	} else {
		seen := map[int]bool{}
		for _, c := range ins.Columns {
			k := -1
			var names []string
			for i, f := range fields {
				names = append(names, f.Name)
				if strings.EqualFold(f.Name, c.String()) {
					k = i
				}
			}
			if k < 0 {
				e := errorf("table %q has no column %q%s", name, c.String(), suggest(c.String(), names))
				e.Err = ErrNoColumn
				return Result{}, s.src.locate(e, c.String())
			}
			if seen[k] {
				return Result{}, s.src.locate(errorf("column %q is given twice", c.String()), c.String())
			}
			seen[k] = true
			target = append(target, k)
		}
	}
	types := make([]Type, len(fields))
	for i, f := range fields {
		types[i] = typeOfField(f)
	}
	if row, ok := s.pendingRow(ins, tx, tgt, target); ok {
		return s.insertPending(p, tx, tgt, target, types, row)
	}
	// Source rows, cast to the target columns' types.
	con := constraintsOf(tgt.opts)
	data := make([]*Col, len(fields))
	var n int
	switch rows := ins.Rows.(type) {
	case sqlparser.Values:
		if s.defaultValues {
			n = 1 // every column its DEFAULT (fillDefaults) or NULL
			break
		}
		n = len(rows)
		builders := make([]*colBuilder, len(fields))
		for _, k := range target {
			builders[k] = newBuilder(types[k], n)
		}
		one := &Batch{N: 1}
		for r, row := range rows {
			if len(row) != len(target) {
				return Result{}, errorf("row %d has %d values for %d columns", r+1, len(row), len(target))
			}
			for j, ve := range row {
				k := target[j]
				if _, isDefault := ve.(*sqlparser.Default); isDefault {
					v, err := p.defaultValue(con, fields[k], types[k])
					if err != nil {
						return Result{}, err
					}
					builders[k].add(v)
					continue
				}
				e, err := p.bindExpr(ve, &scope{}, nil)
				if err != nil {
					return Result{}, err
				}
				var v any
				var vt Type
				if kc, ok := isConst(e); ok {
					v, vt = kc.v, kc.t
				} else {
					c, err := e.eval(one)
					if err != nil {
						return Result{}, err
					}
					v, vt = c.get(0), c.T
				}
				cv, err := castScalar(v, vt, types[k])
				if err != nil {
					return Result{}, errorf("row %d, column %q: %v", r+1, fields[k].Name, err)
				}
				builders[k].add(cv)
			}
		}
		for _, k := range target {
			data[k] = builders[k].c
		}
	case *sqlparser.Select, *sqlparser.Union, *sqlparser.ParenSelect:
		sp, err := p.planSelect(rows.(sqlparser.SelectStatement), nil)
		if err != nil {
			return Result{}, err
		}
		if s.byName {
			// The SELECT's columns go to the table's columns of their names.
			if len(ins.Columns) > 0 {
				sp.root.close()
				return Result{}, errorf("INSERT BY NAME takes no column list")
			}
			target = target[:0]
			seen := map[int]bool{}
			for _, c := range sp.cols {
				k := fieldIndex(fields, c.Name)
				if k < 0 {
					sp.root.close()
					e := errorf("table %q has no column %q%s", name, c.Name, suggest(c.Name, fieldNames(fields)))
					e.Err = ErrNoColumn
					return Result{}, e
				}
				if seen[k] {
					sp.root.close()
					return Result{}, errorf("column %q is given twice", c.Name)
				}
				seen[k] = true
				target = append(target, k)
			}
		}
		if len(sp.cols) != len(target) {
			sp.root.close()
			return Result{}, errorf("the SELECT returns %d columns for %d target columns", len(sp.cols), len(target))
		}
		b, err := sp.drainAll(ctx)
		if err != nil {
			return Result{}, err
		}
		n = b.N
		for j, k := range target {
			c, err := castCol(b.Cols[j], types[k])
			if err != nil {
				return Result{}, errorf("column %q: %v", fields[k].Name, err)
			}
			data[k] = c
		}
	default:
		return Result{}, unsupported("this INSERT form")
	}
	if err := p.fillDefaults(con, fields, types, data, n); err != nil {
		return Result{}, err
	}
	for k := range data {
		if data[k] == nil {
			data[k] = nullCol(types[k], n)
		}
		if !fields[k].Nullable && data[k].Null != nil {
			for i := 0; i < n; i++ {
				if data[k].Null[i] {
					return Result{}, errorf("NULL in NOT NULL column %q (row %d)", fields[k].Name, i+1)
				}
			}
		}
	}
	if err := p.checkRows(con, fields, types, data, n); err != nil {
		return Result{}, err
	}
	if (s.replaceConflicts || s.upsert != nil) && (con.primary != nil || con.unique != nil) {
		return s.conflictRewrite(ctx, p, tgt, name, con, data, n, s.upsert)
	}
	if s.upsert != nil {
		return Result{}, errorf("ON CONFLICT DO UPDATE: table %q has no PRIMARY KEY or UNIQUE constraint", name)
	}
	keep, err := p.checkKeys(ctx, con, name, fields, data, n, s.ignoreConflicts)
	if err != nil {
		return Result{}, err
	}
	if keep != nil {
		for k := range data {
			data[k] = data[k].take(keep)
		}
		n = len(keep)
	}
	if err := p.checkForeign(ctx, con, fields, data, n); err != nil {
		return Result{}, err
	}
	if n == 0 {
		return Result{}, nil
	}
	vecs := make([]*vector.Vector, len(fields))
	for k, f := range fields {
		v, err := toVector(data[k], f)
		if err != nil {
			return Result{}, errorf("column %q: %v", f.Name, err)
		}
		vecs[k] = v
	}
	if tx != nil {
		return Result{RowsAffected: int64(n)}, tx.addPending(tgt, vecs)
	}
	if tgt.delta != nil {
		_, isValues := ins.Rows.(sqlparser.Values)
		if err := s.e.appendDelta(tgt, [][]*vector.Vector{vecs}, isValues); err != nil {
			return Result{}, err
		}
		return Result{RowsAffected: int64(n)}, nil
	}
	tableOpts := tgt.opts
	if err := s.e.writeRowsGrouped(path, sch, folder, tableOpts, [][]*vector.Vector{vecs}); err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: int64(n)}, nil
}

var fileSeq struct {
	sync.Mutex
	n int
}

// nextFileSeq numbers the new files of folder tables within the process.
func nextFileSeq() int {
	fileSeq.Lock()
	defer fileSeq.Unlock()
	fileSeq.n++
	return fileSeq.n
}

// openTableWriter starts an atomic append to a local table: to a
// single-file table through the writer's crash-safe append, to a folder
// table as a new file.
func openTableWriter(path string, sch *schema.Schema, folder bool, opts []writer.Option) (*writer.Writer, error) {
	if !folder {
		return writer.Append(path, sch, opts...)
	}
	// Temporary files of writers killed before they finished are
	// garbage: no reader looks at them.
	writer.RemoveStaleTemps(path)
	return writer.Create(filepath.Join(path, newPartName()), sch, opts...)
}

// newPartName names a new file of a folder table: names sort in the order
// files are added.
func newPartName() string {
	return fmt.Sprintf("part-%d-%d-%d.parquet", time.Now().UnixNano(), os.Getpid(), nextFileSeq())
}

// writeRows appends batches to a table atomically: a single-file table
// through the writer's crash-safe append, a folder table as a new file.
func (e *Engine) writeRows(path string, sch *schema.Schema, folder bool, tableOpts map[string]string, batches [][]*vector.Vector) error {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	// Files the cache holds open for no statement go: an open file keeps
	// an append from merging the file's last small row groups.
	e.forget(path)
	defer e.forget(path)
	opts, err := e.writeOptions(tableOpts)
	if err != nil {
		return err
	}
	if objstore.IsURL(path) {
		if !folder {
			return remoteRewrite(path, "INSERT into a one-object table")
		}
		return e.writeRemoteBatches(path, sch, opts, batches)
	}
	if folder {
		// OPTIMIZE swaps the folder for a compacted copy under its lock.
		unlock, err := writer.LockFolder(path, false)
		if err != nil {
			return err
		}
		defer unlock()
	}
	w, err := openTableWriter(path, sch, folder, opts)
	if err != nil {
		return err
	}
	for _, b := range batches {
		if err := w.WriteBatch(b); err != nil {
			if aerr := w.Abort(); aerr != nil {
				return errors.Join(err, aerr)
			}
			return fmt.Errorf("%w (nothing was written to %s)", err, path)
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if !folder {
		e.appendedTo(path, w)
	}
	return nil
}

func (s *Stmt) createTable(ctx context.Context, p *planner) (Result, error) {
	if s.create != nil && s.create.delta {
		return s.createDelta(ctx, p)
	}
	if s.create != nil && (len(s.create.partitionBy) > 0 || s.create.properties != nil) {
		return Result{}, unsupported("PARTITIONED BY and TBLPROPERTIES of a table that is not a Delta table (CREATE TABLE ... USING delta)")
	}
	if isPathName(s.table) && !strings.HasSuffix(s.table, ".parquet") {
		return Result{}, errorf("cannot create table %q: name it plainly or as a .parquet file", s.table)
	}
	if s.temp && isPathName(s.table) {
		return Result{}, errorf("a temporary table is named plainly, not %q", s.table)
	}
	if s.e.file != "" && !isPathName(s.table) && !s.temp {
		return Result{}, errorf("cannot create table %q: the database is the single file %s", s.table, s.e.file)
	}
	resolve := s.e.tablePath
	if p.tx != nil {
		resolve = p.tx.tablePath
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
		path, exists = s.e.tempTable(s.table)
		if !exists {
			path = filepath.Join(dir, s.table+".parquet")
		}
	} else if err := s.e.writable(path); err != nil {
		return Result{}, err
	}
	// A first look, to fail before running a query; the decision is taken
	// again under the lock, below.
	if exists {
		if done, err := s.existingIn(path, p.tx); done || err != nil {
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
			if vecs[k], err = toVector(data[k], f); err != nil {
				return errorf("column %q: %v", f.Name, err)
			}
		}
		return w.WriteBatch(vecs)
	}
	if p.tx != nil {
		// The new table (or the replacing one) is staged for COMMIT.
		return Result{RowsAffected: int64(n)}, p.tx.stage(path, s.table, sch, fill, opts)
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
		return Result{}, s.src.locate(e, s.table)
	}
	if s.e.file != "" && path == s.e.file {
		return Result{}, errorf("cannot drop the database's own file")
	}
	if err := s.e.writable(path); err != nil {
		return Result{}, err
	}
	if objstore.IsURL(path) {
		if tx != nil {
			return Result{}, unsupported("DROP TABLE of an object-store table inside a transaction")
		}
		defer s.e.forget(path)
		return Result{}, s.e.dropRemote(path)
	}
	if delta.IsTable(path) {
		// Delta tables are read-only here: removing the folder would
		// delete its log and history, not drop a table version.
		return Result{}, unsupported("DROP TABLE of a Delta table")
	}
	if tx != nil && tx.hasStaged(path) {
		return Result{}, tx.drop(path, s.table)
	}
	st, err := os.Lstat(path)
	if err != nil {
		return Result{}, err
	}
	if err := s.droppable(path, st); err != nil {
		return Result{}, err
	}
	if tx != nil {
		return Result{}, tx.drop(path, s.table)
	}
	defer s.e.forget(path)
	if st.IsDir() {
		return Result{}, os.RemoveAll(path)
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

// tableFolder checks that dir is a folder table: not the database's
// root, holding Parquet files (and what writers leave beside them) in
// folders of any depth, and nothing else — no other files, no links.
func tableFolder(dir, root string) error {
	if sameDir(dir, root) {
		return errors.New("the database folder itself is not a table")
	}
	found := false
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		switch {
		case d.IsDir():
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("%s is not a regular file", p)
		case strings.HasSuffix(name, ".parquet"):
			found = true
			if ok, err := isParquetFile(p); err != nil {
				return err
			} else if !ok {
				return fmt.Errorf("%s is not a Parquet file", p)
			}
			return nil
		case strings.HasSuffix(name, writer.JournalSuffix) || writer.IsTempName(name) || name == "_SUCCESS" || strings.HasSuffix(name, ".crc"):
			return nil // what writers leave beside their files
		}
		return fmt.Errorf("%s is not a Parquet file", p)
	})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%s holds no Parquet file", dir)
	}
	return nil
}

// isParquetFile reports whether the file at p starts with a Parquet magic.
func isParquetFile(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var head [4]byte
	if _, err := io.ReadFull(f, head[:]); err != nil {
		return false, nil
	}
	return string(head[:]) == "PAR1" || string(head[:]) == "PARE", nil
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// rescaleUnits converts times counted in units of have nanoseconds into
// units of want nanoseconds in place: to milliseconds by rounding, to
// another coarser unit by flooring, to a finer one exactly or with an
// out-of-range error.
func rescaleUnits(xs []int64, have, want int64) error {
	switch {
	case have == want:
	case have < want && want == 1e6:
		// Into milliseconds (a TIMESTAMP_MS column): rounded, as DuckDB's
		// cast to TIMESTAMP_MS.
		for i, x := range xs {
			xs[i] = roundToUnit(x, want/have) / (want / have)
		}
	case have < want:
		for i, x := range xs {
			xs[i] = floorDiv(x, want/have)
		}
	default:
		m := have / want
		for i, x := range xs {
			if x > math.MaxInt64/m || x < math.MinInt64/m {
				return fmt.Errorf("time value %d is out of range for the file's unit", x)
			}
			xs[i] = x * m
		}
	}
	return nil
}

// toVector converts a column of a field's SQL type into the physical
// vector the writer takes.
func toVector(c *Col, f *schema.Field) (*vector.Vector, error) {
	n := c.Len
	v := &vector.Vector{Len: n}
	if c.Null != nil {
		v.Valid = vector.NewBitmap(n, true)
		for i, null := range c.Null[:n] {
			if null {
				v.Valid.Clear(i)
			}
		}
	}
	if f.Kind != schema.Primitive {
		vals := make([]any, n)
		for i := 0; i < n; i++ {
			if !c.isNull(i) {
				vals[i] = c.A[i]
			}
		}
		return nestedVector(vals, f)
	}
	node := f.Node
	t := typeOfField(f)
	switch node.Physical {
	case format.Boolean:
		v.Kind = vector.Bool
		v.Bools = make([]bool, n)
		copy(v.Bools, c.B)
	case format.Int32:
		v.Kind = vector.Int32
		v.Int32s = make([]int32, n)
		for i := 0; i < n; i++ {
			if c.I != nil {
				v.Int32s[i] = int32(c.I[i])
			}
		}
		if t.Kind == KTime && node.Logical.Time.Unit.Millis != nil {
			for i := range v.Int32s {
				v.Int32s[i] = int32(c.I[i] / 1000)
			}
		}
	case format.Int64:
		v.Kind = vector.Int64
		v.Int64s = make([]int64, n)
		copy(v.Int64s, c.I)
		if c.T.Kind == KTimeTZ {
			for i, k := range v.Int64s {
				v.Int64s[i] = timetzUTC(k)
			}
		}
		if lt := node.Logical; lt != nil && (lt.Timestamp != nil || lt.Time != nil) && (c.T.Kind == KTimestamp || c.T.Kind == KTime) {
			unit := format.TimeUnit{}
			if lt.Timestamp != nil {
				unit = lt.Timestamp.Unit
			} else {
				unit = lt.Time.Unit
			}
			have := int64(1000) // the column's values: microseconds or nanoseconds
			if c.T.Nanos {
				have = 1
			}
			if err := rescaleUnits(v.Int64s, have, schema.UnitNanos(unit)); err != nil {
				return nil, fmt.Errorf("column %s: %w", f.Name, err)
			}
		}
	case format.Int96:
		v.Kind = vector.Int96
		v.Int96s = make([][12]byte, n)
		for i := 0; i < n; i++ {
			v.Int96s[i] = value.Int96Of(time.UnixMicro(c.I[i]))
		}
	case format.Float:
		v.Kind = vector.Float32
		v.Float32s = make([]float32, n)
		for i := 0; i < n; i++ {
			v.Float32s[i] = float32(c.F[i])
		}
	case format.Double:
		v.Kind = vector.Float64
		v.Float64s = make([]float64, n)
		copy(v.Float64s, c.F)
	case format.ByteArray, format.FixedLenByteArray:
		v.Kind = vector.ByteArray
		width := node.TypeLength
		if node.Physical == format.FixedLenByteArray {
			v.Kind = vector.FixedLenByteArray
			v.Width = width
		} else {
			v.Offsets = make([]int32, 1, n+1)
		}
		for i := 0; i < n; i++ {
			var b []byte
			if !c.isNull(i) {
				switch t.Kind {
				case KDecimal, KUHuge:
					d := c.decimal(i)
					if lt := node.Logical; lt != nil && lt.Decimal != nil && d.Unscaled.CmpAbs(pow10Big(int(lt.Decimal.Precision))) >= 0 {
						// A HUGEINT past 38 digits: no Parquet DECIMAL holds it.
						return nil, fmt.Errorf("%s does not fit the file's DECIMAL(%d,%d)", d, lt.Decimal.Precision, lt.Decimal.Scale)
					}
					w := width
					if node.Physical == format.ByteArray {
						w = (d.Unscaled.BitLen()+8)/8 + 1
					}
					b = bigEndian(d.Unscaled, w)
				case KUUID:
					h, err := hex.DecodeString(strings.ReplaceAll(string(c.str(i)), "-", ""))
					if err != nil || len(h) != 16 {
						return nil, fmt.Errorf("bad UUID %q", c.str(i))
					}
					b = h
				case KFloat:
					b = float16Bytes(float32(c.F[i]))
				case KInterval:
					iv := c.A[i].(interval)
					if iv.months < 0 || iv.days < 0 || iv.micros < 0 {
						return nil, errors.New("Parquet files do not support negative intervals")
					}
					b = intervalBytes(iv)
				default:
					b = c.str(i)
				}
			}
			if v.Kind == vector.FixedLenByteArray {
				if len(b) == 0 {
					b = make([]byte, width)
				}
				if len(b) != width {
					return nil, fmt.Errorf("value of %d bytes for FIXED_LEN_BYTE_ARRAY(%d)", len(b), width)
				}
				v.Data = append(v.Data, b...)
			} else {
				v.Data = append(v.Data, b...)
				v.Offsets = append(v.Offsets, int32(len(v.Data)))
			}
		}
	}
	return v, nil
}

func bigEndian(u *big.Int, width int) []byte {
	out := make([]byte, width)
	x := new(big.Int).Set(u)
	if x.Sign() < 0 {
		x.Add(x, new(big.Int).Lsh(big.NewInt(1), uint(8*width)))
	}
	x.FillBytes(out)
	return out
}

func float16Bytes(f float32) []byte {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	exp := int((bits>>23)&0xff) - 127 + 15
	frac := uint16(bits>>13) & 0x3ff
	var h uint16
	switch {
	case f != f:
		h = 0x7e00
	case exp >= 31:
		h = sign | 0x7c00
	case exp <= 0:
		h = sign
	default:
		h = sign | uint16(exp)<<10 | frac
	}
	return []byte{byte(h), byte(h >> 8)}
}

// nestedVector builds the vector of a nested field from Go values
// ([]any for lists, map[string]any for structs, maps for maps).
func nestedVector(vals []any, f *schema.Field) (*vector.Vector, error) {
	n := len(vals)
	v := &vector.Vector{Len: n}
	anyNull := false
	for _, x := range vals {
		if x == nil {
			anyNull = true
		}
	}
	if anyNull {
		v.Valid = vector.NewBitmap(n, true)
		for i, x := range vals {
			if x == nil {
				v.Valid.Clear(i)
			}
		}
	}
	switch f.Kind {
	case schema.Primitive:
		t := typeOfField(f)
		b := newBuilder(t, n)
		for i, x := range vals {
			sv, err := goScalar(x, t)
			if err != nil {
				return nil, fmt.Errorf("%s[%d]: %w", f.Name, i, err)
			}
			b.add(sv)
		}
		return toVector(b.c, f)
	case schema.Struct:
		v.Kind = vector.Struct
		for _, child := range f.Children {
			sub := make([]any, n)
			for i, x := range vals {
				if m, ok := x.(map[string]any); ok {
					sub[i] = m[child.Name]
				} else if x != nil {
					return nil, fmt.Errorf("%s: %T is not a struct", f.Name, x)
				}
			}
			cv, err := nestedVector(sub, child)
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, cv)
		}
	case schema.List:
		v.Kind = vector.List
		v.Offsets = make([]int32, 1, n+1)
		var elems []any
		for _, x := range vals {
			if x != nil {
				l, ok := x.([]any)
				if !ok {
					return nil, fmt.Errorf("%s: %T is not a list", f.Name, x)
				}
				elems = append(elems, l...)
			}
			v.Offsets = append(v.Offsets, int32(len(elems)))
		}
		cv, err := nestedVector(elems, f.Children[0])
		if err != nil {
			return nil, err
		}
		v.Children = []*vector.Vector{cv}
	case schema.Map:
		v.Kind = vector.Map
		v.Offsets = make([]int32, 1, n+1)
		var keys, values []any
		for _, x := range vals {
			switch m := x.(type) {
			case nil:
			case map[string]any:
				ks := make([]string, 0, len(m))
				for k := range m {
					ks = append(ks, k)
				}
				sort.Strings(ks)
				for _, k := range ks {
					keys, values = append(keys, k), append(values, m[k])
				}
			case map[any]any:
				for k, val := range m {
					keys, values = append(keys, k), append(values, val)
				}
			default:
				return nil, fmt.Errorf("%s: %T is not a map", f.Name, x)
			}
			v.Offsets = append(v.Offsets, int32(len(keys)))
		}
		kv, err := nestedVector(keys, f.Children[0])
		if err != nil {
			return nil, err
		}
		v.Children = []*vector.Vector{kv}
		if len(f.Children) > 1 {
			vv, err := nestedVector(values, f.Children[1])
			if err != nil {
				return nil, err
			}
			v.Children = append(v.Children, vv)
		}
	}
	return v, nil
}

// goScalar converts a Go value (as value.Get returns) to a scalar of t.
func goScalar(x any, t Type) (any, error) {
	if x == nil {
		return nil, nil
	}
	var st Type
	var sv any
	switch y := x.(type) {
	case time.Time:
		st, sv = Type{Kind: KTimestamp}, y.UnixMicro()
		if t.Nanos && t.Kind == KTimestamp {
			return timeToNanos(y)
		}
		switch t.Kind {
		case KDate:
			return timeToDays(y), nil
		case KTime:
			return convertTimeUnit(nanosOfDay(y.UTC()), Type{Kind: KTime, Nanos: true}, t)
		}
	case value.Decimal:
		st, sv = Type{Kind: KDecimal, Prec: 38, Scale: int(y.Scale)}, y
	case float32:
		st, sv = tFloat, float64(y)
	default:
		var err error
		st, sv, err = argScalar(x)
		if err != nil {
			return nil, err
		}
	}
	return castScalar(sv, st, t)
}

// timeUnitOf is the Parquet unit a TIME or TIMESTAMP column of type t is
// written in.
func timeUnitOf(t Type) writer.TimeUnit {
	switch {
	case t.Nanos:
		return writer.Nanos
	case t.Coarse == 1000:
		return writer.Millis
	}
	return writer.Micros
}

// createColumns is the columns of a CREATE TABLE: those given, or the
// query's with its rows.
func (s *Stmt) createColumns(ctx context.Context, p *planner) (fields []writer.Field, data []*Col, n int, err error) {
	fields, data, n, _, err = s.createColumnsTypes(ctx, p)
	return fields, data, n, err
}

// createColumnsTypes is createColumns with the key-value metadata that
// records the SQL types the Parquet types do not convey (see
// columnTypesKV); "" when there are none, and for COPY (DuckDB's COPY
// writes a TIMESTAMP_S as a TIMESTAMP).
func (s *Stmt) createColumnsTypes(ctx context.Context, p *planner) (fields []writer.Field, data []*Col, n int, kv string, err error) {
	var names []string
	var types []Type
	defer func() {
		if err == nil && s.kind != kindCopy {
			kv = columnTypesKV(names, types)
		}
	}()
	if s.kind == kindCreateAs || s.kind == kindCopy {
		ip := p.child(s.inner.src)
		defer ip.releaseAll()
		sp, err := s.inner.plan(ip)
		if err != nil {
			return nil, nil, 0, "", err
		}
		types = make([]Type, len(sp.cols))
		seen := map[string]bool{}
		for i, c := range sp.cols {
			types[i] = c.Type
			names = append(names, c.Name)
			if c.Type.Kind == KNull {
				types[i] = tInt
			}
			if seen[strings.ToLower(c.Name)] {
				sp.root.close()
				return nil, nil, 0, "", errorf("CREATE TABLE AS: column name %q is used twice (use aliases)", c.Name)
			}
			seen[strings.ToLower(c.Name)] = true
			f, err := fieldOf(c.Name, types[i], false)
			if err != nil {
				sp.root.close()
				return nil, nil, 0, "", err
			}
			fields = append(fields, f)
		}
		b, err := drain(ctx, sp.root, types)
		sp.root.close()
		if err != nil {
			return nil, nil, 0, "", err
		}
		n = b.N
		for i, c := range b.Cols {
			if c.T.Kind == KNull {
				c = nullCol(types[i], n)
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
// and HUGEINT and UHUGEINT (a DECIMAL(38,0)) columns, so that the table reads back with its declared types; "" when
// there are none.
func columnTypesKV(names []string, types []Type) string {
	var b strings.Builder
	for i, t := range types {
		if !(t.Kind == KTimestamp && t.Coarse != 0 && !t.TZ && !t.Nanos || t.Kind == KString && t.Bit || t.Huge || t.Kind == KUHuge) || strings.ContainsAny(names[i], "=\n") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(names[i] + "=" + t.SQLName())
	}
	return b.String()
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/carquet-go/carquet/internal/cli/output"
	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/writer"
)

// colType is a column type of an import: inferred from the data or given
// by --schema.
type colType struct {
	kind      string // bool, int8..int64, uint8..uint64, float, double, string, binary, json, date, time, timestamp, decimal, uuid
	unit      writer.TimeUnit
	utc       bool
	precision int
	scale     int
	required  bool
}

func (t colType) String() string {
	s := t.kind
	switch t.kind {
	case "timestamp":
		s += "(" + [...]string{"ms", "us", "ns"}[t.unit] + ")"
	case "decimal":
		s = fmt.Sprintf("decimal(%d,%d)", t.precision, t.scale)
	}
	if t.required {
		s += "!"
	}
	return s
}

func (t colType) field(name string) writer.Field {
	var f writer.Field
	switch t.kind {
	case "bool":
		f = writer.Bool(name)
	case "int8":
		f = writer.Integer(name, 8, true)
	case "int16":
		f = writer.Integer(name, 16, true)
	case "int32":
		f = writer.Int32(name)
	case "int64":
		f = writer.Int64(name)
	case "uint8":
		f = writer.Integer(name, 8, false)
	case "uint16":
		f = writer.Integer(name, 16, false)
	case "uint32":
		f = writer.Integer(name, 32, false)
	case "uint64":
		f = writer.Integer(name, 64, false)
	case "float":
		f = writer.Float(name)
	case "double":
		f = writer.Double(name)
	case "binary":
		f = writer.Binary(name)
	case "json":
		f = writer.JSON(name)
	case "date":
		f = writer.Date(name)
	case "time":
		f = writer.Time(name, writer.Micros, false)
	case "timestamp":
		f = writer.Timestamp(name, t.unit, t.utc)
	case "decimal":
		f = writer.Decimal(name, t.precision, t.scale)
	case "uuid":
		f = writer.UUID(name)
	default:
		f = writer.String(name)
	}
	if t.required {
		f = f.Required()
	}
	return f
}

var decimalRe = regexp.MustCompile(`^(?i)(decimal|numeric)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$`)

// parseType parses one type of a --schema spec.
func parseType(s string) (colType, error) {
	s = strings.TrimSpace(s)
	t := colType{unit: writer.Micros, utc: true}
	if strings.HasSuffix(s, "!") {
		t.required = true
		s = strings.TrimSpace(strings.TrimSuffix(s, "!"))
	}
	if m := decimalRe.FindStringSubmatch(s); m != nil {
		t.kind = "decimal"
		t.precision, _ = strconv.Atoi(m[2])
		t.scale, _ = strconv.Atoi(m[3])
		if t.precision < 1 || t.precision > 38 || t.scale > t.precision {
			return t, fmt.Errorf("bad decimal type %q (precision 1..38, scale <= precision)", s)
		}
		return t, nil
	}
	switch strings.ToLower(s) {
	case "bool", "boolean":
		t.kind = "bool"
	case "int8", "tinyint":
		t.kind = "int8"
	case "int16", "smallint":
		t.kind = "int16"
	case "int32", "int", "integer":
		t.kind = "int32"
	case "int64", "bigint", "long":
		t.kind = "int64"
	case "uint8", "utinyint":
		t.kind = "uint8"
	case "uint16", "usmallint":
		t.kind = "uint16"
	case "uint32", "uinteger":
		t.kind = "uint32"
	case "uint64", "ubigint":
		t.kind = "uint64"
	case "float", "real", "float32":
		t.kind = "float"
	case "double", "float64":
		t.kind = "double"
	case "string", "varchar", "text", "utf8":
		t.kind = "string"
	case "binary", "blob", "bytes":
		t.kind = "binary"
	case "json":
		t.kind = "json"
	case "date":
		t.kind = "date"
	case "time":
		t.kind = "time"
	case "timestamp", "timestamptz", "timestamp_us":
		t.kind = "timestamp"
	case "timestamp_ms":
		t.kind, t.unit = "timestamp", writer.Millis
	case "timestamp_ns":
		t.kind, t.unit = "timestamp", writer.Nanos
	case "timestamp_ntz", "datetime":
		t.kind, t.utc = "timestamp", false
	case "uuid":
		t.kind = "uuid"
	default:
		return t, fmt.Errorf("unknown type %q", s)
	}
	return t, nil
}

// parseSchemaSpec parses "name:type,name:type!,..." (decimal(p,s) may
// hold a comma).
func parseSchemaSpec(spec string) ([]string, []colType, error) {
	var names []string
	var types []colType
	var parts []string
	depth, start := 0, 0
	for i, c := range spec {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, spec[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, spec[start:])
	for _, p := range parts {
		name, typ, ok := strings.Cut(p, ":")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, nil, fmt.Errorf("schema: want name:type, got %q", strings.TrimSpace(p))
		}
		t, err := parseType(typ)
		if err != nil {
			return nil, nil, fmt.Errorf("schema: column %s: %w", name, err)
		}
		names = append(names, name)
		types = append(types, t)
	}
	return names, types, nil
}

// Inference of a column's type from text values: a small lattice in
// which every value narrows or widens the candidate.
const (
	infNone = iota // only NULLs so far
	infBool
	infInt
	infDouble
	infDate
	infTimestamp
	infString
)

type inferred struct {
	kind     int
	nanos    bool // a timestamp with sub-microsecond digits
	nullable bool
	isJSON   bool // JSON Lines: objects or arrays
}

var timestampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
}

func parseTimestamp(s string) (time.Time, bool) {
	if len(s) < 19 || s[4] != '-' {
		return time.Time{}, false
	}
	for _, l := range timestampLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

func parseDate(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' {
		return time.Time{}, false
	}
	t, err := time.Parse(output.DateLayout, s)
	return t, err == nil
}

// canonicalInt reports text that reads back the same after a round trip
// through int64 (no sign, leading zeros or spaces to lose).
func canonicalInt(s string) bool {
	d := strings.TrimPrefix(s, "-")
	return d != "" && (d == "0" || d[0] != '0') && strings.Trim(d, "0123456789") == ""
}

func parseFloatText(s string) (float64, bool) {
	switch s {
	case "NaN":
		return math.NaN(), true
	case "Infinity", "inf", "+Infinity":
		return math.Inf(1), true
	case "-Infinity", "-inf":
		return math.Inf(-1), true
	}
	d := strings.TrimPrefix(s, "-")
	if d == "" || (len(d) > 1 && d[0] == '0' && d[1] != '.' && d[1] != 'e' && d[1] != 'E') || strings.ContainsAny(d, "xXpP_ ") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// kindOfText is the narrowest kind of one non-null text value.
func kindOfText(s string) (int, bool) {
	switch {
	case strings.EqualFold(s, "true") || strings.EqualFold(s, "false"):
		return infBool, false
	case canonicalInt(s):
		if _, err := strconv.ParseInt(s, 10, 64); err == nil {
			return infInt, false
		}
	}
	if _, ok := parseFloatText(s); ok {
		return infDouble, false
	}
	if _, ok := parseDate(s); ok {
		return infDate, false
	}
	if t, ok := parseTimestamp(s); ok {
		return infTimestamp, t.Nanosecond()%1000 != 0
	}
	return infString, false
}

func (c *inferred) add(k int, nanos bool) {
	c.nanos = c.nanos || nanos
	switch {
	case c.kind == k, k == infNone:
	case c.kind == infNone:
		c.kind = k
	case (c.kind == infInt && k == infDouble) || (c.kind == infDouble && k == infInt):
		c.kind = infDouble
	case (c.kind == infDate && k == infTimestamp) || (c.kind == infTimestamp && k == infDate):
		c.kind = infTimestamp
	default:
		c.kind = infString
	}
}

func (c *inferred) addText(s string, isNull bool) {
	if isNull {
		c.nullable = true
		return
	}
	if c.kind == infString {
		return
	}
	k, nanos := kindOfText(s)
	c.add(k, nanos)
}

func (c inferred) colType() colType {
	t := colType{unit: writer.Micros, utc: true, required: false}
	switch c.kind {
	case infBool:
		t.kind = "bool"
	case infInt:
		t.kind = "int64"
	case infDouble:
		t.kind = "double"
	case infDate:
		t.kind = "date"
	case infTimestamp:
		t.kind = "timestamp"
		if c.nanos {
			t.unit = writer.Nanos
		}
	default:
		t.kind = "string"
		if c.isJSON {
			t.kind = "json"
		}
	}
	return t
}

// convert turns a text value into the Go value the writer takes for t.
func convert(s string, t colType) (any, error) {
	switch t.kind {
	case "bool":
		switch strings.ToLower(s) {
		case "true", "t", "1", "yes":
			return true, nil
		case "false", "f", "0", "no":
			return false, nil
		}
	case "int8", "int16", "int32", "int64":
		bits := map[string]int{"int8": 8, "int16": 16, "int32": 32, "int64": 64}[t.kind]
		if v, err := strconv.ParseInt(s, 10, bits); err == nil {
			return v, nil
		}
	case "uint8", "uint16", "uint32", "uint64":
		bits := map[string]int{"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}[t.kind]
		if v, err := strconv.ParseUint(s, 10, bits); err == nil {
			return v, nil
		}
	case "float":
		if v, ok := parseFloatText(s); ok {
			return float32(v), nil
		}
	case "double":
		if v, ok := parseFloatText(s); ok {
			return v, nil
		}
	case "date":
		if v, ok := parseDate(s); ok {
			return v, nil
		}
		if v, ok := parseTimestamp(s); ok {
			return v, nil
		}
	case "timestamp":
		if v, ok := parseTimestamp(s); ok {
			return v, nil
		}
		if v, ok := parseDate(s); ok {
			return v, nil
		}
	case "time":
		for _, l := range []string{"15:04:05.999999999", "15:04"} {
			if v, err := time.Parse(l, s); err == nil {
				return v, nil
			}
		}
	case "decimal":
		if d, ok := parseDecimal(s); ok {
			return d, nil
		}
	case "binary":
		return []byte(s), nil
	default:
		return s, nil
	}
	return nil, fmt.Errorf("%q is not a valid %s", s, t.kind)
}

// importSource reads records of text values (nil for NULL).
type importSource interface {
	header() []string
	next() ([]*string, error) // io.EOF at the end
	line() int
}

type csvSource struct {
	r        *csv.Reader
	hdr      []string
	null     string
	noHeader bool
	first    []string
	n        int
}

func newCSVSource(r io.Reader, comma rune, noHeader bool, null string) (*csvSource, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	s := &csvSource{r: cr, null: null, noHeader: noHeader}
	rec, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("empty input: no header line")
	}
	if err != nil {
		return nil, err
	}
	s.n = 1
	if noHeader {
		for i := range rec {
			s.hdr = append(s.hdr, fmt.Sprintf("column%d", i))
		}
		s.first = rec
	} else {
		s.hdr = rec
		if len(s.hdr) > 0 {
			s.hdr[0] = strings.TrimPrefix(s.hdr[0], "\ufeff")
		}
	}
	return s, nil
}

func (s *csvSource) header() []string { return s.hdr }
func (s *csvSource) line() int        { return s.n }

func (s *csvSource) next() ([]*string, error) {
	rec := s.first
	s.first = nil
	if rec == nil {
		var err error
		rec, err = s.r.Read()
		if err != nil {
			return nil, err
		}
		s.n++
	}
	if len(rec) != len(s.hdr) {
		return nil, fmt.Errorf("line %d: %d fields, the header has %d", s.n, len(rec), len(s.hdr))
	}
	out := make([]*string, len(rec))
	for i := range rec {
		if rec[i] != s.null {
			out[i] = &rec[i]
		}
	}
	return out, nil
}

// tsvSource reads TSV as pqsql export writes it: one record per line,
// fields separated by tabs, with \t, \n, \r and \\ escapes.
type tsvSource struct {
	sc    *bufio.Scanner
	hdr   []string
	null  string
	n     int
	first []string
}

var tsvUnescaper = strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r")

func newTSVSource(r io.Reader, noHeader bool, null string) (*tsvSource, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	s := &tsvSource{sc: sc, null: null}
	rec, err := s.read()
	if err == io.EOF {
		return nil, errors.New("empty input: no header line")
	}
	if err != nil {
		return nil, err
	}
	if noHeader {
		for i := range rec {
			s.hdr = append(s.hdr, fmt.Sprintf("column%d", i))
		}
		s.first = rec
	} else {
		s.hdr = rec
		s.hdr[0] = strings.TrimPrefix(s.hdr[0], "\ufeff")
	}
	return s, nil
}

func (s *tsvSource) read() ([]string, error) {
	if !s.sc.Scan() {
		if err := s.sc.Err(); err != nil {
			return nil, err
		}
		return nil, io.EOF
	}
	s.n++
	line := strings.TrimSuffix(s.sc.Text(), "\r")
	rec := strings.Split(line, "\t")
	for i, f := range rec {
		if strings.IndexByte(f, '\\') >= 0 {
			rec[i] = tsvUnescaper.Replace(f)
		}
	}
	return rec, nil
}

func (s *tsvSource) header() []string { return s.hdr }
func (s *tsvSource) line() int        { return s.n }

func (s *tsvSource) next() ([]*string, error) {
	rec := s.first
	s.first = nil
	if rec == nil {
		var err error
		if rec, err = s.read(); err != nil {
			return nil, err
		}
	}
	if len(rec) != len(s.hdr) {
		return nil, fmt.Errorf("line %d: %d fields, the header has %d", s.n, len(rec), len(s.hdr))
	}
	out := make([]*string, len(rec))
	for i := range rec {
		if rec[i] != s.null {
			out[i] = &rec[i]
		}
	}
	return out, nil
}

// jsonlSource reads JSON Lines: one object per line; columns in the order
// keys first appear (in a first pass, so every source is read twice).
type jsonlSource struct {
	sc   *bufio.Scanner
	hdr  []string
	idx  map[string]int
	n    int
	json []bool // columns that held objects or arrays
}

func newJSONLSource(r io.Reader, hdr []string) *jsonlSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 256<<20)
	s := &jsonlSource{sc: sc, hdr: hdr, idx: map[string]int{}}
	for i, h := range hdr {
		s.idx[h] = i
	}
	return s
}

func (s *jsonlSource) header() []string { return s.hdr }
func (s *jsonlSource) line() int        { return s.n }

// object reads the next line's keys (in order) and raw values.
func (s *jsonlSource) object() ([]string, []json.RawMessage, error) {
	for s.sc.Scan() {
		s.n++
		b := bytes.TrimSpace(s.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		tok, err := dec.Token()
		if err != nil || tok != json.Delim('{') {
			return nil, nil, fmt.Errorf("line %d: want a JSON object", s.n)
		}
		var keys []string
		var vals []json.RawMessage
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: %v", s.n, err)
			}
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return nil, nil, fmt.Errorf("line %d: %v", s.n, err)
			}
			keys = append(keys, kt.(string))
			vals = append(vals, raw)
		}
		return keys, vals, nil
	}
	if err := s.sc.Err(); err != nil {
		return nil, nil, err
	}
	return nil, nil, io.EOF
}

// text turns a raw JSON value into its text (nil for null), and reports
// objects and arrays.
func jsonText(raw json.RawMessage) (*string, bool, error) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return nil, false, nil
	case raw[0] == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, false, err
		}
		return &s, false, nil
	case raw[0] == '{' || raw[0] == '[':
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, false, err
		}
		s := buf.String()
		return &s, true, nil
	}
	s := string(raw)
	return &s, false, nil
}

func (s *jsonlSource) next() ([]*string, error) {
	keys, vals, err := s.object()
	if err != nil {
		return nil, err
	}
	out := make([]*string, len(s.hdr))
	for i, k := range keys {
		j, ok := s.idx[k]
		if !ok {
			return nil, fmt.Errorf("line %d: key %q not in the schema", s.n, k)
		}
		t, _, err := jsonText(vals[i])
		if err != nil {
			return nil, fmt.Errorf("line %d: key %q: %v", s.n, k, err)
		}
		out[j] = t
	}
	return out, nil
}

// scanJSONL is the first pass over JSON Lines: column order and types.
func scanJSONL(r io.Reader) ([]string, []inferred, error) {
	s := newJSONLSource(r, nil)
	var inf []inferred
	rows := 0
	for {
		keys, vals, err := s.object()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		seen := make([]bool, len(s.hdr))
		for i, k := range keys {
			j, ok := s.idx[k]
			if !ok {
				j = len(s.hdr)
				s.idx[k] = j
				s.hdr = append(s.hdr, k)
				// Rows before this one lacked the key: NULL.
				inf = append(inf, inferred{nullable: rows > 0})
				seen = append(seen, false)
			}
			seen[j] = true
			t, nested, err := jsonText(vals[i])
			if err != nil {
				return nil, nil, fmt.Errorf("line %d: key %q: %v", s.n, k, err)
			}
			c := &inf[j]
			switch {
			case t == nil:
				c.nullable = true
			case nested:
				c.isJSON = true
				c.add(infString, false)
			case vals[i][0] == '"':
				k, nanos := kindOfText(*t)
				if k == infBool || k == infInt || k == infDouble {
					k = infString // a quoted number stays text
				}
				c.add(k, nanos)
			case *t == "true" || *t == "false":
				c.add(infBool, false)
			default:
				if canonicalInt(*t) {
					c.add(infInt, false)
				} else {
					c.add(infDouble, false)
				}
			}
		}
		for j, ok := range seen {
			if !ok {
				inf[j].nullable = true
			}
		}
		rows++
	}
	return s.hdr, inf, nil
}

func runImport(e *env, args []string) error {
	fs := newFlags(e, "import", "import [-o FILE] [--format csv|tsv|jsonl] [--schema SPEC] [--codec C] [flags] INPUT",
		`Convert CSV (with a header line), TSV or JSON Lines to a Parquet file.
INPUT may be "-" for stdin. Column types are inferred from every value
(two passes over the input): BOOLEAN, BIGINT, DOUBLE, DATE (2006-01-02),
TIMESTAMP (RFC 3339 or "2006-01-02 15:04:05[.f]", UTC, microseconds or
nanoseconds), else VARCHAR; JSON objects and arrays become JSON columns. An
empty CSV field (or the --null text) is NULL. Integers with leading zeros
stay text. Or give the schema with --schema "name:type,...", types bool,
int8..int64, uint8..uint64, float, double, string, binary, json, date, time,
timestamp (us, UTC), timestamp_ms, timestamp_ns, timestamp_ntz,
decimal(p,s), uuid; a "!" after a type makes the column required.`,
		`pqsql import -o events.parquet events.csv
		 pqsql import --codec zstd --row-group-rows 100000 -o big.parquet big.csv
		 pqsql import --schema "ts:timestamp!,user:int32,amount:decimal(9,2)" -o t.parquet t.csv
		 cat rows.jsonl | pqsql import --format jsonl -o rows.parquet -`)
	out := fs.String("o", "", "output `FILE` (default: INPUT with the extension .parquet)")
	formatName := fs.String("format", "", "csv, tsv or jsonl (default: from INPUT's extension, else csv)")
	spec := fs.String("schema", "", "column names and types, \"name:type,...\" (default: inferred)")
	codecName := fs.String("codec", "snappy", "compression: none, snappy, gzip, zstd, lz4_raw, brotli")
	level := fs.Int("level", 0, "codec level (zstd, gzip, brotli; 0: the codec's default)")
	rgRows := fs.Int64("row-group-rows", 0, "rows per row group (default 1048576)")
	noHeader := fs.Bool("no-header", false, "CSV/TSV input has no header line (columns column0, column1, ...)")
	null := fs.String("null", "", "CSV/TSV text that means NULL")
	delim := fs.String("delimiter", "", "CSV field delimiter (default ',', tab for tsv)")
	bloomCols := fs.String("bloom", "", "columns to write bloom filters for, comma-separated")
	pos, err := fs.parse(args)
	if err != nil {
		return err
	}
	if err := fs.needArgs(pos, 1, 1); err != nil {
		return err
	}
	input := pos[0]
	fmtName := strings.ToLower(*formatName)
	if fmtName == "" {
		switch strings.ToLower(filepath.Ext(input)) {
		case ".jsonl", ".ndjson", ".json":
			fmtName = "jsonl"
		case ".tsv", ".tab":
			fmtName = "tsv"
		default:
			fmtName = "csv"
		}
	}
	if fmtName != "csv" && fmtName != "tsv" && fmtName != "jsonl" && fmtName != "ndjson" {
		return fmt.Errorf("import: unknown format %q (want csv, tsv or jsonl): %w", fmtName, errUsage)
	}
	comma := ','
	if fmtName == "tsv" {
		comma = '\t'
	}
	if *delim != "" {
		r := []rune(*delim)
		if len(r) != 1 {
			return fmt.Errorf("import: --delimiter must be one character: %w", errUsage)
		}
		comma = r[0]
	}
	codec, err := parseCodec(*codecName)
	if err != nil {
		return err
	}
	dest := *out
	if dest == "" {
		if input == "-" {
			return fmt.Errorf("import: -o FILE is needed when reading stdin: %w", errUsage)
		}
		dest = strings.TrimSuffix(input, filepath.Ext(input)) + ".parquet"
	}

	// The input is read twice (inference, then conversion): stdin is
	// spooled to a temporary file first.
	path := input
	if input == "-" {
		tmp, err := os.CreateTemp("", "pqsql-import-*")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		if _, err := io.Copy(tmp, e.stdin); err != nil {
			tmp.Close()
			return err
		}
		if err := tmp.Close(); err != nil {
			return err
		}
		path = tmp.Name()
	}
	open := func() (*os.File, int64, error) {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, err
		}
		return f, st.Size(), nil
	}
	bar := e.progressBar("importing", 0, "bytes")
	defer bar.Done()

	var names []string
	var types []colType
	if *spec != "" {
		if names, types, err = parseSchemaSpec(*spec); err != nil {
			return fmt.Errorf("import: %v: %w", err, errUsage)
		}
	}
	// Pass 1: header and inference.
	f, size, err := open()
	if err != nil {
		return err
	}
	bar.SetTotal(2 * size)
	var hdr []string
	if fmtName == "csv" || fmtName == "tsv" {
		src, err := newTextSource(&countingReader{r: f, bar: bar}, fmtName, comma, *noHeader, *null)
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", input, err)
		}
		hdr = src.header()
		if types == nil {
			inf := make([]inferred, len(hdr))
			for {
				rec, err := src.next()
				if err == io.EOF {
					break
				}
				if err != nil {
					f.Close()
					return fmt.Errorf("%s: %w", input, err)
				}
				for i, v := range rec {
					if v == nil {
						inf[i].addText("", true)
					} else {
						inf[i].addText(*v, false)
					}
				}
			}
			for _, c := range inf {
				types = append(types, c.colType())
			}
		}
	} else {
		var inf []inferred
		hdr, inf, err = scanJSONL(&countingReader{r: f, bar: bar})
		if err != nil {
			f.Close()
			return fmt.Errorf("%s: %w", input, err)
		}
		if types == nil {
			for _, c := range inf {
				types = append(types, c.colType())
			}
		}
	}
	f.Close()
	if names != nil {
		if len(names) != len(hdr) && (fmtName != "jsonl" || len(hdr) > 0) {
			return fmt.Errorf("import: --schema has %d columns, %s has %d", len(names), input, len(hdr))
		}
		if fmtName == "jsonl" || fmtName == "ndjson" {
			hdr = names
		}
	} else {
		names = hdr
	}
	if len(names) == 0 {
		return fmt.Errorf("import: %s has no columns", input)
	}
	fields := make([]writer.Field, len(names))
	for i, n := range names {
		fields[i] = types[i].field(n)
	}
	sch, err := writer.NewSchema(fields...)
	if err != nil {
		return fmt.Errorf("import: %w", err)
	}
	opts := []writer.Option{writer.WithCompression(codec)}
	if *level != 0 {
		opts = append(opts, writer.WithCompressionLevel(*level))
	}
	if *rgRows > 0 {
		opts = append(opts, writer.WithRowGroupRows(*rgRows))
	}
	for _, c := range splitColumns(*bloomCols) {
		opts = append(opts, writer.WithBloomFilterFor(c, 0, 0))
	}

	// Pass 2: convert and write.
	f, _, err = open()
	if err != nil {
		return err
	}
	defer f.Close()
	cr := &countingReader{r: f, bar: bar, base: size}
	var src importSource
	if fmtName == "csv" || fmtName == "tsv" {
		if src, err = newTextSource(cr, fmtName, comma, *noHeader, *null); err != nil {
			return err
		}
	} else {
		src = newJSONLSource(cr, hdr)
	}
	w, err := createOutput(e.ctx, dest, sch, opts)
	if err != nil {
		return err
	}
	const batch = 4096
	rows := make([][]any, 0, batch)
	var total int64
	flush := func() error {
		if len(rows) == 0 {
			return nil
		}
		err := w.WriteRows(rows)
		total += int64(len(rows))
		rows = rows[:0]
		return err
	}
	for {
		rec, err := src.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			w.Abort()
			return fmt.Errorf("%s: %w", input, err)
		}
		row := make([]any, len(rec))
		for i, v := range rec {
			if v == nil {
				if types[i].required {
					w.Abort()
					return fmt.Errorf("%s: line %d: column %s is required but the value is NULL", input, src.line(), names[i])
				}
				continue
			}
			if row[i], err = convert(*v, types[i]); err != nil {
				w.Abort()
				return fmt.Errorf("%s: line %d: column %s: %v", input, src.line(), names[i], err)
			}
		}
		rows = append(rows, row)
		if len(rows) == batch {
			if err := flush(); err != nil {
				w.Abort()
				return err
			}
		}
		if e.ctx.Err() != nil {
			w.Abort()
			return e.ctx.Err()
		}
	}
	if err := flush(); err != nil {
		w.Abort()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	bar.Done()
	desc := make([]string, len(names))
	for i := range names {
		desc[i] = names[i] + ":" + types[i].String()
	}
	fmt.Fprintf(e.stderr, "wrote %d rows to %s (%s)\n", total, dest, strings.Join(desc, ","))
	return nil
}

// newTextSource reads CSV, or TSV with pqsql's escapes (a TSV with another
// --delimiter is read as CSV).
func newTextSource(r io.Reader, format string, comma rune, noHeader bool, null string) (importSource, error) {
	if format == "tsv" && comma == '\t' {
		return newTSVSource(r, noHeader, null)
	}
	return newCSVSource(r, comma, noHeader, null)
}

func parseCodec(s string) (format.CompressionCodec, error) {
	switch strings.ToLower(s) {
	case "", "none", "uncompressed":
		return format.Uncompressed, nil
	case "snappy":
		return format.Snappy, nil
	case "gzip":
		return format.Gzip, nil
	case "zstd":
		return format.Zstd, nil
	case "lz4_raw", "lz4":
		return format.LZ4Raw, nil
	case "brotli":
		return format.Brotli, nil
	}
	return 0, fmt.Errorf("unknown codec %q (want none, snappy, gzip, zstd, lz4_raw or brotli): %w", s, errUsage)
}

// countingReader reports bytes read to a progress bar.
type countingReader struct {
	r    io.Reader
	bar  interface{ Set(int64) }
	base int64
	n    int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.bar != nil {
		c.bar.Set(c.base + c.n)
	}
	return n, err
}

// createOutput writes a Parquet file at dest: a local path (put in place
// when it is complete) or an object store URL (visible once complete).
func createOutput(ctx context.Context, dest string, sch *schema.Schema, opts []writer.Option) (*writer.Writer, error) {
	if !objstore.IsURL(dest) {
		return writer.Create(dest, sch, opts...)
	}
	up, err := objstore.CreateURL(ctx, dest, nil, false)
	if err != nil {
		return nil, err
	}
	return writer.NewUpload(up, sch, opts...)
}

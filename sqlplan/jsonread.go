package sqlplan

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// read_json(path | [paths] | glob, options...), read_json_auto,
// read_ndjson, read_ndjson_auto and read_json_objects: JSON files as
// DuckDB (v1.5) reads them, the columns of their records with the types
// it detects (jsoninfer.go) from a sample of the values, or one column
// "json" of each value when the values are no records. The rewrite made
// the call a marker table name (parse/jsonread.go); this file reads its
// options, lists the files, detects the columns and plans the scan
// (jsonscan.go), which streams the files in batches of typed vectors.

// The defaults of DuckDB's options.
const (
	jsonDefaultSample    = 20480
	jsonDefaultMaxObject = 16 << 20
)

// jsonOptions are a call's options.
type jsonOptions struct {
	fn                      string
	format                  string // auto, newline_delimited, array or unstructured
	records                 string // auto, true or false
	columns                 []NamedType
	hasColumns              bool
	maxDepth                int // -1: no limit
	sampleSize              int // -1: every value
	filename                bool
	unionByName             bool
	ignoreErrors            bool
	compression             string // auto, none, gzip or zstd
	dateFormat, stampFormat string
	maxObject               int
	objects                 bool // read_json_objects: each value as JSON
}

// fileReadRelation is the relation of a call the rewrite made a table
// name of, ok false for other names.
func (p *planner) fileReadRelation(name, alias string) (*relation, bool, error) {
	enc, ok := strings.CutPrefix(name, parse.FileReadMarker)
	if !ok {
		return nil, false, nil
	}
	q, err := url.ParseQuery(enc)
	fn := q.Get("fn")
	if _, known := parse.FileReadFunctions[fn]; err != nil || !known {
		return nil, true, errorf("%s is a name reserved for carquet's own use", name)
	}
	if alias == "" {
		alias = fn
	}
	if fn == "read_text" || fn == "read_blob" {
		rel, err := p.readTextRelation(fn, alias, q["path"]) // readtext.go
		return rel, true, err
	}
	opts, err := jsonOptionsOf(fn, q)
	if err != nil {
		return nil, true, err
	}
	if table := q.Get("table"); table != "" {
		// COPY table FROM a JSON file: the table's columns (jsoncopy.go).
		ent, err := p.tableEntry(table)
		if err != nil {
			return nil, true, err
		}
		opts.hasColumns, opts.columns = true, nil
		for _, c := range ent.cols {
			opts.columns = append(opts.columns, NamedType{Name: c.name, Type: c.t})
		}
	}
	rel, err := p.jsonRelation(opts, alias, q["path"])
	return rel, true, err
}

// jsonOptionsOf reads a call's options, as DuckDB names them.
func jsonOptionsOf(fn string, q url.Values) (*jsonOptions, error) {
	o := &jsonOptions{fn: fn, format: "auto", records: "auto", maxDepth: -1, sampleSize: jsonDefaultSample, compression: "auto", maxObject: jsonDefaultMaxObject}
	if strings.HasPrefix(fn, "read_ndjson") {
		o.format = "newline_delimited"
	}
	o.objects = strings.Contains(fn, "_objects")
	for key, vals := range q {
		v := vals[len(vals)-1]
		var err error
		switch key {
		case "fn", "path", "has_columns", "table":
		case "format":
			o.format, err = oneOf(key, strings.ToLower(v), "auto", "newline_delimited", "array", "unstructured")
		case "records":
			o.records, err = oneOf(key, strings.ToLower(v), "auto", "true", "false")
		case "compression":
			o.compression, err = oneOf(key, strings.ToLower(v), "auto", "none", "gzip", "zstd", "uncompressed")
		case "columns":
			o.hasColumns = true
			o.columns, err = jsonDeclaredColumns(vals)
		case "maximum_depth":
			o.maxDepth, err = intOption(key, v, -1)
		case "sample_size":
			o.sampleSize, err = intOption(key, v, -1)
		case "maximum_object_size":
			o.maxObject, err = intOption(key, v, 1)
		case "filename":
			o.filename, err = boolOption(key, v)
		case "union_by_name":
			o.unionByName, err = boolOption(key, v)
		case "ignore_errors":
			o.ignoreErrors, err = boolOption(key, v)
		case "auto_detect":
			_, err = boolOption(key, v) // detection runs unless columns are given, as DuckDB's
		case "convert_strings_to_integers", "hive_partitioning":
			var on bool
			if on, err = boolOption(key, v); err == nil && on {
				err = errorf("%s: option %s is not supported", fn, key)
			}
		case "dateformat", "date_format":
			o.dateFormat = v
		case "timestampformat", "timestamp_format":
			o.stampFormat = v
		default:
			return nil, errorf("Invalid named parameter %q for function %s", key, fn)
		}
		if err != nil {
			return nil, err
		}
	}
	if q.Get("has_columns") != "" && !o.hasColumns {
		return nil, errorf("%s: columns takes at least one column", fn)
	}
	if o.compression == "uncompressed" {
		o.compression = "none"
	}
	return o, nil
}

// jsonDeclaredColumns reads columns={'a': 'INTEGER', ...}.
func jsonDeclaredColumns(pairs []string) ([]NamedType, error) {
	out := make([]NamedType, 0, len(pairs))
	for _, pair := range pairs {
		name, typ, ok := strings.Cut(pair, "\x1f")
		if !ok {
			return nil, errorf("columns takes a struct of column names and type names, as {'a': 'INTEGER'}")
		}
		t, err := nestedTypeOf(typ, nil) // built-in type names only
		if err != nil {
			return nil, errorf("columns: %s: %v", name, err)
		}
		out = append(out, NamedType{Name: name, Type: t})
	}
	return out, nil
}

func oneOf(key, v string, allowed ...string) (string, error) {
	for _, a := range allowed {
		if v == a {
			return v, nil
		}
	}
	return "", errorf("%s must be one of %s, not %q", key, strings.Join(allowed, ", "), v)
}

func intOption(key, v string, least int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < least {
		return 0, errorf("%s takes an integer of at least %d, not %q", key, least, v)
	}
	return n, nil
}

func boolOption(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errorf("%s takes true or false, not %q", key, v)
}

// jsonRelation lists the files, detects the columns (unless given) and
// plans the scan.
func (p *planner) jsonRelation(o *jsonOptions, alias string, patterns []string) (*relation, error) {
	names, paths, err := p.metaPaths(patterns) // pqmeta.go
	if err != nil {
		return nil, err
	}
	files := make([]jsonFile, len(paths))
	for k := range paths {
		files[k] = jsonFile{name: names[k], path: paths[k]}
	}
	scan := &jsonScan{opts: o, files: files}
	if err := scan.detect(); err != nil {
		return nil, err
	}
	cols := make([]Column, 0, len(scan.cols)+1)
	for _, c := range scan.cols {
		cols = append(cols, Column{Name: c.name, Type: c.t, Nullable: true})
	}
	if o.filename {
		cols = append(cols, Column{Name: "filename", Type: tString, Nullable: false})
	}
	return nodeRelation(alias, scan, cols), nil
}

// jsonFile is one file of a scan: the name its rows show, and its path.
type jsonFile struct {
	name, path string
}

// jsonColumn is a column of a scan: its name, type and, for a DATE or
// TIMESTAMP detected from strings, the format they are read with.
type jsonColumn struct {
	name   string
	t      Type
	format string
}

// detect sets the scan's columns and whether it reads records: the
// declared columns, or those detected from a sample of the values (of
// each file for union_by_name, else of the first files up to the sample
// size).
func (n *jsonScan) detect() error {
	o := n.opts
	if o.objects {
		n.cols = []jsonColumn{{name: "json", t: tJSON}}
		return nil
	}
	if o.hasColumns {
		if o.records == "false" {
			return errorf("%s: columns names the keys of records; it does not go with records=false", o.fn)
		}
		n.records = true
		for _, c := range o.columns {
			n.cols = append(n.cols, jsonColumn{name: c.Name, t: c.Type})
		}
		return nil
	}
	in := newJSONInferer(o.dateFormat, o.stampFormat)
	top, all := &jsonShape{}, 0
	for k := range n.files {
		if !o.unionByName && o.sampleSize >= 0 && all >= o.sampleSize {
			break
		}
		got, err := n.sampleFile(k, in, top)
		if err != nil {
			return err
		}
		all += got
	}
	switch {
	case o.records == "true" && top.kind != '{' && top.kind != 0:
		return errorf("read_json: records=true but the values are not JSON objects; use records=false")
	case o.records == "true", o.records == "auto" && top.kind == '{' && !top.isMap():
		n.records = true
		for k, key := range top.keys {
			t, format := jsonColumnType(top.vals[k], 1, o.maxDepth)
			n.cols = append(n.cols, jsonColumn{name: key, t: t, format: format})
		}
		if len(n.cols) == 0 {
			n.cols = []jsonColumn{{name: "json", t: tJSON}}
			n.records = false
		}
	default:
		t, format := jsonColumnType(top, 0, o.maxDepth)
		n.cols = []jsonColumn{{name: "json", t: t, format: format}}
	}
	return nil
}

// sampleFile adds up to the sample size of file k's values to top and
// returns how many it read.
func (n *jsonScan) sampleFile(k int, in *jsonInferer, top *jsonShape) (int, error) {
	src, err := openJSONSource(n.files[k], n.opts)
	if err != nil {
		return 0, err
	}
	defer src.close()
	got := 0
	for n.opts.sampleSize < 0 || got < n.opts.sampleSize {
		doc, err := src.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if n.opts.ignoreErrors && src.recoverable(err) {
				continue
			}
			return got, err
		}
		in.add(top, doc)
		got++
	}
	return got, nil
}

// jsonReadError is an error at a place of a file: a line, or a byte
// offset where lines are not read one by one.
type jsonReadError struct {
	file  string
	line  int
	off   int64
	msg   string
	fatal bool // the file cannot be read on: ignore_errors does not skip it
}

func (e *jsonReadError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("Malformed JSON in file %q, at line %d: %s", e.file, e.line, e.msg)
	}
	return fmt.Sprintf("Malformed JSON in file %q, at byte %d: %s", e.file, e.off, e.msg)
}

// parseJSONDoc parses one document; the parser bounds its nesting
// (function/jsonparse.go), so a deep one is an error, not a deep
// recursion.
func parseJSONDoc(doc []byte) (*function.JSONNode, error) {
	return function.ParseJSON(doc)
}

// nodeRelation is a relation named alias of the rows of a scan node with
// columns cols.
func nodeRelation(alias string, root node, cols []Column) *relation {
	rel := &relation{alias: alias, sub: &selectPlan{root: root, cols: cols}}
	for i, col := range cols {
		rel.cols = append(rel.cols, &scopeCol{rel: rel, name: col.Name, t: col.Type, slot: &slot{}, local: i})
	}
	return rel
}

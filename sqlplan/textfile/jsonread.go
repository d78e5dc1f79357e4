package textfile

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// read_json(path | [paths] | glob, options...), read_json_auto,
// read_ndjson, read_ndjson_auto and read_json_objects: JSON files as
// DuckDB (v1.5) reads them, the columns of their records with the types
// it detects (jsoninfer.go) from a sample of the values, or one column
// "json" of each value when the values are no records. The rewrite made
// the call a marker table name (parse/jsonread.go), which the planner
// binds (textbind.go in package sqlplan); this file reads its options,
// detects the columns and plans the scan (jsonscan.go), which streams
// the files in batches of typed vectors.

// The defaults of DuckDB's options.
const (
	jsonDefaultSample    = 20480
	jsonDefaultMaxObject = 16 << 20
)

// JSONOptions are a call's options.
type JSONOptions struct {
	fn                      string
	format                  string // auto, newline_delimited, array or unstructured
	records                 string // auto, true or false
	columns                 []vec.NamedType
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

// ReadJSONOptions reads a call's options, as DuckDB names them, the type
// names of columns= with parseType.
func ReadJSONOptions(fn string, q url.Values, parseType TypeParser) (*JSONOptions, error) {
	o := &JSONOptions{fn: fn, format: "auto", records: "auto", maxDepth: -1, sampleSize: jsonDefaultSample, compression: "auto", maxObject: jsonDefaultMaxObject}
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
			o.columns, err = jsonDeclaredColumns(vals, parseType)
		case "maximum_depth":
			o.maxDepth, err = intOption(key, v, -1)
		case "sample_size":
			o.sampleSize, err = intOption(key, v, -1)
		case "maximum_object_size":
			o.maxObject, err = intOption(key, v, 1)
		case "filename":
			o.filename, err = BoolOption(key, v)
		case "union_by_name":
			o.unionByName, err = BoolOption(key, v)
		case "ignore_errors":
			o.ignoreErrors, err = BoolOption(key, v)
		case "auto_detect":
			_, err = BoolOption(key, v) // detection runs unless columns are given, as DuckDB's
		case "convert_strings_to_integers", "hive_partitioning":
			var on bool
			if on, err = BoolOption(key, v); err == nil && on {
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
func jsonDeclaredColumns(pairs []string, parseType TypeParser) ([]vec.NamedType, error) {
	out := make([]vec.NamedType, 0, len(pairs))
	for _, pair := range pairs {
		name, typ, ok := strings.Cut(pair, "\x1f")
		if !ok {
			return nil, errorf("columns takes a struct of column names and type names, as {'a': 'INTEGER'}")
		}
		t, err := parseType(typ)
		if err != nil {
			return nil, errorf("columns: %s: %v", name, err)
		}
		out = append(out, vec.NamedType{Name: name, Type: t})
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

// BoolOption reads option key's value v: true, false, 1 or 0.
func BoolOption(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, errorf("%s takes true or false, not %q", key, v)
}

// File is one file of a scan: the name its rows and errors show, and
// its path.
type File struct {
	Name, Path string
}

// SetColumns makes the columns the call reads those given, as if
// columns= named them (COPY t FROM a JSON file reads t's).
func (o *JSONOptions) SetColumns(cols []vec.NamedType) {
	o.hasColumns, o.columns = true, cols
}

// JSONConverter reads a JSON value as a value of type t, as
// json_transform does (strict: an error where a value does not fit,
// else NULL).
type JSONConverter func(n *function.JSONNode, t vec.Type, strict bool) (any, error)

// PlanJSON detects the columns of the files (unless given) and returns
// the scan, which reads the values that are not plain scalars with
// convert, and its columns.
func PlanJSON(o *JSONOptions, files []File, convert JSONConverter) (Scan, []Column, error) {
	scan := &jsonScan{opts: o, files: files, convert: convert}
	if err := scan.detect(); err != nil {
		return nil, nil, err
	}
	cols := make([]Column, 0, len(scan.cols)+1)
	for _, c := range scan.cols {
		cols = append(cols, Column{Name: c.name, Type: c.t, Nullable: true})
	}
	if o.filename {
		cols = append(cols, Column{Name: "filename", Type: tString, Nullable: false})
	}
	return scan, cols, nil
}

// jsonColumn is a column of a scan: its name, type and, for a DATE or
// TIMESTAMP detected from strings, the format they are read with.
type jsonColumn struct {
	name   string
	t      vec.Type
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

package sqlplan

import (
	"bufio"
	"context"
	"io"
	"net/url"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/sqlplan/textfile"
)

// COPY (query) TO 'x.json' [(FORMAT json, ARRAY true|false, COMPRESSION
// gzip|none, DATEFORMAT f, TIMESTAMPFORMAT f)]: the rows as JSON objects,
// one per line (or the elements of one array with ARRAY true), which
// package textfile writes with DuckDB's rendering of values. The file is
// written to a temporary file beside it, renamed over it once whole.

// jsonCopySpec is the options of a COPY TO a JSON file.
type jsonCopySpec struct {
	gzip   bool
	format textfile.JSONCopy
}

// isJSONCopy reports whether COPY ... TO file with the options at
// toks[i:] writes JSON: FORMAT json, or a .json/.ndjson/.jsonl name and
// no FORMAT.
func isJSONCopy(file string, toks []parse.Token) bool {
	for k := 0; k+1 < len(toks); k++ {
		if toks[k].Is("format") {
			v := toks[k+1]
			if v.Kind == parse.Op && v.Text == "=" && k+2 < len(toks) {
				v = toks[k+2]
			}
			return strings.EqualFold(v.Unquoted(), "json") || strings.EqualFold(v.Text, "json")
		}
	}
	return parse.IsJSONPath(file)
}

// prepareCopyJSON reads the options (their "(" at toks[i]) and the query
// of a COPY TO a JSON file.
func (e *Engine) prepareCopyJSON(ctx context.Context, s *Stmt, text string, toks, query []parse.Token, i int) (*Stmt, error) {
	spec := &jsonCopySpec{gzip: strings.HasSuffix(strings.ToLower(s.table), ".gz"), format: textfile.JSONCopy{ToJSON: valueJSON}}
	if i < len(toks) && toks[i].Is("with") {
		i++
	}
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
		end := parse.ClosingParen(toks, i)
		if end < 0 {
			return nil, errAt(text, toks[i].Pos, "unmatched ( in the COPY options")
		}
		for _, item := range parse.SplitList(toks[i+1 : end]) {
			if err := spec.option(text, item); err != nil {
				return nil, err
			}
		}
		i = end + 1
	}
	inner, err := e.prepareCopyQuery(ctx, text, toks, i, query) // csvcopy.go
	if err != nil {
		return nil, err
	}
	s.kind, s.inner, s.jsonCopy = kindCopy, inner, spec
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// option reads one COPY option: NAME value or NAME = value.
func (spec *jsonCopySpec) option(text string, item []parse.Token) error {
	if len(item) == 3 && item[1].Kind == parse.Op && item[1].Text == "=" {
		item = []parse.Token{item[0], item[2]}
	}
	if len(item) == 1 && item[0].Is("array") {
		spec.format.Array = true
		return nil
	}
	if len(item) != 2 {
		return errAt(text, item[0].Pos, "COPY options are written NAME value, ...")
	}
	val := item[1].Unquoted()
	if item[1].Kind == parse.Ident || item[1].Kind == parse.Number {
		val = item[1].Text
	}
	switch strings.ToLower(item[0].Text) {
	case "format":
		if !strings.EqualFold(val, "json") {
			return errAt(text, item[1].Pos, "COPY to a JSON file: FORMAT %s", val)
		}
	case "array":
		b, err := textfile.BoolOption("ARRAY", val)
		spec.format.Array = b
		return err
	case "compression", "codec":
		switch strings.ToLower(val) {
		case "gzip":
			spec.gzip = true
		case "none", "uncompressed":
			spec.gzip = false
		case "auto":
		default:
			return errAt(text, item[1].Pos, "COPY to JSON: compression %s is not supported (gzip or none)", val)
		}
	case "dateformat", "date_format":
		spec.format.DateFormat = val
	case "timestampformat", "timestamp_format":
		spec.format.TimestampFormat = val
	default:
		return errAt(text, item[0].Pos, "unknown COPY option %q for FORMAT json", item[0].Text)
	}
	return nil
}

// copyToJSON runs the query and writes its rows.
func (s *Stmt) copyToJSON(ctx context.Context, p *plan.Planner) (res Result, err error) {
	path, err := s.e.confine.Join(s.table, true)
	if err != nil {
		return Result{}, &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	ip := p.Child(s.inner.Src)
	defer ip.ReleaseAll()
	sp, err := s.inner.Plan(ip)
	if err != nil {
		return Result{}, err
	}
	defer sp.Root.Close()
	var n int64
	err = textfile.ReplaceFile(path, ".copy-*.json", s.jsonCopy.gzip, func(w *bufio.Writer) error {
		var err error
		n, err = s.jsonCopy.writeRows(ctx, w, sp)
		return err
	})
	if err != nil {
		return Result{}, err
	}
	return Result{RowsAffected: n}, nil
}

// writeRows writes the plan's rows, an object per row.
func (spec *jsonCopySpec) writeRows(ctx context.Context, w *bufio.Writer, sp *plan.SelectPlan) (int64, error) {
	cols := make([]NamedType, len(sp.Cols))
	for k, c := range sp.Cols {
		cols[k] = NamedType{Name: c.Name, Type: c.Type}
	}
	f := spec.format // a copy: it counts this run's rows, and a statement may run at once in two
	f.Begin(w, cols)
	for {
		b, err := sp.Root.Next(ctx)
		if err == io.EOF {
			return f.End(w), nil
		}
		if err != nil {
			return 0, err
		}
		if err := f.WriteBatch(w, b); err != nil {
			return 0, err
		}
	}
}

// valueJSON is to_json's text of a value of type t, not NULL.
func valueJSON(t Type, v any) (string, error) {
	if t.Kind == KNested {
		return plan.NestedText(t, v, true)
	}
	return plan.ScalarJSON(t, v), nil
}

// prepareCopyFromJSON is COPY t FROM 'x.json' [(FORMAT json)] (FROM at
// toks[at]): INSERT INTO t SELECT * FROM the file read with t's columns
// (read_json's columns option), matched by name as DuckDB's COPY matches
// them.
func (e *Engine) prepareCopyFromJSON(ctx context.Context, toks []parse.Token, at int) (*Stmt, error) {
	for _, t := range toks[at+2:] {
		if t.Kind == parse.Ident && !t.Is("format") && !t.Is("json") && !t.Is("with") {
			return nil, errorf("COPY ... FROM a JSON file: option %s is not supported (FORMAT json only)", t.Text)
		}
	}
	q := url.Values{"fn": {"read_json_auto"}, "path": {toks[at+1].Unquoted()}, "table": {toks[1].Name()}}
	sql := "INSERT INTO " + toks[1].Text + " SELECT * FROM " + parse.Backquote(parse.FileReadMarker+q.Encode())
	ins, err := parse.Lex(sql)
	if err != nil {
		return nil, err
	}
	return e.prepareTokens(ctx, sql, parse.Significant(ins))
}

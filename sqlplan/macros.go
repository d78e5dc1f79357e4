package sqlplan

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// Macros (DuckDB's CREATE MACRO, also spelled CREATE FUNCTION):
//
//	CREATE [OR REPLACE] [TEMP|TEMPORARY] MACRO [IF NOT EXISTS] name(a, b := default) AS expr
//	CREATE [OR REPLACE] [TEMP|TEMPORARY] MACRO [IF NOT EXISTS] name(a, ...) AS TABLE query
//	DROP MACRO [TABLE] [IF EXISTS] name
//
// A macro is its parameters and its body's tokens. Statements prepared
// after it have their calls expanded on the tokens, before anything else
// reads them: a scalar macro's call becomes its body in parentheses, a
// table macro's call after FROM, JOIN or a comma of a FROM list becomes
// its query as a derived table named by the macro, each parameter of the
// body replaced by its argument (in parentheses) or its default. Calls in
// a body are expanded when the body is, so a macro sees the macros of the
// time it is called (as DuckDB binds them), and a macro that reaches
// itself is an error, not an endless expansion. Scalar and table macros
// have names of their own, and a macro hides a built-in function of its
// name, as in DuckDB. Macros that are not TEMP are kept with the
// folder's catalog, as views are (catalogfile.go).

type macro struct {
	name   string   // as written
	params []string // lower-case names, in order
	// defaults holds the default's tokens of each parameter that has one
	// (the parameters without a default come first).
	defaults [][]parse.Token
	// types holds the type's tokens of each typed parameter (a INTEGER),
	// nil for the others: an argument must cast to it implicitly.
	types [][]parse.Token
	body  []parse.Token
	table bool // AS TABLE query
	temp  bool
	// alts are the other overloads of a scalar macro, name(a) AS x, (a,
	// b) AS y: a call takes the first whose parameters fit its arguments.
	alts []*macro
}

// overloads are the macro and its other overloads.
func (m *macro) overloads() []*macro { return append([]*macro{m}, m.alts...) }

// macroKey names a macro in the engine's map: scalar and table macros,
// temporary and kept ones, each have names of their own.
type macroKey struct {
	name  string // lower case
	table bool
	temp  bool
}

func (m *macro) key() macroKey {
	return macroKey{name: strings.ToLower(m.name), table: m.table, temp: m.temp}
}

// params is (a, b := default), with quoteName applied to the names.
func (m *macro) paramText(quoteName func(string) string) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range m.params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(p))
		if i < len(m.types) && m.types[i] != nil {
			b.WriteString(" ")
			b.WriteString(parse.TokText(m.types[i]))
		}
		if d := m.defaults[i]; d != nil {
			b.WriteString(" := ")
			b.WriteString(parse.TokText(d))
		}
	}
	b.WriteByte(')')
	return b.String()
}

// signature is name(a, b := default), for error messages (each overload).
func (m *macro) signature() string {
	var parts []string
	for _, o := range m.overloads() {
		parts = append(parts, m.name+o.paramText(func(s string) string { return s }))
	}
	return strings.Join(parts, ", ")
}

// definition is the CREATE statement that makes the macro again.
func (m *macro) definition() string {
	var b strings.Builder
	b.WriteString("CREATE ")
	if m.temp {
		b.WriteString("TEMP ")
	}
	b.WriteString("MACRO ")
	b.WriteString(parse.QuoteIdent(m.name))
	for k, o := range m.overloads() {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(o.paramText(parse.QuoteIdent))
		b.WriteString(" AS ")
		if m.table {
			b.WriteString("TABLE ")
		}
		b.WriteString(parse.TokText(o.body))
	}
	return b.String()
}

// isMacroCreate reports whether toks start CREATE [OR REPLACE]
// [TEMP|TEMPORARY] MACRO|FUNCTION, and where the word MACRO is.
func isMacroCreate(toks []parse.Token) (int, bool) {
	i := 1
	if i+1 < len(toks) && toks[i].Is("or") && toks[i+1].Is("replace") {
		i += 2
	}
	if i < len(toks) && (toks[i].Is("temp") || toks[i].Is("temporary")) {
		i++
	}
	return i, i < len(toks) && (toks[i].Is("macro") || toks[i].Is("function"))
}

// parseMacro reads CREATE ... MACRO name(params) AS [TABLE] body from the
// word MACRO at toks[i] on; s gets OR REPLACE, TEMP and IF NOT EXISTS.
func parseMacro(text string, toks []parse.Token, s *Stmt) (*macro, error) {
	i := 1
	if toks[i].Is("or") {
		s.replace = true
		i += 2
	}
	m := &macro{}
	if toks[i].Is("temp") || toks[i].Is("temporary") {
		m.temp, s.temp = true, true
		i++
	}
	what := strings.ToUpper(toks[i].Text)
	i++
	if i+2 < len(toks) && toks[i].Is("if") && toks[i+1].Is("not") && toks[i+2].Is("exists") {
		if s.replace {
			return nil, errAt(text, toks[i].Pos, "CREATE OR REPLACE %s takes no IF NOT EXISTS", what)
		}
		s.ifMod = true
		i += 3
	}
	// main.name and temp.name: the schema is the only one there is.
	if i+2 < len(toks) && toks[i+1].Kind == parse.Op && toks[i+1].Text == "." && (toks[i].Is("main") || toks[i].Is("temp")) {
		if toks[i].Is("temp") {
			m.temp, s.temp = true, true
		}
		i += 2
	}
	if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
		return nil, errAt(text, parse.TokPos(text, toks, i), "expected the name of the %s", strings.ToLower(what))
	}
	m.name = toks[i].Name()
	i++
	i, err := parseOverload(text, toks, i, m)
	if err != nil {
		return nil, err
	}
	if toks[i].Is("table") {
		m.table = true
		i++
		if i >= len(toks) {
			return nil, errAt(text, len(text), "expected a query after AS TABLE")
		}
		m.body = toks[i:]
		if toks[i].Kind == parse.Op && toks[i].Text == "(" && parse.ClosingParen(toks, i) == len(toks)-1 && len(toks) > i+2 {
			m.body = toks[i+1 : len(toks)-1] // AS TABLE (query), as DuckDB writes it
		}
		return m, nil
	}
	// A scalar macro's body is an expression: a comma at its top level
	// starts another overload, (params) AS expr.
	parts := parse.SplitTopLevel(toks[i:])
	m.body = parts[0]
	for _, part := range parts[1:] {
		o := &macro{name: m.name, temp: m.temp}
		if len(part) == 0 {
			return nil, errAt(text, len(text), "expected (parameters) AS expression after the comma")
		}
		j, err := parseOverload(text, part, 0, o)
		if err != nil {
			return nil, err
		}
		if j >= len(part) {
			return nil, errAt(text, len(text), "expected an expression after AS")
		}
		o.body = part[j:]
		m.alts = append(m.alts, o)
	}
	for _, o := range m.overloads() {
		if len(o.body) == 0 {
			return nil, errAt(text, len(text), "expected an expression after AS")
		}
	}
	return m, nil
}

// parseOverload reads (params) AS from toks[i] on into m's parameters and
// returns where the body starts.
func parseOverload(text string, toks []parse.Token, i int, m *macro) (int, error) {
	if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
		return 0, errAt(text, parse.TokPos(text, toks, i), "expected the parameters of %s in parentheses", m.name)
	}
	k := parse.ClosingParen(toks, i)
	if k < 0 {
		return 0, errAt(text, toks[i].Pos, "unclosed parenthesis")
	}
	if k > i+1 {
		for _, p := range parse.SplitTopLevel(toks[i+1 : k]) {
			if len(p) == 0 || p[0].Kind != parse.Ident && p[0].Kind != parse.Quoted && p[0].Kind != parse.DQuoted {
				return 0, errAt(text, parse.TokPos(text, toks, k), "expected a parameter name")
			}
			name := strings.ToLower(p[0].Name())
			for _, q := range m.params {
				if q == name {
					return 0, errAt(text, p[0].Pos, "Duplicate parameter '%s' in macro definition", name)
				}
			}
			var def, typ []parse.Token
			switch {
			case len(p) == 1:
			case len(p) > 3 && parse.IsNamedArrow(p, 1):
				def = p[3:]
			case len(p) > 2 && p[1].Is("default"):
				def = p[2:]
			default:
				// name TYPE, as DuckDB has them (without a default).
				_, end, err := plan.ReadType(text, p, 1)
				if err != nil {
					return 0, err
				}
				if end != len(p) {
					return 0, errAt(text, p[end].Pos, "expected , after the parameter %s and its type", name)
				}
				typ = p[1:]
			}
			if def == nil && len(m.defaults) > 0 && m.defaults[len(m.defaults)-1] != nil {
				return 0, errAt(text, p[0].Pos, "Parameter without a default follows parameter with a default")
			}
			m.params = append(m.params, name)
			m.defaults = append(m.defaults, def)
			m.types = append(m.types, typ)
		}
	}
	i = k + 1
	if i >= len(toks) || !toks[i].Is("as") || i+1 >= len(toks) {
		return 0, errAt(text, parse.TokPos(text, toks, i), "expected AS and the body of %s", m.name)
	}
	return i + 1, nil
}

// prepareMacro prepares CREATE MACRO / CREATE FUNCTION. Like DuckDB, it
// checks the body now: its macros must expand (with the macros there are
// now, so a body that calls itself is an error) and it must parse, as an
// expression or, for a table macro, as a query.
func (e *Engine) prepareMacro(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	m, err := parseMacro(text, toks, s)
	if err != nil {
		return nil, err
	}
	// Check the body with each parameter (and the macro's own name) taken
	// for what it will be given.
	macros := e.macroSnapshot()
	if macros.m == nil {
		macros.m = map[macroKey]*macro{}
	}
	x := &expander{text: text, macros: macros}
	if _, ok := macros.lookup(strings.ToLower(m.name), m.table); !ok {
		// A call to itself in the body would not expand to anything:
		// catch it as recursion rather than as an unknown function. (OR
		// REPLACE checks the body with the macro it replaces, as DuckDB
		// does: a loop through it is found then or at the first call.)
		macros.m[m.key()] = m
		x.stack = []string{strings.ToLower(m.name)}
	}
	for _, o := range m.overloads() {
		probe := make([]parse.Token, len(o.body))
		copy(probe, o.body)
		// Parameters become NULL for the check.
		probe = substituteParams(probe, o.params, func(int) []parse.Token {
			return []parse.Token{{Kind: parse.Ident, Text: "NULL", Pos: probe[0].Pos}}
		})
		expanded, err := x.expand(probe)
		if err != nil {
			return nil, err
		}
		if m.table {
			q, err := e.prepareTokens(ctx, text, expanded)
			if err != nil {
				return nil, err
			}
			if q.kind != kindSelect && q.kind != kindSetOp {
				return nil, errAt(text, o.body[0].Pos, "a table macro's body is a query")
			}
			s.probes = append(s.probes, q)
		} else {
			at := o.body[0].Pos
			sel := append([]parse.Token{{Kind: parse.Ident, Text: "select", Pos: at}, {Kind: parse.Op, Text: "(", Pos: at}}, expanded...)
			sel = append(sel, parse.Token{Kind: parse.Op, Text: ")", Pos: at})
			q, err := e.prepareTokens(ctx, text, sel)
			if err != nil {
				return nil, err
			}
			s.probes = append(s.probes, q)
		}
	}
	s.kind, s.table, s.macro = kindMacro, m.name, m
	return s, nil
}

// checkMacroBody plans the body CREATE MACRO prepared (its parameters
// NULL) when it runs: a name that is neither a parameter nor a column of
// the body's own FROM is an error then, as in DuckDB, rather than a column
// of the caller's tables taken at every call. Other errors of the plan
// are left to the calls (the NULLs have no type).
func (s *Stmt) checkMacroBody(ctx context.Context) error {
	for _, q := range s.probes {
		if err := q.checkProbe(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (q *Stmt) checkProbe(ctx context.Context) error {
	p := &plan.Planner{Cat: &stmtCatalog{e: q.e}, Src: q.Src, Ctx: ctx}
	defer p.ReleaseAll()
	sp, err := q.Plan(p)
	if err != nil {
		if errors.Is(err, ErrNoColumn) {
			return err
		}
		return nil
	}
	sp.Root.Close()
	return nil
}

// prepareDropMacro prepares DROP MACRO [TABLE] [IF EXISTS] name (DROP
// FUNCTION too).
func (e *Engine) prepareDropMacro(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	k := 2
	table := false
	if k < len(toks) && toks[k].Is("table") {
		table = true
		k++
	}
	if k+1 < len(toks) && toks[k].Is("if") && toks[k+1].Is("exists") {
		s.ifMod = true
		k += 2
	}
	temp := false
	if k+2 < len(toks) && toks[k+1].Kind == parse.Op && toks[k+1].Text == "." && (toks[k].Is("main") || toks[k].Is("temp")) {
		temp = toks[k].Is("temp")
		k += 2
	}
	if len(toks) != k+1 || toks[k].Kind != parse.Ident && toks[k].Kind != parse.Quoted && toks[k].Kind != parse.DQuoted {
		return nil, errAt(text, parse.TokPos(text, toks, min(k, len(toks))), "DROP MACRO takes one macro name")
	}
	s.kind, s.table = kindDropMacro, toks[k].Name()
	s.macro = &macro{name: s.table, table: table, temp: temp}
	return s, nil
}

// execMacro runs CREATE MACRO and DROP MACRO. Prepared statements are
// forgotten: those calling the macro must be expanded again.
func (e *Engine) execMacro(s *Stmt) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	m := s.macro
	switch s.kind {
	case kindMacro:
		if !m.temp {
			if err := e.refreshCatalogLocked(); err != nil {
				return Result{}, err
			}
		}
		old, exists := e.macros[m.key()]
		if exists && !s.replace {
			if s.ifMod {
				return Result{}, nil
			}
			what := "Macro Function"
			if m.table {
				what = "Table Macro Function"
			}
			return Result{}, errorf("%s with name %q already exists (use CREATE OR REPLACE MACRO)", what, m.name)
		}
		if e.macros == nil {
			e.macros = map[macroKey]*macro{}
		}
		e.macros[m.key()] = m
		if !m.temp {
			if err := e.saveCatalogLocked(); err != nil {
				if exists {
					e.macros[m.key()] = old
				} else {
					delete(e.macros, m.key())
				}
				return Result{}, err
			}
		}
	case kindDropMacro:
		if err := e.refreshCatalogLocked(); err != nil {
			return Result{}, err
		}
		// DROP MACRO drops a scalar macro, else a table macro of the
		// name; DROP MACRO TABLE only a table macro. Temporary macros
		// hide kept ones, as they do in calls.
		var keys []macroKey
		name := strings.ToLower(m.name)
		for _, temp := range []bool{true, false} {
			if m.temp && !temp {
				continue
			}
			if !m.table {
				keys = append(keys, macroKey{name: name, temp: temp})
			}
		}
		for _, temp := range []bool{true, false} {
			if m.temp && !temp {
				continue
			}
			keys = append(keys, macroKey{name: name, table: true, temp: temp})
		}
		dropped := false
		for _, k := range keys {
			if old, ok := e.macros[k]; ok {
				delete(e.macros, k)
				dropped = true
				if !k.temp {
					if err := e.saveCatalogLocked(); err != nil {
						e.macros[k] = old
						return Result{}, err
					}
				}
				break
			}
		}
		if !dropped {
			if s.ifMod {
				return Result{}, nil
			}
			what := "Macro Function"
			if m.table {
				what = "Table Macro Function"
			}
			return Result{}, errorf("%s with name %s does not exist", what, m.name)
		}
	}
	clear(e.stmts)
	return Result{}, nil
}

// macroSet is a copy of the engine's macros, for one expansion.
type macroSet struct {
	m map[macroKey]*macro
}

func (e *Engine) macroSnapshot() macroSet {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.macros) == 0 {
		return macroSet{}
	}
	m := make(map[macroKey]*macro, len(e.macros)+1)
	for k, v := range e.macros {
		m[k] = v
	}
	return macroSet{m: m}
}

// lookup finds a macro by lower-case name: the temporary one first.
func (ms macroSet) lookup(name string, table bool) (*macro, bool) {
	if m, ok := ms.m[macroKey{name: name, table: table, temp: true}]; ok {
		return m, true
	}
	m, ok := ms.m[macroKey{name: name, table: table}]
	if !ok {
		return builtinMacro(name, table) // macros_builtin.go
	}
	return m, ok
}

// tableFunctions are the names FROM name(...) takes besides table macros
// (and words that may come between FROM and a parenthesis).
var tableFunctions = map[string]bool{"duckdb_settings": true, "duckdb_variables": true, "range": true, "generate_series": true, "unnest": true, "read_parquet": true, "parquet_scan": true, "lateral": true, "values": true, "select": true, "with": true,
	// The catalog's (catalog_duckdb.go).
	"duckdb_tables": true, "duckdb_columns": true, "duckdb_views": true, "duckdb_schemas": true, "duckdb_databases": true, "pragma_table_info": true,
	"duckdb_functions": true,
	// The Parquet introspection functions and glob (pqmeta.go).
	"parquet_metadata": true, "parquet_schema": true, "parquet_file_metadata": true, "parquet_kv_metadata": true,
	"parquet_full_metadata": true, "parquet_bloom_probe": true, "glob": true,
	// The JSON and text file readers (textbind.go).
	"read_json": true, "read_json_auto": true, "read_ndjson": true, "read_ndjson_auto": true, "read_json_objects": true,
	"read_json_objects_auto": true, "read_ndjson_objects": true, "read_text": true, "read_blob": true,
	// The CSV functions (csvbind.go).
	"read_csv": true, "read_csv_auto": true, "sniff_csv": true}

// expandMacros expands the macro calls of a statement's tokens. Without
// macros it only checks that the functions called in FROM are known.
func (e *Engine) expandMacros(text string, toks []parse.Token) ([]parse.Token, error) {
	x := &expander{text: text, macros: e.macroSnapshot()}
	if len(x.macros.m) > 0 || callsBuiltinMacro(toks) {
		toks = parse.NumberPlaceholders(toks)
	}
	return x.expand(toks)
}

// Bounds of an expansion: macros nested deeper than maxMacroDepth, or an
// expansion past maxMacroTokens tokens, are errors.
const (
	maxMacroDepth  = 128
	maxMacroTokens = 1 << 20
)

type expander struct {
	text   string
	macros macroSet
	stack  []string // the macros being expanded, outermost first
	size   int
}

// expand returns toks with the macro calls replaced by their bodies.
func (x *expander) expand(toks []parse.Token) ([]parse.Token, error) {
	var out []parse.Token
	tablePos := tablePositions(toks)
	var items []bool
	if len(x.stack) == 0 {
		items = selectItems(toks)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !parse.IsNameToken(t) || i+1 >= len(toks) || toks[i+1].Kind != parse.Op || toks[i+1].Text != "(" || !callContext(toks, i, tablePos[i]) {
			out = append(out, t)
			continue
		}
		name := strings.ToLower(t.Unquoted())
		m, ok := x.macros.lookup(name, tablePos[i])
		if !ok && tablePos[i] && queryTableFunctions[name] != nil { // tablefuncs.go
			k := parse.ClosingParen(toks, i+1)
			if k < 0 {
				return nil, errAt(x.text, toks[i+1].Pos, "unclosed parenthesis")
			}
			body, err := x.expandQueryCall(toks, i, k, name)
			if err != nil {
				return nil, err
			}
			derived, err := x.derivedTable(toks, k, name, body, t.Pos)
			if err != nil {
				return nil, err
			}
			out = append(out, derived...)
			i = k
			continue
		}
		if !ok {
			if tablePos[i] && !tableFunctions[name] && !parse.CatalogFunctions[name] {
				return nil, errAt(x.text, t.Pos, "Table Function with name %s does not exist", t.Unquoted())
			}
			if !tablePos[i] {
				if tm, ok := x.macros.lookup(name, true); ok {
					return nil, errAt(x.text, t.Pos, "Function %q is a table function but it was used as a scalar function: the table macro %s is called in FROM", tm.name, tm.signature())
				}
			}
			out = append(out, t)
			continue
		}
		k := parse.ClosingParen(toks, i+1)
		if k < 0 {
			return nil, errAt(x.text, toks[i+1].Pos, "unclosed parenthesis")
		}
		for _, s := range x.stack {
			if s == name {
				path := strings.Join(append(append([]string(nil), x.stack...), name), " -> ")
				return nil, errAt(x.text, t.Pos, "macro %s calls itself (%s): max expression depth exceeded", m.name, path)
			}
		}
		if len(x.stack) >= maxMacroDepth {
			return nil, errAt(x.text, t.Pos, "macros nest deeper than %d: max expression depth exceeded", maxMacroDepth)
		}
		// The arguments first, with the macros being expanded now (a call
		// of add in an argument of add is no recursion).
		var args [][]parse.Token
		if k > i+2 {
			args = parse.SplitTopLevel(toks[i+2 : k])
		}
		for a := range args {
			if len(args[a]) == 0 {
				return nil, errAt(x.text, toks[k].Pos, "missing argument of %s", m.name)
			}
			var err error
			if args[a], err = x.expand(args[a]); err != nil {
				return nil, err
			}
		}
		// The one overload the arguments fit.
		var vals [][]parse.Token
		var err error
		var fit *macro
		for _, o := range m.overloads() {
			v, e := x.bind(o, t, args)
			if e != nil {
				err = e
				continue
			}
			if fit != nil {
				return nil, errAt(x.text, t.Pos, "Macro %s() has multiple overloads that match the supplied arguments; candidates: %s", m.name, m.signature())
			}
			fit, vals = o, v
		}
		if fit == nil {
			if len(m.alts) > 0 {
				return nil, errAt(x.text, t.Pos, "Macro %s() does not support the supplied arguments; candidates: %s", m.name, m.signature())
			}
			return nil, err
		}
		m = fit
		body := make([]parse.Token, len(m.body))
		for j, b := range m.body {
			b.Pos = t.Pos // errors in the body point at the call
			body[j] = b
		}
		body = substituteParams(body, m.params, func(p int) []parse.Token { return vals[p] })
		x.size += len(body)
		if x.size > maxMacroTokens {
			return nil, errAt(x.text, t.Pos, "the macros expand to more than %d tokens", maxMacroTokens)
		}
		x.stack = append(x.stack, name)
		body, err = x.expand(body)
		x.stack = x.stack[:len(x.stack)-1]
		if err != nil {
			return nil, err
		}
		if m.table {
			derived, err := x.derivedTable(toks, k, m.name, body, t.Pos)
			if err != nil {
				return nil, err
			}
			out = append(out, derived...)
		} else {
			out = append(out, parse.Parenthesized(body, t.Pos)...)
			if items != nil && items[i] && itemEnds(toks, k+1) {
				// A select item that is the call is named by it, as in DuckDB.
				out = append(out, parse.Token{Kind: parse.Ident, Text: "AS", Pos: t.Pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(parse.CallText(toks[i : k+1])), Pos: t.Pos})
			}
		}
		i = k
	}
	return out, nil
}

// derivedTable is the derived table a call in FROM, ending at toks[k],
// becomes: its query in parentheses, named after the function unless an
// alias follows the call.
func (x *expander) derivedTable(toks []parse.Token, k int, name string, body []parse.Token, pos int) ([]parse.Token, error) {
	if body[0].Is("with") {
		// A derived table takes no WITH: its CTEs are put in place.
		q, recs, err := expandCTEs(x.text, body)
		if err != nil {
			return nil, err
		}
		if len(recs) > 0 {
			return nil, parse.UnsupportedAt(x.text, pos, "WITH RECURSIVE in a table macro")
		}
		body = q
	}
	out := parse.Parenthesized(body, pos)
	hasAlias := k+1 < len(toks) && (toks[k+1].Is("as") || parse.IsNameToken(toks[k+1]) && !parse.IsClauseWord(toks[k+1].Text))
	if !hasAlias {
		out = append(out, parse.Token{Kind: parse.Ident, Text: "AS", Pos: pos}, parse.Token{Kind: parse.Quoted, Text: parse.Backquote(name), Pos: pos})
	}
	return out, nil
}

// bind matches a call's arguments to the macro's parameters: positional
// ones first, then name := value ones; the parameters left take their
// defaults. Each value is parenthesized unless it is one token (or a
// lambda, which parentheses would break).
func (x *expander) bind(m *macro, call parse.Token, args [][]parse.Token) ([][]parse.Token, error) {
	vals := make([][]parse.Token, len(m.params))
	wrong := func(why string) error {
		return errAt(x.text, call.Pos, "Macro %s() does not support the supplied arguments (%s); it is %s", m.name, why, m.signature())
	}
	named := false
	for a, arg := range args {
		if len(arg) > 3 && parse.IsNameToken(arg[0]) && parse.IsNamedArrow(arg, 1) {
			named = true
			pname := strings.ToLower(arg[0].Unquoted())
			p := -1
			for j, q := range m.params {
				if q == pname {
					p = j
				}
			}
			if p < 0 {
				return nil, wrong(fmt.Sprintf("it has no parameter %s", pname))
			}
			if vals[p] != nil {
				return nil, wrong(fmt.Sprintf("%s is given twice", pname))
			}
			vals[p] = argValue(arg[3:])
			continue
		}
		if named {
			return nil, errAt(x.text, call.Pos, "Macro %s() has positional argument following named argument", m.name)
		}
		if a >= len(m.params) {
			return nil, wrong(fmt.Sprintf("%d arguments given, it takes at most %d", len(args), len(m.params)))
		}
		vals[a] = argValue(arg)
	}
	for p := range vals {
		if vals[p] == nil {
			d := m.defaults[p]
			if d == nil {
				return nil, wrong(fmt.Sprintf("no value for %s", m.params[p]))
			}
			dv := make([]parse.Token, len(d))
			for j, t := range d {
				t.Pos = call.Pos
				dv[j] = t
			}
			vals[p] = argValue(dv)
		}
		if p < len(m.types) && m.types[p] != nil {
			vals[p] = typedArg(vals[p], m, m.types[p], call.Pos)
		}
	}
	return vals, nil
}

// typedArg wraps an argument of a typed parameter in macroArgMarker.
func typedArg(val []parse.Token, m *macro, typ []parse.Token, pos int) []parse.Token {
	at := func(kind parse.TokenKind, text string) parse.Token {
		return parse.Token{Kind: kind, Text: text, Pos: pos}
	}
	out := []parse.Token{at(parse.Ident, plan.MacroArgMarker), at(parse.Op, "(")}
	out = append(out, val...)
	out = append(out, at(parse.Op, ","), at(parse.String, parse.QuoteString(m.name+m.paramText(func(s string) string { return s }))), at(parse.Op, ","),
		at(parse.Ident, "CAST"), at(parse.Op, "("), at(parse.Ident, "NULL"), at(parse.Ident, "AS"))
	for _, t := range typ {
		t.Pos = pos
		out = append(out, t)
	}
	return append(out, at(parse.Op, ")"), at(parse.Op, ")"))
}

// argValue is an argument as it replaces a parameter.
func argValue(arg []parse.Token) []parse.Token {
	if len(arg) == 1 || len(arg) > 2 && parse.IsNameToken(arg[0]) && arg[1].Kind == parse.Op && arg[1].Text == "->" {
		return arg
	}
	return parse.Parenthesized(arg, arg[0].Pos)
}

// substituteParams replaces the references to the parameters in a body:
// names (bare or quoted) that are not qualified, not a qualifier, not a
// function's name, not an alias and not a table's name.
func substituteParams(body []parse.Token, params []string, value func(p int) []parse.Token) []parse.Token {
	if len(params) == 0 {
		return body
	}
	tablePos := tablePositions(body)
	shadow := lambdaShadows(body)
	// p.f is a field of the struct p is given when the body reads no
	// table (else p may be a table's name there).
	fields := true
	for _, t := range body {
		if t.Is("from") {
			fields = false
		}
	}
	var out []parse.Token
	for i := 0; i < len(body); i++ {
		t := body[i]
		p := -1
		if parse.IsNameToken(t) && !tablePos[i] && !shadow[i][strings.ToLower(t.Unquoted())] {
			name := strings.ToLower(t.Unquoted())
			for j, q := range params {
				if q == name {
					p = j
				}
			}
		}
		if p >= 0 && i > 0 {
			prev := body[i-1]
			if prev.Kind == parse.Op && prev.Text == "." || prev.Is("as") {
				p = -1
			}
		}
		if p >= 0 && i+1 < len(body) {
			next := body[i+1]
			if next.Kind == parse.Op && next.Text == "." && fields && i+2 < len(body) && parse.IsNameToken(body[i+2]) {
				// p.f.g is (value)['f']['g'].
				out = append(out, parse.Parenthesized(value(p), t.Pos)...)
				for i+2 < len(body) && body[i+1].Kind == parse.Op && body[i+1].Text == "." && parse.IsNameToken(body[i+2]) {
					at := body[i+1].Pos
					out = append(out, parse.Token{Kind: parse.Op, Text: "[", Pos: at}, parse.Token{Kind: parse.String, Text: parse.QuoteString(body[i+2].Unquoted()), Pos: at}, parse.Token{Kind: parse.Op, Text: "]", Pos: at})
					i += 2
				}
				continue
			}
			if next.Kind == parse.Op && (next.Text == "." || next.Text == "(" || next.Text == "->") || parse.IsNamedArrow(body, i+1) {
				p = -1
			}
		}
		if p < 0 {
			out = append(out, t)
			continue
		}
		out = append(out, value(p)...)
	}
	return out
}

// lambdaShadows gives, for each token of a lambda (x -> body, (x, y) ->
// body), the names its parameters hide there: a macro's parameter of the
// same name is not the lambda's.
func lambdaShadows(toks []parse.Token) []map[string]bool {
	var out []map[string]bool
	op := func(k int, text string) bool {
		return k < len(toks) && toks[k].Kind == parse.Op && toks[k].Text == text
	}
	for i := range toks {
		var names []string
		arrow := -1
		switch {
		case parse.IsNameToken(toks[i]) && op(i+1, "->"):
			names, arrow = []string{toks[i].Unquoted()}, i+1
		case op(i, "("):
			k := i + 1
			for k < len(toks) && parse.IsNameToken(toks[k]) {
				names = append(names, toks[k].Unquoted())
				k++
				if !op(k, ",") {
					break
				}
				k++
			}
			if len(names) == 0 || !op(k, ")") || !op(k+1, "->") {
				continue
			}
			arrow = k + 1
		default:
			continue
		}
		// The body runs to the ',' or the closing bracket at its depth.
		end, depth := len(toks), 0
	body:
		for k := arrow + 1; k < len(toks); k++ {
			if t := toks[k]; t.Kind == parse.Op {
				switch t.Text {
				case "(", "[", "{":
					depth++
				case ")", "]", "}":
					depth--
				}
				if depth < 0 || depth == 0 && t.Text == "," {
					end = k
					break body
				}
			}
		}
		if out == nil {
			out = make([]map[string]bool, len(toks))
		}
		for k := i; k < end; k++ {
			if out[k] == nil {
				out[k] = map[string]bool{}
			}
			for _, n := range names {
				out[k][strings.ToLower(n)] = true
			}
		}
	}
	if out == nil {
		out = make([]map[string]bool, len(toks))
	}
	return out
}

// tablePositions marks the tokens that name a table: after FROM, JOIN,
// LATERAL or a comma of a FROM list. A FROM is a clause's when a SELECT
// or a DELETE came before it in its parentheses, or it starts them (FROM
// first); not in extract(x FROM y), substring(s FROM 2) or IS DISTINCT
// FROM.
func tablePositions(toks []parse.Token) []bool {
	out := make([]bool, len(toks))
	inFrom := false
	depthAtFrom := -1
	depth := 0
	var query []bool // by depth: a SELECT or DELETE came
	setQuery := func(d int, v bool) {
		if d < 0 {
			return // unbalanced: the parser will say so
		}
		for len(query) <= d {
			query = append(query, false)
		}
		query[d] = v
	}
	for i, t := range toks {
		if t.Kind == parse.Op && t.Text == "(" {
			depth++
			setQuery(depth, false)
		}
		if t.Kind == parse.Op && t.Text == ")" {
			depth--
			if depth < depthAtFrom {
				inFrom = false
			}
		}
		if t.Is("select") || t.Is("delete") || t.Is("update") {
			setQuery(depth, true)
		}
		clauseFrom := false
		if t.Is("from") {
			first := i == 0 || toks[i-1].Kind == parse.Op && toks[i-1].Text == "("
			distinct := i >= 2 && toks[i-1].Is("distinct") && (toks[i-2].Is("is") || toks[i-2].Is("not"))
			clauseFrom = (first || depth >= 0 && depth < len(query) && query[depth]) && !distinct
		}
		if clauseFrom || t.Is("join") {
			inFrom, depthAtFrom = true, depth
		} else if t.Kind == parse.Ident && depth == depthAtFrom {
			switch strings.ToLower(t.Text) {
			case "where", "group", "having", "order", "limit", "union", "on", "using", "select", "qualify", "window", "intersect", "except", "from":
				inFrom = false
			}
		}
		if i > 0 && parse.IsNameToken(t) {
			prev := toks[i-1]
			out[i] = inFrom && depth == depthAtFrom && (prev.Is("from") || prev.Is("join") || prev.Is("lateral") || prev.Kind == parse.Op && prev.Text == ",")
		}
	}
	return out
}

// callContext reports whether the name at toks[i], followed by '(', is a
// function's call: not a table's name with its column list (INSERT INTO
// t (...), a CTE's name, an alias's column names), nor a qualified name.
func callContext(toks []parse.Token, i int, table bool) bool {
	if table || i == 0 {
		// An argument's or a body's first token.
		return true
	}
	prev := toks[i-1]
	switch {
	case prev.Kind == parse.Op:
		return prev.Text != "."
	case prev.Kind == parse.Ident:
		switch strings.ToLower(prev.Text) {
		case "select", "where", "and", "or", "not", "on", "by", "then", "when", "else", "case", "having", "distinct",
			"all", "like", "ilike", "glob", "between", "is", "limit", "offset", "qualify", "returning", "escape",
			"div", "mod", "similar", "to", "any", "some", "in", "set", "filter", "exists", "interval", "top", "from", "for":
			return true
		}
		return false
	}
	return false
}

// selectItems marks the tokens that start an item of a select list: after
// SELECT, SELECT DISTINCT or ALL, or a comma of the list.
func selectItems(toks []parse.Token) []bool {
	out := make([]bool, len(toks))
	var inList []bool // by depth: in a select list
	depth := 0
	set := func(v bool) {
		if depth < 0 {
			return
		}
		for len(inList) <= depth {
			inList = append(inList, false)
		}
		inList[depth] = v
	}
	in := func() bool { return depth >= 0 && depth < len(inList) && inList[depth] }
	for i, t := range toks {
		switch {
		case t.Kind == parse.Op && t.Text == "(":
			depth++
			set(false)
			continue
		case t.Kind == parse.Op && t.Text == ")":
			depth--
			continue
		case t.Is("select"):
			set(true)
			continue
		case t.Kind == parse.Ident && in() && isItemEnd(t):
			set(false)
			continue
		}
		if i > 0 && in() {
			prev := toks[i-1]
			out[i] = prev.Is("select") || prev.Kind == parse.Op && prev.Text == "," || (prev.Is("distinct") || prev.Is("all")) && i > 1 && toks[i-2].Is("select")
		}
	}
	return out
}

// isItemEnd reports the words that end a select list.
func isItemEnd(t parse.Token) bool {
	switch strings.ToLower(t.Text) {
	case "from", "where", "group", "having", "order", "limit", "offset", "union", "intersect", "except", "qualify", "window", "into":
		return true
	}
	return false
}

// itemEnds reports whether a select item ends at toks[k]: the statement
// ends, or a comma, a ')' or a clause follows (no alias, no operator).
func itemEnds(toks []parse.Token, k int) bool {
	if k >= len(toks) {
		return true
	}
	t := toks[k]
	return t.Kind == parse.Op && (t.Text == "," || t.Text == ")") || t.Kind == parse.Ident && isItemEnd(t)
}

package sqlplan

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// ATTACH 'folder' [AS name] [(READ_ONLY)] attaches another carquet root
// folder: its tables read as name.table (writes go through the root's
// rules: below the root only). DETACH [DATABASE] [IF EXISTS] name ends
// it. Attachments belong to the engine (the sql.DB), as DuckDB's belong
// to its database instance. A DuckDB or SQLite database file is refused
// by name. The engine's own catalog and schema, carquet and main, may
// qualify its tables: main.t is t.

// attachSpec is ATTACH's or DETACH's statement.
type attachSpec struct {
	path, name string
	detach     bool
	ifMod      bool // ATTACH IF NOT EXISTS / DETACH IF EXISTS
}

// prepareAttach reads ATTACH and DETACH.
func (e *Engine) prepareAttach(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	fail := func(i int, format string, args ...any) error {
		return errAt(text, parse.TokPos(text, toks, i), format, args...)
	}
	spec := &attachSpec{detach: toks[0].Is("detach")}
	i := 1
	if i < len(toks) && toks[i].Is("database") {
		i++
	}
	if spec.detach {
		if i+1 < len(toks) && toks[i].Is("if") && toks[i+1].Is("exists") {
			spec.ifMod, i = true, i+2
		}
		if i+1 != len(toks) || !parse.IsNameToken(toks[i]) {
			return nil, fail(i, "DETACH takes a database name")
		}
		spec.name = toks[i].Name()
	} else {
		if i+2 < len(toks) && toks[i].Is("if") && toks[i+1].Is("not") && toks[i+2].Is("exists") {
			spec.ifMod, i = true, i+3
		}
		if i >= len(toks) || toks[i].Kind != parse.String {
			return nil, fail(i, "ATTACH takes a folder: ATTACH 'folder' AS name")
		}
		spec.path = toks[i].Unquoted()
		i++
		if i+1 < len(toks) && toks[i].Is("as") && parse.IsNameToken(toks[i+1]) {
			spec.name, i = toks[i+1].Name(), i+2
		}
		if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
			end := parse.ClosingParen(toks, i)
			if end < 0 {
				return nil, fail(i, "unmatched ( in the ATTACH options")
			}
			for _, item := range parse.SplitList(toks[i+1 : end]) {
				switch {
				case len(item) == 1 && item[0].Is("read_only"):
				case len(item) == 2 && item[0].Is("type") && (item[1].Is("duckdb") || item[1].Is("sqlite")):
					return nil, attachRefused(text, item[1].Pos, spec.path, strings.ToLower(item[1].Text))
				default:
					return nil, fail(i+1, "ATTACH takes (READ_ONLY) only")
				}
			}
			i = end + 1
		}
		if i < len(toks) {
			return nil, fail(i, "unexpected %q after ATTACH 'folder' AS name", toks[i].Text)
		}
		switch ext := strings.ToLower(filepath.Ext(spec.path)); ext {
		case ".duckdb", ".db", ".ddb":
			return nil, attachRefused(text, toks[0].Pos, spec.path, "duckdb")
		case ".sqlite", ".sqlite3":
			return nil, attachRefused(text, toks[0].Pos, spec.path, "sqlite")
		}
		if spec.name == "" {
			base := filepath.Base(spec.path)
			spec.name = strings.TrimSuffix(base, filepath.Ext(base))
		}
	}
	s.kind, s.attach = kindAttach, spec
	return s, nil
}

// attachRefused is the error of ATTACH of another engine's database file.
func attachRefused(text string, pos int, path, kind string) error {
	e := errAt(text, pos, "ATTACH of the %s database file %q is not supported (carquet attaches folders of Parquet files)", kind, path)
	e.Err = ErrUnsupported
	return e
}

// reservedDatabases are the names no attachment may take.
var reservedDatabases = map[string]bool{"carquet": true, "main": true, "temp": true, "system": true, "memory": true}

// execAttach runs ATTACH or DETACH.
func (e *Engine) execAttach(spec *attachSpec) error {
	key := strings.ToLower(spec.name)
	e.mu.Lock()
	defer e.mu.Unlock()
	if spec.detach {
		if _, ok := e.attached[key]; !ok {
			if spec.ifMod {
				return nil
			}
			return errorf("Failed to detach database with name %q: database not found", spec.name)
		}
		delete(e.attached, key)
		return nil
	}
	if _, ok := e.attached[key]; ok || reservedDatabases[key] {
		if spec.ifMod && !reservedDatabases[key] {
			return nil
		}
		return errorf("Failed to attach database: database with name %q already exists", spec.name)
	}
	if e.file != "" || e.remote() {
		return unsupported("ATTACH in an engine over one file or an object store")
	}
	path := spec.path
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.root, path)
	}
	if err := e.confine.Check(path, false); err != nil {
		return &Error{Msg: err.Error(), Offset: -1, Err: err}
	}
	st, err := os.Stat(path)
	if err != nil {
		return errorf("ATTACH: %v", err)
	}
	if !st.IsDir() {
		return errorf("ATTACH: %q is not a folder (carquet attaches folders of Parquet files)", spec.path)
	}
	if e.attached == nil {
		e.attached = map[string]string{}
	}
	e.attached[key] = path
	return nil
}

// qualifiedPath resolves db.table: a table of the engine's own catalog
// (carquet, main) or of an attached folder. ok is false for a name of
// no such form.
func (e *Engine) qualifiedPath(name string) (path string, exists, ok bool, err error) {
	db, table, found := strings.Cut(name, ".")
	if !found || table == "" || strings.ContainsAny(table, `/\`) {
		return "", false, false, nil
	}
	lower := strings.ToLower(db)
	if lower == "main" || lower == "carquet" {
		if rest, ok := strings.CutPrefix(strings.ToLower(table), "main."); ok && lower == "carquet" {
			table = table[len(table)-len(rest):]
		}
		p, exists, err := e.tablePath(table)
		return p, exists, true, err
	}
	e.mu.Lock()
	dir, attached := e.attached[lower]
	e.mu.Unlock()
	if !attached {
		return "", false, false, nil
	}
	if rest, ok := strings.CutPrefix(strings.ToLower(table), "main."); ok {
		table = table[len(table)-len(rest):]
	}
	if table == "." || table == ".." {
		return "", false, true, errorf("%q is not a table name", name)
	}
	for _, p := range []string{filepath.Join(dir, table+".parquet"), filepath.Join(dir, table)} {
		if _, err := os.Stat(p); err == nil {
			return p, true, true, e.confine.Check(p, false)
		}
	}
	return filepath.Join(dir, table+".parquet"), false, true, nil
}

// attachedNames lists the attached databases' names and folders, sorted.
func (e *Engine) attachedNames() (names, paths []string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for k := range e.attached {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		paths = append(paths, e.attached[k])
	}
	return names, paths
}

// plainExists reports whether name, dots and all, is a table of the root
// (a file main.x.parquet is table "main.x", not x of main).
func (e *Engine) plainExists(name string) bool {
	if e.file != "" || e.remote() {
		return false
	}
	for _, p := range []string{filepath.Join(e.root, name+".parquet"), filepath.Join(e.root, name)} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// threePartNames rewrites DuckDB's three-part names database.schema.name
// into the two-part names carquet resolves: db.main.t is db.t (for the
// engine's own catalog, carquet, and each attached database). Other
// a.b.c stay (a table's struct column's field; db.information_schema.x,
// which DuckDB refuses too).
func (e *Engine) threePartNames(toks []parse.Token) []parse.Token {
	var out []parse.Token // a copy, made at the first change
	for i := 0; i+4 < len(toks); i++ {
		if i > 0 && parse.IsDot(toks[i-1]) || !parse.IsNameToken(toks[i]) || !parse.IsDot(toks[i+1]) || !parse.IsNameToken(toks[i+2]) || !parse.IsDot(toks[i+3]) || !parse.IsNameToken(toks[i+4]) {
			continue
		}
		db, schema := strings.ToLower(toks[i].Unquoted()), strings.ToLower(toks[i+2].Unquoted())
		if schema != "main" || !e.isDatabase(db) {
			continue
		}
		if out == nil {
			out = append([]parse.Token(nil), toks...)
		}
		out = append(out[:i+1:i+1], append([]parse.Token{toks[i+3]}, toks[i+4:]...)...) // db . t
		toks = out
	}
	if out == nil {
		return toks
	}
	return out
}

// isDatabase reports whether name (lower case) is a database of the
// catalog: carquet's own or an attached one.
func (e *Engine) isDatabase(name string) bool {
	if name == ownDatabase.name {
		return true
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.attached[name]
	return ok
}

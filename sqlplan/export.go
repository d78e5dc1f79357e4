package sqlplan

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// EXPORT DATABASE 'dir' [(FORMAT csv|parquet, csv options)] writes, as
// DuckDB does, one CSV (the default, as in DuckDB) or Parquet file per
// table, schema.sql (the CREATE SEQUENCE, CREATE TABLE, CREATE MACRO and
// CREATE VIEW statements, in DuckDB's order; temporary macros are left
// out, as DuckDB leaves them) and load.sql (a COPY t FROM 'file' per
// table), so that DuckDB's IMPORT DATABASE reads carquet's export.
// Without FORMAT, a table with a nested column is written in Parquet
// (csvexport.go says why); (FORMAT csv) refuses it. IMPORT DATABASE 'dir'
// runs a folder's schema.sql, then its load.sql: DuckDB's exports, CSV
// or Parquet, import here. The folder is a path like any other: below
// the root for EXPORT (writes never leave it), below it for IMPORT
// unless the engine reads outside (Options.ExternalRead). A folder
// holding schema.sql and load.sql is an export, not a table (isExport).

// exportSpec is EXPORT or IMPORT DATABASE's folder.
type exportSpec struct {
	dir     string // as the statement names it
	imports bool
	opts    fileOptions // EXPORT's
}

// prepareExport reads EXPORT DATABASE 'dir' [(options)] and IMPORT
// DATABASE 'dir'.
func (e *Engine) prepareExport(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	verb := strings.ToUpper(toks[0].Text)
	fail := func(i int, format string, args ...any) error {
		return errAt(text, parse.TokPos(text, toks, i), format, args...)
	}
	if len(toks) < 2 || !toks[1].Is("database") {
		return nil, fail(1, "expected DATABASE after %s", verb)
	}
	if len(toks) < 3 || toks[2].Kind != parse.String {
		return nil, fail(2, "%s DATABASE takes a folder: %s DATABASE 'folder'", verb, verb)
	}
	spec := &exportSpec{dir: toks[2].Unquoted(), imports: verb == "IMPORT"}
	i := 3
	if !spec.imports {
		var err error
		if spec.opts, i, err = readFileOptions(text, toks, i, "EXPORT DATABASE", false); err != nil {
			return nil, err
		}
	}
	if i < len(toks) {
		return nil, fail(i, "unexpected %q after %s DATABASE 'folder'", toks[i].Text, verb)
	}
	if e.file != "" || e.remote() {
		return nil, unsupported(verb + " DATABASE of an engine over one file or an object store")
	}
	s.kind, s.export = kindExport, spec
	s.Src = &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// execExport runs EXPORT or IMPORT DATABASE.
func (s *Stmt) execExport(ctx context.Context, p *plan.Planner, tx *Tx, sess *Session) (Result, error) {
	dir := s.export.dir
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(s.e.root, dir)
	}
	if s.export.imports {
		return Result{}, s.importDatabase(ctx, dir, tx, sess)
	}
	return Result{}, s.exportDatabase(ctx, p, dir, tx, sess)
}

// exportDatabase writes the tables' files, then schema.sql, then
// load.sql: a folder with load.sql holds a whole export.
func (s *Stmt) exportDatabase(ctx context.Context, p *plan.Planner, dir string, tx *Tx, sess *Session) error {
	if err := s.e.writable(dir); err != nil {
		return err
	}
	entries := catalogEntries(p)
	if s.export.opts.format == "csv" {
		// Refused before a file is written.
		for _, ent := range entries {
			if nested := csvNestedColumn(ent); nested != "" && ent.view == nil && ent.db.name == ownDatabase.name {
				return errCSVNested(ent.name, nested)
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var schema, load strings.Builder
	for _, def := range s.e.sequenceDefinitions() {
		schema.WriteString(def + ";\n")
	}
	used := map[string]bool{}
	for _, ent := range entries {
		if ent.view != nil || ent.db.name != ownDatabase.name {
			continue
		}
		loadOpts, err := s.exportTable(ctx, ent, dir, used, tx, sess)
		if err != nil {
			return fmt.Errorf("EXPORT DATABASE: table %s: %w", ent.name, err)
		}
		schema.WriteString(ent.createSQL() + ";\n")
		for _, ix := range ent.indexes {
			schema.WriteString(ix.sql(ent.name) + "\n")
		}
		load.WriteString("COPY " + parse.SQLIdent(ent.name) + " FROM " + loadOpts + ";\n")
	}
	for _, def := range s.e.macroDefinitions() {
		schema.WriteString(def + ";\n")
	}
	for _, ent := range entries {
		if ent.view != nil {
			schema.WriteString(ent.view.definition() + ";\n")
		}
	}
	if err := writeFileSynced(filepath.Join(dir, "schema.sql"), schema.String()); err != nil {
		return err
	}
	return writeFileSynced(filepath.Join(dir, "load.sql"), load.String())
}

// exportTable writes table ent's file into dir and returns what follows
// FROM in load.sql's COPY: the file and its options.
func (s *Stmt) exportTable(ctx context.Context, ent catalogEntry, dir string, used map[string]bool, tx *Tx, sess *Session) (string, error) {
	file := exportFileName(ent.name, used)
	format := s.export.opts.format
	if format == "" && csvNestedColumn(ent) == "" {
		format = "csv"
	}
	if format == "csv" {
		path := filepath.Join(dir, csvFileName(file))
		opts := s.export.opts.csv
		if err := s.exportCSV(ctx, ent, path, opts, tx, sess); err != nil {
			return "", err
		}
		return parse.QuoteString(path) + " " + opts.loadOptions(ent.notNullColumns()), nil
	}
	path := filepath.Join(dir, file)
	rel, err := filepath.Rel(s.e.root, path)
	if err != nil {
		return "", err
	}
	copyTo := "COPY " + parse.SQLIdent(ent.name) + " TO " + parse.QuoteString(rel) + " (FORMAT parquet)"
	if err := s.e.runInternal(ctx, copyTo, tx, sess); err != nil {
		return "", err
	}
	return parse.QuoteString(path) + " (FORMAT 'parquet')", nil
}

// notNullColumns are the names of the entry's NOT NULL columns (its
// key's among them), which load.sql's CSV COPY reads with
// force_not_null, as DuckDB writes it.
func (ent catalogEntry) notNullColumns() []string {
	var out []string
	for _, c := range ent.cols {
		if c.notNull {
			out = append(out, c.name)
		}
	}
	return out
}

// importDatabase runs dir's schema.sql, then its load.sql.
func (s *Stmt) importDatabase(ctx context.Context, dir string, tx *Tx, sess *Session) error {
	for _, name := range []string{"schema.sql", "load.sql"} {
		path := filepath.Join(dir, name)
		if err := s.e.confine.Check(path, false); err != nil {
			return &Error{Msg: err.Error(), Offset: -1, Err: err}
		}
		text, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("IMPORT DATABASE: %w", err)
		}
		stmts, _, err := parse.SplitStatements(string(text))
		if err != nil {
			return fmt.Errorf("IMPORT DATABASE: %s: %w", path, err)
		}
		for _, st := range stmts {
			if strings.TrimSpace(st) == "" {
				continue // DuckDB's schema.sql ends its statements with ;;
			}
			if err := s.e.runInternal(ctx, st, tx, sess); err != nil {
				return fmt.Errorf("IMPORT DATABASE: %s: %s: %w", path, strings.TrimSpace(st), err)
			}
		}
	}
	return nil
}

// runInternal runs a statement EXPORT or IMPORT writes, in the same
// transaction and session.
func (e *Engine) runInternal(ctx context.Context, text string, tx *Tx, sess *Session) error {
	st, err := e.prepareContext(ctx, text, tx)
	if err != nil {
		return err
	}
	if st.Returns() {
		rows, err := st.queryTx(ctx, nil, tx, sess)
		if err != nil {
			return err
		}
		return rows.Close()
	}
	_, err = st.exec(ctx, nil, tx, sess)
	return err
}

var notFileChar = regexp.MustCompile(`[^a-z0-9_]`)

// exportFileName is a table's file name in an export, as DuckDB names
// them: lower case, other characters as _, made unique with a number.
func exportFileName(table string, used map[string]bool) string {
	base := notFileChar.ReplaceAllString(strings.ToLower(table), "_")
	name := base
	for n := 1; used[name]; n++ {
		name = fmt.Sprintf("%s_%d", base, n)
	}
	used[name] = true
	return name + ".parquet"
}

// writeFileSynced writes a small file and syncs it.
func writeFileSynced(path, text string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// isExport reports whether a folder is a database export (it holds
// schema.sql and load.sql), which is not a table.
func isExport(dir string) bool {
	for _, name := range []string{"schema.sql", "load.sql"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return false
		}
	}
	return true
}

// prepareCopyFrom reads COPY t FROM 'file' [(options)] (the statement
// load.sql holds; at is FROM's index): for a Parquet file INSERT INTO t
// SELECT * FROM read_parquet('file'), for a CSV file the same from the
// file's relation (csvbind.go). Without FORMAT, a file named .csv is CSV
// and others Parquet.
func (e *Engine) prepareCopyFrom(ctx context.Context, text string, toks []parse.Token, at int) (*Stmt, error) {
	fail := func(i int, format string, args ...any) error {
		return errAt(text, parse.TokPos(text, toks, i), format, args...)
	}
	if at != 2 || toks[1].Kind == parse.Op {
		return nil, fail(1, "COPY ... FROM takes a table name: COPY t FROM 'file.parquet'")
	}
	if at+1 >= len(toks) || toks[at+1].Kind != parse.String {
		return nil, fail(at+1, "expected FROM 'file.parquet'")
	}
	if isJSONCopy(toks[at+1].Unquoted(), toks[at+2:]) {
		return e.prepareCopyFromJSON(ctx, toks, at) // jsoncopy.go
	}
	opts, i, err := readFileOptions(text, toks, at+2, "COPY ... FROM", true)
	if err != nil {
		return nil, err
	}
	if i < len(toks) {
		return nil, fail(i, "unexpected %q after COPY ... FROM 'file'", toks[i].Text)
	}
	file := toks[at+1].Unquoted()
	if opts.format == "csv" || opts.format == "" && strings.HasSuffix(strings.ToLower(file), ".csv") {
		return e.prepareCopyFromCSV(ctx, text, toks[1], toks[at+1], opts.csv)
	}
	pos := toks[0].Pos
	ins := []parse.Token{{Kind: parse.Ident, Text: "INSERT", Pos: pos}, {Kind: parse.Ident, Text: "INTO", Pos: pos}, toks[1],
		{Kind: parse.Ident, Text: "SELECT", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos}, {Kind: parse.Ident, Text: "FROM", Pos: pos},
		{Kind: parse.Ident, Text: "read_parquet", Pos: toks[at+1].Pos}, {Kind: parse.Op, Text: "(", Pos: toks[at+1].Pos}, toks[at+1],
		{Kind: parse.Op, Text: ")", Pos: toks[at+1].Pos}}
	return e.prepareTokens(ctx, text, ins)
}

// prepareCopyFromCSV is COPY table FROM file (a CSV file):
// INSERT INTO table SELECT * FROM the file's relation.
func (e *Engine) prepareCopyFromCSV(ctx context.Context, text string, table, file parse.Token, opts csvOptions) (*Stmt, error) {
	path := file.Unquoted()
	if !filepath.IsAbs(path) {
		path = filepath.Join(e.root, path)
	}
	name := plan.CSVRelationName(table.Name(), path, opts.Dialect, opts.notNull, opts.sniff)
	pos := file.Pos
	ins := []parse.Token{{Kind: parse.Ident, Text: "INSERT", Pos: pos}, {Kind: parse.Ident, Text: "INTO", Pos: pos}, table,
		{Kind: parse.Ident, Text: "SELECT", Pos: pos}, {Kind: parse.Op, Text: "*", Pos: pos}, {Kind: parse.Ident, Text: "FROM", Pos: pos},
		{Kind: parse.DQuoted, Text: parse.QuoteIdent(name), Pos: pos}}
	return e.prepareTokens(ctx, text, ins)
}

// sequenceDefinitions are the CREATE SEQUENCE statements of the engine's
// sequences, by name.
func (e *Engine) sequenceDefinitions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := e.sequenceNamesLocked()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = e.seqs[n].createSQL(n)
	}
	return out
}

// sequenceNamesLocked are the sequences' names, sorted; e.mu is held.
func (e *Engine) sequenceNamesLocked() []string {
	names := make([]string, 0, len(e.seqs))
	for n := range e.seqs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// macroDefinitions are the CREATE MACRO statements of the engine's kept
// macros, by name (scalar before table macro of a name).
func (e *Engine) macroDefinitions() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var keys []macroKey
	for k := range e.macros {
		if !k.temp {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].name != keys[j].name {
			return keys[i].name < keys[j].name
		}
		return !keys[i].table && keys[j].table
	})
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = e.macros[k].definition()
	}
	return out
}

package sqlplan

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON t [USING art] (c [ASC|DESC],
// ...) and DROP INDEX [IF EXISTS] name, on a single-file table, as in
// DuckDB: index names are one namespace (not the tables'), DROP TABLE
// drops the table's indexes, a column an index names cannot be dropped,
// renamed or retyped, and duckdb_indexes() lists them.
//
// carquet's index is the Parquet file's own: the table is written again
// with a bloom filter for each indexed column (and every later write of
// the table keeps writing them), so that a point query on the column
// skips the row groups whose filter rules the value out. A UNIQUE index
// is a uniqueness rule as DuckDB's is: the existing rows must be unique
// ("Data contains duplicates on indexed column(s)"), later INSERTs and
// UPDATEs are checked, and ON CONFLICT may name its columns. The index is
// kept with the table's options (the footer's carquet.options), under
// index.<name>; indexes on expressions are refused.

// tableIndex is an index of a table: its name, columns and uniqueness.
type tableIndex struct {
	name   string
	cols   []string
	unique bool
}

const indexOptionPrefix = "index."

// optionValue is the index as its table option keeps it:
// "[unique:]c1,c2".
func (ix tableIndex) optionValue() string {
	v := strings.Join(ix.cols, ",")
	if ix.unique {
		v = "unique:" + v
	}
	return v
}

// sql is the statement that creates the index, as duckdb_indexes() shows
// it.
func (ix tableIndex) sql(table string) string {
	kind := "INDEX"
	if ix.unique {
		kind = "UNIQUE INDEX"
	}
	cols := make([]string, len(ix.cols))
	for i, c := range ix.cols {
		cols[i] = parse.SQLIdent(c)
	}
	return "CREATE " + kind + " " + parse.SQLIdent(ix.name) + " ON " + parse.SQLIdent(table) + "(" + strings.Join(cols, ", ") + ");"
}

// indexesOf returns the indexes a table's options keep, by name.
func indexesOf(opts map[string]string) []tableIndex {
	var out []tableIndex
	for k, v := range opts {
		name, ok := strings.CutPrefix(k, indexOptionPrefix)
		if !ok {
			continue
		}
		ix := tableIndex{name: name}
		if rest, ok := strings.CutPrefix(v, "unique:"); ok {
			ix.unique, v = true, rest
		}
		ix.cols = strings.Split(v, ",")
		out = append(out, ix)
	}
	slices.SortFunc(out, func(a, b tableIndex) int { return strings.Compare(a.name, b.name) })
	return out
}

// withoutIndexes is opts without its indexes: the constraints a table
// declares, for the catalog's views.
func withoutIndexes(opts map[string]string) map[string]string {
	out := make(map[string]string, len(opts))
	for k, v := range opts {
		if !strings.HasPrefix(k, indexOptionPrefix) {
			out[k] = v
		}
	}
	return out
}

// indexedColumns are the columns the indexes in opts name, in order and
// once each: the columns written with bloom filters.
func indexedColumns(opts map[string]string) []string {
	var cols []string
	for _, ix := range indexesOf(opts) {
		for _, c := range ix.cols {
			if !slices.Contains(cols, c) {
				cols = append(cols, c)
			}
		}
	}
	return cols
}

// indexNaming returns the first index of opts that names column col.
func indexNaming(opts map[string]string, col string) (tableIndex, bool) {
	for _, ix := range indexesOf(opts) {
		if slices.Contains(ix.cols, col) {
			return ix, true
		}
	}
	return tableIndex{}, false
}

// isIndexStatement reports whether toks are CREATE [UNIQUE] INDEX or DROP
// INDEX.
func isIndexStatement(toks []parse.Token) bool {
	r := stmtTokens{toks: toks}
	switch r.word(0) {
	case "create":
		return r.word(1) == "index" || r.word(1) == "unique" && r.word(2) == "index"
	case "drop":
		return r.word(1) == "index"
	}
	return false
}

// prepareIndex reads CREATE INDEX or DROP INDEX; it runs as an ALTER
// TABLE that rewrites the table with its new options.
func (e *Engine) prepareIndex(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	r := stmtTokens{text, toks}
	word, fail := r.word, r.fail
	name := func(k int) (string, error) {
		if k >= len(toks) || toks[k].Kind != parse.Ident && toks[k].Kind != parse.Quoted && toks[k].Kind != parse.DQuoted {
			return "", fail(k, "expected a name")
		}
		return toks[k].Name(), nil
	}
	a := &alterSpec{index: &tableIndex{}}
	i := 1
	if word(0) == "drop" {
		a.action, i = "drop_index", 2
		if word(i) == "if" && word(i+1) == "exists" {
			a.ifExists, i = true, i+2
		}
		n, err := name(i)
		if err != nil {
			return nil, err
		}
		a.index.name, i = n, i+1
		if word(i) == "cascade" || word(i) == "restrict" {
			i++
		}
	} else {
		a.action = "create_index"
		if word(i) == "unique" {
			a.index.unique, i = true, i+1
		}
		i++ // INDEX
		if word(i) == "if" && word(i+1) == "not" && word(i+2) == "exists" {
			a.ifColExists, i = true, i+3
		}
		if word(i) == "on" {
			return nil, fail(i, "CREATE INDEX needs a name for the index")
		}
		n, err := name(i)
		if err != nil {
			return nil, err
		}
		a.index.name = n
		if word(i+1) != "on" {
			return nil, fail(i+1, "expected ON and the table")
		}
		i += 2
		table, next, ok := parse.QualifiedName(toks, i)
		if !ok {
			return nil, fail(i, "expected the table's name")
		}
		s.table, a.tableText, i = table, sourceText(text, toks, i, next), next
		if word(i) == "using" {
			// DuckDB's one kind is ART; the name changes nothing here.
			i += 2
		}
		if i >= len(toks) || toks[i].Kind != parse.Op || toks[i].Text != "(" {
			return nil, fail(i, "expected the indexed columns in parentheses")
		}
		cols, next, err := readIndexColumns(r, i+1)
		if err != nil {
			return nil, err
		}
		a.index.cols, i = cols, next
	}
	if i < len(toks) {
		return nil, fail(i, "unexpected %s", toks[i].Text)
	}
	s.kind, s.alter, s.Src = kindAlter, a, &plan.Source{Source: parse.Source{Orig: text, Toks: toks}}
	return s, nil
}

// readIndexColumns reads the column list of CREATE INDEX after its "(",
// each column with an optional ASC/DESC (which a bloom filter ignores),
// and returns the position after ")".
func readIndexColumns(r stmtTokens, i int) ([]string, int, error) {
	toks := r.toks
	var cols []string
	for {
		if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
			return nil, 0, r.fail(i, "CREATE INDEX on an expression is not supported (an index names columns)")
		}
		if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
			return nil, 0, r.fail(i, "expected a column name")
		}
		cols = append(cols, toks[i].Name())
		i++
		if w := r.word(i); w == "asc" || w == "desc" {
			i++
		}
		if i >= len(toks) || toks[i].Kind != parse.Op {
			return nil, 0, r.fail(i, "CREATE INDEX on an expression is not supported (an index names columns)")
		}
		switch toks[i].Text {
		case ",":
			i++
		case ")":
			return cols, i + 1, nil
		default:
			return nil, 0, r.fail(i, "CREATE INDEX on an expression is not supported (an index names columns)")
		}
	}
}

// indexedTable returns the table of the index named name (the own
// database's tables are searched), and whether there is one.
func indexedTable(p *plan.Planner, name string) (string, bool) {
	for _, ent := range catalogEntries(p) {
		if ent.view != nil || ent.db.name != ownDatabase.name {
			continue
		}
		for _, ix := range ent.indexes {
			if strings.EqualFold(ix.name, name) {
				return ent.name, true
			}
		}
	}
	return "", false
}

// indexNames lists the indexes of the own database, for suggestions.
func indexNames(p *plan.Planner) []string {
	var out []string
	for _, ent := range catalogEntries(p) {
		for _, ix := range ent.indexes {
			out = append(out, ix.name)
		}
	}
	return out
}

// indexTarget resolves the table an index statement rewrites: CREATE
// INDEX names it; DROP INDEX finds the table of the index. It returns ""
// when the statement has nothing to do (IF [NOT] EXISTS).
func (s *Stmt) indexTarget(p *plan.Planner) (string, error) {
	a := s.alter
	table, found := indexedTable(p, a.index.name)
	if a.action == "drop_index" {
		if !found {
			if a.ifExists {
				return "", nil
			}
			return "", errorf("Index with name %s does not exist!%s", a.index.name, suggest(a.index.name, indexNames(p)))
		}
		return table, nil
	}
	if found {
		if a.ifColExists {
			return "", nil
		}
		return "", errorf("Index with name %q already exists!", a.index.name)
	}
	return s.table, nil
}

// checkIndexColumns checks that the columns of the index a creates are
// the table's and gives them the table's spelling.
func checkIndexColumns(a *alterSpec, tgt *target) error {
	for i, c := range a.index.cols {
		k := fieldIndex(tgt.fields, c)
		if k < 0 {
			e := errorf("Table %q does not have a column named %q%s", tgt.name, c, suggest(c, fieldNames(tgt.fields)))
			e.Err = ErrNoColumn
			return e
		}
		a.index.cols[i] = tgt.fields[k].Name
	}
	return nil
}

// indexOptions returns the table's options after the index statement a.
func indexOptions(opts map[string]string, a *alterSpec) map[string]string {
	for k := range opts {
		if rest, ok := strings.CutPrefix(k, indexOptionPrefix); ok && strings.EqualFold(rest, a.index.name) {
			delete(opts, k)
		}
	}
	if a.action == "create_index" {
		opts[indexOptionPrefix+a.index.name] = a.index.optionValue()
	}
	return opts
}

// indexWriteError is the error of the rewrite that creates a UNIQUE
// index over rows that are not unique, in DuckDB's words.
func indexWriteError(a *alterSpec, err error) error {
	var e *Error
	if a.action == "create_index" && a.index.unique && errors.As(err, &e) && strings.HasPrefix(e.Msg, "duplicate key") {
		return errorf("Data contains duplicates on indexed column(s)")
	}
	return err
}

// runIndex runs CREATE INDEX or DROP INDEX: the table is written again
// with its options (alterTable).
func (s *Stmt) runIndex(ctx context.Context, p *plan.Planner) (Result, error) {
	table, err := s.indexTarget(p)
	if err != nil || table == "" {
		return Result{}, err
	}
	res, err := s.rewriteAltered(ctx, p, table)
	return res, indexWriteError(s.alter, err)
}

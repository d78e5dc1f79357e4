package sqlplan

import (
	"context"
	"strings"

	kernels "github.com/carquet-go/carquet/sqlplan/exec"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// DESCRIBE has DuckDB's columns (column_name, column_type, null, key,
// default, extra) and, for a table, carquet's parquet_type. As in DuckDB,
// DESCRIBE and SHOW forms can be read as subqueries: FROM (DESCRIBE t),
// (SHOW t), (SHOW TABLES), (SHOW ALL TABLES).

// describeMarker begins the table name (DESCRIBE t) becomes.
const describeMarker = "__carquet_describe__:"

// describeCatalog is DESCRIBE of the table or view name.
func describeCatalog(p *plan.Planner, name string) (*plan.CatalogRows, error) {
	c := &plan.CatalogRows{}
	if stmtOf(p).View(name) != nil {
		describeEntry(c, viewEntry(p, name))
		return c, nil
	}
	ent, err := stmtOf(p).tableEntry(name)
	if err != nil {
		return nil, err
	}
	t, _, err := p.Cat.OpenTable(name)
	if err != nil {
		return nil, err
	}
	defer p.Cat.ReleaseTable(t)
	describeEntry(c, ent)
	phys := c.Col("parquet_type", plan.TString)
	for _, col := range t.Columns {
		phys.Add(plan.PhysicalName(col.Field))
	}
	return c, nil
}

// describeEntry adds DuckDB's DESCRIBE columns of ent's columns to c;
// extra is always NULL.
func describeEntry(c *plan.CatalogRows, ent catalogEntry) {
	names, types, nulls := c.Col("column_name", plan.TString), c.Col("column_type", plan.TString), c.Col("null", plan.TString)
	keys, defaults, extra := c.Col("key", plan.TString), c.Col("default", plan.TString), c.Col("extra", plan.TString)
	for _, col := range ent.cols {
		c.N++
		names.Add(col.name)
		types.Add(col.t.SQLName())
		if col.notNull {
			nulls.Add("NO")
		} else {
			nulls.Add("YES")
		}
		keys.Add(plan.NullIfEmpty(col.key))
		defaults.Add(plan.NullIfEmpty(col.dflt))
		extra.Add(nil)
	}
}

// catalogRowsResult are c's rows as a statement's result.
func catalogRowsResult(ctx context.Context, c *plan.CatalogRows) *Rows {
	cols := make([]*Col, len(c.Data))
	for i, d := range c.Data {
		cols[i] = d.C
	}
	r := constRows(ctx, c.Cols, cols)
	r.root.(*kernels.Const).Batches[0].N = c.N
	return r
}

// describeSubqueries rewrites the statements DuckDB reads as subqueries,
// "( DESCRIBE t )", "( DESCRIBE SELECT ... )", "( SHOW ... )",
// and "( SUMMARIZE ... )", into queries of the catalog (or of a marker
// table that runs the statement: statementSubquery). "( PRAGMA ... )" is
// an error, as in DuckDB.
func describeSubqueries(text string, toks []parse.Token) ([]parse.Token, error) {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Kind != parse.Op || toks[i].Text != "(" || !isSubqueryStatement(toks[i+1]) {
			continue
		}
		end := parse.ClosingParen(toks, i)
		if end < 0 {
			continue
		}
		if i > 0 && toks[i-1].Is("as") && hasWord(toks[:i], "with") {
			return nil, errAt(text, toks[i+1].Pos, "a CTE needs a SELECT (as in DuckDB): WITH name AS (SELECT * FROM (%s ...))",
				strings.ToUpper(toks[i+1].Text))
		}
		if toks[i+1].Is("pragma") {
			return nil, errAt(text, toks[i+1].Pos, "PRAGMA cannot be a subquery (nor can it in DuckDB): "+
				"query pragma_table_info('t'), duckdb_tables() or (SHOW TABLES) instead")
		}
		query, ok := statementSubquery(toks[i+1 : end])
		if !ok {
			continue
		}
		all, err := parse.Lex(query)
		if err != nil {
			return nil, err
		}
		sub := parse.Significant(all)
		for k := range sub {
			sub[k].Pos = toks[i+1].Pos // errors point at the statement
		}
		toks = append(toks[:i+1:i+1], append(sub, toks[end:]...)...)
	}
	return toks, nil
}

// isSubqueryStatement reports whether t begins a statement DuckDB reads
// as a subquery.
func isSubqueryStatement(t parse.Token) bool {
	return t.Is("describe") || t.Is("show") || t.Is("summarize") || t.Is("pragma")
}

// The markers that begin the table names of (DESCRIBE query) and
// (SUMMARIZE ...): the marker, then the statement's query text.
const (
	describeQueryMarker = "__carquet_describe_query__:"
	summarizeMarker     = "__carquet_summarize__:"
)

// statementSubquery is the query a statement written as a subquery
// stands for; ok is false for a statement that cannot be one.
func statementSubquery(inner []parse.Token) (string, bool) {
	isQuery := len(inner) > 1 && (inner[1].Is("select") || inner[1].Is("from") || inner[1].Is("with") ||
		inner[1].Is("values") || inner[1].Kind == parse.Op && inner[1].Text == "(")
	switch {
	case len(inner) == 2 && inner[0].Is("show") && inner[1].Is("tables"):
		return showTablesQuery, true
	case len(inner) == 3 && inner[0].Is("show") && inner[1].Is("all") && inner[2].Is("tables"):
		return showAllTables, true
	case len(inner) == 2 && inner[0].Is("show") && inner[1].Is("databases"):
		return showDatabases, true
	case !inner[0].Is("summarize") && !isQuery:
		if name, end, ok := parse.QualifiedName(inner, 1); ok && end == len(inner) {
			return "SELECT * FROM " + parse.Backquote(describeMarker+name), true
		}
		return "", false
	case inner[0].Is("describe") && isQuery:
		return "SELECT * FROM " + parse.Backquote(describeQueryMarker+parse.SpacedText(inner[1:])), true
	case inner[0].Is("summarize") && len(inner) > 1:
		return "SELECT * FROM " + parse.Backquote(summarizeMarker+parse.SpacedText(inner[1:])), true
	}
	return "", false
}

// showDatabases is SHOW DATABASES as a query.
const showDatabases = "SELECT database_name FROM duckdb_databases() ORDER BY database_name"

// statementRelation is the relation of (DESCRIBE query) or (SUMMARIZE
// ...) in FROM: the statement runs when the query plans, and its rows
// are the relation's; ok is false for other names.
func statementRelation(p *plan.Planner, name, alias string) (*plan.Relation, bool, error) {
	var text string
	if query, ok := strings.CutPrefix(name, describeQueryMarker); ok {
		text = "DESCRIBE " + query
	} else if query, ok := strings.CutPrefix(name, summarizeMarker); ok {
		text = "SUMMARIZE " + query
	} else {
		return nil, false, nil
	}
	st, err := stmtOf(p).Prepare(p.Ctx, text)
	if err != nil {
		return nil, true, statementError(p, name, err)
	}
	var rows *Rows
	if st.kind == kindSummarize {
		rows, err = st.summarize(p.Ctx, p, nil)
	} else {
		rows, err = st.query(p.Ctx, p)
	}
	if err != nil {
		return nil, true, statementError(p, name, err)
	}
	if alias == "" {
		alias = "subquery"
	}
	rel, err := plan.DerivedRelation(alias, rows.cols, &plan.Relation{Sub: &plan.SelectPlan{Root: rows.root, Cols: rows.cols}})
	return rel, true, err
}

// showTablesQuery is SHOW TABLES as a query: the tables and views of
// carquet's own database.
const showTablesQuery = "SELECT table_name AS name FROM information_schema.tables WHERE table_catalog = 'carquet' ORDER BY name"

// describeRelation is (DESCRIBE name) in FROM.
func describeRelation(p *plan.Planner, name, alias string) (*plan.Relation, error) {
	c, err := describeCatalog(p, name)
	if err != nil {
		return nil, p.Src.Locate(plan.AsError(err), name)
	}
	if alias == "" {
		alias = strings.ToLower(name)
	}
	return c.Relation(alias, "DESCRIBE"), nil
}

// statementError is the error of the statement a marker table name runs,
// placed at the statement in the user's text (its own offsets are in
// the text the marker carries).
func statementError(p *plan.Planner, marker string, err error) error {
	e := plan.AsError(err)
	if p.Src == nil {
		return e
	}
	for _, t := range p.Src.Toks {
		if t.Kind == parse.Quoted && t.Unquoted() == marker {
			out := errAt(p.Src.Orig, t.Pos, "%s", e.Msg)
			out.Err = e.Err
			return out
		}
	}
	return e
}

// hasWord reports whether the word is among toks.
func hasWord(toks []parse.Token, word string) bool {
	for _, t := range toks {
		if t.Is(word) {
			return true
		}
	}
	return false
}

// showAllTables is SHOW ALL TABLES: a row per table and view of every
// database with its column names and types.
const showAllTables = "SELECT database_name AS `database`, 'main' AS `schema`, table_name AS name, " +
	"list(column_name ORDER BY column_index) AS column_names, list(data_type ORDER BY column_index) AS column_types, " +
	"false AS temporary FROM duckdb_columns() GROUP BY database_name, table_name ORDER BY `database`, name"

package sqlplan

import (
	"context"
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// DESCRIBE has DuckDB's columns (column_name, column_type, null, key,
// default, extra) and, for a table, carquet's parquet_type. As in DuckDB,
// DESCRIBE and SHOW forms can be read as subqueries: FROM (DESCRIBE t),
// (SHOW t), (SHOW TABLES), (SHOW ALL TABLES).

// describeMarker begins the table name (DESCRIBE t) becomes.
const describeMarker = "__carquet_describe__:"

// describeCatalog is DESCRIBE of the table or view name.
func (p *planner) describeCatalog(name string) (*catalogRows, error) {
	c := &catalogRows{}
	if p.e.viewNamed(name) != nil {
		describeEntry(c, p.viewEntry(name))
		return c, nil
	}
	ent, err := p.tableEntry(name)
	if err != nil {
		return nil, err
	}
	t, _, err := p.openTable(name)
	if err != nil {
		return nil, err
	}
	defer p.e.release(t)
	describeEntry(c, ent)
	phys := c.col("parquet_type", tString)
	for _, col := range t.Columns {
		phys.Add(physicalName(col.Field))
	}
	return c, nil
}

// describeEntry adds DuckDB's DESCRIBE columns of ent's columns to c;
// extra is always NULL.
func describeEntry(c *catalogRows, ent catalogEntry) {
	names, types, nulls := c.col("column_name", tString), c.col("column_type", tString), c.col("null", tString)
	keys, defaults, extra := c.col("key", tString), c.col("default", tString), c.col("extra", tString)
	for _, col := range ent.cols {
		c.n++
		names.Add(col.name)
		types.Add(col.t.SQLName())
		if col.notNull {
			nulls.Add("NO")
		} else {
			nulls.Add("YES")
		}
		keys.Add(nullIfEmpty(col.key))
		defaults.Add(nullIfEmpty(col.dflt))
		extra.Add(nil)
	}
}

// rows are c's rows as a statement's result.
func (c *catalogRows) rows(ctx context.Context) *Rows {
	cols := make([]*Col, len(c.data))
	for i, d := range c.data {
		cols[i] = d.C
	}
	r := constRows(ctx, c.cols, cols)
	r.root.(*kernels.Const).Batches[0].N = c.n
	return r
}

// describeSubqueries rewrites the DESCRIBE and SHOW statements written as
// subqueries, "( DESCRIBE t )", into queries of the catalog.
func describeSubqueries(toks []parse.Token) ([]parse.Token, error) {
	for i := 0; i+2 < len(toks); i++ {
		if toks[i].Kind != parse.Op || toks[i].Text != "(" || !toks[i+1].Is("describe") && !toks[i+1].Is("show") {
			continue
		}
		end := parse.ClosingParen(toks, i)
		if end < 0 {
			continue
		}
		inner := toks[i+1 : end]
		var text string
		switch {
		case len(inner) == 2 && inner[1].Is("tables"):
			text = showTablesQuery
		case len(inner) == 3 && inner[1].Is("all") && inner[2].Is("tables"):
			text = showAllTables
		case len(inner) == 2 && isName(inner[1]):
			text = "SELECT * FROM " + parse.Backquote(describeMarker+inner[1].Name())
		default:
			continue
		}
		all, err := parse.Lex(text)
		if err != nil {
			return nil, err
		}
		sub := parse.Significant(all)
		for k := range sub {
			sub[k].Pos = toks[i+1].Pos // errors point at the DESCRIBE
		}
		toks = append(toks[:i+1:i+1], append(sub, toks[end:]...)...)
	}
	return toks, nil
}

// showTablesQuery is SHOW TABLES as a query.
const showTablesQuery = "SELECT table_name AS name FROM information_schema.tables ORDER BY name"

// describeRelation is (DESCRIBE name) in FROM.
func (p *planner) describeRelation(name, alias string) (*relation, error) {
	c, err := p.describeCatalog(name)
	if err != nil {
		return nil, p.src.Locate(asError(err), name)
	}
	if alias == "" {
		alias = strings.ToLower(name)
	}
	return c.relation(alias, "DESCRIBE"), nil
}

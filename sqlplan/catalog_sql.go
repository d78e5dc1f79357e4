package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// createSQL is the CREATE TABLE statement that makes a table's columns
// and constraints again, written as DuckDB writes it in duckdb_tables()
// and EXPORT DATABASE's schema.sql: a one-column key after its column,
// others after the columns.
func (ent catalogEntry) createSQL() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + parse.SQLIdent(ent.name) + "(")
	for i, c := range ent.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(parse.SQLIdent(c.name) + " " + c.t.SQLName())
		if c.dflt != "" {
			b.WriteString(" DEFAULT(" + c.dflt + ")")
		}
		switch {
		case c.key == "PRI":
			b.WriteString(" PRIMARY KEY")
		case c.notNull:
			b.WriteString(" NOT NULL")
		}
		if c.key == "UNI" {
			b.WriteString(" UNIQUE")
		}
	}
	if len(ent.con.primary) > 1 {
		b.WriteString(", PRIMARY KEY(" + parse.IdentList(ent.con.primary) + ")")
	}
	for _, u := range ent.con.unique {
		if len(u) > 1 {
			b.WriteString(", UNIQUE(" + parse.IdentList(u) + ")")
		}
	}
	for _, c := range ent.con.checks {
		b.WriteString(", CHECK(" + c + ")")
	}
	for _, fk := range ent.con.foreign {
		b.WriteString(", FOREIGN KEY (" + parse.IdentList(fk.cols) + ") REFERENCES " + parse.SQLIdent(fk.table))
		if len(fk.refCols) > 0 {
			b.WriteString("(" + parse.IdentList(fk.refCols) + ")")
		}
	}
	b.WriteString(")")
	return b.String()
}

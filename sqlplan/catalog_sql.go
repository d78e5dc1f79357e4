package sqlplan

import (
	"regexp"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// createSQL is the CREATE TABLE statement that makes a table's columns
// and constraints again, written as DuckDB writes it in duckdb_tables()
// and EXPORT DATABASE's schema.sql: a one-column key after its column,
// others after the columns.
func (ent catalogEntry) createSQL() string {
	var b strings.Builder
	b.WriteString("CREATE TABLE " + sqlIdent(ent.name) + "(")
	for i, c := range ent.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(sqlIdent(c.name) + " " + c.t.SQLName())
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
		b.WriteString(", PRIMARY KEY(" + identList(ent.con.primary) + ")")
	}
	for _, u := range ent.con.unique {
		if len(u) > 1 {
			b.WriteString(", UNIQUE(" + identList(u) + ")")
		}
	}
	for _, c := range ent.con.checks {
		b.WriteString(", CHECK(" + c + ")")
	}
	for _, fk := range ent.con.foreign {
		b.WriteString(", FOREIGN KEY (" + identList(fk.cols) + ") REFERENCES " + sqlIdent(fk.table))
		if len(fk.refCols) > 0 {
			b.WriteString("(" + identList(fk.refCols) + ")")
		}
	}
	b.WriteString(")")
	return b.String()
}

// identList is names as a comma-separated list of identifiers.
func identList(names []string) string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = sqlIdent(n)
	}
	return strings.Join(out, ", ")
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// sqlIdent is name as an identifier, quoted only where it must be (as
// DuckDB writes names): other characters than letters, digits and _, or
// a keyword.
func sqlIdent(name string) string {
	if plainIdent.MatchString(name) && !sqlKeywords[strings.ToLower(name)] {
		return name
	}
	return quoteIdent(name)
}

// spacedText writes tokens back as SQL, one space between tokens except
// where the source had none around punctuation ("f(x)", "a.b", "x::INT",
// "a, b"), so that a view's text reads as it was written.
func spacedText(toks []parse.Token) string {
	var b strings.Builder
	for i, t := range toks {
		if i > 0 {
			prev := toks[i-1]
			adjacent := prev.Pos+len(prev.Text) == t.Pos
			glue := adjacent && (isGluePunct(prev) || isGluePunct(t)) || t.Kind == parse.Op && t.Text == ","
			if !glue {
				b.WriteByte(' ')
			}
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// isGluePunct reports whether t is punctuation written without spaces.
func isGluePunct(t parse.Token) bool {
	if t.Kind != parse.Op {
		return false
	}
	switch t.Text {
	case "(", ")", ",", ".", "::", "[", "]":
		return true
	}
	return false
}

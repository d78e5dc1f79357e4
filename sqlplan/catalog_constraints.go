package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// The constraints of the catalog as DuckDB lists them: duckdb_constraints()
// and the views information_schema.table_constraints, key_column_usage,
// referential_constraints, check_constraints, constraint_column_usage and
// constraint_table_usage. Each is a view of one list, tableConstraints,
// made from what CREATE TABLE kept in the table's footer (constraints.go)
// and the columns' nullability.
//
// DuckDB lists a table's constraints in the order CREATE TABLE declared
// them, then a NOT NULL per primary key column. carquet keeps them by
// kind, so it lists PRIMARY KEY, the UNIQUE keys, the NOT NULLs of the
// other columns, the CHECKs, the FOREIGN KEYs and the primary key's NOT
// NULLs: the same rows, in another order where a table mixes kinds.
// constraint_index numbers the rows of all tables, as in DuckDB.
//
// A CHECK's text is the expression as CREATE TABLE wrote it; DuckDB
// prints its own parse ("(v > 0)" for "v > 0").

// tableConstraint is one constraint of a table.
type tableConstraint struct {
	kind    string // PRIMARY KEY, UNIQUE, NOT NULL, CHECK, FOREIGN KEY
	cols    []string
	check   string // a CHECK's expression
	refs    string // a FOREIGN KEY's table
	refCols []string
}

// name is DuckDB's name of the constraint of table.
func (c tableConstraint) name(table string) string {
	parts := append([]string{table}, c.cols...)
	switch c.kind {
	case "PRIMARY KEY":
		return strings.Join(parts, "_") + "_pkey"
	case "UNIQUE":
		return strings.Join(parts, "_") + "_key"
	case "NOT NULL":
		return strings.Join(parts, "_") + "_not_null"
	case "CHECK":
		return strings.Join(parts, "_") + "_check"
	}
	return strings.Join(append(parts, c.refCols...), "_") + "_fkey"
}

// text is DuckDB's constraint_text.
func (c tableConstraint) text() string {
	switch c.kind {
	case "PRIMARY KEY", "UNIQUE":
		return c.kind + "(" + parse.IdentList(c.cols) + ")"
	case "NOT NULL":
		return "NOT NULL"
	case "CHECK":
		return "CHECK(" + c.check + ")"
	}
	return "FOREIGN KEY (" + parse.IdentList(c.cols) + ") REFERENCES " + parse.SQLIdent(c.refs) + "(" + parse.IdentList(c.refCols) + ")"
}

// tableConstraints lists ent's constraints (none for a view). A FOREIGN
// KEY without its referenced columns references the other table's
// primary key, which refKey reads.
func tableConstraints(ent catalogEntry, refKey func(table string) []string) []tableConstraint {
	if ent.view != nil {
		return nil
	}
	var out []tableConstraint
	con := ent.con
	if len(con.primary) > 0 {
		out = append(out, tableConstraint{kind: "PRIMARY KEY", cols: con.primary})
	}
	for _, u := range con.unique {
		out = append(out, tableConstraint{kind: "UNIQUE", cols: u})
	}
	for _, col := range ent.cols {
		if col.notNull && !inPrimaryKey(con, col.name) {
			out = append(out, tableConstraint{kind: "NOT NULL", cols: []string{col.name}})
		}
	}
	for _, chk := range con.checks {
		out = append(out, tableConstraint{kind: "CHECK", cols: checkColumns(ent, chk), check: chk})
	}
	for _, fk := range con.foreign {
		refCols := fk.refCols
		if len(refCols) == 0 {
			refCols = refKey(fk.table)
		}
		out = append(out, tableConstraint{kind: "FOREIGN KEY", cols: fk.cols, refs: fk.table, refCols: refCols})
	}
	for _, k := range con.primary {
		out = append(out, tableConstraint{kind: "NOT NULL", cols: []string{k}})
	}
	return out
}

// checkColumns are the columns of ent a CHECK expression names, in the
// table's order.
func checkColumns(ent catalogEntry, check string) []string {
	all, err := parse.Lex(check)
	if err != nil {
		return nil
	}
	named := parse.NamesIn(parse.Significant(all))
	var out []string
	for _, c := range ent.cols {
		if named[strings.ToLower(c.name)] {
			out = append(out, c.name)
		}
	}
	return out
}

// columnIndexes are the 0-based positions of names among ent's columns.
func columnIndexes(ent catalogEntry, names []string) []any {
	out := []any{}
	for _, n := range names {
		for k, c := range ent.cols {
			if strings.EqualFold(c.name, n) {
				out = append(out, int64(k))
			}
		}
	}
	return out
}

// anyList is names as a list value.
func anyList(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = n
	}
	return out
}

// constrainedTable is a table with its constraints and catalog oid.
type constrainedTable struct {
	ent  catalogEntry
	oid  int
	cons []tableConstraint
}

// constrainedTables lists the tables of the catalog with their
// constraints, in the catalog's order.
func constrainedTables(p *plan.Planner) []constrainedTable {
	ents := catalogEntries(p)
	primary := map[string][]string{} // by database.table
	for _, ent := range ents {
		if ent.view == nil {
			primary[strings.ToLower(ent.db.name+"."+ent.name)] = ent.con.primary
		}
	}
	var out []constrainedTable
	for i, ent := range ents {
		if ent.view == nil {
			refKey := func(table string) []string { return primary[strings.ToLower(ent.db.name+"."+table)] }
			out = append(out, constrainedTable{ent: ent, oid: catalogFirstOID + i, cons: tableConstraints(ent, refKey)})
		}
	}
	return out
}

var tStringList = Type{Kind: KNested, Elem: &plan.TString}
var tBigintList = Type{Kind: KNested, Elem: &plan.TBigint}

func duckdbConstraints(p *plan.Planner, c *plan.CatalogRows) {
	database := databaseColumns(c)
	table, tableOID, index, kind := c.Col("table_name", plan.TString), c.Col("table_oid", plan.TBigint), c.Col("constraint_index", plan.TBigint), c.Col("constraint_type", plan.TString)
	text, expr, colIdx, colNames := c.Col("constraint_text", plan.TString), c.Col("expression", plan.TString), c.Col("constraint_column_indexes", tBigintList), c.Col("constraint_column_names", tStringList)
	name, refTable, refCols := c.Col("constraint_name", plan.TString), c.Col("referenced_table", plan.TString), c.Col("referenced_column_names", tStringList)
	for _, t := range constrainedTables(p) {
		for _, con := range t.cons {
			database(t.ent.db)
			table.Add(t.ent.name)
			tableOID.Add(int64(t.oid))
			index.Add(int64(c.N))
			kind.Add(con.kind)
			text.Add(con.text())
			expr.Add(plan.NullIfEmpty(con.check))
			colIdx.Add(columnIndexes(t.ent, con.cols))
			colNames.Add(anyList(con.cols))
			name.Add(con.name(t.ent.name))
			refTable.Add(plan.NullIfEmpty(con.refs))
			refCols.Add(anyList(con.refCols))
			c.N++
		}
	}
}

// constraintColumns adds constraint_catalog, constraint_schema and
// constraint_name, which begin most of information_schema's constraint
// views, and returns the function that fills them.
func constraintColumns(c *plan.CatalogRows) func(db, name string) {
	catalog, schema, name := c.Col("constraint_catalog", plan.TString), c.Col("constraint_schema", plan.TString), c.Col("constraint_name", plan.TString)
	return func(db, n string) {
		catalog.Add(db)
		schema.Add("main")
		name.Add(n)
	}
}

// infoTableConstraints is information_schema.table_constraints: a NOT
// NULL is a CHECK there, as in DuckDB.
func infoTableConstraints(p *plan.Planner, c *plan.CatalogRows) {
	conName := constraintColumns(c)
	row := tableColumns(c)
	kind := c.Col("constraint_type", plan.TString)
	flags := []*plan.ColBuilder{c.Col("is_deferrable", plan.TString), c.Col("initially_deferred", plan.TString), c.Col("enforced", plan.TString), c.Col("nulls_distinct", plan.TString)}
	for _, t := range constrainedTables(p) {
		for _, con := range t.cons {
			conName(t.ent.db.name, con.name(t.ent.name))
			row(t.ent.db.name, t.ent.name)
			if con.kind == "NOT NULL" {
				kind.Add("CHECK")
			} else {
				kind.Add(con.kind)
			}
			for i, v := range []string{"NO", "NO", "YES", "YES"} {
				flags[i].Add(v)
			}
		}
	}
}

// infoKeyColumnUsage is information_schema.key_column_usage: a row per
// column of a PRIMARY KEY, UNIQUE or FOREIGN KEY constraint.
func infoKeyColumnUsage(p *plan.Planner, c *plan.CatalogRows) {
	conName := constraintColumns(c)
	row := tableColumns(c)
	column, pos, uniquePos := c.Col("column_name", plan.TString), c.Col("ordinal_position", plan.TBigint), c.Col("position_in_unique_constraint", plan.TBigint)
	for _, t := range constrainedTables(p) {
		for _, con := range t.cons {
			if con.kind != "PRIMARY KEY" && con.kind != "UNIQUE" && con.kind != "FOREIGN KEY" {
				continue
			}
			for k, col := range con.cols {
				conName(t.ent.db.name, con.name(t.ent.name))
				row(t.ent.db.name, t.ent.name)
				column.Add(col)
				pos.Add(int64(k + 1))
				if con.kind == "FOREIGN KEY" {
					uniquePos.Add(int64(k + 1))
				} else {
					uniquePos.Add(nil)
				}
			}
		}
	}
}

// infoReferentialConstraints is information_schema.referential_constraints:
// a row per FOREIGN KEY, naming the key of the table it references.
func infoReferentialConstraints(p *plan.Planner, c *plan.CatalogRows) {
	tables := constrainedTables(p)
	conName := constraintColumns(c)
	ucCatalog, ucSchema, ucName := c.Col("unique_constraint_catalog", plan.TString), c.Col("unique_constraint_schema", plan.TString), c.Col("unique_constraint_name", plan.TString)
	match, update, del := c.Col("match_option", plan.TString), c.Col("update_rule", plan.TString), c.Col("delete_rule", plan.TString)
	for _, t := range tables {
		for _, con := range t.cons {
			if con.kind != "FOREIGN KEY" {
				continue
			}
			c.N++
			conName(t.ent.db.name, con.name(t.ent.name))
			ucCatalog.Add(t.ent.db.name)
			ucSchema.Add("main")
			ucName.Add(plan.NullIfEmpty(referencedKey(tables, t.ent.db, con)))
			match.Add("NONE")
			update.Add("NO ACTION")
			del.Add("NO ACTION")
		}
	}
}

// referencedKey is the name of the PRIMARY KEY or UNIQUE constraint a
// foreign key references ("" if the table or key is gone).
func referencedKey(tables []constrainedTable, db catalogDB, fk tableConstraint) string {
	for _, t := range tables {
		if !strings.EqualFold(t.ent.name, fk.refs) || t.ent.db != db {
			continue
		}
		for _, con := range t.cons {
			if (con.kind == "PRIMARY KEY" || con.kind == "UNIQUE") && strings.EqualFold(strings.Join(con.cols, ","), strings.Join(fk.refCols, ",")) {
				return con.name(t.ent.name)
			}
		}
	}
	return ""
}

// infoCheckConstraints is information_schema.check_constraints: the
// CHECKs and the NOT NULLs (as "col IS NOT NULL"), as in DuckDB.
func infoCheckConstraints(p *plan.Planner, c *plan.CatalogRows) {
	conName := constraintColumns(c)
	clause := c.Col("check_clause", plan.TString)
	for _, t := range constrainedTables(p) {
		for _, con := range t.cons {
			switch con.kind {
			case "CHECK":
				clause.Add(con.text())
			case "NOT NULL":
				clause.Add(con.cols[0] + " IS NOT NULL")
			default:
				continue
			}
			c.N++
			conName(t.ent.db.name, con.name(t.ent.name))
		}
	}
}

// infoConstraintUsage is information_schema.constraint_column_usage
// (perColumn) or constraint_table_usage: the constraints but NOT NULL, a
// row per column or per constraint.
func infoConstraintUsage(p *plan.Planner, c *plan.CatalogRows, perColumn bool) {
	row := tableColumns(c)
	var column *plan.ColBuilder
	if perColumn {
		column = c.Col("column_name", plan.TString)
	}
	conName := constraintColumns(c)
	kind := c.Col("constraint_type", plan.TString)
	var text *plan.ColBuilder
	if perColumn {
		text = c.Col("constraint_text", plan.TString)
	}
	for _, t := range constrainedTables(p) {
		for _, con := range t.cons {
			if con.kind == "NOT NULL" {
				continue
			}
			cols := []string{""}
			if perColumn {
				cols = con.cols
			}
			for _, col := range cols {
				row(t.ent.db.name, t.ent.name)
				conName(t.ent.db.name, con.name(t.ent.name))
				kind.Add(con.kind)
				if perColumn {
					column.Add(col)
					text.Add(con.text())
				}
			}
		}
	}
}

// infoCharacterSets is information_schema.character_sets: UTF8 only.
func infoCharacterSets(c *plan.CatalogRows) {
	cat, schema := c.Col("character_set_catalog", plan.TString), c.Col("character_set_schema", plan.TString)
	name, repertoire, form := c.Col("character_set_name", plan.TString), c.Col("character_repertoire", plan.TString), c.Col("form_of_use", plan.TString)
	collCat, collSchema, collName := c.Col("default_collate_catalog", plan.TString), c.Col("default_collate_schema", plan.TString), c.Col("default_collate_name", plan.TString)
	c.N = 1
	cat.Add(nil)
	schema.Add(nil)
	name.Add("UTF8")
	repertoire.Add("UCS")
	form.Add("UTF8")
	collCat.Add("carquet")
	collSchema.Add("pg_catalog")
	collName.Add("ucs_basic")
}

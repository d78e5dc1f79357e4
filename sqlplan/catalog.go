package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	// Named so: the tests' exec helper takes the package's own name.
)

// The catalog views information_schema.tables and information_schema.columns
// list the folder's tables and the engine's views as other databases do,
// in catalog "carquet" and schema "main".

// catalogRelation is the relation of a catalog view, ok false when name
// is none. The views have DuckDB's columns, in its order.
func catalogRelation(p *planner, name, alias string) (*relation, bool) {
	which := strings.ToLower(name)
	c := &catalogRows{}
	if pg, ok := strings.CutPrefix(which, "pg_catalog."); ok || strings.HasPrefix(which, "pg_") && !stmtOf(p).TableExists(name) {
		if !ok {
			pg = which // pg_tables is pg_catalog.pg_tables where no table has the name
		}
		if alias == "" {
			alias = pg
		}
		if !pgCatalogRelation(p, pg, c) {
			return nil, false
		}
		return c.relation(alias, strings.ToUpper(which)), true
	}
	if (which == "sqlite_master" || which == "sqlite_schema") && !stmtOf(p).TableExists(name) {
		if alias == "" {
			alias = which
		}
		sqliteMaster(p, c)
		return c.relation(alias, strings.ToUpper(which)), true
	}
	view, ok := strings.CutPrefix(which, "information_schema.")
	if !ok {
		return nil, false
	}
	if alias == "" {
		alias = view
	}
	switch view {
	case "tables":
		infoTables(p, c)
	case "columns":
		infoColumns(p, c)
	case "views":
		infoViews(p, c)
	case "schemata":
		infoSchemata(p, c)
	case "table_constraints":
		infoTableConstraints(p, c)
	case "key_column_usage":
		infoKeyColumnUsage(p, c)
	case "referential_constraints":
		infoReferentialConstraints(p, c)
	case "check_constraints":
		infoCheckConstraints(p, c)
	case "constraint_column_usage":
		infoConstraintUsage(p, c, true)
	case "constraint_table_usage":
		infoConstraintUsage(p, c, false)
	case "character_sets":
		infoCharacterSets(c)
	default:
		return nil, false
	}
	return c.relation(alias, strings.ToUpper(which)), true
}

// nullColumns adds columns that are NULL in every row carquet lists,
// and returns the function that adds a row's NULLs.
func nullColumns(c *catalogRows, t Type, names ...string) func() {
	var bs []*colBuilder
	for _, n := range names {
		bs = append(bs, c.col(n, t))
	}
	return func() {
		for _, b := range bs {
			b.Add(nil)
		}
	}
}

// tableColumns adds table_catalog, table_schema and table_name.
func tableColumns(c *catalogRows) func(db, name string) {
	catalog, schema, table := c.col("table_catalog", tString), c.col("table_schema", tString), c.col("table_name", tString)
	return func(db, name string) {
		c.n++
		catalog.Add(db)
		schema.Add("main")
		table.Add(name)
	}
}

func infoTables(p *planner, c *catalogRows) {
	row := tableColumns(c)
	kind := c.col("table_type", tString)
	nulls := nullColumns(c, tString, "self_referencing_column_name", "reference_generation", "user_defined_type_catalog", "user_defined_type_schema", "user_defined_type_name")
	insertable, typed := c.col("is_insertable_into", tString), c.col("is_typed", tString)
	commit, comment := c.col("commit_action", tString), c.col("TABLE_COMMENT", tString)
	for _, t := range catalogTables(p) {
		row(t.db.name, t.name)
		kind.Add("BASE TABLE")
		nulls()
		insertable.Add("YES")
		typed.Add("NO")
		commit.Add(nil)
		comment.Add(nil)
	}
	for _, name := range stmtOf(p).ViewNames() {
		row(ownDatabase.name, name)
		kind.Add("VIEW")
		nulls()
		insertable.Add("NO")
		typed.Add("NO")
		commit.Add(nil)
		comment.Add(nil)
	}
}

func infoColumns(p *planner, c *catalogRows) {
	row := tableColumns(c)
	column, pos := c.col("column_name", tString), c.col("ordinal_position", tInteger)
	dflt, nullable, dtype := c.col("column_default", tString), c.col("is_nullable", tString), c.col("data_type", tString)
	maxLen, octets := c.col("character_maximum_length", tInteger), c.col("character_octet_length", tInteger)
	prec, radix, scale := c.col("numeric_precision", tInteger), c.col("numeric_precision_radix", tInteger), c.col("numeric_scale", tInteger)
	dtPrec, ivType, ivPrec := c.col("datetime_precision", tInteger), c.col("interval_type", tString), c.col("interval_precision", tInteger)
	names := nullColumns(c, tString, "character_set_catalog", "character_set_schema", "character_set_name", "collation_catalog",
		"collation_schema", "collation_name", "domain_catalog", "domain_schema", "domain_name", "udt_catalog", "udt_schema",
		"udt_name", "scope_catalog", "scope_schema", "scope_name")
	maxCard, dtd := c.col("maximum_cardinality", tBigint), c.col("dtd_identifier", tString)
	selfRef, identity := c.col("is_self_referencing", tBool), c.col("is_identity", tBool)
	idents := nullColumns(c, tString, "identity_generation", "identity_start", "identity_increment", "identity_maximum", "identity_minimum")
	idCycle := c.col("identity_cycle", tBool)
	generated := nullColumns(c, tString, "is_generated", "generation_expression")
	updatable, comment := c.col("is_updatable", tBool), c.col("COLUMN_COMMENT", tString)
	for _, ent := range catalogEntries(p) {
		for k, col := range ent.cols {
			row(ent.db.name, ent.name)
			column.Add(col.name)
			pos.Add(int64(k + 1))
			dflt.Add(nullIfEmpty(col.dflt))
			if col.notNull && ent.view == nil {
				nullable.Add("NO")
			} else {
				nullable.Add("YES")
			}
			dtype.Add(col.t.SQLName())
			pr, rx, sc := numericPrecision(col.t)
			for _, v := range []struct {
				b *colBuilder
				v any
			}{{maxLen, nil}, {octets, nil}, {prec, pr}, {radix, rx}, {scale, sc}, {dtPrec, nil}, {ivType, nil}, {ivPrec, nil},
				{maxCard, nil}, {dtd, nil}, {selfRef, nil}, {identity, nil}, {idCycle, nil}, {updatable, nil}, {comment, nil}} {
				v.b.Add(v.v)
			}
			names()
			idents()
			generated()
		}
	}
}

func infoViews(p *planner, c *catalogRows) {
	row := tableColumns(c)
	def := c.col("view_definition", tString)
	check := c.col("check_option", tString)
	nos := []*colBuilder{c.col("is_updatable", tString), c.col("is_insertable_into", tString), c.col("is_trigger_updatable", tString),
		c.col("is_trigger_deletable", tString), c.col("is_trigger_insertable_into", tString)}
	for _, name := range stmtOf(p).ViewNames() {
		v := stmtOf(p).View(name)
		if v == nil {
			continue
		}
		row(ownDatabase.name, name)
		def.Add(v.definition() + ";")
		check.Add("NONE")
		for _, b := range nos {
			b.Add("NO")
		}
	}
}

func infoSchemata(p *planner, c *catalogRows) {
	catalog, schema, owner := c.col("catalog_name", tString), c.col("schema_name", tString), c.col("schema_owner", tString)
	nulls := nullColumns(c, tString, "default_character_set_catalog", "default_character_set_schema", "default_character_set_name", "sql_path")
	for _, db := range catalogDatabases(p) {
		c.n++
		catalog.Add(db.name)
		schema.Add("main")
		owner.Add("carquet")
		nulls()
	}
}

// viewColumns are the output columns of a view (none if it does not plan:
// a table it reads was dropped).
func viewColumns(p *planner, name string) []Column {
	st, err := stmtOf(p).PrepareOutside("SELECT * FROM " + parse.Backquote(name))
	if err != nil {
		return nil
	}
	vp := p.child(st.src)
	defer vp.releaseAll()
	sp, err := st.plan(vp)
	if err != nil {
		return nil
	}
	sp.root.Close()
	return sp.cols
}

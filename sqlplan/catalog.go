package sqlplan

import (
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	// Named so: the tests' exec helper takes the package's own name.
)

// The catalog views information_schema.tables and information_schema.columns
// list the folder's tables and the engine's views as other databases do,
// in catalog "carquet" and schema "main".

// catalogRelation is the relation of a catalog view, ok false when name
// is none. The views have DuckDB's columns, in its order.
func catalogRelation(p *plan.Planner, name, alias string) (*plan.Relation, bool) {
	which := strings.ToLower(name)
	c := &plan.CatalogRows{}
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
		return c.Relation(alias, strings.ToUpper(which)), true
	}
	if (which == "sqlite_master" || which == "sqlite_schema") && !stmtOf(p).TableExists(name) {
		if alias == "" {
			alias = which
		}
		sqliteMaster(p, c)
		return c.Relation(alias, strings.ToUpper(which)), true
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
	return c.Relation(alias, strings.ToUpper(which)), true
}

// nullColumns adds columns that are NULL in every row carquet lists,
// and returns the function that adds a row's NULLs.
func nullColumns(c *plan.CatalogRows, t Type, names ...string) func() {
	var bs []*plan.ColBuilder
	for _, n := range names {
		bs = append(bs, c.Col(n, t))
	}
	return func() {
		for _, b := range bs {
			b.Add(nil)
		}
	}
}

// tableColumns adds table_catalog, table_schema and table_name.
func tableColumns(c *plan.CatalogRows) func(db, name string) {
	catalog, schema, table := c.Col("table_catalog", plan.TString), c.Col("table_schema", plan.TString), c.Col("table_name", plan.TString)
	return func(db, name string) {
		c.N++
		catalog.Add(db)
		schema.Add("main")
		table.Add(name)
	}
}

func infoTables(p *plan.Planner, c *plan.CatalogRows) {
	row := tableColumns(c)
	kind := c.Col("table_type", plan.TString)
	nulls := nullColumns(c, plan.TString, "self_referencing_column_name", "reference_generation", "user_defined_type_catalog", "user_defined_type_schema", "user_defined_type_name")
	insertable, typed := c.Col("is_insertable_into", plan.TString), c.Col("is_typed", plan.TString)
	commit, comment := c.Col("commit_action", plan.TString), c.Col("TABLE_COMMENT", plan.TString)
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

func infoColumns(p *plan.Planner, c *plan.CatalogRows) {
	row := tableColumns(c)
	column, pos := c.Col("column_name", plan.TString), c.Col("ordinal_position", plan.TInteger)
	dflt, nullable, dtype := c.Col("column_default", plan.TString), c.Col("is_nullable", plan.TString), c.Col("data_type", plan.TString)
	maxLen, octets := c.Col("character_maximum_length", plan.TInteger), c.Col("character_octet_length", plan.TInteger)
	prec, radix, scale := c.Col("numeric_precision", plan.TInteger), c.Col("numeric_precision_radix", plan.TInteger), c.Col("numeric_scale", plan.TInteger)
	dtPrec, ivType, ivPrec := c.Col("datetime_precision", plan.TInteger), c.Col("interval_type", plan.TString), c.Col("interval_precision", plan.TInteger)
	names := nullColumns(c, plan.TString, "character_set_catalog", "character_set_schema", "character_set_name", "collation_catalog",
		"collation_schema", "collation_name", "domain_catalog", "domain_schema", "domain_name", "udt_catalog", "udt_schema",
		"udt_name", "scope_catalog", "scope_schema", "scope_name")
	maxCard, dtd := c.Col("maximum_cardinality", plan.TBigint), c.Col("dtd_identifier", plan.TString)
	selfRef, identity := c.Col("is_self_referencing", plan.TBool), c.Col("is_identity", plan.TBool)
	idents := nullColumns(c, plan.TString, "identity_generation", "identity_start", "identity_increment", "identity_maximum", "identity_minimum")
	idCycle := c.Col("identity_cycle", plan.TBool)
	generated := nullColumns(c, plan.TString, "is_generated", "generation_expression")
	updatable, comment := c.Col("is_updatable", plan.TBool), c.Col("COLUMN_COMMENT", plan.TString)
	for _, ent := range catalogEntries(p) {
		for k, col := range ent.cols {
			row(ent.db.name, ent.name)
			column.Add(col.name)
			pos.Add(int64(k + 1))
			dflt.Add(plan.NullIfEmpty(col.dflt))
			if col.notNull && ent.view == nil {
				nullable.Add("NO")
			} else {
				nullable.Add("YES")
			}
			dtype.Add(col.t.SQLName())
			pr, rx, sc := numericPrecision(col.t)
			for _, v := range []struct {
				b *plan.ColBuilder
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

func infoViews(p *plan.Planner, c *plan.CatalogRows) {
	row := tableColumns(c)
	def := c.Col("view_definition", plan.TString)
	check := c.Col("check_option", plan.TString)
	nos := []*plan.ColBuilder{c.Col("is_updatable", plan.TString), c.Col("is_insertable_into", plan.TString), c.Col("is_trigger_updatable", plan.TString),
		c.Col("is_trigger_deletable", plan.TString), c.Col("is_trigger_insertable_into", plan.TString)}
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

func infoSchemata(p *plan.Planner, c *plan.CatalogRows) {
	catalog, schema, owner := c.Col("catalog_name", plan.TString), c.Col("schema_name", plan.TString), c.Col("schema_owner", plan.TString)
	nulls := nullColumns(c, plan.TString, "default_character_set_catalog", "default_character_set_schema", "default_character_set_name", "sql_path")
	for _, db := range catalogDatabases(p) {
		c.N++
		catalog.Add(db.name)
		schema.Add("main")
		owner.Add("carquet")
		nulls()
	}
}

// viewColumns are the output columns of a view (none if it does not plan:
// a table it reads was dropped).
func viewColumns(p *plan.Planner, name string) []Column {
	st, err := stmtOf(p).PrepareOutside("SELECT * FROM " + parse.Backquote(name))
	if err != nil {
		return nil
	}
	vp := p.Child(st.Src)
	defer vp.ReleaseAll()
	sp, err := st.Plan(vp)
	if err != nil {
		return nil
	}
	sp.Root.Close()
	return sp.Cols
}

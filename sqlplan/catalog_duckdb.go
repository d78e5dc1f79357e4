package sqlplan

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// DuckDB's catalog as people paste it: the table functions duckdb_tables(),
// duckdb_columns(), duckdb_views(), duckdb_schemas(), duckdb_databases()
// and pragma_table_info('t') (PRAGMA table_info('t')), with DuckDB's column
// names and types. carquet has one database, "carquet", with one schema,
// "main"; the object ids are positions, stable only within a statement.

// catalogColumn is a column of a table or view as the catalog lists it.
type catalogColumn struct {
	name    string
	t       Type
	notNull bool
	dflt    string // the DEFAULT's text, "" without one
	key     string // "PRI", "UNI" or ""
}

// catalogEntry is a table or a view of the catalog.
type catalogEntry struct {
	db   catalogDB // the database: carquet's own or an attached folder
	name string
	view *view // nil for a table
	cols []catalogColumn
	rows int64        // of a table, from the files' footers
	con  *constraints // those the table declares (no UNIQUE index)
	// indexes are the table's (index.go).
	indexes []tableIndex
}

// catalogDB is a database of the catalog: carquet's own (its root
// folder) or an attached folder (attach.go).
type catalogDB struct {
	name, path string
	oid        int64
}

// ownDatabase is carquet's own database.
var ownDatabase = catalogDB{name: "carquet", oid: catalogDatabaseOID}

// catalogDatabases lists carquet's database, then the attached ones by
// name.
func catalogDatabases(p *plan.Planner) []catalogDB {
	own := ownDatabase
	own.path = stmtOf(p).e.root
	out := []catalogDB{own}
	names, paths := stmtOf(p).e.attachedNames()
	for i, n := range names {
		out = append(out, catalogDB{name: n, path: paths[i], oid: int64(catalogDatabaseOID + (i+1)*catalogFirstOID)})
	}
	return out
}

// catalogTable is a table's name in its database.
type catalogTable struct {
	db   catalogDB
	name string
}

// catalogTables lists the tables of every database without opening them:
// the statement's own (its transaction's, if it has one), then the
// attached folders'.
func catalogTables(p *plan.Planner) []catalogTable {
	var out []catalogTable
	for _, db := range catalogDatabases(p) {
		names := stmtOf(p).TableNames()
		if db.name != ownDatabase.name {
			names = folderTableNames(db.path)
			sort.Strings(names)
		}
		for _, n := range names {
			out = append(out, catalogTable{db: db, name: n})
		}
	}
	return out
}

// catalogEntries lists the tables (a table whose files do not open is
// left out: it has no columns to list) and then the views.
func catalogEntries(p *plan.Planner) []catalogEntry {
	var out []catalogEntry
	for _, t := range catalogTables(p) {
		name := t.name
		if t.db.name != ownDatabase.name {
			name = t.db.name + "." + t.name
		}
		if ent, err := stmtOf(p).tableEntry(name); err == nil {
			ent.db, ent.name = t.db, t.name
			out = append(out, ent)
		}
	}
	for _, name := range stmtOf(p).ViewNames() {
		out = append(out, viewEntry(p, name))
	}
	return out
}

// tableEntry reads a table's columns and constraints from its files.
func (c *stmtCatalog) tableEntry(name string) (catalogEntry, error) {
	t, _, err := c.OpenTable(name)
	if err != nil {
		return catalogEntry{}, err
	}
	defer c.ReleaseTable(t)
	ent := catalogEntry{db: ownDatabase, name: t.Name, con: &constraints{}}
	if ent.name == "" {
		ent.name = name
	}
	for i := range t.Files {
		f, err := t.File(i)
		if err != nil {
			return catalogEntry{}, err
		}
		if i == 0 {
			opts := decodeOptions(f)
			ent.con, ent.indexes = constraintsOf(withoutIndexes(opts)), indexesOf(opts)
		}
		ent.rows += f.Meta.NumRows
	}
	for _, c := range t.Columns {
		typ, notNull := plan.TString, false
		if c.Field != nil {
			typ, notNull = plan.TypeOfField(c.Field), !c.Field.Nullable
		} else if c.PartitionType == 1 {
			typ = plan.TInt
		}
		col := catalogColumn{name: c.Name, t: typ, notNull: notNull, dflt: unparen(ent.con.defaults[c.Name])}
		switch {
		case len(ent.con.primary) == 1 && ent.con.primary[0] == c.Name:
			col.key = "PRI"
		case hasUniqueColumn(ent.con.unique, c.Name):
			col.key = "UNI"
		}
		ent.cols = append(ent.cols, col)
	}
	return ent, nil
}

// hasUniqueColumn reports whether name alone is a UNIQUE key.
func hasUniqueColumn(keys [][]string, name string) bool {
	for _, k := range keys {
		if len(k) == 1 && k[0] == name {
			return true
		}
	}
	return false
}

// viewEntry is a view with the columns its query gives.
func viewEntry(p *plan.Planner, name string) catalogEntry {
	ent := catalogEntry{db: ownDatabase, name: name, view: stmtOf(p).View(name), con: &constraints{}}
	for _, c := range viewColumns(p, name) {
		ent.cols = append(ent.cols, catalogColumn{name: c.Name, t: c.Type, notNull: !c.Nullable})
	}
	return ent
}

var (
	tTagsMap = Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: plan.TString}, {Name: "value", Type: plan.TString}}}
)

// The ids DuckDB gives its database and schema "main"; carquet's objects
// are numbered after them.
const (
	catalogDatabaseOID = 1
	catalogSchemaOID   = 2
	catalogFirstOID    = 100
)

// duckdbRelation is the relation of a catalog table function's table
// name (what the rewrite made of the call), ok false for other names.
func duckdbRelation(p *plan.Planner, name, alias string) (*plan.Relation, bool, error) {
	if table, ok := strings.CutPrefix(name, describeMarker); ok {
		rel, err := describeRelation(p, table, alias)
		return rel, true, err
	}
	if rel, ok, err := statementRelation(p, name, alias); ok {
		return rel, true, err
	}
	if rel, ok, err := p.CSVRelation(name, alias); ok { // csvbind.go
		return rel, true, err
	}
	if rel, ok, err := p.FileReadRelation(name, alias); ok { // textbind.go
		return rel, true, err
	}
	if rel, ok, err := p.CSVReadRelation(name, alias); ok { // csvbind.go
		return rel, true, err
	}
	if rel, ok, err := p.ParquetMetaRelation(name, alias); ok { // pqmeta.go
		return rel, true, err
	}
	if rel, ok, err := pgViewRelation(p, name, alias); ok { // catalog_pg.go
		return rel, true, err
	}
	if table, ok := strings.CutPrefix(name, parse.TableInfoMarker); ok {
		rel, err := tableInfoRelation(p, table, alias)
		return rel, true, err
	}
	fn, ok := strings.CutSuffix(name, "()")
	if !ok || !parse.CatalogFunctions[fn] {
		return nil, false, nil
	}
	if alias == "" {
		alias = fn
	}
	if rel, ok, err := systemRelation(p, fn, alias); ok { // systables.go
		return rel, true, err
	}
	c := &plan.CatalogRows{}
	switch fn {
	case "duckdb_tables":
		duckdbTables(p, c)
	case "duckdb_columns":
		duckdbColumns(p, c)
	case "duckdb_views":
		duckdbViews(p, c)
	case "duckdb_schemas":
		duckdbSchemas(p, c)
	case "duckdb_databases":
		duckdbDatabases(p, c)
	case "duckdb_constraints":
		duckdbConstraints(p, c)
	case "duckdb_indexes":
		duckdbIndexes(p, c)
	case "duckdb_sequences":
		duckdbSequences(p, c)
	case "duckdb_keywords":
		duckdbKeywords(c)
	case "duckdb_types":
		duckdbTypes(c, stmtOf(p).e.userTypeList())
	case "duckdb_functions":
		duckdbFunctions(p, c)
	}
	return c.Relation(alias, strings.ToUpper(fn)), true, nil
}

// objectColumns adds the columns every object row of DuckDB's catalog
// functions begins with, and returns the function that fills them.
func objectColumns(c *plan.CatalogRows, nameCol string) func(in catalogDB, name string, oid int) {
	add := databaseColumns(c)
	name, oid := c.Col(nameCol, plan.TString), c.Col(strings.TrimSuffix(nameCol, "_name")+"_oid", plan.TBigint)
	return func(in catalogDB, n string, id int) {
		add(in)
		name.Add(n)
		oid.Add(int64(id))
	}
}

// databaseColumns adds database_name, database_oid, schema_name and
// schema_oid and returns the function that fills them; each database has
// one schema, main, whose oid follows the database's.
func databaseColumns(c *plan.CatalogRows) func(in catalogDB) {
	db, dbOID := c.Col("database_name", plan.TString), c.Col("database_oid", plan.TBigint)
	schema, schemaOID := c.Col("schema_name", plan.TString), c.Col("schema_oid", plan.TBigint)
	return func(in catalogDB) {
		db.Add(in.name)
		dbOID.Add(in.oid)
		schema.Add("main")
		schemaOID.Add(in.oid + catalogSchemaOID - catalogDatabaseOID)
	}
}

// flagColumns adds comment, tags, internal and temporary, which follow
// the object columns of duckdb_tables() and duckdb_views(), and returns
// the function that fills them (carquet has no comments or tags).
func flagColumns(c *plan.CatalogRows) func(temporary bool) {
	comment, tags, internal, temp := c.Col("comment", plan.TString), c.Col("tags", tTagsMap), c.Col("internal", plan.TBool), c.Col("temporary", plan.TBool)
	return func(temporary bool) {
		comment.Add(nil)
		tags.Add(map[any]any{})
		internal.Add(false)
		temp.Add(temporary)
	}
}

func duckdbTables(p *plan.Planner, c *plan.CatalogRows) {
	object := objectColumns(c, "table_name")
	flags := flagColumns(c)
	hasPK, size, ncols := c.Col("has_primary_key", plan.TBool), c.Col("estimated_size", plan.TBigint), c.Col("column_count", plan.TBigint)
	nidx, nchecks, sql := c.Col("index_count", plan.TBigint), c.Col("check_constraint_count", plan.TBigint), c.Col("sql", plan.TString)
	for i, ent := range catalogEntries(p) {
		if ent.view != nil {
			continue
		}
		c.N++
		object(ent.db, ent.name, catalogFirstOID+i)
		flags(false)
		hasPK.Add(len(ent.con.primary) > 0)
		size.Add(ent.rows)
		ncols.Add(int64(len(ent.cols)))
		nidx.Add(int64(len(ent.indexes)))
		nchecks.Add(int64(len(ent.con.checks)))
		sql.Add(ent.createSQL() + ";")
	}
}

func duckdbColumns(p *plan.Planner, c *plan.CatalogRows) {
	object := objectColumns(c, "table_name")
	colName, index, comment, internal := c.Col("column_name", plan.TString), c.Col("column_index", plan.TInteger), c.Col("comment", plan.TString), c.Col("internal", plan.TBool)
	dflt, nullable, dtype, typeID := c.Col("column_default", plan.TString), c.Col("is_nullable", plan.TBool), c.Col("data_type", plan.TString), c.Col("data_type_id", plan.TBigint)
	maxLen, prec, radix, scale := c.Col("character_maximum_length", plan.TInteger), c.Col("numeric_precision", plan.TInteger), c.Col("numeric_precision_radix", plan.TInteger), c.Col("numeric_scale", plan.TInteger)
	for i, ent := range catalogEntries(p) {
		for k, col := range ent.cols {
			c.N++
			object(ent.db, ent.name, catalogFirstOID+i)
			colName.Add(col.name)
			index.Add(int64(k + 1))
			comment.Add(nil)
			internal.Add(false)
			dflt.Add(plan.NullIfEmpty(col.dflt))
			nullable.Add(!col.notNull || ent.view != nil)
			dtype.Add(col.t.SQLName())
			typeID.Add(duckdbTypeID(col.t))
			maxLen.Add(nil)
			pr, rx, sc := numericPrecision(col.t)
			prec.Add(pr)
			radix.Add(rx)
			scale.Add(sc)
		}
	}
}

func duckdbViews(p *plan.Planner, c *plan.CatalogRows) {
	object := objectColumns(c, "view_name")
	flags := flagColumns(c)
	ncols, sql, bound := c.Col("column_count", plan.TBigint), c.Col("sql", plan.TString), c.Col("is_bound", plan.TBool)
	for i, ent := range catalogEntries(p) {
		if ent.view == nil {
			continue
		}
		c.N++
		object(ent.db, ent.name, catalogFirstOID+i)
		flags(ent.view.temp)
		ncols.Add(int64(len(ent.cols)))
		sql.Add(ent.view.definition() + ";")
		bound.Add(len(ent.cols) > 0)
	}
}

func duckdbSchemas(p *plan.Planner, c *plan.CatalogRows) {
	oid, db, dbOID, schema := c.Col("oid", plan.TBigint), c.Col("database_name", plan.TString), c.Col("database_oid", plan.TBigint), c.Col("schema_name", plan.TString)
	comment, tags, internal, sql := c.Col("comment", plan.TString), c.Col("tags", tTagsMap), c.Col("internal", plan.TBool), c.Col("sql", plan.TString)
	for _, in := range catalogDatabases(p) {
		c.N++
		oid.Add(in.oid + catalogSchemaOID - catalogDatabaseOID)
		db.Add(in.name)
		dbOID.Add(in.oid)
		schema.Add("main")
		comment.Add(nil)
		tags.Add(map[any]any{})
		internal.Add(true)
		sql.Add(nil)
	}
}

func duckdbDatabases(p *plan.Planner, c *plan.CatalogRows) {
	db, dbOID, path, comment := c.Col("database_name", plan.TString), c.Col("database_oid", plan.TBigint), c.Col("path", plan.TString), c.Col("comment", plan.TString)
	tags, internal, kind, readonly := c.Col("tags", tTagsMap), c.Col("internal", plan.TBool), c.Col("type", plan.TString), c.Col("readonly", plan.TBool)
	for i, in := range catalogDatabases(p) {
		c.N++
		db.Add(in.name)
		dbOID.Add(in.oid)
		path.Add(in.path)
		comment.Add(nil)
		tags.Add(map[any]any{})
		internal.Add(false)
		kind.Add("carquet")
		readonly.Add(i > 0 && stmtOf(p).e.writable(in.path) != nil) // writes stay below the root
	}
}

// tableInfoRelation is pragma_table_info('name') of a table or a view.
func tableInfoRelation(p *plan.Planner, name, alias string) (*plan.Relation, error) {
	var ent catalogEntry
	if stmtOf(p).View(name) != nil {
		ent = viewEntry(p, name)
	} else {
		var err error
		if ent, err = stmtOf(p).tableEntry(name); err != nil {
			return nil, p.Src.Locate(plan.AsError(err), name)
		}
	}
	if alias == "" {
		alias = "pragma_table_info"
	}
	c := &plan.CatalogRows{}
	cid, colName, typ, notNull := c.Col("cid", plan.TInteger), c.Col("name", plan.TString), c.Col("type", plan.TString), c.Col("notnull", plan.TBool)
	dflt, pk := c.Col("dflt_value", plan.TString), c.Col("pk", plan.TBool)
	for k, col := range ent.cols {
		c.N++
		cid.Add(int64(k))
		colName.Add(col.name)
		typ.Add(col.t.SQLName())
		notNull.Add(col.notNull && ent.view == nil)
		dflt.Add(plan.NullIfEmpty(col.dflt))
		pk.Add(inPrimaryKey(ent.con, col.name))
	}
	return c.Relation(alias, "PRAGMA_TABLE_INFO"), nil
}

// inPrimaryKey reports whether column name is part of the primary key.
func inPrimaryKey(con *constraints, name string) bool {
	for _, k := range con.primary {
		if k == name {
			return true
		}
	}
	return false
}

// duckdbTypeID is DuckDB's LogicalTypeId of a type, as duckdb_columns()
// shows it in data_type_id.
func duckdbTypeID(t Type) int64 {
	name := t.SQLName()
	switch {
	case strings.HasSuffix(name, "]"):
		return 101
	case strings.HasPrefix(name, "STRUCT"):
		return 100
	case strings.HasPrefix(name, "MAP"):
		return 102
	case strings.HasPrefix(name, "DECIMAL"):
		return 21
	}
	return duckdbTypeIDs[name]
}

var duckdbTypeIDs = map[string]int64{
	"BOOLEAN": 10, "TINYINT": 11, "SMALLINT": 12, "INTEGER": 13, "BIGINT": 14, "DATE": 15, "TIME": 16,
	"TIMESTAMP_S": 17, "TIMESTAMP_MS": 18, "TIMESTAMP": 19, "TIMESTAMP_NS": 20, "FLOAT": 22, "DOUBLE": 23,
	"VARCHAR": 25, "BLOB": 26, "INTERVAL": 27, "UTINYINT": 28, "USMALLINT": 29, "UINTEGER": 30, "UBIGINT": 31,
	"TIMESTAMP WITH TIME ZONE": 32, "TIME WITH TIME ZONE": 34, "BIT": 36, "UHUGEINT": 49, "HUGEINT": 50, "UUID": 54,
}

// numericPrecision is DuckDB's numeric_precision, _radix and _scale of a
// type: bits for signed integers and floats, digits for decimals, NULL
// for the rest (unsigned integers included, as in DuckDB).
func numericPrecision(t Type) (prec, radix, scale any) {
	name := t.SQLName()
	if strings.HasPrefix(name, "DECIMAL") {
		return int64(t.Prec), int64(10), int64(t.Scale)
	}
	bits, ok := map[string]int64{"TINYINT": 8, "SMALLINT": 16, "INTEGER": 32, "BIGINT": 64, "HUGEINT": 128, "FLOAT": 24, "DOUBLE": 53}[name]
	if !ok {
		return nil, nil, nil
	}
	return bits, int64(2), int64(0)
}

// unparen is an expression's text without parentheses around the whole
// (DEFAULT('x'), as DuckDB writes a default, shows as 'x').
func unparen(text string) string {
	for {
		all, err := parse.Lex(text)
		if err != nil {
			return text
		}
		toks := parse.Significant(all)
		n := len(toks)
		if n < 3 || toks[0].Text != "(" || toks[0].Kind != parse.Op || parse.ClosingParen(toks, 0) != n-1 {
			return text
		}
		text = strings.TrimSpace(text[toks[0].Pos+1 : toks[n-1].Pos])
	}
}

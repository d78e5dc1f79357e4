package sqlplan

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
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
func catalogDatabases(p *planner) []catalogDB {
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
func catalogTables(p *planner) []catalogTable {
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
func catalogEntries(p *planner) []catalogEntry {
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
		typ, notNull := tString, false
		if c.Field != nil {
			typ, notNull = typeOfField(c.Field), !c.Field.Nullable
		} else if c.PartitionType == 1 {
			typ = tInt
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
func viewEntry(p *planner, name string) catalogEntry {
	ent := catalogEntry{db: ownDatabase, name: name, view: stmtOf(p).View(name), con: &constraints{}}
	for _, c := range viewColumns(p, name) {
		ent.cols = append(ent.cols, catalogColumn{name: c.Name, t: c.Type, notNull: !c.Nullable})
	}
	return ent
}

var (
	tTagsMap = Type{Kind: KNested, MapOf: true, Fields: []NamedType{{Name: "key", Type: tString}, {Name: "value", Type: tString}}}
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
func duckdbRelation(p *planner, name, alias string) (*relation, bool, error) {
	if table, ok := strings.CutPrefix(name, describeMarker); ok {
		rel, err := describeRelation(p, table, alias)
		return rel, true, err
	}
	if rel, ok, err := statementRelation(p, name, alias); ok {
		return rel, true, err
	}
	if rel, ok, err := p.csvRelation(name, alias); ok { // csvbind.go
		return rel, true, err
	}
	if rel, ok, err := p.fileReadRelation(name, alias); ok { // textbind.go
		return rel, true, err
	}
	if rel, ok, err := p.csvReadRelation(name, alias); ok { // csvbind.go
		return rel, true, err
	}
	if rel, ok, err := p.parquetMetaRelation(name, alias); ok { // pqmeta.go
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
	c := &catalogRows{}
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
	return c.relation(alias, strings.ToUpper(fn)), true, nil
}

// objectColumns adds the columns every object row of DuckDB's catalog
// functions begins with, and returns the function that fills them.
func objectColumns(c *catalogRows, nameCol string) func(in catalogDB, name string, oid int) {
	add := databaseColumns(c)
	name, oid := c.col(nameCol, tString), c.col(strings.TrimSuffix(nameCol, "_name")+"_oid", tBigint)
	return func(in catalogDB, n string, id int) {
		add(in)
		name.Add(n)
		oid.Add(int64(id))
	}
}

// databaseColumns adds database_name, database_oid, schema_name and
// schema_oid and returns the function that fills them; each database has
// one schema, main, whose oid follows the database's.
func databaseColumns(c *catalogRows) func(in catalogDB) {
	db, dbOID := c.col("database_name", tString), c.col("database_oid", tBigint)
	schema, schemaOID := c.col("schema_name", tString), c.col("schema_oid", tBigint)
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
func flagColumns(c *catalogRows) func(temporary bool) {
	comment, tags, internal, temp := c.col("comment", tString), c.col("tags", tTagsMap), c.col("internal", tBool), c.col("temporary", tBool)
	return func(temporary bool) {
		comment.Add(nil)
		tags.Add(map[any]any{})
		internal.Add(false)
		temp.Add(temporary)
	}
}

func duckdbTables(p *planner, c *catalogRows) {
	object := objectColumns(c, "table_name")
	flags := flagColumns(c)
	hasPK, size, ncols := c.col("has_primary_key", tBool), c.col("estimated_size", tBigint), c.col("column_count", tBigint)
	nidx, nchecks, sql := c.col("index_count", tBigint), c.col("check_constraint_count", tBigint), c.col("sql", tString)
	for i, ent := range catalogEntries(p) {
		if ent.view != nil {
			continue
		}
		c.n++
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

func duckdbColumns(p *planner, c *catalogRows) {
	object := objectColumns(c, "table_name")
	colName, index, comment, internal := c.col("column_name", tString), c.col("column_index", tInteger), c.col("comment", tString), c.col("internal", tBool)
	dflt, nullable, dtype, typeID := c.col("column_default", tString), c.col("is_nullable", tBool), c.col("data_type", tString), c.col("data_type_id", tBigint)
	maxLen, prec, radix, scale := c.col("character_maximum_length", tInteger), c.col("numeric_precision", tInteger), c.col("numeric_precision_radix", tInteger), c.col("numeric_scale", tInteger)
	for i, ent := range catalogEntries(p) {
		for k, col := range ent.cols {
			c.n++
			object(ent.db, ent.name, catalogFirstOID+i)
			colName.Add(col.name)
			index.Add(int64(k + 1))
			comment.Add(nil)
			internal.Add(false)
			dflt.Add(nullIfEmpty(col.dflt))
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

func duckdbViews(p *planner, c *catalogRows) {
	object := objectColumns(c, "view_name")
	flags := flagColumns(c)
	ncols, sql, bound := c.col("column_count", tBigint), c.col("sql", tString), c.col("is_bound", tBool)
	for i, ent := range catalogEntries(p) {
		if ent.view == nil {
			continue
		}
		c.n++
		object(ent.db, ent.name, catalogFirstOID+i)
		flags(ent.view.temp)
		ncols.Add(int64(len(ent.cols)))
		sql.Add(ent.view.definition() + ";")
		bound.Add(len(ent.cols) > 0)
	}
}

func duckdbSchemas(p *planner, c *catalogRows) {
	oid, db, dbOID, schema := c.col("oid", tBigint), c.col("database_name", tString), c.col("database_oid", tBigint), c.col("schema_name", tString)
	comment, tags, internal, sql := c.col("comment", tString), c.col("tags", tTagsMap), c.col("internal", tBool), c.col("sql", tString)
	for _, in := range catalogDatabases(p) {
		c.n++
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

func duckdbDatabases(p *planner, c *catalogRows) {
	db, dbOID, path, comment := c.col("database_name", tString), c.col("database_oid", tBigint), c.col("path", tString), c.col("comment", tString)
	tags, internal, kind, readonly := c.col("tags", tTagsMap), c.col("internal", tBool), c.col("type", tString), c.col("readonly", tBool)
	for i, in := range catalogDatabases(p) {
		c.n++
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
func tableInfoRelation(p *planner, name, alias string) (*relation, error) {
	var ent catalogEntry
	if stmtOf(p).View(name) != nil {
		ent = viewEntry(p, name)
	} else {
		var err error
		if ent, err = stmtOf(p).tableEntry(name); err != nil {
			return nil, p.src.Locate(asError(err), name)
		}
	}
	if alias == "" {
		alias = "pragma_table_info"
	}
	c := &catalogRows{}
	cid, colName, typ, notNull := c.col("cid", tInteger), c.col("name", tString), c.col("type", tString), c.col("notnull", tBool)
	dflt, pk := c.col("dflt_value", tString), c.col("pk", tBool)
	for k, col := range ent.cols {
		c.n++
		cid.Add(int64(k))
		colName.Add(col.name)
		typ.Add(col.t.SQLName())
		notNull.Add(col.notNull && ent.view == nil)
		dflt.Add(nullIfEmpty(col.dflt))
		pk.Add(inPrimaryKey(ent.con, col.name))
	}
	return c.relation(alias, "PRAGMA_TABLE_INFO"), nil
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

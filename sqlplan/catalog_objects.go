package sqlplan

import (
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/function"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// duckdb_indexes(), duckdb_sequences() and duckdb_types() with DuckDB's
// columns.

// duckdbIndexes is duckdb_indexes(): the indexes of the tables (index.go),
// with oids after the tables'.
func duckdbIndexes(p *plan.Planner, c *plan.CatalogRows) {
	object := objectColumns(c, "index_name")
	table, tableOID := c.Col("table_name", plan.TString), c.Col("table_oid", plan.TBigint)
	comment, tags := c.Col("comment", plan.TString), c.Col("tags", tTagsMap)
	unique, primary := c.Col("is_unique", plan.TBool), c.Col("is_primary", plan.TBool)
	exprs, sql := c.Col("expressions", plan.TString), c.Col("sql", plan.TString)
	ents := catalogEntries(p)
	oid := catalogFirstOID + len(ents)
	for i, ent := range ents {
		for _, ix := range ent.indexes {
			c.N++
			object(ent.db, ix.name, oid)
			oid++
			table.Add(ent.name)
			tableOID.Add(int64(catalogFirstOID + i))
			comment.Add(nil)
			tags.Add(map[any]any{})
			unique.Add(ix.unique)
			primary.Add(false)
			exprs.Add("[" + strings.Join(ix.cols, ", ") + "]")
			sql.Add(ix.sql(ent.name))
		}
	}
}

// duckdbSequences is duckdb_sequences(): carquet's sequences have no
// bounds and do not cycle, so min_value and max_value are DuckDB's
// defaults for the sign of the increment; last_value is the last
// nextval, NULL before the first; sql starts at the next value.
func duckdbSequences(p *plan.Planner, c *plan.CatalogRows) {
	object := objectColumns(c, "sequence_name")
	comment, tags, temp := c.Col("comment", plan.TString), c.Col("tags", tTagsMap), c.Col("temporary", plan.TBool)
	start, minV, maxV, inc := c.Col("start_value", plan.TBigint), c.Col("min_value", plan.TBigint), c.Col("max_value", plan.TBigint), c.Col("increment_by", plan.TBigint)
	cycle, last, sql := c.Col("cycle", plan.TBool), c.Col("last_value", plan.TBigint), c.Col("sql", plan.TString)
	e := stmtOf(p).e
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, n := range e.sequenceNamesLocked() {
		seq := e.seqs[n]
		c.N++
		object(ownDatabase, n, catalogFirstOID/2+i) // below the tables' oids
		comment.Add(nil)
		tags.Add(map[any]any{})
		temp.Add(false)
		lo, hi := seq.bounds()
		start.Add(seq.start)
		minV.Add(lo)
		maxV.Add(hi)
		inc.Add(seq.inc)
		cycle.Add(false)
		if seq.cur != nil {
			last.Add(*seq.cur)
		} else {
			last.Add(nil)
		}
		sql.Add(seq.createSQL(n) + ";")
	}
}

// builtinType is a type name of DuckDB's duckdb_types(): its oid (0 for
// an alias, which DuckDB lists without one), size in bytes (-1: none),
// logical type and category.
type builtinType struct {
	name            string
	oid, size       int
	logical, family string
}

// duckdbTypeNames are the names of DuckDB's built-in types as
// "name:oid:size:LOGICAL:CATEGORY" (+ for a space; 0 oid: an alias;
// -1 size: none; an empty category is NULL). duckdb_types() lists those carquet's CREATE
// TABLE and CAST take, and the nested ones it has.
const duckdbTypeNames = `bool:10:1:BOOLEAN:BOOLEAN int1:11:1:TINYINT:NUMERIC int16:12:2:SMALLINT:NUMERIC
int:13:4:INTEGER:NUMERIC bigint:14:8:BIGINT:NUMERIC date:15:4:DATE:DATETIME time:16:8:TIME:DATETIME
timestamp_s:17:8:TIMESTAMP_S:DATETIME timestamp_ms:18:8:TIMESTAMP_MS:DATETIME datetime:19:8:TIMESTAMP:DATETIME
timestamp_ns:20:8:TIMESTAMP_NS:DATETIME dec:21:-1:DECIMAL:NUMERIC float:22:4:FLOAT:NUMERIC double:23:8:DOUBLE:NUMERIC
bpchar:25:16:VARCHAR:STRING binary:26:16:BLOB: interval:27:16:INTERVAL:DATETIME uint8:28:1:UTINYINT:NUMERIC
uint16:29:2:USMALLINT:NUMERIC uint32:30:4:UINTEGER:NUMERIC ubigint:31:8:UBIGINT:NUMERIC
timestamp+with+time+zone:32:8:TIMESTAMP+WITH+TIME+ZONE:DATETIME time+with+time+zone:34:8:TIME+WITH+TIME+ZONE:DATETIME
time_ns:35:8:TIME_NS:DATETIME bit:36:16:BIT: bignum:39:16:BIGNUM: uhugeint:49:16:UHUGEINT:NUMERIC
hugeint:50:16:HUGEINT:NUMERIC guid:54:16:UUID: row:100:0:STRUCT:COMPOSITE list:101:16:LIST:COMPOSITE
map:102:16:MAP:COMPOSITE enum:104:-1:ENUM: union:107:0:UNION:COMPOSITE array:108:0:ARRAY:COMPOSITE
bitstring:0:16:BIT: blob:0:16:BLOB: boolean:0:1:BOOLEAN:BOOLEAN bytea:0:16:BLOB: char:0:16:VARCHAR:STRING
decimal:0:-1:DECIMAL:NUMERIC float4:0:4:FLOAT:NUMERIC float8:0:8:DOUBLE:NUMERIC int128:0:16:HUGEINT:NUMERIC
int2:0:2:SMALLINT:NUMERIC int32:0:4:INTEGER:NUMERIC int4:0:4:INTEGER:NUMERIC int64:0:8:BIGINT:NUMERIC
int8:0:8:BIGINT:NUMERIC integer:0:4:INTEGER:NUMERIC integral:0:4:INTEGER:NUMERIC logical:0:1:BOOLEAN:BOOLEAN
long:0:8:BIGINT:NUMERIC numeric:0:-1:DECIMAL:NUMERIC nvarchar:0:16:VARCHAR:STRING oid:0:8:BIGINT:NUMERIC
real:0:4:FLOAT:NUMERIC short:0:2:SMALLINT:NUMERIC signed:0:4:INTEGER:NUMERIC smallint:0:2:SMALLINT:NUMERIC
string:0:16:VARCHAR:STRING struct:0:0:STRUCT:COMPOSITE text:0:16:VARCHAR:STRING timestamp:0:8:TIMESTAMP:DATETIME
timestamp_us:0:8:TIMESTAMP:DATETIME timestamptz:0:8:TIMESTAMP+WITH+TIME+ZONE:DATETIME
timetz:0:8:TIME+WITH+TIME+ZONE:DATETIME tinyint:0:1:TINYINT:NUMERIC uint128:0:16:UHUGEINT:NUMERIC
uint64:0:8:UBIGINT:NUMERIC uinteger:0:4:UINTEGER:NUMERIC usmallint:0:2:USMALLINT:NUMERIC
utinyint:0:1:UTINYINT:NUMERIC uuid:0:16:UUID: varbinary:0:16:BLOB: varchar:0:16:VARCHAR:STRING varint:0:16:BIGNUM:`

// nestedTypeNames are the nested types carquet has, which are written
// with their element or field types (STRUCT(a INTEGER), INTEGER[]), and
// ENUM, written with its values.
var nestedTypeNames = map[string]bool{"row": true, "struct": true, "list": true, "map": true, "enum": true}

// carquetTypes are the entries of duckdbTypeNames carquet has, read once.
var carquetTypes = func() []builtinType {
	var out []builtinType
	for _, f := range strings.Fields(duckdbTypeNames) {
		parts := strings.Split(f, ":")
		name := strings.ReplaceAll(parts[0], "+", " ")
		if _, err := function.ParseTypeName(name, nil); err != nil && !nestedTypeNames[name] {
			continue
		}
		oid, _ := strconv.Atoi(parts[1])
		size, _ := strconv.Atoi(parts[2])
		out = append(out, builtinType{name: name, oid: oid, size: size, logical: strings.ReplaceAll(parts[3], "+", " "), family: parts[4]})
	}
	return out
}()

// duckdbTypes is duckdb_types(): a row per type name carquet takes, in
// DuckDB's order (the types by oid, then the aliases by name, which have
// no oid), then the types of CREATE TYPE (user, by name).
func duckdbTypes(c *plan.CatalogRows, user []*userType) {
	database := databaseColumns(c)
	oid, name, size, logical := c.Col("type_oid", plan.TBigint), c.Col("type_name", plan.TString), c.Col("type_size", plan.TBigint), c.Col("logical_type", plan.TString)
	family, comment, tags := c.Col("type_category", plan.TString), c.Col("comment", plan.TString), c.Col("tags", tTagsMap)
	internal, labels := c.Col("internal", plan.TBool), c.Col("labels", tStringList)
	row := func(t builtinType, builtin bool, values []any) {
		c.N++
		database(ownDatabase)
		oid.Add(nullIfZero(t.oid))
		name.Add(t.name)
		if t.size >= 0 {
			size.Add(int64(t.size))
		} else {
			size.Add(nil)
		}
		logical.Add(t.logical)
		family.Add(plan.NullIfEmpty(t.family))
		comment.Add(nil)
		tags.Add(map[any]any{})
		internal.Add(builtin)
		if values == nil {
			labels.Add(nil) // a NULL, not an empty list
		} else {
			labels.Add(values)
		}
	}
	for _, t := range carquetTypes {
		row(t, true, nil)
	}
	for i, u := range user {
		t, values := u.catalogRow()
		t.oid = userTypeOID + i
		row(t, false, values)
	}
}

// nullIfZero is n, or NULL for 0.
func nullIfZero(n int) any {
	if n == 0 {
		return nil
	}
	return int64(n)
}

// pgCatalogRelation is a view of pg_catalog carquet has: pg_tables,
// pg_views, pg_database and pg_namespace (schema main only; owner
// "carquet"; carquet has no indexes, rules or triggers). ok is false for
// others.
func pgCatalogRelation(p *plan.Planner, view string, c *plan.CatalogRows) bool {
	switch view {
	case "pg_tables":
		schema, name, owner, space := c.Col("schemaname", plan.TString), c.Col("tablename", plan.TString), c.Col("tableowner", plan.TString), c.Col("tablespace", plan.TInteger)
		flags := []*plan.ColBuilder{c.Col("hasindexes", plan.TBool), c.Col("hasrules", plan.TBool), c.Col("hastriggers", plan.TBool)}
		for _, t := range stmtOf(p).TableNames() {
			c.N++
			schema.Add("main")
			name.Add(t)
			owner.Add("carquet")
			space.Add(nil)
			for _, f := range flags {
				f.Add(false)
			}
		}
	case "pg_views":
		schema, name, owner, def := c.Col("schemaname", plan.TString), c.Col("viewname", plan.TString), c.Col("viewowner", plan.TString), c.Col("definition", plan.TString)
		for _, n := range stmtOf(p).ViewNames() {
			v := stmtOf(p).View(n)
			if v == nil {
				continue
			}
			c.N++
			schema.Add("main")
			name.Add(n)
			owner.Add("carquet")
			def.Add(v.definition() + ";")
		}
	case "pg_database":
		oid, name := c.Col("oid", plan.TBigint), c.Col("datname", plan.TString)
		allow, template := c.Col("datallowconn", plan.TBool), c.Col("datistemplate", plan.TBool)
		for _, db := range catalogDatabases(p) {
			c.N++
			oid.Add(db.oid)
			name.Add(db.name)
			allow.Add(true)
			template.Add(false)
		}
	case "pg_namespace":
		oid, name, owner, acl := c.Col("oid", plan.TBigint), c.Col("nspname", plan.TString), c.Col("nspowner", plan.TInteger), c.Col("nspacl", plan.TInteger)
		c.N = 1
		oid.Add(int64(catalogSchemaOID))
		name.Add("main")
		owner.Add(int64(0))
		acl.Add(nil)
	default:
		return false
	}
	return true
}

// sqliteMaster is sqlite_master (or sqlite_schema), as DuckDB answers
// it: a row per table and view of carquet's own database with the
// statement that makes it (carquet has no indexes or triggers).
func sqliteMaster(p *plan.Planner, c *plan.CatalogRows) {
	kind, name, table := c.Col("type", plan.TString), c.Col("name", plan.TString), c.Col("tbl_name", plan.TString)
	root, sql := c.Col("rootpage", plan.TInteger), c.Col("sql", plan.TString)
	for _, ent := range catalogEntries(p) {
		if ent.db.name != ownDatabase.name {
			continue
		}
		c.N++
		name.Add(ent.name)
		table.Add(ent.name)
		root.Add(int64(0))
		if ent.view != nil {
			kind.Add("view")
			sql.Add(ent.view.definition() + ";")
		} else {
			kind.Add("table")
			sql.Add(ent.createSQL() + ";")
		}
	}
}

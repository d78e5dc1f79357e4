package parse

import "strings"

// DuckDB's keywords (v1.5) by its categories, as duckdb_keywords() lists
// them. carquet quotes each of them when it writes a name, as DuckDB does
// (duckdb_tables()'s sql, EXPORT DATABASE's schema.sql).
var KeywordCategories = []struct{ Category, Words string }{
	{"reserved", `
		all analyse analyze and any array as asc asymmetric both case cast check collate column constraint
		create default deferrable desc describe distinct do else end except false fetch for foreign from
		group having in initially intersect into lambda lateral leading limit not null offset on only or
		order pivot pivot_longer pivot_wider placing primary qualify references returning select show some
		summarize symmetric table then to trailing true union unique unpivot using variadic when where
		window with`},
	{"unreserved", `
		abort absolute access action add admin after aggregate also alter always assertion assignment attach
		attribute backward before begin cache call called cascade cascaded catalog centuries century chain
		characteristics checkpoint class close cluster comment comments commit committed compression
		configuration conflict connection constraints content continue conversion copy cost csv cube current
		cursor cycle data database day days deallocate decade decades declare defaults deferred definer
		delete delimiter delimiters depends detach dictionary disable discard document domain double drop
		each enable encoding encrypted enum error escape event exclude excluding exclusive execute explain
		export export_state extension extensions external family filter first following force forward
		function functions global grant granted groups handler header hold hour hours identity if ignore
		immediate immutable implicit import include including increment index indexes inherit inherits
		inline input insensitive insert install instead invoker isolation json key label language large last
		leakproof level listen load local location lock locked logged macro mapping match matched
		materialized maxvalue merge method microsecond microseconds millennia millennium millisecond
		milliseconds minute minutes minvalue mode month months move name names new next no nothing notify
		nowait nulls object of off oids old operator option options ordinality others over overriding owned
		owner parallel parser partial partition partitioned passing password percent persistent plans policy
		pragma preceding prepare prepared preserve prior privileges procedural procedure program publication
		quarter quarters quote range read reassign recheck recursive ref referencing refresh reindex
		relative release rename repeatable replace replica reset respect restart restrict returns revoke
		role rollback rollup rows rule sample savepoint schema schemas scope scroll search second seconds
		secret security sequence sequences serializable server session set sets share simple skip snapshot
		sorted source sql stable standalone start statement statistics stdin stdout storage stored strict
		strip subscription sysid system tables tablespace target temp template temporary text ties
		transaction transform trigger truncate trusted type types unbounded uncommitted unencrypted unknown
		unlisten unlogged until update use user vacuum valid validate validator value variable varying
		version view views virtual volatile week weeks whitespace within without work wrapper write xml year
		years yes zone`},
	{"type_function", `
		anti asof at authorization binary by collation columns concurrently cross freeze full generated glob
		ilike inner is isnull join left like map natural notnull outer overlaps positional right semi
		similar struct tablesample try_cast unpack verbose`},
	{"column_name", `
		between bigint bit boolean char character coalesce dec decimal exists extract float grouping
		grouping_id inout int integer interval national nchar none nullif numeric out overlay position
		precision real row setof smallint substring time timestamp treat trim values varchar xmlattributes
		xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot xmlserialize xmltable`},
}

// keywords are the keywords, which SQLIdent quotes.
var keywords = keywordSet()

func keywordSet() map[string]bool {
	out := map[string]bool{}
	for _, c := range KeywordCategories {
		for _, w := range strings.Fields(c.Words) {
			out[w] = true
		}
	}
	return out
}

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Typed statements: selects over t4 (tables_types.go) whose expressions
// exercise its column types and the functions on them. They are numbered
// from TypedBase up, each from its own random stream, so the numbers of
// the statements of gen.go stay what they were.

// TypedBase is the number of the first typed statement of a seed.
const TypedBase = 1_000_000

// typedQueryStream separates the typed statements' random streams.
const typedQueryStream = 0x51ed270b27422d3

// NewTypedGenerator returns the generator of typed statement number i
// (TypedBase and up) of seed over t4.
func NewTypedGenerator(seed int64, i int, t4 *Table) *Generator {
	return &Generator{r: rand.New(rand.NewPCG(uint64(seed)^typedQueryStream, uint64(i))), tables: []*Table{t4}}
}

// typedScope is the scope of t4's columns.
func typedScope(t4 *Table) *scope {
	sc := &scope{}
	for _, c := range t4.Cols {
		sc.cols = append(sc.cols, colRef{text: c.Name, typ: c.Type})
	}
	return sc
}

// TypedQuery draws one typed statement: a select over t4 with typed
// expressions, or an aggregate over it grouped by a column of any type.
func (g *Generator) TypedQuery() *query {
	t4 := g.tables[0]
	sc := typedScope(t4)
	s := &selectStmt{from: tableRef{name: t4.Name}}
	for range g.intn(2) {
		s.where = append(s.where, parenthesize(g.typedPred(sc, 1)))
	}
	if g.chance(0.3) {
		g.typedAggregate(s, sc)
	} else {
		for range 1 + g.intn(3) {
			s.items = append(s.items, g.typedItem(sc))
		}
		if g.chance(0.15) {
			s.items = append(s.items, g.typedWindow(sc))
		}
		if g.chance(0.08) {
			// unnest in the select list: the other items repeat per element.
			s.items = append(s.items, pin(mk(TInt, "unnest($)", g.column(sc, TIntList))))
		}
		s.distinct = g.chance(0.1)
	}
	q := &query{sels: []*selectStmt{s}, limit: -1}
	if g.chance(0.12) {
		q = g.typedSetOp(sc)
		s = q.sels[0]
	}
	if g.chance(0.4) && !hasClass(s.items, TInterval) {
		// Not with an INTERVAL item: equal intervals of other parts
		// ('1 month', '30 days') tie, and ties may come in either order.
		q.ordered = true
		for range 1 + g.intn(2) {
			q.order = append(q.order, orderKey{pos: g.intn(len(s.items)), desc: g.chance(0.4)})
		}
		if g.chance(0.5) {
			q.limit = pick(g.r, []int{1, 3, 10})
		}
	}
	return q
}

// hasClass reports an item of class t.
func hasClass(items []*node, t Type) bool {
	for _, it := range items {
		if it.typ == t {
			return true
		}
	}
	return false
}

// typedClasses are the classes a typed select item may have.
var typedClasses = []Type{TI8, TI16, TU8, TU16, TU32, TU64, THuge, TF32, TTime, TBlob, TUUID, TTSms, TTSns, TInterval,
	TIntList, TStrList, TStruct, TMap, TStructList, TInt, TDec, TDec, TStr, TStr, TStr, TBool, TDate, TTS, TFloat}

// typedItem draws a select item: a typed expression, or the type DuckDB
// gives one (typeof), which checks the result-type rules themselves.
func (g *Generator) typedItem(sc *scope) *node {
	t := pick(g.r, typedClasses)
	e := g.texpr(sc, t, 2)
	if g.chance(0.12) && t != TStr {
		return pin(mk(TStr, "typeof($)", e))
	}
	return e
}

// typedAggregate fills s with a GROUP BY over a column of any type and
// aggregates of the typed columns.
func (g *Generator) typedAggregate(s *selectStmt, sc *scope) {
	if g.chance(0.8) {
		// No INTERVAL key: a group of equal intervals ('1 month', '30
		// days') shows whichever of them an engine met first.
		k := g.column(sc, pick(g.r, []Type{TI8, TU8, TU64, TF32, TTime, TBlob, TUUID, TTSns, TIntList, TStrList, TStruct,
			TStr, TDec, TInt}))
		s.groupBy = append(s.groupBy, k)
		s.items = append(s.items, k.clone())
	}
	for range 1 + g.intn(3) {
		var n *node
		switch t := pick(g.r, typedClasses); {
		case g.chance(0.3):
			n = mk(TInt, "COUNT(DISTINCT $)", g.texpr(sc, t, 1))
		case t.integral() || t == TDec || t == TF32 || t == TFloat:
			n = mk(t, pick(g.r, []string{"SUM($)", "MIN($)", "MAX($)", "AVG($)", "SUM(DISTINCT $)"}), g.texpr(sc, t, 1))
		case t == TBool:
			n = mk(t, pick(g.r, []string{"bool_and($)", "bool_or($)"}), g.texpr(sc, t, 1))
		default:
			n = mk(t, pick(g.r, []string{"MIN($)", "MAX($)"}), g.texpr(sc, t, 1))
		}
		n.agg = true
		s.items = append(s.items, pin(n))
	}
}

// integer classes in order of width, for casts between them.
var intClasses = []Type{TI8, TI16, TU8, TU16, TU32, TU64, TInt, THuge}

func typedCastName(t Type) string {
	if t >= numTypes {
		return typedSQL[t-numTypes]
	}
	return castName(t)
}

// texpr draws an expression of class t over t4.
func (g *Generator) texpr(sc *scope, t Type, depth int) *node {
	if depth <= 0 || g.chance(0.3) {
		if g.chance(0.85) {
			return g.tcolumn(sc, t)
		}
		return g.tliteral(t)
	}
	d := depth - 1
	e := func(t Type) *node { return g.texpr(sc, t, d) }
	if g.chance(0.1) {
		return g.typedCase(sc, t, d)
	}
	switch {
	case t.integral():
		return g.intExpr(t, e)
	case t == TF32:
		switch g.intn(4) {
		case 0:
			return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", e(TF32), e(TF32))
		case 1:
			return mk(t, "CAST($ AS FLOAT)", e(pick(g.r, []Type{TI8, TU16, TDec, TStr, TInt})))
		case 2:
			return mk(t, pick(g.r, []string{"abs($)", "(- $)", "floor($)", "ceil($)", "round($)"}), e(TF32))
		default:
			return mk(t, "TRY_CAST($ AS FLOAT)", e(TStr))
		}
	case t == TFloat:
		return mk(t, pick(g.r, []string{"($ / $)", "($ + $)"}), e(pick(g.r, []Type{TDec, TF32, TU64, TI8})), e(pick(g.r, []Type{TDec, TFloat, TU32})))
	case t == TDec:
		return g.decExpr(sc, e)
	case t == TStr:
		return g.strExpr(sc, e)
	case t == TBool:
		return g.typedPred(sc, d)
	case t == TTime:
		switch g.intn(3) {
		case 0:
			return mk(t, "CAST($ AS TIME)", e(pick(g.r, []Type{TTS, TTSns, TTSms})))
		case 1:
			return mk(t, "($ + INTERVAL "+pick(g.r, []string{"'1 hour'", "'90 minutes'", "'1 second'"})+")", e(TTime))
		default:
			return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(TTime), e(TTime))
		}
	case t == TBlob:
		return mk(t, pick(g.r, []string{"TRY_CAST($ AS BLOB)", "encode($)"}), e(TStr))
	case t == TUUID:
		return mk(t, "TRY_CAST($ AS UUID)", e(TStr))
	case t == TTSms:
		// Not from TIMESTAMP_NS: DuckDB casts a constant one and fails on
		// a column ("Unimplemented type for cast").
		return mk(t, "CAST($ AS TIMESTAMP_MS)", e(pick(g.r, []Type{TTS, TDate})))
	case t == TTSns:
		return mk(t, "CAST($ AS TIMESTAMP_NS)", e(pick(g.r, []Type{TTS, TDate, TTSms})))
	case t == TDate:
		return g.dateExpr(e)
	case t == TTS:
		return g.tsExpr(e)
	case t == TInterval:
		return g.intervalExpr(e)
	case t == TIntList:
		return g.intListExpr(e)
	case t == TStrList:
		switch g.intn(6) {
		case 0:
			// Not the separator '': DuckDB splits a column's '' into
			// [''] and a constant '' into [] (carquet: [] for both).
			return mk(t, "string_split($, "+quote(pick(g.r, []string{"a", "b", "é"}))+")", e(TStr))
		case 4:
			return mk(t, pick(g.r, []string{"string_split_regex($, '[aé]')", "regexp_split_to_array($, 'b+')", "regexp_extract_all($, '[a-cé]')", "str_split($, 'ß')"}), e(TStr))
		case 5:
			return mk(t, "regexp_extract_all($, '([a-z])(.)', 2)", e(TStr))
		case 1:
			return mk(t, "list_sort($)", e(TStrList))
		case 2:
			return mk(t, "list_transform($, x -> upper(x))", e(TStrList))
		default:
			return mk(t, "list_filter($, x -> x LIKE 'a%')", e(TStrList))
		}
	case t == TStruct:
		return mk(t, "{'a': $, 'b': $}", e(TInt), e(TStr))
	case t == TStructList:
		return mk(t, pick(g.r, []string{"list_sort($)", "list_reverse($)"}), e(TStructList))
	}
	return g.tcolumn(sc, t)
}

// tcolumn is a column of class t, or an expression of class t over one.
func (g *Generator) tcolumn(sc *scope, t Type) *node {
	if len(sc.ofType(t)) > 0 {
		return g.column(sc, t)
	}
	switch {
	case t == THuge:
		return mk(t, "CAST($ AS HUGEINT)", g.column(sc, pick(g.r, []Type{TInt, TU64, TI16})))
	case t == TFloat:
		return mk(t, "CAST($ AS DOUBLE)", g.column(sc, pick(g.r, []Type{TF32, TDec, TU32})))
	}
	return g.column(sc, t)
}

// tliteral is a constant of class t.
func (g *Generator) tliteral(t Type) *node {
	lit := func(s string) *node { n := leaf(t, s); n.lit = true; return n }
	switch t {
	case TI8, TI16, TU8, TU16, TU32, TU64, THuge:
		v := pick(g.r, []string{"0", "1", "2", "7", "100", "127"})
		switch t {
		case TU64:
			v = pick(g.r, []string{v, "18446744073709551615", "9223372036854775808"})
		case TI16:
			v = pick(g.r, []string{v, "-32768", "32767"})
		case THuge:
			v = pick(g.r, []string{v, "170141183460469231731687303715884105727", "-9223372036854775809"})
		}
		return lit("CAST(" + v + " AS " + typedCastName(t) + ")")
	case TF32:
		return lit("CAST(" + pick(g.r, []string{"1.5", "-0.25", "0", "1e6"}) + " AS FLOAT)")
	case TTime:
		return lit("TIME '" + pick(g.r, []string{"00:00:00", "12:30:00", "23:59:59.999999", "06:15:30.5"}) + "'")
	case TBlob:
		return lit(pick(g.r, []string{`'\x00a'::BLOB`, `'ab'::BLOB`, `''::BLOB`, `'\xFF'::BLOB`}))
	case TUUID:
		return lit("UUID '" + pick(g.r, uuids) + "'")
	case TTSms:
		return lit("CAST(TIMESTAMP '2024-01-01 10:00:00.123' AS TIMESTAMP_MS)")
	case TTSns:
		return lit("CAST('2024-01-01 10:00:00.123456789' AS TIMESTAMP_NS)")
	case TInterval:
		return lit("INTERVAL '" + pick(g.r, []string{"1 day", "2 hours", "1 month", "1 year 2 months", "-3 days", "36 hours", "30 days"}) + "'")
	case TIntList:
		return lit(pick(g.r, []string{"[1, 2, 3]", "[]::INTEGER[]", "[2, NULL, -1]", "[3, 3]"}))
	case TStrList:
		return lit(pick(g.r, []string{"['a', 'b']", "['é', NULL]", "[]::VARCHAR[]"}))
	case TStruct:
		return lit("{'a': 1, 'b': 'x'}")
	case TMap:
		return lit("MAP {'a': 1, 'é': 2}")
	case TStructList:
		return lit("[{'a': 1, 'b': 'x'}, NULL]")
	case TStr:
		if g.chance(0.4) {
			return lit(quote(pick(g.r, nonASCII)))
		}
	}
	return g.literal(t)
}

// strConst is the VARCHAR constant s, pinned: it is part of the
// function it is an argument of.
func (g *Generator) strConst(s string) *node {
	n := leaf(TStr, quote(s))
	n.lit = true
	return pin(n)
}

// intExpr draws an integer expression of class t: arithmetic at the
// width of t (DuckDB fails on overflow, so must carquet), casts between
// widths (failing when the value does not fit, NULL with TRY_CAST) and
// integer functions.
func (g *Generator) intExpr(t Type, e func(Type) *node) *node {
	switch g.intn(8) {
	case 0, 1:
		return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", e(t), e(t))
	case 2:
		from := pick(g.r, append(intClasses, TDec, TF32, TStr, TFloat))
		arg := e(from)
		return mk(t, g.castWord(arg)+"($ AS "+typedCastName(t)+")", arg)
	case 3:
		return mk(t, "($ "+pick(g.r, []string{"%", "//"})+" $)", e(t), g.tliteral(t))
	case 4:
		if t == TU8 || t == TU16 || t == TU32 || t == TU64 {
			return mk(t, "($ - $)", e(t), e(t))
		}
		return mk(t, pick(g.r, []string{"abs($)", "(- $)"}), e(t))
	}
	if t != TInt {
		return mk(t, pick(g.r, []string{"greatest($, $)", "least($, $)"}), e(t), e(t))
	}
	switch g.intn(9) {
	case 0:
		return mk(t, pick(g.r, []string{"len($)", "list_aggregate($, 'sum')", "list_aggregate($, 'max')", "($)[1]", "($)[-1]", "list_position($, 2)"}), e(TIntList))
	case 1:
		return mk(t, pick(g.r, []string{"instr($, 'a')", "ascii($)", "length($)", "strlen($)", "strpos($, 'é')"}), e(TStr))
	case 2:
		part := pick(g.r, []string{"year", "month", "day", "hour", "minute", "second", "millisecond", "microsecond", "dow", "isodow",
			"doy", "week", "yearweek", "quarter", "decade", "century", "millennium", "epoch", "isoyear", "era"})
		return mk(t, "date_part('"+part+"', $)", e(pick(g.r, []Type{TTS, TDate, TTSns, TTSms})))
	case 3:
		return mk(t, pick(g.r, []string{"epoch_ms($)", "epoch_us($)", "epoch($)"}), e(pick(g.r, []Type{TTS, TTSms})))
	case 4:
		// struct_extract, not x.a: carquet's grammar reads a field
		// only after a name (CASE ... END.a is a syntax error there).
		return mk(t, "struct_extract($, 'a')", e(TStruct))
	case 5:
		return mk(t, "map_extract($, 'a')[1]", e(TMap))
	case 6:
		return mk(t, "date_sub('"+pick(g.r, []string{"day", "month", "hour", "year"})+"', $, $)", e(TTS), e(TTS))
	case 7:
		return mk(t, "EXTRACT("+pick(g.r, []string{"year", "month", "hour", "minute", "second"})+" FROM $)", e(pick(g.r, []Type{TTS, TTime, TDate})))
	}
	return mk(t, "len($)", e(TStrList))
}

// castWord is CAST or TRY_CAST for a cast of arg; a text column only
// with TRY_CAST (most of its values do not convert, and the statement
// would only fail on both engines). A constant that does not convert
// fails on the rows that evaluate it, in both, not when it is bound.
func (g *Generator) castWord(arg *node) string {
	if arg.typ == TStr && arg.hasColumn() || g.chance(0.5) {
		return "TRY_CAST"
	}
	return "CAST"
}

// decExpr draws a DECIMAL expression: arithmetic between decimals of
// different precisions and scales (DuckDB's result types), with integers,
// casts to decimals of other precisions, round.
func (g *Generator) decExpr(sc *scope, e func(Type) *node) *node {
	t := TDec
	switch g.intn(8) {
	case 0, 1:
		return mk(t, "($ "+pick(g.r, []string{"+", "-", "*"})+" $)", e(TDec), e(pick(g.r, []Type{TDec, TDec, TI8, TU16, TInt})))
	case 2:
		// Not from FLOAT: DuckDB casts a FLOAT to a DECIMAL wider than
		// 18 digits through float arithmetic (1.125 becomes
		// 1.1249999872 as DECIMAL(28,10)), carquet exactly.
		ps := pick(g.r, typedDecimals)
		arg := e(pick(g.r, []Type{TDec, TI8, TU64, TStr, TInt}))
		return mk(t, fmt.Sprintf("%s($ AS DECIMAL(%d,%d))", g.castWord(arg), ps[0], ps[1]), arg)
	case 3:
		return mk(t, pick(g.r, []string{"round($, 1)", "round($, 0)", "abs($)", "(- $)", "floor($)", "ceil($)", "trunc($)"}), e(TDec))
	case 4:
		return mk(t, "coalesce($, $)", e(TDec), e(pick(g.r, []Type{TDec, TInt})))
	case 5:
		return mk(t, "($ % $)", e(TDec), e(TDec))
	case 6:
		// Mixed scales past 18 digits: the product of three decimals, a
		// sum with a wide constant, a 38-digit operand (DuckDB fails on
		// overflow of the result type, so must carquet).
		if g.chance(0.3) {
			return mk(t, "($ * $ * $)", e(TDec), e(TDec), e(pick(g.r, []Type{TDec, TI8, TInt})))
		}
		return mk(t, pick(g.r, []string{"(($ + $) * CAST(1.000001 AS DECIMAL(7,6)))", "(CAST(99999999999999.9999 AS DECIMAL(18,4)) * $ + $)", "(CAST($ AS DECIMAL(38,10)) - $)"}), e(TDec), e(pick(g.r, []Type{TDec, TI8, TInt})))
	}
	return mk(t, "round($ * $, 3)", e(TDec), e(TDec))
}

// strExpr draws a VARCHAR expression: string functions not in gen.go,
// on non-ASCII text too, and casts of the typed classes to text.
func (g *Generator) strExpr(sc *scope, e func(Type) *node) *node {
	t := TStr
	switch g.intn(18) {
	case 0:
		return mk(t, pick(g.r, []string{"lower($)", "upper($)", "reverse($)"}), e(TStr))
	case 1:
		return mk(t, "translate($, "+pick(g.r, []string{"'ab', 'xy'", "'é', 'e'", "'a', ''"})+")", e(TStr))
	case 2:
		return mk(t, "chr($)", mk(TInt, "(65 + abs($ % 26))", e(TInt)))
	case 3:
		return mk(t, "regexp_replace($, "+pick(g.r, []string{"'a+', 'X'", "'[bc]', '-', 'g'", "'^(.)', '<\\1>'", "'é', 'E'"})+")", e(TStr))
	case 4:
		return mk(t, "regexp_extract($, "+pick(g.r, []string{"'([a-c])b', 1", "'a.', 0", "'[é]+'"})+")", e(TStr))
	case 5:
		return mk(t, "strftime($, "+quote(pick(g.r, []string{"%Y-%m-%d", "%H:%M:%S", "%d/%m/%Y %H:%M", "%Y%m%d", "%j", "%a %b", "%A %B %-d", "%I %p", "%f", "%y-%W"}))+")",
			e(pick(g.r, []Type{TTS, TDate, TTSns})))
	case 6:
		return mk(t, "CAST($ AS VARCHAR)", e(pick(g.r, []Type{TTime, TUUID, TIntList, TStrList, TStruct, TMap, TInterval, TBlob, TU64, TI8, TDec, THuge, TTSns, TTSms})))
	case 7:
		return mk(t, "array_to_string($, "+quote(pick(g.r, []string{",", "", "-"}))+")", e(pick(g.r, []Type{TStrList, TIntList})))
	case 8:
		return mk(t, "struct_extract($, 'b')", e(TStruct))
	case 9:
		return mk(t, "($)["+pick(g.r, []string{"1", "2", "-1"})+"]", e(TStrList))
	case 10:
		return mk(t, "substring($, 2, 2)", e(TStr))
	case 11:
		// Padding and cutting count characters, not bytes.
		return mk(t, pick(g.r, []string{"lpad($, 5, 'é')", "rpad($, 3, '*')", "lpad($, 1, 'xy')", "rpad($, 0, 'a')"}), e(TStr))
	case 12:
		return mk(t, "split_part($, "+pick(g.r, []string{"'a', 2", "'é', 1", "'ß', -1", "'', 1", "'_', 2"})+")", e(TStr))
	case 13:
		return mk(t, pick(g.r, []string{"left($, 2)", "right($, 3)", "left($, -1)", "substring($, -2)", "repeat($, 2)", "ltrim($, 'aé')", "rtrim($, 'bß')", "trim($, 'é')"}), e(TStr))
	case 14:
		return mk(t, pick(g.r, []string{"replace($, 'a', 'é')", "regexp_replace($, '[sSσ]', '*', 'g')", "regexp_replace($, '[^a-z]', '', 'g')", "ucase($)", "lcase($)"}), e(TStr))
	case 15:
		return mk(t, pick(g.r, []string{"concat_ws('-', $, $)", "($ || $)", "concat_ws('', $, NULL, $)"}), e(TStr), e(TStr))
	case 16:
		return mk(t, pick(g.r, []string{"printf('%s|%5s', $, $)", "format('{}:{}', $, $)"}), e(TStr), e(pick(g.r, []Type{TStr, TInt})))
	}
	return mk(t, "concat($, $)", e(TStr), e(pick(g.r, []Type{TStr, TTime, TU8})))
}

func (g *Generator) dateExpr(e func(Type) *node) *node {
	t := TDate
	switch g.intn(4) {
	case 0:
		return mk(t, "CAST($ AS DATE)", e(pick(g.r, []Type{TTSns, TTSms, TTS})))
	case 1:
		return mk(t, "($ + $)", e(TDate), mk(TInt, "CAST($ AS INTEGER)", e(TI8)))
	case 2:
		return mk(t, "date_trunc('"+pick(g.r, []string{"month", "year", "week", "quarter"})+"', $)", e(TDate))
	}
	return mk(t, "CAST($ AS DATE)", e(TTS))
}

func (g *Generator) tsExpr(e func(Type) *node) *node {
	t := TTS
	switch g.intn(5) {
	case 0:
		return mk(t, "($ "+pick(g.r, []string{"+", "-"})+" $)", e(pick(g.r, []Type{TTS, TDate})), e(TInterval))
	case 1:
		return mk(t, "date_add($, $)", e(pick(g.r, []Type{TTS, TDate})), e(TInterval))
	case 2:
		return mk(t, "time_bucket(INTERVAL '"+pick(g.r, []string{"1 day", "6 hours", "15 minutes", "1 month", "1 week"})+"', $)", e(TTS))
	case 3:
		return mk(t, "($ + $)", e(TDate), e(TTime))
	}
	return mk(t, "CAST($ AS TIMESTAMP)", e(pick(g.r, []Type{TTSns, TTSms, TDate})))
}

func (g *Generator) intervalExpr(e func(Type) *node) *node {
	t := TInterval
	switch g.intn(5) {
	case 0:
		return mk(t, "age($, $)", e(TTS), e(TTS))
	case 1:
		return mk(t, "($ - $)", e(TTS), e(TTS))
	case 2:
		return mk(t, "($ "+pick(g.r, []string{"+", "-"})+" $)", e(TInterval), e(TInterval))
	case 3:
		return mk(t, "($ * "+pick(g.r, []string{"2", "-1", "0"})+")", e(TInterval))
	}
	return mk(t, "($ - $)", e(TTime), e(TTime))
}

func (g *Generator) intListExpr(e func(Type) *node) *node {
	t := TIntList
	switch g.intn(8) {
	case 0:
		return mk(t, pick(g.r, []string{"list_sort($)", "list_sort($, 'DESC')", "list_reverse($)"}), e(t))
	case 1:
		return mk(t, "list_sort(list_distinct($))", e(t))
	case 2:
		return mk(t, "list_slice($, "+pick(g.r, []string{"1, 2", "2, 3", "-2, -1", "0, 10"})+")", e(t))
	case 3:
		// In parentheses: carquet's grammar reads [ ] after a name or a
		// parenthesized expression only (CASE ... END[1:2] fails).
		return mk(t, "($)["+pick(g.r, []string{"1:2", "2:", ":1"})+"]", e(t))
	case 4:
		return mk(t, "list_transform($, x -> "+pick(g.r, []string{"x + 1", "x * x", "coalesce(x, 0)", "x % 3"})+")", e(t))
	case 5:
		return mk(t, "list_filter($, x -> "+pick(g.r, []string{"x > 0", "x IS NULL", "x % 2 = 0"})+")", e(t))
	case 6:
		return mk(t, "flatten([$, $])", e(t), e(t))
	}
	return mk(t, "list_concat($, $)", e(t), e(t))
}

// typedPred draws a predicate over the typed classes: comparisons across
// types (UBIGINT with BIGINT, DECIMAL with FLOAT and DOUBLE, DATE with
// TIMESTAMP_NS, ...), LIKE on non-ASCII text, regular expressions, list
// membership and IS NULL.
func (g *Generator) typedPred(sc *scope, depth int) *node {
	e := func(t Type) *node { return g.texpr(sc, t, depth) }
	op := pick(g.r, []string{"=", "<>", "<", "<=", ">", ">="})
	switch g.intn(10) {
	case 8:
		return mk(TBool, pick(g.r, []string{"regexp_full_match($, '[a-zé]*')", "starts_with($, 'é')", "contains($, 'ß')", "ends_with($, 'a')", "regexp_matches($, 'Σ', 'i')"}), e(TStr))
	case 0:
		pairs := [][2]Type{{TU64, TInt}, {TU64, TI8}, {TU32, TI16}, {TDec, TF32}, {TDec, TFloat}, {TDec, TDec}, {TDate, TTSns},
			{TDate, TTS}, {TTSms, TTS}, {TF32, TInt}, {TU8, TI8}, {THuge, TU64}}
		p := pick(g.r, pairs)
		return mk(TBool, "($ "+op+" $)", e(p[0]), e(p[1]))
	case 1:
		t := pick(g.r, []Type{TTime, TBlob, TUUID, TInterval, TIntList, TStrList, TStruct, TTSns, TU64, TF32})
		return mk(TBool, "($ "+op+" $)", e(t), g.tliteral(t))
	case 2:
		pat := pick(g.r, []string{"é%", "%é", "_a%", "%ß%", "Σ_", "%€%", "n_ïve", "__"})
		return mk(TBool, "($ "+pick(g.r, []string{"LIKE", "NOT LIKE", "ILIKE"})+" "+quote(pat)+")", e(TStr))
	case 3:
		// The pattern is an argument: a template takes "$" for one.
		return mk(TBool, "regexp_matches($, $)", e(TStr), g.strConst(pick(g.r, []string{"^a", "b$", "[é]", "a.c", "^$", "(ab)+"})))
	case 4:
		return mk(TBool, "list_contains($, "+pick(g.r, []string{"1", "2", "NULL", "-1"})+")", e(TIntList))
	case 5:
		return mk(TBool, "($ IS "+pick(g.r, []string{"NULL", "NOT NULL"})+")", e(pick(g.r, typedClasses)))
	case 6:
		return mk(TBool, "($ IN ($, $))", e(TU64), g.tliteral(TU64), g.tliteral(TU64))
	case 7:
		return mk(TBool, "($ BETWEEN $ AND $)", e(TTime), g.tliteral(TTime), g.tliteral(TTime))
	}
	return mk(TBool, "($ "+op+" $)", e(TInterval), g.tliteral(TInterval))
}

// typedCase mixes the classes in CASE and COALESCE: the engines must
// agree on the common type.
func (g *Generator) typedCase(sc *scope, t Type, depth int) *node {
	other := t
	switch {
	case t.integral():
		other = pick(g.r, intClasses)
	case t == TDec:
		other = pick(g.r, []Type{TDec, TInt, TI8})
	case t == TTS:
		other = pick(g.r, []Type{TDate, TTSns, TTS})
	}
	if g.chance(0.5) {
		return mk(t, "coalesce($, $)", g.texpr(sc, t, depth), g.texpr(sc, other, depth))
	}
	return mk(t, "CASE WHEN $ THEN $ ELSE $ END", g.typedPred(sc, 0), g.texpr(sc, t, depth), g.texpr(sc, other, depth))
}

// typedWindow draws a window function over t4's typed columns: an
// aggregate, a value function or ROW_NUMBER over a ROWS frame ordered by
// a typed key and id (a total order, so no tie depends on the engine),
// an aggregate over a RANGE frame ordered by a number or a date alone
// (peers share their frame), or a rank over a typed key alone.
func (g *Generator) typedWindow(sc *scope) *node {
	part, args := "", []*node{}
	if g.chance(0.6) {
		part = "PARTITION BY $ "
		args = append(args, g.column(sc, pick(g.r, []Type{TU8, TStr, TBool, TI8, TStruct, TDate})))
	}
	desc := pick(g.r, []string{"", " DESC"})
	switch g.intn(4) {
	case 0, 1: // ROWS
		f, arg := g.typedWindowAgg(sc)
		if g.chance(0.35) {
			t := pick(g.r, typedClasses)
			arg = g.column(sc, t)
			f = mk(t, pick(g.r, []string{"FIRST_VALUE($)", "LAST_VALUE($)", "NTH_VALUE($, 2)", "LAG($)", "LEAD($, 2)"}), arg)
		}
		frame := pick(g.r, []string{"ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", "ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
			"ROWS UNBOUNDED PRECEDING", "ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING", "ROWS BETWEEN 3 FOLLOWING AND 5 FOLLOWING"})
		if g.chance(0.3) {
			frame += pick(g.r, []string{" EXCLUDE CURRENT ROW", " EXCLUDE TIES", " EXCLUDE GROUP"})
		}
		if strings.HasPrefix(f.parts[0], "LAG") || strings.HasPrefix(f.parts[0], "LEAD") {
			frame = "" // no frame for LAG and LEAD
		}
		key := g.column(sc, pick(g.r, []Type{TU16, TDec, TStr, TTSns, TF32, TUUID, TBlob, TTime, TU64}))
		return pin(mk(f.typ, "$ OVER ("+part+"ORDER BY $"+desc+", id "+frame+")", append(append([]*node{f}, args...), key)...))
	case 2: // RANGE
		f, _ := g.typedWindowAgg(sc)
		kt := pick(g.r, []Type{TI8, TU16, TDec, TInt, TDate, TTS})
		off := pick(g.r, []string{"2", "1", "0"})
		switch kt {
		case TDec:
			off = pick(g.r, []string{"2", "CAST(1.5 AS DECIMAL(4,1))"})
		case TDate, TTS:
			off = pick(g.r, []string{"INTERVAL '1 day'", "INTERVAL '1 month'", "INTERVAL '36 hours'"})
		}
		frame := pick(g.r, []string{"RANGE BETWEEN " + off + " PRECEDING AND CURRENT ROW", "RANGE BETWEEN " + off + " PRECEDING AND " + off + " FOLLOWING",
			"RANGE BETWEEN CURRENT ROW AND " + off + " FOLLOWING", "RANGE BETWEEN UNBOUNDED PRECEDING AND " + off + " FOLLOWING"})
		return pin(mk(f.typ, "$ OVER ("+part+"ORDER BY $"+desc+" "+frame+")", append(append([]*node{f}, args...), g.column(sc, kt))...))
	}
	key := g.column(sc, pick(g.r, []Type{TU16, TDec, TStr, TTSns, TF32, TUUID, TStrList, TIntList, TStruct, TInterval}))
	f := pick(g.r, []string{"RANK()", "DENSE_RANK()", "PERCENT_RANK()", "CUME_DIST()"})
	t := TInt
	if f == "PERCENT_RANK()" || f == "CUME_DIST()" {
		t = TFloat
	}
	return pin(mk(t, f+" OVER ("+part+"ORDER BY $"+desc+")", append(args, key)...))
}

// typedWindowAgg is a window aggregate over a typed column and the
// column: no SUM or AVG of FLOAT, whose rounding depends on the order.
func (g *Generator) typedWindowAgg(sc *scope) (*node, *node) {
	switch g.intn(3) {
	case 0:
		t := pick(g.r, []Type{TI8, TU32, TU64, TDec, TInt, THuge})
		arg := g.tcolumn(sc, t)
		if g.chance(0.25) {
			return mk(TFloat, "AVG($)", arg), arg
		}
		return mk(t, pick(g.r, []string{"SUM($)", "MIN($)", "MAX($)"}), arg), arg
	case 1:
		// Not INTERVAL: equal ones of other parts ('1 month', '30 days')
		// tie, and MIN shows whichever an engine met first.
		t := pick(g.r, []Type{TStr, TTSns, TDate, TBlob, TUUID, TTime, TF32, TIntList})
		arg := g.column(sc, t)
		return mk(t, pick(g.r, []string{"MIN($)", "MAX($)"}), arg), arg
	}
	arg := g.column(sc, pick(g.r, typedClasses))
	if g.chance(0.3) {
		return leaf(TInt, "COUNT(*)"), arg
	}
	return mk(TInt, "COUNT($)", arg), arg
}

// typedSetOp is two selects over t4 joined by UNION [ALL], INTERSECT
// [ALL] or EXCEPT [ALL], whose items meet in a common type: integers of
// different widths and signs, decimals with integers, dates with
// timestamps, nested values. Not INTERVAL (equal ones of other parts tie
// and a set operation keeps whichever it met first), nor HUGEINT with a
// DECIMAL (DuckDB caps their common type at 38 digits, see doc.go).
func (g *Generator) typedSetOp(sc *scope) *query {
	classes := []Type{TI8, TI16, TU8, TU16, TU32, TU64, TInt, TDec, TStr, TBool, TDate, TTS, TF32, TIntList, TStrList, TStruct, TMap, TUUID, TTime, TBlob}
	partner := func(t Type) Type {
		switch {
		case t.integral():
			return pick(g.r, []Type{t, TI8, TU16, TU32, TInt, TU64})
		case t == TDec:
			return pick(g.r, []Type{TDec, TI8, TInt})
		case t == TDate || t == TTS:
			return pick(g.r, []Type{TDate, TTS})
		}
		return t
	}
	t4 := g.tables[0].Name
	a, b := &selectStmt{from: tableRef{name: t4}}, &selectStmt{from: tableRef{name: t4}}
	for range 1 + g.intn(3) {
		t := pick(g.r, classes)
		a.items = append(a.items, g.texpr(sc, t, 1))
		b.items = append(b.items, g.texpr(sc, partner(t), 1))
	}
	for _, s := range []*selectStmt{a, b} {
		if g.chance(0.5) {
			s.where = append(s.where, parenthesize(g.typedPred(sc, 1)))
		}
	}
	op := pick(g.r, []string{"UNION", "UNION ALL", "INTERSECT", "EXCEPT", "INTERSECT ALL", "EXCEPT ALL"})
	return &query{sels: []*selectStmt{a, b}, unions: []string{op}, limit: -1}
}

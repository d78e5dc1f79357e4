package types

import "strings"

// Case is one logical type of the matrix: a table of one column v of
// DuckDB type Type holding Values, one row each.
type Case struct {
	// Name names the subtest (the type, with its parameters).
	Name string
	// Type is the column's DuckDB type, as CREATE TABLE takes it.
	Type string
	// Values are SQL expressions in DuckDB's syntax, one per row, that
	// INSERT converts to Type (string literals are cast implicitly).
	Values []string
	// NoArrow says why arrow-go's pqarrow cannot write the type (it has no
	// Arrow type it writes back as this Parquet type); empty when it can.
	NoArrow string
	// Float16 has arrow-go write the column as FLOAT16 (DuckDB, which has
	// no half float, holds it as FLOAT); only the arrow writers apply.
	Float16 bool
}

// fileName returns a file-name-safe form of the case's name.
func (c Case) fileName() string {
	r := strings.NewReplacer("(", "_", ")", "", ",", "_", " ", "", "[", "", "]", "list")
	return strings.ToLower(r.Replace(c.Name))
}

// Cases are the types of the matrix, each at its edge values: minimum,
// maximum, zero, negative, NULL, every fractional digit the type holds,
// and the extreme dates DuckDB supports.
var Cases = []Case{
	{Name: "BOOLEAN", Type: "BOOLEAN", Values: []string{"true", "false", "NULL"}},
	{Name: "TINYINT", Type: "TINYINT", Values: []string{"-128", "127", "0", "-1", "NULL"}},
	{Name: "SMALLINT", Type: "SMALLINT", Values: []string{"-32768", "32767", "0", "-1", "NULL"}},
	{Name: "INTEGER", Type: "INTEGER", Values: []string{"-2147483648", "2147483647", "0", "-1", "NULL"}},
	{Name: "BIGINT", Type: "BIGINT", Values: []string{"-9223372036854775808", "9223372036854775807", "0", "-1", "NULL"}},
	{Name: "UTINYINT", Type: "UTINYINT", Values: []string{"0", "255", "128", "NULL"}},
	{Name: "USMALLINT", Type: "USMALLINT", Values: []string{"0", "65535", "32768", "NULL"}},
	{Name: "UINTEGER", Type: "UINTEGER", Values: []string{"0", "4294967295", "2147483648", "NULL"}},
	{Name: "UBIGINT", Type: "UBIGINT", Values: []string{"0", "18446744073709551615", "9223372036854775808", "NULL"}},
	{Name: "FLOAT", Type: "FLOAT", Values: []string{"0", "'-0.0'", "1.5", "-1", "0.1", "3.4028235e38", "-3.4028235e38",
		"1.17549435e-38", "1.4e-45", "'inf'", "'-inf'", "'nan'", "NULL"}},
	{Name: "FLOAT16", Type: "FLOAT", Float16: true, Values: []string{"0", "'-0.0'", "1", "-2", "0.5", "65504", "-65504",
		"6.103515625e-05", "5.960464477539063e-08", "'inf'", "'-inf'", "'nan'", "NULL"}},
	{Name: "DOUBLE", Type: "DOUBLE", Values: []string{"0", "'-0.0'", "1.5", "-1", "0.1", "1.7976931348623157e308", "-1.7976931348623157e308",
		"2.2250738585072014e-308", "4.9e-324", "'inf'", "'-inf'", "'nan'", "NULL"}},
	{Name: "DECIMAL(4,2)", Type: "DECIMAL(4,2)", Values: []string{"99.99", "-99.99", "0", "0.01", "-0.01", "NULL"}},
	{Name: "DECIMAL(9,3)", Type: "DECIMAL(9,3)", Values: []string{"999999.999", "-999999.999", "0", "0.001", "-1.5", "NULL"}},
	{Name: "DECIMAL(18,6)", Type: "DECIMAL(18,6)", Values: []string{"999999999999.999999", "-999999999999.999999", "0", "0.000001", "-0.000001", "NULL"}},
	{Name: "DECIMAL(38,0)", Type: "DECIMAL(38,0)", Values: []string{"99999999999999999999999999999999999999", "-99999999999999999999999999999999999999",
		"0", "1", "-1", "NULL"}},
	{Name: "DECIMAL(38,10)", Type: "DECIMAL(38,10)", Values: []string{"9999999999999999999999999999.9999999999", "-9999999999999999999999999999.9999999999",
		"1234567890123456789012345678.0123456789", "0", "0.0000000001", "-0.0000000001", "NULL"}},
	{Name: "VARCHAR", Type: "VARCHAR", Values: []string{"''", "'a'", "'música'", "'日本語'", "'🦆 quack'", "'it''s'",
		"'" + strings.Repeat("long string ", 30) + "'", "NULL"}},
	{Name: "BLOB", Type: "BLOB", Values: []string{"''::BLOB", "'abc'::BLOB", `'\x00\xFF\x80'::BLOB`, "NULL"}},
	{Name: "DATE", Type: "DATE", Values: []string{"'1970-01-01'", "'1969-12-31'", "'2000-02-29'", "'0001-01-01'", "'9999-12-31'",
		"'5881580-07-10'", "'5877642-06-25 (BC)'", "NULL"}},
	{Name: "TIME", Type: "TIME", Values: []string{"'00:00:00'", "'23:59:59.999999'", "'12:34:56.789012'", "'24:00:00'", "NULL"}},
	{Name: "TIME_NS", Type: "TIME_NS", Values: []string{"'00:00:00'", "'23:59:59.999999999'", "'12:34:56.123456789'", "'00:00:00.000000001'", "NULL"}},
	{Name: "TIMESTAMP", Type: "TIMESTAMP", Values: []string{"'1970-01-01 00:00:00'", "'1969-12-31 23:59:59.999999'", "'2024-02-29 12:34:56.789012'",
		"'0001-01-01 00:00:00'", "'9999-12-31 23:59:59.999999'", "'294247-01-10 04:00:54.775806'", "'290309-12-22 (BC) 00:00:00'", "NULL"}},
	{Name: "TIMESTAMP_MS", Type: "TIMESTAMP_MS", Values: []string{"'1970-01-01 00:00:00'", "'1969-12-31 23:59:59.999'", "'2024-02-29 12:34:56.789'",
		"'0001-01-01 00:00:00'", "'9999-12-31 23:59:59.999'", "NULL"}},
	{Name: "TIMESTAMP_S", Type: "TIMESTAMP_S", Values: []string{"'1970-01-01 00:00:00'", "'1969-12-31 23:59:59'", "'2024-02-29 12:34:56'",
		"'0001-01-01 00:00:00'", "'9999-12-31 23:59:59'", "NULL"}},
	{Name: "TIMESTAMP_NS", Type: "TIMESTAMP_NS", Values: []string{"'1970-01-01 00:00:00'", "'1970-01-01 00:00:00.000000001'",
		"'1969-12-31 23:59:59.999999999'", "'2024-02-29 12:34:56.123456789'", "'1677-09-21 00:12:43.145225001'",
		"'2262-04-11 23:47:16.854775806'", "NULL"}},
	{Name: "TIMESTAMPTZ", Type: "TIMESTAMPTZ", Values: []string{"'1970-01-01 00:00:00+00'", "'1969-12-31 23:59:59.999999+00'",
		"'2024-02-29 12:34:56.789012+00'", "'2024-06-01 00:00:00+05:30'", "'0001-01-01 00:00:00+00'", "'9999-12-31 23:59:59.999999+00'", "NULL"}},
	{Name: "UUID", Type: "UUID", Values: []string{"'00000000-0000-0000-0000-000000000000'", "'ffffffff-ffff-ffff-ffff-ffffffffffff'",
		"'7fffffff-ffff-ffff-ffff-ffffffffffff'", "'80000000-0000-0000-0000-000000000000'", "'123e4567-e89b-12d3-a456-426614174000'", "NULL"}},
	{Name: "INTERVAL", Type: "INTERVAL", NoArrow: "pqarrow reads a Parquet INTERVAL as fixed_size_binary(12) and writes it back without the annotation",
		Values: []string{"'0 seconds'", "'1 day'", "'1 month'", "'1 year 2 months 3 days 04:05:06.789'", "'00:00:00.001'", "NULL"}},
	{Name: "INTEGER[]", Type: "INTEGER[]", Values: []string{"[1, 2, 3]", "[]", "[NULL]", "[-2147483648, 2147483647, NULL]", "NULL"}},
	{Name: "VARCHAR[]", Type: "VARCHAR[]", Values: []string{"['a', '', 'música']", "[]", "[NULL, 'x']", "NULL"}},
	{Name: "STRUCT", Type: "STRUCT(a INTEGER, b VARCHAR)", Values: []string{"{'a': 1, 'b': 'x'}", "{'a': NULL, 'b': NULL}",
		"{'a': -2147483648, 'b': ''}", "NULL"}},
	{Name: "MAP", Type: "MAP(VARCHAR, INTEGER)", Values: []string{"MAP {'k': 1, 'l': NULL}", "MAP {}", "MAP {'': -1}", "NULL"}},
	// Edge values of other types inside a list, a struct and a map.
	{Name: "TIMESTAMP_NS[]", Type: "TIMESTAMP_NS[]", Values: []string{"['2024-02-29 12:34:56.123456789', NULL, '1969-12-31 23:59:59.999999999']", "[]", "NULL"}},
	{Name: "STRUCT_EDGES", Type: "STRUCT(d DECIMAL(38,10), u UUID, f FLOAT, t TIMESTAMPTZ, b BLOB)", Values: []string{
		"{'d': 9999999999999999999999999999.9999999999, 'u': 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'f': '-0.0', 't': '2024-02-29 12:34:56.789012+00', 'b': 'abc'}",
		"{'d': -0.0000000001, 'u': '00000000-0000-0000-0000-000000000001', 'f': 'nan', 't': '0001-01-01 00:00:00+00', 'b': ''}",
		"{'d': NULL, 'u': NULL, 'f': NULL, 't': NULL, 'b': NULL}", "NULL"}},
	{Name: "MAP_DECIMAL", Type: "MAP(INTEGER, DECIMAL(18,6))", Values: []string{"MAP {1: 0.000001, -2147483648: -999999999999.999999, 2147483647: NULL}", "MAP {}", "NULL"}},
}

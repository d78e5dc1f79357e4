package tpch

import (
	"fmt"
	"strings"

	"github.com/carquet-go/carquet/parquet/schema"
	"github.com/carquet-go/carquet/writer"
)

// kind is the SQL type of a TPC-H column as written to Parquet.
type kind int

const (
	kInt    kind = iota // INTEGER (INT32)
	kBigint             // BIGINT (INT64)
	kMoney              // DECIMAL(15,2) (INT64 unscaled cents)
	kDate               // DATE (INT32 days since 1970-01-01)
	kString             // VARCHAR (BYTE_ARRAY UTF8): the spec's CHAR(n) and VARCHAR(n)
)

func (k kind) sql() string {
	return [...]string{"INTEGER", "BIGINT", "DECIMAL(15,2)", "DATE", "VARCHAR"}[k]
}

type column struct {
	name string
	kind kind
}

type table struct {
	name string
	cols []column
}

func cols(spec string) []column {
	var out []column
	for _, f := range strings.Split(spec, ",") {
		name, typ, _ := strings.Cut(strings.TrimSpace(f), " ")
		k := map[string]kind{"int": kInt, "bigint": kBigint, "money": kMoney, "date": kDate, "string": kString}[typ]
		out = append(out, column{name, k})
	}
	return out
}

// schemas follows the TPC-H specification's clause 1.4 column lists, in
// order. Identifiers are INTEGER except the order key (BIGINT: sparse keys
// pass 2^31 above SF 500); money and quantities DECIMAL(15,2).
var schemas = []table{
	{"region", cols("r_regionkey int, r_name string, r_comment string")},
	{"nation", cols("n_nationkey int, n_name string, n_regionkey int, n_comment string")},
	{"supplier", cols("s_suppkey int, s_name string, s_address string, s_nationkey int, s_phone string, s_acctbal money, s_comment string")},
	{"customer", cols("c_custkey int, c_name string, c_address string, c_nationkey int, c_phone string, c_acctbal money, c_mktsegment string, c_comment string")},
	{"part", cols("p_partkey int, p_name string, p_mfgr string, p_brand string, p_type string, p_size int, p_container string, p_retailprice money, p_comment string")},
	{"partsupp", cols("ps_partkey int, ps_suppkey int, ps_availqty int, ps_supplycost money, ps_comment string")},
	{"orders", cols("o_orderkey bigint, o_custkey int, o_orderstatus string, o_totalprice money, o_orderdate date, o_orderpriority string, o_clerk string, o_shippriority int, o_comment string")},
	{"lineitem", cols("l_orderkey bigint, l_partkey int, l_suppkey int, l_linenumber int, l_quantity money, l_extendedprice money, l_discount money, l_tax money, l_returnflag string, l_linestatus string, l_shipdate date, l_commitdate date, l_receiptdate date, l_shipinstruct string, l_shipmode string, l_comment string")},
}

// Tables names the eight TPC-H tables.
func Tables() []string {
	out := make([]string, len(schemas))
	for i, t := range schemas {
		out[i] = t.name
	}
	return out
}

func lookup(name string) table {
	for _, t := range schemas {
		if t.name == name {
			return t
		}
	}
	panic("tpch: no table " + name)
}

// parquetSchema is t's schema for carquet's writer: every column REQUIRED
// (the spec's columns are NOT NULL).
func (t table) parquetSchema() (*schema.Schema, error) {
	var fs []writer.Field
	for _, c := range t.cols {
		var f writer.Field
		switch c.kind {
		case kInt:
			f = writer.Int32(c.name)
		case kBigint:
			f = writer.Int64(c.name)
		case kMoney:
			f = writer.Decimal(c.name, 15, 2)
		case kDate:
			f = writer.Date(c.name)
		case kString:
			f = writer.String(c.name)
		default:
			return nil, fmt.Errorf("tpch: column %s: unknown kind", c.name)
		}
		fs = append(fs, f.Required())
	}
	return writer.NewSchema(fs...)
}

// castList selects every column of t cast to its spec type, for DuckDB.
func (t table) castList() string {
	var b strings.Builder
	for i, c := range t.cols {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "CAST(%s AS %s) AS %s", c.name, c.kind.sql(), c.name)
	}
	return b.String()
}

package sqlplan

import kernels "github.com/carquet-go/carquet/sqlplan/exec"

// Relations made of rows the engine lists (its catalog table functions,
// the Parquet metadata functions, DESCRIBE): built column by column, then
// planned as a constant input.

// catalogRows builds the relation of a catalog table function.
type catalogRows struct {
	cols []Column
	data []*colBuilder
	n    int
}

// col adds a column; its builder takes the values.
func (c *catalogRows) col(name string, t Type) *colBuilder {
	c.cols = append(c.cols, Column{Name: name, Type: t, Nullable: true})
	b := newBuilder(t, 0)
	c.data = append(c.data, b)
	return b
}

// relation is the built rows as a relation named alias.
func (c *catalogRows) relation(alias, what string) *relation {
	b := &Batch{N: c.n}
	for _, d := range c.data {
		b.Cols = append(b.Cols, d.C)
	}
	rel := &relation{alias: alias, sub: &selectPlan{root: &kernels.Const{Batches: []*Batch{b}, What: what}, cols: c.cols}}
	for i, col := range c.cols {
		rel.cols = append(rel.cols, &scopeCol{rel: rel, name: col.Name, t: col.Type, slot: &slot{}, local: i})
	}
	return rel
}

// nullIfEmpty is s, or NULL for "".
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// The integer types catalog columns have.
var (
	tBigint  = Type{Kind: KInt}
	tInteger = Type{Kind: KInt, Bits: 32}
)

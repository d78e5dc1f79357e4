package plan

import kernels "github.com/carquet-go/carquet/sqlplan/exec"

// Relations made of rows the engine lists (its catalog table functions,
// the Parquet metadata functions, DESCRIBE): built column by column, then
// planned as a constant input.

// CatalogRows builds the relation of a catalog table function.
type CatalogRows struct {
	Cols []Column
	Data []*ColBuilder
	N    int
}

// Col adds a column; its builder takes the values.
func (c *CatalogRows) Col(name string, t Type) *ColBuilder {
	c.Cols = append(c.Cols, Column{Name: name, Type: t, Nullable: true})
	b := NewBuilder(t, 0)
	c.Data = append(c.Data, b)
	return b
}

// Relation is the built rows as a relation named alias.
func (c *CatalogRows) Relation(alias, what string) *Relation {
	b := &Batch{N: c.N}
	for _, d := range c.Data {
		b.Cols = append(b.Cols, d.C)
	}
	rel := &Relation{Alias: alias, Sub: &SelectPlan{Root: &kernels.Const{Batches: []*Batch{b}, What: what}, Cols: c.Cols}}
	for i, col := range c.Cols {
		rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: col.Name, T: col.Type, Slot: &Slot{}, Local: i})
	}
	return rel
}

// NullIfEmpty is s, or NULL for "".
func NullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// The integer types catalog columns have.
var (
	TBigint  = Type{Kind: KInt}
	TInteger = Type{Kind: KInt, Bits: 32}
)

package sqlplan

import (
	"sort"
	"strings"

	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The catalog views information_schema.tables and information_schema.columns
// list the folder's tables and the engine's views as other databases do,
// in catalog "carquet" and schema "main".

// openTable opens a table for the statement: in its transaction's snapshot
// if it has one, without taking the write lock again if it holds it.
func (p *planner) openTable(name string) (*scan.Table, string, error) {
	switch {
	case p.tx != nil:
		return p.tx.openTable(name)
	case p.writeHeld:
		return p.e.openTableWriteHeld(name)
	}
	return p.e.openTable(name)
}

// tableNames are the table names the statement sees: its transaction's,
// if it has one.
func (p *planner) tableNames() []string {
	if p.tx != nil {
		return p.tx.tableNames()
	}
	return p.e.TableNames()
}

// catalogRelation is the relation of a catalog view, ok false when name
// is none.
func (p *planner) catalogRelation(name, alias string) (*relation, bool) {
	which := strings.ToLower(name)
	if which != "information_schema.tables" && which != "information_schema.columns" {
		return nil, false
	}
	if alias == "" {
		alias = which[len("information_schema."):]
	}
	var cols []Column
	var data []*colBuilder
	add := func(name string, t Type) *colBuilder {
		cols = append(cols, Column{Name: name, Type: t, Nullable: true})
		b := newBuilder(t, 0)
		data = append(data, b)
		return b
	}
	catalog, schema, table := add("table_catalog", tString), add("table_schema", tString), add("table_name", tString)
	n := 0
	row := func(name string) {
		n++
		catalog.Add("carquet")
		schema.Add("main")
		table.Add(name)
	}
	if which == "information_schema.tables" {
		kind := add("table_type", tString)
		for _, name := range p.tableNames() {
			row(name)
			kind.Add("BASE TABLE")
		}
		for _, v := range p.e.viewNames() {
			row(v)
			kind.Add("VIEW")
		}
	} else {
		column, pos := add("column_name", tString), add("ordinal_position", tInt)
		nullable, dtype := add("is_nullable", tString), add("data_type", tString)
		for _, name := range p.tableNames() {
			t, _, err := p.openTable(name)
			if err != nil {
				continue // a file that does not open has no columns to list
			}
			for i, c := range t.Columns {
				typ, null := tString, true
				if c.Field != nil {
					typ, null = typeOfField(c.Field), c.Field.Nullable
				} else if c.PartitionType == 1 {
					typ = tInt
				}
				row(name)
				column.Add(c.Name)
				pos.Add(int64(i + 1))
				dtype.Add(typ.SQLName())
				if null {
					nullable.Add("YES")
				} else {
					nullable.Add("NO")
				}
			}
			p.e.release(t)
		}
		for _, name := range p.e.viewNames() {
			for i, c := range p.viewColumns(name) {
				row(name)
				column.Add(c.Name)
				pos.Add(int64(i + 1))
				dtype.Add(c.Type.SQLName())
				nullable.Add("YES")
			}
		}
	}
	b := &Batch{N: n}
	for _, d := range data {
		b.Cols = append(b.Cols, d.C)
	}
	rel := &relation{alias: alias, sub: &selectPlan{root: &kernels.Const{Batches: []*Batch{b}, What: strings.ToUpper(which)}, cols: cols}}
	for i, c := range cols {
		rel.cols = append(rel.cols, &scopeCol{rel: rel, name: c.Name, t: c.Type, slot: &slot{}, local: i})
	}
	return rel, true
}

// viewNames lists the engine's views, sorted.
func (e *Engine) viewNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, v := range e.views {
		if _, hidden := e.tempViews[strings.ToLower(v.name)]; !hidden {
			out = append(out, v.name)
		}
	}
	for _, v := range e.tempViews {
		out = append(out, v.name)
	}
	sort.Strings(out)
	return out
}

// tableExists reports whether name is a table of the folder (SHOW name
// describes it; other SHOW words are settings, which are refused).
func (e *Engine) tableExists(name string) bool {
	_, ok, err := e.tablePath(name)
	return ok && err == nil
}

// viewColumns are the output columns of a view (none if it does not plan:
// a table it reads was dropped).
func (p *planner) viewColumns(name string) []Column {
	st, err := p.e.Prepare("SELECT * FROM " + parse.Backquote(name))
	if err != nil {
		return nil
	}
	vp := p.child(st.src)
	defer vp.releaseAll()
	sp, err := st.plan(vp)
	if err != nil {
		return nil
	}
	sp.root.Close()
	return sp.cols
}

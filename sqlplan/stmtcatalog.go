package sqlplan

import (
	"context"
	"time"

	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/xwb1989/sqlparser"
)

// stmtCatalog is the engine as one statement sees it, the planner's
// plan.Catalog: the transaction whose snapshot the statement reads, if
// any, the session it runs in (nil: the engine's first), and whether it
// holds the engine's write lock (a DELETE or UPDATE reading the table it
// rewrites: tables are opened without taking it again). The statement's
// DDL and DML reach it through stmtOf.
type stmtCatalog struct {
	e         *Engine
	tx        *Tx
	sess      *Session
	writeHeld bool
}

// stmtOf is the engine side of the statement p plans.
func stmtOf(p *plan.Planner) *stmtCatalog { return p.Cat.(*stmtCatalog) }

// holdWrite makes p open tables without taking the write lock, which its
// statement holds; p's parent is left as it was.
func holdWrite(p *plan.Planner) {
	c := *stmtOf(p)
	c.writeHeld = true
	p.Cat = &c
}

func (c *stmtCatalog) OpenTable(name string) (*scan.Table, string, error) {
	switch {
	case c.tx != nil:
		return c.tx.openTable(name)
	case c.writeHeld:
		return c.e.openTableWriteHeld(name)
	}
	return c.e.openTable(name)
}

func (c *stmtCatalog) ReleaseTable(t *scan.Table) { c.e.release(t) }

func (c *stmtCatalog) TableNames() []string {
	if c.tx != nil {
		return c.tx.tableNames()
	}
	return c.e.TableNames()
}

func (c *stmtCatalog) TableExists(name string) bool { return c.e.tableExists(name) }

func (c *stmtCatalog) ViewNames() []string { return c.e.viewNames() }

func (c *stmtCatalog) View(name string) *view { return c.e.viewNamed(name) }

func (c *stmtCatalog) Confine() *scan.Root { return c.e.confine }

func (c *stmtCatalog) ScanOptions() scan.Options { return c.e.scanOptions(nil) }

func (c *stmtCatalog) Now() time.Time { return c.e.now() }

func (c *stmtCatalog) UserType(name string) (Type, bool) { return c.e.userType(name) }

func (c *stmtCatalog) Sequence(name string) (func(currval bool) (int64, error), bool) {
	return c.e.sequenceCall(name)
}

func (c *stmtCatalog) TransactionID() uint64 {
	if c.tx == nil {
		return plan.LastTransactionID.Add(1)
	}
	c.tx.mu.Lock()
	defer c.tx.mu.Unlock()
	if c.tx.id == 0 {
		c.tx.id = plan.LastTransactionID.Add(1)
	}
	return c.tx.id
}

func (c *stmtCatalog) Prepare(ctx context.Context, text string) (*Stmt, error) {
	return c.e.PrepareTx(ctx, text, c.tx)
}

func (c *stmtCatalog) PrepareOutside(text string) (*Stmt, error) { return c.e.Prepare(text) }

func (c *stmtCatalog) PrepareQuery(ctx context.Context, text string, toks []parse.Token) (*plan.Parsed, error) {
	st, err := c.e.prepareTokens(ctx, text, toks)
	if err != nil {
		return nil, err
	}
	if st.kind != kindSelect && st.kind != kindSetOp {
		return nil, errorf("a subquery must be a query")
	}
	return &st.Parsed, nil
}

// StoredExpr parses the text of an expression the engine stored (a
// constraint's CHECK or DEFAULT), to be bound by a planner of the
// returned source.
func (c *stmtCatalog) StoredExpr(text string) (sqlparser.Expr, *plan.Source, error) {
	return c.e.exprOf(text)
}

func (c *stmtCatalog) Relation(p *plan.Planner, name, alias string) (*plan.Relation, bool, error) {
	switch name {
	case settingsTable:
		return settingsRelation(p, alias), true, nil
	case variablesTable:
		return variablesRelation(p, alias), true, nil
	case returnedTable:
		rel, err := returnedRelation(p, alias)
		return rel, true, err
	}
	if rel, ok := catalogRelation(p, name, alias); ok {
		return rel, true, nil
	}
	return duckdbRelation(p, name, alias)
}

func (c *stmtCatalog) Setting(set *plan.Settings, name string) (Type, any, error) {
	i, ok := settingNamed(name)
	if !ok {
		return Type{}, nil, unknownSetting(name)
	}
	d := settingDefs[i]
	return d.typ(), d.show(set), nil
}

func (c *stmtCatalog) TableColumns(name string) (string, []NamedType, error) {
	ent, err := c.tableEntry(name)
	if err != nil {
		return "", nil, err
	}
	cols := make([]NamedType, len(ent.cols))
	for i, c := range ent.cols {
		cols[i] = NamedType{Name: c.name, Type: c.t}
	}
	return ent.name, cols, nil
}

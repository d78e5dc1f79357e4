package plan

import (
	"context"
	"time"

	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Catalog is everything the planner asks of the engine, as one
// statement sees it (its transaction's snapshot, the locks it holds).
// The planner holds one and no *Engine: it is a package below the
// engine (issue 27), and the engine's side is sqlplan's stmtCatalog.
// The methods are named for what the planner needs, not for how the
// engine keeps it.
type Catalog interface {
	// OpenTable opens the table or file a FROM names, for a scan, with
	// the path it was found at; ReleaseTable gives it back.
	OpenTable(name string) (*scan.Table, string, error)
	ReleaseTable(t *scan.Table)
	// Confine is the root every path a statement reads must be under.
	Confine() *scan.Root
	// ScanOptions are the options a file the statement opens directly
	// (the Parquet metadata functions) is read with.
	ScanOptions() scan.Options
	// Now is now(), current_date and age(x)'s today: the engine's clock (its
	// Options.Now, if set), in UTC.
	Now() time.Time
	// UserType resolves a type made by CREATE TYPE.
	UserType(name string) (Type, bool)
	// Sequence is the sequence called name: next gives its nextval (or
	// its currval, with currval) each time it is called.
	Sequence(name string) (next func(currval bool) (int64, error), ok bool)
	// TransactionID is txid_current(): the transaction's id, or a new
	// one for a statement outside any.
	TransactionID() uint64
	// PrepareQuery parses a part of this statement's text (a
	// parenthesized set operation) as a query, to be planned by a child
	// planner; another statement is an error.
	PrepareQuery(ctx context.Context, text string, toks []parse.Token) (*Parsed, error)
	// TableColumns are the columns of the table called name (COPY into
	// it reads a file as them), with the name the table goes by.
	TableColumns(name string) (table string, cols []NamedType, err error)
	// Setting is the value of the setting called name (current_setting)
	// in set, the settings the statement runs with, and its type.
	Setting(set *Settings, name string) (Type, any, error)
	// Relation is the relation of a name in FROM that the engine answers
	// rather than a table: its settings and variables, the rows of a
	// RETURNING, its catalog views and table functions, planned by p; ok
	// is false for other names.
	Relation(p *Planner, name, alias string) (rel *Relation, ok bool, err error)
}

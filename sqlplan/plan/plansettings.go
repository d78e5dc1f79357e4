package plan

import "time"

// The settings a statement runs with, as the planner reads them: the
// engine fills them from SET and the session when the statement starts
// (settings.go, Engine.settingsFor), and nothing is looked up per row.

// nullOrder is default_null_order: where NULLs sort when an ORDER BY item
// does not say.
type nullOrder uint8

const (
	NullsLastAlways nullOrder = iota
	NullsFirstAlways
	NullsFirstOnAsc // NULLS_FIRST_ON_ASC_LAST_ON_DESC (sqlite, mysql)
	NullsLastOnAsc  // NULLS_LAST_ON_ASC_FIRST_ON_DESC (postgres)
)

// Settings are the values a statement runs with.
type Settings struct {
	NullOrder nullOrder
	OrderDesc bool // default_order DESC
	// OrderSet says default_order was set: DuckDB shows its default as
	// ASCENDING, a value set as ASC or DESC.
	OrderSet bool
	IntDiv   bool
	Threads  int
	MemLimit uint64
	TZName   string
	TZ       *time.Location // nil: UTC
	// Local has a bit (by settingDefs index) per setting the session has
	// its own value of: duckdb_settings() shows their scope as LOCAL.
	Local uint64
	// Vars are the session's variables (variables.go), not to be changed.
	Vars map[string]*Variable
	// ConnID and rng are the session's id and random numbers
	// (funcs_session.go).
	ConnID uint64
	Rng    *SessionRand
	// QueryID numbers the statement's run (current_query_id(),
	// funcs_system.go).
	QueryID uint64
}

// nullsFirst is where NULLs of an ORDER BY item go: explicit is the
// item's NULLS FIRST / NULLS LAST (0: none given).
func (s *Settings) nullsFirst(desc bool, explicit int8) bool {
	switch {
	case explicit > 0:
		return true
	case explicit < 0:
		return false
	}
	switch s.NullOrder {
	case NullsFirstAlways:
		return true
	case NullsFirstOnAsc:
		return !desc
	case NullsLastOnAsc:
		return desc
	}
	return false
}

// Variable is one variable's value, in the engine's representation of
// its type (what Col.get returns).
type Variable struct {
	Name string // as first set
	T    Type
	V    any
}

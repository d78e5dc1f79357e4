package sqlplan

import "time"

// The settings a statement runs with, as the planner reads them: the
// engine fills them from SET and the session when the statement starts
// (settings.go, Engine.settingsFor), and nothing is looked up per row.

// nullOrder is default_null_order: where NULLs sort when an ORDER BY item
// does not say.
type nullOrder uint8

const (
	nullsLastAlways nullOrder = iota
	nullsFirstAlways
	nullsFirstOnAsc // NULLS_FIRST_ON_ASC_LAST_ON_DESC (sqlite, mysql)
	nullsLastOnAsc  // NULLS_LAST_ON_ASC_FIRST_ON_DESC (postgres)
)

// settings are the values a statement runs with.
type settings struct {
	nullOrder nullOrder
	orderDesc bool // default_order DESC
	// orderSet says default_order was set: DuckDB shows its default as
	// ASCENDING, a value set as ASC or DESC.
	orderSet bool
	intDiv   bool
	threads  int
	memLimit uint64
	tzName   string
	tz       *time.Location // nil: UTC
	// local has a bit (by settingDefs index) per setting the session has
	// its own value of: duckdb_settings() shows their scope as LOCAL.
	local uint64
	// vars are the session's variables (variables.go), not to be changed.
	vars map[string]*variable
	// connID and rng are the session's id and random numbers
	// (funcs_session.go).
	connID uint64
	rng    *sessionRand
	// queryID numbers the statement's run (current_query_id(),
	// funcs_system.go).
	queryID uint64
}

// nullsFirst is where NULLs of an ORDER BY item go: explicit is the
// item's NULLS FIRST / NULLS LAST (0: none given).
func (s *settings) nullsFirst(desc bool, explicit int8) bool {
	switch {
	case explicit > 0:
		return true
	case explicit < 0:
		return false
	}
	switch s.nullOrder {
	case nullsFirstAlways:
		return true
	case nullsFirstOnAsc:
		return !desc
	case nullsLastOnAsc:
		return desc
	}
	return false
}

// variable is one variable's value, in the engine's representation of
// its type (what Col.get returns).
type variable struct {
	name string // as first set
	t    Type
	v    any
}

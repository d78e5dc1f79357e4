package sqlplan

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/carquet-go/carquet/sqlplan/function"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Settings that change results, with DuckDB's names and semantics: SET
// [SESSION|GLOBAL] name = value (or TO value), RESET [SESSION|GLOBAL]
// name, PRAGMA name = value, current_setting('name') and the table
// function duckdb_settings().
//
// As in DuckDB, each setting has a scope: a plain SET of a global
// setting (default_null_order, default_order, threads, memory_limit)
// changes it for every connection of the engine, a plain SET of a local
// one (integer_division, TimeZone) only for the connection's session.
// SET SESSION makes a session's own value (refused for threads and
// memory_limit, which are engine-wide only), SET GLOBAL the engine's.
//
// A statement reads the settings once, when it is planned (planner.set):
// nothing is looked up per row.

type settingScope uint8

const (
	scopeGlobal     settingScope = iota // a plain SET is global; SET SESSION allowed
	scopeLocal                          // a plain SET is the session's
	scopeGlobalOnly                     // SET SESSION refused
)

// settingDef is one setting.
type settingDef struct {
	name      string
	alias     string // another name of the same setting (worker_threads)
	desc      string
	inputType string
	scope     settingScope
	// parse checks a value and stores it in s.
	parse func(v setValue, s *plan.Settings) error
	// show is the value current_setting returns (a string, int64 or bool).
	show func(s *plan.Settings) any
	// copy copies the setting from src to dst.
	copy func(dst, src *plan.Settings)
}

// setValue is the value a SET gives: its text and whether it was a string
// literal, a number or a bare word.
type setValue struct {
	text string
	kind parse.TokenKind
}

func (d *settingDef) typ() Type {
	switch d.inputType {
	case "BIGINT":
		return plan.TInt
	case "BOOLEAN":
		return plan.TBool
	}
	return plan.TString
}

var settingDefs = []*settingDef{
	{
		name: "default_null_order", alias: "null_order", inputType: "VARCHAR", scope: scopeGlobal,
		desc: "NULL ordering used when none is specified (NULLS_FIRST or NULLS_LAST)",
		parse: func(v setValue, s *plan.Settings) error {
			switch strings.ToLower(v.text) {
			case "nulls_first", "nulls first", "first":
				s.NullOrder = plan.NullsFirstAlways
			case "nulls_last", "nulls last", "last":
				s.NullOrder = plan.NullsLastAlways
			case "nulls_first_on_asc_last_on_desc", "sqlite", "mysql":
				s.NullOrder = plan.NullsFirstOnAsc
			case "nulls_last_on_asc_first_on_desc", "postgres":
				s.NullOrder = plan.NullsLastOnAsc
			default:
				return errorf("Unrecognized parameter for option NULL_ORDER %q, expected either NULLS FIRST, NULLS LAST, SQLite, MySQL or Postgres", v.text)
			}
			return nil
		},
		show: func(s *plan.Settings) any {
			return [...]string{"NULLS_LAST", "NULLS_FIRST", "NULLS_FIRST_ON_ASC_LAST_ON_DESC", "NULLS_LAST_ON_ASC_FIRST_ON_DESC"}[s.NullOrder]
		},
		copy: func(dst, src *plan.Settings) { dst.NullOrder = src.NullOrder },
	},
	{
		name: "default_order", inputType: "VARCHAR", scope: scopeGlobal,
		desc: "The order type used when none is specified (ASC or DESC)",
		parse: func(v setValue, s *plan.Settings) error {
			switch strings.ToLower(v.text) {
			case "asc", "ascending":
				s.OrderDesc = false
			case "desc", "descending":
				s.OrderDesc = true
			default:
				return errorf("Unrecognized parameter for option DEFAULT_ORDER %q. Expected ASC or DESC.", v.text)
			}
			s.OrderSet = true
			return nil
		},
		show: func(s *plan.Settings) any {
			switch {
			case s.OrderDesc:
				return "DESC"
			case s.OrderSet:
				return "ASC"
			}
			return "ASCENDING"
		},
		copy: func(dst, src *plan.Settings) { dst.OrderDesc, dst.OrderSet = src.OrderDesc, src.OrderSet },
	},
	{
		name: "integer_division", inputType: "BOOLEAN", scope: scopeLocal,
		desc: "Whether or not the / operator defaults to integer division, or to floating point division",
		parse: func(v setValue, s *plan.Settings) error {
			b, err := settingBool(v)
			s.IntDiv = b
			return err
		},
		show: func(s *plan.Settings) any { return s.IntDiv },
		copy: func(dst, src *plan.Settings) { dst.IntDiv = src.IntDiv },
	},
	{
		name: "threads", alias: "worker_threads", inputType: "BIGINT", scope: scopeGlobalOnly,
		desc: "The number of total threads used by the system.",
		parse: func(v setValue, s *plan.Settings) error {
			n, err := settingInt(v)
			if err != nil {
				return err
			}
			if n < 1 {
				return errorf("Must have at least 1 thread!")
			}
			s.Threads = int(min(n, 1<<16))
			return nil
		},
		show: func(s *plan.Settings) any { return int64(s.Threads) },
		copy: func(dst, src *plan.Settings) { dst.Threads = src.Threads },
	},
	{
		name: "memory_limit", alias: "max_memory", inputType: "VARCHAR", scope: scopeGlobalOnly,
		desc: "The maximum memory of the system (e.g. 1GB)",
		parse: func(v setValue, s *plan.Settings) error {
			n, err := parseMemoryLimit(v.text)
			s.MemLimit = n
			return err
		},
		show: func(s *plan.Settings) any { return plan.FormatBytes(s.MemLimit) },
		copy: func(dst, src *plan.Settings) { dst.MemLimit = src.MemLimit },
	},
	{
		name: "TimeZone", inputType: "VARCHAR", scope: scopeLocal,
		desc: "The current time zone", // timezone.go
		parse: func(v setValue, s *plan.Settings) error {
			name := v.text
			if strings.EqualFold(name, "UTC") {
				name = "UTC"
			}
			loc, err := function.ZoneNamed(name)
			if err != nil {
				return errorf("Unknown TimeZone '%s'!", v.text)
			}
			s.TZName, s.TZ = name, loc
			if loc == time.UTC {
				s.TZ = nil
			}
			return nil
		},
		show: func(s *plan.Settings) any { return s.TZName },
		copy: func(dst, src *plan.Settings) { dst.TZName, dst.TZ = src.TZName, src.TZ },
	},
}

// settingNamed finds a setting by name or alias, in any case.
func settingNamed(name string) (int, bool) {
	for i, d := range settingDefs {
		if strings.EqualFold(d.name, name) || d.alias != "" && strings.EqualFold(d.alias, name) {
			return i, true
		}
	}
	return 0, false
}

// unknownSetting is DuckDB's error for a name that is no setting.
func unknownSetting(name string) *Error {
	var names []string
	for _, d := range settingDefs {
		names = append(names, d.name)
		if d.alias != "" {
			names = append(names, d.alias)
		}
	}
	return errorf("unrecognized configuration parameter %q%s", name, suggest(name, names))
}

func settingBool(v setValue) (bool, error) {
	switch strings.ToLower(v.text) {
	case "true", "t", "yes", "y", "on", "1":
		return true, nil
	case "false", "f", "no", "n", "off", "0":
		return false, nil
	}
	if v.kind == parse.Number {
		if f, err := strconv.ParseFloat(v.text, 64); err == nil {
			return f != 0, nil
		}
	}
	return false, errorf("Failed to cast value: Could not convert string '%s' to BOOL", v.text)
}

func settingInt(v setValue) (int64, error) {
	t := strings.TrimSpace(v.text)
	if n, err := strconv.ParseInt(t, 10, 64); err == nil {
		return n, nil
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && !math.IsNaN(f) && math.Abs(f) < 1<<62 {
		return int64(math.RoundToEven(f)), nil
	}
	return 0, errorf("Failed to cast value: Could not convert string '%s' to INT64", v.text)
}

// parseMemoryLimit reads a size as DuckDB does: a number and a unit
// (bytes, KB/MB/GB/TB for powers of 1000, KiB/MiB/GiB/TiB for powers of
// 1024, in any case); a negative number, "none" or "null" is no limit.
// ParseMemoryLimit parses a size as SET memory_limit takes it ('1GB',
// '512MiB', '100 KB'; 'none' or a negative size: no limit) into bytes.
func ParseMemoryLimit(s string) (uint64, error) { return parseMemoryLimit(s) }

func parseMemoryLimit(arg string) (uint64, error) {
	low := strings.ToLower(strings.TrimSpace(arg))
	if strings.HasPrefix(low, "-") || low == "none" || low == "null" {
		return math.MaxUint64, nil
	}
	i := 0
	for i < len(low) && (low[i] >= '0' && low[i] <= '9' || low[i] == '.') {
		i++
	}
	if i == 0 {
		return 0, errorf("Memory must have a number (e.g. 1GB)")
	}
	f, err := strconv.ParseFloat(low[:i], 64)
	if err != nil {
		return 0, errorf("Invalid memory limit: '%s'", low[:i])
	}
	unit := strings.TrimSpace(low[i:])
	var mult float64
	switch unit {
	case "byte", "bytes", "b":
		mult = 1
	case "kilobyte", "kilobytes", "kb", "k":
		mult = 1e3
	case "megabyte", "megabytes", "mb", "m":
		mult = 1e6
	case "gigabyte", "gigabytes", "gb", "g":
		mult = 1e9
	case "terabyte", "terabytes", "tb", "t":
		mult = 1e12
	case "kib", "kibibyte", "kibibytes":
		mult = 1 << 10
	case "mib", "mebibyte", "mebibytes":
		mult = 1 << 20
	case "gib", "gibibyte", "gibibytes":
		mult = 1 << 30
	case "tib", "tebibyte", "tebibytes":
		mult = 1 << 40
	default:
		return 0, errorf("Unknown unit for memory: '%s' (expected: KB, MB, GB, TB for 1000^i units or KiB, MiB, GiB, TiB for 1024^i units)", unit)
	}
	if v := f * mult; v < math.MaxUint64 {
		return uint64(v), nil
	}
	return math.MaxUint64, nil
}

// defaultSettings are an engine's settings before any SET.
func defaultSettings(opts Options) plan.Settings {
	return plan.Settings{Threads: opts.Threads, MemLimit: defaultMemoryLimit(opts), TZName: "UTC"}
}

// defaultMemoryLimit is the memory limit configured, else the scan memory
// limit when one is, else no limit: a library shares its process with the
// program around it, whose own memory it does not see, and counts the
// large structures of its operators only (memory.go), so a default drawn
// from the machine's RAM (DuckDB takes 80% of it) would be a guess; the
// Go runtime's GOMEMLIMIT is the process-wide bound.
func defaultMemoryLimit(opts Options) uint64 {
	if opts.MemoryLimit > 0 {
		return opts.MemoryLimit
	}
	if opts.Limits.MaxScanMemory > 0 {
		return uint64(opts.Limits.MaxScanMemory)
	}
	return math.MaxUint64
}

// Session holds one connection's own settings (SET SESSION, and a plain
// SET of integer_division or TimeZone). It is used by one statement at a
// time, as a database/sql connection is.
type Session struct {
	e    *Engine
	mu   sync.Mutex
	mask uint64 // the settings (bits by settingDefs index) the session has its own value of
	vals plan.Settings
	vars map[string]*plan.Variable // by lower-case name; replaced, never changed (variables.go)
	// prepared are the statements PREPARE kept, by lower-case name
	// (session_stmts.go).
	prepared map[string]*Stmt
	// id and rng: current_connection_id() and the random numbers setseed
	// seeds (funcs_session.go).
	id  uint64
	rng *plan.SessionRand
	// closed: Close was called (duckdb_connection_count(), systables.go).
	closed atomic.Bool
}

// NewSession returns a session of the engine with no settings of its own.
func (e *Engine) NewSession() *Session {
	e.openSessions.Add(1)
	return &Session{e: e, id: plan.LastConnectionID.Add(1), rng: &plan.SessionRand{}}
}

// settingsFor is what a statement of session sess (nil: the engine's own
// session) runs with: the session's values over the engine's.
func (e *Engine) settingsFor(sess *Session) plan.Settings {
	if sess == nil {
		sess = e.sess0
	}
	e.setMu.Lock()
	s := e.global
	e.setMu.Unlock()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	for i, d := range settingDefs {
		if sess.mask&(1<<i) != 0 {
			d.copy(&s, &sess.vals)
		}
	}
	s.Local = sess.mask
	s.Vars = sess.vars
	s.ConnID, s.Rng = sess.id, sess.rng
	s.QueryID = plan.LastQueryID.Add(1)
	return s
}

// settingsTable is the table name duckdb_settings() becomes.
const settingsTable = "duckdb_settings()"

// setSpec is a SET or RESET statement.
type setSpec struct {
	def   int
	scope string // "", "session" or "global"
	reset bool
	val   setValue
	pos   int // of the value, for errors
	// variable is the name of SET/RESET VARIABLE (variables.go), expr the
	// text of its value.
	variable string
	expr     string
}

// prepareSet reads SET [SESSION|GLOBAL] name (=|TO) value,
// RESET [SESSION|GLOBAL] name and PRAGMA name = value / name(value).
func (e *Engine) prepareSet(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	fail := func(i int, format string, args ...any) error {
		return errAt(text, parse.TokPos(text, toks, i), format, args...)
	}
	verb := strings.ToLower(toks[0].Text)
	spec := &setSpec{reset: verb == "reset"}
	i := 1
	if verb != "pragma" && i < len(toks) && toks[i].Kind == parse.Ident {
		switch w := strings.ToLower(toks[i].Text); w {
		case "session", "global":
			spec.scope = w
			i++
		case "local":
			e := errAt(text, toks[i].Pos, "SET LOCAL is not supported")
			e.Err = ErrUnsupported
			return nil, e
		case "variable":
			if verb != "pragma" {
				return prepareSetVariable(s, text, toks, i+1, spec.reset)
			}
		}
	}
	if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
		return nil, fail(i, "%s takes the name of a setting", strings.ToUpper(verb))
	}
	name := toks[i].Name()
	nameAt := i
	i++
	op := func(k int, s string) bool { return k < len(toks) && toks[k].Kind == parse.Op && toks[k].Text == s }
	var valToks []parse.Token
	switch {
	case spec.reset:
		if i < len(toks) {
			return nil, fail(i, "RESET takes one setting name")
		}
	case verb == "pragma" && op(i, "("):
		k := parse.ClosingParen(toks, i)
		if k != len(toks)-1 {
			return nil, fail(i, "PRAGMA %s(...) takes one value", name)
		}
		valToks = toks[i+1 : k]
	case op(i, "=") || verb == "set" && i < len(toks) && toks[i].Is("to"):
		valToks = toks[i+1:]
	case verb == "pragma" && i == len(toks):
		e := errAt(text, toks[0].Pos, "PRAGMA %s is not supported", name)
		e.Err = ErrUnsupported
		return nil, e
	default:
		return nil, fail(i, "expected = or TO after %s %s", strings.ToUpper(verb), name)
	}
	def, ok := settingNamed(name)
	if !ok {
		if verb == "pragma" && !op(nameAt+1, "=") {
			e := errAt(text, toks[0].Pos, "PRAGMA %s is not supported", name)
			e.Err = ErrUnsupported
			return nil, e
		}
		err := unknownSetting(name)
		err.Offset = toks[nameAt].Pos
		err.Line, err.Column = parse.LineCol(text, err.Offset)
		return nil, err
	}
	spec.def = def
	if !spec.reset {
		if len(valToks) > 0 {
			spec.pos = valToks[0].Pos
		}
		sign := ""
		if len(valToks) == 2 && valToks[0].Kind == parse.Op && (valToks[0].Text == "-" || valToks[0].Text == "+") && valToks[1].Kind == parse.Number {
			sign, valToks = valToks[0].Text, valToks[1:]
		}
		if len(valToks) != 1 || valToks[0].Kind != parse.String && valToks[0].Kind != parse.Number && valToks[0].Kind != parse.Ident && valToks[0].Kind != parse.DQuoted {
			return nil, fail(min(i+1, len(toks)), "%s %s takes one value: a string, a number or a word", strings.ToUpper(verb), name)
		}
		spec.val = setValue{text: sign + valToks[0].Unquoted(), kind: valToks[0].Kind}
		// The value is checked now, so that a bad one fails at Prepare.
		var probe plan.Settings
		if err := settingDefs[def].parse(spec.val, &probe); err != nil {
			return nil, fail(min(i+1, len(toks)-1), "%s", err.(*Error).Msg)
		}
	}
	if spec.scope == "session" && settingDefs[def].scope == scopeGlobalOnly {
		return nil, fail(nameAt, "option %q cannot be set locally", settingDefs[def].name)
	}
	s.kind, s.set = kindSet, spec
	return s, nil
}

// execSet runs a SET or RESET in session sess (nil: the engine's own).
func (e *Engine) execSet(spec *setSpec, sess *Session) error {
	if sess == nil {
		sess = e.sess0
	}
	d := settingDefs[spec.def]
	session := spec.scope == "session" || spec.scope == "" && d.scope == scopeLocal
	if spec.reset {
		if session {
			sess.mu.Lock()
			sess.mask &^= 1 << spec.def
			sess.mu.Unlock()
			return nil
		}
		e.setMu.Lock()
		d.copy(&e.global, &e.defaults)
		e.setMu.Unlock()
		return nil
	}
	if session {
		sess.mu.Lock()
		defer sess.mu.Unlock()
		if err := d.parse(spec.val, &sess.vals); err != nil {
			return err
		}
		sess.mask |= 1 << spec.def
		return nil
	}
	e.setMu.Lock()
	defer e.setMu.Unlock()
	return d.parse(spec.val, &e.global)
}

// settingsRelation is duckdb_settings(): a row per setting (and per
// alias, as DuckDB lists them) with its value for the statement.
func settingsRelation(p *plan.Planner, alias string) *plan.Relation {
	if alias == "" {
		alias = "duckdb_settings"
	}
	type row struct {
		d     *settingDef
		name  string
		local bool
	}
	var rows []row
	for i, d := range settingDefs {
		local := p.Set.Local&(1<<i) != 0
		rows = append(rows, row{d, d.name, local})
		if d.alias != "" {
			rows = append(rows, row{d, d.alias, local})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.name, b.name) })
	text := make([][]string, len(rows))
	for i, r := range rows {
		scope := "GLOBAL"
		if r.local {
			scope = "LOCAL"
		}
		text[i] = []string{r.name, fmt.Sprint(r.d.show(&p.Set)), r.d.desc, r.d.inputType, scope}
	}
	return stringsRelation(alias, []string{"name", "value", "description", "input_type", "scope"}, text, "DUCKDB_SETTINGS()")
}

// stringsRelation is a relation of VARCHAR columns named names with the
// given rows, shown as what in EXPLAIN.
func stringsRelation(alias string, names []string, rows [][]string, what string) *plan.Relation {
	var data []*plan.ColBuilder
	var cols []Column
	for _, n := range names {
		cols = append(cols, Column{Name: n, Type: plan.TString, Nullable: true})
		data = append(data, plan.NewBuilder(plan.TString, len(rows)))
	}
	for _, r := range rows {
		for i, s := range r {
			data[i].Add(s)
		}
	}
	b := &Batch{N: len(rows)}
	for _, d := range data {
		b.Cols = append(b.Cols, d.C)
	}
	rel := &plan.Relation{Alias: alias, Sub: &plan.SelectPlan{Root: &kernels.Const{Batches: []*Batch{b}, What: what}, Cols: cols}}
	for i, c := range cols {
		rel.Cols = append(rel.Cols, &plan.ScopeCol{Rel: rel, Name: c.Name, T: c.Type, Slot: &plan.Slot{}, Local: i})
	}
	return rel
}

// ExecSession is Exec with the settings of session sess (nil: the
// engine's own session).
func (s *Stmt) ExecSession(ctx context.Context, args []Arg, tx *Tx, sess *Session) (Result, error) {
	return s.exec(ctx, args, tx, sess)
}

// QuerySession is QueryTx with the settings of session sess (nil: the
// engine's own session).
func (s *Stmt) QuerySession(ctx context.Context, args []Arg, tx *Tx, sess *Session) (*Rows, error) {
	return s.queryTx(ctx, args, tx, sess)
}

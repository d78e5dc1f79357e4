package sqlplan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// duckdb_prepared_statements(): the statements PREPARE kept in the
// asking connection's session, with DuckDB's columns. A statement's text
// is as written after AS (DuckDB shows its own rendering of it); its
// parameters are UNKNOWN, as DuckDB lists untyped ones, since carquet
// types them with each EXECUTE's arguments; its result types are NULL, as
// DuckDB's are when they depend on the parameters, since carquet plans
// the statement only when it runs.

func init() {
	systemFunctions["duckdb_prepared_statements"] = duckdbPreparedStatements
	parse.CatalogFunctions["duckdb_prepared_statements"] = true
}

// duckdbPreparedStatements lists the session's prepared statements by
// name.
func duckdbPreparedStatements(p *plan.Planner, c *plan.CatalogRows) error {
	name, text := c.Col("name", plan.TString), c.Col("statement", plan.TString)
	params, results := c.Col("parameter_types", tStringList), c.Col("result_types", tStringList)
	sess := stmtOf(p).sess
	if sess == nil {
		sess = stmtOf(p).e.sess0
	}
	sess.mu.Lock()
	names := make([]string, 0, len(sess.prepared))
	for n := range sess.prepared {
		names = append(names, n)
	}
	slices.Sort(names)
	stmts := make([]*Stmt, len(names))
	for i, n := range names {
		stmts[i] = sess.prepared[n]
	}
	sess.mu.Unlock()
	for i, st := range stmts {
		name.Add(names[i])
		text.Add(preparedText(st))
		types := make([]any, paramCount(st))
		for k := range types {
			types[k] = "UNKNOWN"
		}
		params.Add(types)
		results.Add(nil)
	}
	c.N = len(stmts)
	return nil
}

// preparedText is the text of a prepared statement as PREPARE gave it:
// the statement's text from its first token (its source is the whole
// PREPARE).
func preparedText(st *Stmt) string {
	if st.Src == nil || len(st.Src.Toks) == 0 {
		return ""
	}
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(st.Src.Orig[st.Src.Toks[0].Pos:]), ";"))
}

// paramCount is the number of parameters of a prepared statement: its
// ? placeholders, or its largest $n, and one per distinct :name.
func paramCount(st *Stmt) int {
	if st.Src == nil {
		return 0
	}
	var marks, numbered int
	named := map[string]bool{}
	for _, t := range st.Src.Toks {
		if t.Kind != parse.Param {
			continue
		}
		switch {
		case t.Text == "?":
			marks++
		case strings.HasPrefix(t.Text, "$"):
			if n, err := strconv.Atoi(t.Text[1:]); err == nil {
				numbered = max(numbered, n)
			}
		default:
			named[strings.ToLower(t.Text)] = true
		}
	}
	return max(marks, numbered) + len(named)
}

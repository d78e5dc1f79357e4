package sqlplan

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/plan"
)

// The logical nodes of the writes: INSERT, UPDATE, DELETE and MERGE are
// one lWrite each, over the plan of the rows they write or match (the
// query's optimized tree for INSERT ... SELECT, an lValues for INSERT ...
// VALUES, the read of the target for UPDATE and DELETE, an lMergeJoin
// for MERGE). The node names what the write does to which table, so that
// EXPLAIN shows it (explain_dml.go); the rows are written by the write
// paths (write.go, dml.go, merge_exec.go and the table kinds' files).

// lWrite is a write into one table.
type lWrite struct {
	verb  string // INSERT INTO, UPDATE, DELETE FROM, MERGE INTO
	table string
	// kind is the table's kind: file, folder, hive, Delta or temp; path
	// its place, relative to the engine's root ("" for temp tables,
	// whose folder is the engine's own).
	kind, path string
	// cols are INSERT's columns, or UPDATE's SET as col = expr.
	cols  []string
	where string // UPDATE and DELETE's WHERE ("" without)
	// clauses are MERGE's WHEN clauses.
	clauses []string
	// conflict is INSERT's conflict rule (ON CONFLICT DO NOTHING, OR
	// REPLACE, ON CONFLICT DO UPDATE SET ...), "" without.
	conflict  string
	returning string
	// checks are the constraints checked on the rows written.
	checks []string
	in     plan.LNode // nil when the rows' plan is not shown
}

func (n *lWrite) Inputs() []plan.LNode {
	if n.in == nil {
		return nil
	}
	return []plan.LNode{n.in}
}

func (n *lWrite) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s [%s", n.verb, n.table, n.kind)
	if n.path != "" {
		fmt.Fprintf(&b, " %s", n.path)
	}
	b.WriteByte(']')
	switch {
	case n.verb == "UPDATE" && len(n.cols) > 0:
		fmt.Fprintf(&b, " set: %s", strings.Join(n.cols, ", "))
	case len(n.cols) > 0:
		fmt.Fprintf(&b, " columns: %s", strings.Join(n.cols, ", "))
	}
	if n.where != "" {
		fmt.Fprintf(&b, " where: %s", n.where)
	}
	if len(n.clauses) > 0 {
		fmt.Fprintf(&b, " %s", strings.Join(n.clauses, ", "))
	}
	if n.conflict != "" {
		fmt.Fprintf(&b, " %s", n.conflict)
	}
	if n.returning != "" {
		fmt.Fprintf(&b, " returning: %s", n.returning)
	}
	if len(n.checks) > 0 {
		fmt.Fprintf(&b, " checks: %s", strings.Join(n.checks, ", "))
	}
	return b.String()
}

// lValues is the rows of INSERT ... VALUES (or DEFAULT VALUES).
type lValues struct {
	rows     int
	defaults bool
}

func (lValues) Inputs() []plan.LNode { return nil }

func (n lValues) Explain() string {
	if n.defaults {
		return "DEFAULT VALUES 1 row"
	}
	if n.rows == 1 {
		return "VALUES 1 row"
	}
	return fmt.Sprintf("VALUES %d rows", n.rows)
}

// lMergeJoin pairs MERGE's target rows with its source rows: the source
// is read into memory and indexed by ON's equalities, and the target's
// rows stream through it (merge_exec.go).
type lMergeJoin struct {
	on             string
	target, source plan.LNode
}

func (n *lMergeJoin) Inputs() []plan.LNode {
	var ins []plan.LNode
	for _, in := range []plan.LNode{n.target, n.source} {
		if in != nil {
			ins = append(ins, in)
		}
	}
	return ins
}

func (n *lMergeJoin) Explain() string { return "MERGE JOIN " + n.on }

// newWrite is the write node of verb into the table tgt, its kind and
// its checks filled in.
func (e *Engine) newWrite(verb string, tgt *target) *lWrite {
	w := &lWrite{verb: verb, table: tgt.name, checks: checksOf(tgt)}
	w.kind = "file"
	switch {
	case tgt.delta != nil:
		w.kind = "Delta"
	case e.isTempPath(tgt.path):
		w.kind = "temp"
	case tgt.parts > 0:
		w.kind = "hive"
	case tgt.folder:
		w.kind = "folder"
	}
	if w.kind != "temp" {
		// A transaction writes a staged copy of the table: the table's
		// own place is shown.
		w.path = tgt.path
		if p, ok, err := e.tablePath(tgt.name); err == nil && ok {
			w.path = p
		}
		if r, err := filepath.Rel(e.root, w.path); err == nil && !strings.HasPrefix(r, "..") {
			w.path = filepath.ToSlash(r)
		}
	}
	return w
}

// checksOf lists the checks a write into tgt runs on its rows: NOT NULL
// columns, keys, CHECK constraints and foreign keys.
func checksOf(tgt *target) []string {
	var out []string
	var notNull []string
	for _, f := range tgt.fields {
		if !f.Nullable {
			notNull = append(notNull, f.Name)
		}
	}
	if len(notNull) > 0 {
		out = append(out, "NOT NULL ("+strings.Join(notNull, ", ")+")")
	}
	con := constraintsOf(tgt.opts)
	if con.primary != nil {
		out = append(out, "PRIMARY KEY ("+strings.Join(con.primary, ", ")+")")
	}
	for _, u := range con.unique {
		out = append(out, "UNIQUE ("+strings.Join(u, ", ")+")")
	}
	for _, c := range con.checks {
		out = append(out, "CHECK ("+c+")")
	}
	for _, fk := range con.foreign {
		out = append(out, "FOREIGN KEY ("+strings.Join(fk.cols, ", ")+") REFERENCES "+fk.table)
	}
	return out
}

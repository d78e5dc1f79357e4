package sqlplan

import (
	"context"
	"io"
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// Variables, as DuckDB has them: SET VARIABLE name = expression stores the
// expression's value in the connection's session, getvariable('name')
// reads it (NULL when unset), RESET VARIABLE name forgets it, and the
// table function duckdb_variables() lists them. Names are
// case-insensitive. A statement reads the variables once, when it is
// planned, as it reads the settings: getvariable is a constant.

// variablesTable is the table name duckdb_variables() becomes.
const variablesTable = "duckdb_variables()"

// prepareSetVariable reads the rest of SET VARIABLE name (=|TO) expr or
// RESET VARIABLE name; toks[i] is the token after VARIABLE.
func prepareSetVariable(s *Stmt, text string, toks []parse.Token, i int, reset bool) (*Stmt, error) {
	verb := "SET"
	if reset {
		verb = "RESET"
	}
	if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
		return nil, errAt(text, parse.TokPos(text, toks, i), "%s VARIABLE takes the name of a variable", verb)
	}
	spec := &setSpec{reset: reset, variable: toks[i].Name()}
	i++
	switch {
	case reset:
		if i < len(toks) {
			return nil, errAt(text, toks[i].Pos, "RESET VARIABLE takes one variable name")
		}
	case i < len(toks) && (toks[i].Kind == parse.Op && toks[i].Text == "=" || toks[i].Is("to")):
		if i+1 >= len(toks) {
			return nil, errAt(text, len(text), "SET VARIABLE %s needs a value", spec.variable)
		}
		spec.pos = toks[i+1].Pos
		spec.expr = strings.TrimRight(strings.TrimSpace(text[spec.pos:]), ";")
	default:
		return nil, errAt(text, parse.TokPos(text, toks, i), "expected = or TO after SET VARIABLE %s", spec.variable)
	}
	s.kind, s.set = kindSet, spec
	return s, nil
}

// execVariable runs SET VARIABLE or RESET VARIABLE in session sess (nil:
// the engine's own). The value is the expression evaluated as a SELECT
// with the statement's arguments, in its transaction.
func (e *Engine) execVariable(ctx context.Context, spec *setSpec, args []Arg, tx *Tx, sess *Session) error {
	if sess == nil {
		sess = e.sess0
	}
	key := strings.ToLower(spec.variable)
	if spec.reset {
		sess.setVariable(key, nil)
		return nil
	}
	v, err := e.evalOneValue(ctx, spec.expr, args, tx, sess)
	if err != nil {
		return err
	}
	v.Name = spec.variable
	sess.setVariable(key, v)
	return nil
}

// evalOneValue evaluates expr as SELECT expr: one column, at most one row
// (none is NULL).
func (e *Engine) evalOneValue(ctx context.Context, expr string, args []Arg, tx *Tx, sess *Session) (*plan.Variable, error) {
	st, err := e.PrepareTx(ctx, "SELECT "+expr, tx)
	if err != nil {
		return nil, err
	}
	rows, err := st.QuerySession(ctx, args, tx, sess)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out *plan.Variable
	for {
		b, err := rows.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b.Cols) != 1 {
			return nil, errorf("SET VARIABLE takes one value, not %d columns", len(b.Cols))
		}
		if b.N == 0 {
			continue
		}
		if out != nil || b.N > 1 {
			return nil, errorf("SET VARIABLE: the value is more than one row")
		}
		c := b.Cols[0]
		out = &plan.Variable{T: c.T, V: c.Get(0)}
	}
	if out == nil {
		cols := rows.Columns()
		out = &plan.Variable{T: cols[0].Type}
	}
	return out, nil
}

// setVariable sets (v non-nil) or forgets a variable of the session. The
// map is replaced, never changed, so that the settings a statement took
// keep the variables as they were.
func (s *Session) setVariable(key string, v *plan.Variable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	vars := make(map[string]*plan.Variable, len(s.vars)+1)
	for k, x := range s.vars {
		vars[k] = x
	}
	if v == nil {
		delete(vars, key)
	} else {
		vars[key] = v
	}
	s.vars = vars
}

// variablesRelation is duckdb_variables(): a row per variable of the
// statement's session, with its value as text and its type, by name.
func variablesRelation(p *plan.Planner, alias string) *plan.Relation {
	if alias == "" {
		alias = "duckdb_variables"
	}
	vars := make([]*plan.Variable, 0, len(p.Set.Vars))
	for _, v := range p.Set.Vars {
		vars = append(vars, v)
	}
	slices.SortFunc(vars, func(a, b *plan.Variable) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	})
	rows := make([][]string, len(vars))
	for i, v := range vars {
		text := "NULL"
		if v.V != nil {
			// As CAST(value AS VARCHAR) writes it (nested values too).
			if c, err := plan.CastCol(plan.ConstCol(v.T, v.V, 1), plan.TString); err == nil {
				text, _ = c.Get(0).(string)
			} else {
				text = plan.FormatScalar(v.T, v.V)
			}
		}
		rows[i] = []string{v.Name, text, v.T.SQLName()}
	}
	return stringsRelation(alias, []string{"name", "value", "type"}, rows, "DUCKDB_VARIABLES()")
}

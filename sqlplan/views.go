package sqlplan

import (
	"context"
	"strings"
)

// Views: CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW name AS query and
// DROP VIEW [IF EXISTS] name. A view is its query's tokens, and every
// statement prepared after it has its references to the view (after FROM,
// JOIN or a comma of a FROM list) replaced by the query as a derived
// table, like a CTE; views in the query were replaced when it was
// created. A view is kept with the folder's catalog (catalogfile.go), so
// that it lasts across engines; a TEMP view lasts as long as the engine
// (the sql.DB), and hides a kept view of its name.

type view struct {
	name string
	toks []token
	temp bool
}

// parseView reads CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name
// [(columns)] AS query; ok is false for another CREATE. s gets OR
// REPLACE, TEMP and IF NOT EXISTS.
func parseView(s *Stmt, text string, toks []token) (*view, bool, error) {
	i := 1
	if i+1 < len(toks) && toks[i].is("or") && toks[i+1].is("replace") {
		s.replace = true
		i += 2
	}
	temp := false
	if i+1 < len(toks) && (toks[i].is("temp") || toks[i].is("temporary")) && toks[i+1].is("view") {
		temp = true
		i++
	}
	if i >= len(toks) || !toks[i].is("view") {
		return nil, false, nil
	}
	i++
	if i+1 < len(toks) && toks[i].is("if") && toks[i+1].is("not") {
		if i+2 >= len(toks) || !toks[i+2].is("exists") {
			return nil, true, errAt(text, toks[i].pos, "expected IF NOT EXISTS")
		}
		s.ifMod = true
		i += 3
	}
	if i >= len(toks) || toks[i].kind != tkIdent && toks[i].kind != tkQuoted && toks[i].kind != tkDQuoted {
		return nil, true, errAt(text, tokPos(text, toks, i), "expected the name of the view")
	}
	name := tableToken(toks[i])
	i++
	var cols []token // the view's column list, with its parentheses
	if i < len(toks) && toks[i].kind == tkOp && toks[i].text == "(" {
		k := closingParen(toks, i)
		if k < 0 || k == i+1 {
			return nil, true, errAt(text, toks[i].pos, "expected the view's column names")
		}
		cols = toks[i : k+1]
		i = k + 1
	}
	if i >= len(toks) || !toks[i].is("as") || i+1 >= len(toks) {
		return nil, true, errAt(text, tokPos(text, toks, i), "expected AS and a query after the view's name")
	}
	body := toks[i+1:]
	if cols != nil {
		// CREATE VIEW v (a, b) AS q is the view SELECT * FROM (q) AS v (a, b).
		at := body[0].pos
		head := []token{{kind: tkIdent, text: "select", pos: at}, {kind: tkOp, text: "*", pos: at}, {kind: tkIdent, text: "from", pos: at}, {kind: tkOp, text: "(", pos: at}}
		tail := []token{{kind: tkOp, text: ")", pos: at}, {kind: tkIdent, text: "as", pos: at}, {kind: tkIdent, text: "v", pos: at}}
		body = append(append(append(head, body...), tail...), cols...)
	}
	s.temp = temp
	return &view{name: name, toks: body, temp: temp}, true, nil
}

// definition is the CREATE VIEW statement that makes the view again.
func (v *view) definition() string {
	return "CREATE VIEW " + quoteIdent(v.name) + " AS " + tokText("", v.toks)
}

// prepareView prepares CREATE [OR REPLACE] [TEMP] VIEW; ok is false for
// another CREATE.
func (e *Engine) prepareView(ctx context.Context, s *Stmt, text string, toks []token) (*Stmt, bool, error) {
	v, ok, err := parseView(s, text, toks)
	if !ok || err != nil {
		return nil, ok, err
	}
	// The query must be one: prepare it now, as DuckDB checks it.
	q, err := e.prepareTokens(ctx, text, v.toks)
	if err != nil {
		return nil, true, err
	}
	if q.kind != kindSelect && q.kind != kindSetOp {
		return nil, true, errAt(text, v.toks[0].pos, "a view is a query")
	}
	s.kind, s.table = kindCreateView, v.name
	s.view = v
	return s, true, nil
}

// prepareDropView prepares DROP VIEW [IF EXISTS] name.
func (e *Engine) prepareDropView(s *Stmt, text string, toks []token) (*Stmt, error) {
	k := 2
	if k+1 < len(toks) && toks[k].is("if") && toks[k+1].is("exists") {
		s.ifMod = true
		k += 2
	}
	if len(toks) != k+1 {
		return nil, errAt(text, tokPos(text, toks, min(k, len(toks))), "DROP VIEW takes one view name")
	}
	s.kind, s.table = kindDropView, tableToken(toks[k])
	return s, nil
}

// execView runs CREATE VIEW and DROP VIEW. Prepared statements are
// forgotten: those naming the view must be prepared again.
func (e *Engine) execView(s *Stmt) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	key := strings.ToLower(s.table)
	switch s.kind {
	case kindCreateView:
		views := &e.views
		if s.temp {
			views = &e.tempViews
		} else if err := e.refreshCatalogLocked(); err != nil {
			return Result{}, err
		}
		old, exists := (*views)[key]
		if exists && !s.replace {
			if s.ifMod {
				return Result{}, nil
			}
			return Result{}, errorf("view %q already exists (use CREATE OR REPLACE VIEW)", s.table)
		}
		if *views == nil {
			*views = map[string]*view{}
		}
		(*views)[key] = s.view
		if !s.temp {
			if err := e.saveCatalogLocked(); err != nil {
				if exists {
					e.views[key] = old
				} else {
					delete(e.views, key)
				}
				return Result{}, err
			}
		}
	case kindDropView:
		if _, ok := e.tempViews[key]; ok {
			delete(e.tempViews, key)
			break
		}
		if err := e.refreshCatalogLocked(); err != nil {
			return Result{}, err
		}
		old, exists := e.views[key]
		if !exists {
			if s.ifMod {
				return Result{}, nil
			}
			err := errorf("view %q does not exist", s.table)
			err.Err = ErrNoTable
			return Result{}, err
		}
		delete(e.views, key)
		if err := e.saveCatalogLocked(); err != nil {
			e.views[key] = old
			return Result{}, err
		}
	}
	clear(e.stmts)
	return Result{}, nil
}

// substituteViews replaces the references to views in a statement's
// tokens (a temporary view before a kept one of its name).
func (e *Engine) substituteViews(toks []token) []token {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.views) == 0 && len(e.tempViews) == 0 {
		return toks
	}
	m := make(map[string][]token, len(e.views)+len(e.tempViews))
	for _, views := range []map[string]*view{e.views, e.tempViews} {
		for k, v := range views {
			m[k] = parenthesized(v.toks, v.toks[0].pos)
		}
	}
	return substituteCTEs(toks, m)
}

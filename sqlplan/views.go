package sqlplan

import (
	"context"
	"maps"
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
	if !(s.kind == kindCreateView && s.temp) {
		if err := e.refreshCatalogLocked(); err != nil {
			return Result{}, err
		}
	}
	kept, temp := maps.Clone(e.views), maps.Clone(e.tempViews)
	keptChanged, err := applyView(&kept, &temp, s)
	if err != nil {
		return Result{}, err
	}
	old := e.views
	e.views, e.tempViews = kept, temp
	if keptChanged {
		if err := e.saveCatalogLocked(); err != nil {
			e.views = old
			return Result{}, err
		}
	}
	clear(e.stmts)
	return Result{}, nil
}

// applyView applies CREATE VIEW or DROP VIEW s to the kept and temporary
// views, and reports whether it changed the kept ones.
func applyView(kept, temp *map[string]*view, s *Stmt) (keptChanged bool, err error) {
	key := strings.ToLower(s.table)
	switch s.kind {
	case kindCreateView:
		views := kept
		if s.temp {
			views = temp
		}
		if _, exists := (*views)[key]; exists && !s.replace {
			if s.ifMod {
				return false, nil
			}
			return false, errorf("view %q already exists (use CREATE OR REPLACE VIEW)", s.table)
		}
		if *views == nil {
			*views = map[string]*view{}
		}
		(*views)[key] = s.view
		return !s.temp, nil
	case kindDropView:
		if _, ok := (*temp)[key]; ok {
			delete(*temp, key)
			return false, nil
		}
		if _, exists := (*kept)[key]; !exists {
			if s.ifMod {
				return false, nil
			}
			err := errorf("view %q does not exist", s.table)
			err.Err = ErrNoTable
			return false, err
		}
		delete(*kept, key)
		return true, nil
	}
	return false, nil
}

// viewsIn returns the views as a transaction that ran the CREATE and
// DROP VIEWs ops sees them: the engine's, with ops applied; e.mu is held.
func (e *Engine) viewsIn(ops []*Stmt) (kept, temp map[string]*view, err error) {
	kept, temp = e.views, e.tempViews
	if len(ops) == 0 {
		return kept, temp, nil
	}
	kept, temp = maps.Clone(kept), maps.Clone(temp)
	for _, s := range ops {
		if _, err := applyView(&kept, &temp, s); err != nil {
			return nil, nil, err
		}
	}
	return kept, temp, nil
}

// substituteViews replaces the references to views in a statement's
// tokens (a temporary view before a kept one of its name), as
// transaction tx (nil: none) sees the views.
func (e *Engine) substituteViews(toks []token, tx *Tx) ([]token, error) {
	ops := tx.viewStmts()
	e.mu.Lock()
	defer e.mu.Unlock()
	kept, temp, err := e.viewsIn(ops)
	if err != nil {
		return nil, err
	}
	if len(kept) == 0 && len(temp) == 0 {
		return toks, nil
	}
	m := make(map[string][]token, len(kept)+len(temp))
	for _, views := range []map[string]*view{kept, temp} {
		for k, v := range views {
			m[k] = parenthesized(v.toks, v.toks[0].pos)
		}
	}
	return substituteCTEs(toks, m), nil
}

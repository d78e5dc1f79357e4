package sqlplan

import (
	"context"
	"maps"
	"sort"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
)

// Views: CREATE [OR REPLACE] [TEMP|TEMPORARY] VIEW name AS query and
// DROP VIEW [IF EXISTS] name. A view is its query's tokens, and every
// statement prepared after it has its references to the view (after FROM,
// JOIN or a comma of a FROM list) replaced by the query as a derived
// table, like a CTE; the views its query reads are replaced in turn, as
// they are when the statement is prepared (DuckDB binds a view's query
// when it is used). A view is kept with the folder's catalog (catalogfile.go), so
// that it lasts across engines; a TEMP view lasts as long as the engine
// (the sql.DB), and hides a kept view of its name.

type view struct {
	name string
	toks []parse.Token
	temp bool
}

// parseView reads CREATE [OR REPLACE] [TEMP] VIEW [IF NOT EXISTS] name
// [(columns)] AS query; ok is false for another CREATE. s gets OR
// REPLACE, TEMP and IF NOT EXISTS.
func parseView(s *Stmt, text string, toks []parse.Token) (*view, bool, error) {
	i := 1
	if i+1 < len(toks) && toks[i].Is("or") && toks[i+1].Is("replace") {
		s.replace = true
		i += 2
	}
	temp := false
	if i+1 < len(toks) && (toks[i].Is("temp") || toks[i].Is("temporary")) && toks[i+1].Is("view") {
		temp = true
		i++
	}
	if i >= len(toks) || !toks[i].Is("view") {
		return nil, false, nil
	}
	i++
	if i+1 < len(toks) && toks[i].Is("if") && toks[i+1].Is("not") {
		if i+2 >= len(toks) || !toks[i+2].Is("exists") {
			return nil, true, errAt(text, toks[i].Pos, "expected IF NOT EXISTS")
		}
		s.ifMod = true
		i += 3
	}
	if i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.Quoted && toks[i].Kind != parse.DQuoted {
		return nil, true, errAt(text, parse.TokPos(text, toks, i), "expected the name of the view")
	}
	name := toks[i].Name()
	i++
	var cols []parse.Token // the view's column list, with its parentheses
	if i < len(toks) && toks[i].Kind == parse.Op && toks[i].Text == "(" {
		k := parse.ClosingParen(toks, i)
		if k < 0 || k == i+1 {
			return nil, true, errAt(text, toks[i].Pos, "expected the view's column names")
		}
		cols = toks[i : k+1]
		i = k + 1
	}
	if i >= len(toks) || !toks[i].Is("as") || i+1 >= len(toks) {
		return nil, true, errAt(text, parse.TokPos(text, toks, i), "expected AS and a query after the view's name")
	}
	body := toks[i+1:]
	if cols != nil {
		// CREATE VIEW v (a, b) AS q is the view SELECT * FROM (q) AS v (a, b).
		at := body[0].Pos
		head := []parse.Token{{Kind: parse.Ident, Text: "select", Pos: at}, {Kind: parse.Op, Text: "*", Pos: at}, {Kind: parse.Ident, Text: "from", Pos: at}, {Kind: parse.Op, Text: "(", Pos: at}}
		tail := []parse.Token{{Kind: parse.Op, Text: ")", Pos: at}, {Kind: parse.Ident, Text: "as", Pos: at}, {Kind: parse.Ident, Text: "v", Pos: at}}
		body = append(append(append(head, body...), tail...), cols...)
	}
	s.temp = temp
	return &view{name: name, toks: body, temp: temp}, true, nil
}

// definition is the CREATE VIEW statement that makes the view again.
func (v *view) definition() string {
	return "CREATE VIEW " + parse.SQLIdent(v.name) + " AS " + parse.SpacedText(v.toks)
}

// prepareView prepares CREATE [OR REPLACE] [TEMP] VIEW; ok is false for
// another CREATE.
func (e *Engine) prepareView(ctx context.Context, s *Stmt, text string, toks []parse.Token) (*Stmt, bool, error) {
	v, ok, err := parseView(s, text, toks)
	if !ok || err != nil {
		return nil, ok, err
	}
	// The query must be one: prepare it now, as DuckDB checks it, with
	// the views it reads as they are now; it keeps their names.
	checked, err := e.substituteViews(v.toks, viewsOf(ctx))
	if err != nil {
		return nil, true, err
	}
	q, err := e.prepareTokens(ctx, text, checked)
	if err != nil {
		return nil, true, err
	}
	if q.kind != kindSelect && q.kind != kindSetOp {
		return nil, true, errAt(text, v.toks[0].Pos, "a view is a query")
	}
	s.kind, s.table = kindCreateView, v.name
	s.view = v
	return s, true, nil
}

// prepareDropView prepares DROP VIEW [IF EXISTS] name.
func (e *Engine) prepareDropView(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	k := 2
	if k+1 < len(toks) && toks[k].Is("if") && toks[k+1].Is("exists") {
		s.ifMod = true
		k += 2
	}
	if len(toks) != k+1 {
		return nil, errAt(text, parse.TokPos(text, toks, min(k, len(toks))), "DROP VIEW takes one view name")
	}
	s.kind, s.table = kindDropView, toks[k].Name()
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
	e.viewsGen++
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
func (e *Engine) substituteViews(toks []parse.Token, tx *Tx) ([]parse.Token, error) {
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
	m := make(map[string][]parse.Token, len(kept)+len(temp))
	for _, views := range []map[string]*view{kept, temp} {
		for k, v := range views {
			m[k] = parse.Parenthesized(v.toks, v.toks[0].Pos)
		}
	}
	// A common table expression hides a view of its name, as it hides a
	// table.
	for name := range cteNames(toks) {
		delete(m, name)
	}
	// A view's query names views by name too (they bind when used, as in
	// DuckDB): replace until no name is left, a replacement always making
	// the list longer.
	for depth := 0; ; depth++ {
		next := parse.SubstituteCTEs(toks, m)
		switch {
		case len(next) == len(toks):
			return next, nil
		case depth == maxViewDepth:
			return nil, errorf("infinite recursion detected: views nested more than %d deep (a view reads itself)", maxViewDepth)
		case len(next) > maxViewTokens:
			return nil, errorf("the views a statement reads make more than %d tokens", maxViewTokens)
		}
		toks = next
	}
}

// The bounds of the views of one statement: their nesting, and the
// tokens they expand into (a view may read another twice, at each level).
const (
	maxViewDepth  = 32
	maxViewTokens = 1 << 20
)

// isViewCreate reports whether toks are CREATE [OR REPLACE] [TEMP] VIEW:
// the views its query names stay names (prepareView).
func isViewCreate(toks []parse.Token) bool {
	i := 1
	if len(toks) > 2 && toks[1].Is("or") && toks[2].Is("replace") {
		i = 3
	}
	if i < len(toks) && (toks[i].Is("temp") || toks[i].Is("temporary")) {
		i++
	}
	return len(toks) > 0 && toks[0].Is("create") && i < len(toks) && toks[i].Is("view")
}

// viewsKey keys, in a context of prepareContext, the transaction whose
// views a statement is prepared with.
type viewsKey struct{}

// withViewsOf is ctx carrying transaction tx (nil: none), for the parts
// of a statement that substitute views after prepareContext did (the
// source of MERGE).
func withViewsOf(ctx context.Context, tx *Tx) context.Context {
	if tx == nil {
		return ctx
	}
	return context.WithValue(ctx, viewsKey{}, tx)
}

// viewsOf is the transaction withViewsOf put in ctx, nil when none.
func viewsOf(ctx context.Context) *Tx {
	tx, _ := ctx.Value(viewsKey{}).(*Tx)
	return tx
}

// cteNames returns the lower-case names the WITH clauses of a statement
// (at any depth) define.
func cteNames(toks []parse.Token) map[string]bool {
	var names map[string]bool
	for i := range toks {
		if !toks[i].Is("with") {
			continue
		}
		j := i + 1
		if j < len(toks) && toks[j].Is("recursive") {
			j++
		}
		for j < len(toks) && parse.IsNameToken(toks[j]) {
			name := strings.ToLower(toks[j].Name())
			j++
			if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "(" {
				if j = parse.ClosingParen(toks, j); j < 0 {
					return names
				}
				j++
			}
			if j >= len(toks) || !toks[j].Is("as") {
				break
			}
			for j < len(toks) && !(toks[j].Kind == parse.Op && toks[j].Text == "(") {
				j++ // [NOT] MATERIALIZED
			}
			if j >= len(toks) {
				break
			}
			if names == nil {
				names = map[string]bool{}
			}
			names[name] = true
			if j = parse.ClosingParen(toks, j); j < 0 {
				return names
			}
			j++
			if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "," {
				j++
				continue
			}
			break
		}
	}
	return names
}

// viewNames lists the engine's views, sorted.
func (e *Engine) viewNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, v := range e.views {
		if _, hidden := e.tempViews[strings.ToLower(v.name)]; !hidden {
			out = append(out, v.name)
		}
	}
	for _, v := range e.tempViews {
		out = append(out, v.name)
	}
	sort.Strings(out)
	return out
}

// tableExists reports whether name is a table of the folder (SHOW name
// describes it; other SHOW words are settings, which are refused).
func (e *Engine) tableExists(name string) bool {
	_, ok, err := e.tablePath(name)
	return ok && err == nil
}

// viewNamed is the view of that name (a TEMP view before a kept one).
func (e *Engine) viewNamed(name string) *view {
	e.mu.Lock()
	defer e.mu.Unlock()
	if v := e.tempViews[strings.ToLower(name)]; v != nil {
		return v
	}
	return e.views[strings.ToLower(name)]
}

package sqlplan

import (
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
)

// User types: CREATE TYPE name AS ENUM ('a', ...) and CREATE TYPE name AS
// type (an alias), DROP TYPE [IF EXISTS] name. The engine keeps them by
// lower-case name; those of a folder last in its catalog file, as views
// and macros do (catalogfile.go). A column, a cast or another type may
// name them: their names resolve when a statement is prepared, to the
// type they stand for, so a table's column is of the ENUM itself (DuckDB
// shows ENUM('a', 'b') for it too, not the name).

// userType is a type CREATE TYPE made, or the name DROP TYPE drops.
type userType struct {
	name string
	t    Type
	drop bool
}

// definition is the statement that makes the type again.
func (u *userType) definition() string {
	return "CREATE TYPE " + parse.QuoteIdent(u.name) + " AS " + u.t.SQLName()
}

// userType is the engine's userTypes.
func (e *Engine) userType(name string) (Type, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	u, ok := e.types[strings.ToLower(name)]
	if !ok {
		return Type{}, false
	}
	return u.t, true
}

// isTypeCreate reports whether toks start CREATE [OR REPLACE] TYPE.
func isTypeCreate(toks []parse.Token) bool {
	k := 1
	if len(toks) > 3 && toks[1].Is("or") && toks[2].Is("replace") {
		k = 3
	}
	return len(toks) > k && toks[k].Is("type")
}

// parseTypeCreate reads CREATE [OR REPLACE] TYPE [IF NOT EXISTS] name AS
// type into s; types resolves the names of other types in it.
func parseTypeCreate(s *Stmt, text string, toks []parse.Token, ut plan.UserTypes) (*userType, error) {
	k := 1
	if toks[1].Is("or") {
		s.replace, k = true, 3
	}
	k++ // TYPE
	if k+2 < len(toks) && toks[k].Is("if") && toks[k+1].Is("not") && toks[k+2].Is("exists") {
		s.ifMod, k = true, k+3
	}
	if k+1 >= len(toks) || toks[k].Kind == parse.Op || toks[k].Kind == parse.String || !toks[k+1].Is("as") {
		return nil, errAt(text, parse.TokPos(text, toks, min(k, len(toks))), "expected CREATE TYPE name AS type")
	}
	name := toks[k].Name()
	if plan.IsTypeName(name) {
		return nil, errAt(text, toks[k].Pos, "Type with name %q already exists!", name)
	}
	at := k + 2
	if at+2 < len(toks) && toks[at].Is("enum") && toks[at+1].Kind == parse.Op && toks[at+1].Text == "(" && toks[at+2].Is("select") {
		e := errAt(text, toks[at+2].Pos, "CREATE TYPE AS ENUM (SELECT ...) is not supported")
		e.Err = ErrUnsupported
		return nil, e
	}
	t, end, err := plan.ReadNestedType(text, toks, at, ut)
	if err != nil {
		return nil, err
	}
	if end != len(toks) {
		return nil, errAt(text, toks[end].Pos, "unexpected %q after the type", toks[end].Text)
	}
	return &userType{name: name, t: t}, nil
}

// prepareType prepares CREATE TYPE and DROP TYPE [IF EXISTS] name.
func (e *Engine) prepareType(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	s.kind = kindType
	if toks[0].Is("create") {
		u, err := parseTypeCreate(s, text, toks, e.userType)
		if err != nil {
			return nil, err
		}
		s.utype, s.table = u, u.name
		return s, nil
	}
	k := 2
	if k+1 < len(toks) && toks[k].Is("if") && toks[k+1].Is("exists") {
		s.ifMod, k = true, k+2
	}
	if len(toks) != k+1 || toks[k].Kind == parse.Op || toks[k].Kind == parse.String {
		return nil, errAt(text, parse.TokPos(text, toks, min(k, len(toks))), "DROP TYPE takes one type name")
	}
	s.utype = &userType{name: toks[k].Name(), drop: true}
	s.table = s.utype.name
	return s, nil
}

// execType runs CREATE TYPE and DROP TYPE. Prepared statements are
// forgotten: those naming the type resolve it again.
func (e *Engine) execType(s *Stmt) (Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.refreshCatalogLocked(); err != nil {
		return Result{}, err
	}
	u := s.utype
	key := strings.ToLower(u.name)
	old, exists := e.types[key]
	switch {
	case u.drop && !exists:
		if s.ifMod {
			return Result{}, nil
		}
		return Result{}, errorf("Type with name %s does not exist!", u.name)
	case u.drop:
		delete(e.types, key)
	case exists && s.ifMod:
		return Result{}, nil
	case exists && !s.replace:
		return Result{}, errorf("Type with name %q already exists!", u.name)
	default:
		if e.types == nil {
			e.types = map[string]*userType{}
		}
		e.types[key] = u
	}
	if err := e.saveCatalogLocked(); err != nil {
		if exists {
			e.types[key] = old
		} else {
			delete(e.types, key)
		}
		return Result{}, err
	}
	clear(e.stmts)
	return Result{}, nil
}

// userTypeOID is the first oid duckdb_types() gives the types of CREATE
// TYPE (positions after DuckDB's own, stable within a statement).
const userTypeOID = 1000

// userTypeList is the types of CREATE TYPE by name.
func (e *Engine) userTypeList() []*userType {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]*userType, 0, len(e.types))
	for _, u := range e.types {
		out = append(out, u)
	}
	slices.SortFunc(out, func(a, b *userType) int { return strings.Compare(a.name, b.name) })
	return out
}

// catalogRow is the type's row of duckdb_types() (its oid aside): the
// size and category of the type it names, as DuckDB lists them, and an
// ENUM's values as labels.
func (u *userType) catalogRow() (builtinType, []any) {
	t := u.t
	row := builtinType{name: u.name, size: -1, logical: t.SQLName()}
	switch {
	case t.Kind == KEnum:
		row.size, row.logical = t.Enum.CodeBits()/8, "ENUM"
		return row, plan.EnumList(t.Enum.Values)
	case t.Elem != nil:
		row.logical = "LIST"
	case t.MapOf:
		row.logical = "MAP"
	case t.Kind == KNested:
		row.logical = "STRUCT"
	case t.Kind == KDecimal && !t.Huge:
		row.logical = "DECIMAL"
	}
	for _, b := range carquetTypes {
		if b.logical == row.logical {
			row.size, row.family = b.size, b.family
			break
		}
	}
	return row, nil
}

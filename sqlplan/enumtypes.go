package sqlplan

import (
	"slices"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// User types: CREATE TYPE name AS ENUM ('a', ...) and CREATE TYPE name AS
// type (an alias), DROP TYPE [IF EXISTS] name. The engine keeps them by
// lower-case name; those of a folder last in its catalog file, as views
// and macros do (catalogfile.go). A column, a cast or another type may
// name them: their names resolve when a statement is prepared, to the
// type they stand for, so a table's column is of the ENUM itself (DuckDB
// shows ENUM('a', 'b') for it too, not the name).

// userTypes resolves a type name that is none of the engine's own (nil
// resolves none).
type userTypes func(name string) (Type, bool)

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

// readUserType reads at toks[i] the name of a type that ut resolves, with
// any [] after it; ok is false for the engine's own types and the words
// that start a written-out one. A name that is neither is DuckDB's error.
func readUserType(text string, toks []parse.Token, i int, ut userTypes) (Type, int, bool, error) {
	if ut == nil || i >= len(toks) || toks[i].Kind != parse.Ident && toks[i].Kind != parse.DQuoted {
		return Type{}, i, false, nil
	}
	name := toks[i].Name()
	if toks[i].Kind == parse.Ident {
		switch strings.ToLower(name) {
		case "list", "array", "struct", "row", "map", "enum", "union":
			return Type{}, i, false, nil
		}
		if isTypeName(name) || i+1 < len(toks) && toks[i+1].Kind == parse.Ident && isTypeName(name+" "+toks[i+1].Text) {
			return Type{}, i, false, nil
		}
	}
	t, found := ut(name)
	if !found {
		return Type{}, i, true, errAt(text, toks[i].Pos, "Type with name %s does not exist!", name)
	}
	j := i + 1
	for n := parse.ListSuffix(toks, j); n > 0; n = parse.ListSuffix(toks, j) {
		elem := t
		t = Type{Kind: KNested, Elem: &elem}
		j += n
	}
	return t, j, true, nil
}

// readEnumValues reads the ('a', 'b', ...) of an ENUM at toks[open] (its
// opening parenthesis) and returns the type and the index after it.
func readEnumValues(text string, toks []parse.Token, open int) (Type, int, error) {
	var values []string
	j := open + 1
	for j < len(toks) && !(toks[j].Kind == parse.Op && toks[j].Text == ")") {
		if toks[j].Kind != parse.String {
			return Type{}, j, errAt(text, toks[j].Pos, "ENUM takes string literals: syntax error at or near %q", toks[j].Text)
		}
		values = append(values, toks[j].Unquoted())
		j++
		if j < len(toks) && toks[j].Kind == parse.Op && toks[j].Text == "," {
			j++
		}
	}
	if j >= len(toks) {
		return Type{}, j, errAt(text, len(text), "unterminated ENUM(...)")
	}
	e, err := vec.NewEnum(values)
	if err != nil {
		return Type{}, j, errAt(text, toks[open].Pos, "%v", err)
	}
	return Type{Kind: KEnum, Enum: e}, j + 1, nil
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
func parseTypeCreate(s *Stmt, text string, toks []parse.Token, ut userTypes) (*userType, error) {
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
	if isTypeName(name) {
		return nil, errAt(text, toks[k].Pos, "Type with name %q already exists!", name)
	}
	at := k + 2
	if at+2 < len(toks) && toks[at].Is("enum") && toks[at+1].Kind == parse.Op && toks[at+1].Text == "(" && toks[at+2].Is("select") {
		e := errAt(text, toks[at+2].Pos, "CREATE TYPE AS ENUM (SELECT ...) is not supported")
		e.Err = ErrUnsupported
		return nil, e
	}
	t, end, err := readNestedType(text, toks, at, ut)
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

// unifyEnum is the type an ENUM meets another in: the ENUM itself with
// the same ENUM or a NULL, else VARCHAR (DuckDB compares an ENUM with
// text, or with another ENUM, as text).
func unifyEnum(a, b Type) Type {
	switch {
	case a.Kind == KEnum && b.Kind == KEnum && vec.SameEnum(a.Enum, b.Enum), b.Kind == KNull:
		return withoutField(a)
	case a.Kind == KNull:
		return withoutField(b)
	}
	return Type{Kind: KString}
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
		return row, enumList(t.Enum.Values)
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

// enumEqualityConst is the text constant k of an = or <> with an ENUM
// column of type t as that ENUM's code, when it is one of its values:
// equal text is an equal code, so the comparison runs on the codes
// instead of on the column's text (as DuckDB's rule, text, would have
// it). Other comparisons, and text of no value, compare as text.
func enumEqualityConst(op cmpOp, t Type, k *constExpr) (*constExpr, bool) {
	s, isText := k.v.(string)
	if t.Kind != KEnum || !isText || k.t.Kind != KString || op != opEq && op != opNe {
		return nil, false
	}
	code, ok := t.Enum.Code(s)
	if !ok {
		return nil, false
	}
	return &constExpr{named: k.named, t: withoutField(t), v: code}, true
}

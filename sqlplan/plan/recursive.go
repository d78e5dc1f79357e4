package plan

import (
	"fmt"
	"github.com/carquet-go/carquet/sqlplan/vec"
	"strconv"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/xwb1989/sqlparser"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// WITH RECURSIVE: a CTE whose query names itself is an anchor (the parts
// before the first UNION [ALL] whose rest names the CTE) and a recursive
// step. It is computed while the statement is planned: the anchor runs
// once, then the step runs again and again over the rows the previous
// round added (the work table), until a round adds none; under UNION
// (not ALL) rows already produced are dropped. The result is held in
// memory and read by every reference to the CTE (recMarker:N tables).

const (
	recMarker  = "__carquet_rec__"
	workMarker = "__carquet_work__"
)

// Bounds on a recursion: a query that does not converge is an error, not
// a hang.
var (
	MaxRecRounds = 100_000
	MaxRecRows   = 10_000_000
)

type RecCTE struct {
	name   string
	idx    int
	cols   []string // the column list, nil for the anchor's names
	anchor []parse.Token
	step   []parse.Token // the CTE's name replaced by the work table
	all    bool          // UNION ALL
}

func (r *RecCTE) Marker() string { return recMarker + ":" + strconv.Itoa(r.idx) }

// NewRecCTE splits the query of a recursive CTE into anchor and step.
func NewRecCTE(text, name string, cols []string, body []parse.Token, idx, pos int) (*RecCTE, error) {
	depth := 0
	for i, t := range body {
		switch {
		case t.Kind == parse.Op && t.Text == "(":
			depth++
		case t.Kind == parse.Op && t.Text == ")":
			depth--
		case depth == 0 && t.Is("union"):
			rest := body[i+1:]
			all := len(rest) > 0 && rest[0].Is("all")
			if all || len(rest) > 0 && rest[0].Is("distinct") {
				rest = rest[1:]
			}
			if !parse.NamesTable(rest, name) {
				continue
			}
			if parse.NamesTable(body[:i], name) {
				return nil, errAt(text, pos, "the anchor of the recursive CTE %s (before UNION) names %s", name, name)
			}
			rc := &RecCTE{name: name, idx: idx, cols: cols, anchor: body[:i], all: all}
			work := map[string][]parse.Token{strings.ToLower(name): {{Kind: parse.Quoted, Text: parse.Backquote(workMarker + ":" + strconv.Itoa(idx)), Pos: pos}}}
			rc.step = parse.SubstituteCTEs(rest, work)
			return rc, nil
		}
	}
	e := errAt(text, pos, "a recursive CTE takes an anchor query, UNION [ALL] and a query naming %s", name)
	e.Err = ErrUnsupported
	return nil, e
}

// SetRecursive hands the recursive CTEs of a WITH to the query and its
// parts (their sources carry them to the planners).
func (q *Parsed) SetRecursive(recs []*RecCTE) {
	if q.Src != nil {
		q.Src.recs = recs
	}
	for _, p := range q.Parts {
		p.SetRecursive(recs)
	}
}

// recTable is a materialized relation: a recursive CTE's result or the
// work table of the round being computed.
type recTable struct {
	b     *Batch
	names []string
	types []Type
}

func (t *recTable) relation(alias, what string) *Relation {
	cols := make([]Column, len(t.names))
	for i := range t.names {
		cols[i] = Column{Name: t.names[i], Type: t.types[i], Nullable: true}
	}
	b := &Batch{N: t.b.N, Cols: append([]*Col(nil), t.b.Cols...)}
	rel := &Relation{Alias: alias, Sub: &SelectPlan{Root: &kernels.Const{Batches: []*Batch{b}, What: what}, Cols: cols}}
	for i, c := range cols {
		rel.Cols = append(rel.Cols, &ScopeCol{Rel: rel, Name: c.Name, T: c.Type, Slot: &Slot{}, Local: i})
	}
	return rel
}

// markerRelation plans a recursive CTE's or a work table's marker name.
func (p *Planner) markerRelation(name, alias string) (*Relation, error) {
	kind, num, _ := strings.Cut(name, ":")
	idx, err := strconv.Atoi(num)
	if err != nil || p.Src == nil || idx < 0 || idx >= len(p.Src.recs) {
		return nil, errorf("internal error: unknown table %s", name)
	}
	rc := p.Src.recs[idx]
	if alias == "" {
		alias = rc.name
	}
	if kind == workMarker {
		w := p.recWork[idx]
		if w == nil {
			return nil, errorf("internal error: the work table of %s is not set", rc.name)
		}
		return w.relation(alias, "WORK TABLE OF "+rc.name), nil
	}
	res, err := p.recursiveResult(rc)
	if err != nil {
		return nil, err
	}
	return res.relation(alias, "RECURSIVE CTE "+rc.name), nil
}

// recursiveResult computes a recursive CTE (once per planner).
func (p *Planner) recursiveResult(rc *RecCTE) (*recTable, error) {
	if r := p.recDone[rc.idx]; r != nil {
		return r, nil
	}
	if p.recWork == nil {
		p.recWork, p.recDone = map[int]*recTable{}, map[int]*recTable{}
	}
	if p.recActive[rc.idx] {
		return nil, errorf("the recursive CTE %s names itself outside its recursive part", rc.name)
	}
	if p.recActive == nil {
		p.recActive = map[int]bool{}
	}
	p.recActive[rc.idx] = true
	defer delete(p.recActive, rc.idx)

	b, cols, err := p.runTokens(rc.anchor)
	if err != nil {
		return nil, err
	}
	res := &recTable{names: make([]string, len(cols)), types: make([]Type, len(cols))}
	for i, c := range cols {
		res.names[i], res.types[i] = c.Name, c.Type
		if res.types[i].Kind == KNull {
			res.types[i] = TInt
		}
	}
	if rc.cols != nil {
		if len(rc.cols) != len(cols) {
			return nil, errorf("the recursive CTE %s names %d columns, its query returns %d", rc.name, len(rc.cols), len(cols))
		}
		copy(res.names, rc.cols)
	}
	if b, err = conform(b, cols, res.types); err != nil {
		return nil, err
	}
	var seen map[string]bool
	if !rc.all {
		seen = map[string]bool{}
		b = newRows(b, seen)
	}
	res.b = b
	work := b
	for round := 0; work.N > 0; round++ {
		if err := p.Ctx.Err(); err != nil {
			return nil, err
		}
		if round >= MaxRecRounds {
			return nil, errorf("the recursive CTE %s did not end after %d rounds", rc.name, MaxRecRounds)
		}
		p.recWork[rc.idx] = &recTable{b: work, names: res.names, types: res.types}
		nb, ncols, err := p.runTokens(rc.step)
		if err != nil {
			return nil, err
		}
		if len(ncols) != len(res.types) {
			return nil, errorf("the recursive part of %s returns %d columns, its anchor %d", rc.name, len(ncols), len(res.types))
		}
		if nb, err = conform(nb, ncols, res.types); err != nil {
			return nil, err
		}
		if seen != nil {
			nb = newRows(nb, seen)
		}
		if res.b.N+nb.N > MaxRecRows {
			return nil, errorf("the recursive CTE %s produced more than %d rows", rc.name, MaxRecRows)
		}
		for i := range res.b.Cols {
			AppendCol(res.b.Cols[i], nb.Cols[i])
		}
		res.b.N += nb.N
		work = nb
	}
	delete(p.recWork, rc.idx)
	p.recDone[rc.idx] = res
	return res, nil
}

// runTokens plans and runs a query given as tokens of the statement.
func (p *Planner) runTokens(toks []parse.Token) (*Batch, []Column, error) {
	src, err := RewriteTokens(p.Src.Orig, toks)
	if err != nil {
		return nil, nil, err
	}
	src.recs = p.Src.recs
	ast, err := sqlparser.Parse(src.Text)
	if err != nil {
		return nil, nil, src.ParseError(err)
	}
	sel, ok := ast.(sqlparser.SelectStatement)
	if !ok {
		return nil, nil, errorf("a CTE must be a query")
	}
	saved := p.Src
	p.Src = src
	defer func() { p.Src = saved }()
	sp, err := p.PlanSelect(sel, nil)
	if err != nil {
		return nil, nil, err
	}
	defer sp.Root.Close()
	types := make([]Type, len(sp.Cols))
	for i, c := range sp.Cols {
		types[i] = c.Type
	}
	b, err := Drain(p.Ctx, sp.Root, types)
	if err != nil {
		return nil, nil, err
	}
	// Own copies: the rows outlive the plan and grow by appending.
	out := &Batch{N: b.N}
	for i, c := range b.Cols {
		d := emptyCol(types[i])
		AppendCol(d, c.Decoded())
		out.Cols = append(out.Cols, d)
	}
	return out, sp.Cols, nil
}

// conform casts the columns of b (of cols' types) to types.
func conform(b *Batch, cols []Column, types []Type) (*Batch, error) {
	for i, c := range b.Cols {
		from := cols[i].Type
		if from.Kind == types[i].Kind && from.Scale == types[i].Scale {
			continue
		}
		nb := NewBuilder(types[i], b.N)
		for r := 0; r < b.N; r++ {
			v := c.Get(r)
			if v != nil && from.Kind != KNull {
				var err error
				if v, err = CastScalar(v, from, types[i]); err != nil {
					return nil, fmt.Errorf("recursive CTE column %s: %w", cols[i].Name, err)
				}
			}
			nb.Add(v)
		}
		b.Cols[i] = nb.C
	}
	return b, nil
}

// newRows keeps the rows of b not in seen (and adds them to it).
func newRows(b *Batch, seen map[string]bool) *Batch {
	var keep []int32
	var key []byte
	for r := 0; r < b.N; r++ {
		key = key[:0]
		for _, c := range b.Cols {
			key = vec.AppendKey(key, c, r)
		}
		if !seen[string(key)] {
			seen[string(key)] = true
			keep = append(keep, int32(r))
		}
	}
	if len(keep) == b.N {
		return b
	}
	return kernels.TakeBatch(b, keep)
}

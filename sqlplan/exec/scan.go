package exec

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/parquet/vector"
	"github.com/carquet-go/carquet/scan"
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// ConvertFunc converts the first n values of a scan vector of a column
// of type t into a Col (the planner's conversions of Parquet's types).
type ConvertFunc func(t vec.Type, v *vector.Vector, n int) *vec.Col

// Scan reads a table through the scan: the columns and filter of Req, as
// columns of Types converted by Convert.
type Scan struct {
	Alias, Path string // the table, for EXPLAIN
	Table       *scan.Table
	Req         scan.Request
	Types       []vec.Type
	Convert     ConvertFunc
	// Origin is what the planner read the table as (sqlplan's relation),
	// for the planning steps that change a scan after it is built (key
	// filters, dictionary codes); the scan does not look at it.
	Origin any

	s       *scan.Scanner
	stats   scan.Stats
	done    bool
	started bool
	// held is a batch (or the error) the coalescing read after the
	// small ones it joined, returned next (coalesce.go).
	held    *vec.Batch
	heldErr error
	// dicts holds the Col of each dictionary the scan's coded vectors
	// pointed at lately, so that a row group's batches share one (the
	// grouper keys its code-to-group maps by it).
	dicts map[*vector.Vector]*vec.Col
}

// Started reports whether the scan has begun reading (its request can no
// longer change).
func (n *Scan) Started() bool { return n.started }

// AddFilter adds p to the conjuncts the scan evaluates; it must not have
// started.
func (n *Scan) AddFilter(p scan.Predicate) {
	switch f := n.Req.Filter.(type) {
	case nil:
		n.Req.Filter = p
	case scan.And:
		n.Req.Filter = scan.And{Terms: append(append([]scan.Predicate(nil), f.Terms...), p)}
	default:
		n.Req.Filter = scan.And{Terms: []scan.Predicate{f, p}}
	}
}

func (n *Scan) Next(ctx context.Context) (*vec.Batch, error) {
	return n.coalesced(ctx)
}

// next is the scan's next batch as it decoded it.
func (n *Scan) next(ctx context.Context) (*vec.Batch, error) {
	if n.done {
		return nil, io.EOF
	}
	if !n.started {
		n.started = true
		s, err := n.Table.Scan(ctx, n.Req)
		if err != nil {
			return nil, err
		}
		n.s = s
	}
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		b, err := n.s.Next()
		if err == io.EOF {
			n.finish()
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if b.NumRows == 0 {
			continue
		}
		out := &vec.Batch{N: b.NumRows, Cols: make([]*vec.Col, len(b.Columns))}
		for i, v := range b.Columns {
			if v.Dict != nil && n.Types[i].Kind != vec.KEnum { // an ENUM's Convert reads the codes
				out.Cols[i] = n.codedCol(n.Types[i], v, b.NumRows)
				continue
			}
			out.Cols[i] = n.Convert(n.Types[i], v, b.NumRows)
		}
		if s := n.s; scan.Recyclable(b) {
			out.Recycle = func() { s.Recycle(b) }
		}
		return out, nil
	}
}

// codedCol converts a coded vector (the scan was asked for codes) into a
// coded Col whose dictionary is converted once per dictionary.
func (n *Scan) codedCol(t vec.Type, v *vector.Vector, rows int) *vec.Col {
	d, ok := n.dicts[v.Dict]
	if !ok {
		if n.dicts == nil || len(n.dicts) >= 64 {
			n.dicts = map[*vector.Vector]*vec.Col{}
		}
		d = n.Convert(t, v.Dict, v.Dict.Len)
		n.dicts[v.Dict] = d
	}
	return &vec.Col{T: t, Len: rows, Null: NullsOf(v, rows), Dict: d, Codes: v.Codes[:rows]}
}

// NullsOf returns the NULL flags of v's first n slots, nil without nulls.
func NullsOf(v *vector.Vector, n int) []bool {
	if v.Valid == nil {
		return nil
	}
	null := make([]bool, n)
	for i := range null {
		null[i] = !v.Valid.Get(i)
	}
	return null
}

func (n *Scan) finish() {
	if n.s != nil && !n.done {
		n.stats = n.s.Stats()
		n.s.Close()
	}
	n.done = true
}

func (n *Scan) Close() { n.finish() }

func (n *Scan) Explain(x *Explainer, depth int) {
	cols := "(no columns)"
	if len(n.Req.Columns) > 0 {
		cols = strings.Join(n.Req.Columns, ", ")
	}
	x.Line(depth, "SCAN %s [%s] columns: %s", n.Alias, x.Rel(n.Path), cols)
	if n.Req.Filter != nil {
		x.Line(depth+1, "pushed filter: %s", n.Req.Filter)
	}
	if len(n.Req.Codes) > 0 {
		x.Line(depth+1, "dictionary codes: %s", strings.Join(n.Req.Codes, ", "))
	}
	if x.Analyze {
		s := n.stats
		x.Line(depth+1, "files %d (pruned %d), row groups %d (pruned %d by statistics, %d by bloom filters), pages read %d, filter-column pages %d (pruned %d by page index), bytes read %d, rows decoded %d, rows returned %d",
			s.Files, s.FilesPruned, s.RowGroups, s.RowGroupsPrunedByStats, s.RowGroupsPrunedByBloom, s.PagesRead, s.Pages, s.PagesPruned, s.BytesRead, s.RowsDecoded, s.RowsOutput)
	}
}

package exec

import (
	"context"
	"io"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Union concatenates its inputs (UNION ALL), their columns brought to
// Types; a Distinct above makes it UNION.
type Union struct {
	Ins   []Node
	Types []vec.Type
	Cast  CastFunc
	cur   int
}

func (n *Union) Next(ctx context.Context) (*vec.Batch, error) {
	for n.cur < len(n.Ins) {
		b, err := n.Ins[n.cur].Next(ctx)
		if err == io.EOF {
			n.cur++
			continue
		}
		if err != nil {
			return nil, err
		}
		return CastBatch(b, n.Types, n.Cast)
	}
	return nil, io.EOF
}

func (n *Union) Close() {
	for _, in := range n.Ins {
		in.Close()
	}
}

func (n *Union) Explain(x *Explainer, depth int) {
	x.Line(depth, "UNION ALL")
	for _, in := range n.Ins {
		in.Explain(x, depth+1)
	}
}

// SetOp is INTERSECT or EXCEPT, with ALL (multiset) or without (distinct
// rows): the right input is read into a hash table of row keys with
// counts, then the left rows stream through it.
type SetOp struct {
	Left, Right Node
	Op          string // intersect, except, intersect all, except all
	Types       []vec.Type
	Cast        CastFunc
	counts      map[string]int
	seen        map[string]bool
	buf         []byte
	// keyBytes and keyRows are the length of the keys seen and their
	// number, for the average size of an entry of the sets (memory.go).
	keyBytes, keyRows int64
	mem               OpMemory
}

func (n *SetOp) Memory() *OpMemory { return &n.mem }

// account sets the memory the sets take, after a batch.
func (n *SetOp) account(ctx context.Context) error {
	entry := int64(MapEntryBytes)
	if n.keyRows > 0 {
		entry += n.keyBytes / n.keyRows
	}
	return n.mem.Set(ctx, int64(len(n.counts)+len(n.seen))*entry, func() string { return strings.ToUpper(n.Op) })
}

// rowKey is the key of row i of b in the sets.
func (n *SetOp) rowKey(b *vec.Batch, i int) []byte {
	n.buf = n.buf[:0]
	for _, c := range b.Cols {
		n.buf = vec.AppendKey(n.buf, c, i)
	}
	return n.buf
}

// build reads the right input into the counts of its rows.
func (n *SetOp) build(ctx context.Context) error {
	n.counts = map[string]int{}
	n.seen = map[string]bool{}
	for {
		b, err := n.Right.Next(ctx)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if b, err = CastBatch(b, n.Types, n.Cast); err != nil {
			return err
		}
		for i := 0; i < b.N; i++ {
			k := n.rowKey(b, i)
			n.counts[string(k)]++
			n.keyBytes += int64(len(k))
		}
		n.keyRows += int64(b.N)
		if err := n.account(ctx); err != nil {
			return err
		}
	}
}

func (n *SetOp) Next(ctx context.Context) (*vec.Batch, error) {
	if n.counts == nil && ProvablyEmpty(n.Left) {
		// The answer is empty without the right side, which is not read
		// (nor its errors raised), as DuckDB's optimizer does; a left side
		// that is only empty at run time does not spare the right one.
		return nil, io.EOF
	}
	if n.counts == nil {
		if err := n.build(ctx); err != nil {
			return nil, err
		}
	}
	all := strings.HasSuffix(n.Op, " all")
	intersect := strings.HasPrefix(n.Op, "intersect")
	for {
		b, err := n.Left.Next(ctx)
		if err != nil {
			return nil, err
		}
		if b, err = CastBatch(b, n.Types, n.Cast); err != nil {
			return nil, err
		}
		var idx []int32
		for i := 0; i < b.N; i++ {
			k := string(n.rowKey(b, i))
			c := n.counts[k]
			keep := false
			switch {
			case all && intersect:
				keep = c > 0
				if keep {
					n.counts[k] = c - 1
				}
			case all:
				keep = c == 0
				if !keep {
					n.counts[k] = c - 1
				}
			case intersect:
				keep = c > 0 && !n.seen[k]
			default:
				keep = c == 0 && !n.seen[k]
			}
			if keep {
				if !all {
					n.seen[k] = true
				}
				idx = append(idx, int32(i))
			}
		}
		if err := n.account(ctx); err != nil {
			return nil, err
		}
		if len(idx) > 0 {
			return TakeBatch(b, idx), nil
		}
	}
}

func (n *SetOp) Close() {
	n.mem.Release()
	n.Left.Close()
	n.Right.Close()
}

func (n *SetOp) Explain(x *Explainer, depth int) {
	x.Line(depth, "%s", strings.ToUpper(n.Op))
	n.Left.Explain(x, depth+1)
	n.Right.Explain(x, depth+1)
}

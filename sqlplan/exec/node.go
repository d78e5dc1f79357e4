package exec

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/carquet-go/carquet/sqlplan/vec"
)

// Node is an operator of an executable plan: each call of Next pulls the
// next batch of its rows, until io.EOF. Close releases what it holds
// (memory accounts, scanners, its inputs); Explain writes it and its
// inputs as EXPLAIN shows them, at the given depth.
type Node interface {
	Next(ctx context.Context) (*vec.Batch, error)
	Close()
	Explain(x *Explainer, depth int)
}

// Expr is what an operator evaluates on a batch: a bound expression of
// the planner. Eval returns one value per row of b; Type is the type of
// those values, which a NULL-typed result is brought to; String is the
// expression's SQL text, for EXPLAIN and error messages.
type Expr interface {
	Type() vec.Type
	Eval(b *vec.Batch) (*vec.Col, error)
	String() string
}

// ExprList is the texts of exprs, comma separated.
func ExprList[E Expr](exprs []E) string {
	parts := make([]string, len(exprs))
	for i, e := range exprs {
		parts[i] = e.String()
	}
	return strings.Join(parts, ", ")
}

// Explainer writes a plan as indented text, one line per operator and
// detail.
type Explainer struct {
	b strings.Builder
	// Analyze is set for EXPLAIN ANALYZE: the operators add what they
	// measured while the plan ran.
	Analyze bool
	// Root is the engine's root folder, which table paths are shown
	// relative to.
	Root string
	// figures are an operator's EXPLAIN ANALYZE figures (analyze.go), to
	// be shown on the next line, its first.
	figures string
}

// Rel shows a table path relative to the engine's root.
func (x *Explainer) Rel(path string) string {
	if r, err := filepath.Rel(x.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

// Line writes one line of the plan at depth, with the figures of the
// operator it starts, if any were set.
func (x *Explainer) Line(depth int, format string, args ...any) {
	x.b.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(&x.b, format, args...)
	if x.figures != "" {
		fmt.Fprintf(&x.b, "  [%s]", x.figures)
		x.figures = ""
	}
	x.b.WriteByte('\n')
}

// String is the plan written so far.
func (x *Explainer) String() string { return x.b.String() }

// SetFigures sets the EXPLAIN ANALYZE figures of the operator whose first
// line is written next ("" sets none).
func (x *Explainer) SetFigures(f string) {
	if f != "" {
		x.figures = f
	}
}

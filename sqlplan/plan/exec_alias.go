package plan

import (
	"context"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The typed hash and sort kernels live in package exec; these names let
// the operators here use them unqualified.

type (
	// Node is an operator of an executable plan (see exec.Node).
	Node      = kernels.Node
	Explainer = kernels.Explainer

	rowTable  = kernels.RowTable
	keyPacker = kernels.KeyPacker
	grouper   = kernels.Grouper
	aggSpec   = kernels.AggSpec
	sortKey   = kernels.SortKey
	topHeap   = kernels.TopHeap
)

// newKeyPacker packs a join's build keys against its probe expressions'
// types (see exec.NewKeyPacker).
func newKeyPacker(keys []*Col, lkeys []Expr, n int) (*keyPacker, bool) {
	if len(keys) != len(lkeys) {
		return nil, false
	}
	return kernels.NewKeyPacker(keys, exprTypes(lkeys), n)
}

func exprList(es []Expr) string { return kernels.ExprList(es) }

// Drain reads every batch of a node into one batch (see exec.DrainHeld).
func Drain(ctx context.Context, n Node, types []Type) (*Batch, error) {
	return kernels.DrainHeld(ctx, n, types, CastCol, nil, nil)
}

// drainHeld is drain accounting what it holds to m as operator what.
func drainHeld(ctx context.Context, n Node, types []Type, m *opMemory, what func() string) (*Batch, error) {
	return kernels.DrainHeld(ctx, n, types, CastCol, m, what)
}

package sqlplan

import (
	"context"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The typed hash and sort kernels live in package exec; these names let
// the operators here use them unqualified.

type (
	// node is an operator of an executable plan (see exec.Node).
	node      = kernels.Node
	explainer = kernels.Explainer

	rowTable  = kernels.RowTable
	keyPacker = kernels.KeyPacker
	grouper   = kernels.Grouper
	pairSet   = kernels.PairSet
	sortKey   = kernels.SortKey
	topHeap   = kernels.TopHeap
)

func newGrouper(types []Type) *grouper           { return kernels.NewGrouper(types) }
func buildInts(c *Col, n int) *rowTable          { return kernels.BuildInts(c, n) }
func buildKeys(keys []*Col, n int) *rowTable     { return kernels.BuildKeys(keys, n) }
func appendKey(buf []byte, c *Col, i int) []byte { return kernels.AppendKey(buf, c, i) }
func compareAt(a *Col, i int, b *Col, j int) int { return kernels.CompareAt(a, i, b, j) }
func joinKey(buf []byte, keys []*Col, i int) ([]byte, bool) {
	return kernels.JoinKey(buf, keys, i)
}

// cmpFloat orders floats as DuckDB does: NaN equals NaN and is above all.
func cmpFloat(a, b float64) int { return kernels.CmpFloat(a, b) }

func multiKeyTypes(types []Type) bool { return kernels.MultiKeyTypes(types) }

func sortRows(keys []sortKey, cols []*Col, n int) []int32 {
	return kernels.SortRows(keys, cols, n)
}

func compareRows(keys []sortKey, a []*Col, i int, b []*Col, j int) int {
	return kernels.CompareRows(keys, a, i, b, j)
}

// newKeyPacker packs a join's build keys against its probe expressions'
// types (see exec.NewKeyPacker).
func newKeyPacker(keys []*Col, lkeys []expr, n int) (*keyPacker, bool) {
	if len(keys) != len(lkeys) {
		return nil, false
	}
	return kernels.NewKeyPacker(keys, exprTypes(lkeys), n)
}

// compareScalars orders two non-null scalars of the same type.
func compareScalars(t Type, a, b any) int { return kernels.CompareScalars(t, a, b) }

func exprList(es []expr) string { return kernels.ExprList(es) }

// bare is n without the EXPLAIN ANALYZE wrapper (see exec.Bare).
func bare(n node) node { return kernels.Bare(n) }

func takeBatch(b *Batch, idx []int32) *Batch { return kernels.TakeBatch(b, idx) }
func needsCast(a, b Type) bool               { return kernels.NeedsCast(a, b) }
func concatCols(t Type, cols []*Col, total int) *Col {
	return kernels.ConcatCols(t, cols, total)
}

// drain reads every batch of a node into one batch (see exec.DrainHeld).
func drain(ctx context.Context, n node, types []Type) (*Batch, error) {
	return kernels.DrainHeld(ctx, n, types, castCol, nil, nil)
}

// drainHeld is drain accounting what it holds to m as operator what.
func drainHeld(ctx context.Context, n node, types []Type, m *opMemory, what func() string) (*Batch, error) {
	return kernels.DrainHeld(ctx, n, types, castCol, m, what)
}

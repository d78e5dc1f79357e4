package sqlplan

import (
	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// The typed hash and sort kernels live in package exec; these names let
// the operators here use them unqualified.

type (
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

package sqlplan

import (
	"encoding/binary"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
	"github.com/carquet-go/carquet/sqlplan/vec"
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

func init() {
	kernels.CompareScalars = compareScalars
	kernels.AppendScalarKey = appendScalarKey
}

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

// appendScalarKey encodes a value the kernels do not read typed (a
// column's A): intervals by their normalized parts, so that equal ones
// encode alike, others by their text.
func appendScalarKey(buf []byte, t Type, v any) []byte {
	if iv, ok := v.(interval); ok {
		return vec.AppendIntervalKey(buf, iv)
	}
	buf = append(buf, 5)
	s := formatScalar(t, v)
	buf = binary.AppendUvarint(buf, uint64(len(s)))
	return append(buf, s...)
}

package exec

import (
	"github.com/carquet-go/carquet/sqlplan/vec"
)

// JoinKey encodes row i's keys after buf[:0]; ok is false when one is
// NULL (never equal).
func JoinKey(buf []byte, keys []*vec.Col, i int) ([]byte, bool) {
	buf = buf[:0]
	for _, c := range keys {
		if c.IsNull(i) {
			return buf, false
		}
		buf = vec.AppendKey(buf, c, i)
	}
	return buf, true
}

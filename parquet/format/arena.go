package format

import "github.com/carquet-go/carquet/parquet/thrift"

// arena carves the per-column-chunk objects of a footer out of large
// blocks, so that decoding a footer of tens of thousands of columns makes a
// few hundred allocations instead of tens of thousands.
type arena struct {
	cmd   slab[ColumnMetaData]
	stats slab[Statistics]
	encs  slab[Encoding]
	strs  slab[string]
	pes   slab[PageEncodingStats]
	// typeOrder is the one TypeDefinedOrder (an empty marker struct) that
	// every ColumnOrder decoded with this arena points to.
	typeOrder *TypeDefinedOrder
	// index, for lazy decoding, is the footer's index if it has a valid
	// one, and lazyRowGroup the row group whose column list comes next.
	index        *FooterIndex
	lazyRowGroup int
	// compact, for UnmarshalCompact, decodes each row group's column list
	// into chunks instead of skipping it.
	compact bool
	chunks  []*Chunks
}

// arenaBlock is the largest block, in objects.
const arenaBlock = 1024

// slab is the free part of the current block of one type of object, and
// the size of the next block: blocks start small, so that small footers do
// not pay for large blocks, and double up to arenaBlock.
type slab[T any] struct {
	free []T
	next int
}

// take returns n zero objects (a non-nil empty slice for n = 0).
func (s *slab[T]) take(n int) []T {
	if n == 0 {
		return []T{} // present but empty: not nil
	}
	if n > arenaBlock/4 {
		return make([]T, n)
	}
	if len(s.free) < n {
		s.next = min(max(s.next*2, 16), arenaBlock)
		s.free = make([]T, max(s.next, n))
	}
	v := s.free[:n:n]
	s.free = s.free[n:]
	return v
}

func newColumnMetaDataIn(r *thrift.Reader) *ColumnMetaData {
	a, _ := r.Arena.(*arena)
	return a.columnMetaDataOrNew()
}

func newStatisticsIn(r *thrift.Reader) *Statistics {
	a, _ := r.Arena.(*arena)
	return a.statisticsOrNew()
}

func makeEncodingListIn(r *thrift.Reader, n int) []Encoding {
	a, _ := r.Arena.(*arena)
	return a.encodings(n)
}

func makeStringListIn(r *thrift.Reader, n int) []string {
	a, _ := r.Arena.(*arena)
	return a.strings(n)
}

// The methods below also serve the decoding fast path (fastdecode.go); a
// nil arena allocates each object on its own.

func (a *arena) columnMetaDataOrNew() *ColumnMetaData {
	if a == nil {
		return new(ColumnMetaData)
	}
	return &a.cmd.take(1)[0]
}

func (a *arena) statisticsOrNew() *Statistics {
	if a == nil {
		return new(Statistics)
	}
	return &a.stats.take(1)[0]
}

func (a *arena) typeDefinedOrderOrNew() *TypeDefinedOrder {
	if a == nil {
		return new(TypeDefinedOrder)
	}
	if a.typeOrder == nil {
		a.typeOrder = new(TypeDefinedOrder)
	}
	return a.typeOrder
}

func (a *arena) encodings(n int) []Encoding {
	if a == nil {
		return make([]Encoding, n)
	}
	return a.encs.take(n)
}

func (a *arena) strings(n int) []string {
	if a == nil {
		return make([]string, n)
	}
	return a.strs.take(n)
}

func (a *arena) pageEncodingStats(n int) []PageEncodingStats {
	if a == nil {
		return make([]PageEncodingStats, n)
	}
	return a.pes.take(n)
}

package format

import "github.com/carquet-go/carquet/parquet/thrift"

// arena carves the per-column-chunk objects of a footer out of large
// blocks, so that decoding a footer of tens of thousands of columns makes a
// few hundred allocations instead of tens of thousands.
type arena struct {
	cmd   []ColumnMetaData
	stats []Statistics
	encs  []Encoding
	strs  []string
	pes   []PageEncodingStats
	// typeOrder is the one TypeDefinedOrder (an empty marker struct) that
	// every ColumnOrder decoded with this arena points to.
	typeOrder *TypeDefinedOrder
	// index, for lazy decoding, is the footer's index if it has a valid
	// one, and lazyRowGroup the row group whose column list comes next.
	index        *FooterIndex
	lazyRowGroup int
	// block is the size of the next block: it starts small, so that small
	// footers do not pay for large blocks, and doubles up to arenaBlock.
	block int
}

const arenaBlock = 1024

func (a *arena) nextBlock() int {
	a.block = min(max(a.block*2, 16), arenaBlock)
	return a.block
}

func (a *arena) columnMetaData() *ColumnMetaData {
	if len(a.cmd) == 0 {
		a.cmd = make([]ColumnMetaData, a.nextBlock())
	}
	v := &a.cmd[0]
	a.cmd = a.cmd[1:]
	return v
}

func (a *arena) statistics() *Statistics {
	if len(a.stats) == 0 {
		a.stats = make([]Statistics, a.nextBlock())
	}
	v := &a.stats[0]
	a.stats = a.stats[1:]
	return v
}

func carve[T any](a *arena, slab *[]T, n int) []T {
	if n == 0 {
		return []T{} // present but empty: not nil
	}
	if n > arenaBlock/4 {
		return make([]T, n)
	}
	if len(*slab) < n {
		*slab = make([]T, max(a.nextBlock(), n))
	}
	v := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return v
}

func newColumnMetaDataIn(r *thrift.Reader) *ColumnMetaData {
	if a, ok := r.Arena.(*arena); ok {
		return a.columnMetaData()
	}
	return new(ColumnMetaData)
}

func newStatisticsIn(r *thrift.Reader) *Statistics {
	if a, ok := r.Arena.(*arena); ok {
		return a.statistics()
	}
	return new(Statistics)
}

func makeEncodingListIn(r *thrift.Reader, n int) []Encoding {
	if a, ok := r.Arena.(*arena); ok {
		return carve(a, &a.encs, n)
	}
	return make([]Encoding, n)
}

func makeStringListIn(r *thrift.Reader, n int) []string {
	if a, ok := r.Arena.(*arena); ok {
		return carve(a, &a.strs, n)
	}
	return make([]string, n)
}

// The methods below are for the decoding fast path (fastdecode.go); a nil
// arena allocates each object on its own.

func (a *arena) columnMetaDataOrNew() *ColumnMetaData {
	if a == nil {
		return new(ColumnMetaData)
	}
	return a.columnMetaData()
}

func (a *arena) statisticsOrNew() *Statistics {
	if a == nil {
		return new(Statistics)
	}
	return a.statistics()
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
	return carve(a, &a.encs, n)
}

func (a *arena) strings(n int) []string {
	if a == nil {
		return make([]string, n)
	}
	return carve(a, &a.strs, n)
}

func (a *arena) pageEncodingStats(n int) []PageEncodingStats {
	if a == nil {
		return make([]PageEncodingStats, n)
	}
	return carve(a, &a.pes, n)
}

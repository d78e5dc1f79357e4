package scan

import (
	"context"
	"fmt"
	"sync"

	"github.com/carquet-go/carquet/parquet/file"
	"github.com/carquet-go/carquet/parquet/schema"
)

// memoryBudget bounds the bytes the row groups a scan decodes at once may
// hold (file.Limits.MaxScanMemory). Units take their share in scan order,
// in the planner, so that a later unit never holds memory an earlier one
// waits for while the consumer waits for that earlier one.
type memoryBudget struct {
	limit int64
	mu    sync.Mutex
	used  int64
	peak  int64         // the most held at once (for tests)
	freed chan struct{} // closed and replaced at each release
}

func newMemoryBudget(limit int64) *memoryBudget {
	if limit <= 0 {
		return nil
	}
	return &memoryBudget{limit: limit, freed: make(chan struct{})}
}

// acquire waits until n bytes fit under the limit (or nothing else is
// held, so that the scan always progresses) or ctx ends.
func (m *memoryBudget) acquire(ctx context.Context, n int64) error {
	for {
		m.mu.Lock()
		if m.used == 0 || m.used+n <= m.limit {
			m.used += n
			m.peak = max(m.peak, m.used)
			m.mu.Unlock()
			return nil
		}
		freed := m.freed
		m.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (m *memoryBudget) release(n int64) {
	m.mu.Lock()
	m.used -= n
	close(m.freed)
	m.freed = make(chan struct{})
	m.mu.Unlock()
}

// unitMemory estimates what decoding a unit holds: the column chunks it
// reads as they sit in memory (compressed), plus the decoded size of the
// batches it may have in flight (the one being built and those its
// channel buffers, unitQueue), from the chunks' uncompressed sizes. A
// split unit reads its share of the pages.
func (s *Scanner) unitMemory(b *fileBinding, f *file.File, u *unit) int64 {
	rows := f.Meta.RowGroups[u.rg].NumRows
	if rows <= 0 {
		return 0
	}
	chunks, decoded := s.chunkSizes(b, f, u.rg)
	share := 1.0
	if u.span {
		share = float64(u.to-u.from) / float64(rows)
	}
	inFlight := min(1, float64(1+s.unitQueue(b, f, u))*float64(s.req.BatchSize)/float64(rows))
	return int64(share*chunks + inFlight*decoded)
}

// chunkSizes are the compressed and uncompressed sizes of the column
// chunks of row group rg that the scan reads.
func (s *Scanner) chunkSizes(b *fileBinding, f *file.File, rg int) (chunks, decoded float64) {
	for _, name := range b.needed {
		for _, leaf := range schema.LeavesUnder(nil, b.fields[name].Node) {
			cc, err := f.ColumnChunk(rg, leaf.Column)
			if err != nil || cc.MetaData == nil {
				continue
			}
			chunks += float64(max(cc.MetaData.TotalCompressedSize, 0))
			decoded += float64(max(cc.MetaData.TotalUncompressedSize, 0))
		}
	}
	return chunks, decoded
}

// queueBytes bounds the decoded batches an ordered scan's unit may hold
// ready before the consumer reaches it, by their size before the filter:
// with a filter, the batches queued hold only the rows that pass, mostly
// far fewer. Without one, every row is queued, and a quarter of it is
// allowed (TPC-H Q13's orders doubled its peak memory with the whole).
var queueBytes = 16 << 20 // a variable for the tests

// unitQueue is the number of batches a unit of an ordered scan may hold
// ready for the consumer. The consumer takes the units in order, so a
// worker decoding a later unit can only run ahead as far as its queue
// lets it: with a queue of two batches, the second thread of a scan of
// large row groups sat idle most of the time (TPC-H Q05's and Q12's
// lineitem). The queue holds the whole unit when its decoded size
// (estimated from the chunks' uncompressed sizes) is within queueBytes.
func (s *Scanner) unitQueue(b *fileBinding, f *file.File, u *unit) int {
	if s.req.Threads < 2 {
		return 2 // one worker: no later unit is decoded meanwhile
	}
	rows := f.Meta.RowGroups[u.rg].NumRows
	if u.span {
		rows = u.to - u.from
	}
	batches := int(rows/int64(s.req.BatchSize)) + 1
	budget := float64(queueBytes)
	if s.filter == nil {
		budget /= 4
	}
	_, decoded := s.chunkSizes(b, f, u.rg)
	if all := f.Meta.RowGroups[u.rg].NumRows; all > 0 && decoded > 0 {
		perBatch := decoded / float64(all) * float64(s.req.BatchSize)
		batches = min(batches, int(budget/perBatch))
	}
	return max(batches, 2)
}

// reserve takes a unit's memory from the budget before the unit is handed
// to a worker; run gives it back.
func (s *Scanner) reserve(b *fileBinding, f *file.File, u *unit) error {
	if s.mem == nil {
		return nil
	}
	n := s.unitMemory(b, f, u)
	if n > s.mem.limit {
		return fmt.Errorf("%s: row group %d: %w: decoding its %d columns takes about %d bytes, over the scan's memory limit of %d (Limits.MaxScanMemory): read fewer columns or raise the limit",
			s.t.Files[u.file].Path, u.rg, file.ErrLimit, len(b.needed), n, s.mem.limit)
	}
	if err := s.mem.acquire(s.ctx, n); err != nil {
		return err
	}
	u.mem = n
	return nil
}

package plan

import (
	"context"

	// Named so: the tests' exec helper takes the package's own name.
	kernels "github.com/carquet-go/carquet/sqlplan/exec"
)

// Query memory: the accounts live in package exec (exec/memory.go); the
// operators here add what they hold to them.

// ErrMemoryLimit is what a query that would hold more than memory_limit
// fails with (errors.Is).
var ErrMemoryLimit = kernels.ErrMemoryLimit

type opMemory = kernels.OpMemory

func WithQueryMemory(ctx context.Context, limit uint64) context.Context {
	return kernels.WithQueryMemory(ctx, limit)
}

func colBytes(c *Col) int64     { return kernels.ColBytes(c) }
func batchBytes(b *Batch) int64 { return kernels.BatchBytes(b) }
func FormatBytes(n uint64) string {
	return kernels.FormatBytes(n)
}

const mapEntryBytes = kernels.MapEntryBytes

package sqlplan

import (
	"context"
	"fmt"
	"strconv"

	"github.com/carquet-go/carquet/objstore"
	"github.com/carquet-go/carquet/parquet/format"
	"github.com/carquet-go/carquet/sqlplan/parse"
	"github.com/carquet-go/carquet/sqlplan/plan"
	"github.com/carquet-go/carquet/writer"
)

// OPTIMIZE t rewrites a single-file table's rows into full row groups
// (the table's row_group_rows), as writer.Compact does: atomically,
// keeping the table's options, metadata and bloom filters. Appends merge a
// file's small last row groups by themselves; OPTIMIZE is for files that
// other writers, or appends while the file was being read, left with many
// small ones. For a folder table it merges each run of small files (one
// per INSERT) into one (writer.CompactFolder), swapping the folder whole.
// A Delta table's small data files are compacted by a commit
// (delta_optimize.go). With the table option auto_optimize = K, an
// INSERT that leaves more than K small row groups (or files) runs it.

// prepareOptimize prepares OPTIMIZE name.
func (e *Engine) prepareOptimize(s *Stmt, text string, toks []parse.Token) (*Stmt, error) {
	if len(toks) != 2 || toks[1].Kind != parse.Ident && toks[1].Kind != parse.Quoted && toks[1].Kind != parse.DQuoted && toks[1].Kind != parse.String {
		return nil, errAt(text, parse.TokPos(text, toks, min(len(toks)-1, 2)), "OPTIMIZE takes one table name")
	}
	s.kind = kindOptimize
	s.table = toks[1].Name()
	return s, nil
}

// optimize runs OPTIMIZE; RowsAffected is the number of rows rewritten
// (0 when the table's row groups were full already).
func (s *Stmt) optimize(ctx context.Context, p *plan.Planner) (Result, error) {
	tg, err := s.e.targetOf(s.table, nil, true)
	if err != nil {
		return Result{}, err
	}
	if tg.delta != nil {
		return s.optimizeDelta(ctx, p, tg) // delta_optimize.go
	}
	if objstore.IsURL(tg.path) {
		return Result{}, remoteRewrite(tg.path, "OPTIMIZE")
	}
	opts, err := s.e.writeOptions(tg.opts)
	if err != nil {
		return Result{}, err
	}
	n, err := s.e.compact(tg.path, tg.folder, opts)
	return Result{RowsAffected: n}, err
}

// compact compacts a local one-file or folder table under the engine's
// write lock, and returns the number of rows rewritten.
func (e *Engine) compact(path string, folder bool, opts []writer.Option) (int64, error) {
	e.writeMu.Lock()
	defer e.writeMu.Unlock()
	e.forget(path)
	defer e.forget(path)
	if folder {
		return writer.CompactFolder(path, opts...)
	}
	return writer.Compact(path, opts...)
}

// autoOptimizeLimit is a table's auto_optimize option: compact the table
// after an INSERT (an append or a transaction's COMMIT, an Appender's
// Close) that leaves it with more than this many small row groups (for a
// folder table: small files). 0, or no option: never.
func autoOptimizeLimit(tableOpts map[string]string) (int, error) {
	v, ok := tableOpts["auto_optimize"]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, errorf("auto_optimize must be a count of small row groups (0: never), not %q", v)
	}
	return n, nil
}

// autoOptimize runs after an append to a local table committed: with
// the auto_optimize option K, it compacts the table as OPTIMIZE does
// when more than K of its row groups (meta: the footer the append left)
// or of its files (a folder table) are small. The rows are committed
// already, so an error here says so: the INSERT must not be run again.
func (e *Engine) autoOptimize(path string, folder bool, tableOpts map[string]string, meta *format.FileMetaData) error {
	limit, err := autoOptimizeLimit(tableOpts)
	if err != nil || limit == 0 || objstore.IsURL(path) || !folder && meta == nil {
		return err
	}
	opts, err := e.writeOptions(tableOpts)
	if err != nil {
		return err
	}
	var small int
	if folder {
		small, err = writer.SmallFiles(path, opts...)
	} else {
		small = writer.SmallRowGroups(meta, opts...)
	}
	if err == nil && small > limit {
		_, err = e.compact(path, folder, opts)
	}
	if err != nil {
		return fmt.Errorf("carquet: the rows were written to %s, but its auto_optimize failed: %w", path, err)
	}
	return nil
}
